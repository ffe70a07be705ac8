"""Spanish words of the CONEX AI levels (issue 25); ``COMMANDS`` translates ``/conex addbot level:``."""

MESSAGES: dict[str, str] = {
    "cnai.seat": "IA {n} ({level})",
    "cnai.bad_level": "Nivel de IA desconocido {level!r}: usa uno de {levels}.",
}

COMMANDS: dict[str, str] = {
    "AI strength: easy (for beginners), medium or hard": "Nivel de la IA: fácil (para principiantes), media o difícil",
    "easy": "fácil",
    "medium": "media",
    "hard": "difícil",
}
