"""Spanish catalogue of Constructo (partial; merged into ``es``, missing keys fall back to English)."""

MESSAGES: dict[str, str] = {
    "ui.resign": "Abandonar",
    "ui.confirm_resign": "Sí, abandono",
    "ui.tile": "Casilla {tile}",
    "ui.move_option": "Casilla {src} → casilla {dst}",
    "cx.to_move": "Ronda {round}: le toca a {who}.",
    "cx.played": "{name} jugó **{move}**.",
    "cx.resign_done": "Has abandonado.",
    "rule.K3": "una ficha pequeña nunca va directamente sobre una grande.",
}

COMMANDS: dict[str, str] = {
    "Play Constructo: stack chips on 9 hex tiles, build towers": "Juega a Constructo: apila fichas y construye torres",
    "Challenge someone (or me, the AI) to a Constructo match": "Desafía a alguien (o a mí, la IA) a Constructo",
    "Who you play against (pick the bot to play the AI)": "Contra quién juegas (elige el bot para jugar contra la IA)",
    "Round 1 layout: a name (default rombo) or 9 coordinates like (0,0) (1,0) ...": (
        "Tablero de la ronda 1: un nombre (rombo por defecto) o 9 coordenadas (0,0) (1,0) ..."
    ),
    "AI strength when you challenge the bot": "Nivel de la IA si desafías al bot",
    "Place a chip from your reserve on an empty tile": "Pon una ficha de tu reserva en una casilla vacía",
    "Empty tile number (1-9)": "Número de casilla vacía (1-9)",
    "Chip size: small, medium or large": "Tamaño: small, medium o large",
    "Move your lone chip onto an adjacent opponent's stack": "Mueve tu ficha sola sobre una pila vecina del rival",
    "Tile of your lone chip": "Casilla de tu ficha sola",
    "Adjacent tile topped by an opponent's chip": "Casilla vecina con una ficha del rival encima",
    "Show this channel's Constructo board again": "Muestra de nuevo el tablero de Constructo del canal",
    "Show the board as text (only you will see it)": "Tablero en texto (solo lo verás tú)",
    "Resign your Constructo match in this channel (you lose it)": "Abandona tu partida de Constructo (la pierdes)",
    "Show every named layout": "Muestra todos los tableros con nombre",
    "The rules of Constructo in short": "Las reglas de Constructo en breve",
    "Accept a Constructo challenge (also when its message is gone)": (
        "Acepta un desafío de Constructo (aunque su mensaje ya no esté)"
    ),
    "Who challenged you (needed only when several challenges wait)": (
        "Quién te desafió (solo si tienes varios desafíos pendientes)"
    ),
    "Decline a Constructo challenge, or withdraw yours": "Rechaza un desafío de Constructo, o retira el tuyo",
    "The other player (needed only when several challenges wait)": (
        "El otro jugador (solo si hay varios desafíos pendientes)"
    ),
}

# Análisis de la partida (``bot/games/constructo/analysis.py``, issue 16).
MESSAGES.update({
    "cx.analysis_button": "Análisis",
    "cx.an_head": "**Análisis de la partida #{game_id}** (solo lo ves tú)",
    "cx.an_nothing": "No se jugó ningún movimiento: no hay nada que analizar.",
    "cx.an_round": "__**Ronda {round}** · {layout}__",
    "cx.an_start": "Al empezar: {verdict} ({certainty}).",
    "cx.an_even": "empate",
    "cx.an_ahead_one": "gana {name} por una torre",
    "cx.an_ahead": "gana {name} por {towers} torres",
    "cx.an_exact": "exacto",
    "cx.an_estimate": "estimación",
    "cx.an_turning": (
        "**Momento decisivo:** jugada {n} de {name}: {move} {what}; lo mejor era {best} ({certainty})."
    ),
    "cx.an_no_turning": "Ninguna jugada perdió una torre.",
    "cx.an_decided": "Decidida tras la jugada {n}: desde ahí el resultado está demostrado.",
    "cx.an_decided_start": "Decidida desde el principio: el resultado está demostrado antes de la primera jugada.",
    "cx.an_best_was": "(mejor: {best})",
    "cx.an_forced": "forzada",
    "cx.an_best": "la mejor",
    "cx.an_good": "buena (−{towers})",
    "cx.an_inaccuracy": "imprecisión (−{towers})",
    "cx.an_lost_tower": "perdió una torre",
    "cx.an_lost_towers": "perdió {towers} torres",
    "cx.an_threw": "({before} → {after})",
    "cx.an_legend": (
        "Los valores son la diferencia final de torres con juego perfecto: exactos donde el resolvedor lo demostró; "
        "≈ marca una estimación de la búsqueda difícil (el resto de la ronda era demasiado grande para resolverlo)."
    ),
})
