"""Quick-match pieces that need no Discord: the settings hook (``matchqueue.allowed``) and ``Lobby.open``'s refusal of
a :class:`Place` for a game that would not start at once."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from bot.services.matchqueue import allowed
from bot.services.place import Place

KIND: Any = SimpleNamespace(name="conex")


def test_every_game_and_channel_is_allowed_without_settings() -> None:
    assert allowed({}, KIND, 5)
    assert allowed({"play_channels": []}, KIND, 5)


def test_the_hook_reads_disabled_games_and_play_channels() -> None:
    assert not allowed({"games_disabled": ["conex"]}, KIND, 5)
    assert allowed({"games_disabled": ["other"]}, KIND, 5)
    assert allowed({"play_channels": [5, 6]}, KIND, 5)
    assert not allowed({"play_channels": [6]}, KIND, 5)


async def test_a_place_opens_only_a_game_that_starts_at_once() -> None:
    from bot.services.lobby import Lobby

    lobby = Lobby.__new__(Lobby)
    place = Place(guild=SimpleNamespace(id=1), channel=SimpleNamespace(id=2), user=SimpleNamespace(id=3))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="start at once"):
        await lobby.open(place, KIND, options={}, seats=[], players=[3], title="t")
