"""Spanish messages of tournaments (``/tournament``); ``COMMANDS`` translates its descriptions."""

MESSAGES: dict[str, str] = {
    "tourney.fmt_swiss": "suizo",
    "tourney.fmt_roundrobin": "todos contra todos",
    "tourney.created": (
        "{organiser} abrió un torneo de {game} ({format}{rounds_text}, reloj: {clock}). "
        "Escribe `/tournament join` para participar; {organiser} lo empieza con `/tournament start`."
    ),
    "tourney.rounds_text": "; rondas: {rounds}",
    "tourney.joined.one": "Estás en el torneo de {game} ({n} jugador por ahora). `/tournament leave` te saca.",
    "tourney.joined.other": "Estás en el torneo de {game} ({n} jugadores por ahora). `/tournament leave` te saca.",
    "tourney.left": "Has salido del torneo de {game}.",
    "tourney.withdrew": (
        "Te has retirado del torneo de {game}: no volverás a ser emparejado. Una partida tuya en curso sigue "
        "(abandónala si no quieres jugarla); tus resultados hasta ahora cuentan."
    ),
    "tourney.cancelled": "{name} canceló el torneo de {game} antes de empezar.",
    "tourney.started_text": "Empieza el torneo de {game} con {n} jugadores ({format}; rondas: {rounds}).",
    "tourney.exists": "Este servidor ya tiene un torneo abierto o en juego: `/tournament standings`.",
    "tourney.none": "Este servidor no tiene ningún torneo abierto ni en juego: `/tournament create` abre uno.",
    "tourney.none_ever": "Este servidor aún no ha tenido ningún torneo: `/tournament create` abre uno.",
    "tourney.format": "Elige el formato: swiss (suizo) o roundrobin (todos contra todos).",
    "tourney.rounds_rr": "En un todos contra todos se juega una vez contra cada rival: no indiques `rounds`.",
    "tourney.started": "El torneo ya ha empezado: las inscripciones están cerradas.",
    "tourney.already": "Ya estás en este torneo.",
    "tourney.full": "El torneo está completo (como mucho {max} jugadores).",
    "tourney.not_in": "No estás en este torneo.",
    "tourney.use_withdraw": "El torneo ya ha empezado: `/tournament withdraw` te saca de las rondas siguientes.",
    "tourney.use_leave": "El torneo aún no ha empezado: `/tournament leave` retira tu inscripción.",
    "tourney.already_withdrawn": "Ya te has retirado de este torneo.",
    "tourney.organiser_only": "Solo quien lo organiza (<@{user}>) o un administrador del servidor puede hacerlo.",
    "tourney.too_few": "Un torneo necesita al menos {min} jugadores; por ahora hay {n}.",
    "tourney.running_no_cancel": "El torneo ya ha empezado: se juega hasta el final (los jugadores pueden retirarse).",
    "tourney.thread": "Torneo de {game}, ronda {round}: {a} contra {b}",
    "tourney.round_head": "**Torneo de {game}: ronda {round} de {rounds}**",
    "tourney.board_line": "Mesa {board}: {a} contra {b}",
    "tourney.bye_line": "Descansa (cuenta como victoria): {player}",
    "tourney.unplayed_line": "Mesa {board}: {a} contra {b}, no se juega (un jugador se retiró)",
    "tourney.round_foot": (
        "Cada partida tiene su propio tablero: juégala allí. La ronda siguiente empieza cuando terminan todas."
    ),
    "tourney.head_open": "**Torneo de {game}** ({format}; rondas: {rounds}): inscripciones abiertas",
    "tourney.head_running": "**Torneo de {game}** ({format}): ronda {round} de {rounds}",
    "tourney.head_finished": "**Torneo de {game}** ({format}; rondas: {rounds}): clasificación final",
    "tourney.head_cancelled": "**Torneo de {game}** ({format}): cancelado",
    "tourney.standing_line": "{place}. {name}: {points} pts (Buchholz {buchholz}, SB {berger}; {played} jugadas)",
    "tourney.withdrawn_mark": "(retirado)",
    "tourney.legend": (
        "Victoria o descanso 1, tablas ½. Empates: Buchholz (puntos de los rivales), luego Sonneborn-Berger (puntos "
        "de los vencidos y la mitad de los empatados), luego la partida entre ellos, luego victorias, luego quién "
        "se inscribió antes."
    ),
    "tourney.no_players": "Aún no se ha inscrito nadie.",
    "tourney.page": "Página {page} de {pages}: `/tournament standings page:<n>`.",
    "tourney.final_head": "**El torneo de {game} ha terminado.**",
    "tourney.podium_line.one": "{place}. {player} ({points} punto)",
    "tourney.podium_line.other": "{place}. {player} ({points} puntos)",
    "tourney.not_opened.one": "{n} partida aún no se ha podido abrir; se vuelve a intentar en breve.",
    "tourney.not_opened.other": "{n} partidas aún no se han podido abrir; se vuelven a intentar en breve.",
    "tourney.final_foot": "Clasificación completa: `/tournament standings`.",
}

COMMANDS: dict[str, str] = {
    "Tournaments: Swiss or round robin": "Torneos: suizo o todos contra todos",
    "Open a tournament in this channel (one per server at a time)": (
        "Abre un torneo en este canal (uno por servidor a la vez)"
    ),
    "Which game": "Qué juego",
    "swiss (a fixed number of rounds) or roundrobin (everyone plays everyone, 3-10 players)": (
        "swiss (un número fijo de rondas) o roundrobin (todos contra todos, de 3 a 10 jugadores)"
    ),
    "Swiss only: how many rounds (default 3)": "Solo suizo: cuántas rondas (por defecto 3)",
    "Take part in this server's tournament": "Participa en el torneo de este servidor",
    "Take back your entry before the tournament starts": "Retira tu inscripción antes de que empiece el torneo",
    "Start the tournament (organiser or admin): round 1 is paired and its games open": (
        "Empieza el torneo (organizador o administrador): se empareja la ronda 1 y se abren sus partidas"
    ),
    "Leave a running tournament: you are not paired again": "Deja un torneo en juego: no vuelves a ser emparejado",
    "The tournament's standings, with the tie-breaks": "La clasificación del torneo, con los desempates",
    "Which page": "Qué página",
    "Cancel the tournament before it starts (organiser or admin)": (
        "Cancela el torneo antes de que empiece (organizador o administrador)"
    ),
}
