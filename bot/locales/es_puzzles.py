"""Spanish messages of the puzzles (``/puzzle``); ``COMMANDS`` translates its descriptions."""

MESSAGES: dict[str, str] = {
    "pz.head": "**Problema n.º {id}**",
    "pz.daily_head": "**Problema del día** {date}",
    "pz.level_easy": "fácil",
    "pz.level_medium": "medio",
    "pz.level_hard": "difícil",
    "pz.find_win": (
        "Te toca (eres **Tú** en el tablero): encuentra la única jugada que **gana la ronda** con el mejor juego."
    ),
    "pz.find_save": (
        "Te toca (eres **Tú** en el tablero): encuentra la única jugada que **no pierde**: asegura el empate."
    ),
    "pz.find_more": (
        "Te toca (eres **Tú** en el tablero): encuentra la jugada que **gana por más torres**: solo una lo hace."
    ),
    "pz.how": "Responde con los menús de abajo (un tamaño de ficha y una casilla, o un movimiento).",
    "pz.you": "Tú",
    "pz.opponent": "Rival",
    "pz.size_large": "una ficha grande",
    "pz.size_medium": "una ficha mediana",
    "pz.size_small": "una ficha pequeña",
    "pz.place_words": "{size} en la casilla {tile}",
    "pz.move_words": "casilla {src} → casilla {dst}",
    "pz.wins_by.one": "gana la ronda por 1 torre",
    "pz.wins_by.other": "gana la ronda por {n} torres",
    "pz.loses_by.one": "pierde la ronda por 1 torre",
    "pz.loses_by.other": "pierde la ronda por {n} torres",
    "pz.draws": "empata la ronda",
    "pz.towers.one": "1 torre",
    "pz.towers.other": "{n} torres",
    "pz.right": "✅ **¡Correcto!**",
    "pz.wrong": "❌ **Esa no es**: {move} {result} con el mejor juego de ambos.",
    "pz.proof_win": (
        "La respuesta, {move}, {result} con el mejor juego de ambos; cualquier otra jugada empata o pierde: es "
        "{margin} mejor que todas ellas. Mejor juego: {line}"
    ),
    "pz.proof_save": (
        "La respuesta, {move}, {result} con el mejor juego de ambos; cualquier otra jugada pierde: es {margin} "
        "mejor que todas ellas. Mejor juego: {line}"
    ),
    "pz.proof_more": (
        "La respuesta, {move}, {result} con el mejor juego de ambos: {margin} más que cualquier otra jugada. "
        "Mejor juego: {line}"
    ),
    "pz.next": "Otro problema",
    "pz.gone": "Este problema ya no está en la colección: prueba `/puzzle play`.",
    "pz.not_legal": "«{value}» no es una jugada legal en esta posición: no se ha registrado nada.",
    "pz.not_counted": "(Este no es el problema del día actual del servidor: la respuesta no cuenta para la racha.)",
    "pz.already": "Ya respondiste a este problema del día con **{move}**: {verdict}. Solo cuenta la primera respuesta.",
    "pz.right_word": "correcta",
    "pz.wrong_word": "incorrecta",
    "pz.streak": "Tu racha aquí: {n} seguidos (mejor: {best}).",
    "pz.streaks_title": "**Rachas de problemas del día** — {guild}",
    "pz.streaks_row": "{rank}. <@{user}> — {n} seguidos (mejor: {best}, resueltos: {solved})",
    "pz.streaks_empty": "Nadie ha resuelto todavía un problema del día en este servidor.",
    "pz.streaks_past_end": "No hay nadie más en esta lista.",
    "pz.page": "Página {page}",
    "pz.off_alone": "`off` detiene el problema del día: úsalo sin canal ni hora.",
    "pz.daily_off": "Guardado. Ya no hay problema del día aquí.",
    "pz.daily_was_off": "No había problema del día aquí: no ha cambiado nada.",
    "pz.daily_none": "Aún no hay problema del día aquí: `/puzzle daily_channel channel:#canal` lo activa.",
    "pz.daily_is": (
        "El problema del día se publica en <#{channel}> cada día a las {hour:02d}:00 UTC; el próximo <t:{at}:R>."
    ),
    "pz.daily_same": (
        "El problema del día ya se publica en <#{channel}> a las {hour:02d}:00 UTC (el próximo <t:{at}:R>): "
        "no ha cambiado nada."
    ),
}

COMMANDS: dict[str, str] = {
    "Puzzles: find the one best move": "Problemas: encuentra la única mejor jugada",
    "A puzzle for you alone: find the one move that keeps the best result": (
        "Un problema solo para ti: encuentra la única jugada que mantiene el mejor resultado"
    ),
    "easy, medium or hard (default: any)": "fácil, medio o difícil (por defecto: cualquiera)",
    "Who solved the most daily puzzles in a row here": "Quién resolvió más problemas del día seguidos aquí",
    "Admins: post a daily puzzle in a channel": "Administradores: publicar un problema del día en un canal",
    "Where the daily puzzle is posted": "Dónde se publica el problema del día",
    "Hour of the day (UTC, 0-23) it is posted (default: 12, or the hour already set)": (
        "Hora del día (UTC, 0-23) a la que se publica (por defecto: 12, o la hora ya fijada)"
    ),
    "Stop the daily puzzle": "Detener el problema del día",
}
