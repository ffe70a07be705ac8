"""English messages of games that never get stuck (issue 12): duplicate challenges, challenges answered by command,
the bot leaving a server, mutual abort, rematch, the admins' ``/games``."""

MESSAGES: dict[str, str] = {
    "err.duplicate_challenge": "The same challenge is already waiting (game {game_id}): {link}",
    "err.no_pending_challenge": "You have no pending {game} challenge in this server.",
    "err.several_challenges": "Several challenges wait for you ({players}): name the other player in `opponent`.",
    "lobby.accepted_there": "Accepted: the game is in {channel}.",
    # mutual abort
    "abort.offer": (
        "{name} proposes to abort this game: it ends without a result and is not rated. Agreed: {agreed}/{total}; "
        "waiting for {waiting}."
    ),
    "abort.stale": (
        "The game went on after this offer to abort it, so it no longer stands: propose again with /abandon."
    ),
    "abort.not_started": (
        "This game has not started yet: decline or withdraw the challenge, or leave the lobby, instead (the "
        "Decline and Leave buttons, or the game's decline and leave commands)."
    ),
    "abort.already": "You already agreed to abort this game; waiting for {waiting}.",
    "abort.agreed": "Every player agreed: the {game} game is aborted. Nothing was rated.",
    "ui.agree_abort": "Agree to abort",
    # rematch
    "ui.rematch": "Rematch",
    "rematch.offer": (
        "{name} wants a rematch (same players and options; {first} starts). {waiting}: click Rematch to accept."
    ),
    "rematch.already": "You already asked for this rematch; waiting for {waiting}.",
    "rematch.started": "The rematch has started already (game {game_id}, in {channel}).",
    "rematch.thread_title": "Rematch: {players}",
    # /games (admins)
    "games.none": "There is no open game in this server.",
    "games.head": "**Open games in this server: {n}**",
    "games.row": "**#{game_id}** {game} in {channel}: {players} · {state}",
    "games.turn": "to move: {who}, since {since}",
    "games.waiting": "waiting for players since {since}",
    "games.broken": "**#{game_id}** in {channel}: could not be read (it can still be aborted)",
    "games.more": "…and {n} more (finish or abort some to see them).",
    "games.confirm": "Abort this game? It ends without a result and is not rated.\n{line}",
    "games.aborted": "Game #{game_id} aborted. Nothing was rated.",
    "ui.abort": "Abort",
    "ui.abort_game": "Abort #{game_id}",
    "ui.abort_confirm": "Yes, abort it",
}
