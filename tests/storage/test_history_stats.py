"""History (issue 16), per-player stats with places and the vs-AI record, and the displayed rating scale
(issue 14), on both backends."""

from __future__ import annotations

from itertools import count

import pytest
from openskill.models import PlackettLuce

from bot.storage import WDL, InvalidDataError, Storage, display_rating

GUILD = 77
_channels = count(5000)


async def finish(storage: Storage, kind: str, seats: list[int], result: dict[str, object], guild: int = GUILD) -> int:
    gid = await storage.create_game(kind, guild, next(_channels), {"n": 0}, seats, status="active")
    await storage.apply_action(gid, 0, {"n": 1}, player=seats[0], action="end", result=result)
    return gid


def test_display_rating_is_openskills_own_mu_scaled_to_1500_for_a_newcomer() -> None:
    """Lichess conventions: a newcomer reads 1500 and the shown number is the rating, not a conservative estimate:
    it does not rise with the shrinking uncertainty (sigma), so two equal players exchange equal amounts."""
    model = PlackettLuce()
    fresh = model.rating()
    assert display_rating(fresh.mu, fresh.sigma) == 1500 == round(fresh.ordinal(z=0, alpha=24, target=900))
    assert display_rating(25.0, 1.5) == display_rating(25.0, 8.3) == 1500
    assert display_rating(26.0, 3.0) == 1524


async def test_rating_rows_and_changes_expose_the_display_scale(storage: Storage) -> None:
    gid = await finish(storage, "constructo", [1, 2], {"ranking": [[1], [2]], "rated": True})
    winner = await storage.rating_of(GUILD, "constructo", 1)
    loser = await storage.rating_of(GUILD, "constructo", 2)
    assert winner is not None and loser is not None and winner.display > 1500 > loser.display
    changes = {c.user_id: c for c in await storage.rating_changes(gid)}
    assert changes[1].display_before == changes[2].display_before == 1500
    assert changes[1].display_after == winner.display and changes[1].display_delta == winner.display - 1500
    # two newcomers: the winner gains what the loser loses (+63 / -63, not +83 / -44)
    assert changes[1].display_delta == -changes[2].display_delta == 63
    # one rated game: provisional, shown with "?"
    assert changes[1].games == 1 and changes[1].shown_after == f"{winner.display}?" and winner.shown.endswith("?")


