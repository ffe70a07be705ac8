"""Mensajes en español de las partidas que nunca se quedan atascadas (issue 12)."""

MESSAGES: dict[str, str] = {
    "err.duplicate_challenge": "Ese mismo desafío ya está pendiente (partida {game_id}): {link}",
    "err.no_pending_challenge": "No tienes ningún desafío de {game} pendiente en este servidor.",
    "err.several_challenges": "Tienes varios desafíos pendientes ({players}): indica el otro jugador en `opponent`.",
    "lobby.accepted_there": "Aceptado: la partida está en {channel}.",
    # anulación de mutuo acuerdo
    "abort.offer": (
        "{name} propone anular esta partida: termina sin resultado y no puntúa. De acuerdo: {agreed}/{total}; "
        "falta {waiting}."
    ),
    "abort.stale": (
        "La partida siguió después de esta propuesta de anularla, así que ya no vale: vuelve a proponerlo con /abandon."
    ),
    "abort.not_started": (
        "Esta partida aún no ha empezado: rechaza o retira el reto, o sal de la sala (los botones Rechazar y "
        "Salir, o los comandos decline y leave del juego)."
    ),
    "abort.already": "Ya aceptaste anular esta partida; falta {waiting}.",
    "abort.agreed": "Todos los jugadores están de acuerdo: la partida de {game} queda anulada. No puntúa.",
    "ui.agree_abort": "Acepto anularla",
    # revancha
    "ui.rematch": "Revancha",
    "rematch.offer": (
        "{name} quiere la revancha (mismos jugadores y opciones; empieza {first}). {waiting}: pulsa Revancha para "
        "aceptar."
    ),
    "rematch.already": "Ya pediste esta revancha; falta {waiting}.",
    "rematch.started": "La revancha ya ha empezado (partida {game_id}, en {channel}).",
    "rematch.thread_title": "Revancha: {players}",
    # /games (administradores)
    "games.none": "No hay ninguna partida abierta en este servidor.",
    "games.head": "**Partidas abiertas en este servidor: {n}**",
    "games.row": "**#{game_id}** {game} en {channel}: {players} · {state}",
    "games.turn": "le toca a {who}, desde {since}",
    "games.waiting": "esperando jugadores desde {since}",
    "games.broken": "**#{game_id}** en {channel}: no se pudo leer (aún se puede anular)",
    "games.more": "…y {n} más (termina o anula alguna para verlas).",
    "games.confirm": "¿Anular esta partida? Termina sin resultado y no puntúa.\n{line}",
    "games.aborted": "Partida #{game_id} anulada. No puntúa.",
    "ui.abort": "Anular",
    "ui.abort_game": "Anular #{game_id}",
    "ui.abort_confirm": "Sí, anularla",
    "help.tail": (
        "**Para todo**: `/play join` (una partida rápida con quien llegue; `/play leave`), `/tournament` (un "
        "torneo suizo o de todos contra todos del servidor: `create`, `join`, `start`, `standings`, `withdraw`), "
        "`/leaderboard`, `/stats`, `/history` (partidas terminadas), `/replay` (la repetición y "
        "el registro de una partida terminada), `/help`, `/about` (versión, enlace de invitación), `/abandon` "
        "(anula una partida si todos los jugadores "
        "aceptan; no puntúa), **Revancha** en la tarjeta de resultado, `/mygames` (tus partidas abiertas, primero "
        "las que esperan tu jugada), `/games` (las partidas del servidor: mira una), `/mysettings` (un MD cuando "
        "una partida te espera); administradores (Gestionar servidor): `/abort`, Anular en `/games`, `/settings` "
        "(el reloj de las partidas nuevas, la caducidad de retos y salas, un hilo por partida); un "
        "admin que juega en la partida necesita que los demás acepten anularla (como `/abandon`). Quien se va del "
        "servidor o deja de ver el canal de la partida pierde su asiento: "
        "los demás siguen mientras queden dos, si no gana el rival; puntúa como una rendición.\n"
        "**Puntuación**: solo puntúa si cada jugador ha jugado (nunca contra la IA); se empieza con 1500; **?** = "
        "menos de 5 partidas puntuadas. Empates: provisionales detrás, luego más partidas, luego quien llegó antes."
    ),
}

COMMANDS: dict[str, str] = {
    "Propose to abort this channel's game: every player must agree; not rated": (
        "Propón anular la partida del canal: todos deben aceptar; no puntúa"
    ),
    "This server's open games: watch one (admins: abort one)": (
        "Las partidas abiertas del servidor: mira una (admins: anula una)"
    ),
}
