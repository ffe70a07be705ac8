"""English catalogue of Constructo (merged into ``en`` by ``bot/i18n.py``): challenge, board messages,
components (``cx.*``, Constructo's ``ui.*``), and the words of the board image (``img.ko.*``, the renderer's
English from ``render/constructo_words.py``)."""

from render.constructo_words import EN as _IMAGE_WORDS

MESSAGES: dict[str, str] = {
    "ui.resign": "Resign",
    "ui.confirm_resign": "Yes, resign",
    "ui.tile": "Tile {tile}",
    "ui.place_large": "Place a LARGE chip on…",
    "ui.place_medium": "Place a MEDIUM chip on…",
    "ui.place_small": "Place a SMALL chip on…",
    "ui.move_option": "Tile {src} → tile {dst}",
    "ui.move_placeholder": "Move a lone chip onto…",
    "ui.layout_placeholder": "Choose the layout of round 2…",
    "ui.keep_layout": "Keep {layout}",
    "ui.keep": "keep (same layout as round 1)",
    "ui.recommended": "recommended",
    "ui.experimental": "experimental",
    "ui.size_option": "{size} ({left} left)",
    "cx.size_small": "small",
    "cx.size_medium": "medium",
    "cx.size_large": "large",
    "cx.no_such_tile": "Tile {tile} does not exist: tiles are numbered 1-9.",
    "cx.challenge": (
        "{opponent}, **{challenger}** challenges you to a Constructo match on layout **{layout}**. "
        "Accept or decline below."
    ),
    "cx.challenge_open": (
        "**{challenger}** is looking for an opponent for a Constructo match on layout **{layout}**: anyone may "
        "accept below (or with `/constructo accept`)."
    ),
    "cx.thread_title_open": "Constructo: {a} vs anyone",
    "cx.ai_name": "AI ({level})",
    "cx.thread_title": "Constructo: {a} vs {b}",
    "cx.opened_in_thread": "This channel is busy, so the game is in {thread}.",
    "cx.accepted": "{opponent} accepted {challenger}'s challenge.",
    "cx.declined": "{name} declined the challenge.",
    "cx.withdrawn": "{name} withdrew the challenge.",
    "cx.started": "Constructo match started on layout **{layout}**.",
    "cx.started_ai": "Constructo match against the AI ({level}) started on layout **{layout}**. Not rated.",
    "cx.played": "{name} played {move}.",
    "cx.layout_chosen": "{name} chose layout **{layout}** for round 2.",
    "cx.resigned": "{name} resigned.",
    "cx.confirm_resign": (
        "Resign this match? You lose it at once, whatever the score. Click to confirm, or ignore this."
    ),
    "cx.board": "The current board:",
    "cx.to_move": "Round {round}: {who} to move.",
    "cx.score": "{name0} {a} – {b} {name1}",
    "cx.round_end": "Round {round} is over: {name} had no legal place or move left.",
    "cx.choose_layout": "{why} Score: {score}. {who}: choose the layout of round 2 (you start it).",
    "cx.over_win": "{why} Match over: **{winner}** wins, {score}.",
    "cx.over_draw": "{why} Match over: a draw, {score}.",
    "cx.over_resigned": "Match over: {loser} resigned, **{winner}** wins ({score} on the board).",
    "cx.over_timeout": "Match over: {loser}'s time ran out, **{winner}** wins ({score} on the board).",
    "cx.aborted": "This game was aborted.",
    "cx.rules": (
        "**Constructo in short**\n"
        "• Two players, 9 chips each (3 large, 3 medium, 3 small), on 9 hexagonal tiles (a *layout*).\n"
        "• On your turn do one thing: **place** a chip from your reserve on an empty tile "
        "(`/constructo place`), or **move** one of your chips that stands alone on its tile onto a "
        "neighbouring tile whose top chip is your opponent's (`/constructo move`).\n"
        "• Only these moves stack: medium onto large, small onto medium. A small never goes straight "
        "onto a large, nothing goes onto a small — except that a large may *swallow* a lone small "
        "(that pair is not a tower).\n"
        "• Once a tile holds two or more chips, none of its chips moves again; a lone chip may still move "
        "onto it by the rules above (placing is only ever on an empty tile).\n"
        "• A round ends as soon as the player to move cannot act. Every tower (2+ chips, a swallow "
        "alone excepted) scores 1 point for the owner of its top chip.\n"
        "• Two rounds; the second player chooses round 2's layout and starts it. Highest total wins.\n"
        "Layouts: {layouts}. See `/constructo layouts`."
    ),
    "cx.timed_out": "{name}'s time ran out: they lose the match.",
    "cx.help": (
        "**Constructo** (2 players): `/constructo challenge`, then play with the buttons under the "
        "board or `/constructo place` / `/constructo move`; also `board`, `resign`, `choose` (round 2 "
        "layout), `layouts`, `rules`. Challenge me to play the AI. `/puzzle play`: a position with one right "
        "move, privately; `/puzzle streaks`; admins: `/puzzle daily_channel` (a puzzle a day in a channel).\n"
    ),
}

# Post-match analysis (``bot/games/constructo/analysis.py``, issue 16): codes of ``analyse_round`` in words.
MESSAGES.update(
    {
        "cx.analysis_button": "Analysis",
        "cx.an_head": "**Analysis of match #{game_id}** (only you see this)",
        "cx.an_nothing": "No move was played, so there is nothing to analyse.",
        "cx.an_round": "__**Round {round}** · {layout}__",
        "cx.an_start": "At the start: {verdict} ({certainty}).",
        "cx.an_even": "a draw",
        "cx.an_ahead_one": "{name} wins by a tower",
        "cx.an_ahead": "{name} wins by {towers} towers",
        "cx.an_exact": "exact",
        "cx.an_estimate": "estimate",
        "cx.an_turning": "**Turning point:** move {n} by {name}: {move} {what}; best was {best} ({certainty}).",
        "cx.an_no_turning": "No move lost a tower.",
        "cx.an_decided": "Decided after move {n}: from there the result is proven.",
        "cx.an_decided_start": "Decided from the start: the result is proven before the first move.",
        "cx.an_best_was": "(best: {best})",
        "cx.an_forced": "forced",
        "cx.an_best": "best",
        "cx.an_good": "good (−{towers})",
        "cx.an_inaccuracy": "inaccuracy (−{towers})",
        "cx.an_lost_tower": "lost a tower",
        "cx.an_lost_towers": "lost {towers} towers",
        "cx.an_threw": "({before} → {after})",
        "cx.an_graph": "Round {round} · {layout} · value with best play (towers)",
        "cx.an_pictures": (
            "Pictures: the value after each move (a tag +n = that player ahead by n towers; solid = proven, "
            "dashed = estimate; a dot = a change of result; yellow = the turning point) and the board right after "
            "each turning point."
        ),
        "cx.an_win_to_draw": "lost the win (win → draw, −{towers})",
        "cx.an_draw_to_loss": "turned a draw into a loss (−{towers})",
        "cx.an_win_to_loss": "turned a win into a loss (−{towers})",
        "cx.an_legend": (
            "Values are the final tower difference with best play: exact where the solver proved it; "
            "≈ marks an estimate by the hard search (the rest of the round was too big to solve in the budget)."
        ),
    }
)

MESSAGES.update({f"img.{key}": template for key, template in _IMAGE_WORDS.items()})

# How a match ended (``/history``): ``cx.end_<outcome reason>``.
MESSAGES.update(
    {
        "cx.end_M2": "after both rounds",
        "cx.end_M3": "by resignation",
        "cx.end_timeout": "on time",
    }
)
