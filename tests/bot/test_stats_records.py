"""The ``/stats`` record lines (issue 25, ``bot/services/stats_records.py``) over a real storage: custom layouts
read as one line, games stored without the option get words of their own, the head-to-head line, in EN and ES."""

from __future__ import annotations

from itertools import count

from bot.games.constructo.kind import KIND
from bot.services.stats_records import record_lines
from bot.storage import Storage

GUILD = 5
_channels = count(700)


async def finish(storage: Storage, seats: list[int], winner: int, options: dict[str, str] | None) -> None:
    state = {"options": options} if options is not None else {"layout": "rombo"}  # a record older than options
    gid = await storage.create_game("constructo", GUILD, next(_channels), state, seats, status="active")
    loser = next(u for u in seats if u != winner)
    result = {"ranking": [[winner], [loser]], "rated": True}
    await storage.apply_action(gid, 0, state, player=seats[0], action="end", result=result)


async def test_record_lines_merge_custom_layouts_and_name_unrecorded_ones(storage: Storage) -> None:
    await finish(storage, [1, 2], 1, {"layout": "(0,0) (1,0) (2,0) (3,0) (4,0) (5,0) (6,0) (7,0) (7,1)"})
    await finish(storage, [1, 2], 2, {"layout": "(0,0) (1,0) (2,0) (3,0) (4,0) (5,0) (6,0) (6,1) (7,1)"})
    await finish(storage, [1, 2], 1, {"layout": "corona"})
    await finish(storage, [1, 2], 1, None)
    lines = await record_lines(storage, KIND, GUILD, 1, (2, "Bob"), "en-US")
    assert lines[0] == "  against Bob: 3W 1L 0D"
    assert "  best win streak against people: 2" in lines
    assert "    custom layouts: 1W 1L 0D · 0W 0L 0D" in lines
    assert "    corona: 1W 0L 0D · 0W 0L 0D" in lines
    assert "    older games (not recorded): 1W 0L 0D · 0W 0L 0D" in lines
    spanish = await record_lines(storage, KIND, GUILD, 1, None, "es-ES")
    assert not any("contra Bob" in line for line in spanish)
    assert "    tableros propios: 1V 1D 0E · 0V 0D 0E" in spanish
    assert "    partidas antiguas (sin registrar): 1V 0D 0E · 0V 0D 0E" in spanish
