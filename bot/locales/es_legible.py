"""Spanish words joining player names (``lg.vs``: ``"Alice contra Bob"``, :func:`bot.i18n.versus`)."""

MESSAGES: dict[str, str] = {
    "lg.vs": "{a} contra {b}",
}
