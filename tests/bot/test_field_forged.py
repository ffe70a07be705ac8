"""Unit tests of issue 22's forged-payload checks: custom-id groups out of range (``bot.ui.forged``) and a hardened
``from_custom_id`` that yields a refusing item instead of raising."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.games.conex.views import HintButton
from bot.ui import forged


def _match(cls: Any, custom_id: str) -> re.Match[str]:
    found = cls.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert found is not None, custom_id
    return found


def test_out_of_range_names_the_first_bad_group() -> None:
    assert forged.out_of_range(_match(HintButton, "cn:hp:1:2:3:1:10.5:-4.0:90.0")) is None
    assert forged.out_of_range(_match(HintButton, f"cn:hp:{2**63}:2:3:1:0.0:0.0:0.0")) == f"game={2**63}"
    assert (
        forged.out_of_range(_match(HintButton, "cn:hp:1:2:3:1:100000000000000000000.0:0.0:0.0"))
        == "x=100000000000000000000.0"
    )
    assert forged.out_of_range(_match(HintButton, f"cn:hp:1:2:3:1:0.0:{'9' * 400}.0:0.0")).startswith("y=")


async def test_hardened_item_turns_bad_ids_into_a_refusing_item() -> None:
    class Boom(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"zz:(?P<n>[0-9]+)"):
        @classmethod
        async def from_custom_id(cls, interaction: Any, item: Any, match: re.Match[str], /) -> Boom:
            raise ValueError("cannot take " + match["n"])

    forged.harden(forged.harden(Boom))  # twice: wrapped once
    button = discord.ui.Button(custom_id="zz:12")
    made = await Boom.from_custom_id(None, button, _match(Boom, "zz:12"))  # type: ignore[arg-type]
    assert isinstance(made, forged.Forged) and "ValueError: cannot take 12" in made.why
    huge = f"zz:{2**64}"
    made = await Boom.from_custom_id(None, discord.ui.Button(custom_id=huge), _match(Boom, huge))  # type: ignore[arg-type]
    assert isinstance(made, forged.Forged) and made.why == f"n={2**64}"
