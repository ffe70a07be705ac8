"""English catalogue of CONEX (merged into ``en`` by ``bot/i18n.py``): lobby, table messages, components,
refusals of the CONEX service (``cn.*``, ``ui.cn_*``), and the words of the images (``img.cn.*``, the renderers'
English from ``render/conex_words.py``, so every image word has its Spanish checked like any message)."""

from render.conex_words import EN as _IMAGE_WORDS

MESSAGES: dict[str, str] = {
    "ui.cn_hand": "My hand",
    "ui.cn_hints": "Hints",
    "ui.cn_draw": "Draw 2",
    "ui.cn_pass": "Pass",
    "ui.cn_discard": "Discard",
    "ui.cn_discard_placeholder": "Card to put at the bottom of the draw pile…",
    "ui.cn_discard_placeholder_page": "Cards {span}: one to put at the bottom of the draw pile…",
    "ui.cn_hint": "{n} · +{points}",
    "ui.cn_hint_2x": "{n} · 2x +{points}",
    "ui.cn_forfeit": "Yes, leave the game",
    "ui.cn_fair": "How do I know the deal was fair?",
    "cn.lobby": (
        "**CONEX lobby** opened by {host} — table {table}, goal {goal} points. Seats ({n}/4):\n{seats}\n"
        "Join, leave or add a bot below; the host starts with 2–4 players."
    ),
    "cn.lobby_seat": "{n}. {who}",
    "cn.lobby_closed": "{name} closed the CONEX lobby.",
    "cn.joined": "{name} takes seat {n}.",
    "cn.left": "{name} left the lobby.",
    "cn.started": "CONEX started: {n} players, table {table}, goal {goal} points.",
    "cn.confirm_forfeit": (
        "Leave this running game? Your hand goes to the bottom of the draw pile, your score becomes 0, your "
        "turns are skipped and you rank last. Click to confirm, or ignore this."
    ),
    "cn.no_game_here": "There is no CONEX game in this channel: open a lobby with `/conex new`.",
    "cn.already_in": "You already have a seat in this game: wait for the host to start.",
    "cn.full": "The table is full ({max} players at most): open your own lobby with `/conex new`.",
    "cn.host_only": "Only the host (<@{host}>) can do this.",
    "cn.too_few": "CONEX needs 2 to 4 players: wait for someone to join, or add a bot.",
    "cn.forfeited": "You left this game; your seat no longer plays.",
    "cn.no_discard": "You have no discard to make.",
    "cn.not_your_turn": "Not your turn: it is {who}'s turn.",
    "cn.not_your_turn_timed_out": (
        "Not your turn: your time ran out and your turn was skipped, so it is {who}'s turn now."
    ),
    "cn.not_in_hand": "Card #{card} is not in your hand: pick one from `/conex hand` (letter or number).",
    "cn.thread_title": "CONEX lobby of {host}",
    "cn.own_thread": "The CONEX lobby has a thread of its own: {thread} (join it there).",
    "cn.opened_in_thread": "This channel is busy, so the CONEX lobby is in {thread}.",
    "cn.not_on_table": "Card #{card} is not on the table: pick a number shown on the table image.",
    "cn.the_board": "the board",
    "cn.ev_placed": "{name} placed card #{card} (corner {corner}) on {target}: **+{points}**.",
    "cn.ev_placed_double": "{name} placed card #{card} (corner {corner}) on {target} with the 2x star: **+{points}**.",
    "cn.ev_die": "Die: **{face}**.",
    "cn.ev_drew.one": "{name} drew {n} card.",
    "cn.ev_drew.other": "{name} drew {n} cards.",
    "cn.ev_star": "{name} takes the **{star}** star (usable from their next turn).",
    "cn.ev_star_from": "{name} takes the **{star}** star from {prev} (usable from their next turn).",
    "cn.ev_star_kept": "{name} rolled the **{star}** star they already hold: they keep it.",
    "cn.score_item": "{name}: {score}",
    "cn.ev_passed": "{name} passed.",
    "cn.ev_lightning": "{name} used the lightning star: card #{card} goes to the bottom of the draw pile.",
    "cn.ev_discarded": "{name} discarded a card.",
    "cn.ev_discard_timeout": (
        "{name}'s discard was overdue: a random card of their hand went to the bottom of the pile."
    ),
    "cn.ev_goal": "{name} reached the goal with {score} points: the round is played to its end.",
    "cn.ev_forfeit": "{name} left the game: their hand goes to the bottom of the pile and their seat is skipped.",
    "cn.reason_E1": "the goal was reached and the round is complete",
    "cn.reason_E2-pass": "every player passed in one go-round",
    "cn.reason_E2-empty": "all hands and the draw pile are empty",
    "cn.reason_forfeit": "too few players are left in the game",
    "cn.ev_turn_timeout": (
        "{name}'s time ran out: their turn is skipped ({count} of {limit} in a row; at {limit} they leave the game)."
    ),
    "cn.forfeited_mark": "(left)",
    "cn.to_play": "{who} to play. Scores: {scores}. Draw pile: {pile}. Goal: {goal}.",
    "cn.pending": "Waiting for discards from: {who} — one card each (Discard button, or `/conex discard`).",
    "cn.over_why.one": "**CONEX over** ({why}) — winner: **{winners}**. Scores: {scores}.",
    "cn.over_why.other": "**CONEX over** ({why}) — winners: **{winners}**. Scores: {scores}.",
    "cn.rating_changes": "Rating changes: {changes}.",
    "cn.not_rated": "Not rated (a game with AI seats).",
    "cn.aborted": "This game was aborted.",
    "cn.must_discard": "A lightning was used: choose a card of your hand to put at the bottom of the draw pile.",
    "cn.hints": "Good legal placements, one small preview per hint; press a number to play it:",
    "cn.hints_off_turn": (
        "Not your turn yet: the placements your hand has now, to plan ahead (read only; the table may change "
        "before your turn)."
    ),
    "cn.hint_line": (
        "{n}. card **{letter}** (#{card}), corner {corner} on {target} at ({x}, {y}) cm, rotation {rot}° — "
        "**+{points}**"
    ),
    "cn.hint_label": "+{points}: {letter} #{card} → {target}",
    "cn.hint_with_2x": " (with your 2x star: **+{points}**, button {n} · 2x)",
    "cn.no_hints": "None of your cards has a legal placement now: draw (or pass if the pile is empty).",
    "cn.board": "The current table:",
    "cn.last_action": "Last action — {name}: `{action}`.",
    "cn.zoom": "Zoom on {zoom}:",
    "cn.color_Y": "yellow",
    "cn.color_R": "red",
    "cn.color_T": "turquoise",
    "cn.color_P": "purple",
    "cn.zoom_last": "last card placed",
    "cn.zoom_table": "the whole table",
    "cn.help": (
        "**CONEX** (2–4 players): `/conex new` opens a lobby (others `/conex join` or press Join; the host may "
        "`/conex addbot` and `/conex start`). On your turn: `/conex place` (card letter or number + corner; give "
        "a `target` to auto-fit, or exact `x`/`y` in cm; add `double:true` to use your 2x star), or the buttons "
        "under the table: **My hand** (private, with legal spots), **Hints** (private, also off-turn to plan; press a "
        "number to play it), **Draw 2** / **Pass**. Also `/conex lightning`, `/conex discard`, `/conex board` "
        "(`zoom`: a card number, `last` or `table`; `text`), `/conex leave`, `/conex rules`.\n"
    ),
    "cn.rules": (
        "**CONEX in short**\n"
        "• 2–4 players, 5 cards each. Cards have a background colour and 2–3 coloured *CONEX corners* worth 1–5.\n"
        "• On your turn do one thing: **place** a card (`/conex place`, or pick a hint), **draw** 2 cards, or "
        "**pass** (only when the draw pile is empty).\n"
        "• Placing: the corner you choose must lie on a visible card of the same colour, or on the board square "
        "of that colour; the new card may touch only that target, no visible corner, and must "
        "stay on the table.\n"
        "• You score the corner's value; +2 more on a +2 card. A die card makes you roll: 1 or 2 cards, or a "
        "star. The 2x star doubles one later placement; the lightning star removes a free card at the start or "
        "end of your turn, and every other player then discards one card.\n"
        "• When someone reaches the goal, the round is finished and the highest score wins (ties share).\n"
        "• Coordinates are in cm from the board centre, x right, y down, rotation clockwise. "
        "Leaving a running game forfeits it: you rank last."
    ),
}

