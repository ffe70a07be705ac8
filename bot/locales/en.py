"""English catalogue (complete; the fallback of every other language): what every game shares.

Each game keeps its own keys in ``<game package>/locales/en.py`` (merged by ``bot/i18n.py``). ``MESSAGES``: key ->
``str.format`` template. ``COMMANDS`` is empty for English: command names and descriptions are written in English
in the cogs and serve as msgids for other languages.
"""

MESSAGES: dict[str, str] = {
    # -- errors (always ephemeral) --------------------------------------------------------------
    "err.with_rule": "**{rule}** — {text}",
    "err.internal": "Something went wrong on my side; nothing was changed. Please try again.",
    "err.bad_option": "I could not understand “{value}”: check the option and try again.",
    "err.forbidden": "You need the Manage Server permission for this.",
    "err.no_such_game": "Game {game_id} does not exist (any more): `/history` lists your games.",
    "err.no_game_here": "There is no {game} game in this channel: start one with a challenge.",
    "err.no_game_in_channel": "There is no game in this channel.",
    "err.not_player": "You are not a player of this game: start your own with {starts}.",
    "err.no_such_kind": "There is no game called “{game}” here.",
    "err.not_challenged": "Only <@{user}> can answer this challenge.",
    "err.not_started": "This game has not started yet: the challenge is waiting to be accepted.",
    "err.cooldown": "Slow down a little: you can do this again in {seconds} s.",
    "err.busy": "I am busy with this server's requests right now: try again in a few seconds.",
    "err.stale": "This board is out of date: the game moved on. Use the latest board below.",
    "err.conflict": "Someone acted at the same moment and their action came first: look at the new board.",
    "err.game_closed": (
        "This game is over; nothing more can be played in it. Rematch from its result card, or start a new one."
    ),
    "err.wrong_phase": "This game is not at that stage any more (it is {status}).",
    "err.self_challenge": "You cannot challenge yourself: pick another player, or me to play the AI.",
    "err.bot_opponent": "Bots cannot play here, except me: challenge me to play the AI.",
    "err.bad_level": "Unknown AI level “{level}”: use one of {levels}.",
    "err.level_needs_ai": (
        "The level is my strength as the AI; it does not apply to a game against {name}. Leave it out, or "
        "challenge me to play the AI."
    ),
    "err.channel_busy": "This channel already has a game in progress (game {game_id}): finish or abort it first.",
    "err.channel_busy_no_thread": (
        "This channel already has a game in progress and I may not open a thread here: "
        "finish it first, or challenge in another channel (a server admin can grant me {perms})."
    ),
    "err.guild_only": "Games are played in servers, not in direct messages.",
    # storage refusals by rule code
    "storage.VersionConflict": "Someone acted at the same moment and their action came first: look at the new board.",
    "storage.GameClosed": "This game is over; nothing more can be played in it. Start a new one to play on.",
    "storage.ChannelBusy": "This channel already has a game in progress: finish or abort it first.",
    # -- components -----------------------------------------------------------------------------
    "ui.accept": "Accept",
    "ui.decline": "Decline",
    "ui.join": "Join",
    "ui.leave": "Leave",
    "ui.start": "Start",
    "ui.add_bot": "Add bot",
    # -- shared commands --------------------------------------------------------------------------
    "lb.title": "{game} leaderboard — {guild}",
    "lb.empty": "Nobody has a rated {game} game in this server yet.",
    "lb.row": "{rank}. {name} — {rating} ({wins}W {losses}L {draws}D)",
    "lb.col_w": "W",
    "lb.col_l": "L",
    "lb.col_d": "D",
    "lb.col_1": "1st",
    "lb.col_2": "2nd",
    "lb.col_3": "3rd+",
    "lb.col_player": "player",
    "lb.col_rating": "rating",
    "stats.title": "Stats of {name}",
    "stats.row": "**{game}**: rank {rank}, rating {rating}, rated games: {games} ({wins}W {losses}L {draws}D)",
    "stats.row_places": "**{game}**: rank {rank}, rating {rating}, rated games: {games} (places: {places})",
    "stats.place": "{place} ×{n}",
    "stats.vs_ai": "  against the AI (not rated): {wins}W {losses}L {draws}D",
    "stats.vs_ai_places": "  against the AI (not rated): places: {places}",
    "stats.none": "**{game}**: no rated game yet.",
    "abort.done": "{name} aborted the {game} game of this channel. Nothing was rated.",
    "help.head": "**Board games on Discord**\n",
    "help.tail": (
        "**Everything**: `/play join` (a quick match with whoever comes next; `/play leave`), `/tournament` (a "
        "Swiss or round-robin tournament of the server: `create`, `join`, `start`, `standings`, `withdraw`), "
        "`/leaderboard`, `/stats`, `/history` (finished games), `/replay` (a finished game's replay "
        "and record), `/help`, `/about` (version, invite link), `/abandon` (end a game every player agrees to "
        "end; not rated), **Rematch** on a result card, `/mygames` (your open games, yours to move first), `/games` "
        "(this server's games: watch one), `/mysettings` (a DM when a game waits for you); admins (Manage "
        "Server): `/abort`, Abort in `/games`, `/settings` (the clock of new games, the expiry of challenges and "
        "lobbies, a thread per game); an admin who plays in the game needs the others' consent to abort it (as "
        "`/abandon`). A player who leaves the server or can no longer see the game's channel forfeits their seat: "
        "the others play on while two remain, else the opponent wins; rated as a forfeit.\n"
        "**Ratings**: a game is rated only once every player has moved (never against the AI); everyone starts at "
        "1500; **?** marks a rating of fewer than 5 rated games. Equal ratings: provisional ones last, then more "
        "games, then who got there first."
    ),
    "list.or": "{head} or {last}",
    "ai.seat": "AI {n}",
    "ai.level_easy": "easy",
    "ai.level_medium": "medium",
    "ai.level_hard": "hard",
    # -- results and seats (every game; a game may override a lobby text with <prefix>.<event>) ---------------
    "res.rating_changes": "Rating changes: {changes}.",
    "res.not_rated": "Not rated (a game against the AI).",
    "lobby.opened_in_thread": "This channel is busy, so the game is in {thread}.",
    "lobby.accepted": "{opponent} accepted {challenger}'s challenge.",
    "lobby.declined": "{name} declined the challenge.",
    "lobby.withdrawn": "{name} withdrew the challenge.",
    "lobby.joined": "{name} takes seat {n}.",
    "lobby.left": "{name} left the lobby.",
    "lobby.lobby_closed": "{name} closed the lobby.",
    "lobby.already_in": "You already have a seat in this game: wait for it to start.",
    "lobby.full": "The table is full ({max} players at most): open a game of your own.",
    "lobby.host_only": "Only the host (<@{host}>) can do this.",
    "lobby.too_few": "This game needs {min} to {max} players: wait for someone to join, or add a bot.",
}

COMMANDS: dict[str, str] = {}
