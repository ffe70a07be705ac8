"""``TABLEBOT_OUTBOX_WAIT_S`` (tests only, ``bot/core/outbox.py``): caps the grace every owed effect is given and the
workers' idle pause; unset, each rule's own grace and :data:`~bot.core.outbox.IDLE_S` stand."""

from __future__ import annotations

from typing import Any

import pytest

from bot.core.outbox import IDLE_S, Outbox
from bot.storage.effects import Owed


def outbox() -> Outbox:
    def unused(*_args: Any) -> Any:
        raise AssertionError("not called")

    box = Outbox(storage=unused, now=lambda: 0.0, shards=lambda: None, spawn=unused, closed=lambda: False)
    box.subscribe("ai", unused, rule=lambda _snap, _change: [Owed("ai", delay_s=30.0), Owed("board", delay_s=0.5)])
    return box


def test_unset_each_effect_keeps_its_own_grace(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TABLEBOT_OUTBOX_WAIT_S", raising=False)
    box = outbox()
    assert [o.delay_s for o in box.owed(None, None)] == [30.0, 0.5]
    assert box.idle_s == IDLE_S


def test_set_no_grace_and_no_idle_pause_is_longer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLEBOT_OUTBOX_WAIT_S", "2")
    box = outbox()
    assert [o.delay_s for o in box.owed(None, None)] == [2.0, 0.5]
    assert box.idle_s == 2.0


@pytest.mark.parametrize("raw", ["0", "-1", "soon", "nan"])
def test_a_value_that_is_not_a_positive_number_is_refused(monkeypatch: pytest.MonkeyPatch, raw: str) -> None:
    monkeypatch.setenv("TABLEBOT_OUTBOX_WAIT_S", raw)
    with pytest.raises(ValueError):
        outbox()
