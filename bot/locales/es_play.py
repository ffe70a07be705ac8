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
    "err.own_open_challenge": "Es tu propio desafío abierto: espera a que alguien lo acepte, o retíralo.",
    "watch.head": "**#{game_id}** {game}, tal como está ahora · [ir a la partida]({link})",
}

COMMANDS: dict[str, str] = {
    "Your open games in this server: whose turn, time left, links": (
        "Tus partidas abiertas en este servidor: a quién le toca, tiempo, enlaces"
    ),
}
