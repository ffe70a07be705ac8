"""Spanish messages of the quick-match queues (``/play``); ``COMMANDS`` translates its descriptions."""

MESSAGES: dict[str, str] = {
    "queue.seats_fixed": "{game} se juega entre {max} jugadores: no indiques `seats`.",
    "queue.seats": "Una mesa tiene de {min} a {max} jugadores.",
    "queue.moved": "Has dejado la cola de {game} ({seats} jugadores) por esta: cada jugador espera en una sola cola.",
    "queue.waiting.one": (
        "Estás en la cola de **{game}** ({seats} jugadores): todavía no espera nadie más. Te mencionaré cuando se "
        "forme tu partida."
    ),
    "queue.waiting.other": (
        "Estás en la cola de **{game}** ({seats} jugadores): esperan {n} jugadores, contándote a ti. Te mencionaré "
        "cuando se forme tu partida."
    ),
    "queue.bots_after": "Si nadie más llega en {seconds} s, los asientos libres serán para jugadores IA.",
    "queue.thread_title": "{game}: {players}",
    "queue.no_ai": "No queda ningún asiento de IA libre para {game} aquí.",
    "queue.paired": "{players}: ¡vuestra partida rápida está lista! **{game}** (partida {game_id}): {link}",
    "queue.leave_button": "Salir de la cola",
    "queue.left": "Has salido de la cola de {game}.",
    "queue.not_queued": "No estás en ninguna cola de partida rápida: `/play join` te apunta a una.",
}

COMMANDS: dict[str, str] = {
    "Quick match: get paired": "Partida rápida: encuentra rivales",
    "Wait for players of a game: you are paired with the first ones": (
        "Espera jugadores de un juego: juegas con los primeros que lleguen"
    ),
    "Players at the table (default: the game's largest table)": (
        "Jugadores en la mesa (por defecto: la mesa más grande del juego)"
    ),
    "After a short wait, fill the free seats with AI players (default: wait for people)": (
        "Tras una breve espera, llena los asientos libres con jugadores IA (por defecto: esperar a personas)"
    ),
    "Leave the quick-match queue you wait in": "Sal de la cola de partida rápida en la que esperas",
}
