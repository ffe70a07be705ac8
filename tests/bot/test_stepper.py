"""The replay stepper's pure parts: which moves the jump select offers, and its components' custom ids."""

from __future__ import annotations

import pytest

from bot.ui.stepper import JUMP_OPTIONS, jump_moves, step_view


@pytest.mark.parametrize("total", [0, 1, 7, 24, 25, 60, 140])
@pytest.mark.parametrize("where", [0.0, 0.5, 1.0])
def test_jump_select_offers_the_ends_and_the_neighbours_within_discords_25(total: int, where: float) -> None:
    current = round(total * where)
    moves = jump_moves(total, current)
    assert len(moves) <= JUMP_OPTIONS and moves == sorted(set(moves))
    assert moves[0] == 0 and moves[-1] == total
    assert all(0 <= m <= total for m in moves)
    assert {m for m in range(current - 2, current + 3) if 0 <= m <= total} <= set(moves)
    if total < JUMP_OPTIONS:
        assert moves == list(range(total + 1))


def test_step_view_ids_are_unique_and_the_ends_disabled() -> None:
    view = step_view(12, 0, 9, "en-US", {0: "start", 9: "Alice: resigns"})
    ids = [c.custom_id for c in view.children]  # type: ignore[attr-defined]
    assert ids == ["rc:sv:12:0:f", "rc:sv:12:0:p", "rc:sv:12:1:n", "rc:sv:12:9:l", "rc:sj:12"]
    assert len(set(ids)) == len(ids) and all(len(i) <= 100 for i in ids)
    first, prev, nxt, last, select = (c.item for c in view.children)  # type: ignore[attr-defined]
    assert first.disabled and prev.disabled and not nxt.disabled and not last.disabled
    options = {o.value: o for o in select.options}
    assert options["9"].description == "Alice: resigns" and options["0"].default
    end = [c.item for c in step_view(12, 9, 9, "es-ES").children]  # type: ignore[attr-defined]
    assert end[2].disabled and end[3].disabled and end[4].placeholder == "Ir a una jugada…"
