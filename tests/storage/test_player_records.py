"""A player's records for /stats (issue 25): head-to-head, best win streak, results by a game option, on both
backends (the ``storage`` fixture runs every test on SQLite and PostgreSQL)."""

from __future__ import annotations

from itertools import count

import pytest

from bot.storage import WDL, InvalidDataError, Storage
from bot.storage.player_records import OptionRecord

GUILD = 91
_channels = count(9000)


async def finish(
    storage: Storage,
    seats: list[int],
    result: dict[str, object],
    *,
    options: dict[str, str] | None = None,
    kind: str = "constructo",
    guild: int = GUILD,
) -> int:
    state = {"options": options} if options is not None else {"n": 0}
    gid = await storage.create_game(kind, guild, next(_channels), state, seats, status="active")
    await storage.apply_action(gid, 0, {**state, "n": 1}, player=seats[0], action="end", result=result)
    return gid


def win(a: int, b: int, rated: bool = True) -> dict[str, object]:
    return {"ranking": [[a], [b]], "rated": rated}


def draw(a: int, b: int) -> dict[str, object]:
    return {"ranking": [[a, b]], "rated": True}


async def test_head_to_head_counts_only_games_both_sat_in_per_kind_and_guild(storage: Storage) -> None:
    await finish(storage, [1, 2], win(1, 2))
    await finish(storage, [1, 2], win(2, 1))
    await finish(storage, [2, 1], win(1, 2))
    await finish(storage, [1, 2], draw(1, 2))
    await finish(storage, [1, 3], win(1, 3))  # another opponent
    await finish(storage, [1, 2], win(1, 2), kind="conex")  # another game
    await finish(storage, [1, 2], win(1, 2), guild=GUILD + 1)  # another server
    await finish(storage, [1, 2, 4], {"ranking": [[4], [2], [1]], "rated": True}, kind="conex")  # three seats
    assert await storage.head_to_head(GUILD, "constructo", 1, 2) == WDL(wins=2, draws=1, losses=1)
    assert await storage.head_to_head(GUILD, "constructo", 2, 1) == WDL(wins=1, draws=1, losses=2)
    assert await storage.head_to_head(GUILD, "conex", 1, 2) == WDL(wins=1, draws=0, losses=1)
    assert await storage.head_to_head(GUILD, "constructo", 1, 5) == WDL()
    with pytest.raises(InvalidDataError):
        await storage.head_to_head(GUILD, "constructo", 1, 1)


async def test_places_against_count_who_finished_ahead_in_games_both_sat_in(storage: Storage) -> None:
    """The head-to-head of a game of places: a 2nd place ahead of the opponent's 3rd is ahead, not a loss."""
    await finish(storage, [1, 2, 4], {"ranking": [[4], [1], [2]], "rated": True}, kind="conex")  # 2nd vs 3rd
    await finish(storage, [1, 2, 4], {"ranking": [[2], [1], [4]], "rated": True}, kind="conex")  # 2nd vs 1st
    await finish(storage, [1, 2, 4, 5], {"ranking": [[5], [1, 2], [4]], "rated": True}, kind="conex")  # level 2nd
    await finish(storage, [1, 4], win(4, 1), kind="conex")  # no opponent 2
    assert await storage.head_to_head(GUILD, "conex", 1, 2) == WDL(wins=0, draws=0, losses=3)  # every 2nd a "loss"
    assert await storage.places_against(GUILD, "conex", 1, 2) == WDL(wins=1, draws=1, losses=1)
    assert await storage.places_against(GUILD, "conex", 2, 1) == WDL(wins=1, draws=1, losses=1)
    assert await storage.places_against(GUILD, "conex", 1, 4) == WDL(wins=2, draws=0, losses=2)
    with pytest.raises(InvalidDataError):
        await storage.places_against(GUILD, "conex", 1, 1)


async def test_best_streak_is_the_longest_run_of_wins_against_people(storage: Storage) -> None:
    assert await storage.best_streak(GUILD, "constructo", 1) == 0
    for result in (win(1, 2), win(1, 2), win(2, 1), win(1, 2), win(1, 2), win(1, 3), draw(1, 2), win(1, 2)):
        seats = sorted({u for group in result["ranking"] for u in group})  # type: ignore[attr-defined]
        await finish(storage, seats, result)
    assert await storage.best_streak(GUILD, "constructo", 1) == 3  # W W L [W W W] D W
    assert await storage.best_streak(GUILD, "constructo", 2) == 1
    # games against the AI neither count nor break a run
    await finish(storage, [1, -1], {"ranking": [[-1], [1]], "rated": False, "ai": [-1]})
    await finish(storage, [1, 2], win(1, 2))
    await finish(storage, [1, 2], win(1, 2))
    assert await storage.best_streak(GUILD, "constructo", 1) == 3  # ... D W [AI loss] W W: a run of 3 again
    await finish(storage, [1, 2], win(1, 2))
    assert await storage.best_streak(GUILD, "constructo", 1) == 4
    assert await storage.best_streak(GUILD, "conex", 1) == 0


async def test_results_by_option_groups_by_the_stored_option_people_and_ai_apart(storage: Storage) -> None:
    await finish(storage, [1, 2], win(1, 2), options={"layout": "rombo"})
    await finish(storage, [1, 2], win(2, 1), options={"layout": "rombo"})
    await finish(storage, [2, 1], draw(1, 2), options={"layout": "flor"})
    await finish(storage, [1, -7], {"ranking": [[1], [-7]], "rated": False, "ai": [-7]}, options={"layout": "rombo"})
    await finish(storage, [1, 2], win(1, 2))  # stored without options
    await finish(storage, [3, 2], win(3, 2), options={"layout": "cinta"})  # not player 1's game
    found = await storage.results_by_option(GUILD, "constructo", 1, "layout")
    assert found == [
        OptionRecord("rombo", WDL(1, 0, 1), WDL(1, 0, 0)),
        OptionRecord(None, WDL(1, 0, 0), WDL()),
        OptionRecord("flor", WDL(0, 1, 0), WDL()),
    ]
    assert await storage.results_by_option(GUILD, "constructo", 1, "clock") == [
        OptionRecord(None, WDL(2, 1, 1), WDL(1, 0, 0))
    ]
    with pytest.raises(InvalidDataError):
        await storage.results_by_option(GUILD, "constructo", 1, "layout'; --")
