"""End-to-end latency under load: N concurrent Constructo games driven through the DevServer against the real
bot process (``python -m bot``, real SQLite, real rendering).

Usage: .venv/bin/python bench/bench_e2e.py [--games 1 50 200] [--moves 8] [--think 3.0] [--burst]

Each game has its own channel (alice vs bob: challenge + Accept, not measured), then ``--moves`` placements with
``/constructo place``. Latency = INTERACTION_CREATE dispatched -> the bot's response carrying the new board image
stored by the server (the deferred response edited with the PNG), measured in the same process as the server.
"Defer" = INTERACTION_CREATE -> the bot's first callback (Discord's 3-s limit). Between a board arriving and its
next move each game waits a think time drawn uniformly from [0.5, 1.5] x ``--think`` s (humans do not answer in
0 ms); ``--burst`` sets it to 0: every game fires its next move the moment its board arrives (a stress test).
Bot CPU = utime + stime from ``/proc/<pid>/stat`` over the run; RSS = ``VmRSS`` / ``VmHWM`` from
``/proc/<pid>/status``. Prints one row per N; record them in BENCHMARKS.md ("End to end").
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from devserver import DevServer
from devserver.models import Channel, fixed_id
from devserver.process import BotProcess
from devserver.result import InteractionResult
from engine.constructo import Match

TOKEN = "bench-e2e-token"
CLK_TCK = os.sysconf("SC_CLK_TCK")


@dataclass
class Figures:
    latencies: list[float] = field(default_factory=list)
    defers: list[float] = field(default_factory=list)
    failed: int = 0
    notes: list[str] = field(default_factory=list)


def cpu_seconds(pid: int) -> float:
    """utime + stime of ``pid`` in seconds (fields 14 and 15 of /proc/<pid>/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def memory_mb(pid: int) -> tuple[float, float]:
    """(VmRSS, VmHWM) of ``pid`` in MB."""
    values = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, rest = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            values[key] = int(rest.split()[0]) / 1024
    return values["VmRSS"], values["VmHWM"]


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


class Tracker:
    """Resolves a future when an interaction's answer satisfies a predicate, checked on every server change
    (``DevServer.notify``) instead of one polling waiter per game: the load generator's own overhead stays
    O(pending) per server change, so it does not inflate the figures at 200 games."""

    def __init__(self, server: DevServer) -> None:
        self.pending: list[tuple[Callable[[], bool], asyncio.Future[float]]] = []
        original = server.notify

        def notify() -> None:
            original()
            now = time.perf_counter()
            still = []
            for pred, fut in self.pending:
                if fut.done():
                    continue
                if pred():
                    fut.set_result(now)
                else:
                    still.append((pred, fut))
            self.pending = still

        server.notify = notify  # type: ignore[method-assign]

    async def until(self, pred: Callable[[], bool], timeout: float) -> float:  # noqa: ASYNC109
        """perf_counter() at the server change that made ``pred`` true."""
        if pred():
            return time.perf_counter()
        fut: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self.pending.append((pred, fut))
        return await asyncio.wait_for(fut, timeout)


def add_players(server: DevServer, channel: Channel) -> tuple[str, str]:
    """Two players of the channel's own (one pending challenge per pair of players: a second is refused)."""
    from devserver.models import User

    names = (f"{channel.name}-a", f"{channel.name}-b")
    for n, name in enumerate(names):
        server.users[name] = User(id=fixed_id(5_000_000 + 2 * channel.id % 1_000_000 + n), name=name)
    return names


async def set_up_game(server: DevServer, channel: Channel, players: tuple[str, str] = ("alice", "bob")) -> None:
    alice, bob = server.as_user(players[0], channel.id), server.as_user(players[1], channel.id)
    res = await (await alice.slash("constructo challenge", opponent=players[1])).wait(60, settle=0)
    if res.failed or res.ephemeral or res.message is None:
        raise RuntimeError(f"challenge in #{channel.name} failed: {res.text!r}")
    res = await (await bob.click(res.message, "Accept")).wait(60, followups=1, settle=0)
    if not res.followups or not res.followups[-1].images:
        raise RuntimeError(f"game in #{channel.name} did not start: {res.text!r}")


async def play_game(
    server: DevServer,
    tracker: Tracker,
    channel: Channel,
    moves: int,
    think: float,
    rng: random.Random,
    figures: Figures,
    players: tuple[str, str] = ("alice", "bob"),
) -> None:
    """``moves`` placements, alternating ``players`` (seat 0 first), each measured."""
    users = [server.as_user(players[0], channel.id), server.as_user(players[1], channel.id)]
    match = Match.new("rombo")
    for n in range(moves):
        if think:
            await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
        legal = [m for m in match.current_round.legal_moves() if m.is_place]
        move = legal[(n * 7) % len(legal)]
        seat = match.current_player
        t0 = time.perf_counter()
        res = await users[seat].slash("constructo place", tile=move.tile, size=move.size.word)  # type: ignore[union-attr]

        def has_image(res: InteractionResult = res) -> bool:
            msg = res.message
            return res.failed or (msg is not None and not msg.loading and bool(msg.images))

        t1 = await tracker.until(has_image, 120)
        figures.latencies.append(t1 - t0)
        it = res.interaction
        if it.responded_at is not None:
            figures.defers.append(it.responded_at - it.created_at)
        if res.failed or res.ephemeral:  # no answer within 3 s (overload) or refused: this game stops here
            figures.failed += 1
            figures.notes.append(f"#{channel.name} {move}: {'no answer in 3 s' if res.failed else res.text[:80]}")
            return
        match.play(move, player=seat)


async def run(counts: list[int], moves: int, think: float, seed: int) -> None:
    server = DevServer(token=TOKEN)
    channels: list[list[Channel]] = []
    next_id = 1000
    for count in counts:  # fresh channels per run: one open game per channel
        group = []
        for i in range(count):
            ch = Channel(id=fixed_id(next_id), name=f"bench-{count}-{i}", guild_id=server.guild_id, position=next_id)
            server.channels[ch.id] = ch
            group.append(ch)
            next_id += 1
        channels.append(group)
    pairs = {ch.id: add_players(server, ch) for group in channels for ch in group}
    await server.start()
    tracker = Tracker(server)
    with tempfile.TemporaryDirectory() as tmp:
        proc = BotProcess(server, Path(tmp) / "data", Path(tmp) / "bot.log", token=TOKEN)
        await proc.start()
        assert proc.proc is not None
        pid = proc.proc.pid
        print(
            f"bot pid {pid}; {moves} placements per game; think time "
            f"{'0 (burst)' if not think else f'{think:.1f} s mean'}; RSS at start {memory_mb(pid)[0]:.0f} MB"
        )
        print(
            "| games | moves | p50 ms | p95 ms | p99 ms | max ms | defer p99 ms | failed | bot CPU s | "
            "CPU % of a core | RSS MB | peak RSS MB | moves/s | violations | server+driver CPU % |"
        )
        print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        try:
            for count, group in zip(counts, channels, strict=True):
                sem = asyncio.Semaphore(25)

                async def setup(ch: Channel, sem: asyncio.Semaphore = sem) -> None:
                    async with sem:
                        await set_up_game(server, ch, pairs[ch.id])

                await asyncio.gather(*(setup(ch) for ch in group))
                violations = len(server.violations)
                figures = Figures()
                rng = random.Random(seed + count)
                cpu0, t0, own0 = cpu_seconds(pid), time.perf_counter(), time.process_time()
                await asyncio.gather(
                    *(
                        play_game(server, tracker, ch, moves, think, random.Random(rng.random()), figures, pairs[ch.id])
                        for ch in group
                    )
                )
                wall = time.perf_counter() - t0
                cpu = cpu_seconds(pid) - cpu0
                own = time.process_time() - own0
                rss, peak = memory_mb(pid)
                lat = [x * 1000 for x in figures.latencies]
                defers = [x * 1000 for x in figures.defers]
                print(
                    f"| {count} | {len(lat)} | {statistics.median(lat):.0f} | {pct(lat, 95):.0f} | "
                    f"{pct(lat, 99):.0f} | {max(lat):.0f} | {pct(defers, 99):.0f} | {figures.failed} | {cpu:.1f} | "
                    f"{100 * cpu / wall:.0f} | {rss:.0f} | {peak:.0f} | {len(lat) / wall:.1f} | "
                    f"{len(server.violations) - violations} | {100 * own / wall:.0f} |",
                    flush=True,
                )
                for note in figures.notes[:3]:
                    print(f"  failed: {note}", file=sys.stderr)
                kinds = Counter(v.kind for v in server.violations[violations:])
                if kinds:
                    print(f"  violations: {dict(kinds)}", file=sys.stderr)
                if os.environ.get("BENCH_LOG"):
                    print(proc.log(int(os.environ["BENCH_LOG"])), file=sys.stderr)
        finally:
            await proc.stop()
            await server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, nargs="+", default=[1, 50, 200])
    parser.add_argument("--moves", type=int, default=8, help="placements per game (at most 8: round 1 stays open)")
    parser.add_argument("--think", type=float, default=3.0, help="mean think time between moves of a game, s")
    parser.add_argument("--burst", action="store_true", help="no think time: every game moves as fast as it can")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    asyncio.run(run(args.games, min(args.moves, 8), 0.0 if args.burst else args.think, args.seed))


if __name__ == "__main__":
    main()
