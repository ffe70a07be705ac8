"""Mensajes en español de las partidas que nunca se quedan atascadas (issue 12)."""

MESSAGES: dict[str, str] = {
    "err.duplicate_challenge": "Ese mismo desafío ya está pendiente (partida {game_id}): {link}",
    "err.no_pending_challenge": "No tienes ningún desafío de {game} pendiente en este servidor.",
    "err.several_challenges": "Tienes varios desafíos pendientes ({players}): indica el otro jugador en `opponent`.",
    "lobby.accepted_there": "Aceptado: la partida está en {channel}.",
}

COMMANDS: dict[str, str] = {}
