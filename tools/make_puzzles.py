"""Generate the shipped Constructo puzzle set, deterministically, into ``engine/data/puzzles_constructo.json``.

Run from the repository: ``python -m tools.make_puzzles --count 90 --seed 1`` (the shipped set; about 15 s with
the compiled core). ``--check`` regenerates in memory and exits 1 if the file differs (same command, same file).
``--out PATH`` writes elsewhere. The generator is :func:`engine.constructo.puzzles.generate` (node budgets only,
so the result does not depend on the machine's speed or load).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

from engine.constructo.puzzle_set import PUZZLES_FILE
from engine.constructo.puzzles import generate


def render(count: int, seed: int) -> str:
    """The set's JSON text: one puzzle per line (diffs stay readable), keys sorted."""
    puzzles = generate(count, seed)
    head = {
        "version": 1,
        "command": f"python -m tools.make_puzzles --count {count} --seed {seed}",
        "count": len(puzzles),
        "seed": seed,
    }
    lines = [
        json.dumps({"id": i, **p.to_dict()}, sort_keys=True, separators=(",", ":"))
        for i, p in enumerate(puzzles, start=1)
    ]
    body = ",\n".join(lines)
    text = json.dumps(head, sort_keys=True)[:-1] + ', "puzzles": [\n' + body + "\n]}\n"
    json.loads(text)  # well-formed
    return text


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=90)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=PUZZLES_FILE)
    ap.add_argument("--check", action="store_true", help="exit 1 if --out differs from a fresh generation")
    args = ap.parse_args(argv)
    start = time.perf_counter()
    text = render(args.count, args.seed)
    took = time.perf_counter() - start
    data = json.loads(text)
    by = Counter(p["difficulty"] for p in data["puzzles"])
    summary = (
        f"{data['count']} puzzles ({', '.join(f'{d} {by[d]}' for d in ('easy', 'medium', 'hard'))}), "
        f"{len(text.encode())} bytes, generated in {took:.1f} s"
    )
    if args.check:
        same = args.out.exists() and args.out.read_text(encoding="utf-8") == text
        print(("same as " if same else "DIFFERS from ") + str(args.out) + ": " + summary)
        return 0 if same else 1
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out}: {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
