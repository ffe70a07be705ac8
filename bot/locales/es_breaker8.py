"""Mensajes en español de las correcciones de QA de la rama ``breaker8``: un comando de partida en un hilo
ocupado; una acción en una partida anulada."""

from bot.locales.es_field import MESSAGES as _FIELD

MESSAGES: dict[str, str] = {
    "cap.member.one": (
        "Tienes {count} partida abierta en este servidor (límite {limit}): termínala o abandónala (/abandon) antes. "
        "No se abrió nada."
    ),
    "cap.member.other": _FIELD["cap.member"],
    "cap.server.one": (
        "Este servidor ya tiene {count} partida abierta (límite {limit}, fijado por sus administradores con "
        "/settings): espera a que termine. No se abrió nada."
    ),
    "cap.server.other": _FIELD["cap.server"],
    "cap.threads.one": (
        "Este canal está ocupado y este servidor ya tiene {count} partida en un hilo que abrí (límite {limit}): "
        "juega en un canal libre o termina antes una partida. No se abrió nada."
    ),
    "cap.threads.other": _FIELD["cap.threads"],
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
