"""Clocks (wake_at, due_games), guild settings and ending a guild's games (issue 12), on both backends."""

from __future__ import annotations

import pytest

from bot.storage import UNCHANGED, GameClosedError, GameNotFoundError, InvalidDataError, Storage

GUILD = 50


async def test_wake_at_is_set_with_an_action_kept_by_default_and_cleared_when_the_game_closes(
    storage: Storage,
) -> None:
    gid = await storage.create_game("conex", GUILD, 1, {"n": 0}, [1, 2], status="active", wake_at=100)
    assert (await storage.get_game(gid)).wake_at == 100.0  # type: ignore[union-attr]
    v = await storage.apply_action(gid, 0, {"n": 1}, player=1, action="draw", wake_at=250.5)
    assert (await storage.get_game(gid)).wake_at == 250.5  # type: ignore[union-attr]
    v = await storage.apply_action(gid, v, {"n": 2}, player=2, action="draw")  # UNCHANGED by default
    assert (await storage.get_game(gid)).wake_at == 250.5  # type: ignore[union-attr]
    v = await storage.apply_action(gid, v, {"n": 3}, player=1, action="draw", wake_at=None)
    assert (await storage.get_game(gid)).wake_at is None  # type: ignore[union-attr]
    v = await storage.apply_action(gid, v, {"n": 4}, player=2, action="draw", wake_at=UNCHANGED)
    await storage.set_wake_at(gid, 400)
    await storage.apply_action(gid, v, {"n": 5}, player=1, action="end", result=[[1], [2]])
    game = await storage.get_game(gid)
    assert game is not None and game.status == "finished" and game.wake_at is None
    assert game.finished_at is not None and game.finished_at >= game.created_at


async def test_set_wake_at_bumps_no_version_and_skips_closed_games(storage: Storage) -> None:
    gid = await storage.create_game("constructo", GUILD, 1, {}, [1, 2], status="active")
    assert await storage.set_wake_at(gid, 1234) is True
    game = await storage.get_game(gid)
    assert game is not None and game.wake_at == 1234.0 and game.version == 0 and await storage.actions(gid) == []
    await storage.abort_game(gid, 0, by_user=1)
    assert await storage.set_wake_at(gid, 99) is False
    assert (await storage.get_game(gid)).wake_at is None  # type: ignore[union-attr]
    with pytest.raises(GameNotFoundError):
        await storage.set_wake_at(gid + 100, 1)
    for bad in (-1, float("nan"), float("inf"), True, "soon"):
        with pytest.raises(InvalidDataError):
            await storage.set_wake_at(gid, bad)  # type: ignore[arg-type]


async def test_due_games_lists_open_games_whose_time_came_earliest_first(storage: Storage) -> None:
    late = await storage.create_game("conex", GUILD, 1, {}, [1, 2], status="active", wake_at=300)
    early = await storage.create_game("conex", GUILD, 2, {}, [1, 2], status="lobby", wake_at=100)
    never = await storage.create_game("conex", GUILD, 3, {}, [1, 2], status="active")
    future = await storage.create_game("conex", GUILD, 4, {}, [1, 2], status="active", wake_at=10_000)
    closed = await storage.create_game("conex", GUILD, 5, {}, [1, 2], status="active", wake_at=50)
    await storage.apply_action(closed, 0, {}, player=1, action="end", result=[[1], [2]], wake_at=50)
    assert [g.id for g in await storage.due_games(99)] == []
    assert [g.id for g in await storage.due_games(100)] == [early]
    due = await storage.due_games(5000)
    assert [g.id for g in due] == [early, late] and due[0].wake_at == 100.0
    assert [g.id for g in await storage.due_games(5000, limit=1)] == [early]
    assert never not in [g.id for g in await storage.due_games(10**9)]
    assert future in [g.id for g in await storage.due_games(10**9)]
    with pytest.raises(InvalidDataError):
        await storage.due_games(100, limit=0)


async def test_guild_settings_hold_json_values_per_guild(storage: Storage) -> None:
    assert await storage.get_guild_settings(GUILD) == {}
    after = await storage.set_guild_settings(GUILD, clock="daily", reminder_fraction=0.25, presets={"live": [5, 60]})
    assert after == {"clock": "daily", "reminder_fraction": 0.25, "presets": {"live": [5, 60]}}
    await storage.set_guild_settings(GUILD, clock="live", presets=None)  # None deletes: back to the default
    assert await storage.get_guild_settings(GUILD) == {"clock": "live", "reminder_fraction": 0.25}
    assert await storage.get_guild_settings(GUILD + 1) == {}


