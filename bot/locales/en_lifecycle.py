"""English messages of games that never get stuck (issue 12): duplicate challenges, challenges answered by command,
the bot leaving a server, mutual abort, rematch, the admins' ``/games``."""

MESSAGES: dict[str, str] = {
    "err.duplicate_challenge": "The same challenge is already waiting (game {game_id}): {link}",
    "err.no_pending_challenge": "You have no pending {game} challenge in this server.",
    "err.several_challenges": "Several challenges wait for you ({players}): name the other player in `opponent`.",
    "lobby.accepted_there": "Accepted: the game is in {channel}.",
}
