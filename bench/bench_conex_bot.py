"""CONEX bot handler latency: time from an interaction's dispatch to its initial response and to its last
answer (image edited in), with the real bot, storage (temp SQLite), engine, finder and render; Discord faked at
discord.py's HTTP seams (tests/bot/fakediscord.py), so network time is excluded.

Positions: 3-player games on the medium table grown by the fallback player (best finder placement or draw)
until ``cards`` cards lie on the table; then, for each position: ``/conex hand`` (legal counts for the whole
hand), ``/conex hints`` (up to 9 placements + ghost preview), ``/conex place`` auto-fit on a target, and
``/conex draw`` (then one AI seat's turn is timed through the same service path).

Run: ``.venv/bin/python bench/bench_conex_bot.py [cards ...]`` (default 0 15 30); figures go to BENCHMARKS.md.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import logging  # noqa: E402

import discord  # noqa: E402
from discord.webhook.async_ import async_context  # noqa: E402

from bot.games.conex.ai import fallback_action  # noqa: E402
from bot.storage import Storage  # noqa: E402
from engine.conex import Draw, Game, Place  # noqa: E402
from tests.bot import conftest  # noqa: E402
from tests.bot.conftest import Driver, game_of, make_bot  # noqa: E402
from tests.bot.fakediscord import CHANNEL_ID, GUILD_ID, FakeDiscord, FakeWebhookAdapter  # noqa: E402

logging.basicConfig(level=logging.WARNING)
conftest._OPTION_TYPES.setdefault(discord.AppCommandOptionType.number, 10)
ALICE, BOB = 1, 2


def grow(cards: int, seed: int) -> Game:
    """A 3-seat game with about ``cards`` cards on the table, seat 0 to play with a full hand."""
    game = Game.new(players=3, seed=seed, table="medium", goal=100)
    guard = 0
    while len(game.table) < cards and not game.is_over and guard < 400:
        action = fallback_action(game, game.current_player)
        game.play(action)
        guard += 1
    while game.current_player != 0 and not game.is_over:
        game.play(Draw(game.current_player) if game.draw_pile else fallback_action(game, game.current_player))
    while len(game.hands[0]) < 5 and game.pile:  # seat 0 gets a full hand from the pile (cards conserved)
        game.hands[0].append(game.pile.pop(0))
    return game


async def timed(driver: Driver, fake: FakeDiscord, name: str, uid: int = ALICE, **options: Any) -> tuple[float, float]:
    """(ms to the initial response, ms to the last answer) of ``/name options``."""
    n = len(fake.calls)
    t0 = time.perf_counter()
    token = await driver.command(name, uid, **options)
    calls = [c for c in fake.calls[n:] if c in fake.calls_for(token)]
    return (calls[0].at - t0) * 1000, (calls[-1].at - t0) * 1000


async def main(sizes: list[int]) -> None:
    fake = FakeDiscord()
    async_context.set(FakeWebhookAdapter(fake))
    rows: dict[str, dict[int, list[tuple[float, float]]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        storage = await Storage.open(Path(tmp) / "bench.sqlite3")
        bot = await make_bot(fake, storage, Path(tmp))
        driver = Driver(bot, fake)
        for size in sizes:
            for seed in (1, 2, 3):
                game = grow(size, seed)
                state = {
                    "conex": game.to_dict(),
                    "table": "medium",
                    "goal": 100,
                    "host": ALICE,
                    "names": ["alice", "bob", "AI 1"],
                    "ai": [-1],
                    "locale": None,
                }
                gid = await storage.create_game("conex", GUILD_ID, CHANNEL_ID, state, [ALICE, BOB, -1], status="active")
                print(f"position {size} cards, seed {seed}", file=sys.stderr, flush=True)
                rows.setdefault("hand", {}).setdefault(size, []).append(await timed(driver, fake, "conex hand"))
                rows.setdefault("hints", {}).setdefault(size, []).append(await timed(driver, fake, "conex hints"))
                target: int | str = game.table[-1].card.id if game.table else "board"
                fits = [p for cid in game.hands[0] for p in game.find_placements(0, cid, None, target, 1)]
                if fits and isinstance(fits[0], Place):
                    rows.setdefault("place auto-fit", {}).setdefault(size, []).append(
                        await timed(
                            driver,
                            fake,
                            "conex place",
                            card=str(fits[0].card),
                            corner=fits[0].corner,
                            target=str(target),
                        )
                    )
                else:
                    await driver.command("conex draw", ALICE)
                now = await storage.get_game(gid)
                assert now is not None
                if not game_of(now).pile:  # Bob could not draw: no AI timing for this position
                    await storage.abort_game(gid, now.version, None)
                    continue
                t0 = time.perf_counter()
                first, last = await timed(driver, fake, "conex draw", BOB)  # then the AI seat plays (settled)
                rows.setdefault("draw", {}).setdefault(size, []).append((first, last))
                rows.setdefault("draw, then the AI seat's turn posted", {}).setdefault(size, []).append(
                    (first, (time.perf_counter() - t0) * 1000)
                )
                record = await storage.get_game(gid)
                assert record is not None and game_of(record).current_player == 0
                await storage.abort_game(gid, record.version, None)
        await bot.close()
        await storage.close()
    print("| handler | " + " | ".join(f"{s} cards: initial / last (ms)" for s in sizes) + " |")
    print("|---|" + "---|" * len(sizes))
    for name, by_size in rows.items():
        cells = []
        for s in sizes:
            vals = by_size.get(s, [])
            if not vals:
                cells.append("—")
                continue
            cells.append(f"{statistics.median(v[0] for v in vals):.0f} / {statistics.median(v[1] for v in vals):.0f}")
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    asyncio.run(main([int(a) for a in sys.argv[1:]] or [0, 15, 30]))
