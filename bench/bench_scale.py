"""Scale out (issue 15): the same load against three deployments, in one run.

Usage: .venv/bin/python bench/bench_scale.py [--games 100 200 300 400] [--moves 8] [--think 3.0]
                                             [--setups threads pool shards] [--pg postgresql://...]

Setups (each a fresh bot, fresh database, fresh channels for every step of ``--games``):

- ``threads``: 1 process, SQLite, ``CPU_WORKERS=0`` (CPU work in threads of the bot's process, as before issue 15);
- ``pool``: 1 process, SQLite, the process pools (``CPU_WORKERS``/``AI_WORKERS`` at their defaults: the cores);
- ``shards``: 2 processes (``SHARD_COUNT=2``, one shard each, ``CPU_WORKERS=1`` each, or
  ``$BENCH_SHARD_CPU_WORKERS``: the bot's own default would be the cores) on one PostgreSQL database
  (a fresh schema of ``--pg``, default ``TEST_DATABASE_URL`` or ``postgresql://postgres@127.0.0.1:5432/test``),
  the games spread over a guild of each shard.

The load is ``bench_e2e``'s: N Constructo games at once, one channel each (challenge + Accept, not measured),
``--moves`` placements per game with a think time uniform in [0.5, 1.5] x ``--think`` s. Latency = the
interaction dispatched -> its response carrying the new board PNG; "first" = the bot's first response to the
interaction (Discord's 3-s rule; "late" counts those over 3 s and the unanswered). "held" = p99 < 1 s and no late
first response. Global-limited requests = REST calls outside the interaction endpoints (the local server's
``request_counts``), per placement. CPU = utime + stime of the bot processes **and their workers** (every
descendant, ``/proc``); memory = PSS of the same processes (``smaps_rollup``; shared pages counted once).
For ``shards``, the PostgreSQL server's CPU per placement is printed under the row (every ``postgres`` process of
the machine: run it where no other database work goes on).
``--ai-games K``: K more channels where carol plays the **hard** AI without pause (each of her moves answered by
a search in the background lane) during every step: the humans' figures must not suffer (issue 15.1: "no number
of AI games may delay anyone's first response"); "AI moves" counts the AI's answers meanwhile.

The outbox (issue 20): every bot process runs with a ``HEALTH_PORT`` of its own; ``/metrics`` is scraped at each
step's start and end and every 2 s between (``scale_metrics.OutboxProbe``). A second table per run gives, per
(setup, N): effects settled per second (inline + done, over the step's wall time), the share done by outbox workers,
the workers' lag p50 / p99 (bounds from the histogram's buckets) and mean, the max of ``tablebot_effects_pending``
(summed over processes) and of ``tablebot_effect_oldest_age_seconds``, and any effect settled otherwise (later,
failed, dropped).
Prints one Markdown row per (setup, N) and the ``uptime`` load average; record them in BENCHMARKS.md.
``DUMP_METRICS=PREFIX`` keeps each process's last ``/metrics`` text of a step in ``PREFIX.<port>`` (storage, board
and first-response histograms: where a placement's time goes, ``scale_metrics.DUMP``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_e2e import CLK_TCK, Figures, Tracker, add_players, pct, play_game, set_up_game
from scale_metrics import OutboxProbe, free_port

from devserver import DevServer
from devserver.models import Channel, fixed_id
from devserver.process import BotProcess
from tests.storage.conftest import create_schema, drop_schema, with_schema

TOKEN = "bench-scale-token"
DEFAULT_PG = os.environ.get("TEST_DATABASE_URL", "").strip() or "postgresql://postgres@127.0.0.1:5432/test"


def tree(pids: list[int]) -> list[int]:
    """``pids`` and all their descendants (workers, the forkserver)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], list(pids)
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children.get(pid, []))
    return out


def cpu_of(pids: list[int], *, workers: bool = True) -> float:
    total = 0.0
    for pid in tree(pids) if workers else pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / CLK_TCK
    return total


