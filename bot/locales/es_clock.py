"""Mensajes en español de los relojes: recordatorios, tiempo agotado, caducidad de retos y ``/settings``."""

MESSAGES: dict[str, str] = {
    "clk.line": "⏱️ Corre el reloj de {name} ({preset}): el tiempo se agota {when}.",
    "clk.preset_live": "en vivo, 5 minutos por jugada",
    "clk.preset_daily": "diario, 24 horas por jugada",
    "clk.preset_none": "sin reloj",
    "clk.remind": "⏰ {who}, te toca jugar en {game}: tu tiempo se agota {when}.",
    "clk.claimable": (
        "⌛ Se acabó el tiempo de {name} ({when}). {others}: puedes reclamar la victoria con el botón o seguir "
        "esperando: {name} aún puede jugar hasta que alguien la reclame."
    ),
    "clk.claim_closed": "⌛ Esta reclamación está cerrada: la partida siguió después de acabarse el tiempo.",
    "clk.claim_closed_of": (
        "⌛ Se acabó el tiempo de {name} ({when}) y la partida siguió: esta reclamación está cerrada."
    ),
    "clk.not_late": "A nadie se le ha acabado el tiempo en esta partida: no hay nada que reclamar.",
    "clk.moved_in_time": "{name} jugó a tiempo, justo antes de tu reclamación: no hay nada que reclamar.",
    "clk.bad_preset": "Reloj desconocido «{value}»: usa uno de estos: {presets}.",
    "settings.bad_expiry": "La caducidad debe estar entre {min} y {max} minutos, no {value}. No se cambió nada.",
    "clk.own_clock": "Es tu propio tiempo el que se acabó: haz tu jugada.",
    "ui.claim": "Reclamar la victoria",
    "lobby.expired_of": (
        "⌛ {players}: esta partida de {game} caducó antes de empezar (nadie la empezó a tiempo); el canal "
        "vuelve a estar libre."
    ),
    "lobby.closed_by": "{name} cerró esta partida de {game} antes de empezar ({players}). No puntúa.",
    "lobby.gone_expired": "Este reto o sala caducó: nadie lo empezó a tiempo. Abre uno nuevo.",
    "lobby.gone": "Este reto o sala está cerrado (rechazado, retirado o anulado): abre uno nuevo.",
    "lobby.gone_started": "Esta partida ya ha empezado: juega en su tablero.",
    "settings.show": (
        "**Ajustes de juego de este servidor**\n"
        "Reloj de las partidas nuevas (si el comando no elige otro): {clock}.\n"
        "Los retos y salas sin respuesta caducan a los {minutes} minutos."
    ),
    "settings.saved": "Guardado.",
}

COMMANDS: dict[str, str] = {
    "Time control: live (5 min per move), daily (24 h per move) or none; default: the server's": "Reloj: live (5 min por jugada), daily (24 h por jugada) o none; por defecto, el del servidor",  # noqa: E501
    "Game settings of this server: clock of new games, expiry of challenges and lobbies": "Ajustes de juego del servidor: reloj de las partidas nuevas, caducidad de retos y salas",  # noqa: E501
    "Clock of new games when the command chooses none": "Reloj de las partidas nuevas cuando el comando no elige ninguno",  # noqa: E501
    "Minutes before an unanswered challenge or lobby expires (1-1440)": "Minutos hasta que caduca un reto o sala sin respuesta (1-1440)",  # noqa: E501
}
