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
    gc.unfreeze()
    try:
        before = gcpolicy.freeze()
        gc.unfreeze()
        kept = [[] for _ in range(1000)]  # containers: tracked by the collector
        frozen = gcpolicy.freeze()
        assert frozen >= before + 1000
        assert all(gc.is_tracked(k) for k in kept)
        assert gc.get_count()[2] == 0 or len(gc.get_objects(generation=2)) < frozen  # the frozen are in no generation
    finally:
        gc.unfreeze()
