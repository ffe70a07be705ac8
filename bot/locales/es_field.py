"""Mensajes en español del issue 22: fallos de la base de datos, límites de partidas abiertas, componentes falsos."""

MESSAGES: dict[str, str] = {
    "storage.full": (
        "El disco de mi base de datos está lleno y no pude guardar nada: tu acción no se aplicó. "
        "Quien administra el bot tiene que liberar espacio; luego inténtalo de nuevo."
    ),
    "storage.readonly": (
        "Mi base de datos está en solo lectura ahora mismo y no pude guardar nada: tu acción no se aplicó. "
        "Quien administra el bot tiene que volver a permitir la escritura; luego inténtalo de nuevo."
    ),
    "storage.gone": (
        "No puedo acceder a mi base de datos ahora mismo, así que no leí ni guardé nada: tu acción no se aplicó. "
        "Inténtalo de nuevo en un momento."
    ),
    "err.forged_component": (
        "Este botón o menú lleva valores que yo nunca le puse, así que no hice nada: no se cambió nada. "
        "Usa los botones del último mensaje de la partida."
    ),
    "err.unknown_component": (
        "Este botón o menú no es mío (o ya no existe): no se cambió nada. "
        "Usa los botones del último mensaje de la partida, o los comandos del juego."
    ),
    "err.bad_payload": (
        "La opción {option} no tiene un valor que este comando acepte (¿está al día tu aplicación de Discord?): "
        "no se cambió nada."
    ),
    "err.bad_choice": "La opción {option} acepta uno de estos valores: {choices}. No se cambió nada.",
    "err.unresolved": "No encuentro en este servidor el {option} que indicaste: no se cambió nada.",
    "err.unknown_command": (
        "No conozco este comando (o ya no existe): no se cambió nada. Escribe / para ver mis comandos."
    ),
    "games.head_page": "**Partidas abiertas en este servidor: {n}** · página {page} de {pages}",
    "ui.page_prev": "◀ Anterior",
    "ui.page_next": "Siguiente ▶",
    "lb.page": "Página {page}",
    "cap.member": (
        "Tienes {count} partidas abiertas en este servidor (límite {limit}): termina o abandona (/abandon) una "
        "antes. No se abrió nada."
    ),
    "cap.server": (
        "Este servidor ya tiene {count} partidas abiertas (límite {limit}, fijado por sus administradores con "
        "/settings): espera a que termine alguna. No se abrió nada."
    ),
    "cap.threads": (
        "Este canal está ocupado y este servidor ya tiene {count} partidas en hilos que abrí (límite {limit}): "
        "juega en un canal libre o termina antes una partida. No se abrió nada."
    ),
    "settings.caps": (
        "Partidas abiertas: como mucho {member} por miembro y {server} en el servidor; como mucho {threads} en "
        "hilos que yo abra."
    ),
    "settings.bad_cap": "Ese límite debe estar entre {min} y {max}, no {value}. No se cambió nada.",
}

COMMANDS: dict[str, str] = {
    "Open games one member may have here (1-100; default 5)": "Partidas abiertas que puede tener un miembro aquí (1-100; por defecto 5)",  # noqa: E501
    "Open games this server may have at once (1-1000; default 50)": "Partidas abiertas a la vez en este servidor (1-1000; por defecto 50)",  # noqa: E501
    "Open games the bot may put in new threads here (0-500; default 20)": "Partidas que el bot puede poner en hilos nuevos aquí (0-500; por defecto 20)",  # noqa: E501
}
