"""Reading a game without its state (``state=False``): what a command's channel lookup and a board's recording need,
without decoding the state's JSON; everything else as a full read, on both backends."""

from __future__ import annotations

from dataclasses import replace

from bot.storage import Storage

GUILD, CHANNEL = 100, 200


async def test_a_head_is_the_record_without_its_state(storage: Storage) -> None:
    gid = await storage.create_game("constructo", GUILD, CHANNEL, {"moves": ["a"]}, [1, 2], status="active")
    await storage.set_messages(gid, {"board": 55, "board.version": 0})
    full = await storage.get_game(gid)
    head = await storage.get_game(gid, state=False)
    assert full is not None and head is not None
    assert full.state == {"moves": ["a"]} and head.state == {}
    assert head == replace(full, state={})
    in_channel = await storage.active_game_in_channel(CHANNEL, state=False)
    assert in_channel == head
    assert await storage.get_game(gid + 1, state=False) is None
