"""``/learn <game>`` through a real TableBot (Discord faked at its HTTP seams): the tutorial is a real game against
the easy AI, stored like any game and played through the layer's one path, whose boards carry one sentence per rule
the first time it matters, in the learner's language; it ends with one message offering a real game (whose buttons
open one); a restart mid-tutorial carries on from the stored progress."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from bot.app import TableBot
from bot.i18n import t
from bot.services.tutorial import END_KEY, MARK, lesson_of
from bot.storage import Storage
from tests.bot.conftest import Driver, all_custom_ids, envelope_of, make_bot, state_of
from tests.bot.fakediscord import EPHEMERAL, FakeDiscord

LEARNER = 1
GAME_ID = 1  # the first game of a fresh database
MAX_TURNS = 150


def _record_contents(fake: FakeDiscord) -> list[tuple[int, str]]:
    """Every channel message the bot posts from now on, ``(channel id, content)`` (boards of a game in a thread of
    its own are deleted when replaced: the test keeps what they said)."""
    said: list[tuple[int, str]] = []
    original = fake.new_message

    def new_message(channel_id: int, payload: dict[str, Any], files: list[tuple[str, bytes]]) -> dict[str, Any]:
        said.append((channel_id, str(payload.get("content") or "")))
        return original(channel_id, payload, files)

    fake.new_message = new_message  # type: ignore[method-assign]
    return said


def _learner_action(kind: str, state: Any) -> str:
    if kind == "constructo":
        if state.phase == "choosing_layout":
            return "choose rombo"
        return str(state.current_round.legal_moves()[0])
    return "draw" if state.draw_pile else "pass"


async def _closed(bot: TableBot, storage: Storage, timeout: float = 20.0) -> None:  # noqa: ASYNC109
    """Wait until the tutorial's closing message is recorded (the outbox posts it once the last board is out)."""
    bot.games.outbox.start()  # what READY starts
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        record = await storage.get_game(GAME_ID)
        if record is not None and END_KEY in record.messages:
            return
        bot.games.outbox.poke()
        await asyncio.sleep(0.05)
    raise AssertionError("no closing message")


async def _play(driver: Driver, bot: TableBot, storage: Storage, turns: int = MAX_TURNS) -> None:
    """The learner plays a legal action whenever it is their turn (through ``layer.perform``, the one path), at
    most ``turns`` times, until the game ends."""
    layer = bot.games
    for _ in range(turns):
        record = await storage.get_game(GAME_ID)
        assert record is not None
        if record.status != "active":
            return
        state = state_of(record)
        assert 0 in state.awaiting(), "the AI seat answered every move of the learner"
        await layer.perform(None, layer.act(GAME_ID, LEARNER, _learner_action(record.kind, state)))
        await driver.settle()


@pytest.mark.parametrize(("game", "locale"), [("constructo", "en-US"), ("conex", "es-ES")])
async def test_a_tutorial_is_a_real_game_that_teaches_each_rule_once_and_offers_a_real_game(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage, game: str, locale: str
) -> None:
    said = _record_contents(fake)
    token = await driver.command(f"learn {game}", LEARNER, locale=locale)
    record = await storage.get_game(GAME_ID)
    assert record is not None and record.kind == game and record.status == "active"
    env = envelope_of(record)
    assert env.options[MARK] is True and env.clock.get("preset") == "daily", "24 hours per move"
    assert [s.ai for s in env.seats] == [None, "easy"], "one easy AI seat against the learner"
    assert env.locale == locale, "the whole tutorial speaks the learner's language"
    answers = [c.payload for c in fake.calls_for(token) if isinstance(c.payload, dict)]
    flags = [(p.get("data") or p).get("flags", 0) for p in answers]
    assert flags and all(f & EPHEMERAL for f in flags if f is not None), f"the answer is private: {answers}"

    await _play(driver, bot, storage)
    record = await storage.get_game(GAME_ID)
    assert record is not None and record.status == "finished"
    await _closed(bot, storage)

    kind = bot.games.kinds[game]
    lesson = lesson_of(kind)
    assert lesson is not None
    words = lesson.words(state_of(record))
    taught = json.loads(await storage.get_meta(f"learn:{GAME_ID}") or "{}")["taught"]
    channel = record.channel_id
    boards = [text for ch, text in said if ch == channel]
    for step in taught:  # each rule taught is said on exactly one board, in the learner's language
        sentence = t(f"{kind.prefix}.learn.{step}", locale, **words)
        assert sum(sentence in b for b in boards) == 1, (step, boards)
    assert {"layout", "place"} <= set(taught) or {"hand", "corners"} <= set(taught)
    assert taught[lesson.steps[0]] == 0 or min(taught.values()) == taught[lesson.steps[0]]
    assert all(c == channel for c, _ in said), "nothing of the tutorial is posted outside its own place"
    record = await storage.get_game(GAME_ID)
    assert record is not None and END_KEY in record.messages, "the closing message is posted once"
    end = fake.messages[record.messages[END_KEY]]
    assert t("learn.offer", locale) in end["content"]
    ids = all_custom_ids(end)
    assert f"ln:ai:{game}:easy" in ids and f"ln:ch:{game}" in ids and f"ln:qm:{game}" in ids

    await driver.click(end["id"] if isinstance(end["id"], int) else int(end["id"]), f"ln:ai:{game}:medium", LEARNER)
    real = await storage.get_game(GAME_ID + 1)
    assert real is not None and real.status == "active" and real.kind == game
    renv = envelope_of(real)
    assert MARK not in renv.options and [s.ai for s in renv.seats] == [None, "medium"], "a real game, not a tutorial"