async def test_history_lists_a_players_finished_games_newest_first_paged_by_id(storage: Storage) -> None:
    g1 = await finish(storage, "constructo", [1, 2], {"ranking": [[1], [2]], "reason": "M2", "scores": {1: 5, 2: 3}})
    g2 = await finish(
        storage,
        "conex",
        [3, 1, 4],
        {
            "ranking": [[3, 1], [4]],
            "results": {3: "win", 1: "win", 4: "loss"},
            "reason": "E1",
            "rated": True,
        },
    )
    g3 = await finish(storage, "constructo", [1, -1], {"ranking": [[-1], [1]], "rated": False, "reason": "M3"})
    aborted = await storage.create_game("conex", GUILD, next(_channels), {}, [1, 2], status="active")
    await storage.abort_game(aborted, 0, by_user=1)
    elsewhere = await finish(storage, "constructo", [1, 2], {"ranking": [[2], [1]]}, guild=GUILD + 1)
    await finish(storage, "constructo", [5, 6], {"ranking": [[5], [6]]})  # alice (1) not in it

    rows = await storage.finished_games(GUILD, 1)
    assert [r.game_id for r in rows] == [g3, g2, g1]
    vs_ai, conex, first = rows
    assert (vs_ai.kind, vs_ai.rated, vs_ai.vs_ai, vs_ai.outcome, vs_ai.place, vs_ai.reason) == (
        "constructo",
        False,
        True,
        "loss",
        2,
        "M3",
    )
    assert vs_ai.rating_delta is None and vs_ai.players == [1, -1]
    assert (conex.outcome, conex.place, conex.results[4], conex.ranking) == ("win", 1, "loss", ((3, 1), (4,)))
    assert conex.players == [3, 1, 4] and conex.rated and not conex.vs_ai and conex.rating_delta is not None
    assert (first.scores, first.reason, first.outcome, first.place) == ({1: 5, 2: 3}, "M2", "win", 1)
    assert first.rating_delta is not None and first.rating_delta > 0 and first.rating_after == 1500 + first.rating_delta
    assert first.rating_shown == f"{first.rating_after}?"  # one rated game: provisional
    assert first.finished_at >= first.finished_at.replace(year=2000)
    # Paging, kind filter, other guild.
    assert [r.game_id for r in await storage.finished_games(GUILD, 1, limit=2)] == [g3, g2]
    assert [r.game_id for r in await storage.finished_games(GUILD, 1, before_id=g2)] == [g1]
    assert [r.game_id for r in await storage.finished_games(GUILD, 1, kind="conex")] == [g2]
    # The page above: the oldest games newer than after_id, still newest first.
    assert [r.game_id for r in await storage.finished_games(GUILD, 1, after_id=g1, limit=1)] == [g2]
    assert [r.game_id for r in await storage.finished_games(GUILD, 1, after_id=g1)] == [g3, g2]
    assert await storage.finished_games(GUILD, 1, after_id=g3) == []
    assert [r.game_id for r in await storage.finished_games(GUILD + 1, 1)] == [elsewhere]
    assert await storage.finished_games(GUILD, 999) == []
    for bad in ({"limit": 0}, {"limit": 101}, {"kind": "No Such"}, {"before_id": "x"}, {"after_id": "x"}):
        with pytest.raises(InvalidDataError):
            await storage.finished_games(GUILD, 1, **bad)  # type: ignore[arg-type]


async def test_player_stats_count_rated_wdl_places_and_the_vs_ai_record_apart(storage: Storage) -> None:
    e3 = {"ranking": [[1, 2], [3], [4]], "results": {1: "win", 2: "win", 3: "loss", 4: "loss"}}
    await finish(storage, "conex", [1, 2, 3, 4], e3)  # tie for first: 1st for 1 and 2, 3 is 3rd
    await finish(storage, "conex", [3, 1, 4], {"ranking": [[3], [1], [4]]})  # 1 is 2nd
    await finish(storage, "conex", [1, -1, -2], {"ranking": [[-1], [1], [-2]], "rated": False})  # vs AI: loss
    await finish(storage, "conex", [1, -1], {"ranking": [[1], [-1]], "rated": False})  # vs AI: win
    await finish(storage, "conex", [1, 9], {"ranking": [[9, 1]], "rated": False})  # casual draw, humans only
    await finish(storage, "constructo", [1, 42], {"ranking": [[1], [42]], "rated": False, "ai": [42]})  # bot's id
    stats = await storage.player_stats(GUILD, "conex", 1)
    assert stats.rated == WDL(wins=1, draws=0, losses=1) and stats.rated.games == 2
    assert stats.places == {1: 1, 2: 1}
    assert stats.vs_ai == WDL(wins=1, draws=0, losses=1)
    assert stats.casual == WDL(draws=1)
    assert stats.rating is not None and stats.rating.games == 2 and (stats.rating.wins, stats.rating.losses) == (1, 1)
    three = await storage.player_stats(GUILD, "conex", 3)
    assert three.places == {1: 1, 3: 1}
    ai_game = await storage.player_stats(GUILD, "constructo", 1)
    assert ai_game.vs_ai == WDL(wins=1) and ai_game.rating is None and ai_game.places == {}
    assert (await storage.player_stats(GUILD, "constructo", 42)).vs_ai == WDL()  # the AI seat keeps no record
    nobody = await storage.player_stats(GUILD, "conex", 12345)
    assert (nobody.rating, nobody.rated, nobody.places, nobody.vs_ai) == (None, WDL(), {}, WDL())
