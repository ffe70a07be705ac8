"""Issue 12 tried the way a messy server uses it (in process: the scheduler driven by shifting the layer's clock).

- a rematch keeps the finished game's clock, ``none`` included (not the server's default);
- a claim that loses the race to the late player's move says the player moved in time (not "board out of date");
- CONEX X3: an owed discard is made at random only when the game's turn time has run out (a daily game's
  discard is not taken after ten minutes); the seat to play that owes a discard misses one deadline: one timeout
  (its discard at random), then a fresh deadline for the turn itself, not a second timeout a second later;
- a mutual-abort offer is for the game as it stood: a move after it voids it (a later Agree is refused).
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
from typing import Any

import discord
import pytest

from bot.app import TableBot
from bot.core import clock as clocks
from bot.core.envelope import Envelope, Seat
from bot.storage import Storage
from engine.conex import Game
from engine.constructo import Match
from tests.bot.conftest import Driver, all_custom_ids, envelope_of, refusal, start
from tests.bot.fakediscord import CHANNEL_ID, GUILD_ID, FakeDiscord
from tests.bot.test_conex_cog import forfeit, lightning_position, start_game
from tests.bot.test_constructo_cog import board_of

ALICE, BOB, CAROL = 1, 2, 3


async def finish_by_resign(driver: Driver, fake: FakeDiscord, storage: Storage, game: int, uid: int) -> dict[str, Any]:
    await driver.command("constructo resign", uid)
    ask = [m for m in fake.messages.values() if f"cx:rsy:{game}" in all_custom_ids(m)]
    if ask:
        await driver.click(int(ask[-1]["id"]), f"cx:rsy:{game}", uid)
    return await board_of(storage, fake, game)


async def test_a_rematch_keeps_no_clock_whatever_the_servers_default(
    driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    await driver.command("settings", ALICE, admin=True, clock="live")
    game = await start(driver, fake, storage, clock="none")
    old = await storage.get_game(game)
    assert old is not None and not envelope_of(old).clock.get("per_move")
    card = await finish_by_resign(driver, fake, storage, game, BOB)
    await driver.click(int(card["id"]), f"rm:go:{game}", BOB)
    await driver.click(int(card["id"]), f"rm:go:{game}", ALICE)
    new = await storage.active_game_in_channel(CHANNEL_ID)
    assert new is not None and new.id != game
    assert not envelope_of(new).clock.get("per_move") and new.wake_at is None, envelope_of(new).clock


async def test_a_claim_that_loses_the_race_to_the_late_move_says_so(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    layer, clock = bot.games, bot.games.clock
    game = await start(driver, fake, storage, clock="live")
    record = await storage.get_game(game)
    assert record is not None
    clock.offset = envelope_of(record).clock["deadline"] - clock.now() + 1
    await layer.timers.run_due()
    claim_id = (await storage.get_game(game)).messages["claim"]  # type: ignore[union-attr]

    original = layer.load

    async def late_move_lands_meanwhile(game_id: int) -> Any:
        snap = await original(game_id)
        monkeypatch.setattr(layer, "load", original)
        match = snap.state
        assert isinstance(match, Match)
        await layer.act(game_id, ALICE, str(sorted(str(m) for m in match.current_round.legal_moves())[0]))
        return snap

    monkeypatch.setattr(layer, "load", late_move_lands_meanwhile)
    text = refusal(fake, await driver.click(claim_id, f"clk:claim:{game}", BOB))
    after = await storage.get_game(game)
    assert after is not None and after.status == "active" and after.version == 2, "only the move applied"
    assert "out of date" not in text and "alice" in text.lower() and "in time" in text, text


async def put_clocked_conex(bot: TableBot, storage: Storage, game: Game, players: list[int], preset: str) -> int:
    """A running CONEX game in the current envelope with the ``preset`` clock running for the seat to play."""
    clock = bot.games.clock
    env = Envelope.new(
        options={"table": "medium", "goal": 40},
        seats=[Seat.of({ALICE: "alice", BOB: "bob", CAROL: "carol"}[p]) for p in players],
        host=players[0],
        invited=None,
        locale=None,
        now=clock.now(),
        clock=clocks.new_clock(preset, clock),
    )
    env, wake = clocks.start_turn(env.with_(engine=game.to_dict()), game, clock.now(), lambda s: False)
    return await storage.create_game(
        "conex", GUILD_ID, CHANNEL_ID, env.to_dict(), players, status="active", wake_at=wake
    )


async def lightning_then_alice_draws(bot: TableBot, driver: Driver, storage: Storage, preset: str) -> int:
    """Alice uses the lightning and draws: Bob (to play) and Carol owe a discard."""
    game = lightning_position()
    gid = await put_clocked_conex(bot, storage, game, [ALICE, BOB, CAROL], preset)
    free = [tc.card.id for tc in game.table if game.board.is_free(tc.card.id)]
    await driver.command("conex lightning", ALICE, card=free[-1])
    await driver.command("conex draw", ALICE)
    record = await storage.get_game(gid)
    assert record is not None
    stored = Game.from_dict(envelope_of(record).engine)
    assert stored.pending_discards == {1, 2} and stored.current_player == 1
    return gid


async def test_a_daily_games_discard_is_not_taken_after_ten_minutes(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    gid = await lightning_then_alice_draws(bot, driver, storage, "daily")
    bot.games.clock.offset += 3600  # an hour later: well within a daily game's turn time
    await driver.command("conex discard", CAROL, card="A")
    record = await storage.get_game(gid)
    assert record is not None
    log = [a.action for a in await storage.actions(gid)]
    assert "timeout" not in log, "Bob's discard was taken at random within his turn time"
    assert Game.from_dict(envelope_of(record).engine).pending_discards == {1}

    bot.games.clock.offset += 86400  # past the turn time: now it is overdue
    await driver.command("conex discard", CAROL, card="A")  # refused (Carol owes nothing) and expires nothing
    await bot.games.timers.run_due()
    log = [(a.player, a.action) for a in await storage.actions(gid)]
    assert (BOB, "timeout") in log


async def test_the_seat_to_play_owing_a_discard_misses_one_deadline_one_timeout(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    layer, clock = bot.games, bot.games.clock
    gid = await lightning_then_alice_draws(bot, driver, storage, "live")
    await driver.command("conex discard", CAROL, card="A")
    record = await storage.get_game(gid)
    assert record is not None
    deadline = envelope_of(record).clock["deadline"]
    clock.offset += deadline - clock.now() + 1
    await layer.timers.run_due()
    await driver.settle()
    clock.offset += 1.5  # the scheduler's next look, a moment later
    await layer.timers.run_due()
    await driver.settle()
    record = await storage.get_game(gid)
    assert record is not None
    game = Game.from_dict(envelope_of(record).engine)
    log = [(a.player, a.action) for a in await storage.actions(gid)]
    assert log.count((BOB, "timeout")) == 1, log
    assert game.pending_discards == set() and game.current_player == 1 and game.timeouts[1] == 1
    assert envelope_of(record).clock["seat"] == 1 and envelope_of(record).clock["deadline"] > clock.now(), (
        "a fresh deadline for Bob's turn"
    )


async def test_an_abort_offer_is_void_once_the_game_moved_on(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    game = await start(driver, fake, storage)
    token = await driver.command("abandon", ALICE)
    offer = fake.originals[token]
    shown = copy.deepcopy(fake.messages[offer])  # as Bob's client still shows it
    snap = await bot.games.load(game)
    match = snap.state
    assert isinstance(match, Match)
    await driver.command(
        "constructo place",
        ALICE,
        tile=int(sorted(str(m) for m in match.current_round.legal_moves())[0][1:]),
        size="small",
    )
    moved = await storage.get_game(game)
    assert moved is not None and moved.version == 2
    text = refusal(fake, await driver.click(offer, f"ma:ok:{game}", BOB, message=shown))
    assert (await storage.get_game(game)).status == "active", "a stale offer aborts nothing"  # type: ignore[union-attr]
    assert "/abandon" in text, text
    assert all_custom_ids(fake.messages[offer]) == [], "the stale offer lost its button"
    # a fresh /abandon is a new offer, counted from one
    token = await driver.command("abandon", BOB)
    assert "1/2" in fake.visible_text(token)


async def test_settings_and_clock_options_out_of_range_are_refused_and_change_nothing(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    """Discord checks choices and ranges in its client; a request that skips them is refused here too (not
    "Saved." with the old value shown)."""
    for options in ({"expiry": 0}, {"expiry": 99999}, {"clock": "hourly"}, {"clock": "none", "expiry": -5}):
        text = refusal(fake, await driver.command("settings", ALICE, admin=True, **options))
        assert "Saved" not in text and ("1440" in text or "live, daily" in text), (options, text)
        assert await storage.get_guild_settings(GUILD_ID) == {}, options
    es = refusal(fake, await driver.command("settings", ALICE, admin=True, locale="es-ES", expiry=0))
    assert "minutos" in es, es
    text = refusal(fake, await driver.command("constructo challenge", ALICE, opponent=BOB, clock="hourly"))
    assert "live, daily" in text and await storage.active_game_in_channel(CHANNEL_ID) is None
    text = refusal(fake, await driver.command("conex new", ALICE, clock="blitz"))
    assert "live, daily" in text and await storage.active_game_in_channel(CHANNEL_ID) is None


async def test_a_click_on_a_set_up_that_is_over_says_what_happened_to_it(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    token = await driver.command("constructo challenge", ALICE, opponent=BOB)
    message = fake.originals[token]
    shown = copy.deepcopy(fake.messages[message])  # as Bob's client still shows it
    game = int(all_custom_ids(shown)[0].split(":")[2])
    record = await storage.get_game(game)
    assert record is not None and record.wake_at is not None
    bot.games.clock.offset = record.wake_at - bot.games.clock.now() + 1
    await bot.games.timers.run_due()  # it expires; Bob's Accept lands right after
    text = refusal(fake, await driver.click(message, f"cx:acc:{game}", BOB, message=shown))
    assert "expired" in text and "over" not in text, text
    assert (await storage.get_game(game)).status == "aborted"  # type: ignore[union-attr]

    bot.games.clock.offset = 0
    token = await driver.command("constructo challenge", ALICE, opponent=BOB)
    message = fake.originals[token]
    shown = copy.deepcopy(fake.messages[message])
    game = int(all_custom_ids(shown)[0].split(":")[2])
    await driver.click(message, f"cx:acc:{game}", BOB, message=shown)  # accepted; a double click is told it runs
    text = refusal(fake, await driver.click(message, f"cx:acc:{game}", BOB, message=shown))
    assert "already started" in text and "active" not in text, text


async def test_a_late_move_committing_while_the_claim_is_recorded_still_strips_it(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The move read the game before the claim message was stored and commits after the scheduler checked the
    version: the claim must not stay live (a stale "claim the win" under a game that went on)."""
    layer, clock = bot.games, bot.games.clock
    game = await start(driver, fake, storage, clock="live")
    record = await storage.get_game(game)
    assert record is not None
    clock.offset = envelope_of(record).clock["deadline"] - clock.now() + 1
    snap = await layer.load(game)
    match = snap.state
    assert isinstance(match, Match)
    move = str(sorted(str(m) for m in match.current_round.legal_moves())[0])
    gate = asyncio.Event()
    tasks: list[asyncio.Task[Any]] = []
    set_message, apply_action = storage.set_message, storage.apply_action

    async def claim_stored(game_id: int, key: str, value: Any) -> Any:
        if key == "claim" and value is not None and not tasks:
            tasks.append(asyncio.create_task(layer.act(game, ALICE, move)))
            await asyncio.sleep(0.05)  # the move reads the game now (if it may)
        return await set_message(game_id, key, value)

    async def held(game_id: int, expected: int, state: Any, **kw: Any) -> Any:
        if kw.get("player") == ALICE:
            await gate.wait()
        return await apply_action(game_id, expected, state, **kw)

    monkeypatch.setattr(storage, "set_message", claim_stored)
    monkeypatch.setattr(storage, "apply_action", held)
    await layer.timers.run_due()
    gate.set()
    await asyncio.gather(*tasks)
    await driver.settle()
    record = await storage.get_game(game)
    assert record is not None and record.version == 2 and record.status == "active"
    claims = [m for m in fake.messages.values() if str(m.get("content") or "").startswith("⌛")]
    assert claims, "a claim message was posted"
    assert all(all_custom_ids(m) == [] for m in claims), "the claim stayed live after the late move"


