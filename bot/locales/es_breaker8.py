"""Mensajes en español de las correcciones de QA de la rama ``breaker8``: un comando de partida en un hilo
ocupado; una acción en una partida anulada."""

MESSAGES: dict[str, str] = {
    "lobby.stale": "La sala cambió desde que la viste (otro clic llegó antes): no se añadió nada. Vuelve a mirarla.",
    "err.game_aborted": "Esta partida se anuló; ya no se puede jugar en ella. Empieza una nueva para seguir jugando.",
    "err.channel_busy_in_thread": (
        "Este hilo ya tiene una partida en curso y un hilo no puede tener hilos propios: termina esa partida "
        "primero o empieza la tuya en <#{parent}>."
    ),
    "err.channel_busy_not_text": (
        "Este canal ya tiene una partida en curso y aquí las partidas no pueden tener un hilo propio: termínala "
        "primero o empieza la tuya en un canal de texto."
    ),
}

COMMANDS: dict[str, str] = {}
