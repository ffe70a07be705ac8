"""Handler-level regression tests of the board-recovery hook and per-game board publishing
(breaker report bugs 1, 3, 6, 7), with the same real bot, storage, engine and render as
``test_constructo_cog.py`` and Discord recorded at the HTTP seams.

- Bug 1: an AI move saved but never posted (process killed, or the post failed) is re-posted by
  ``BoardRecovery.recover_all`` (on READY) and by the retry after a failed post.
- Bug 3: boards posted at the same time: only the newest keeps live components.
- Bug 6: two challenges racing for one channel: the loser opens a thread instead of a refusal.
- Bug 7: ``/abort`` strips the challenge's Accept/Decline buttons too.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.app import TableBot
from bot.services.boards import ShownBoards
from bot.services.publish import BOARD_VERSION_KEY
from bot.storage import Storage
from tests.bot.conftest import Driver, all_custom_ids, make_bot, match_of, until
from tests.bot.fakediscord import BOT_ID, CHANNEL_ID, EPHEMERAL, FakeDiscord

ALICE, BOB, CAROL, ADMIN = 1, 2, 3, 4
CHANNEL_POSTS = f"/channels/{CHANNEL_ID}/messages"


def live_boards(fake: FakeDiscord, game_id: int) -> list[int]:
    """Ids of stored messages that still carry components of game ``game_id``'s board."""
    out = []
    for mid, msg in fake.messages.items():
        ids = all_custom_ids(msg)
        if any(i.startswith(("cx:pl:", "cx:st:", "cx:res:", "cx:lay:")) and f":{game_id}" in i for i in ids):
            out.append(mid)
    return out


async def dispatch_together(driver: Driver, commands: list[tuple[str, int, dict[str, Any]]]) -> list[str]:
    """Dispatch several slash commands without waiting in between, then settle; returns tokens."""
    tokens = []
    for qualified, uid, options in commands:
        payload, token = driver._base(2, uid, CHANNEL_ID)
        payload["data"], _ = driver._command_data(qualified, options, None)
        driver.bot._connection.parse_interaction_create(payload)
        tokens.append(token)
    await driver.settle()
    for token in tokens:
        driver.assert_one_response(token)
    return tokens


async def ai_game_with_unposted_ai_move(driver: Driver, fake: FakeDiscord, storage: Storage) -> int:
    """Alice challenges the AI and plays; the AI's move is saved but its board post fails."""
    await driver.command("constructo challenge", ALICE, opponent=BOT_ID, level="easy")
    record = await storage.active_game_in_channel(CHANNEL_ID)
    assert record is not None and record.status == "active"
    fake.fail_paths.add(CHANNEL_POSTS)  # the channel post of the AI's board fails (e.g. a 5xx burst)
    await driver.command("constructo place", ALICE, tile=5, size="small")
    fake.fail_paths.discard(CHANNEL_POSTS)
    after = await storage.get_game(record.id)
    assert after is not None and after.version == 2, "alice's move and the AI's are both saved"
    assert match_of(after).current_player == 0
    assert after.messages[BOARD_VERSION_KEY] == 1, "the stored board still shows the AI to move"
    return record.id


# -- bug 1 ----------------------------------------------------------------------------------------
@pytest.mark.usefixtures("expired_tokens")
async def test_restart_reposts_the_board_of_an_ai_move_that_was_saved_but_never_posted(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage, tmp_path: Path
) -> None:
    game = await ai_game_with_unposted_ai_move(driver, fake, storage)
    await bot.close()  # the process dies; a new one starts on the same storage
    second = await make_bot(fake, storage, tmp_path)
    try:
        before = len(fake.calls)
        assert await second.games.publisher.recovery.recover_all() == 1  # what on_ready runs
        posts = [c for c in fake.calls[before:] if c.method == "POST" and c.path == CHANNEL_POSTS]
        assert len(posts) == 1
        content = posts[0].payload["content"]  # type: ignore[index]
        ai_move = (await storage.actions(game))[-1].action
        assert f"AI (easy) played **{ai_move}**" in content and "<@1> to move" in content
        record = await storage.get_game(game)
        assert record is not None and record.messages[BOARD_VERSION_KEY] == record.version == 2
        assert live_boards(fake, game) == [record.messages["board"]], "only the recovered board is live"
        assert any(i.startswith(f"cx:pl:{game}:2:") for i in all_custom_ids(fake.messages[record.messages["board"]]))
        assert await second.games.publisher.recovery.recover_all() == 0, "an up-to-date board is not posted again"
    finally:
        await second.close()


