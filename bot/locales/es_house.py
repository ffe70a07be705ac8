"""Mensajes en español de las reglas de la casa de un servidor (``bot/services/house.py``, ``/settings``) y del
idioma propio de un jugador (``/mysettings language``)."""

MESSAGES: dict[str, str] = {
    "house.chosen_note": "Sin puntuar: una partida amistosa.",
    "res.not_rated_chosen": "Sin puntuar (una partida amistosa).",
    "house.reset_answered": "Esta pregunta ya tuvo respuesta (mira arriba): no se cambió nada más.",
    "house.blocked": "Un administrador de este servidor te ha bloqueado: no puedes empezar ni unirte a partidas aquí.",
    "house.blocked_other": (
        "{user} no puede jugar en este servidor (un administrador lo ha bloqueado): desafía a otra persona."
    ),
    "house.game_off": (
        "{game} está desactivado en este servidor. Un administrador puede volver a activarlo con `/settings game_on`."
    ),
    "house.channel": "En este servidor solo se juega en {channels}: empieza tu partida allí.",
    "house.show_channels": "Las partidas solo pueden empezar en: {channels}.",
    "house.show_anywhere": "Las partidas pueden empezar en cualquier canal.",
    "house.show_games": "Juegos activados: {on}. Desactivados: {off}.",
    "house.show_rated": "Las partidas nuevas puntúan: {value}.",
    "house.rated_on": "sí",
    "house.rated_off": "no (los resultados cuentan, las puntuaciones no se mueven)",
    "house.show_blocked": "Bloqueados para jugar aquí: {users}.",
    "house.show_blocked_none": "No hay nadie bloqueado para jugar aquí.",
    "house.too_many_channels": "La lista admite como mucho {max} canales: quita uno primero.",
    "house.too_many_blocked": "Se pueden bloquear como mucho {max} miembros: desbloquea uno primero.",
    "house.block_bot": "No se puede bloquear al propio bot.",
    "house.reset_none": "Nadie tiene puntuación de {game} en este servidor: no hay nada que reiniciar.",
    "house.reset_ask.one": (
        "¿Reiniciar todas las puntuaciones de {game} de este servidor? {n} jugador perderá su puntuación y volverá a "
        "empezar desde {start} en su próxima partida puntuada; la clasificación se vacía y las partidas terminadas "
        "siguen en el historial de cada uno. No se puede deshacer."
    ),
    "house.reset_ask.other": (
        "¿Reiniciar todas las puntuaciones de {game} de este servidor? {n} jugadores perderán su puntuación y "
        "volverán a empezar desde {start} en su próxima partida puntuada; la clasificación se vacía y las partidas "
        "terminadas siguen en el historial de cada uno. No se puede deshacer."
    ),
    "house.reset_done.one": (
        "Se reiniciaron las puntuaciones de {game} de este servidor: {n} jugador vuelve a empezar desde {start}."
    ),
    "house.reset_done.other": (
        "Se reiniciaron las puntuaciones de {game} de este servidor: {n} jugadores vuelven a empezar desde {start}."
    ),
    "house.reset_cancelled": "Cancelado: no ha cambiado ninguna puntuación.",
    "house.reset_button": "Reiniciar las puntuaciones",
    "house.cancel_button": "Cancelar",
    "house.unrated_note": "Sin puntuar: este servidor juega partidas sin puntuar.",
    "res.not_rated_casual": "Sin puntuar (este servidor juega partidas sin puntuar).",
    "me.language_auto": "Idioma: el de tu Discord (`/mysettings language:en` o `es` para elegir uno).",
    "me.language_en": "Idioma: **inglés**, use lo que use tu Discord (`/mysettings language:auto` para seguirlo).",
    "me.language_es": "Idioma: **español**, use lo que use tu Discord (`/mysettings language:auto` para seguirlo).",
}

COMMANDS: dict[str, str] = {
    "Rated game (default: the server's setting); False: a casual game that moves no rating": (
        "Puntuable (por defecto, según el servidor); False: partida amistosa sin puntuación"
    ),
    "Let games start in this channel (once one is listed, only listed channels)": (
        "Permitir partidas en este canal (con alguno en la lista, solo en los de la lista)"
    ),
    "Take a channel off the list of channels where games may start": (
        "Quitar un canal de la lista de canales donde pueden empezar partidas"
    ),
    "True: games may start in any channel again (empties the list)": (
        "True: las partidas vuelven a poder empezar en cualquier canal (vacía la lista)"
    ),
    "Turn a game on in this server": "Activar un juego en este servidor",
    "Turn a game off in this server (games already open go on)": (
        "Desactivar un juego en este servidor (las partidas ya abiertas siguen)"
    ),
    "Whether new games here are rated (default: on)": "Si las partidas nuevas de aquí puntúan (por defecto: sí)",
    "Reset a game's ratings in this server (asks you to confirm)": (
        "Reiniciar las puntuaciones de un juego en este servidor (pide confirmación)"
    ),
    "Stop a member from starting or joining games here": "Impedir que un miembro empiece o se una a partidas aquí",
    "Let a blocked member play again": "Dejar que un miembro bloqueado vuelva a jugar",
    "The language the bot uses for you alone (auto: your Discord's)": (
        "El idioma que el bot usa solo contigo (auto: el de tu Discord)"
    ),
}
