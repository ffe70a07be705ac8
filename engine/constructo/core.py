"""The compiled search core (``engine/constructo/_csearch.c``), when it was built, and its Python driver.

``pip install -e .`` compiles the core with the machine's C compiler (``setup.py``; the extension is optional).
Without it -- no compiler, a stale build of another version, or ``TABLEBOT_PURE_PYTHON_AI=1`` in the
environment -- :data:`CORE` is ``"python"``, a notice is logged once, and the AI runs the pure-Python search
(:mod:`engine.constructo.pysearch`), which plays the same game more slowly.

The core is given the rule tables of :mod:`engine.constructo.tables` (built from the Python rules) and the
layout's adjacency and automorphisms (:mod:`engine.constructo.symmetry`); it restates no stacking rule.
"""

from __future__ import annotations

import hashlib
import logging
import os
import time
from pathlib import Path
from typing import Any

from engine.constructo.pysearch import INF
from engine.constructo.round import Round
from engine.constructo.symmetry import automorphisms
from engine.constructo.tables import LAND, LONE, NS, SINGLE, SWAP, TOWER, board_of, max_plies_left, reserves_of

__all__ = ["CORE", "CoreSearcher", "core_available", "new_core"]

log = logging.getLogger("engine.constructo")

_EXPECTED_VERSION = 2
_SOURCE = Path(__file__).with_name("_csearch.c")
_csearch: Any = None
CORE = "python"
"""``"c"`` when the compiled core is in use, else ``"python"``."""

if os.environ.get("TABLEBOT_PURE_PYTHON_AI", "").strip() not in ("", "0"):
    log.info("Constructo AI: TABLEBOT_PURE_PYTHON_AI is set, using the pure-Python search")
else:
    try:
        from engine.constructo import _csearch as _module  # type: ignore[attr-defined]
    except ImportError as err:
        log.warning(
            "Constructo AI: compiled search core unavailable (%s); using the pure-Python search, about 20x "
            "slower. Reinstall with a C compiler present (pip install -e .) to build it.",
            err,
        )
    else:
        source_hash = hashlib.sha256(_SOURCE.read_bytes()).hexdigest()[:16] if _SOURCE.exists() else None
        if getattr(_module, "VERSION", None) != _EXPECTED_VERSION or (
            source_hash is not None and getattr(_module, "SOURCE_HASH", None) != source_hash
        ):
            log.warning(
                "Constructo AI: the compiled search core was built from another version of _csearch.c (stale "
                "build); using the pure-Python search. Rebuild with pip install -e ."
            )
        else:
            _module.set_tables(NS, LONE, LAND, TOWER, SINGLE, SWAP)
            _csearch = _module
            CORE = "c"


def core_available() -> bool:
    """True when the compiled core is loaded and enabled."""
    return _csearch is not None


def new_core(rnd: Round, tt_bits: int = 18, symmetry: bool = True) -> Any:
    """A compiled ``Core`` for ``rnd``'s layout with ``4 * 2**tt_bits`` table entries (16 bytes each).

    ``symmetry=False`` keys the table by the position alone (measurements only). Raises RuntimeError if the
    core is not available."""
    if _csearch is None:
        raise RuntimeError("the compiled search core is not available")
    autos = automorphisms(rnd.layout) if symmetry else (tuple(range(9)),)
    return _csearch.Core([list(n) for n in rnd.adjacency], [list(p) for p in autos], tt_bits)


class CoreSearcher:
    """Iterative deepening around the compiled core, with the same contract as ``PySearcher.run``:
    depth 1 always completes; later iterations stop when ``max_nodes`` (cumulated over iterations) or the
    ``deadline`` (a ``time.perf_counter()`` value) is reached; the search stops once the value is exact."""

    def __init__(
        self,
        rnd: Round,
        root_codes: list[int],
        max_nodes: int | None,
        deadline: float | None,
        tt_bits: int = 18,
        core: Any = None,
    ) -> None:
        self.core = core if core is not None else new_core(rnd, tt_bits)
        self.board = board_of(rnd)
        self.res = reserves_of(rnd)
        self.turn = rnd.current_player
        self.plies_left = max_plies_left(rnd)
        self.root_codes = root_codes
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.nodes = 0
        self.start_depth = 1

    def _budget(self) -> tuple[int, float]:
        nodes_left = -1 if self.max_nodes is None else max(0, self.max_nodes - self.nodes)
        time_left = -1.0 if self.deadline is None else max(0.0, self.deadline - time.perf_counter())
        return nodes_left, time_left

    def solve(self, guess: int = 0) -> tuple[int, int, int, bool]:
        """MTD(f): null-window searches of the whole remaining tree, the table kept between them, until the
        lower and upper bounds of the value meet. Same return as :meth:`run` (depth 0 if a budget ran out)."""
        lo, hi = -INF, INF
        g = guess
        best_code = self.root_codes[0]
        while lo < hi:
            beta = g + 1 if g == lo else g
            nodes_left, time_left = self._budget()
            codes = [best_code] + [c for c in self.root_codes if c != best_code]
            aborted, code, val, _, nodes, _ = self.core.root(
                self.board, self.res, self.turn, codes, self.plies_left + 1, beta - 1, beta, nodes_left, time_left
            )
            self.nodes += nodes
            if aborted:
                return best_code, 0, 0, False
            if val >= beta:
                lo, best_code = val, code
            else:
                hi = val
            g = val
        return best_code, lo, self.plies_left + 1, True

    def run(self, max_depth: int) -> tuple[int, int, int, bool]:
        """Best code, its value, the deepest finished depth and whether the value is exact."""
        if self.start_depth > self.plies_left:
            return self.solve()
        best_code = self.root_codes[0]
        best_val = 0
        done_depth = 0
        exact = False
        armed = self.start_depth > 1
        for depth in range(self.start_depth, max_depth + 1):
            if armed:
                nodes_left, time_left = self._budget()
            else:
                nodes_left, time_left = -1, -1.0
            codes = [best_code] + [c for c in self.root_codes if c != best_code]
            aborted, code, val, completed, nodes, is_exact = self.core.root(
                self.board, self.res, self.turn, codes, depth, -INF, INF, nodes_left, time_left
            )
            self.nodes += nodes
            if aborted:
                if completed > 0:
                    best_code, best_val = code, val
                break
            best_code, best_val, done_depth = code, val, depth
            armed = True
            if is_exact:
                exact = True
                break
        return best_code, best_val, done_depth, exact
