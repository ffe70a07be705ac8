"""typed option text (a ``Name``) echoed in a refusal must stay Markdown-escaped, but a few raise
sites turn it into a plain ``str`` first (``str(...)``, ``.strip()``, slicing), so ``bot.i18n.t`` no longer escapes
it: the refusal draws the typed text as Markdown (bold, masked link, ...)."""

from __future__ import annotations

import pytest

from bot.core.names import Name
from bot.errors import BotError, describe
from bot.services.house import HouseOptions
from bot.ui import settings_same
from engine.constructo import Layout, Size
from engine.errors import InvalidInputError

TYPED = Name("**big**")  # what bot.ui.typed makes of the option's value


class _Layer:
    kinds: dict[str, object] = {}


def test_settings_both_game_echo_is_escaped() -> None:
    with pytest.raises(BotError) as info:
        settings_same.refuse_contradictions(_Layer(), HouseOptions(game_on=TYPED, game_off=TYPED))  # type: ignore[arg-type]
    said = describe(info.value, "en")
    assert "**big**" not in said, said


@pytest.mark.parametrize("parse", [Layout.parse, Size.parse])
def test_engine_refusal_echo_of_typed_text_is_escaped(parse) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidInputError) as info:
        parse(TYPED)
    said = describe(info.value, "en")
    assert "**big**" not in said, said
