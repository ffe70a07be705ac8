"""The footprint's rules without Discord (``bot/services/footprint.py``): the setting, the mark of a game in a
thread of its own, and which commits owe a result card or an ended mark. Behaviour through the real bot:
``tests/e2e/test_footprint.py``."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

from bot.services import footprint
from bot.storage.effects import Owed
from bot.storage.records import GameRecord


def record(status: str = "active", extra: dict[str, Any] | None = None, messages: dict[str, int] | None = None) -> Any:
    now = datetime.now(UTC)
    state = {"v": 2, "extra": extra or {}}
    return GameRecord(1, "constructo", 10, 30, status, state, 5, [1, 2], messages or {}, now, now)


def rule(status: str, **kw: Any) -> list[Owed]:
    fp = footprint.Footprint.__new__(footprint.Footprint)
    return fp.owed(SimpleNamespace(status=status, record=record(status, **kw)), None)  # type: ignore[arg-type]


def test_setting_is_on_by_default_and_a_guild_choice_wins() -> None:
    assert footprint.enabled({}) is True
    assert footprint.enabled({}, default=False) is False
    assert footprint.enabled({footprint.SETTING: False}) is False
    assert footprint.enabled({footprint.SETTING: True}, default=False) is True
    assert footprint.enabled({footprint.SETTING: "no"}) is True, "a value that is not a bool is ignored"


def test_a_game_in_a_thread_of_its_own_is_marked_with_its_parent_channel() -> None:
    assert footprint.parent_of(record()) is None
    marked = footprint.marked({"letters": [[1]]}, 20)
    assert marked == {"letters": [[1]], "footprint": {"parent": 20}}
    assert footprint.parent_of(record(extra=marked)) == 20
    assert footprint.parent_of(record(extra={"footprint": {"parent": "20"}})) is None


def test_a_finished_thread_game_owes_its_result_card_and_an_aborted_board_its_ended_mark() -> None:
    mark = footprint.marked({}, 20)
    assert [o.kind for o in rule("finished", extra=mark)] == ["result"]
    assert rule("finished") == [], "a game in its channel: its final board is the result card there"
    assert rule("active", extra=mark) == []
    assert [o.kind for o in rule("aborted", messages={"board": 99})] == ["ended"]
    assert rule("aborted") == [], "an aborted set-up has no board"


def test_a_thread_the_bot_made_is_renamed_on_an_open_accept_or_a_start_and_archived_when_the_set_up_ends() -> None:
    fp = footprint.Footprint.__new__(footprint.Footprint)

    def owed(status: str, action: str, *, made: bool = True, open_: bool = True, engine: Any = None) -> list[str]:
        extra = {footprint.MADE_KEY: True} if made else {}
        env = SimpleNamespace(extra=extra, options={"open": open_}, engine=engine)
        snap = SimpleNamespace(status=status, record=record(status), env=env)
        return [o.kind for o in fp.owed(snap, SimpleNamespace(action=action))]  # type: ignore[arg-type]

    assert owed("active", "accept") == ["rename"]
    assert owed("active", "start", open_=False) == ["rename"], "a lobby started: its thread gets the players"
    assert owed("active", "start", made=False) == []
    assert owed("active", "accept", open_=False) == [], "an invited opponent: the thread already names them"
    assert owed("active", "accept", made=False) == [], "a thread the bot did not make for the game"
    assert owed("aborted", "withdraw") == ["archive"] and owed("aborted", "expire") == ["archive"]
    assert owed("aborted", "withdraw", made=False) == []
    assert owed("aborted", "abort", engine={"x": 1}) == [], "a game that started keeps its thread"
    assert footprint.placed({}, (True, 20), SimpleNamespace()) == {  # type: ignore[arg-type]
        "footprint": {"parent": 20},
        footprint.MADE_KEY: True,
    }
    assert footprint.placed({}, (False, 20), None) == {"footprint": {"parent": 20}}
    assert footprint.placed({}, None, None) == {}
