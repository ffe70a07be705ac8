"""engine/conex/sample.py: the seeded first-fit sample games used by pictures, benchmarks and tests."""

from __future__ import annotations

import pytest

from engine.conex.sample import first_fit_game


def test_lays_exactly_the_cards_asked_and_is_repeatable() -> None:
    a, b = first_fit_game(6), first_fit_game(6)
    assert len(a.table) - len(first_fit_game(0).table) == 6
    assert a.to_dict() == b.to_dict()


def test_other_seed_or_table_size_gives_another_game() -> None:
    assert first_fit_game(4, seed=1).to_dict() != first_fit_game(4, seed=2).to_dict()
    assert len(first_fit_game(3, players=2).hands) == 2


def test_negative_count_is_refused() -> None:
    with pytest.raises(ValueError, match="placed"):
        first_fit_game(-1)
