"""Mensajes en español de la huella de una partida en su canal (``bot/services/footprint.py``)."""

MESSAGES: dict[str, str] = {
    "lobby.own_thread": "La partida tiene su propio hilo: {thread}.",
    "foot.result": "{game} en {thread} ha terminado.",
    "settings.thread_per_game": "Cada partida nueva tiene su propio hilo: {value}.",
    "settings.on": "sí",
    "settings.off": "no (las partidas se quedan en el canal)",
}

COMMANDS: dict[str, str] = {
    "Open each new game in a thread of its own (default: on)": "Abrir cada partida nueva en su propio hilo (por defecto: sí)",  # noqa: E501
}
