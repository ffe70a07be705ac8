"""The plug-in's shape (issue 20, item 6): a kind composed of its parts, naming its engine and replay renderer (no
lookup by name), and the UI bases every game's components and commands are built on (``GameSelect``, ``GameCog``)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.core import registry
from bot.core.kind import Components, GameKind, Narration, Pictures, Rules
from bot.errors import BotError
from bot.games.conex.cog import ConexCog
from bot.games.conex.views import DiscardSelect
from bot.games.constructo.cog import ConstructoCog
from bot.games.constructo.views import LayoutSelect, MoveSelect, PlaceSelect
from bot.ui.common import GameCog, GameSelect
from engine.constructo import Size
from engine.record import GAMES
from render.conex_replay import REPLAY as CONEX_REPLAY
from tests.games.nim.engine import Nim


def test_every_registered_kind_is_composed_of_parts_bound_to_it_and_names_its_engine() -> None:
    kinds = registry.kinds()
    assert {"constructo", "conex"} <= set(kinds)
    for name, kind in kinds.items():
        parts = (kind.rules, kind.narration, kind.pictures, kind.components)
        assert all(isinstance(p, cls) for p, cls in zip(parts, (Rules, Narration, Pictures, Components), strict=True))
        assert all(p.kind is kind for p in parts)
        assert kind.engine.game == name and GAMES[name] is kind.engine  # the record loader knows it by registration
        assert kind.replay is not None and kind.replay.engine is kind.engine


def test_a_kind_whose_engine_or_replay_is_of_another_game_is_refused() -> None:
    parts: dict[str, Any] = {"rules": Rules(), "narration": Narration(), "pictures": Pictures()}
    with pytest.raises(ValueError):
        GameKind(name="other", title="Other", engine=Nim, prefix="ot", start_command="/other new", **parts)
    with pytest.raises(ValueError):
        GameKind(
            name="nim", title="Nim", engine=Nim, prefix="nm", start_command="/nim new", replay=CONEX_REPLAY, **parts
        )
    kind = GameKind(name="nim", title="Nim", engine=Nim, prefix="nm", start_command="/nim new", **parts)
    assert kind.replay is None and kind.components.kind is kind
    assert kind.narration.no_game_here().key == "err.no_game_here"


def _round_trip(item: GameSelect) -> GameSelect:
    """The select a click on ``item`` rebuilds from its custom id (what discord.py does after a restart)."""
    cls = type(item)
    match = re.fullmatch(cls.__discord_ui_compiled_template__, item.custom_id)  # type: ignore[attr-defined]
    assert match is not None, item.custom_id
    return cls.from_match(match)


def test_game_selects_keep_their_custom_ids_and_turn_a_choice_into_the_action() -> None:
    place = PlaceSelect(7, 3, Size.LARGE, [1, 2])
    assert place.custom_id == "cx:pl:7:3:L" and [o.value for o in place.item.options] == ["1", "2"]
    again = _round_trip(place)
    assert isinstance(again, PlaceSelect) and (again.game_id, again.version, again.size) == (7, 3, Size.LARGE)
    assert again.action("5") == "L5"
    with pytest.raises(BotError):
        again.action("10")  # a tile outside 1-9 is refused in words, never sent to the engine
    move = _round_trip(MoveSelect(7, 4))
    assert move.custom_id == "cx:mv:7:4" and (move.version, move.action("3-4")) == (4, "3-4")
    assert _round_trip(LayoutSelect(7, 5, "rombo")).action("flor") == "layout flor"
    discard = DiscardSelect(9, page=1)
    assert discard.custom_id == "cn:dsel:9:1" and discard.version is None  # no version: valid at any time
    back = _round_trip(discard)
    assert isinstance(back, DiscardSelect) and back.page == 1 and back.action("12") == "discard 12"
    assert DiscardSelect(9).custom_id == "cn:dsel:9"


def test_both_games_command_groups_share_the_game_cog() -> None:
    assert issubclass(ConstructoCog, GameCog) and issubclass(ConexCog, GameCog)
    assert ConstructoCog.kind is registry.kind("constructo") and ConexCog.kind is registry.kind("conex")
    assert ConstructoCog.__cog_group_name__ == "constructo" and ConexCog.__cog_group_name__ == "conex"
