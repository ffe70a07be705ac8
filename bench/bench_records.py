"""Game records through the bot's service (``bot.services.records.Records``, issue 16): what a Replay click costs the
first time (export + render off the loop through the CPU seam) and after (the in-memory cache), that simultaneous
requests for one game share one render, the size of what is attached, and the Constructo analysis of a whole match
(``bot.games.constructo.analysis.analyse_match``, the engine's default node budget).

Games: the longest two-round Constructo match of ``--seeds`` random matches and the longest CONEX games of
``bench/bench_replay.py`` (``first_fit`` to the end, goal 100, 2 and 4 seats).

Run: ``.venv/bin/python bench/bench_records.py [--seeds 300]`` (prints a Markdown table and the load average; figures
go to BENCHMARKS.md, "Game records through the bot").
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_replay import NAMES, conex_game, constructo_longest  # noqa: E402

from bot.core.envelope import Envelope, Seat  # noqa: E402
from bot.core.kind import Snapshot  # noqa: E402
from bot.core.registry import kinds  # noqa: E402
from bot.games.constructo.analysis import analyse_match  # noqa: E402
from bot.services.records import Records, record_json, record_of  # noqa: E402
from bot.storage.records import GameRecord  # noqa: E402


class _Layer:
    """What ``Records`` uses of the game layer: the CPU seam (a worker thread, as in the bot today)."""

    storage = None
    kinds: dict[str, Any] = {}

    async def cpu(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        return await asyncio.to_thread(fn, *args, **kwargs)

    cpu_background = cpu  # the replay's lane (a thread here too)


def snapshot(game_id: int, state: Any) -> Snapshot:
    now = datetime.now(UTC)
    seats = tuple(Seat.of(n) for n in NAMES[: state.num_players])
    record = GameRecord(
        game_id,
        state.game,
        1,
        1,
        "finished",
        {},
        len(state.history),
        list(range(1, len(seats) + 1)),
        {},
        now,
        now,
        finished_at=now,
    )
    return Snapshot(kinds()[state.game], record, Envelope(engine=state.to_dict(), seats=seats), state)


async def measure(label: str, snap: Snapshot) -> dict[str, Any]:
    records = Records(_Layer())  # type: ignore[arg-type]
    t0, c0 = time.perf_counter(), time.process_time()
    gifs = await asyncio.gather(*(records.replay(snap) for _ in range(4)))  # four clicks at once
    first, cpu = time.perf_counter() - t0, time.process_time() - c0
    t1 = time.perf_counter()
    await records.replay(snap)
    hit = time.perf_counter() - t1
    assert records.renders == 1 and len({len(g) for g in gifs}) == 1
    return {
        "case": label,
        "actions": len(snap.require_state().history),
        "first_s": first,
        "cpu_s": cpu,
        "hit_ms": hit * 1000,
        "renders": records.renders,
        "gif_kb": len(gifs[0]) / 1024,
        "json_kb": len(record_json(record_of(snap))) / 1024,
    }


async def run(seeds: int) -> None:
    match = constructo_longest(seeds)
    rows = [await measure("Constructo, longest 2-round match", snapshot(1, match))]
    for players in (2, 4):
        game = max((conex_game(players, s, ai=False, budget=0.0) for s in range(3)), key=lambda g: len(g.history))
        rows.append(await measure(f"CONEX {players} seats, first_fit to the end", snapshot(1 + players, game)))
    print("| case | actions | 4 simultaneous clicks: wall s | CPU s | renders | cache hit ms | GIF KB | JSON KB |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r['case']} | {r['actions']} | {r['first_s']:.2f} | {r['cpu_s']:.2f} | {r['renders']} | "
            f"{r['hit_ms']:.3f} | {r['gif_kb']:.0f} | {r['json_kb']:.1f} |"
        )
    t0 = time.perf_counter()
    rounds = analyse_match(match, None)
    spent = time.perf_counter() - t0
    exact = sum(m["exact"] for r in rounds for m in r["moves"])
    moves = sum(len(r["moves"]) for r in rounds)
    print(f"\nanalysis of the match ({len(rounds)} rounds, {moves} moves, {exact} with exact values): {spent:.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=300, help="random Constructo matches to pick the longest from")
    asyncio.run(run(parser.parse_args().seeds))
    print("load average:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())


if __name__ == "__main__":
    main()
