"""Ratings: openskill Plackett-Luce values, win/loss/draw tallies, leaderboard order and ranks."""

from __future__ import annotations

import asyncio
import sqlite3
from itertools import count, pairwise
from pathlib import Path

import pytest
from openskill.models import PlackettLuce, PlackettLuceRating

from bot.storage import GameResult, InvalidDataError, Storage
from bot.storage import players as storage_db

GUILD = 7
_channels = count(1000)

# (kind, ranking best first; tied players share a group). CONEX results carry the game's own W/D/L
# (rule E3: every tied leader wins), as its game layer hands them over; Constructo's rely on the
# generic default (lone first wins, shared first draws), which is what Constructo counts too.
RESULTS: list[tuple[str, list[list[int]]]] = [
    ("constructo", [[1], [2]]),
    ("constructo", [[3], [1]]),
    ("constructo", [[2, 3]]),  # equal totals: a draw
    ("conex", [[1], [2], [3], [4]]),
    ("conex", [[4, 2], [1]]),  # shared first place: two wins (E3, given in `results`)
    ("conex", [[3], [1, 4]]),  # tie for second
    ("conex", [[5], [4], [2]]),
    ("constructo", [[1], [3]]),
]


def e3_results(ranking: list[list[int]]) -> dict[int, str]:
    """CONEX E3 as its game layer reports it: everyone in the first group wins, everyone else loses."""
    return {u: ("win" if i == 0 else "loss") for i, g in enumerate(ranking) for u in g}


async def play(
    storage: Storage, kind: str, ranking: list[list[int]], *, rated: bool = True, guild: int = GUILD, **extra: object
) -> int:
    players = sorted(u for g in ranking for u in g)
    gid = await storage.create_game(kind, guild, next(_channels), {"n": 0}, players, status="active")
    result: dict[str, object] = {"ranking": ranking, "rated": rated, **extra}
    if kind == "conex" and "results" not in extra:
        result["results"] = e3_results(ranking)
    await storage.apply_action(gid, 0, {"n": 1}, player=players[0], action="end", result=result)
    return gid


def expected_ratings() -> dict[str, dict[int, tuple[float, float]]]:
    """The same games rated directly with openskill's API."""
    model = PlackettLuce()
    table: dict[str, dict[int, PlackettLuceRating]] = {"constructo": {}, "conex": {}}
    for kind, ranking in RESULTS:
        users = [u for g in ranking for u in g]
        ranks: list[float] = [i for i, g in enumerate(ranking) for _ in g]
        teams = [[table[kind].get(u) or model.rating()] for u in users]
        for u, team in zip(users, model.rate(teams, ranks=ranks), strict=True):
            table[kind][u] = team[0]
    return {k: {u: (r.mu, r.sigma) for u, r in v.items()} for k, v in table.items()}


async def test_ratings_match_openskill_and_leaderboard_is_sorted_established_first_then_by_rating(
    storage: Storage,
) -> None:
    for kind, ranking in RESULTS:
        await play(storage, kind, ranking)
    expected = expected_ratings()
    for kind in ("constructo", "conex"):
        board = await storage.leaderboard(GUILD, kind, limit=100)
        assert {r.user_id for r in board} == set(expected[kind])
        for row in board:
            mu, sigma = expected[kind][row.user_id]
            assert row.mu == pytest.approx(mu, rel=1e-12) and row.sigma == pytest.approx(sigma, rel=1e-12)
            assert row.ordinal == pytest.approx(mu - 3 * sigma, rel=1e-12)
            assert row.games == row.wins + row.losses + row.draws
        games = {r.user_id: r.games for r in board}
        order = sorted(expected[kind], key=lambda u: (games[u] < 5, -expected[kind][u][0], -games[u], u))
        assert [r.user_id for r in board] == order
        assert [r.rank for r in board] == list(range(1, len(board) + 1))
        for row in board:
            assert await storage.rating_of(GUILD, kind, row.user_id) == row


async def test_win_loss_draw_tallies_come_from_the_results_else_the_generic_default(storage: Storage) -> None:
    for kind, ranking in RESULTS:
        await play(storage, kind, ranking)
    tallies = {
        (kind, r.user_id): (r.games, r.wins, r.losses, r.draws)
        for kind in ("constructo", "conex")
        for r in await storage.leaderboard(GUILD, kind, limit=100)
    }
    # Constructo (generic default, no `results`): sole first = win, second = loss, shared first = draw.
    assert tallies[("constructo", 1)] == (3, 2, 1, 0)
    assert tallies[("constructo", 2)] == (2, 0, 1, 1)
    assert tallies[("constructo", 3)] == (3, 1, 1, 1)
    # CONEX (`results` given, E3): everybody in the first group wins (ties included), everybody else loses.
    assert tallies[("conex", 1)] == (3, 1, 2, 0)
    assert tallies[("conex", 2)] == (3, 1, 2, 0)
    assert tallies[("conex", 3)] == (2, 1, 1, 0)
    assert tallies[("conex", 4)] == (4, 1, 3, 0)
    assert tallies[("conex", 5)] == (1, 1, 0, 0)


