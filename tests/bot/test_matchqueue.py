"""Quick-match pieces that need no Discord: ``Lobby.open``'s refusal of a :class:`Place` for a game that would not
start at once."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from bot.services.place import Place

KIND: Any = SimpleNamespace(name="conex")


async def test_a_place_opens_only_a_game_that_starts_at_once() -> None:
    from bot.services.lobby import Lobby

    lobby = Lobby.__new__(Lobby)
    place = Place(guild=SimpleNamespace(id=1), channel=SimpleNamespace(id=2), user=SimpleNamespace(id=3))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="start at once"):
        await lobby.open(place, KIND, options={}, seats=[], players=[3], title="t")
