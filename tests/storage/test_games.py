"""Games: creation, one open game per channel, version-checked actions, the log, messages, abort."""

from __future__ import annotations

import asyncio
import sqlite3
from typing import Any

import asyncpg
import pytest

from bot.storage import (
    ActionRecord,
    ChannelBusyError,
    GameClosedError,
    GameNotFoundError,
    InvalidDataError,
    Storage,
    StorageError,
    VersionConflictError,
)

from .conftest import raw_execute

GUILD, CHANNEL = 100, 200


def step(state: dict[str, Any], action: ActionRecord) -> dict[str, Any]:
    """A toy engine: the state is the list of applied action texts (abort changes nothing)."""
    if action.action == "abort":
        return state
    return {"moves": [*state["moves"], action.action]}


async def test_create_and_get_game(storage: Storage) -> None:
    gid = await storage.create_game("constructo", GUILD, CHANNEL, {"moves": []}, [1, 2])
    game = await storage.get_game(gid)
    assert game is not None
    assert (game.kind, game.guild_id, game.channel_id, game.status, game.version) == (
        "constructo",
        GUILD,
        CHANNEL,
        "lobby",
        0,
    )
    assert game.players == [1, 2] and game.messages == {} and game.state == {"moves": []}
    assert game.created_at.tzinfo is not None and game.result is None and game.is_open
    assert await storage.get_game(gid + 1) is None
    assert (await storage.active_game_in_channel(CHANNEL)).id == gid  # type: ignore[union-attr]
    assert await storage.active_game_in_channel(CHANNEL + 1) is None


async def test_second_open_game_in_a_channel_is_refused(storage: Storage) -> None:
    gid = await storage.create_game("conex", GUILD, CHANNEL, {"moves": []}, [1, 2, 3])
    with pytest.raises(ChannelBusyError) as info:
        await storage.create_game("constructo", GUILD, CHANNEL, {"moves": []}, [4, 5], status="active")
    assert info.value.rule == "ChannelBusy" and info.value.details == {"channel_id": CHANNEL, "game_id": gid}
    assert [g.id for g in await storage.list_active_games()] == [gid]
    # Another channel (or thread) of the same guild is free.
    other = await storage.create_game("constructo", GUILD, CHANNEL + 1, {"moves": []}, [4, 5])
    assert [g.id for g in await storage.list_active_games()] == [gid, other]
    assert [g.id for g in await storage.list_active_games(kind="constructo")] == [other]


async def test_schema_itself_refuses_two_open_games_in_a_channel(storage: Storage, database_url: str) -> None:
    await storage.create_game("conex", GUILD, CHANNEL, {"moves": []}, [1, 2])
    with pytest.raises((sqlite3.IntegrityError, asyncpg.UniqueViolationError), match=r"(?i)unique"):
        await raw_execute(
            database_url,
            "INSERT INTO games (kind, guild_id, channel_id, status, state_json, initial_state_json, version,"
            f" created_at, updated_at) VALUES ('conex', {GUILD}, ?, 'active', '{{}}', '{{}}', 0, 0, 0)",
            CHANNEL,
        )


@pytest.mark.parametrize("how", ["finished", "aborted"])
async def test_a_closed_game_frees_its_channel(storage: Storage, how: str) -> None:
    gid = await storage.create_game("constructo", GUILD, CHANNEL, {"moves": []}, [1, 2], status="active")
    if how == "finished":
        version = await storage.apply_action(gid, 0, {"moves": ["M5"]}, player=1, action="M5", status="finished")
    else:
        version = await storage.abort_game(gid, 0, by_user=999)
    assert version == 1
    assert await storage.active_game_in_channel(CHANNEL) is None
    new = await storage.create_game("constructo", GUILD, CHANNEL, {"moves": []}, [1, 2])
    assert (await storage.active_game_in_channel(CHANNEL)).id == new  # type: ignore[union-attr]
    old = await storage.get_game(gid)
    assert old is not None and old.status == how and not old.is_open
    with pytest.raises(GameClosedError):
        await storage.apply_action(gid, 1, {"moves": []}, player=1, action="L4")