def test_a_timeout_restarts_the_seats_clock_only_once_its_own_deadline_passed() -> None:
    """An overdue X3 discard made for the seat to play (another player's action came first) is no missed turn
    deadline: its clock keeps running; the clock's own timeout gives the turn a fresh deadline."""
    from types import SimpleNamespace

    env = Envelope(
        engine=None, clock={"preset": "live", "per_move": 300.0, "seat": 1, "deadline": 1000.0, "remind_at": 925.0}
    )
    state: Any = SimpleNamespace(is_over=False, current_player=1)
    same, wake = clocks.after_action(env, state, [], 900.0, lambda s: False, timed_out=1)
    assert same is env and wake is clocks.UNCHANGED
    fresh, wake = clocks.after_action(env, state, [], 1001.0, lambda s: False, timed_out=1)
    assert fresh.clock["deadline"] == 1301.0 and wake == 1301.0 - 300 * clocks.REMIND_FRACTION
    other, wake = clocks.after_action(env, state, [], 1001.0, lambda s: False, timed_out=2)
    assert other is env and wake is clocks.UNCHANGED


async def test_a_game_whose_channel_was_deleted_is_not_hammered_by_its_timers(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A moderator deleted the game's channel: the reminder is tried once (at most one per turn, never retried
    every 30 s until the deadline) and the claim is retried with growing delays, not every 30 s forever."""
    from tests.bot.fakediscord import _FakeResponse

    layer, clock = bot.games, bot.games.clock
    game = await start(driver, fake, storage, clock="daily")
    record = await storage.get_game(game)
    assert record is not None
    c = envelope_of(record).clock
    posts: list[float] = []

    def channel_gone(channel_id: int, payload: Any, files: Any) -> Any:
        posts.append(clock.now())
        raise discord.NotFound(_FakeResponse(404), {"message": "Unknown Channel", "code": 10003})

    monkeypatch.setattr(fake, "new_message", channel_gone)

    async def run_for(seconds: float, step: float = 30.0) -> None:
        end = clock.offset + seconds
        while clock.offset < end:
            clock.offset += step
            await layer.timers.run_due()

    clock.offset = c["remind_at"] - clock.now() + 1
    await layer.timers.run_due()
    await run_for(3 * 3600)  # the last quarter of a daily move: 6 hours; half of it
    assert len(posts) == 1, f"the reminder was tried {len(posts)} times"
    clock.offset += c["deadline"] - clock.now() + 1
    posts.clear()
    await run_for(6 * 3600)
    assert 1 <= len(posts) <= 12, f"the claim was tried {len(posts)} times in 6 hours"
    assert (await storage.get_game(game)).status == "active"  # type: ignore[union-attr]


async def test_a_seat_that_left_the_table_is_not_waited_for_to_abort(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    """CONEX: Carol forfeited (she left the server, say); Alice and Bob can still agree to abort the table."""
    gid = await start_game(driver, fake, storage, bot, seats=(ALICE, BOB, CAROL))
    await forfeit(driver, fake, CAROL, gid)
    record = await storage.get_game(gid)
    assert record is not None and record.status == "active"
    token = await driver.command("abandon", ALICE)
    offer = fake.originals[token]
    assert "1/2" in fake.visible_text(token) and f"<@{CAROL}>" not in fake.visible_text(token), fake.visible_text(token)
    await driver.click(offer, f"ma:ok:{gid}", BOB)
    record = await storage.get_game(gid)
    assert record is not None and record.status == "aborted" and record.result is None


async def test_two_processes_at_the_reminder_moment_post_one_reminder(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A restart overlapping the old process (or two shard processes during a deploy) at the reminder moment:
    each reads the game due and moves its wake; the move is a compare-and-set in storage, so one reminder."""
    layer, clock = bot.games, bot.games.clock
    game = await start(driver, fake, storage, clock="live")
    record = await storage.get_game(game)
    assert record is not None
    clock.offset = envelope_of(record).clock["remind_at"] - clock.now() + 1
    monkeypatch.setattr(layer, "lock", lambda game_id: asyncio.Lock())  # no lock shared: two processes
    get_game = storage.get_game

    async def slow_read(game_id: int) -> Any:
        fresh = await get_game(game_id)
        await asyncio.sleep(0.02)  # both read before either writes
        return fresh

    monkeypatch.setattr(storage, "get_game", slow_read)
    due = await storage.due_games(clock.now())
    assert [r.id for r in due] == [game]
    await asyncio.gather(layer.timers.handle(due[0], clock.now()), layer.timers.handle(due[0], clock.now()))
    reminders = [m for m in fake.messages.values() if str(m.get("content") or "").startswith("⏰")]
    assert len(reminders) == 1, [m["content"] for m in reminders]


