"""English words of the CONEX AI levels (issue 25): an AI seat's name says its level."""

MESSAGES: dict[str, str] = {
    "cnai.seat": "AI {n} ({level})",
    "cnai.bad_level": "Unknown AI level {level!r}: use one of {levels}.",
}
