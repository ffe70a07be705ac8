"""The publisher's rule for boards posted without a new picture (``Publisher.publish``, ``pictures=False``: a commit
the kind says changed nothing the picture shows), for any kind: honoured where the boards it replaces stay in the
channel with their pictures; ignored in a game that deletes them (a thread of its own keeps one board), so the table
is never out of sight. The CONEX case through the real bot: ``tests/e2e/test_conex_thread_pictures.py``."""

from __future__ import annotations

from dataclasses import replace

from bot.app import TableBot
from bot.services import footprint
from bot.services.boards import ShownBoards
from bot.storage import Storage
from tests.bot.conftest import Driver
from tests.bot.fakediscord import FakeDiscord

ALICE, BOB = 1, 2


async def test_a_board_goes_without_its_picture_only_where_the_replaced_board_stays(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    token = await driver.command("constructo challenge", ALICE, opponent=BOB)
    await driver.click(fake.originals[token], "cx:acc:1", BOB)
    publisher = bot.games.publisher
    record = await storage.get_game(1)
    assert record is not None and not publisher.footprint.deletes_replaced(record)

    publisher._shown = ShownBoards(8)  # as in a process that did not post this version: posted again
    kept = await publisher.publish(bot.games.snapshot(record), headline="no change", pictures=False)
    assert fake.files[kept.id] == [], "in a channel the board above keeps the picture: no second identical image"

    extra = dict(record.state["extra"], **{footprint.EXTRA_KEY: {"parent": record.channel_id + 1}})
    threaded = replace(record, state=dict(record.state, extra=extra))
    assert publisher.footprint.deletes_replaced(threaded)
    publisher._shown = ShownBoards(8)
    only = await publisher.publish(bot.games.snapshot(threaded), headline="no change", pictures=False)
    assert [name for name, _ in fake.files[only.id]], "the one board of a thread game always shows the table"
    assert all(data.startswith(b"\x89PNG") for _, data in fake.files[only.id])
