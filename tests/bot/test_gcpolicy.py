"""The bot process's garbage-collector policy (bot/gcpolicy.py)."""

from __future__ import annotations

import gc

import pytest

from bot import gcpolicy


@pytest.fixture
def thresholds():
    saved = gc.get_threshold()
    yield
    gc.set_threshold(*saved)


def test_default_spaces_out_young_collections(thresholds: None) -> None:
    assert gcpolicy.tune({}) == (gcpolicy.DEFAULT_GEN0, gcpolicy.GEN1, gcpolicy.GEN2)
    assert gc.get_threshold()[0] == gcpolicy.DEFAULT_GEN0


def test_gen0_from_the_environment(thresholds: None) -> None:
    assert gcpolicy.tune({"GC_GEN0": "5000"})[0] == 5000


@pytest.mark.parametrize("raw", ["0", "-3", "many"])
def test_zero_or_nonsense_keeps_cpythons_defaults(thresholds: None, raw: str) -> None:
    gc.set_threshold(700, 10, 10)
    assert gcpolicy.tune({"GC_GEN0": raw}) == (700, 10, 10)


def test_freeze_moves_live_objects_out_of_every_collection() -> None:
    kept = [[] for _ in range(1000)]  # containers: tracked by the collector
    try:
        assert any(o is kept for o in gc.get_objects())  # in a generation: scanned by collections
        frozen = gcpolicy.freeze()
        assert frozen == gc.get_freeze_count() >= 1000
        ids = {id(o) for o in gc.get_objects()}  # the objects in generations 0-2
        assert id(kept) not in ids and not any(id(k) in ids for k in kept)
    finally:
        gc.unfreeze()
