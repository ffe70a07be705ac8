"""A shapely ``GEOSException`` ("TopologyException: ...") on a real CONEX move (forced here by monkeypatching the
geometry the move goes through): the player never reads "Something went wrong".

- The exact check (``Table.check_pose``) failing: the pose is refused with rule ``Geometry`` (not a rulebook rule,
  so no code is shown), in words that say what happened and what to do, and nothing changes.
- The table's own overlays failing after a legal check (``geometry.difference``/``union_all``): the card still
  lands, through the snap-rounding overlay on a 1 micrometre grid: its visible areas differ from the floating
  result by at most a band 1 micrometre wide along their outlines.
- The finder failing on a target: that target is skipped, no exception leaves ``find_placements``/``targets_for``;
  when nothing is found because of it, auto-fit says the pose could not be checked, not "no legal pose".
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
import shapely
from shapely.errors import GEOSException

from bot.errors import describe
from bot.games.conex import placing
from engine.conex import Game, Place, finder_geom
from engine.conex.geometry import GRID_MM
from engine.conex.table import Table
from engine.errors import IllegalActionError

TOPOLOGY = "TopologyException: side location conflict at 12.5 -40.000000000000007"


def opened() -> tuple[Game, Place]:
    """A game after one card and the second seat's best pose."""
    g = Game.new(players=2, seed=5)
    g.play(g.find_placements(0, g.hands[0][0], limit=1)[0])
    place = g.find_placements(1, g.hands[1][0], limit=1)[0]
    return g, place


def fail(*_a: Any, **_k: Any) -> Any:
    raise GEOSException(TOPOLOGY)


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
def test_a_geos_failure_in_the_exact_check_refuses_the_pose_in_words_and_changes_nothing(
    monkeypatch: pytest.MonkeyPatch, locale: str
) -> None:
    g, place = opened()
    before = g.to_dict()
    monkeypatch.setattr(Table, "_p1", fail)
    with pytest.raises(IllegalActionError) as info:
        g.play(place)
    assert info.value.rule == "Geometry" and info.value.details["reason"] == "unchecked"
    assert g.to_dict() == before, "nothing changed"
    said = describe(info.value, locale)
    assert "went wrong" not in said and "algo salió mal" not in said.lower(), said
    assert f"#{place.card}" in said and ("could not check" in said or "No pude comprobar" in said), said
    assert "Geometry" not in said and "**" not in said, "an internal code is not shown as a rule"
    monkeypatch.undo()
    g.play(place)  # the same pose, judged again once the library does not fail: taken


def test_a_geos_failure_in_the_tables_overlay_still_lands_a_legal_card(monkeypatch: pytest.MonkeyPatch) -> None:
    g, place = opened()
    want = copy.deepcopy(g)
    want.play(place)
    floating = shapely.difference
    calls: list[bool] = []

    def flaky(a: Any, b: Any, grid_size: float | None = None, **kw: Any) -> Any:
        calls.append(grid_size is not None)
        if grid_size is None:
            raise GEOSException(TOPOLOGY)
        return floating(a, b, grid_size=grid_size, **kw)

    monkeypatch.setattr(shapely, "difference", flaky)
    g.play(place)
    monkeypatch.undo()
    assert calls and all(calls[1::2]), "every failed overlay was done again on the grid"
    assert g.to_dict() == want.to_dict()
    for tc in want.board.cards:
        got, exact = g.board.vis_main[tc.id], want.board.vis_main[tc.id]
        assert shapely.symmetric_difference(got, exact).area <= exact.length * GRID_MM, tc.id  # a 1 um band at most
    board, exact_board = g.board.vis_board, want.board.vis_board
    assert shapely.symmetric_difference(board, exact_board).area <= exact_board.length * GRID_MM


def test_a_geos_failure_in_the_finder_skips_the_target_instead_of_raising(monkeypatch: pytest.MonkeyPatch) -> None:
    g, _place = opened()
    card = g.hands[1][0]
    corner = g.deck[card].corners[0].index
    monkeypatch.setattr(finder_geom.TargetGeom, "get", classmethod(lambda cls, *a: fail()))
    assert g.find_placements(1, card, limit=3) == []
    assert g.targets_for(1, card, corner) == []
    with pytest.raises(IllegalActionError) as info:
        g.auto_fit(1, card, corner, "board")
    assert info.value.rule == "Geometry", "not 'no legal pose': the target could not be searched"
    with pytest.raises(IllegalActionError) as info:
        placing.resolve_place(g, 1, card=str(card), corner=corner)  # /conex place without x, y or target
    assert info.value.rule == "Geometry", info.value
    assert "could not check" in describe(info.value, "en-US"), describe(info.value, "en-US")
