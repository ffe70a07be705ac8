"""Spanish catalogue (partial: missing keys fall back to English key by key)."""

MESSAGES: dict[str, str] = {
    "err.with_rule": "**{rule}** — {text}",
    "err.not_player": "No juegas en esta partida: empieza la tuya con un desafío.",
    "err.stale": "Este tablero está desfasado: la partida avanzó. Usa el tablero más reciente.",
    "ui.accept": "Aceptar",
    "ui.decline": "Rechazar",
    "ui.resign": "Abandonar",
    "rule.NotYourTurn": "No es tu turno.",
    "rule.K3": "una ficha pequeña nunca va directamente sobre una grande.",
}

COMMANDS: dict[str, str] = {
    "Play Constructo: stack chips on 9 hex tiles, build towers": "Juega a Constructo: apila fichas y construye torres",
    "Show this channel's Constructo board again": "Muestra de nuevo el tablero de Constructo del canal",
    "The rules of Constructo in short": "Las reglas de Constructo en breve",
}
