"""CONEX finder recall against a dense brute force (issue 14), plus search and ``targets_for`` times.

Run: ``.venv/bin/python bench/bench_finder_recall.py [--policy finder|random] [--jobs 2] [--cache FILE]``.
Prints the figures of BENCHMARKS.md (section "CONEX finder recall"); about 2-5 minutes per run (the brute force).

**Positions.** Two stored sets of 30 positions from ten seeded games each (2-4 seats, medium table, goal 100),
snapshots at 12, 24 and 36 cards on the table, the seat to play then given 5 cards drawn (seeded) from the cards
off the table. ``finder``: games grown by ``first_fit`` with the finder of before issue 14 (how the issue's
positions were made: such tables are what hints and the AI build). ``random``: games grown by a
finder-independent random player (its hand's (card, corner, target) triples in a seeded random order, a uniformly
random legal grid pose of the first one that has any, else a draw). The positions (each table's card poses and the
hand, 44 KB) are stored in ``bench/finder_recall_positions.json``, so they stay the same before and after a finder
change; ``--regrow`` grows a set again (with today's finder for ``finder``).

**Brute force.** For every (hand card, corner, target) pair — targets: the visible main area of every table card
of the corner's colour and that colour's board square (any other target fails P1's colour test) — every corner
position on a 3 mm grid (x and y multiples of 3 mm) and every rotation in 5 degree steps is judged by the real
check (``Table.check_pose``, the code behind ``Game.check``). A cheap vectorised filter that can only drop poses
the check refuses (corner vertices off the target grown by 0.5 mm, the rectangle off the table, the rectangle
within 0.9 mm of something the check forbids) runs first; the survivors go to the real check until one is legal
(and lies on that target). Pairs with a legal grid pose are the denominator. ``--cache`` keeps these verdicts.

**Recall** = share of those pairs for which ``find_placements(player, card, corner, target, limit=1)`` returns a
pose; overall, by table size and by target kind (card / board). Every pose the finder returns is checked too.
**Search time per hand** (run alone, after the brute force) = ``legal_counts`` of the 5-card hand with cold caches
(the full-hand search behind the hand image), best of 3, median / p95 over the positions, wall and CPU.
``targets_for`` (the autocomplete list) is timed per (card, corner) with cold caches.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np
import shapely

from engine.conex import Game, Place
from engine.conex.actions import Discard, Draw, Pass
from engine.conex.ai import first_fit
from engine.conex.deck import CARD_H_MM, CARD_W_MM, Card, Corner
from engine.conex.geometry import LIES_ON_MM, centre_for_corner
from engine.errors import IllegalActionError

POSITIONS_FILE = Path(__file__).resolve().parent / "finder_recall_positions.json"
GRID_MM = 3.0
ROT_STEP_DEG = 5.0
SIZES = (12, 24, 36)
PREFILTER_MM = 0.9  # the check's touch distance is 1 mm: a pose within 0.9 mm is surely refused
Pair = tuple[int, int, int | str]  # (card id, corner index, target)


# --- the brute force ---------------------------------------------------------------------------------------------


def _forbidden(g: Game, target: int | str) -> Any:
    """The union of every visible piece the check forbids a card on ``target`` to touch (P2, P3), prepared."""
    _, pieces, owners = g.board.tree()
    keep = [
        p
        for p, (kind, owner, _) in zip(pieces, owners, strict=True)
        if not (kind == "card" and owner == target) and not (kind == "board" and target == "board")
    ]
    u = shapely.union_all(keep) if keep else shapely.Polygon()
    shapely.prepare(u)
    return u


def _rotate(pts: np.ndarray, rad: np.ndarray) -> np.ndarray:
    """(k, 2) card-local points rotated clockwise as drawn (y down) by each angle: (n, k, 2)."""
    c, s = np.cos(rad)[:, None], np.sin(rad)[:, None]
    return np.stack([pts[None, :, 0] * c - pts[None, :, 1] * s, pts[None, :, 0] * s + pts[None, :, 1] * c], axis=-1)


def grid_survivors(g: Game, card: Card, corner: Corner, target: int | str) -> list[tuple[float, float, float]]:
    """Every grid pose (corner x_mm, y_mm, rotation) of ``corner`` on ``target`` that the cheap necessary filter
    keeps, in grid order (rotation, y, x)."""
    table = g.board
    key = ("card", target) if target != "board" else ("square", corner.color)
    grown = table.grown(key)  # type: ignore[arg-type]
    if grown.is_empty:
        return []
    x0, y0, x1, y1 = grown.bounds
    xs = np.arange(math.ceil(x0 / GRID_MM), math.floor(x1 / GRID_MM) + 1) * GRID_MM
    ys = np.arange(math.ceil(y0 / GRID_MM), math.floor(y1 / GRID_MM) + 1) * GRID_MM
    mx, my = (a.reshape(-1) for a in np.meshgrid(xs, ys))
    on = shapely.contains_xy(grown, mx, my)
    mx, my = mx[on], my[on]
    if not len(mx):
        return []
    rots = np.arange(0.0, 360.0, ROT_STEP_DEG)
    rad = np.radians(rots)
    g_local = np.array(corner.centroid)
    tri = _rotate(np.array(corner.vertices) - g_local, rad)  # (r, 3, 2) relative to the corner centroid
    w, h = CARD_W_MM / 2, CARD_H_MM / 2
    rect = _rotate(np.array([(-w, -h), (w, -h), (w, h), (-w, h)]) - g_local, rad)  # (r, 4, 2)
    px = np.repeat(mx[None, :], len(rots), axis=0).reshape(-1)  # rotation-major order
    py = np.repeat(my[None, :], len(rots), axis=0).reshape(-1)
    ri = np.repeat(np.arange(len(rots)), len(mx))
    tris = tri[ri] + np.stack([px, py], axis=-1)[:, None, :]
    ok = shapely.contains_xy(grown, tris[..., 0], tris[..., 1]).all(axis=1)
    rects = rect[ri[ok]] + np.stack([px[ok], py[ok]], axis=-1)[:, None, :]
    tx0, ty0, tx1, ty1 = table.area.bounds
    inside = (
        (rects[..., 0].min(axis=1) >= tx0 - LIES_ON_MM)
        & (rects[..., 0].max(axis=1) <= tx1 + LIES_ON_MM)
        & (rects[..., 1].min(axis=1) >= ty0 - LIES_ON_MM)
        & (rects[..., 1].max(axis=1) <= ty1 + LIES_ON_MM)
    )
    idx = np.nonzero(ok)[0][inside]
    rects = rects[inside]
    forbidden = _forbidden(g, target)
    if not forbidden.is_empty and len(idx):
        clear = ~shapely.dwithin(forbidden, shapely.polygons(rects), PREFILTER_MM)
        idx = idx[clear]
    return [(float(px[i]), float(py[i]), float(rots[ri[i]])) for i in idx]


def judge(g: Game, card: Card, corner: Corner, target: int | str, pose: tuple[float, float, float]) -> bool:
    """The real check: is this grid pose legal, with its corner on ``target``?"""
    x, y, r = pose
    place = Place(g.current_player, card.id, corner.index, round(x / 10, 1), round(y / 10, 1), r)
    cx, cy = centre_for_corner(corner, place.x_mm, place.y_mm, r)
    try:
        verdict = g.board.check_pose(card, corner.index, cx, cy, r)
    except IllegalActionError:
        return False
    return verdict.target == target


def brute_pose(
    g: Game, card: Card, corner: Corner, target: int | str, rng: random.Random | None = None
) -> tuple[float, float, float] | None:
    """A legal grid pose of ``corner`` on ``target`` (the first in grid order, or a random one with ``rng``)."""
    poses = grid_survivors(g, card, corner, target)
    if rng is not None:
        rng.shuffle(poses)
    for pose in poses:
        if judge(g, card, corner, target, pose):
            return pose
    return None


def pairs_of(g: Game, player: int) -> Iterator[tuple[Card, Corner, int | str]]:
    for cid in g.hands[player]:
        card = g.deck[cid]
        for corner in card.corners:
            for target, _ in g.board.targets_for(corner.color):
                yield card, corner, target


# --- positions ---------------------------------------------------------------------------------------------------


def snapshot(g: Game, seed: int, size: int) -> dict[str, Any]:
    """A position: the table (card, centre x/y mm to 1 um, rotation) and the seat to play with 5 seeded cards from
    those off the table (the rest form the draw pile in id order; other hands are empty)."""
    p = g.current_player
    assert p is not None
    spare = sorted([i for h in g.hands for i in h] + list(g.pile))
    random.Random(f"hand:{seed}:{size}").shuffle(spare)
    return {
        "seed": seed,
        "players": g.num_players,
        "size": size,
        "current": p,
        "hand": spare[:5],
        "scores": list(g.scores),
        "table": [[t.id, round(t.pose[0], 3), round(t.pose[1], 3), round(t.pose[2], 3)] for t in g.table],
    }


def position(snap: dict[str, Any]) -> Game:
    """The ``Game`` of a stored snapshot (a hand-built version-2 state, docs/conex-state.md)."""
    n = snap["players"]
    on_table = {t[0] for t in snap["table"]}
    hands: list[list[int]] = [[] for _ in range(n)]
    hands[snap["current"]] = list(snap["hand"])
    pile = [i for i in range(1, 53) if i not in on_table and i not in snap["hand"]]
    return Game.from_dict(
        {
            "version": 2,
            "game": "conex",
            "setup": {"players": n, "seed": snap["seed"], "table": "medium", "goal": 100},
            "hands": hands,
            "draw_pile": pile,
            "table": [{"card": c, "x_mm": x, "y_mm": y, "rotation": r} for c, x, y, r in snap["table"]],
            "scores": snap["scores"],
            "current_player": snap["current"],
            "turn": len(snap["table"]),
        }
    )


def grow(seed: int, policy: str = "random") -> list[dict[str, Any]]:
    """One seeded game grown by the finder-independent random player (``policy="random"``) or by the finder's
    first pose (``"finder"``, ``first_fit``); its snapshots at ``SIZES`` cards."""
    g = Game.new(players=2 + seed % 3, seed=seed, table="medium", goal=100)
    rng = random.Random(f"grow:{seed}")
    snaps: list[dict[str, Any]] = []
    while len(snaps) < len(SIZES) and not g.is_over:
        for q in sorted(g.pending_discards):
            g.play(Discard(q, sorted(g.hands[q])[0]))
        if len(g.table) == SIZES[len(snaps)]:
            snaps.append(snapshot(g, seed, SIZES[len(snaps)]))
            continue
        p = g.current_player
        assert p is not None
        if policy == "finder":
            g.play(first_fit(g, p))
            continue
        pairs = list(pairs_of(g, p))
        rng.shuffle(pairs)
        action: Any = Draw(p) if g.pile else Pass(p)
        for card, corner, target in pairs[:12]:
            pose = brute_pose(g, card, corner, target, rng)
            if pose is not None:
                action = Place(p, card.id, corner.index, round(pose[0] / 10, 1), round(pose[1] / 10, 1), pose[2])
                break
        g.play(action)
    return snaps


def load_positions(policy: str, regrow: bool, jobs: int) -> list[dict[str, Any]]:
    """The 30 stored positions of one growth policy, in size order (grown and stored first if missing or
    ``regrow``)."""
    stored = json.loads(POSITIONS_FILE.read_text()) if POSITIONS_FILE.exists() else {}
    if policy in stored and not regrow:
        return stored[policy]
    t = time.perf_counter()
    seeds = range(100, 110) if policy == "finder" else range(10)
    with ProcessPoolExecutor(jobs) as ex:
        games = list(ex.map(grow, seeds, [policy] * len(seeds)))
    stored[policy] = [snaps[k] for k in range(len(SIZES)) for snaps in games if len(snaps) > k]
    POSITIONS_FILE.write_text(json.dumps(stored, separators=(",", ":")) + "\n")
    print(f"(grew 10 {policy} games in {time.perf_counter() - t:.0f} s)")
    return stored[policy]


# --- measuring ---------------------------------------------------------------------------------------------------


def clear_caches(g: Game) -> None:
    g.board.cache.clear()
    g.board._grown.clear()


def brute(snap: dict[str, Any]) -> list[dict[str, Any]]:
    """The brute force's verdict for every (hand card, corner, target) pair of one position: a legal grid pose
    (the *witness*) or None."""
    g = position(snap)
    return [
        {"card": card.id, "corner": corner.index, "target": target, "witness": brute_pose(g, card, corner, target)}
        for card, corner, target in pairs_of(g, g.current_player)
    ]


def measure(snap: dict[str, Any], pairs: list[dict[str, Any]]) -> dict[str, Any]:
    """The finder on one position: a pose per pair (each re-checked), then the timings (cold caches)."""
    g = position(snap)
    p = snap["current"]
    for q in pairs:
        found = g.find_placements(p, q["card"], q["corner"], q["target"], limit=1)
        for place in found:
            g.check(place)  # every finder pose must pass the real check (raises otherwise)
        q["found"] = [str(f) for f in found]
    hand_wall, hand_cpu = [], []
    for _ in range(3):
        clear_caches(g)
        t, c = time.perf_counter(), time.process_time()
        g.legal_counts(p)
        hand_wall.append((time.perf_counter() - t) * 1000)
        hand_cpu.append((time.process_time() - c) * 1000)
    tf_times: list[float] = []
    if hasattr(g, "targets_for"):
        for cid in g.hands[p]:
            for corner in g.deck[cid].corners:
                clear_caches(g)
                t = time.perf_counter()
                g.targets_for(p, cid, corner.index)
                tf_times.append((time.perf_counter() - t) * 1000)
    return {
        "seed": snap["seed"],
        "size": snap["size"],
        "cards": len(g.table),
        "pairs": pairs,
        "hand_ms": min(hand_wall),
        "hand_cpu_ms": min(hand_cpu),
        "targets_for_ms": tf_times,
    }


def pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f} % ({a}/{b})" if b else "n/a"


def p95(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, math.ceil(0.95 * len(xs)) - 1)]


def report(results: list[dict[str, Any]]) -> None:
    legal = [(r, q) for r in results for q in r["pairs"] if q["witness"] is not None]
    hit = [(r, q) for r, q in legal if q["found"]]
    extra = sum(1 for r in results for q in r["pairs"] if q["witness"] is None and q["found"])
    n_pairs = sum(len(r["pairs"]) for r in results)
    print(f"pairs searched: {n_pairs}; with a legal grid pose: {len(legal)}; finder found a pose for {len(hit)}")
    print(f"**recall overall: {pct(len(hit), len(legal))}**")
    for size in SIZES:
        a = [x for x in legal if x[0]["size"] == size]
        print(f"- {size} cards on the table: {pct(sum(1 for _, q in a if q['found']), len(a))}")
    for kind in ("card", "board"):
        a = [x for x in legal if (x[1]["target"] == "board") == (kind == "board")]
        print(f"- {kind} targets: {pct(sum(1 for _, q in a if q['found']), len(a))}")
    print(f"(pairs with no legal grid pose where the finder found one anyway: {extra})")
    misses = [
        (r["seed"], r["size"], q["card"], q["corner"], q["target"], q["witness"]) for r, q in legal if not q["found"]
    ]
    for m in misses[:15]:
        print(f"  miss: seed {m[0]} @{m[1]} card {m[2]} c{m[3]} on {m[4]}; witness {m[5]}")
    hw = [r["hand_ms"] for r in results]
    hc = [r["hand_cpu_ms"] for r in results]
    print(
        f"full-hand search (legal_counts, 5 cards, cold, best of 3): wall median {statistics.median(hw):.0f} ms, "
        f"p95 {p95(hw):.0f} ms; CPU median {statistics.median(hc):.0f} ms, p95 {p95(hc):.0f} ms"
    )
    for size in SIZES:
        w = [r["hand_ms"] for r in results if r["size"] == size]
        if not w:
            continue
        print(f"- {size} cards: wall median {statistics.median(w):.0f} ms, max {max(w):.0f} ms")
    tf = [t for r in results for t in r["targets_for_ms"]]
    if tf:
        print(
            f"targets_for per (card, corner), cold: median {statistics.median(tf):.1f} ms, p95 {p95(tf):.1f} ms, "
            f"max {max(tf):.1f} ms ({len(tf)} calls)"
        )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=30, help="how many of the 30 positions to measure")
    ap.add_argument("--jobs", type=int, default=1, help="processes for the brute force (the timings run alone)")
    ap.add_argument("--regrow", action="store_true", help="grow the positions again (rewrites the JSON)")
    ap.add_argument("--policy", choices=("finder", "random"), default="finder", help="which stored position set")
    ap.add_argument("--cache", type=Path, help="read/write the brute force's verdicts here (JSON, ~150 KB)")
    ap.add_argument("--out", type=Path, help="also write the raw results (JSON) here")
    args = ap.parse_args()
    print(f"load average at start: {os.getloadavg()} (2 cores)")
    games = load_positions(args.policy, args.regrow, args.jobs)
    todo = games[: args.positions]
    t = time.perf_counter()
    if args.cache and args.cache.exists():
        verdicts = json.loads(args.cache.read_text())[: len(todo)]
    else:
        with ProcessPoolExecutor(args.jobs) as ex:
            verdicts = list(ex.map(brute, todo))
        if args.cache:
            args.cache.write_text(json.dumps(verdicts))
    print(f"(brute force of {len(todo)} {args.policy}-grown positions: {time.perf_counter() - t:.0f} s)")
    print(f"load average before the finder runs: {os.getloadavg()}")
    results = [measure(snap, pairs) for snap, pairs in zip(todo, verdicts, strict=True)]
    print(f"load average after: {os.getloadavg()}")
    report(results)
    if args.out:
        args.out.write_text(json.dumps(results))


if __name__ == "__main__":
    main()
