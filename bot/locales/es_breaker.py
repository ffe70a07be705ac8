"""Mensajes en español de las correcciones de QA (rama ``breaker``): los rangos que comprueban los comandos."""

MESSAGES: dict[str, str] = {
    "tourney.bad_rounds": "Un torneo suizo juega de {min} a {max} rondas, no {value}. No se ha cambiado nada.",
    "pz.bad_hour": "La hora es una hora entera del día, de {min} a {max} (UTC), no {value}. No se ha cambiado nada.",
    "live.bad_message": (
        "La mesa no ha entendido lo que envió la página (¿una página alterada o antigua?): "
        "vuelve a cargarla. No se ha cambiado nada."
    ),
    "live.one_at_a_time": "Una petición cada vez: la mesa aún está respondiendo a la anterior.",
}

COMMANDS: dict[str, str] = {}
