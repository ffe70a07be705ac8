"""Bot handler latency: time from an interaction's dispatch to its initial response and to the
final board, with the real bot, storage (temp SQLite), engine and render; Discord faked at
discord.py's HTTP seams (tests/bot/fakediscord.py). Also the AI's turn time per level.

Run: .venv/bin/python bench/bench_bot.py [games]
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from discord.webhook.async_ import async_context  # noqa: E402

from bot.storage import Storage  # noqa: E402
from tests.bot.conftest import Driver, make_bot  # noqa: E402
from tests.bot.fakediscord import BOT_ID, CHANNEL_ID, FakeDiscord, FakeWebhookAdapter  # noqa: E402


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


async def main(games: int) -> None:
    fake = FakeDiscord()
    async_context.set(FakeWebhookAdapter(fake))
    with tempfile.TemporaryDirectory() as tmp:
        storage = await Storage.open(Path(tmp) / "bench.sqlite3")
        bot = await make_bot(fake, storage, Path(tmp))
        driver = Driver(bot, fake)
        first: list[float] = []
        full: list[float] = []
        ai_turn: dict[str, list[float]] = {}
        for level in ("easy", "medium", "hard"):
            for _ in range(games):
                await driver.command("constructo challenge", 1, opponent=BOT_ID, level=level)
                record = await storage.active_game_in_channel(CHANNEL_ID)
                assert record is not None
                for _move in range(3):
                    record = await storage.get_game(record.id)
                    assert record is not None
                    board = fake.messages[record.messages["board"]]
                    select = next(c for row in board["components"] for c in row["components"]
                                  if c.get("custom_id", "").startswith("cx:pl:"))
                    value = select["options"][0]["value"]
                    n_before = len(fake.calls)
                    t0 = time.perf_counter()
                    token = await driver.click(int(board["id"]), select["custom_id"], 1, values=[value])
                    calls = fake.calls_for(token)
                    first.append(calls[0].at - t0)
                    full.append(calls[-1].at - t0)
                    ai_posts = [c for c in fake.calls[n_before:] if c.path == f"/channels/{CHANNEL_ID}/messages"]
                    if ai_posts:
                        ai_turn.setdefault(level, []).append(ai_posts[-1].at - calls[-1].at)
                    record = await storage.get_game(record.id)
                    assert record is not None
                    if record.status != "active":
                        break
                await driver.command("constructo resign", 1)
        await bot.close()
        await storage.close()
    n = len(first)
    print(f"placement via select, {n} interactions (real storage/engine/render, faked Discord transport):")
    print(f"  dispatch -> initial response (defer): p50 {1000 * statistics.median(first):.1f} ms, "
          f"p95 {1000 * pct(first, 0.95):.1f} ms, max {1000 * max(first):.1f} ms  (Discord limit 3000 ms)")
    print(f"  dispatch -> board image edited in:    p50 {1000 * statistics.median(full):.1f} ms, "
          f"p95 {1000 * pct(full, 0.95):.1f} ms, max {1000 * max(full):.1f} ms")
    for level, values in ai_turn.items():
        print(f"  AI {level:6s} turn (search + commit + board post): p50 {1000 * statistics.median(values):.0f} ms, "
              f"max {1000 * max(values):.0f} ms over {len(values)} turns")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 5))
