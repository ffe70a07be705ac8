"""Mensajes en español de ``/mygames`` y de mirar una partida (bot/ui/watch.py)."""

MESSAGES: dict[str, str] = {
    "mine.none": "No tienes ninguna partida abierta en este servidor. Empieza una con {starts}.",
    "mine.head": "**Tus partidas abiertas aquí: {n}** · esperan tu jugada: {turns}",
    "mine.row": "**#{game_id}** {game} en {channel} contra {against}: {state} · [ir al tablero]({link})",
    "mine.waiting": "esperando jugadores",
    "mine.your_turn": "**te toca**",
    "mine.their_turn": "le toca a {who}",
    "mine.time_left": "el tiempo se acaba {when}",
    "ui.watch": "Mirar una partida…",
    "me.alerts_on": "Avisos de turno por MD: **activados** (un MD cuando una partida espera tu jugada; "
    "`/mysettings alerts:off`).",
    "me.alerts_off": "Avisos de turno por MD: **desactivados** (`/mysettings alerts:on` para recibir un MD cuando "
    "una partida te espere).",
    "me.alerts_hello": "Avisos de turno activados: te escribiré aquí cuando una partida espere tu jugada.",
    "me.alerts_closed": (
        "No pude enviarte un MD, así que los avisos siguen **desactivados**. Permite mensajes directos de los "
        "miembros de este servidor (menú del servidor, Ajustes de privacidad) y vuelve a probar "
        "`/mysettings alerts:on`."
    ),
    "me.alerts_failed": (
        "Tus avisos de turno se desactivaron porque un MD no pudo llegarte (tienes los MD cerrados). Ábrelos y usa "
        "`/mysettings alerts:on`."
    ),
    "alert.turn": "Te toca en {game} **#{game_id}** en **{server}**: {link}",
    "err.own_open_challenge": "Es tu propio desafío abierto: espera a que alguien lo acepte, o retíralo.",
    "err.open_not_declinable": (
        "Es un desafío abierto: cualquiera puede aceptarlo; solo quien lo creó puede retirarlo."
    ),
    "watch.head": "**#{game_id}** {game}, tal como está ahora · [ir a la partida]({link})",
}

COMMANDS: dict[str, str] = {
    "Your own settings: turn alerts by DM": "Tus propios ajustes: avisos de turno por MD",
    "A DM when a game waits for your move (one per turn; off by default)": (
        "Un MD cuando una partida espera tu jugada (uno por turno; desactivado por defecto)"
    ),
    "Your open games in this server: whose turn, time left, links": (
        "Tus partidas abiertas en este servidor: a quién le toca, tiempo, enlaces"
    ),
}