async def test_a_move_in_flight_when_the_game_is_aborted_is_told_the_game_is_over(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot is removed from the guild (or an admin aborts) while a move is being committed: the mover is not
    told "someone acted first: look at the new board" (nobody did, there is no new board)."""
    from bot.services import departure

    game = await start(driver, fake, storage, clock="live")
    apply_action = storage.apply_action

    async def removed_meanwhile(game_id: int, expected: int, state: Any, **kw: Any) -> Any:
        await departure.guild_removed(bot.games, GUILD_ID)
        return await apply_action(game_id, expected, state, **kw)

    monkeypatch.setattr(storage, "apply_action", removed_meanwhile)
    calls = len(fake.calls)
    text = refusal(fake, await driver.command("constructo place", ALICE, tile=5, size="small"))
    assert "same moment" not in text and "over" in text, text
    record = await storage.get_game(game)
    assert record is not None and record.status == "aborted" and record.end_reason == "guild_removed"
    assert [c.path for c in fake.calls[calls:] if "/channels/" in c.path] == [], "nothing sent to the guild"


def test_every_clock_and_lifecycle_text_is_in_spanish_with_the_same_fields() -> None:
    import string

    from bot.locales import en_clock, en_lifecycle, es_clock, es_lifecycle

    def fields(template: str) -> set[str]:
        return {f for _, f, _, _ in string.Formatter().parse(template) if f}

    for en, es in ((en_clock.MESSAGES, es_clock.MESSAGES), (en_lifecycle.MESSAGES, es_lifecycle.MESSAGES)):
        assert sorted(set(en) - set(es)) == []
        assert [k for k in en if fields(en[k]) != fields(es[k])] == []
        assert [k for k in en if en[k] == es[k]] == [], "an English text copied as Spanish"


async def test_due_games_of_other_shards_do_not_starve_this_process(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sharded across processes, one of them down with many due games: the others' timers still run (the due
    query asks only for this process's shards, not the earliest 50 of everyone's)."""
    monkeypatch.setattr(bot, "config", dataclasses.replace(bot.config, shard_count=2, shard_ids=(0,)))
    other_guild = (1 << 22) | 5  # shard 1: another process's guild
    assert bot.games.timers.mine(GUILD_ID) and not bot.games.timers.mine(other_guild)
    for n in range(60):
        await storage.create_game("constructo", other_guild, 900 + n, {}, [ALICE, BOB], status="active", wake_at=1.0)
    token = await driver.command("constructo challenge", ALICE, opponent=BOB)
    game = int(all_custom_ids(fake.messages[fake.originals[token]])[0].split(":")[2])
    record = await storage.get_game(game)
    assert record is not None and record.wake_at is not None
    bot.games.clock.offset = record.wake_at - bot.games.clock.now() + 1
    await bot.games.timers.run_due()
    assert (await storage.get_game(game)).status == "aborted", "this shard's challenge expired"  # type: ignore[union-attr]
    assert await bot.games.timers.earliest() is None, "the next look is for this process's own games only"


async def test_abandon_before_the_game_started_points_to_decline_or_leave(
    driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    await driver.command("conex new", ALICE)
    text = refusal(fake, await driver.command("abandon", ALICE))
    assert "not started" in text and "leave" in text.lower(), text
    es = refusal(fake, await driver.command("abandon", ALICE, locale="es-ES"))
    assert "empezado" in es, es


async def test_an_expired_challenge_message_no_longer_tells_to_accept(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    token = await driver.command("constructo challenge", ALICE, opponent=BOB)
    message = fake.originals[token]
    game = int(all_custom_ids(fake.messages[message])[0].split(":")[2])
    record = await storage.get_game(game)
    assert record is not None and record.wake_at is not None
    bot.games.clock.offset = record.wake_at - bot.games.clock.now() + 1
    calls = len(fake.calls)
    await bot.games.timers.run_due()
    # edited through the challenge's own interaction while its token is fresh (or the channel, later)
    (edit,) = [
        c
        for c in fake.calls[calls:]
        if c.method == "PATCH" and c.path.endswith((f"/messages/{message}", f"/{token}/messages/@original"))
    ]
    content = edit.payload["content"]  # type: ignore[index]
    assert "expired" in content and "alice" in content and "bob" in content, content
    assert "Accept or decline below" not in content and edit.payload["components"] == [], content  # type: ignore[index]


async def test_a_rematch_that_was_aborted_can_be_asked_again_from_the_card(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    game = await start(driver, fake, storage)
    card = await finish_by_resign(driver, fake, storage, game, BOB)
    await driver.click(int(card["id"]), f"rm:go:{game}", BOB)
    await driver.click(int(card["id"]), f"rm:go:{game}", ALICE)
    second = await storage.active_game_in_channel(CHANNEL_ID)
    assert second is not None and second.id != game
    await driver.command("abort", CAROL, admin=True)  # an admin ends it (or both agreed to abort it)
    assert (await storage.get_game(second.id)).status == "aborted"  # type: ignore[union-attr]
    token = await driver.click(int(card["id"]), f"rm:go:{game}", ALICE)
    text = fake.visible_text(token)
    assert "wants a rematch" in text and "started already" not in text, text
    await driver.click(int(card["id"]), f"rm:go:{game}", BOB)
    third = await storage.active_game_in_channel(CHANNEL_ID)
    assert third is not None and third.id not in (game, second.id) and third.players == second.players


async def test_an_admin_abort_of_a_challenge_rewrites_its_message(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    """``/abort`` here, ``/games``' Abort in e2e (test_unstuck_races): the challenge no longer says "Accept or
    decline below" without buttons."""
    token = await driver.command("constructo challenge", ALICE, opponent=BOB)
    message = fake.originals[token]
    game = int(all_custom_ids(fake.messages[message])[0].split(":")[2])
    calls = len(fake.calls)
    await driver.command("abort", CAROL, admin=True)
    assert (await storage.get_game(game)).status == "aborted"  # type: ignore[union-attr]
    edits = [
        c
        for c in fake.calls[calls:]
        if c.method == "PATCH" and c.path.endswith((f"/messages/{message}", f"/{token}/messages/@original"))
    ]
    assert edits and edits[-1].payload["components"] == []  # type: ignore[index]
    content = next(c.payload["content"] for c in reversed(edits) if c.payload.get("content"))  # type: ignore[union-attr]
    assert "Accept or decline below" not in content and "alice" in content, content


async def test_an_abort_offer_says_at_once_that_a_move_voided_it(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    """Nobody has to click the stale offer to learn it no longer stands: the move strips it and says so."""
    game = await start(driver, fake, storage)
    token = await driver.command("abandon", ALICE)
    offer = fake.originals[token]
    calls = len(fake.calls)
    await driver.command("constructo place", ALICE, tile=5, size="small")
    await driver.settle()
    assert (await storage.get_game(game)).version == 2  # type: ignore[union-attr]
    edits = [c for c in fake.calls[calls:] if c.method == "PATCH" and c.path.endswith(f"/messages/{offer}")]
    assert edits, "the offer was left as it was"
    assert edits[-1].payload["components"] == [] and "no longer stands" in edits[-1].payload["content"]  # type: ignore[index]


async def test_a_seat_that_left_after_playing_keeps_its_last_place_abandon_is_refused(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    """CONEX: Carol drew (she played) and then left: her last place counts for ratings, so an abort by the two
    others would erase it; /abandon is refused privately, in words, saying what to do instead (English and
    Spanish), and nothing changes."""
    gid = await start_game(driver, fake, storage, bot, seats=(ALICE, BOB, CAROL))
    for who in (ALICE, BOB, CAROL):
        await driver.command("conex draw", who)
    await forfeit(driver, fake, CAROL, gid)
    before = await storage.get_game(gid)
    assert before is not None and before.status == "active"
    text = refusal(fake, await driver.command("abandon", ALICE))
    assert "Carol already left this game after playing" in text and "Play it out" in text, text
    es = refusal(fake, await driver.command("abandon", BOB, locale="es-ES"))
    assert "Carol ya dejó esta partida" in es, es
    after = await storage.get_game(gid)
    assert after is not None and after.status == "active" and after.version == before.version