# Provably fair deals (``bot/games/conex/fairness.py``, issue 16).
MESSAGES.update(
    {
        "cn.commitment": (
            "🔒 The deal is sealed before anyone sees a card (fingerprint `{hash}`): "
            "**How do I know the deal was fair?** explains it."
        ),
        "cn.reveal": "🔓 The deal can be checked now: **How do I know the deal was fair?**",
        "cn.reveal_seed": "Deal seed: `{seed}` (fingerprint `{hash}`). Check it with this bot's code: `{command}`",
        "cn.fair_explain": (
            "Before anyone saw a card, I posted a fingerprint of the shuffle's secret seed: that "
            "seed decides the deal, every die roll and every random discard, and no other seed gives the same "
            "fingerprint. When the game is over I reveal the seed, so anyone can recompute the fingerprint and the "
            "whole deal from it and see that nothing was changed."
        ),
        "cn.fair_hash": "Fingerprint posted at the start: `{hash}`",
        "cn.fair_pending": "The seed is revealed when the game is over.",
    }
)

# How a game ended (``/history``): ``cn.end_<outcome reason>``.
MESSAGES.update(
    {
        "cn.end_E1": "goal reached",
        "cn.end_E2-pass": "everyone passed",
        "cn.end_E2-empty": "out of cards",
        "cn.end_forfeit": "too few players left",
    }
)

