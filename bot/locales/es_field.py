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
}
