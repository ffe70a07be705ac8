"""Clocks in process (issue 12): the scheduler's steps driven by shifting the layer's clock (``clock.offset``), no
sleeping: one reminder per turn, a claim that waits while the late player may still move, ``/settings`` (Manage
Server only) feeding new games, the pure clock rules, and every clock text in Spanish too."""

from __future__ import annotations

import copy

from bot.app import TableBot
from bot.core import clock as clocks
from bot.core.envelope import Envelope
from bot.i18n import MESSAGES
from bot.storage import Storage
from engine.constructo import Match
from tests.bot.conftest import Driver, all_custom_ids, envelope_of, refusal, start
from tests.bot.fakediscord import BOT_ID, CHANNEL_ID, GUILD_ID, OTHER_CHANNEL_ID, FakeDiscord

ALICE, BOB, CAROL = 1, 2, 3


def channel_texts(fake: FakeDiscord) -> list[str]:
    return [
        str(m.get("content") or "")
        for m in fake.messages.values()
        if m.get("channel_id") in (CHANNEL_ID, str(CHANNEL_ID))
    ]


async def test_one_reminder_per_turn_then_a_claim_that_waits(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    timers, clock = bot.games.timers, bot.games.clock
    gid = await start(driver, fake, storage, clock="live")
    record = await storage.get_game(gid)
    assert record is not None
    c = envelope_of(record).clock
    assert c["preset"] == "live" and c["seat"] == 0 and record.wake_at == c["remind_at"]
    assert c["deadline"] - c["remind_at"] == 300 * clocks.REMIND_FRACTION

    clock.offset = c["remind_at"] - clock.now() + 1  # a quarter of the time left
    assert await timers.run_due() == 1 and await timers.run_due() == 0
    reminders = [t for t in channel_texts(fake) if t.startswith("⏰") and f"<@{ALICE}>" in t]
    assert len(reminders) == 1 and f"<t:{int(c['deadline'])}:R>" in reminders[0]
    assert (await storage.get_game(gid)).wake_at == c["deadline"]  # type: ignore[union-attr]

    clock.offset += 300
    assert await timers.run_due() == 1 and await timers.run_due() == 0
    assert timers.fired["claim"] == 1 and timers.fired["remind"] == 1
    record = await storage.get_game(gid)
    assert record is not None and record.status == "active" and record.wake_at is None
    claim_id = record.messages["claim"]
    assert all_custom_ids(fake.messages[claim_id]) == [f"clk:claim:{gid}"]

    # unclaimed, the late player still moves: the claim goes, a new turn (Bob's) starts with a fresh deadline
    as_shown = copy.deepcopy(fake.messages[claim_id])
    await driver.command("constructo place", ALICE, tile=5, size="small")
    record = await storage.get_game(gid)
    assert record is not None and record.version == 2
    assert envelope_of(record).clock["seat"] == 1 and envelope_of(record).clock["deadline"] > clock.now()
    assert all_custom_ids(fake.messages[claim_id]) == []
    token = await driver.click(claim_id, f"clk:claim:{gid}", BOB, message=as_shown)
    assert "nothing to claim" in refusal(fake, token)

    clock.offset += 301
    await timers.run_due()
    record = await storage.get_game(gid)
    assert record is not None
    claim_id = record.messages["claim"]
    assert "your own time" in refusal(fake, await driver.click(claim_id, f"clk:claim:{gid}", BOB))
    assert "not a player" in refusal(fake, await driver.click(claim_id, f"clk:claim:{gid}", CAROL))
    await driver.click(claim_id, f"clk:claim:{gid}", ALICE)
    record = await storage.get_game(gid)
    assert record is not None and record.status == "finished" and record.result is not None
    assert [list(g) for g in record.result.ranking] == [[ALICE], [BOB]]
    assert [a.action for a in await storage.actions(gid)][-1] == "timeout"


async def test_settings_need_manage_server_and_set_new_games(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    assert "Manage Server" in refusal(fake, await driver.command("settings", ALICE, clock="none"))
    assert await storage.get_guild_settings(GUILD_ID) == {}
    await driver.command("settings", ALICE, admin=True, clock="none", expiry=30)
    gid = await start(driver, fake, storage)
    record = await storage.get_game(gid)
    assert record is not None and envelope_of(record).clock == {} and record.wake_at is None
    token = await driver.command("constructo challenge", CAROL, opponent=ALICE, channel_id=OTHER_CHANNEL_ID)
    pending = await storage.active_game_in_channel(OTHER_CHANNEL_ID)
    assert token and pending is not None and pending.wake_at is not None
    assert abs(pending.wake_at - envelope_of(pending).created - 30 * 60) < 1


def test_clock_rules_without_discord() -> None:
    clock = clocks.Clock(scale=0.5, offset=0)
    assert clocks.preset_of(None, {}) == clocks.DEFAULT_PRESET == "daily"
    assert clocks.preset_of(None, {"clock": "live"}) == "live" and clocks.preset_of("none", {"clock": "live"}) == "none"
    assert clocks.expiry_minutes({"setup_expiry_min": 0}) == clocks.DEFAULT_EXPIRY_MIN
    env = Envelope(engine=None, clock=clocks.new_clock("live", clock))
    assert env.clock["per_move"] == 150
    state = Match.new({"layout": "rombo", "first": 0})
    started, wake = clocks.start_turn(env, state, 1000.0, lambda s: False)
    assert started.clock["deadline"] == 1150.0 and wake == 1150.0 - 150 * clocks.REMIND_FRACTION
    ai_turn, wake = clocks.start_turn(env, state, 1000.0, lambda s: s == 0)
    assert ai_turn.clock["deadline"] is None and wake is None, "an AI seat runs no clock"
    same, wake = clocks.after_action(started, state, [], 1100.0, lambda s: False)
    assert same is started and wake is clocks.UNCHANGED
    none_env = Envelope(engine=None, clock=clocks.new_clock("none", clock))
    assert clocks.start_turn(none_env, state, 0.0, lambda s: False) == (none_env, clocks.UNCHANGED)


def test_every_clock_text_in_spanish() -> None:
    keys = [k for k in MESSAGES["en"] if k.startswith(("clk.", "settings.")) or k in ("ui.claim", "lobby.expired_of")]
    assert len(keys) >= 10
    assert [k for k in keys if k not in MESSAGES["es"]] == []


async def test_against_the_ai_the_timeout_is_applied_at_once(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    await driver.command("constructo challenge", ALICE, opponent=BOT_ID, clock="live")
    record = await storage.active_game_in_channel(CHANNEL_ID)
    assert record is not None and record.status == "active"
    deadline = envelope_of(record).clock["deadline"]
    bot.games.clock.offset = deadline - bot.games.clock.now() + 1
    await bot.games.timers.run_due()
    await driver.settle()
    done = await storage.get_game(record.id)
    assert done is not None and done.status == "finished" and done.result is not None and not done.result.rated
    assert [a.action for a in await storage.actions(record.id)][-1] == "timeout"
    assert "claim" not in done.messages and bot.games.timers.fired["timeout"] == 1


def test_each_game_timers_run_in_the_process_of_its_shard() -> None:
    from pathlib import Path
    from types import SimpleNamespace

    from bot.config import Config
    from bot.services.timers import Timers

    def process(**shards: object) -> SimpleNamespace:  # a bot process with these SHARD_COUNT / SHARD_IDS
        config = Config(token="t", data_dir=Path("."), **shards)  # type: ignore[arg-type]
        return SimpleNamespace(config=config, owns=config.owns_guild)

    layer = SimpleNamespace(on_committed=[], on_ready_hooks=[], bot=process())
    timers = Timers(layer)  # type: ignore[arg-type]
    guilds = [(n << 22) | 2 for n in range(6)]
    assert all(timers.mine(g) for g in guilds), "one process: every guild"
    assert timers.shards() is None
    layer.bot = process(shard_count=3, shard_ids=(0, 2))
    assert [timers.mine(g) for g in guilds] == [True, False, True, True, False, True]
    assert timers.shards() == (3, [0, 2])
    layer.bot = process(shard_count=2, shard_ids=(1,))
    assert [timers.mine(g) for g in guilds] == [False, True] * 3
