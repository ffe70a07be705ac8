"""The fallback chain's classification and form steps (``bot/services/refusals.py``), without Discord."""

from __future__ import annotations

import io
from types import SimpleNamespace
from typing import Any

import discord

from bot.services.refusals import Outgoing, place_refused, too_large


def error(status: int, code: int) -> discord.HTTPException:
    response: Any = SimpleNamespace(status=status, reason="refused")
    cls = discord.Forbidden if status == 403 else discord.NotFound if status == 404 else discord.HTTPException
    return cls(response, {"code": code, "message": "refused"})


async def run_now(fn: Any, *args: Any, **kwargs: Any) -> Any:
    return fn(*args, **kwargs)


def picture() -> discord.File:
    """A real board (800 px wide), encoded as the bot does."""
    from engine.constructo import Match
    from render import to_png
    from render.constructo import render_board

    match = Match.new("rombo")
    match.play(match.parse_action("L5", 0))
    return discord.File(io.BytesIO(to_png(render_board(match, names=["Alice", "Bob"]))), filename="board.png")


def test_refusals_are_classified_by_discords_codes() -> None:
    assert too_large(error(413, 40005)) and too_large(error(400, 40005)) and not too_large(error(403, 50013))
    assert place_refused(error(403, 50013)) == "perms" and place_refused(error(403, 50001)) == "access"
    assert place_refused(error(400, 50083)) == "archived" and place_refused(error(400, 160005)) == "locked"
    assert place_refused(error(404, 10003)) == "gone" and place_refused(error(403, 0)) == "perms"
    assert place_refused(error(500, 0)) is None and place_refused(error(404, 10008)) is None


async def test_too_large_goes_smaller_twice_then_as_text() -> None:
    out = Outgoing("Alice played L5.", [picture()], twin="Tiles: 5: LA", locale="en-US")
    big = len(out.files[0].fp.read())
    assert await out.degrade(error(413, 40005), big - 1, run_now)
    first = len(out.files[0].fp.read())
    assert first <= big - 1 and "smaller picture" in out.text
    assert await out.degrade(error(413, 40005), big - 1, run_now)
    assert len(out.files[0].fp.read()) <= first * 2 // 3
    assert await out.degrade(error(413, 40005), None, run_now)
    assert out.files == [] and "board as text" in out.text and "Tiles: 5: LA" in out.text
    assert not await out.degrade(error(413, 40005), None, run_now), "nothing left to change"


async def test_files_refused_only_where_attach_files_is_lacking() -> None:
    out = Outgoing("board", [picture()], twin="text twin")
    assert not await out.degrade(error(403, 50013), None, run_now), "another route may take the files"
    assert out.files
    assert await out.degrade(error(403, 50013), None, run_now, files_refused=True)
    assert not out.files and "I may not attach images" in out.text
    bare = Outgoing("lobby", [], twin=None)
    assert not await bare.degrade(error(413, 40005), None, run_now)


def test_notes_head_the_message_once_and_stay_within_2000_characters() -> None:
    out = Outgoing("x\n" * 1500, [])
    out.head("note")
    out.head("note")
    assert out.text.startswith("note\nx") and out.text.count("note") == 1 and len(out.text) <= 2000
