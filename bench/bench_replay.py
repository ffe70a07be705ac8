"""Replay benchmark: render time and GIF size of the animated replays (render.replay.render_replay) of the longest
games, plus the record's JSON size and the move list.

Cases: the longest two-round Constructo match of 300 random seeds (random layouts); CONEX games
with 2, 3 and 4 seats played to the end (goal 100, so the whole deck can come out) by ``engine.conex.ai.first_fit``
(default) or by the AI (``--ai``: ``choose_action`` with ``--budget`` seconds a move), the longest of ``--seeds``
seeds per seat count; and a stress game (4 seats, lightning whenever usable, 35 % timeouts: the most actions).
Each replay is rendered ``--runs`` times in this process (one core); the figures are the
median wall and CPU seconds.

Run: ``.venv/bin/python bench/bench_replay.py [--ai] [--seeds 4] [--runs 2]`` (prints a Markdown table and the
``uptime`` load average; figures go to BENCHMARKS.md, "Replays").
"""

from __future__ import annotations

import argparse
import io
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from engine.conex import Discard, Game, Lightning, Timeout  # noqa: E402
from engine.conex.ai import choose_action, first_fit  # noqa: E402
from engine.constructo import LAYOUTS, ChooseLayout, Match  # noqa: E402
from engine.record import export_record  # noqa: E402
from render.conex_replay import REPLAY as CONEX_REPLAY  # noqa: E402
from render.constructo_replay import REPLAY as CONSTRUCTO_REPLAY  # noqa: E402
from render.replay import render_replay  # noqa: E402
from render.replay_moves import move_list_pages  # noqa: E402

NAMES = ["Alice", "Bob", "Carol", "Dave"]


def constructo_longest(seeds: int = 300) -> Match:
    """The longest random two-round match (round 2 on another layout) of ``seeds`` seeds."""
    best: Match | None = None
    for seed in range(seeds):
        rng = random.Random(seed)
        m = Match.new({"layout": rng.choice(sorted(LAYOUTS)), "first": seed % 2})
        while not m.is_over:
            seat = m.current_player
            assert seat is not None
            if m.phase == "choosing_layout":
                m.apply(ChooseLayout(seat, LAYOUTS[rng.choice(sorted(LAYOUTS))]))
            else:
                m.apply(rng.choice(m.legal_actions(seat)))
        if best is None or len(m.history) > len(best.history):
            best = m
    assert best is not None
    return best


def conex_game(players: int, seed: int, ai: bool, budget: float) -> Game:
    """A game played to the end by first_fit (discards: the first card) or by the AI for every seat."""
    g = Game.new(players=players, seed=seed, goal=100)
    while not g.is_over:
        owing = sorted(g.pending_discards)
        seat = owing[0] if owing else g.to_play
        if ai:
            g.apply(choose_action(g, seat, seed=seed, budget_s=budget))
        elif owing:
            g.apply(Discard(seat, g.hands[seat][0]))
        else:
            g.apply(first_fit(g, seat))
    return g


def conex_stress(seed: int) -> Game:
    """A long 4-seat game (goal 100): first_fit, lightning whenever usable, and 35 % of actions a timeout of an
    awaited seat (a skipped turn draws, a random discard; nobody forfeits): many actions leave the table as it is."""
    rng = random.Random(seed)
    g = Game.new(players=4, seed=seed, goal=100, timeout_forfeit=1000)
    while not g.is_over:
        owing = sorted(g.pending_discards)
        if rng.random() < 0.35:
            g.apply(Timeout(rng.choice(g.awaiting())))
        elif owing:
            g.apply(Discard(owing[0], rng.choice(g.hands[owing[0]])))
        elif g.can_lightning(g.to_play) and g.board.free_ids():
            g.apply(Lightning(g.to_play, rng.choice(g.board.free_ids())))
        else:
            g.apply(first_fit(g, g.to_play))
    return g


def measure(label: str, state: Any, runs: int) -> dict[str, Any]:
    rec = json.loads(json.dumps(export_record(state, names=NAMES[: state.num_players])))
    renderer = CONEX_REPLAY if isinstance(state, Game) else CONSTRUCTO_REPLAY
    walls, cpus, data = [], [], b""
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        data = render_replay(rec, renderer)
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    im = Image.open(io.BytesIO(data))
    return {
        "case": label,
        "actions": len(rec["history"]),
        "frames": im.n_frames,
        "size": f"{im.width}x{im.height}",
        "gif_kb": round(len(data) / 1024),
        "wall_s": statistics.median(walls),
        "cpu_s": statistics.median(cpus),
        "json_kb": round(len(json.dumps(rec)) / 1024, 1),
        "pages": len(move_list_pages(rec, renderer)),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ai", action="store_true", help="CONEX games played by the AI instead of first_fit")
    ap.add_argument("--budget", type=float, default=0.3, help="AI seconds per move (with --ai)")
    ap.add_argument("--seeds", type=int, default=4, help="CONEX seeds per seat count (the longest game is kept)")
    ap.add_argument("--runs", type=int, default=2, help="renders per case (median)")
    args = ap.parse_args()
    rows = [measure("Constructo, longest random 2-round match of 300", constructo_longest(), args.runs)]
    policy = f"AI {args.budget} s/move" if args.ai else "first_fit"
    for players in (2, 3, 4):
        games = [conex_game(players, seed, args.ai, args.budget) for seed in range(args.seeds)]
        g = max(games, key=lambda x: len(x.history))
        label = f"CONEX {players} seats, goal 100, {policy}, longest of {args.seeds} ({len(g.table)} cards on table)"
        rows.append(measure(label, g, args.runs))
    g = max((conex_stress(seed) for seed in range(args.seeds)), key=lambda x: len(x.history))
    rows.append(
        measure(
            f"CONEX 4 seats, goal 100, first_fit + lightning + 35 % timeouts, longest of {args.seeds}", g, args.runs
        )
    )
    print("| case | actions | frames | frame px | GIF KB | wall s | CPU s | record JSON KB | move list messages |")
    print("|---|---:|---:|---|---:|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r['case']} | {r['actions']} | {r['frames']} | {r['size']} | {r['gif_kb']} | {r['wall_s']:.2f} | "
            f"{r['cpu_s']:.2f} | {r['json_kb']} | {r['pages']} |"
        )
    print()
    print("uptime:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())


if __name__ == "__main__":
    main()
