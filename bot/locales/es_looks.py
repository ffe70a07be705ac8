"""Mensajes en español del aspecto de las imágenes de un jugador: ``/mysettings theme`` y ``palette``."""

MESSAGES: dict[str, str] = {
    "me.look": (
        "Tus imágenes privadas (mano, pistas, zoom, análisis): tema **{theme}**, paleta **{palette}** "
        "(`/mysettings theme:` y `palette:`). Las imágenes publicadas en el canal conservan el aspecto por defecto "
        "(oscuro, estándar)."
    ),
    "me.theme_dark": "oscuro",
    "me.theme_light": "claro",
    "me.palette_standard": "estándar",
    "me.palette_colour-blind": "para daltónicos",
}

COMMANDS: dict[str, str] = {
    "Your private pictures (hand, hints, zoom, analysis): dark or light background": (
        "Tus imágenes privadas (mano, pistas, zoom, análisis): fondo oscuro o claro"
    ),
    "Player colours of your private pictures: standard, or colour-blind (with patterns)": (
        "Colores de jugador de tus imágenes privadas: estándar o para daltónicos (con tramas)"
    ),
}