async def test_conex_tie_gives_equal_ratings_to_tied_newcomers(storage: Storage) -> None:
    await play(storage, "conex", [[10], [11, 12], [13]])
    r11, r12 = [await storage.rating_of(GUILD, "conex", u) for u in (11, 12)]
    assert r11 is not None and r12 is not None and r11.mu == r12.mu and r11.sigma == r12.sigma
    assert (r11.rank, r12.rank) == (2, 3)  # equal ordinals: lower user id first
    top = await storage.rating_of(GUILD, "conex", 10)
    assert top is not None and top.rank == 1 and top.mu > r11.mu


async def test_rating_changes_record_before_and_after(storage: Storage) -> None:
    gid = await play(storage, "constructo", [[1], [2]])
    changes = await storage.rating_changes(gid)
    assert [(c.user_id, c.place, c.outcome) for c in changes] == [(1, 1, "win"), (2, 2, "loss")]
    assert changes[0].delta > 0 > changes[1].delta
    row = await storage.rating_of(GUILD, "constructo", 1)
    assert row is not None and (row.mu, row.sigma) == (changes[0].mu_after, changes[0].sigma_after)
    game = await storage.get_game(gid)
    assert game is not None and game.status == "finished"
    assert game.result == GameResult(((1,), (2,)), rated=True)


async def test_unrated_results_and_other_guilds_leave_ratings_alone(storage: Storage) -> None:
    gid = await play(storage, "constructo", [[1], [2]], rated=False)
    assert await storage.leaderboard(GUILD, "constructo") == []
    assert await storage.rating_changes(gid) == []
    game = await storage.get_game(gid)
    assert game is not None and game.status == "finished" and game.result is not None and not game.result.rated
    await play(storage, "constructo", [[1], [2]], guild=GUILD + 1)
    assert await storage.leaderboard(GUILD, "constructo") == []
    assert await storage.rating_of(GUILD, "constructo", 1) is None
    assert await storage.rated_players(GUILD + 1, "constructo") == 2
    assert await storage.leaderboard(GUILD + 1, "conex") == []


async def test_without_results_a_shared_first_place_is_a_draw_for_any_kind(storage: Storage) -> None:
    """Storage has no per-game branch: the same ranking gives the same W/D/L whatever the kind."""
    for kind in ("conex", "constructo", "somegame"):
        await play(storage, kind, [[1, 2], [3]], results=None)
        tallies = {r.user_id: (r.wins, r.draws, r.losses) for r in await storage.leaderboard(GUILD, kind)}
        assert tallies == {1: (0, 1, 0), 2: (0, 1, 0), 3: (0, 0, 1)}


async def test_the_results_decide_wdl_and_the_ranking_decides_ratings(storage: Storage) -> None:
    # Same ranking twice, different `results`: identical ratings, different tallies.
    await play(storage, "conex", [[1], [2]], guild=1, results={1: "win", 2: "loss"})
    await play(storage, "conex", [[1], [2]], guild=2, results={"1": "draw", "2": "draw"})  # JSON-style keys
    one, two = await storage.rating_of(1, "conex", 1), await storage.rating_of(2, "conex", 1)
    assert one is not None and two is not None and (one.mu, one.sigma) == (two.mu, two.sigma)
    assert (one.wins, one.draws, two.wins, two.draws) == (1, 0, 0, 1)


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"results": {1: "win"}}, "result.results"),  # 2 missing
        ({"results": {1: "win", 2: "tie"}}, "result.results"),
        ({"results": {1: "win", 2: "loss", 9: "loss"}}, "result.results"),
        ({"reason": "not a code"}, "result.reason"),
        ({"scores": {1: 1.5}}, "result.scores"),
        ({"scores": {9: 1}}, "result.scores"),
        ({"ai": [9]}, "result.ai"),
        ({"ai": [2]}, "result.rated"),  # a game with an AI seat is never rated
        ({"winner": 1}, "result"),
    ],
)
async def test_malformed_results_are_refused_and_change_nothing(
    storage: Storage, extra: dict[str, object], field: str
) -> None:
    gid = await storage.create_game("conex", GUILD, 1, {"n": 0}, [1, 2], status="active")
    with pytest.raises(InvalidDataError) as info:
        await storage.apply_action(gid, 0, {"n": 1}, player=1, action="end", result={"ranking": [[1], [2]], **extra})
    assert info.value.details["field"] == field
    game = await storage.get_game(gid)
    assert game is not None and game.status == "active" and game.version == 0
    assert await storage.leaderboard(GUILD, "conex") == []


