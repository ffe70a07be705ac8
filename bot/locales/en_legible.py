"""English words joining player names (``lg.vs``: ``"Alice vs Bob"``, :func:`bot.i18n.versus`)."""

MESSAGES: dict[str, str] = {
    "lg.vs": "{a} vs {b}",
}
