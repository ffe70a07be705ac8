"""English messages of the game layer's core (issue 20): a commit whose outcome the database could not confirm."""

MESSAGES: dict[str, str] = {
    "err.commit_unknown": (
        "My database stopped answering while your action was being saved, so I cannot tell yet whether it was. "
        "If it was saved, its board appears here as soon as the database is back; if not, nothing changed and "
        "you can play it again then."
    ),
}
