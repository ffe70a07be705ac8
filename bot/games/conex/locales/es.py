"""Spanish catalogue of CONEX (partial; merged into ``es``, missing keys fall back to English)."""

MESSAGES: dict[str, str] = {
    "ui.cn_hand": "Mi mano",
    "ui.cn_hints": "Pistas",
    "ui.cn_draw": "Robar 2",
    "ui.cn_pass": "Pasar",
    "ui.cn_discard": "Descartar",
    "ui.cn_forfeit": "Sí, abandonar la partida",
    "cn.no_game_here": "No hay ninguna partida de CONEX en este canal: abre una sala con `/conex new`.",
    "cn.already_in": "Ya tienes un asiento en esta partida.",
    "cn.full": "La mesa está completa (como mucho {max} jugadores).",
    "cn.host_only": "Solo el anfitrión (<@{host}>) puede hacer esto.",
    "cn.too_few": "CONEX necesita de 2 a 4 jugadores: espera a que alguien se una o añade un bot.",
    "cn.forfeited": "Abandonaste esta partida; tu asiento ya no juega.",
    "cn.reason_E1": "se alcanzó la meta y la ronda está completa (E1)",
    "cn.reason_E2-pass": "todos los jugadores pasaron en una vuelta (E2)",
    "cn.reason_E2-empty": "todas las manos y el mazo de robo están vacíos (E2)",
    "cn.reason_forfeit": "quedan demasiado pocos jugadores en la partida",
    "cn.ev_turn_timeout": (
        "Se acabó el tiempo de {name}: se salta su turno ({count} de {limit} seguidos; con {limit} abandona la "
        "partida)."
    ),
    "cn.no_discard": "No tienes ningún descarte pendiente.",
    "cn.must_discard": "Se usó un rayo: elige una carta de tu mano para ponerla debajo del mazo.",
}

COMMANDS: dict[str, str] = {
    "Play CONEX: place cards so their corners match colours, score points": (
        "Juega a CONEX: coloca cartas con esquinas del mismo color y suma puntos"
    ),
    "Open a CONEX lobby in this channel (2-4 players)": "Abre una sala de CONEX en este canal (2-4 jugadores)",
    "See your CONEX hand (only you see it)": "Mira tu mano de CONEX (solo la ves tú)",
    "Place a card from your hand (exact pose or auto-fit)": (
        "Coloca una carta de tu mano (pose exacta o ajuste automático)"
    ),
    "Draw two cards from the draw pile (ends your turn)": "Roba dos cartas del mazo (termina tu turno)",
    "The rules of CONEX in short": "Las reglas de CONEX en breve",
}

# Repartos verificables (``bot/games/conex/fairness.py``, issue 16).
MESSAGES.update({
    "cn.commitment": (
        "🔒 Compromiso del reparto (SHA-256 de la semilla del barajado, mazo `{deck}`): `{hash}`. "
        "La semilla se revela al final para que cualquiera compruebe el reparto, los dados y los descartes al azar."
    ),
    "cn.reveal": "🔓 Semilla del reparto: `{seed}` (compromiso `{hash}`). Compruébalo: `{command}`",
    "cn.deal_not_public": "La mesa con el compromiso del reparto aún no está publicada: inténtalo en un momento.",
})
