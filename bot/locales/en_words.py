"""English words for results and ratings (plain words, lichess conventions): places named as places, why a game was
not rated, how a game ended in ``/history`` (each game adds its own endings as ``<prefix>.end_<reason>``)."""

MESSAGES: dict[str, str] = {
    "res.not_rated_unmoved": (
        "Not rated: {names} never made a move (a game is rated only when every player has moved)."
    ),
    "stats.provisional": "? = provisional: fewer than {games} rated games so far.",
    "place.1": "1st",
    "place.2": "2nd",
    "place.3": "3rd",
    "place.n": "{n}th",
    "place.shared": "{place} (shared)",
    "hist.end_abort": "aborted",
    "hist.aborted": "aborted (no result)",
    "abort.after_forfeit": (
        "{names} already left this game after playing, so it can no longer be aborted (that would erase their "
        "last place). Play it out, or leave it yourself (you then rank last)."
    ),
}
