"""Typed option text is normalised in one place (bot/ui/typed.py) before any parser reads it."""

from __future__ import annotations

import unicodedata
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from bot.ui.typed import normalise, normalise_options

INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u200e", "\u200f", "\u202a", "\u202c", "\u2066"]


def test_invisible_format_characters_and_compatibility_forms_are_read_as_the_letter() -> None:
    for mark in INVISIBLE:
        assert normalise(f"{mark}A") == "A"
        assert normalise(f"A{mark}") == "A"
        assert normalise(f"rom{mark}bo{mark} ") == "rombo"
    assert normalise("Ａ") == "A"  # full-width
    assert normalise("\u00a0a ") == "a"
    assert normalise("\u0410") == "\u0410"  # Cyrillic A is another letter: kept, refused by the parser


@given(st.text())
def test_normalised_text_has_no_format_characters_is_stripped_and_is_stable(text: str) -> None:
    out = normalise(text)
    assert not any(unicodedata.category(ch) == "Cf" for ch in out)
    assert out == out.strip()
    assert normalise(out) == out


def test_every_string_option_of_a_command_is_normalised_in_place() -> None:
    data: dict[str, Any] = {
        "name": "conex",
        "options": [
            {
                "type": 1,
                "name": "place",
                "options": [
                    {"type": 3, "name": "card", "value": "\u200bA"},
                    {"type": 4, "name": "corner", "value": 1},
                    {"type": 3, "name": "target", "value": "B\u200d", "focused": True},
                ],
            }
        ],
    }
    normalise_options(data)
    sub = data["options"][0]["options"]
    assert [o["value"] for o in sub] == ["A", 1, "B"]
    normalise_options({"options": ["not an option", {"type": 3, "value": 5}]})  # odd shapes: left alone


async def test_the_command_tree_normalises_options_before_the_command_reads_them() -> None:
    from bot.app import GameTree

    class Tree(GameTree):
        def __init__(self) -> None:  # no client: only interaction_check is exercised
            pass

    class Interaction:
        type = None
        data: dict[str, Any] = {
            "type": 2,
            "name": "x",
            "options": [{"type": 3, "name": "layout", "value": "rombo\u200b"}],
        }

    it = Interaction()
    assert await Tree().interaction_check(it)  # type: ignore[arg-type]
    assert it.data["options"][0]["value"] == "rombo"


def test_typed_text_echoed_in_a_refusal_reads_as_typed() -> None:
    from bot.core.names import Name
    from bot.i18n import t

    data: dict[str, Any] = {"options": [{"type": 3, "name": "game", "value": "**big** [x](https://e.example)"}]}
    normalise_options(data)
    typed = data["options"][0]["value"]
    assert isinstance(typed, Name) and typed == "**big** [x](https://e.example)"
    said = t("err.no_such_kind", "en", game=typed)
    assert "\\*\\*big\\*\\* \\[x\\](https://e.example)" in said, said
