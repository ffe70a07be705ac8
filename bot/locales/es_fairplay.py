"""Mensajes en español del juego limpio (issue 22): jugadores que se van (regla L1), anular con consentimiento,
registros firmados."""

MESSAGES: dict[str, str] = {
    "leave.left": (
        "{name} se fue de este servidor, así que pierde su asiento (como si se rindiera; puntúa como una rendición)."
    ),
    "leave.hidden": (
        "{name} ya no puede ver este canal, así que pierde su asiento (como si se rindiera; puntúa como una rendición)."
    ),
    "abort.seated_admin": (
        "Juegas en esta partida, así que aunque seas admin necesitas que los demás jugadores acepten anularla: "
        "tu propuesta de anularla está abajo (`/abandon`)."
    ),
    "abort.seated_admin_games": (
        "Juegas en esta partida, así que aunque seas admin necesitas que los demás jugadores acepten anularla: "
        "propónlo con `/abandon` en el canal de la partida."
    ),
    "abort.reveal": "Se revela el reparto anulado para que cualquiera compruebe que fue limpio. {reveal}",
    "rec.signed_by": "Firmado con la clave `{key}` (comprobación: `{command}`).",
}
