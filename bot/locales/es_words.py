"""Spanish words for results and ratings (``en_words.py``): puestos con su nombre, por qué una partida no puntuó,
cómo terminó cada partida en ``/history``."""

MESSAGES: dict[str, str] = {
    "res.not_rated_unmoved": (
        "Sin puntuar: {names} no llegó a hacer ninguna jugada (una partida solo puntúa cuando cada jugador ha jugado)."
    ),
    "stats.provisional": "? = provisional: menos de {games} partidas puntuadas por ahora.",
    "place.1": "1.º",
    "place.2": "2.º",
    "place.3": "3.º",
    "place.n": "{n}.º",
    "place.shared": "{place} (compartido)",
    "hist.end_abort": "anulada",
    "hist.aborted": "anulada (sin resultado)",
    "abort.after_forfeit": (
        "{names} ya dejó esta partida después de jugar, así que ya no se puede anular (borraría su último "
        "puesto). Terminadla jugando, o déjala tú (quedas último)."
    ),
}
