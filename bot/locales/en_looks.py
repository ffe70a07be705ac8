"""English messages of a player's picture look: ``/mysettings theme`` and ``palette`` (:mod:`bot.services.looks`)."""

MESSAGES: dict[str, str] = {
    "me.look": (
        "Your private pictures (hand, hints, zoom, analysis): **{theme}** theme, **{palette}** palette "
        "(`/mysettings theme:` and `palette:`). Pictures posted in the channel keep the default look (dark, standard)."
    ),
    "me.theme_dark": "dark",
    "me.theme_light": "light",
    "me.palette_standard": "standard",
    "me.palette_colour-blind": "colour-blind",
}
