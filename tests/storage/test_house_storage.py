"""Storage of ``/settings reset_ratings`` (``Storage.reset_ratings``) and of the players' own languages
(``Storage.language_overrides``), on both backends."""

from __future__ import annotations

from bot.storage import Storage

from .test_ratings import play


async def test_reset_ratings_forgets_one_guild_and_game_and_counts_the_players(storage: Storage) -> None:
    await play(storage, "constructo", [[1], [2]], guild=7)
    await play(storage, "constructo", [[3], [1]], guild=7)
    await play(storage, "conex", [[1], [2], [3]], guild=7)
    await play(storage, "constructo", [[1], [2]], guild=8)
    assert await storage.reset_ratings(7, "constructo") == 3
    assert await storage.leaderboard(7, "constructo") == []
    assert await storage.rated_players(7, "conex") == 3, "another game keeps its ratings"
    assert await storage.rated_players(8, "constructo") == 2, "another guild keeps its ratings"
    stats = await storage.player_stats(7, "constructo", 1)
    assert stats.rating is None and (stats.rated.wins, stats.rated.losses) == (1, 1), "results stay"
    assert await storage.reset_ratings(7, "constructo") == 0
    await play(storage, "constructo", [[2], [1]], guild=7)  # the next rated game starts from the default
    assert [r.shown for r in await storage.leaderboard(7, "constructo")] == ["1563?", "1437?"]


async def test_language_overrides_lists_only_chosen_languages(storage: Storage) -> None:
    assert await storage.language_overrides() == {}
    await storage.set_prefs(5, language="es")
    await storage.set_prefs(6, alerts="dm")
    await storage.set_prefs(7, language="en")
    await storage.set_prefs(7, language=None)
    assert await storage.language_overrides() == {5: "es"}