async def test_a_restart_mid_tutorial_carries_on_from_the_stored_progress(
    fake: FakeDiscord, storage: Storage, tmp_path: Path
) -> None:
    first = await make_bot(fake, storage, tmp_path)
    driver = Driver(first, fake)
    await driver.command("learn constructo", LEARNER)
    await _play(driver, first, storage, turns=3)
    before = json.loads(await storage.get_meta(f"learn:{GAME_ID}") or "{}")["taught"]
    assert {"layout", "place"} <= set(before)
    await first.close()

    again = await make_bot(fake, storage, tmp_path)
    try:
        driver = Driver(again, fake)
        await _play(driver, again, storage)
        record = await storage.get_game(GAME_ID)
        assert record is not None and record.status == "finished"
        after = json.loads(await storage.get_meta(f"learn:{GAME_ID}") or "{}")["taught"]
        assert {k: v for k, v in after.items() if k in before} == before, "steps taught before the restart stay"
    finally:
        await again.close()


async def test_a_second_learn_points_to_the_running_tutorial(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    await driver.command("learn constructo", LEARNER)
    token = await driver.command("learn constructo", LEARNER)
    answer = [c.payload for c in fake.calls_for(token) if isinstance(c.payload, dict)]
    text = json.dumps(answer)
    assert "still going on" in text and await storage.get_game(GAME_ID + 1) is None, "no second tutorial"
    await driver.command("learn conex", LEARNER)  # another game's tutorial is its own
    second = await storage.get_game(GAME_ID + 1)
    assert second is not None and second.kind == "conex"


@pytest.mark.parametrize(("locale", "words"), [("en-US", "New here?"), ("es-ES", "¿Eres nuevo?")])
async def test_help_names_every_tutorial(driver: Driver, fake: FakeDiscord, locale: str, words: str) -> None:
    token = await driver.command("help", LEARNER, locale=locale)
    text = json.dumps([c.payload for c in fake.calls_for(token)], ensure_ascii=False)
    assert words in text and "`/learn constructo`" in text and "`/learn conex`" in text


async def test_only_a_tutorial_is_steered_or_annotated(bot: TableBot, driver: Driver, storage: Storage) -> None:
    """A game against the AI opened with ``/constructo challenge level:easy`` is no tutorial: its AI plays its own
    moves and its boards carry no step; the same position marked as a tutorial would be steered."""
    await driver.command("constructo challenge", LEARNER, level="easy")
    committed = await bot.games.act(GAME_ID, LEARNER, "M5")  # committed, not shown: the AI is to move
    snap = committed.snap
    assert 1 in snap.require_state().awaiting()
    assert bot.games.tutorials.steer(snap, 1) is None and await bot.games.tutorials.note(snap) == ""
    marked = dataclasses.replace(snap, env=snap.env.with_(options={**snap.env.options, MARK: True}))
    assert bot.games.tutorials.steer(marked, 1) is not None, "a tutorial's AI would offer a stack here"
    assert await storage.get_meta(f"learn:{GAME_ID}") is None


async def test_a_tutorial_left_behind_ends_by_itself_and_still_offers_a_real_game(
    bot: TableBot, driver: Driver, storage: Storage
) -> None:
    """The daily clock: 24 hours without a move, the layer applies the timeout (the AI claims nothing), the member's
    open-game cap is freed, and the closing message comes as for a game played to the end."""
    await driver.command("learn conex", LEARNER)
    for _day in range(10):  # CONEX skips a late turn; a seat late several turns in a row forfeits (its rule)
        record = await storage.get_game(GAME_ID)
        assert record is not None
        if record.status != "active":
            break
        deadline = envelope_of(record).clock["deadline"]
        bot.games.clock.offset += deadline - bot.games.clock.now() + 1
        while await bot.games.timers.run_due():  # the reminder, then the timeout
            await driver.settle()
        await bot.games.ai.idle()
        await driver.settle()
    record = await storage.get_game(GAME_ID)
    assert record is not None and record.status == "finished", "an idle tutorial ends by itself"
    await _closed(bot, storage)


async def test_a_spanish_tutorial_abandoned_says_so_in_spanish_in_an_english_server(
    driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    """The abort of a game speaks the game's language (its board's), not the server's: a Spanish learner's
    tutorial (the server's locale is English) abandoned with /abandon is answered in Spanish only."""
    await driver.command("learn conex", LEARNER, locale="es-ES")
    token = await driver.command("abandon", LEARNER, locale="es-ES")
    record = await storage.get_game(GAME_ID)
    assert record is not None and record.status == "aborted"
    said = " ".join(
        str((c.payload.get("data") or c.payload).get("content", ""))
        for c in fake.calls_for(token)
        if isinstance(c.payload, dict)
    )
    assert "queda anulada" in said and "Every player agreed" not in said, said
