"""Spanish messages of game records (issue 16): ``/history``, ``/replay``, the result card's record buttons.

``COMMANDS`` translates the descriptions of ``/history`` and ``/replay`` (gettext-style, English msgid)."""

MESSAGES: dict[str, str] = {
    "rec.not_found": "No hay ninguna partida terminada #{game_id} en este servidor.",
    "rec.running": (
        "La partida #{game_id} sigue en juego: su registro y su repetición se muestran cuando termine "
        "(revelarían lo que aún está oculto)."
    ),
    "rec.aborted": "La partida #{game_id} se anuló: no tiene resultado ni registro.",
    "rec.head": "**Partida #{game_id}** · {title} · {players} · {when}",
    "rec.no_replay": "Esta partida no tiene repetición animada; va adjunto su registro.",
    "rec.replay_failed": "Esta vez no se pudo dibujar la repetición; abajo están la lista de jugadas y el registro.",
    "rec.json": (
        "El registro de la partida #{game_id}: preparación, cada acción y el resultado, en un archivo JSON. "
        "Va firmado, y el código de este bot puede reproducirlo comprobando cada acción con las reglas."
    ),
    "rec.replay_button": "Repetición",
    "rec.download_button": "Descargar registro",
    "hist.head": "**Partidas recientes de {who}** · {game} · página {page}",
    "hist.all_games": "todos los juegos",
    "hist.empty": "Aún no hay partidas terminadas aquí.",
    "hist.win": "victoria",
    "hist.draw": "empate",
    "hist.loss": "derrota",
    "hist.place": "{place} de {seats}",
    "hist.rating": "puntuación {delta} ({after})",
    "hist.unrated": "sin puntuar",
    "hist.unrated_ai": "sin puntuar (IA)",
    "hist.ai": "la IA",
    "hist.vs": "contra {players}",
    "hist.newer": "◀ Más recientes",
    "hist.older": "Más antiguas ▶",
    "hist.open": "Abrir el registro de una partida…",
    "rec.step_open": "Paso a paso",
    "rec.step_jump": "Ir a una jugada…",
    "rec.step_option": "Jugada {move} de {total}",
    "rec.step_head": "**Partida #{game_id}** · jugada {move} de {total} (solo lo ves tú)",
    "rec.step_none": "La partida #{game_id} no tiene repetición para ver paso a paso.",
    "rec.step_bad": "No hay ninguna jugada «{move}» en esta partida.",
}

COMMANDS: dict[str, str] = {
    "A player's recent games in this server": "Las partidas recientes de un jugador en este servidor",
    "Whose games (you by default)": "De quién (tú por defecto)",
    "Only games of this kind": "Solo partidas de este juego",
    "Replay a finished game: animation, move list and record": (
        "Repite una partida terminada: animación, jugadas y registro"
    ),
    "Game number (your recent games are suggested)": "Número de partida (se sugieren tus partidas recientes)",
    "Only you see the replay (default: the channel sees it)": "Solo tú ves la repetición (por defecto: todo el canal)",
}
