"""English catalogue (complete; the fallback of every other language).

``MESSAGES``: key -> ``str.format`` template. ``COMMANDS`` is empty for English: command names
and descriptions are written in English in the cogs and serve as msgids for other languages.
"""

MESSAGES: dict[str, str] = {
    # -- errors (always ephemeral) --------------------------------------------------------------
    "err.with_rule": "**{rule}** — {text}",
    "err.internal": "Something went wrong on my side; nothing was changed. Please try again.",
    "err.bad_option": "I could not understand {value!r}: check the option and try again.",
    "err.forbidden": "You need the Manage Server permission for this.",
    "err.no_such_game": "Game {game_id} does not exist (any more).",
    "err.no_game_here": "There is no {game} game in this channel: start one with a challenge.",
    "err.no_game_in_channel": "There is no game in this channel.",
    "err.not_player": "You are not a player of this game: start your own with `/constructo challenge` or `/conex new`.",
    "err.not_challenged": "Only <@{user}> can answer this challenge.",
    "err.not_started": "This game has not started yet: the challenge is waiting to be accepted.",
    "err.stale": "This board is out of date: the game moved on. Use the latest board below.",
    "err.conflict": "Someone acted at the same moment and their action came first: look at the new board.",
    "err.game_closed": "This game is over; nothing more can be played in it.",
    "err.wrong_phase": "This game is not at that stage any more (it is {status}).",
    "err.self_challenge": "You cannot challenge yourself: pick another player, or me to play the AI.",
    "err.bot_opponent": "Bots cannot play here, except me: challenge me to play the AI.",
    "err.bad_level": "Unknown AI level {level!r}: use one of {levels}.",
    "err.channel_busy": "This channel already has a game in progress (game {game_id}): finish or abort it first.",
    "err.channel_busy_no_thread": (
        "This channel already has a game in progress and I may not open a thread here: "
        "finish it first, or challenge in another channel."
    ),
    "err.guild_only": "Games are played in servers, not in direct messages.",
    # storage refusals by rule code
    "storage.VersionConflict": "Someone acted at the same moment and their action came first: look at the new board.",
    "storage.GameClosed": "This game is over; nothing more can be played in it.",
    "storage.ChannelBusy": "This channel already has a game in progress: finish or abort it first.",
    # -- components -----------------------------------------------------------------------------
    "ui.accept": "Accept",
    "ui.decline": "Decline",
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
    # -- Constructo messages --------------------------------------------------------------------
    "cx.challenge": (
        "{opponent}, **{challenger}** challenges you to a Constructo match on layout **{layout}**. "
        "Accept or decline below."
    ),
    "cx.ai_name": "AI ({level})",
    "cx.thread_title": "Constructo: {a} vs {b}",
    "cx.opened_in_thread": "This channel is busy, so the game is in {thread}.",
    "cx.accepted": "{opponent} accepted {challenger}'s challenge.",
    "cx.declined": "{name} declined the challenge.",
    "cx.withdrawn": "{name} withdrew the challenge.",
    "cx.started": "Constructo match started on layout **{layout}**.",
    "cx.started_ai": "Constructo match against the AI ({level}) started on layout **{layout}**. Not rated.",
    "cx.played": "{name} played **{move}**.",
    "cx.layout_chosen": "{name} chose layout **{layout}** for round 2.",
    "cx.resigned": "{name} resigned.",
    "cx.confirm_resign": "Resign this match? You lose it at once (rule M3). Click to confirm, or ignore this.",
    "cx.resign_done": "You resigned.",
    "cx.board": "The current board:",
    "cx.to_move": "Round {round}: {who} to move.",
    "cx.choose_layout": "Round 1 is over ({a}-{b}). {who}: choose the layout of round 2 (you start it).",
    "cx.over_win": "Match over: **{winner}** wins, {name0} {a} – {b} {name1}.",
    "cx.over_draw": "Match over: a draw, {a} – {b}.",
    "cx.over_resigned": "Match over: {loser} resigned, **{winner}** wins ({a} – {b} on the board).",
    "cx.aborted": "This game was aborted.",
    "cx.rating_changes": "Rating: {changes}.",
    "cx.not_rated": "Not rated (a game against the AI).",
    "cx.rules": (
        "**Constructo in short**\n"
        "• Two players, 9 chips each (3 large, 3 medium, 3 small), on 9 hexagonal tiles (a *layout*).\n"
        "• On your turn do one thing: **place** a chip from your reserve on an empty tile "
        "(`/constructo place`), or **move** one of your chips that stands alone on its tile onto a "
        "neighbouring tile whose top chip is your opponent's (`/constructo move`).\n"
        "• Only these moves stack: medium onto large, small onto medium. A small never goes straight "
        "onto a large, nothing goes onto a small — except that a large may *swallow* a lone small "
        "(that pair is not a tower).\n"
        "• A tile with two or more chips is blocked for good.\n"
        "• A round ends as soon as the player to move cannot act. Every tower (2+ chips, a swallow "
        "alone excepted) scores 1 point for the owner of its top chip.\n"
        "• Two rounds; the second player chooses round 2's layout and starts it. Highest total wins.\n"
        "Layouts: {layouts}. See `/constructo layouts`."
    ),
    # -- shared commands --------------------------------------------------------------------------
    "lb.title": "{game} leaderboard — {guild}",
    "lb.empty": "Nobody has a rated {game} game in this server yet.",
    "lb.row": "{rank}. {name} — {rating:.1f} ({wins}W {losses}L {draws}D)",
    "stats.title": "Stats of {name}",
    "stats.row": "**{game}**: rank {rank}, rating {rating:.1f}, rated games: {games} ({wins}W {losses}L {draws}D)",
    "stats.none": "**{game}**: no rated game yet.",
    "abort.done": "{name} aborted the {game} game of this channel. Nothing was rated.",
    "help.text": (
        "**Board games on Discord**\n"
        "**Constructo** (2 players): `/constructo challenge`, then play with the buttons under the "
        "board or `/constructo place` / `/constructo move`; also `board`, `resign`, `choose` (round 2 "
        "layout), `layouts`, `rules`. Challenge me to play the AI.\n"
        "{conex}"
        "**Everything**: `/leaderboard`, `/stats`, `/help`; admins (Manage Server): `/abort`."
    ),
    "help.conex": (
        "**CONEX** (2–4 players): `/conex new` opens a lobby (others `/conex join` or press Join; the host may "
        "`/conex addbot` and `/conex start`). On your turn: `/conex place` (card letter or number + corner; give "
        "a `target` to auto-fit, or exact `x`/`y` in cm), or the buttons under the table: **My hand** (private, "
        "with legal spots), **Hints** (press a number to play it), **Draw 2** / **Pass**. Also `/conex lightning`, "
        "`/conex discard`, `/conex board` (`zoom`, `text`), `/conex leave`, `/conex rules`.\n"
    ),
}

COMMANDS: dict[str, str] = {}