@pytest.mark.parametrize(
    "values",
    [
        {"Clock": "x"},
        {"clock-mode": "x"},
        {"a" * 33: 1},
        {"clock": float("nan")},
        {"clock": object()},
        {"clock": "x" * 5000},
    ],
)
async def test_bad_guild_settings_are_refused_and_change_nothing(storage: Storage, values: dict[str, object]) -> None:
    await storage.set_guild_settings(GUILD, clock="daily")
    with pytest.raises(InvalidDataError):
        await storage.set_guild_settings(GUILD, expiry_minutes=30, **values)
    assert await storage.get_guild_settings(GUILD) == {"clock": "daily"}


async def test_abort_guild_games_ends_every_open_game_of_the_guild_unrated(storage: Storage) -> None:
    lobby = await storage.create_game("conex", GUILD, 1, {"s": 1}, [1, 2], status="lobby", wake_at=10)
    active = await storage.create_game("constructo", GUILD, 2, {"s": 2}, [1, 3], status="active")
    await storage.apply_action(active, 0, {"s": 3}, player=1, action="M5")
    done = await storage.create_game("constructo", GUILD, 3, {}, [1, 2], status="active")
    await storage.apply_action(done, 0, {}, player=1, action="end", result=[[1], [2]])
    other = await storage.create_game("conex", GUILD + 1, 4, {}, [1, 2], status="active")
    ended = await storage.abort_guild_games(GUILD)
    assert [(g.id, g.status, g.version, g.end_reason, g.wake_at) for g in ended] == [
        (lobby, "aborted", 1, "guild_removed", None),
        (active, "aborted", 2, "guild_removed", None),
    ]
    assert ended[1].state == {"s": 3} and ended[1].finished_at is not None
    assert [(a.seq, a.player, a.action) for a in await storage.actions(active)] == [(1, 1, "M5"), (2, None, "abort")]
    assert (await storage.get_game(other)).status == "active"  # type: ignore[union-attr]
    assert (await storage.get_game(done)).status == "finished"  # type: ignore[union-attr]
    assert await storage.list_active_games(guild_id=GUILD) == []
    assert await storage.rating_changes(active) == []
    with pytest.raises(GameClosedError):
        await storage.apply_action(active, 2, {}, player=1, action="L4")
    assert await storage.abort_guild_games(GUILD) == []  # nothing left to end
    # The channels are free again.
    await storage.create_game("conex", GUILD, 1, {}, [1, 2])


async def test_abort_reason_is_kept(storage: Storage) -> None:
    gid = await storage.create_game("conex", GUILD, 1, {}, [1, 2], status="active")
    await storage.abort_game(gid, 0, by_user=None, reason="mutual")
    game = await storage.get_game(gid)
    assert game is not None and game.end_reason == "mutual" and game.result is None
    with pytest.raises(InvalidDataError):
        await storage.abort_guild_games(GUILD, reason="Bot Removed!")


async def test_set_wake_at_compare_and_set_one_of_two_writers_wins(storage: Storage) -> None:
    gid = await storage.create_game("constructo", GUILD, 1, {}, [1, 2], status="active", wake_at=100.25)
    assert await storage.set_wake_at(gid, 200, if_version=1, if_wake=100.25) is False  # wrong version
    assert await storage.set_wake_at(gid, 200, if_version=0, if_wake=100.25) is True
    assert await storage.set_wake_at(gid, 300, if_version=0, if_wake=100.25) is False  # the other writer
    assert (await storage.get_game(gid)).wake_at == 200.0  # type: ignore[union-attr]
    assert await storage.set_wake_at(gid, None, if_wake=200) is True
    assert await storage.set_wake_at(gid, 5, if_wake=None) is True


async def test_due_games_of_some_shards_only(storage: Storage) -> None:
    guilds = [(1323802873036800010 >> 22 << 22) + n * (1 << 22) for n in range(4)]  # real-size ids, shards n % 3
    for n, guild in enumerate(guilds):
        await storage.create_game("conex", guild, 10 + n, {}, [1, 2], status="active", wake_at=100 + n)
    shard_of = {g: (g >> 22) % 3 for g in guilds}
    mine = [r.guild_id for r in await storage.due_games(1000, shards=(3, [shard_of[guilds[1]]]))]
    assert mine and all(shard_of[g] == shard_of[guilds[1]] for g in mine)
    assert len(await storage.due_games(1000, shards=(3, [0, 1, 2]))) == 4
    assert len(await storage.due_games(1000)) == 4
    with pytest.raises(InvalidDataError):
        await storage.due_games(1000, shards=(0, [0]))
