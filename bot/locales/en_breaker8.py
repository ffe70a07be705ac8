"""English messages of the QA fixes of branch ``breaker8``: a game command in a busy thread (Discord opens no thread
in a thread, so no permission would help); an action on an aborted game (no result card, no rematch)."""

from bot.locales.en_field import MESSAGES as _FIELD

MESSAGES: dict[str, str] = {
    # the caps' refusals say "1 open game", not "1 open games" (bot.errors.describe picks the form by ``count``)
    "cap.member.one": (
        "You have {count} open game in this server (limit {limit}): finish or /abandon it first. Nothing was opened."
    ),
    "cap.member.other": _FIELD["cap.member"],
    "cap.server.one": (
        "This server already has {count} open game (limit {limit}, set by its admins with /settings): wait until it "
        "ends. Nothing was opened."
    ),
    "cap.server.other": _FIELD["cap.server"],
    "cap.threads.one": (
        "This channel is busy and this server already has {count} game in a thread I opened (limit {limit}): play "
        "in a free channel or finish a game first. Nothing was opened."
    ),
    "cap.threads.other": _FIELD["cap.threads"],
    "lobby.stale": "The lobby changed since you looked (another click came first): nothing was added. Look again.",
    "err.game_aborted": "This game was aborted; nothing more can be played in it. Start a new one to play on.",
    "err.channel_busy_in_thread": (
        "This thread already has a game in progress, and a thread cannot hold a thread of its own: finish that game "
        "first, or start yours in <#{parent}>."
    ),
    "err.channel_busy_not_text": (
        "This channel already has a game in progress and games cannot get a thread of their own here: finish it "
        "first, or start yours in a text channel."
    ),
}

COMMANDS: dict[str, str] = {}
