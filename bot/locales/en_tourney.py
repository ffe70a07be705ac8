"""English messages of tournaments (``/tournament``, ``bot/services/tournaments.py``); ``COMMANDS`` is empty (the
English descriptions are the cog's own)."""

MESSAGES: dict[str, str] = {
    "tourney.fmt_swiss": "Swiss",
    "tourney.fmt_roundrobin": "round robin",
    "tourney.created": (
        "{organiser} opened a {game} tournament ({format}{rounds_text}, clock: {clock}). "
        "Type `/tournament join` to take part; {organiser} starts it with `/tournament start`."
    ),
    "tourney.rounds_text": "; rounds: {rounds}",
    "tourney.joined.one": "You are in the {game} tournament ({n} player so far). `/tournament leave` takes you out.",
    "tourney.joined.other": "You are in the {game} tournament ({n} players so far). `/tournament leave` takes you out.",
    "tourney.left": "You left the {game} tournament.",
    "tourney.withdrew": (
        "You withdrew from the {game} tournament: you will not be paired again. A game of yours already running "
        "goes on (resign it to give it up); your results so far stand."
    ),
    "tourney.cancelled": "{name} cancelled the {game} tournament before it started.",
    "tourney.started_text": "The {game} tournament starts with {n} players ({format}; rounds: {rounds}).",
    "tourney.exists": "This server already has a tournament taking entries or running: `/tournament standings`.",
    "tourney.none": "This server has no tournament taking entries or running: `/tournament create` opens one.",
    "tourney.none_ever": "This server has had no tournament yet: `/tournament create` opens one.",
    "tourney.format": "Choose the format: swiss or roundrobin.",
    "tourney.rounds_rr": "A round robin plays every opponent once: leave out `rounds`.",
    "tourney.started": "The tournament has already started: entries are closed.",
    "tourney.already": "You are already in this tournament.",
    "tourney.full": "The tournament is full ({max} players at most).",
    "tourney.not_in": "You are not in this tournament.",
    "tourney.use_withdraw": "The tournament has started: `/tournament withdraw` takes you out of the next rounds.",
    "tourney.use_leave": "The tournament has not started yet: `/tournament leave` takes back your entry.",
    "tourney.already_withdrawn": "You have already withdrawn from this tournament.",
    "tourney.organiser_only": "Only the organiser (<@{user}>) or a server admin can do this.",
    "tourney.too_few": "A tournament needs at least {min} players; {n} joined so far.",
    "tourney.running_no_cancel": "The tournament has started: it plays to its end (players may withdraw).",
    "tourney.thread": "{game} tournament, round {round}: {a} vs {b}",
    "tourney.round_head": "**{game} tournament: round {round} of {rounds}**",
    "tourney.board_line": "Board {board}: {a} vs {b}",
    "tourney.bye_line": "Bye (scores as a win): {player}",
    "tourney.unplayed_line": "Board {board}: {a} vs {b}, not played (a player withdrew)",
    "tourney.round_foot": "Each game has its own board: play it there. The next round starts when every game is over.",
    "tourney.head_open": "**{game} tournament** ({format}; rounds: {rounds}): taking entries",
    "tourney.head_running": "**{game} tournament** ({format}): round {round} of {rounds}",
    "tourney.head_finished": "**{game} tournament** ({format}; rounds: {rounds}): final standings",
    "tourney.head_cancelled": "**{game} tournament** ({format}): cancelled",
    "tourney.standing_line": "{place}. {name}: {points} pts (Buchholz {buchholz}, SB {berger}; {played} played)",
    "tourney.withdrawn_mark": "(withdrew)",
    "tourney.legend": (
        "Win or bye 1, draw ½. Ties: Buchholz (opponents' points), then Sonneborn-Berger (points of those beaten, "
        "half of those drawn), then the game between them, then wins, then who joined first."
    ),
    "tourney.no_players": "Nobody has joined yet.",
    "tourney.page": "Page {page} of {pages}: `/tournament standings page:<n>`.",
    "tourney.final_head": "**The {game} tournament is over.**",
    "tourney.podium_line.one": "{place}. {player} ({points} point)",
    "tourney.podium_line.other": "{place}. {player} ({points} points)",
    "tourney.not_opened.one": "{n} game could not open yet; it is tried again shortly.",
    "tourney.not_opened.other": "{n} games could not open yet; they are tried again shortly.",
    "tourney.final_foot": "Full standings: `/tournament standings`.",
}

COMMANDS: dict[str, str] = {}