def postgres_cpu() -> float:
    """CPU seconds (utime + stime) of every live process named ``postgres`` on this machine: the database server of
    the shards setup, whose work per placement is not in the bot processes' figure (on a machine of its own, all of
    it is the bench's; a backend that exits during the step takes its seconds with it)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if (entry / "comm").read_text().strip() != "postgres":
                continue
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / CLK_TCK
    return total


def pss_mb(pids: list[int]) -> float:
    total = 0
    for pid in tree(pids):
        try:
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


def load_average() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip().split("load average:")[-1].strip()


def latest_board(server: DevServer, channel: Channel) -> tuple[int, object, dict[str, object]] | None:
    """(version, message, select) of the newest public board in ``channel`` with a live placement select."""
    for msg in reversed(server.messages(channel)):
        if msg.ephemeral:
            continue
        sel = next(
            (c for c in msg.buttons() if c.get("type") == 3 and str(c.get("custom_id", "")).startswith("cx:pl:")), None
        )
        if sel is not None:
            return int(str(sel["custom_id"]).split(":")[3]), msg, sel
    return None


async def ai_opponent(
    server: DevServer, channel: Channel, stop: asyncio.Event, counter: list[int], player: str
) -> None:
    """``player`` against the hard AI in ``channel``, moving the moment the AI's board is out, until ``stop``."""
    carol = server.as_user(player, channel.id)
    while not stop.is_set():
        res = await (await carol.slash("constructo challenge", opponent="bot", level="hard")).wait(60, settle=0)
        if res.failed or res.ephemeral:
            return
        acted = -1
        while not stop.is_set():
            found = latest_board(server, channel)
            if found is None:
                await asyncio.sleep(0.2)
                continue
            version, msg, sel = found
            if version <= acted:
                await asyncio.sleep(0.2)  # the AI is thinking
                continue
            options = sel["options"]  # type: ignore[index]
            if not options:
                break
            acted = version
            played = await (await carol.select(msg, options[0]["value"], custom_id=str(sel["custom_id"]))).wait(
                60, settle=0
            )
            if played.ephemeral:  # the round or the match is over (or a refusal): start a new game
                break
            counter[0] += 1
        if not stop.is_set():
            await (await carol.slash("abort")).wait(30, settle=0)


