"""Legibility pass (a Spanish player's report): what players read names things in their words.

- ``/conex board zoom:`` values are shown as words (:func:`render.conex.zoom_words`), never ``last`` / ``table``.
- The CONEX hand text names corner positions in words (no ``(tl)``), card labels say "dado", never "die".
- Every specific refusal of typed CONEX input (``InvalidInputError(reason=...)`` in ``bot/games/conex/placing.py``)
  has its own sentence in English and Spanish (a Spanish reader used to get only the generic ``rule.Input``).
- Players are joined by the language's word (:func:`bot.i18n.versus`: "vs" / "contra").
- Hint captions carry the points first and fit their tile at every sheet size.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.errors import describe
from bot.games.conex import placing
from bot.games.conex.views import card_label
from bot.i18n import MESSAGES, image_words, t, versus
from engine.conex import Game
from engine.conex.deck import load_deck
from engine.errors import InvalidInputError
from render.conex import zoom_words
from render.conex_hand import hand_text
from render.conex_hints import CAPTION_LINES, FS, caption_width
from render.text import wrap_text

PLACING = Path(placing.__file__)


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", ["card #12", "the last card placed", "the whole table", "board"]),
        ("es", ["carta #12", "la última carta colocada", "toda la mesa", "tablero"]),
    ],
)
def test_zoom_values_are_words(lang: str, expected: list[str]) -> None:
    w = image_words(lang)
    assert [zoom_words(z, w) for z in (12, "last", "table", "board")] == expected


@pytest.mark.parametrize("lang", ["en", "es"])
def test_hand_text_names_corner_positions_in_words(lang: str) -> None:
    game = Game.new(players=2, seed=5, table="small", goal=20)
    text = hand_text(game, 0, words=image_words(lang))
    assert not re.search(r"\((?:tl|tr|br|bl)\)", text), text
    word = {"en": "top left", "es": "arriba a la izquierda"}[lang]
    assert "(" + word + ")" in text or "(" + word.replace("izquierda", "derecha") + ")" in text, text


def test_card_labels_say_die_in_the_readers_words() -> None:
    die = next(c for c in load_deck() if c.action == "die")
    spanish = card_label(die, "A", "es")
    assert " dado " in spanish and "die" not in spanish, spanish
    assert " die " in card_label(die, "A", "en")


def _reasons() -> set[str]:
    return set(re.findall(r'reason="([a-z_]+)"', PLACING.read_text(encoding="utf-8")))


@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_typed_input_refusal_has_its_own_sentence(lang: str) -> None:
    reasons = _reasons()
    assert len(reasons) >= 7, reasons
    missing = sorted(r for r in reasons if f"rule.Input.{r}" not in MESSAGES[lang])
    assert missing == [], missing


def test_an_unknown_hand_letter_is_refused_specifically_in_spanish() -> None:
    game = Game.new(players=2, seed=5, table="small", goal=20)
    with pytest.raises(InvalidInputError) as info:
        placing.parse_card_ref(game, 0, "Z", acting=None)
    es, en = describe(info.value, "es"), describe(info.value, "en")
    assert es.startswith("Ninguna carta de tu mano tiene la letra Z: tus cartas son A"), es
    assert en.startswith("No card of your hand has the letter Z: your cards are A"), en
    assert es != t("rule.Input", "es")
    with pytest.raises(InvalidInputError) as info:
        placing.parse_target("somewhere")
    assert describe(info.value, "es").startswith("«somewhere» no es un objetivo"), describe(info.value, "es")


def test_players_are_joined_in_the_readers_words() -> None:
    assert versus(["Alice", "Bob"], "es") == "Alice contra Bob"
    assert versus(["Alice", "Bob", "Cara"], "en") == "Alice vs Bob vs Cara"
    assert versus(["Alice"], "es") == "Alice" and versus([], "en") == ""


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("n", [1, 2, 4, 5, 9])
def test_hint_captions_fit_their_tile_points_first(lang: str, n: int) -> None:
    """The widest captions the bot writes (the highest card numbers, the board word, two-digit points) wrap into the
    caption's lines without an ellipsis, and the points open the first line."""
    board = image_words(lang)("cn.hint_board")
    for target in (board, "#52"):
        label = t("cn.hint_label", lang, letter="W", card=52, corner=3, target=target, points=24)
        lines = wrap_text(label, caption_width(n), FS, bold=True, max_lines=99)
        assert len(lines) <= CAPTION_LINES and not any("…" in ln for ln in lines), (label, lines)
        assert lines[0].startswith("+24"), lines