async def test_leaderboard_pages_and_ranks(storage: Storage) -> None:
    # Ten players each beat the next one in turn: distinct ratings.
    for u in range(1, 10):
        await play(storage, "conex", [[u], [u + 1]])
    full = await storage.leaderboard(GUILD, "conex", limit=100)
    page = await storage.leaderboard(GUILD, "conex", limit=3, offset=4)
    assert page == full[4:7] and [r.rank for r in page] == [5, 6, 7]
    assert await storage.rated_players(GUILD, "conex") == 10
    for bad in ({"limit": 0}, {"limit": 101}, {"offset": -1}):
        with pytest.raises(InvalidDataError):
            await storage.leaderboard(GUILD, "conex", **bad)


def test_leaderboard_and_rank_queries_read_only_the_guilds_rows(tmp_path: Path) -> None:
    """Needs no full scan and no sort: both queries are range searches of the index ``ratings_order`` (guild, kind,
    established, rating, games, who first, user id: migration 0005)."""
    path = tmp_path / "plan.sqlite3"

    async def create() -> None:
        await (await Storage.open(path)).close()

    asyncio.run(create())
    with sqlite3.connect(path) as conn:
        top = conn.execute(
            f"EXPLAIN QUERY PLAN SELECT {storage_db._RATING_COLUMNS} FROM ratings r WHERE r.guild_id = ? AND"
            f" r.kind = ? ORDER BY {storage_db.ORDER} LIMIT ? OFFSET ?",
            (1, "conex", 10, 0),
        ).fetchall()
        rank = conn.execute(
            f"EXPLAIN QUERY PLAN SELECT {storage_db._RATING_COLUMNS}, {storage_db._RANK} FROM ratings r"
            " WHERE r.guild_id = ? AND r.kind = ? AND r.user_id = ?",
            (1, "conex", 5),
        ).fetchall()
    top_plan, rank_plan = " | ".join(r[3] for r in top), " | ".join(r[3] for r in rank)
    assert "ratings_order (guild_id=? AND kind=?)" in top_plan and "TEMP B-TREE" not in top_plan, top_plan
    assert "SCAN" not in top_plan
    assert "ratings_order (guild_id=? AND kind=?" in rank_plan and "SCAN" not in rank_plan, rank_plan


async def test_games_finishing_at_once_in_two_processes_lose_no_rating_update(database_url: str) -> None:
    """Two Storage objects (two shard processes) finish games with the same newcomers at the same moment:
    the ratings rows are locked, so the second update starts from the first one's result."""
    a, b = await Storage.open(database_url), await Storage.open(database_url)
    try:
        games = []
        for s, channel in ((a, 1), (b, 2), (a, 3), (b, 4)):
            games.append((s, await s.create_game("conex", GUILD, channel, {}, [1, 2], status="active")))
        await asyncio.gather(
            *(
                s.apply_action(gid, 0, {}, player=1, action="end", result={"ranking": [[1], [2]], "results": None})
                for s, gid in games
            )
        )
        row = await a.rating_of(GUILD, "conex", 1)
        assert row is not None and row.games == 4 and row.wins == 4
        chain = sorted(
            [c for _s, gid in games for c in await a.rating_changes(gid) if c.user_id == 1], key=lambda c: c.mu_before
        )
        for before, after in pairwise(chain):
            assert after.mu_before == pytest.approx(before.mu_after), "an update was computed from a stale rating"
        assert chain[-1].mu_after == pytest.approx(row.mu)
    finally:
        await a.close()
        await b.close()


async def test_leaderboard_tie_break_established_first_then_more_games_then_who_got_there_first(
    storage: Storage,
) -> None:
    """The documented order (README, "Ratings players trust"): players with fewer than 5 rated games (provisional,
    ``?``) come after established ones whatever their rating; equal ratings: more rated games first, then the one
    whose rating was reached first (older last rated game), then the lower user id. Never arbitrary."""
    # 20 and 21 play five drawn games: equal ratings, established; 30 beats 31 once: higher, but provisional.
    for _ in range(5):
        await play(storage, "constructo", [[20, 21]])
    await play(storage, "constructo", [[30], [31]])
    # 40 and 41 tie a game after 20/21 reached theirs: same rating as each other, provisional.
    await play(storage, "constructo", [[41, 40]])
    board = await storage.leaderboard(GUILD, "constructo", limit=100)
    by_user = {r.user_id: r for r in board}
    assert by_user[30].display > by_user[20].display == by_user[21].display
    assert [r.user_id for r in board] == [20, 21, 30, 40, 41, 31]
    assert [r.rank for r in board] == [1, 2, 3, 4, 5, 6]
    assert not by_user[20].provisional and by_user[20].shown == str(by_user[20].display)
    assert by_user[30].provisional and by_user[30].shown == f"{by_user[30].display}?"
    for row in board:  # the single-row rank agrees with the page's order
        assert await storage.rating_of(GUILD, "constructo", row.user_id) == row


async def test_a_rating_stops_being_provisional_at_five_rated_games(storage: Storage) -> None:
    for n in range(1, 6):
        gid = await play(storage, "constructo", [[50], [51]] if n % 2 else [[51], [50]])
        change = next(c for c in await storage.rating_changes(gid) if c.user_id == 50)
        assert change.games == n and change.shown_after.endswith("?") == (n < 5)