async def test_apply_action_writes_state_log_and_version_together(storage: Storage) -> None:
    gid = await storage.create_game("conex", GUILD, CHANNEL, {"moves": []}, [1, 2])
    v = await storage.apply_action(gid, 0, {"moves": []}, player=3, action="join", players=[1, 2, 3])
    v = await storage.apply_action(gid, v, {"moves": []}, player=1, action="start", status="active")
    state: dict[str, Any] = {"moves": []}
    for i in range(5):
        state = {"moves": [*state["moves"], f"draw{i}"]}
        v = await storage.apply_action(gid, v, state, player=[1, 2, 3][i % 3], action=f"draw{i}")
    game = await storage.get_game(gid)
    assert game is not None and game.version == v == 7 and game.status == "active"
    assert game.players == [1, 2, 3] and game.state == state
    log = await storage.actions(gid)
    assert [a.seq for a in log] == list(range(1, 8))
    assert [a.action for a in log][:2] == ["join", "start"] and log[0].player == 3
    assert [a.seq for a in await storage.actions(gid, after_seq=5)] == [6, 7]


async def test_replay_checks_log_against_state(storage: Storage) -> None:
    gid = await storage.create_game("constructo", GUILD, CHANNEL, {"moves": []}, [1, 2], status="active")
    v = 0
    state: dict[str, list[str]] = {"moves": []}
    for text in ("M5", "L4", "4-5"):
        state = {"moves": [*state["moves"], text]}
        v = await storage.apply_action(gid, v, state, player=1 + v % 2, action=text)
    assert await storage.replay(gid, step) == state
    # A stored state that the log does not explain is reported with the rule code.
    await storage.apply_action(gid, v, {"moves": ["forged"]}, player=1, action="S1")
    with pytest.raises(StorageError) as info:
        await storage.replay(gid, step)
    assert info.value.rule == "ReplayMismatch" and info.value.details["game_id"] == gid


async def test_two_concurrent_actions_on_one_version_one_wins(storage: Storage) -> None:
    gid = await storage.create_game("constructo", GUILD, CHANNEL, {"moves": []}, [1, 2], status="active")
    results = await asyncio.gather(
        storage.apply_action(gid, 0, {"moves": ["M5"]}, player=1, action="M5"),
        storage.apply_action(gid, 0, {"moves": ["L3"]}, player=1, action="L3"),
        return_exceptions=True,
    )
    wins = [r for r in results if isinstance(r, int)]
    conflicts = [r for r in results if isinstance(r, VersionConflictError)]
    assert wins == [1] and len(conflicts) == 1
    assert conflicts[0].details == {"game_id": gid, "expected": 0, "actual": 1}
    assert "someone acted first" in str(conflicts[0])
    game = await storage.get_game(gid)
    log = await storage.actions(gid)
    assert game is not None and game.version == 1 and len(log) == 1
    assert game.state == {"moves": [log[0].action]}  # the state is the winner's, and so is the log
    assert await storage.replay(gid, step) == game.state


async def test_two_processes_worth_of_connections_one_wins(database_url: str) -> None:
    """Two Storage objects on one database (as two shard processes share PostgreSQL): the version check
    inside the transaction (BEGIN IMMEDIATE; SELECT ... FOR UPDATE), not the asyncio lock, decides."""
    a = await Storage.open(database_url)
    b = await Storage.open(database_url)
    try:
        gid = await a.create_game("conex", GUILD, CHANNEL, {"moves": []}, [1, 2], status="active")
        results = await asyncio.gather(
            a.apply_action(gid, 0, {"moves": ["draw"]}, player=1, action="draw"),
            b.apply_action(gid, 0, {"moves": ["pass"]}, player=1, action="pass"),
            return_exceptions=True,
        )
        assert sorted(type(r).__name__ for r in results) == ["VersionConflictError", "int"]
        game, log = await b.get_game(gid), await b.actions(gid)
        assert game is not None and game.version == 1 and game.state == {"moves": [log[0].action]}
    finally:
        await a.close()
        await b.close()


