"""Spanish messages of the quick-match queue's repairs (``bot/services/matchqueue.py``)."""

MESSAGES: dict[str, str] = {
    "queuefix.dropped_blocked": (
        "Te sacamos de la cola de {game}: la configuración de este servidor ya no te permite jugar aquí."
    ),
    "queuefix.dropped_game_off": "Te sacamos de la cola de {game}: {game} se desactivó en este servidor.",
    "queuefix.dropped_channel": (
        "Te sacamos de la cola de {game}: ya no se puede jugar en el canal donde te pusiste en la cola."
    ),
    "queuefix.dropped_cap": (
        "Te sacamos de la cola de {game}: ya tenías tantas partidas abiertas como permite este servidor."
    ),
    "queuefix.dropped_other": "Te sacamos de la cola de {game}.",
    "queuefix.pairing": "Tu partida rápida se está abriendo ahora mismo: te mencionaré en un momento.",
}