MESSAGES.update({f"img.{key}": template for key, template in _IMAGE_WORDS.items()})

# The specific refusals of typed input (``rule.Input.<reason>``, raised by ``placing.py``) and the image words of
# the legibility pass (zoom names, corner positions, the hint caption's board word).
MESSAGES.update(
    {
        "rule.Input.bad_table": "The table is one of {sizes}. Nothing was changed.",
        "rule.Input.bad_goal": "The goal is 20 to 100 points, not {goal}. Nothing was changed.",
        "rule.Input.bad_rotation": "The rotation is a finite number of degrees from -360 to 360, not {value}.",
        "rule.Input.no_letter": "No card of your hand has the letter {card}: your cards are {letters}.",
        "rule.Input.not_card": "“{text}” is not a card: give its hand letter ({letters}) or its number.",
        "rule.Input.not_target": "“{text}” is not a target: give a table card number or the board.",
        "rule.Input.not_number": "{what} must be a number of cm.",
        "rule.Input.not_finite": "{what} must be a finite number of cm.",
        "rule.Input.off_tables": "{what} = {value} cm is off every table (at most {limit} cm from the centre).",
        "rule.Input.one_coordinate": "Give both x and y (in cm), or neither to let me fit the card on the target.",
    }
)

# A pose the geometry library could not judge (``Table.check_pose``, rule ``Geometry``: not a rulebook rule).
MESSAGES["rule.Geometry.unchecked"] = (
    "I could not check this pose of card #{card} (corner {corner}): my geometry library failed on it, so I did not "
    "place it and nothing was changed. Move it a millimetre or turn it a degree, or leave out x and y to let me fit "
    "it."
)
