"""``BoardRecovery._posted_unrecorded``: a board posted but never recorded (a crash between the post and the
record) is found in the channel, whatever headline its first post had, so it is recorded, never posted twice."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.services.recovery import BoardRecovery

BOT = 900


def message(mid: int, content: str, filename: str | None, author: int = BOT) -> Any:
    attachments = [SimpleNamespace(filename=filename)] if filename else []
    return SimpleNamespace(
        id=mid, content=content, attachments=attachments, components=[], author=SimpleNamespace(id=author)
    )


def recovery(history: list[Any]) -> BoardRecovery:
    class Channel:
        async def history(self, limit: int) -> Any:  # newest first, as discord.py gives it
            for m in reversed(history):
                yield m

    delivery = SimpleNamespace(channel=lambda record: Channel())
    layer = SimpleNamespace(bot_user_id=BOT)
    return BoardRecovery(SimpleNamespace(layer=layer, delivery=delivery))  # type: ignore[arg-type]


def record(version: int = 0) -> Any:
    return SimpleNamespace(id=12, version=version, messages={}, state={}, channel_id=5)


async def test_a_board_without_buttons_is_found_by_its_pictures_name_whatever_its_headline() -> None:
    first = message(101, "Constructo match against the AI (easy) started.\nThe AI is thinking…", "constructo-12-0.png")
    found = await recovery([first])._posted_unrecorded(record(), "The current board:\n…", {"constructo-12-0.png"})
    assert found == 101


async def test_another_versions_board_or_someone_elses_message_is_not_taken() -> None:
    older = message(101, "an older board", "constructo-12-3.png")
    theirs = message(102, "a copy", "constructo-12-4.png", author=7)
    found = await recovery([older, theirs])._posted_unrecorded(record(4), "The current board:", {"constructo-12-4.png"})
    assert found is None