async def run_setup(
    name: str,
    counts: list[int],
    moves: int,
    think: float,
    seed: int,
    pg: str,
    ai_games: int = 0,
    outbox_rows: list[str] | None = None,
) -> None:
    outbox_rows = [] if outbox_rows is None else outbox_rows
    server = DevServer(token=TOKEN)
    shards = name == "shards"
    guild_ids = [server.guild_id]
    if shards:
        guild_ids = [server.add_guild(f"bench-shard-{i}", shard=(i, 2)).id for i in range(2)]
    channels: list[list[Channel]] = []
    next_id = 1000
    for count in counts:
        group = []
        for i in range(count):
            ch = Channel(
                id=fixed_id(next_id),
                name=f"bench-{count}-{i}",
                guild_id=guild_ids[i % len(guild_ids)],
                position=next_id,
            )
            server.channels[ch.id] = ch
            group.append(ch)
            next_id += 1
        channels.append(group)
    ai_channels = []
    for i in range(ai_games):
        ch = Channel(id=fixed_id(next_id), name=f"ai-{i}", guild_id=guild_ids[i % len(guild_ids)], position=next_id)
        server.channels[ch.id] = ch
        ai_channels.append(ch)
        next_id += 1
    pairs = {ch.id: add_players(server, ch) for ch in [*(c for g in channels for c in g), *ai_channels]}
    await server.start()
    tracker = Tracker(server)
    schema = None
    with tempfile.TemporaryDirectory() as tmp:
        env: dict[str, str] = {"LOG_LEVEL": "WARNING", "HEALTH_HOST": "127.0.0.1"}
        if name == "threads":
            env["CPU_WORKERS"] = "0"
        procs: list[BotProcess] = []
        ports = [free_port() for _ in range(2 if shards else 1)]
        if shards:
            schema = await create_schema(pg)
            url = with_schema(pg, schema)
            workers = os.environ.get("BENCH_SHARD_CPU_WORKERS", "1")
            env.update({"DATABASE_URL": url, "DEV_GUILD_ID": "", "CPU_WORKERS": workers, "AI_WORKERS": "1"})
            procs = [
                BotProcess(
                    server,
                    Path(tmp) / f"data{i}",
                    Path(tmp) / f"bot{i}.log",
                    token=TOKEN,
                    extra_env={**env, "HEALTH_PORT": str(ports[i])},
                    shards=([i], 2),
                )
                for i in range(2)
            ]
        else:
            procs = [
                BotProcess(
                    server,
                    Path(tmp) / "data",
                    Path(tmp) / "bot.log",
                    token=TOKEN,
                    extra_env={**env, "HEALTH_PORT": str(ports[0])},
                )
            ]
        probe = OutboxProbe(ports)
        try:
            await probe.__aenter__()
            for proc in procs:
                await proc.start()
            await asyncio.sleep(3)  # the CPU workers warm up
            pids = [p.proc.pid for p in procs if p.proc is not None]
            idle = pss_mb(pids)
            print(
                f"\n{name}: {len(procs)} process(es), {len(tree(pids))} with workers, PSS at start {idle:.0f} MB; "
                f"load average {load_average()}"
            )
            for count, group in zip(counts, channels, strict=True):
                sem = asyncio.Semaphore(25)

                unstarted: list[Channel] = []

                async def setup(
                    ch: Channel, sem: asyncio.Semaphore = sem, unstarted: list[Channel] = unstarted
                ) -> None:
                    async with sem:
                        try:
                            await set_up_game(server, ch, pairs[ch.id])
                        except Exception as err:  # an overloaded setup: this channel sits the step out
                            unstarted.append(ch)
                            print(f"  not started: #{ch.name}: {err}", file=sys.stderr)

                await asyncio.sleep(5)  # the previous step's stragglers settle
                await asyncio.gather(*(setup(ch) for ch in group))
                group = [ch for ch in group if ch not in unstarted]
                violations = len(server.violations)
                before = server.request_counts()
                figures = Figures()
                rng = random.Random(seed + count)
                stop, ai_moves = asyncio.Event(), [0]
                ai_tasks = [
                    asyncio.create_task(ai_opponent(server, ch, stop, ai_moves, pairs[ch.id][0])) for ch in ai_channels
                ]
                await probe.begin()
                cpu0, main0, pg0 = cpu_of(pids), cpu_of(pids, workers=False), postgres_cpu()
                t0, own0 = time.perf_counter(), time.process_time()
                await asyncio.gather(
                    *(
                        play_game(server, tracker, ch, moves, think, random.Random(rng.random()), figures, pairs[ch.id])
                        for ch in group
                    )
                )
                wall = time.perf_counter() - t0
                outbox = await probe.end()
                drained = await probe.drain_time(30.0)
                stop.set()
                for task in ai_tasks:
                    task.cancel()
                await asyncio.gather(*ai_tasks, return_exceptions=True)
                cpu = cpu_of(pids) - cpu0
                main_cpu = cpu_of(pids, workers=False) - main0
                pg_cpu = postgres_cpu() - pg0
                own = time.process_time() - own0
                spent = server.request_counts() - before
                mem = pss_mb(pids)
                lat = [x * 1000 for x in figures.latencies]
                firsts = [x * 1000 for x in figures.defers]
                late = sum(1 for x in firsts if x > 3000) + figures.failed
                held = "yes" if pct(lat, 99) < 1000 and late == 0 else "no"
                kinds = Counter(v.kind for v in server.violations[violations:])
                load1 = load_average().split(",")[0]
                label = f"{name} + {ai_games} hard AI games ({ai_moves[0]} AI moves)" if ai_games else name
                if unstarted:
                    label += f" ({len(unstarted)} games could not start)"
                print(
                    f"| {label} | {count} | {load1} | {len(lat)} | {statistics.median(lat):.0f} | "
                    f"{pct(lat, 99):.0f} | {pct(firsts, 99):.0f} | {late} | **{held}** | "
                    f"{spent.global_limited / max(1, len(lat)):.3f} | {100 * cpu / wall:.0f} | "
                    f"{1000 * cpu / max(1, len(lat)):.1f} ({1000 * main_cpu / max(1, len(lat)):.1f}) | "
                    f"{mem:.0f} | {100 * (mem - idle) / count:.0f} | "
                    f"{len(lat) / wall:.1f} | {dict(kinds) or 0} | {100 * own / wall:.0f} |",
                    flush=True,
                )
                outbox_rows.append(
                    f"| {label} | {count} | {load1} | {' | '.join(outbox.cells(wall))} | "
                    f"{'> 30' if drained is None else f'{drained:.1f}'} | "
                    f"{outbox.scrapes} ({outbox.failed_scrapes} failed) |"
                )
                print(f"  outbox: {outbox_rows[-1]}", flush=True)
                if shards:
                    print(
                        f"  postgres server CPU: {1000 * pg_cpu / max(1, len(lat)):.1f} ms per placement "
                        f"({100 * pg_cpu / wall:.0f} % of a core), not in the CPU columns above",
                        flush=True,
                    )
                print(
                    f"  outbox by kind/result: {dict(sorted((k, int(v)) for k, v in outbox.by_kind.items() if v))}",
                    flush=True,
                )
                print(f"  REST calls by route: {dict(spent.by_route.most_common(8))}", file=sys.stderr)
                for note in figures.notes[:3]:
                    print(f"  failed: {note}", file=sys.stderr)
        finally:
            await probe.__aexit__(None, None, None)
            for proc in procs:
                await proc.stop()
            await server.stop()
            if schema is not None:
                await drop_schema(pg, schema)


