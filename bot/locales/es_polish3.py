"""Mensajes en español de las opciones de ``/settings`` que no cambian nada (``bot/ui/settings_same.py``), de
negarse a bloquearse a uno mismo y del nombre del hilo de una partida cuando se ocupan sus asientos
(``bot/services/footprint.py``)."""

MESSAGES: dict[str, str] = {
    "same.option": "`{option}` ya vale {value}: no ha cambiado nada.",
    "same.channel_listed": (
        "{channel} ya está en la lista de canales donde se pueden empezar partidas: no ha cambiado nada."
    ),
    "same.channel_not_listed": (
        "{channel} no está en la lista de canales donde se pueden empezar partidas: no ha cambiado nada."
    ),
    "same.anywhere": "Ya se pueden empezar partidas en cualquier canal: no ha cambiado nada.",
    "same.game_on": "{game} ya está activado: no ha cambiado nada.",
    "same.game_off": "{game} ya está desactivado: no ha cambiado nada.",
    "same.rated_on": "Las partidas nuevas ya puntúan: no ha cambiado nada.",
    "same.rated_off": "Las partidas nuevas ya no puntúan: no ha cambiado nada.",
    "same.blocked": "{user} ya está bloqueado: no ha cambiado nada.",
    "same.not_blocked": "{user} no está bloqueado: no ha cambiado nada.",
    "same.nothing": "No se ha cambiado nada.",
    "house.block_self": "No puedes bloquearte a ti mismo. No se ha cambiado nada.",
    "foot.thread_title": "{game}: {a} contra {b}",
    "settings.both_game": (
        "`game_on` y `game_off` nombran el mismo juego ({game}): actívalo o desactívalo, pero no las dos cosas. "
        "No se ha cambiado nada."
    ),
    "settings.both_channel": (
        "`allow_channel` y `remove_channel` nombran el mismo canal ({channel}): permítelo o quítalo, pero no las dos "
        "cosas. No se ha cambiado nada."
    ),
    "settings.both_member": (
        "`block` y `unblock` nombran al mismo miembro ({user}): bloquéalo o desbloquéalo, pero no las dos cosas. "
        "No se ha cambiado nada."
    ),
    "settings.any_and_channel": (
        "`any_channel:true` deja empezar partidas en cualquier canal, así que no puede ir con `{option}` en el mismo "
        "comando. No se ha cambiado nada."
    ),
}

COMMANDS: dict[str, str] = {}
