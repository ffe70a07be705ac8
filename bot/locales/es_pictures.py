"""Spanish words shared by every game's after-game pictures (``en_pictures.py``): la clasificación y lo que dice
la lista de jugadas de cualquier repetición. Las palabras propias de cada juego están en sus ``locales/es.py``."""

MESSAGES: dict[str, str] = {
    "img.lb.title": "Clasificación",
    "img.lb.empty": "Aún no hay partidas puntuadas.",
    "img.lb.player": "jugador",
    "img.lb.rating": "puntuación",
    "img.lb.col_w": "V",
    "img.lb.col_l": "D",
    "img.lb.col_d": "E",
    "img.lb.t_empty": "{title}: aún no hay partidas puntuadas.",
    "img.lb.t_row": "{rank}. {name} — puntuación {rating} ({a} {w} / {b} {l} / {c} {d})",
    "img.rp.unfinished": "Sin terminar.",
    "img.rp.more_lines.one": "… {n} línea más: mira la lista completa de jugadas",
    "img.rp.more_lines.other": "… {n} líneas más: mira la lista completa de jugadas",
}