async def run(
    setups: list[str], counts: list[int], moves: int, think: float, seed: int, pg: str, ai_games: int = 0
) -> None:
    print(f"{moves} placements per game, think time {think:.1f} s mean; {os.cpu_count()} cores")
    print(
        "| setup | games | load 1 min | moves | p50 ms | p99 ms | first p99 ms | late firsts | held | "
        "global-limited req/move | CPU % of a core | CPU ms/move (bot processes alone) | PSS MB | "
        "PSS MB per 100 games | moves/s | "
        "violations | driver CPU % |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---|---:|")
    outbox_rows: list[str] = []
    for name in setups:
        await run_setup(name, counts, moves, think, seed, pg, ai_games, outbox_rows)
    print("\nOutbox (issue 20), from /metrics:")
    print(
        "| setup | games | load 1 min | effects settled/s (inline + done) | done by workers | worker lag p50 / p99 | "
        "max pending | max oldest age s | other results | all done s after the step | scrapes |"
    )
    print("|---|---:|---:|---:|---:|---|---:|---:|---|---:|---:|")
    print("\n".join(outbox_rows))
    print(f"load average at the end: {load_average()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, nargs="+", default=[100, 200, 300, 400])
    parser.add_argument("--moves", type=int, default=8)
    parser.add_argument("--think", type=float, default=3.0)
    parser.add_argument(
        "--setups", nargs="+", default=["threads", "pool", "shards"], choices=["threads", "pool", "shards"]
    )
    parser.add_argument("--pg", default=DEFAULT_PG)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ai-games", type=int, default=0, help="channels where carol plays the hard AI meanwhile")
    args = parser.parse_args()
    asyncio.run(run(args.setups, args.games, min(args.moves, 8), args.think, args.seed, args.pg, args.ai_games))


if __name__ == "__main__":
    main()
