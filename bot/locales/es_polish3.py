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
}

COMMANDS: dict[str, str] = {}
