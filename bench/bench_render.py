"""Render benchmark: time (render + PNG encode) and PNG size of the images the bot sends after every turn.

Cases: an empty and a full Constructo board; CONEX tables with 3, 10, 30 and 52 cards (the stored real game
tests/render/data/conex_52.json, cut to its first n cards), the zoomed table, ghosts, the hint tiles, a table
whose names need the fallback fonts (CJK, Cyrillic, emoji) and a hand.
Targets on the project machine (2 cores): board < 40 ms, full table < 150 ms.

Run: ``.venv/bin/python bench/bench_render.py`` (prints a Markdown table; figures go to BENCHMARKS.md, "Render").
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.conex import Game  # noqa: E402
from engine.conex.sample import first_fit_game  # noqa: E402
from engine.constructo import Match, Round  # noqa: E402
from render import to_png  # noqa: E402
from render.conex import render_hand, render_hints, render_table  # noqa: E402
from render.constructo import render_board  # noqa: E402

FIXTURE = ROOT / "tests" / "render" / "data" / "conex_52.json"
NAMES3 = ("Alice", "Bob", "Cara")


def conex_with(n: int) -> Game:
    """The stored 52-card game with only its first ``n`` table cards (the others go to the draw pile)."""
    d: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    rest = [t["card"] for t in d["table"][n:]]
    d["table"] = d["table"][:n]
    d["draw_pile"] = list(d["draw_pile"]) + rest
    if n < 52:
        d["end_reason"] = d["outcome"] = None
        d["current_player"] = 0
    return Game.from_dict(d)


def early_game(n: int) -> Game:
    """A fresh 3-player game (seed 11) after ``n`` first-fit poses (``engine.conex.sample``; hands full)."""
    return first_fit_game(n)


def full_constructo() -> Match:
    rnd = Round("rombo")
    while not rnd.is_over:
        rnd.play(rnd.legal_moves()[0])
    return Match(0, [rnd])


def measure(fn: Callable[[], Any], repeat: int = 15) -> tuple[float, float, float, int]:
    """(median wall ms, best wall ms, median CPU ms, PNG bytes) of ``to_png(fn())`` after one warm-up call.

    CPU time (``time.process_time``) is reported too because other jobs share the 2 cores: it is what the
    render costs, wall time is what it took under that load.
    """
    png = to_png(fn())
    walls, cpus = [], []
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        png = to_png(fn())
        walls.append((time.perf_counter() - t0) * 1000)
        cpus.append((time.process_time() - c0) * 1000)
    return statistics.median(walls), min(walls), statistics.median(cpus), len(png)


def main() -> None:
    cases: list[tuple[str, Callable[[], Any], str]] = []
    empty = Match.new("rombo")
    full = full_constructo()
    cases.append(("Constructo board, empty (rombo)", lambda: render_board(empty, names=("Alice", "Bob")), "< 40 ms"))
    cases.append(("Constructo board, full (rombo)", lambda: render_board(full, names=("Alice", "Bob")), "< 40 ms"))
    for n in (3, 10, 30, 52):  # the default view fits the region in play (whole table from about 30 cards)
        g = conex_with(n)
        cases.append(
            (f"CONEX table, {n} cards", lambda g=g: render_table(g, names=NAMES3), "< 150 ms" if n == 52 else "")
        )
    g52 = conex_with(52)
    cases.append(("CONEX table, 52 cards, zoom last", lambda: render_table(g52, names=NAMES3, zoom="last"), ""))
    g10 = conex_with(10)
    early = early_game(6)
    seat = early.current_player
    hints = [pl for c in early.hand(seat) for pl in early.find_placements(seat, c.id, limit=3)][:9]
    cases.append(
        (f"CONEX table with {len(hints)} ghosts, 6 cards", lambda: render_table(early, names=NAMES3, ghosts=hints), "")
    )
    cases.append((f"CONEX hint tiles, {len(hints)} hints", lambda: render_hints(early, hints), ""))
    names4 = (
        "Maximiliano Alejandro Gutiérrez1",
        "Александра Владимировна Петрова!",
        "山田太郎" * 8,
        "🦄🦄 Unicorn Rainbow Sparkle 🌈✨ ok",
    )
    cases.append(("CONEX table, 52 cards, 32-char names in 4 scripts", lambda: render_table(g52, names=names4), ""))
    cases.append(("CONEX table, 10 cards, zoom table", lambda: render_table(g10, names=NAMES3, zoom="table"), ""))
    g30 = conex_with(30)
    cases.append(("CONEX hand, 5 cards", lambda: render_hand(g30, 0), ""))
    print("| image | median ms | best ms | median CPU ms | PNG KB | target |")
    print("|---|---:|---:|---:|---:|---|")
    for label, fn, target in cases:
        med, best, cpu, size = measure(fn)
        print(f"| {label} | {med:.1f} | {best:.1f} | {cpu:.1f} | {size / 1024:.0f} | {target} |")


if __name__ == "__main__":
    main()