@pytest.mark.usefixtures("expired_tokens")
async def test_a_failed_board_post_is_retried_until_it_gets_through(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    bot.games.publisher.grace_s = 0.05
    bot.games.outbox.backoff_s = (0.05,)
    bot.games.outbox.start()  # what READY starts
    game = await ai_game_with_unposted_ai_move(driver, fake, storage)

    # the AI's commit owed its board (the outbox); the workers re-post it without any command
    async def reposted() -> bool:
        record = await storage.get_game(game)
        assert record is not None
        return record.messages.get(BOARD_VERSION_KEY) == 2

    await until(reposted, "the AI move's board posted by the outbox")
    await driver.settle()
    record = await storage.get_game(game)
    assert record is not None and record.messages[BOARD_VERSION_KEY] == 2
    assert "<@1> to move" in fake.messages[record.messages["board"]]["content"]
    assert live_boards(fake, game) == [record.messages["board"]]


@pytest.mark.usefixtures("expired_tokens")
async def test_board_retries_give_up_after_the_last_delay(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    bot.games.publisher.grace_s = 0.02
    bot.games.outbox.backoff_s = (0.02,)
    bot.games.outbox.give_up_after = 2
    bot.games.outbox.start()  # what READY starts
    await driver.command("constructo challenge", ALICE, opponent=BOT_ID, level="easy")
    fake.fail_paths.add(CHANNEL_POSTS)  # the channel stays unreachable
    await driver.command("constructo place", ALICE, tile=5, size="small")
    game = (await storage.list_active_games())[0].id

    async def given_up() -> bool:  # the effect is given up (and forgotten) after its second failed run
        return bot.games.outbox.stats.failed >= 2 and not await storage.effects_of(game)

    await until(given_up, "the board effect given up after its second failed run")
    await asyncio.sleep(0.1)  # a further (wrong) retry would come within this
    await driver.settle()
    attempts = [c for c in fake.calls if c.method == "POST" and c.path == CHANNEL_POSTS]
    assert len(attempts) == 3, "the AI's own post, then one per failed run of its board effect, then nothing more"
    assert await storage.effects_of(game) == []


# -- bug 3 ----------------------------------------------------------------------------------------
async def test_boards_requested_at_the_same_time_leave_one_live_board(
    driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    token = await driver.command("constructo challenge", ALICE, opponent=BOB)
    await driver.click(fake.originals[token], "cx:acc:1", BOB)
    await dispatch_together(driver, [("constructo board", ALICE, {}), ("constructo board", BOB, {})] * 2)
    record = await storage.get_game(1)
    assert record is not None
    assert live_boards(fake, 1) == [record.messages["board"]]
    await driver.command("constructo place", ALICE, tile=5, size="large")
    record = await storage.get_game(1)
    assert record is not None and live_boards(fake, 1) == [record.messages["board"]]


async def test_a_board_that_lands_after_a_newer_one_is_stripped_itself(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    token = await driver.command("constructo challenge", ALICE, opponent=BOB)
    await driver.click(fake.originals[token], "cx:acc:1", BOB)
    old = await storage.get_game(1)
    assert old is not None
    await driver.command("constructo place", ALICE, tile=5, size="large")
    newest = (await storage.get_game(1)).messages["board"]  # type: ignore[union-attr]
    before = len(fake.messages)
    late = await bot.games.publisher.publish(bot.games.snapshot(old), headline="late")
    # this process recorded a newer board already: the out-of-date one is not posted at all (nothing posted twice)
    assert late.id == newest and len(fake.messages) == before
    bot.games.publisher._shown = ShownBoards(1)  # as in a process that did not record it: posted, then stripped
    late = await bot.games.publisher.publish(bot.games.snapshot(old), headline="late")
    assert late.id != newest and fake.messages[late.id]["components"] == [], "an out-of-date board keeps no selects"
    record = await storage.get_game(1)
    assert record is not None and record.messages["board"] == newest and record.messages[BOARD_VERSION_KEY] == 2
    assert live_boards(fake, 1) == [newest]


# -- bug 6 ----------------------------------------------------------------------------------------
async def test_two_challenges_at_once_in_one_channel_both_start_one_in_a_thread(
    driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    both = [("constructo challenge", ALICE, {"opponent": BOB}), ("constructo challenge", CAROL, {"opponent": ADMIN})]
    tokens = await dispatch_together(driver, both)
    for token in tokens:
        (callback,) = fake.callbacks(token)
        assert not callback.payload["data"].get("flags", 0) & EPHEMERAL, fake.visible_text(token)  # type: ignore[index]
    games = await storage.list_active_games(kind="constructo")
    assert len(games) == 2 and {g.status for g in games} == {"lobby"}
    channels = sorted(g.channel_id == CHANNEL_ID for g in games)
    assert channels == [False, True], "one game keeps the channel, the other plays in a new thread"
    assert len([c for c in fake.calls if c.path == f"/channels/{CHANNEL_ID}/threads"]) == 1


# -- bug 7 ----------------------------------------------------------------------------------------
async def test_abort_strips_the_challenge_buttons(driver: Driver, fake: FakeDiscord, storage: Storage) -> None:
    token = await driver.command("constructo challenge", ALICE, opponent=BOB)
    challenge = fake.originals[token]
    assert [i.split(":")[1] for i in all_custom_ids(fake.messages[challenge])] == ["acc", "dec"]
    await driver.command("abort", ADMIN, admin=True)
    record = await storage.get_game(1)
    assert record is not None and record.status == "aborted"
    assert fake.messages[challenge]["components"] == [], "Accept/Decline are gone after /abort"


async def test_abort_of_a_running_game_strips_its_board(driver: Driver, fake: FakeDiscord, storage: Storage) -> None:
    token = await driver.command("constructo challenge", ALICE, opponent=BOB)
    await driver.click(fake.originals[token], "cx:acc:1", BOB)
    assert live_boards(fake, 1)
    await driver.command("abort", ADMIN, admin=True)
    assert live_boards(fake, 1) == []
    assert all(fake.messages[m]["components"] == [] for m in (fake.originals[token],))
