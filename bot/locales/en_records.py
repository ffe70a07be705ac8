"""English messages of game records (issue 16): ``/history``, ``/replay``, the result card's record buttons."""

MESSAGES: dict[str, str] = {
    "rec.not_found": "There is no finished game #{game_id} in this server.",
    "rec.running": (
        "Game #{game_id} is still being played: its record and replay are shown once it ends "
        "(they would reveal what is still hidden)."
    ),
    "rec.aborted": "Game #{game_id} was aborted: it has no result and no record.",
    "rec.head": "**Game #{game_id}** · {title} · {players} · {when}",
    "rec.no_replay": "This game has no animated replay; its record is attached.",
    "rec.replay_failed": "The animated replay could not be drawn this time; the move list and record are below.",
    "rec.json": (
        "The record of game #{game_id}: setup, every action and the result, as a JSON file. "
        "It is signed, and this bot's code can replay it and check every action against the rules."
    ),
    "rec.replay_button": "Replay",
    "rec.download_button": "Download record",
    "hist.head": "**Recent games of {who}** · {game} · page {page}",
    "hist.all_games": "all games",
    "hist.empty": "No finished games here yet.",
    "hist.win": "win",
    "hist.draw": "draw",
    "hist.loss": "loss",
    "hist.place": "{place} of {seats}",
    "hist.rating": "rating {delta} ({after})",
    "hist.unrated": "not rated",
    "hist.unrated_ai": "not rated (AI)",
    "hist.ai": "the AI",
    "hist.vs": "vs {players}",
    "hist.newer": "◀ Newer",
    "hist.older": "Older ▶",
    "hist.open": "Open a game's record…",
    "rec.step_open": "Step through",
    "rec.step_jump": "Jump to a move…",
    "rec.step_option": "Move {move} of {total}",
    "rec.step_head": "**Game #{game_id}** · move {move} of {total} (only you see this)",
    "rec.step_none": "Game #{game_id} has no replay to step through.",
    "rec.step_bad": "There is no move “{move}” in this game.",
}
