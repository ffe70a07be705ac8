"""Spanish messages of delivery (issue 13)."""

MESSAGES: dict[str, str] = {
    "list.and": "{head} y {last}",
    "perm.view_channel": "Ver canal",
    "perm.send_messages": "Enviar mensajes",
    "perm.send_messages_in_threads": "Enviar mensajes en hilos",
    "perm.attach_files": "Adjuntar archivos",
    "perm.create_public_threads": "Crear hilos públicos",
    "err.missing_perms": (
        "No puedo llevar una partida en este canal: aquí me faltan {perms}. Un administrador del servidor puede "
        "concedérmelos en los ajustes del canal (Editar canal → Permisos); luego vuelve a intentarlo."
    ),
    "err.missing_perms.one": (
        "No puedo llevar una partida en este canal: aquí me falta {perms}. Un administrador del servidor puede "
        "concedérmelo en los ajustes del canal (Editar canal → Permisos); luego vuelve a intentarlo."
    ),
    "err.missing_perms.other": (
        "No puedo llevar una partida en este canal: aquí me faltan {perms}. Un administrador del servidor puede "
        "concedérmelos en los ajustes del canal (Editar canal → Permisos); luego vuelve a intentarlo."
    ),
    "err.channel_busy_no_thread": (
        "Este canal ya tiene una partida en curso y aquí no puedo abrir un hilo: termínala primero o reta en otro "
        "canal (un administrador del servidor puede concederme {perms})."
    ),
    "storage.Busy": (
        "Mi base de datos está ocupada: otro proceso la tuvo bloqueada demasiado tiempo y tu acción no se aplicó. "
        "Inténtalo de nuevo en un momento."
    ),
    "pub.not_posted": "No pude publicar esto en el canal (me falta {perms}), así que aquí lo tienes:",
    "pub.blocked": (
        "⚠ No pude publicar los tableros de esta partida en el canal (me falta {perms}): hasta que un "
        "administrador del servidor lo conceda, llegarán con tus propias acciones."
    ),
    "pub.text_board": "(tablero en texto: aquí no puedo adjuntar imágenes)",
    "pub.text_board_large": "(tablero en texto: Discord rechazó aquí el tamaño de la imagen)",
    "pub.picture_left_out": "(sin imagen: Discord rechazó aquí su tamaño; el texto dice lo mismo)",
    "rec.replay_too_large": "(la repetición supera lo que este servidor acepta en subidas, {mib} MiB: se omite)",
    "pub.smaller": "(una imagen más pequeña: Discord rechazó aquí la de tamaño completo)",
    "pub.not_posted_why": "No pude publicar esto en el canal ({why}), así que aquí lo tienes:",
    "pub.blocked_why": (
        "⚠ No pude publicar los tableros de esta partida en el canal ({why}): mientras siga así, llegarán con tus "
        "propias acciones."
    ),
    "why.perms": "me falta {perms}",
    "why.access": "ya no puedo ver el canal",
    "why.archived": "el hilo está archivado",
    "why.locked": "el hilo está cerrado",
    "why.gone": "el canal ya no existe",
    "err.after_commit": (
        "Tu acción se guardó, pero algo falló por mi parte al mostrarla. "
        "Usa el comando de tablero para ver la partida tal como está ahora."
    ),
    "pub.board_in_channel": "Tu acción se guardó; su tablero está publicado en el canal.",
}
