"""The caps' refusals name their count in the right number: "1 open game", "5 open games" (``bot.errors.describe``
picks ``cap.*.one`` / ``.other`` by ``count``), in English and Spanish."""

from __future__ import annotations

import pytest

from bot.errors import BotError, describe


@pytest.mark.parametrize(
    ("key", "count", "en", "es"),
    [
        ("cap.member", 1, "You have 1 open game in", "Tienes 1 partida abierta en"),
        ("cap.member", 5, "You have 5 open games in", "Tienes 5 partidas abiertas en"),
        ("cap.server", 1, "already has 1 open game (", "ya tiene 1 partida abierta ("),
        ("cap.server", 50, "already has 50 open games (", "ya tiene 50 partidas abiertas ("),
        ("cap.threads", 1, "1 game in a thread I opened", "1 partida en un hilo que abrí"),
        ("cap.threads", 20, "20 games in threads I opened", "20 partidas en hilos que abrí"),
    ],
)
def test_a_cap_refusal_says_its_count_in_the_right_number(key: str, count: int, en: str, es: str) -> None:
    err = BotError(key, count=count, limit=count)
    assert en in describe(err, "en-US"), describe(err, "en-US")
    assert es in describe(err, "es-ES"), describe(err, "es-ES")
    assert f"limit {count}" in describe(err, "en-US") and "Nothing was opened" in describe(err, "en-US")
