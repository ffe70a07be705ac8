"""Spanish catalogue of what every game shares (complete: ``tests/bot/test_spanish.py`` fails on a missing key; each
game keeps its own in ``<game package>/locales/es.py``). Serves es-ES and es-419 alike.

``COMMANDS`` translates command and option descriptions (gettext-style: the English text is the
msgid); command names stay English so that help texts and autocomplete agree in every language.
"""

MESSAGES: dict[str, str] = {
    "err.with_rule": "**{rule}** — {text}",
    "err.internal": "Algo falló por mi parte; no se ha cambiado nada. Vuelve a intentarlo.",
    "err.not_player": "No juegas en esta partida: empieza la tuya con {starts}.",
    "list.or": "{head} o {last}",
    "ai.seat": "IA {n}",
    "ai.level_easy": "fácil",
    "ai.level_medium": "media",
    "ai.level_hard": "difícil",
    "err.cooldown": "Más despacio: podrás volver a hacerlo dentro de {seconds} s.",
    "err.busy": "Estoy ocupado con las peticiones de este servidor: inténtalo de nuevo en unos segundos.",
    "err.stale": "Este tablero está desfasado: la partida avanzó. Usa el tablero más reciente.",
    "err.conflict": "Otra acción llegó en el mismo momento y fue primero: mira el tablero nuevo.",
    "err.game_closed": (
        "Esta partida ha terminado; ya no se puede jugar en ella. Pide la revancha en su tarjeta de resultado o "
        "empieza otra."
    ),
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
    "rule.Input": "No he entendido lo que has escrito: revisa las opciones del comando e inténtalo de nuevo.",
    "rule.Forfeited": "Dejaste esta partida; tu asiento ya no juega.",
    "rule.State": "La partida guardada no se puede leer; no se ha cambiado nada.",
    "err.bad_option": "No he entendido «{value}»: revisa la opción e inténtalo de nuevo.",
    "err.no_such_game": "La partida {game_id} no existe (o ya no existe): `/history` lista tus partidas.",
    "err.no_game_in_channel": "No hay ninguna partida en este canal.",
    "err.no_such_kind": "Aquí no hay ningún juego llamado «{game}».",
    "err.not_challenged": "Solo <@{user}> puede responder a este desafío.",
    "err.not_started": "Esta partida aún no ha empezado: el desafío espera a que lo acepten.",
    "err.wrong_phase": "Esta partida ya no está en esa fase (está {status}).",
    "err.bot_opponent": "Los bots no pueden jugar aquí, salvo yo: desafíame para jugar contra la IA.",
    "err.bad_level": "Nivel de IA desconocido «{level}»: usa uno de {levels}.",
    "err.level_needs_ai": (
        "El nivel es mi fuerza como IA; no se aplica a una partida contra {name}. Quítalo, o desafíame para "
        "jugar contra la IA."
    ),
    "err.channel_busy": ("Este canal ya tiene una partida en curso (partida {game_id}): termínala o anúlala primero."),
    "err.guild_only": "Las partidas se juegan en servidores, no en mensajes directos.",
    "storage.VersionConflict": "Otra acción llegó en el mismo momento y fue primero: mira el tablero nuevo.",
    "storage.GameClosed": "Esta partida ha terminado; ya no se puede jugar en ella. Empieza otra para seguir.",
    "storage.ChannelBusy": "Este canal ya tiene una partida en curso: termínala o anúlala primero.",
    "lb.title": "Clasificación de {game} — {guild}",
    "lb.empty": "Nadie tiene todavía una partida puntuada de {game} en este servidor.",
    "lb.row": "{rank}. {name} — {rating} ({wins}V {losses}D {draws}E)",
    "lb.col_w": "V",
    "lb.col_l": "D",
    "lb.col_d": "E",
    "lb.col_1": "1.º",
    "lb.col_2": "2.º",
    "lb.col_3": "3.º+",
    "lb.col_player": "jugador",
    "lb.col_rating": "puntuación",
    "stats.title": "Estadísticas de {name}",
    "stats.row": (
        "**{game}**: puesto {rank}, puntuación {rating}, partidas puntuadas: {games} ({wins}V {losses}D {draws}E)"
    ),
    "stats.row_places": (
        "**{game}**: puesto {rank}, puntuación {rating}, partidas puntuadas: {games} (puestos: {places})"
    ),
    "stats.place": "{place} ×{n}",
    "stats.vs_ai": "  contra la IA (sin puntuar): {wins}V {losses}D {draws}E",
    "stats.vs_ai_places": "  contra la IA (sin puntuar): puestos: {places}",
    "stats.none": "**{game}**: ninguna partida puntuada todavía.",
    "abort.done": "{name} anuló la partida de {game} de este canal. No se ha puntuado nada.",
    "help.head": "**Juegos de mesa en Discord**\n",
    "res.rating_changes": "Cambios de puntuación: {changes}.",
    "res.not_rated": "Sin puntuar (una partida contra la IA).",
    "lobby.opened_in_thread": "Este canal está ocupado, así que la partida está en {thread}.",
    "lobby.accepted": "{opponent} aceptó el desafío de {challenger}.",
    "lobby.declined": "{name} rechazó el desafío.",
    "lobby.withdrawn": "{name} retiró el desafío.",
    "lobby.joined": "{name} ocupa el asiento {n}.",
    "lobby.left": "{name} salió de la sala.",
    "lobby.lobby_closed": "{name} cerró la sala.",
    "lobby.already_in": "Ya tienes un asiento en esta partida: espera a que empiece.",
    "lobby.full": "La mesa está completa (como mucho {max} jugadores): abre tu propia partida.",
    "lobby.host_only": "Solo el anfitrión (<@{host}>) puede hacer esto.",
    "lobby.too_few": ("Esta partida necesita de {min} a {max} jugadores: espera a que alguien se una o añade un bot."),
}

COMMANDS: dict[str, str] = {
    "The server's best players of a game": "Los mejores jugadores del servidor en un juego",
    "Which game": "Qué juego",
    "Ratings and results of a player (you by default)": "Puntuación y resultados de un jugador (tú por defecto)",
    "Whose stats": "De quién",
    "How to play with this bot": "Cómo jugar con este bot",
    "Admins: end this channel's game (not rated)": "Admins: termina la partida de este canal (sin puntuar)",
}
