"""Refusals quote what a player typed as they read it, never with repr()'s escapes (engine/errors.py:quoted)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.constructo.layout import Layout
from engine.constructo.move import Move, Size
from engine.errors import QUOTE_LIMIT, InvalidInputError, quoted


def test_text_is_quoted_plainly_numbers_print_as_numbers() -> None:
    assert quoted("rombito") == "'rombito'"
    assert quoted("rombo\u200b") == "'rombo'"
    assert quoted("a\tb\nc") == "'abc'"
    assert quoted("l'île") == "'l'île'"
    assert quoted(10) == "10"
    assert len(quoted("z" * 3000)) == QUOTE_LIMIT + 2


@given(st.text())
def test_a_quote_shows_the_visible_text_as_typed(text: str) -> None:
    out = quoted(text)
    visible = "".join(ch for ch in text if unicodedata.category(ch) not in ("Cc", "Cf"))
    inner = out[1:-1]
    assert out[0] == out[-1] == "'"
    assert inner == visible or (inner.endswith("…") and visible.startswith(inner[:-1]))
    assert len(out) <= QUOTE_LIMIT + 2


@pytest.mark.parametrize(
    ("parse", "typed"),
    [
        (Layout.parse, "rombo\u200b"),
        (Layout.parse, "(0,0) (x\u200b,1)"),
        (Size.parse, "huge\u200d"),
        (Move.parse, "Q9\u200b"),
    ],
)
def test_engine_input_refusals_show_no_escape(parse: object, typed: str) -> None:
    with pytest.raises(InvalidInputError) as err:
        parse(typed)  # type: ignore[operator]
    assert "\\u" not in err.value.message and "\\x" not in err.value.message, err.value.message
    assert "\u200b" not in err.value.message and "\u200d" not in err.value.message
