"""Dev server speed: slash-command round trips (interaction dispatched -> bot's reply stored).

Usage: .venv/bin/python bench/bench_devserver.py [--count 200] [--real-bot]
Measures with an in-process discord.py client (a text reply, a 200 KB PNG reply, 20 concurrent users),
and with ``--real-bot`` the real ``python -m bot`` answering ``/help``. Prints one line per figure;
record them in BENCHMARKS.md ("Dev server").
"""

from __future__ import annotations

import argparse
import asyncio
import io
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import discord
import yarl
from discord import app_commands

from devserver import DevServer
from devserver.process import BotProcess

PNG = b"\x89PNG\r\n\x1a\n" + bytes(200 * 1024)


class BenchBot(discord.Client):
    def __init__(self, guild_id: int) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.tree = app_commands.CommandTree(self)
        guild = discord.Object(guild_id)

        @self.tree.command(name="ping", description="Text reply", guild=guild)
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pong")

        @self.tree.command(name="png", description="PNG reply", guild=guild)
        async def png(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(file=discord.File(io.BytesIO(PNG), "board.png"))

        self.guild = guild

    async def setup_hook(self) -> None:
        await self.tree.sync(guild=self.guild)


async def round_trips(server: DevServer, command: str, count: int, user: str = "alice") -> list[float]:
    times = []
    for _ in range(count):
        t0 = time.perf_counter()
        res = await server.as_user(user).slash(command)
        await server.wait_until(res.complete, 10, command)
        times.append(time.perf_counter() - t0)
    return times


def report(name: str, times: list[float]) -> None:
    q = statistics.quantiles(times, n=20)
    print(
        f"{name}: n={len(times)} p50={statistics.median(times) * 1000:.1f} ms p95={q[18] * 1000:.1f} ms "
        f"-> {len(times) / sum(times):.0f} round trips/s sequential"
    )


async def main(count: int, real_bot: bool) -> None:
    server = await DevServer().start()
    discord.http.Route.BASE = server.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(server.gateway_url)
    bot = BenchBot(server.guild_id)
    task = asyncio.create_task(bot.start("bench"))
    await server.wait_for_bot(10, synced=True)
    await round_trips(server, "ping", 10)  # warm-up
    report("text reply", await round_trips(server, "ping", count))
    report("200 KB PNG reply (multipart)", await round_trips(server, "png", count))
    users = list(server.users)
    t0 = time.perf_counter()
    batches = max(1, count // 20)
    for _ in range(batches):
        await asyncio.gather(*(round_trips(server, "ping", 1, users[i % len(users)]) for i in range(20)))
    elapsed = time.perf_counter() - t0
    print(f"20 concurrent users: {batches * 20 / elapsed:.0f} round trips/s")
    print(f"violations: {len(server.violations)}")
    await bot.close()
    task.cancel()
    if real_bot:
        with tempfile.TemporaryDirectory() as tmp:
            proc = BotProcess(server, Path(tmp) / "data", Path(tmp) / "bot.log")
            t0 = time.perf_counter()
            await proc.start()
            print(f"real bot: start to IDENTIFY + synced {time.perf_counter() - t0:.2f} s")
            report("real bot /help", await round_trips(server, "help", min(count, 50)))
            t0 = time.perf_counter()
            await proc.restart()
            print(f"real bot: SIGKILL + restart to ready {time.perf_counter() - t0:.2f} s")
            await proc.stop()
    await server.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--real-bot", action="store_true")
    args = parser.parse_args()
    asyncio.run(main(args.count, args.real_bot))
