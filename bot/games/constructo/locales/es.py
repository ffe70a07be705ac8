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
}
