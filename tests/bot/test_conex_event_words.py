"""CONEX's board text names the die face, the star and the table size in the reader's words: the engine's English
data ("two cards", "lightning", "medium") never reaches a Spanish message as is."""

from __future__ import annotations

from types import SimpleNamespace

from bot.games.conex.narration import events_text, word
from engine.conex import events as ev


def test_engine_words_are_translated() -> None:
    assert [word(w, "es") for w in ("card", "two cards", "lightning", "2x", "medium")] == [
        "una carta",
        "dos cartas",
        "rayo",
        "2x",
        "mediana",
    ]
    assert word("two cards", "en") == "two cards" and word("something new", "es") == "something new"


def test_die_and_star_lines_read_in_spanish() -> None:
    snap = SimpleNamespace(locale="es-ES", names=["Ana", "Bea"], who=lambda s: f"<@{s}>")
    text = events_text(snap, [ev.DieRolled(0, "two cards"), ev.StarTaken("lightning", 0, None)])  # type: ignore[arg-type]
    assert "Dado: **dos cartas**." in text and "estrella **rayo**" in text, text
    assert "two cards" not in text and "lightning" not in text
