"""A chip size typed by a player in either language (``bot.games.constructo.views.typed_size``): a Spanish player
typing ``size:grande`` places a large chip, as an English one typing ``large`` does; anything else keeps the
engine's refusal (reason ``unknown_size``), which both catalogues word."""

from __future__ import annotations

import pytest

from bot.errors import describe
from bot.games.constructo.cog import placement_text
from bot.games.constructo.views import typed_size
from engine.constructo import Size
from engine.errors import InvalidInputError


@pytest.mark.parametrize(
    ("typed", "size"),
    [
        ("large", Size.LARGE),
        ("L", Size.LARGE),
        ("grande", Size.LARGE),
        (" Grande ", Size.LARGE),
        ("G", Size.LARGE),
        ("mediana", Size.MEDIUM),
        ("m", Size.MEDIUM),
        ("pequeña", Size.SMALL),
        ("PEQUENA", Size.SMALL),
        ("p", Size.SMALL),
        ("small", Size.SMALL),
    ],
)
def test_a_size_in_either_language(typed: str, size: Size) -> None:
    assert typed_size(typed) is size


def test_a_spanish_place_command_reads_grande_as_large() -> None:
    assert placement_text("grande", 5) == "L5"


@pytest.mark.parametrize("typed", ["huge", "enorme", "x", "", "gr"])
def test_anything_else_is_refused_in_words(typed: str) -> None:
    with pytest.raises(InvalidInputError) as info:
        typed_size(typed)
    assert info.value.details.get("reason") == "unknown_size"
    assert describe(info.value, "en") == f"Unknown chip size “{typed}”: use S, M or L (small, medium, large)."
    assert f"«{typed}»" in describe(info.value, "es") and "grande" in describe(info.value, "es")
