"""English words of AI levels on seat names (issue 25): an AI seat added to a lobby says its level."""

MESSAGES: dict[str, str] = {
    "ai.seat_level": "AI {n} ({level})",
}
