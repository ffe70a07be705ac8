"""Spanish words of AI levels on seat names (issue 25); ``COMMANDS`` translates the ``addbot level:`` option."""

MESSAGES: dict[str, str] = {
    "ai.seat_level": "IA {n} ({level})",
}

COMMANDS: dict[str, str] = {
    "AI strength: easy (for beginners), medium or hard": "Nivel de la IA: fácil (para principiantes), media o difícil",
    "easy": "fácil",
    "medium": "media",
    "hard": "difícil",
}
