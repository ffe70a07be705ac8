"""Spanish catalogue of what every game shares (partial: missing keys fall back to English key by key; each game
keeps its own in ``<game package>/locales/es.py``).

``COMMANDS`` translates command and option descriptions (gettext-style: the English text is the
msgid); command names stay English so that help texts and autocomplete agree in every language.
"""

MESSAGES: dict[str, str] = {
    "err.with_rule": "**{rule}** — {text}",
    "err.internal": "Algo falló por mi parte; no se ha cambiado nada. Vuelve a intentarlo.",
    "err.not_player": "No juegas en esta partida: empieza la tuya con {starts}.",
    "list.or": "{head} o {last}",
    "err.stale": "Este tablero está desfasado: la partida avanzó. Usa el tablero más reciente.",
    "err.conflict": "Otra acción llegó en el mismo momento y fue primero: mira el tablero nuevo.",
    "err.game_closed": "Esta partida ha terminado; ya no se puede jugar en ella.",
    "err.no_game_here": "No hay ninguna partida de {game} en este canal: empieza una con un desafío.",
    "err.self_challenge": "No puedes desafiarte a ti mismo: elige a otra persona, o a mí para jugar contra la IA.",
    "err.forbidden": "Necesitas el permiso Gestionar servidor para esto.",
    "ui.accept": "Aceptar",
    "ui.decline": "Rechazar",
    "ui.join": "Unirse",
    "ui.leave": "Salir",
    "ui.start": "Empezar",
    "ui.add_bot": "Añadir bot",
    "rule.NotYourTurn": "No es tu turno: espera la jugada de tu rival.",
}

COMMANDS: dict[str, str] = {
    "The server's best players of a game": "Los mejores jugadores del servidor en un juego",
    "Which game": "Qué juego",
    "Ratings and results of a player (you by default)": "Puntuación y resultados de un jugador (tú por defecto)",
    "Whose stats": "De quién",
    "How to play with this bot": "Cómo jugar con este bot",
    "Admins: end this channel's game (not rated)": "Admins: termina la partida de este canal (sin puntuar)",
}
