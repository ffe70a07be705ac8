"""Mensajes en español de las correcciones de QA (rama qafix)."""

MESSAGES: dict[str, str] = {
    "pz.daily_missing_perms": (
        "No puedo publicar el problema diario en <#{channel}>: me faltan {perms} allí. Un administrador del "
        "servidor puede concedérmelos en los ajustes del canal (Editar canal → Permisos) y volver a intentarlo. No "
        "se ha cambiado nada."
    ),
    "pz.daily_missing_perms.one": (
        "No puedo publicar el problema diario en <#{channel}>: me falta {perms} allí. Un administrador del servidor "
        "puede concedérmelo en los ajustes del canal (Editar canal → Permisos) y volver a intentarlo. No se ha "
        "cambiado nada."
    ),
    "pz.daily_missing_perms.other": (
        "No puedo publicar el problema diario en <#{channel}>: me faltan {perms} allí. Un administrador del "
        "servidor puede concedérmelos en los ajustes del canal (Editar canal → Permisos) y volver a intentarlo. No "
        "se ha cambiado nada."
    ),
    "tq.not_played": "Torneo de {game}, ronda {round}, tablero {board}: {a} contra {b} no se puede jugar: {why}",
    "tq.forfeit": "{loser} la pierde por incomparecencia; {winner} se anota la victoria. La ronda sigue.",
    "tq.unplayed": "Nadie puntúa por ella. La ronda sigue.",
    "tq.why_blocked": "{user} tiene bloqueadas las partidas en este servidor.",
    "tq.why_left": "{user} ya no es miembro de este servidor.",
    "tq.why_game_off": "{game} está desactivado en este servidor.",
    "tq.why_channel": "ya no se puede jugar en este canal.",
    "tq.forfeit_line": "Tablero {board}: {a} contra {b}, no se juega: {winner} gana por incomparecencia",
    "tq.unplayed_line": "Tablero {board}: {a} contra {b}, no se juega (nadie puntúa)",
    "tq.stuck_head": (
        "**Ronda {round}: estas partidas siguen sin abrirse tras {tries} intentos** ({organiser}, organizas este "
        "torneo):"
    ),
    "tq.stuck_line": "Tablero {board}: {a} contra {b}: {why}",
    "tq.stuck_cap_server": (
        "este servidor tiene {count} partidas abiertas y su límite es {limit} (admins: /settings games_per_server)"
    ),
    "tq.stuck_cap_member": "{player} tiene {count} partidas abiertas y el límite por miembro es {limit}",
    "tq.stuck_cap_threads": "este servidor tiene {count} partidas en hilos que abrí y su límite es {limit}",
    "tq.stuck_other": (
        "no pude publicar la partida aquí (el registro del bot dice por qué; revisa mis permisos en este canal)"
    ),
    "tq.stuck_storage_full": (
        "no pude guardar la partida: el disco de mi base de datos está lleno (el operador del bot tiene que liberar "
        "espacio)"
    ),
    "tq.stuck_storage_readonly": (
        "no pude guardar la partida: mi base de datos es de solo lectura (el operador del bot tiene que permitir "
        "escribir en ella)"
    ),
    "tq.stuck_storage_gone": "no pude guardar la partida: no consigo acceder a mi base de datos",
    "tq.stuck_storage_busy": "no pude guardar la partida: mi base de datos siguió ocupada",
    "tq.stuck_foot": (
        "Las sigo intentando cada {every} hasta que se abran, y en cuanto termine otra partida de este torneo. No se "
        "ha puntuado nada por ellas."
    ),
    "tq.every_s.one": "{n} segundo",
    "tq.every_s.other": "{n} segundos",
    "tq.every_min": "{n} minutos",
}
