"""Mensajes en español de las correcciones de QA (rama qafix)."""

MESSAGES: dict[str, str] = {
    "pz.daily_missing_perms": (
        "No puedo publicar el problema diario en <#{channel}>: me falta {perms} allí. Un administrador del servidor "
        "puede concedérmelo en los ajustes del canal (Editar canal → Permisos) y volver a intentarlo. No se ha "
        "cambiado nada."
    ),
}