async def test_stale_version_conflicts_and_changes_nothing(storage: Storage) -> None:
    gid = await storage.create_game("constructo", GUILD, CHANNEL, {"moves": []}, [1, 2], status="active")
    await storage.apply_action(gid, 0, {"moves": ["M5"]}, player=1, action="M5")
    with pytest.raises(VersionConflictError):
        await storage.apply_action(gid, 0, {"moves": ["X"]}, player=2, action="X", players=[2, 3])
    with pytest.raises(VersionConflictError):
        await storage.abort_game(gid, 5, by_user=1)
    game = await storage.get_game(gid)
    assert game is not None and game.state == {"moves": ["M5"]} and game.players == [1, 2] and game.status == "active"
    assert len(await storage.actions(gid)) == 1


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"new_state": {"x": float("nan")}}, "state"),
        ({"new_state": {"x": object()}}, "state"),
        ({"new_state": ["not", "a", "dict"]}, "state"),
        ({"action": "  "}, "action"),
        ({"status": "paused"}, "status"),
        ({"status": "lobby"}, "status"),  # active -> lobby goes backwards
        ({"players": [1, 1]}, "players"),
        ({"player": True}, "player"),
        ({"result": [[1], [3]]}, "result.ranking"),  # 3 is not seated, 2 is missing
        ({"result": [[1], [1, 2]]}, "result.ranking"),
        ({"result": [[1], [2]], "status": "aborted"}, "status"),
        ({"result": {"ranking": [[1], [2]], "rated": "yes"}}, "result.rated"),
    ],
)
async def test_bad_arguments_are_refused_and_change_nothing(
    storage: Storage, kwargs: dict[str, Any], field: str
) -> None:
    gid = await storage.create_game("constructo", GUILD, CHANNEL, {"moves": []}, [1, 2], status="active")
    args: dict[str, Any] = {"new_state": {"moves": ["M5"]}, "player": 1, "action": "M5", **kwargs}
    new_state = args.pop("new_state")
    with pytest.raises(InvalidDataError) as info:
        await storage.apply_action(gid, 0, new_state, **args)
    assert info.value.rule == "Input" and info.value.details["field"] == field
    game = await storage.get_game(gid)
    assert game is not None and game.version == 0 and game.state == {"moves": []} and game.status == "active"
    assert await storage.actions(gid) == [] and await storage.leaderboard(GUILD, "constructo") == []


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (("Chess!", GUILD, CHANNEL, {}, [1, 2]), "kind"),
        (("", GUILD, CHANNEL, {}, [1, 2]), "kind"),
        (("conex", "guild", CHANNEL, {}, [1, 2]), "guild_id"),
        (("conex", GUILD, CHANNEL, {}, [1, 2], "finished"), "status"),
        (("conex", GUILD, CHANNEL, {}, [1, 2, 1]), "players"),
    ],
)
async def test_create_game_refuses_bad_arguments(storage: Storage, args: tuple[Any, ...], field: str) -> None:
    with pytest.raises(InvalidDataError) as info:
        await storage.create_game(*args)
    assert info.value.details["field"] == field
    assert await storage.list_active_games() == []


async def test_unknown_game_is_reported(storage: Storage) -> None:
    with pytest.raises(GameNotFoundError):
        await storage.apply_action(42, 0, {}, player=1, action="M5")
    with pytest.raises(GameNotFoundError):
        await storage.set_message(42, "board", 1)
    with pytest.raises(GameNotFoundError):
        await storage.actions(42)


async def test_messages_are_set_replaced_and_forgotten_without_a_version_bump(storage: Storage) -> None:
    gid = await storage.create_game("conex", GUILD, CHANNEL, {"moves": []}, [1, 2])
    await storage.set_message(gid, "board", 1111)
    await storage.set_message(gid, "hand:2", 2222)
    await storage.set_message(gid, "board", 3333)
    game = await storage.get_game(gid)
    assert game is not None and game.messages == {"board": 3333, "hand:2": 2222} and game.version == 0
    await storage.set_message(gid, "hand:2", None)
    assert (await storage.get_game(gid)).messages == {"board": 3333}  # type: ignore[union-attr]


async def test_action_log_is_append_only(storage: Storage, database_url: str) -> None:
    gid = await storage.create_game("conex", GUILD, CHANNEL, {"moves": []}, [1, 2], status="active")
    await storage.apply_action(gid, 0, {"moves": ["draw"]}, player=1, action="draw")
    for sql in ("UPDATE actions SET action = 'pass'", "DELETE FROM actions"):
        with pytest.raises((sqlite3.IntegrityError, asyncpg.RaiseError), match="append-only"):
            await raw_execute(database_url, sql)
    assert [a.action for a in await storage.actions(gid)] == ["draw"]


async def test_cancelled_caller_does_not_leave_a_half_transaction(storage: Storage) -> None:
    gid = await storage.create_game("constructo", GUILD, CHANNEL, {"moves": []}, [1, 2], status="active")
    task = asyncio.create_task(storage.apply_action(gid, 0, {"moves": ["M5"]}, player=1, action="M5"))
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    # The shielded write finishes on its own; either way the state and the log agree.
    for _ in range(100):
        game = await storage.get_game(gid)
        if game is not None and game.version == 1:
            break
        await asyncio.sleep(0.01)
    assert game is not None
    assert len(await storage.actions(gid)) == game.version
    v = await storage.apply_action(gid, game.version, {"moves": ["x"]}, player=2, action="x")
    assert v == game.version + 1
