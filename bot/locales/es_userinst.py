"""Mensajes en español de las instalaciones de usuario (``bot/services/reach.py``, ``bot/ui/installs.py``):
partidas en mensajes directos y grupos donde el bot no es miembro."""

MESSAGES: dict[str, str] = {
    "uinst.about": "\nPara jugar en mensajes directos y grupos, añade la aplicación a tu cuenta: <{url}>",
    "uinst.busy": (
        "Ya hay una partida en curso en esta conversación: termínala (o abandónala) antes de abrir otra aquí."
    ),
    "uinst.carried": "La partida siguió desde el último tablero de aquí; así está ahora.",
    "uinst.help": (
        "\n**En mensajes directos y grupos** (añade la aplicación a tu cuenta con el enlace de invitación de "
        "`/about`): {commands}. Reta a alguien de la conversación, o indica solo `level:` para jugar contra la IA, "
        "y juega con los menús bajo el tablero. El bot no es miembro de esas conversaciones, así que solo "
        "responde: cada tablero llega como respuesta al comando o clic de un jugador (o lo sigue en 15 minutos). "
        "Un tablero que no pudo salir entonces (la IA o un reloj hicieron avanzar la partida más tarde) llega con "
        "el siguiente clic o con el comando `board` del juego. Sin hilos ni recordatorios en la conversación: solo "
        "avisos de turno por mensaje directo, si los activaste con `/mysettings`. Estas partidas se puntúan aparte "
        "de las clasificaciones de cada servidor."
    ),
}

COMMANDS: dict[str, str] = {}
