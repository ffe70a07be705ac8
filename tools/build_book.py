"""Build the ``perfect`` level's opening book (``engine/data/constructo_book.json``, see engine/constructo/book.py).

Usage::

    python -m tools.build_book corona:3 flor:2 [--out PATH] [--tt-bits 22]

Each ``layout:plies`` item solves, for that recommended layout, every position the ``perfect`` player can face
in the first ``plies`` plies of a round against ANY opponent, whichever player it is: the empty board (it
starts), every first action of the opponent (it answers), and so on, following only the book's own (proven
best) actions for the ``perfect`` side; positions are merged up to symmetry. Each position is proven with the
compiled core's exact MTD(f) search (one transposition table shared by the whole layout, so later proofs reuse
earlier ones). A layout already in the file is replaced; the others are kept, so layouts can be built in
separate runs. Deterministic: the same command writes the same file.

The cost grows fast with ``plies`` (the empty board alone: corona 38.6 M nodes, flor 254 M, rombo 1,114 M,
cinta 975 M); BENCHMARKS.md ("Perfect Constructo level") has the measured times of the shipped book and the
estimate of a deeper one. Prints one line per proven position to stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from engine.constructo import core as _core
from engine.constructo.book import BOOK_PATH, BOOK_VERSION, canonical, map_code
from engine.constructo.layout import LAYOUTS, RECOMMENDED
from engine.constructo.move import MOVE_BY_CODE
from engine.constructo.pysearch import shuffled_codes
from engine.constructo.round import Round
from engine.constructo.search import solve


class Builder:
    """The proofs of one layout's book (the module docstring)."""

    def __init__(self, name: str, plies: int, tt_bits: int) -> None:
        self.name = name
        self.layout = LAYOUTS[name]
        self.plies = plies
        self.tt_bits = tt_bits
        self.positions: dict[str, tuple[int, int]] = {}
        self.answered: set[str] = set()
        self.nodes = 0
        self.started = time.perf_counter()
        self.core = _core.new_core(Round(self.layout, 0), tt_bits) if _core.core_available() else None

    def prove(self, rnd: Round) -> tuple[int, int]:
        """An optimal action code of ``rnd`` and its exact value (times SCALE), by exhaustive search."""
        if self.core is None:
            res = solve(rnd, tt_bits=self.tt_bits)
            assert res is not None  # no budget: always exact
            code = next(c for c in rnd.legal_codes() if MOVE_BY_CODE[c] == res.move)
            self.nodes += res.nodes
            return code, res.value
        searcher = _core.CoreSearcher(rnd, shuffled_codes(rnd, 0), None, None, core=self.core)
        code, value, _, exact = searcher.solve()
        assert exact
        self.nodes += searcher.nodes
        return code, value

    def perfect_at(self, rnd: Round, ply: int) -> None:
        """The ``perfect`` player is to move at ``ply``: prove the position, play its best action, go on."""
        if ply >= self.plies or rnd.is_over:
            return
        key, perm = canonical(self.layout, rnd.stacks, rnd.current_player)
        if key in self.positions:
            return
        code, value = self.prove(rnd)
        self.positions[key] = (map_code(code, perm), value)
        print(
            f"{self.name} ply {ply} {key:<40} best {code:3d} value {value / 100:+.0f}  "
            f"{len(self.positions)} positions, {self.nodes / 1e6:.1f} M nodes, "
            f"{time.perf_counter() - self.started:.0f} s",
            file=sys.stderr,
            flush=True,
        )
        rnd.apply_code(code)
        self.opponent_at(rnd, ply + 1)
        rnd.undo_code()

    def opponent_at(self, rnd: Round, ply: int) -> None:
        """The opponent is to move at ``ply``: every action of theirs (one per symmetry class) is answered."""
        if ply >= self.plies or rnd.is_over:
            return
        key, _ = canonical(self.layout, rnd.stacks, rnd.current_player)
        if key in self.answered:
            return
        self.answered.add(key)
        seen: set[str] = set()
        for code in list(rnd.legal_codes()):
            rnd.apply_code(code)
            child, _ = canonical(self.layout, rnd.stacks, rnd.current_player)
            if child not in seen:
                seen.add(child)
                self.perfect_at(rnd, ply + 1)
            rnd.undo_code()

    def build(self) -> dict[str, object]:
        """Prove the layout's book; its JSON entry (``engine/constructo/book.py``)."""
        root = Round(self.layout, 0)
        self.perfect_at(root, 0)
        self.opponent_at(root, 0)
        root_key, _ = canonical(self.layout, root.stacks, 0)
        root_value = self.positions[root_key][1] if root_key in self.positions else self.prove(root)[1]
        return {
            "plies": self.plies,
            "root_value": root_value,
            "nodes": self.nodes,
            "positions": dict(sorted((k, list(v)) for k, v in self.positions.items())),
        }


def main(argv: list[str] | None = None) -> int:
    """Parse the command line (the module docstring), build, write the merged file; 0 on success, 2 on bad
    arguments."""
    parser = argparse.ArgumentParser(prog="python -m tools.build_book", description=__doc__.split("\n\n")[0])
    parser.add_argument("items", nargs="+", help="layout:plies, e.g. corona:3 (recommended layouts only)")
    parser.add_argument("--out", type=Path, default=BOOK_PATH, help="the book file (merged; default: shipped)")
    parser.add_argument("--tt-bits", type=int, default=22, help="table size: 4 * 2**bits entries of 16 bytes")
    args = parser.parse_args(argv)
    jobs: list[tuple[str, int]] = []
    for item in args.items:
        name, _, plies = item.partition(":")
        if name not in RECOMMENDED or not plies.isdigit() or int(plies) < 1:
            parser.error(f"{item!r}: use <layout>:<plies>, a layout of {', '.join(RECOMMENDED)} and plies >= 1")
        jobs.append((name, int(plies)))
    data = {"version": BOOK_VERSION, "layouts": {}}
    if args.out.exists():
        data = json.loads(args.out.read_text(encoding="utf-8"))
    for name, plies in jobs:
        started = time.perf_counter()
        entry = Builder(name, plies, args.tt_bits).build()
        data["layouts"][name] = entry
        data["layouts"] = dict(sorted(data["layouts"].items()))
        args.out.write_text(json.dumps(data, separators=(",", ":"), sort_keys=False) + "\n", encoding="utf-8")
        took = time.perf_counter() - started
        print(f"{name}: {len(entry['positions'])} positions, {took:.0f} s -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
