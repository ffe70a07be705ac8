"""The outbox (issue 20): effects owed by a commit are stored with it and done whatever fails in between.

Handler-level tests with the real bot, storage, engine and render and Discord recorded at the HTTP seams (the
end-to-end versions against the devserver are in ``tests/e2e/test_outbox_e2e.py``):

- a commit whose answer from the database is lost is told "saved" and shows its board (never "nothing changed");
- a crash right after a game's final move: the next process posts the result card by itself;
- a challenge whose message was lost is posted by the outbox;
- the database away while the workers run: they pause and resume on their own, nothing doubled;
- interaction tokens are used only within 15 minutes of the interaction's creation, and forgotten after.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot import first_response
from bot.app import TableBot
from bot.core.outbox import Outbox
from bot.services import lobby
from bot.services.publish import BOARD_VERSION_KEY
from bot.storage import Owed, Storage
from tests.bot.conftest import Driver, all_custom_ids, make_bot, start, until
from tests.bot.fakediscord import CHANNEL_ID, EPHEMERAL, FakeDiscord

ALICE, BOB = 1, 2
CHANNEL_POSTS = f"/channels/{CHANNEL_ID}/messages"


async def test_a_commit_whose_answer_is_lost_is_told_saved_and_shows_its_board(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await start(driver, fake, storage)
    real = storage.apply_action

    async def lost_ack(*args: Any, **kwargs: Any) -> int:
        await real(*args, **kwargs)  # committed...
        raise ConnectionResetError("connection lost before the database answered")  # ...but the answer is lost

    monkeypatch.setattr(storage, "apply_action", lost_ack)
    token = await driver.command("constructo place", ALICE, tile=5, size="large")
    monkeypatch.setattr(storage, "apply_action", real)
    log = await storage.actions(game)
    assert [a.action for a in log].count("L5") == 1, "applied once"
    record = await storage.get_game(game)
    assert record is not None and record.messages[BOARD_VERSION_KEY] == record.version == log[-1].seq
    text = fake.visible_text(token)
    assert "nothing was changed" not in text.lower() and "to move" in text, text
    assert await storage.effects_of(game) == [], "the board it owed was posted and marked done"


async def test_a_commit_that_did_not_happen_is_refused_and_changes_nothing(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await start(driver, fake, storage)
    before = await storage.get_game(game)
    assert before is not None

    async def refused(*args: Any, **kwargs: Any) -> int:
        raise ConnectionResetError("connection lost before the commit")

    monkeypatch.setattr(storage, "apply_action", refused)
    token = await driver.command("constructo place", ALICE, tile=5, size="large")
    after = await storage.get_game(game)
    assert after is not None and after.version == before.version and after.messages == before.messages
    (call,) = fake.callbacks(token)
    assert call.payload["data"]["flags"] & EPHEMERAL  # type: ignore[index]
    assert "saved" not in fake.visible_text(token).lower()


async def test_a_commit_the_database_cannot_confirm_says_so_and_its_board_follows(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.core import changes

    monkeypatch.setattr(changes, "VERIFY_PAUSES_S", (0.01, 0.01))
    bot.games.publisher.grace_s = 0.05
    game = await start(driver, fake, storage)
    real_apply, real_actions = storage.apply_action, storage.actions
    away = True

    async def lost_ack(*args: Any, **kwargs: Any) -> int:
        await real_apply(*args, **kwargs)
        raise ConnectionResetError("connection lost")

    async def actions(*args: Any, **kwargs: Any) -> Any:
        if away:
            raise ConnectionRefusedError("the database is away")
        return await real_actions(*args, **kwargs)

    monkeypatch.setattr(storage, "apply_action", lost_ack)
    monkeypatch.setattr(storage, "actions", actions)
    token = await driver.command("constructo place", ALICE, tile=5, size="large")
    assert "cannot tell yet whether it was" in fake.visible_text(token)
    away = False
    monkeypatch.setattr(storage, "apply_action", real_apply)
    bot.games.outbox.start()  # what READY starts: the workers find the board the commit owed

    async def shown() -> bool:
        record = await storage.get_game(game)
        return record is not None and record.messages.get(BOARD_VERSION_KEY) == record.version

    await until(shown, "the board of the saved move")
    await driver.settle()
    record = await storage.get_game(game)
    assert record is not None and "L5" in fake.messages[record.messages["board"]]["content"]
    assert await storage.effects_of(game) == []


async def test_a_crash_right_after_the_final_move_still_posts_the_result_card(
    bot: TableBot,
    driver: Driver,
    fake: FakeDiscord,
    storage: Storage,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = await start(driver, fake, storage)
    bot.games.publisher.grace_s = 0.0

    async def dies(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("killed")  # the process dies between the commit and the post

    monkeypatch.setattr(bot.games, "after_commit", dies)
    ask = await driver.command("constructo resign", BOB)
    await driver.click(fake.originals[ask], f"cx:rsy:{game}", BOB)
    record = await storage.get_game(game)
    assert record is not None and record.status == "finished"
    assert record.messages.get(BOARD_VERSION_KEY) != record.version, "no result card yet"
    assert [e.kind for e in await storage.effects_of(game)] == ["board"]
    await bot.close()
    second = await make_bot(fake, storage, tmp_path)  # a new process: only the outbox remembers the card
    try:
        posts = len([c for c in fake.calls if c.method == "POST" and c.path == CHANNEL_POSTS])
        second.games.outbox.start()

        async def carded() -> bool:
            got = await storage.get_game(game)
            return got is not None and got.messages.get(BOARD_VERSION_KEY) == got.version

        await until(carded, "the result card")
        await second.games.outbox.idle()
        record = await storage.get_game(game)
        assert record is not None
        card = fake.messages[record.messages["board"]]
        assert "wins" in card["content"] and f"rc:rp:{game}" in all_custom_ids(card)
        assert len([c for c in fake.calls if c.method == "POST" and c.path == CHANNEL_POSTS]) == posts + 1
        assert await storage.effects_of(game) == []
    finally:
        await second.close()


async def test_a_challenge_whose_message_was_lost_is_posted_by_the_outbox(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lobby, "LOBBY_GRACE_S", 0.0)
    real = bot.games.publisher.delivery.send

    async def lost(*args: Any, **kwargs: Any) -> Any:
        raise ConnectionResetError("the post never reached Discord")

    monkeypatch.setattr(bot.games.publisher.delivery, "send", lost)
    await driver.command("constructo challenge", ALICE, opponent=BOB)
    monkeypatch.setattr(bot.games.publisher.delivery, "send", real)
    record = await storage.active_game_in_channel(CHANNEL_ID)
    assert record is not None and record.status == "lobby" and lobby.LOBBY_KEY not in record.messages
    bot.games.outbox.start()

    async def posted() -> bool:
        got = await storage.get_game(record.id)
        return got is not None and lobby.LOBBY_KEY in got.messages

    await until(posted, "the challenge's message")
    await bot.games.outbox.idle()
    got = await storage.get_game(record.id)
    assert got is not None
    message = fake.messages[got.messages[lobby.LOBBY_KEY]]
    assert f"cx:acc:{record.id}" in all_custom_ids(message)
    assert await storage.effects_of(record.id) == []


async def test_the_workers_wait_out_a_database_outage_without_a_restart(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.core import outbox

    monkeypatch.setattr(outbox, "OUTAGE_S", (0.02,))
    bot.games.publisher.grace_s = 0.0
    game = await start(driver, fake, storage)
    real_claim = storage.claim_effects
    failures = 0

    async def away(*args: Any, **kwargs: Any) -> Any:
        nonlocal failures
        failures += 1
        raise ConnectionRefusedError("the database is away")

    monkeypatch.setattr(storage, "claim_effects", away)

    async def gone(*args: Any, **kwargs: Any) -> None:
        return None  # the committing process does not post it (as if it died)

    monkeypatch.setattr(bot.games, "after_commit", gone)
    await driver.command("constructo place", ALICE, tile=5, size="large")
    bot.games.outbox.start()

    async def tried() -> bool:
        return failures >= 3

    await until(tried, "the workers trying the database again and again")
    record = await storage.get_game(game)
    assert record is not None and record.messages[BOARD_VERSION_KEY] < record.version
    monkeypatch.setattr(storage, "claim_effects", real_claim)  # the database is back

    async def shown() -> bool:
        got = await storage.get_game(game)
        return got is not None and got.messages.get(BOARD_VERSION_KEY) == got.version

    await until(shown, "the board after the outage")
    await bot.games.outbox.idle()
    boards = [c for c in fake.calls if c.method == "POST" and "L5" in str(c.payload)]
    assert len(boards) == 1, "posted once"


async def test_tokens_count_from_the_interactions_creation_not_their_last_use(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    game = await start(driver, fake, storage)
    await driver.command("constructo place", ALICE, tile=5, size="large")
    record = await storage.get_game(game)
    assert record is not None
    alice_board = record.messages["board"]
    delivery = bot.games.publisher.delivery
    sender = delivery._sender(alice_board)
    assert sender is not None, "Alice's board was sent through her interaction"
    alice = sender[0]
    alice.extras["born"] -= first_response.TOKEN_LIFE_S - 30  # created 14.5 minutes ago (used just now)
    calls = len(fake.calls)
    await driver.command("constructo place", BOB, tile=4, size="large")  # strips Alice's board
    patches = [c.path for c in fake.calls[calls:] if c.method == "PATCH"]
    assert f"/channels/{CHANNEL_ID}/messages/{alice_board}" in patches, patches
    assert not [p for p in patches if alice.token in p], "Alice's token is not used past its life"


async def test_expired_interactions_are_forgotten(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    game = await start(driver, fake, storage)
    delivery = bot.games.publisher.delivery
    for tile, who in ((5, ALICE), (4, BOB), (6, ALICE)):
        await driver.command("constructo place", who, tile=tile, size="large")
    assert delivery.remembered >= 3
    for interaction, _original in list(delivery._sent_by.values()):
        interaction.extras["born"] -= first_response.TOKEN_LIFE_S
    await driver.command("constructo place", BOB, tile=3, size="large")
    assert delivery.remembered == 1, "only the fresh interaction is remembered"
    assert (await storage.get_game(game)) is not None


async def test_the_outbox_is_measured_settled_effects_and_what_is_pending(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot import metrics

    def value(text: str, name: str) -> float:
        found = [float(line.rsplit(" ", 1)[1]) for line in text.splitlines() if line.startswith(name)]
        return sum(found)

    before = value((await metrics.render())[0].decode(), 'tablebot_effects_settled_total{kind="board",result="done"}')
    bot.games.publisher.grace_s = 0.0
    game = await start(driver, fake, storage)

    async def gone(*args: Any, **kwargs: Any) -> None:
        return None  # the committing process does not post the board: a worker must

    monkeypatch.setattr(bot.games, "after_commit", gone)
    await driver.command("constructo place", ALICE, tile=5, size="large")
    text = (await metrics.render())[0].decode()
    assert value(text, "tablebot_effects_pending") >= 1 and value(text, "tablebot_effect_oldest_age_seconds") >= 0
    bot.games.outbox.start()

    async def shown() -> bool:
        got = await storage.get_game(game)
        return got is not None and got.messages.get(BOARD_VERSION_KEY) == got.version

    await until(shown, "the board from the worker")
    await bot.games.outbox.idle()
    text = (await metrics.render())[0].decode()
    assert value(text, 'tablebot_effects_settled_total{kind="board",result="done"}') == before + 1
    assert value(text, "tablebot_effects_pending") == 0
    assert value(text, 'tablebot_effect_lag_seconds_count{kind="board"}') >= 1


async def test_a_prompt_kind_wakes_the_workers_when_it_falls_due_and_other_kinds_do_not() -> None:
    """``subscribe(prompt=True)``: an effect nobody does inline (a tournament's next round, a DM alert) is taken up
    when its delay has passed after the commit, not at the workers' next idle look (``IDLE_S``)."""
    loop = asyncio.get_running_loop()
    box = Outbox(storage=lambda: None, now=loop.time, shards=lambda: None, spawn=loop.create_task, closed=lambda: True)

    async def handler(_effect: Any) -> None:
        return None

    box.subscribe("round", handler, prompt=True)
    box.subscribe("board", handler)
    box.committed([Owed("board", delay_s=0.0)])
    assert not box._poked.is_set(), "a board is its committing process's to post: no poke"
    box.committed([Owed("round")])
    assert box._poked.is_set(), "due at once: poked at once"
    box._poked.clear()
    box.committed([Owed("round", delay_s=0.2), Owed("board")])
    assert not box._poked.is_set()
    await asyncio.wait_for(box._poked.wait(), 5)  # poked once its 0.2 s passed
