"""The ``perfect`` level's opening book: proven best actions for the first plies of the recommended layouts.

The book (``engine/data/constructo_book.json``, package data, built by ``python -m tools.build_book``) maps a
position, in the canonical form of :func:`canonical`, to an optimal action in that same frame and the position's
exact value. Positions are keyed up to the layout's symmetries (:func:`engine.constructo.symmetry.automorphisms`)
and a colour swap (the position as seen by the player to move), so one entry serves every rotation or reflection
of a position and either player.

File shape: ``{"version": 1, "layouts": {name: {"plies": int, "root_value": int, "positions": {key: [code,
value]}}}}``: ``plies`` is how many first plies the builder covered (every position the ``perfect`` player can
face at ply ``0 .. plies - 1`` against any opponent), ``code`` an action code of :data:`MOVE_BY_CODE` in the
canonical frame, ``value`` the final tower difference (S2, E2) for the player to move under perfect play, times
:data:`engine.constructo.search.SCALE`. A key is the 9 canonical stacks, bottom to top, as chip digits
``(player << 2) | size`` joined by ``/`` (``"7//////5//"``...).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from engine.constructo.layout import LAYOUTS, TILES, Layout
from engine.constructo.move import MOVE_BY_CODE, Move
from engine.constructo.round import Round
from engine.constructo.symmetry import automorphisms
from engine.data import DATA_DIR
from engine.errors import StateError

__all__ = ["BOOK_PATH", "Book", "BookHit", "canonical", "load_book", "map_code"]

BOOK_PATH: Path = DATA_DIR / "constructo_book.json"
"""The shipped book (package data)."""

BOOK_VERSION = 1


def map_code(code: int, perm: tuple[int, ...]) -> int:
    """Action ``code`` with its tiles renamed by ``perm`` (tile ``t`` becomes ``perm[t]``, 0-based): a placement
    ``size * 9 + t`` or a step ``36 + 9 * src + dst`` (the codes of :data:`MOVE_BY_CODE`)."""
    if code < 36:
        size, t = divmod(code, 9)
        return size * 9 + perm[t]
    src, dst = divmod(code - 36, 9)
    return 36 + 9 * perm[src] + perm[dst]


def canonical(layout: Layout, stacks: list[tuple[int, ...]], mover: int) -> tuple[str, tuple[int, ...]]:
    """The book key of a position and the tile permutation that maps it to that key.

    Args:
        stacks: the 9 stacks of chip codes ``(player << 2) | size``, bottom to top (``Round.stacks``).
        mover: the player (0/1) to move; the colours are swapped when it is 1 (the mover always reads as 0).

    Returns: ``(key, perm)``: ``key`` the smallest arrangement over the layout's automorphisms, as text (the
    module docstring); ``perm`` the automorphism used (tile ``t`` of ``stacks`` is tile ``perm[t]`` of the key).
    """
    seen = [tuple(c ^ 4 for c in st) for st in stacks] if mover else [tuple(st) for st in stacks]
    best: tuple[tuple[int, ...], ...] | None = None
    best_perm: tuple[int, ...] = tuple(range(TILES))
    for perm in automorphisms(layout):
        arranged: list[tuple[int, ...]] = [()] * TILES
        for t, st in enumerate(seen):
            arranged[perm[t]] = st
        cand = tuple(arranged)
        if best is None or cand < best:
            best, best_perm = cand, perm
    assert best is not None
    return "/".join("".join(str(c) for c in st) for st in best), best_perm


@dataclass(frozen=True)
class BookHit:
    """A book answer: ``move`` (legal in the asked position, in its own tile numbering) and ``value`` (the exact
    final tower difference for the player to move times ``SCALE``)."""

    move: Move
    value: int


class Book:
    """The opening book of :mod:`engine.constructo.book` (read-only once loaded).

    Attributes:
        layouts: per layout name: ``(plies covered, exact value of the empty board for its first player,
            {key: (canonical code, value)})``.
    """

    def __init__(self, data: dict[str, Any]) -> None:
        """``data``: the file's JSON (the module docstring). Raises ``StateError`` for another version or an
        unreadable shape."""
        if not isinstance(data, dict) or data.get("version") != BOOK_VERSION:
            raise StateError(f"opening book: expected version {BOOK_VERSION}", field="version")
        self.layouts: dict[str, tuple[int, int, dict[str, tuple[int, int]]]] = {}
        try:
            for name, entry in data["layouts"].items():
                positions = {str(k): (int(v[0]), int(v[1])) for k, v in entry["positions"].items()}
                self.layouts[str(name)] = (int(entry["plies"]), int(entry["root_value"]), positions)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as err:
            raise StateError(f"opening book: unreadable ({err})", field="layouts") from err

    def __len__(self) -> int:
        return sum(len(p) for _, _, p in self.layouts.values())

    def plies(self, layout: Layout) -> int:
        """How many first plies the book covers on ``layout`` (0 for a layout it does not hold)."""
        entry = self.layouts.get(layout.name or "")
        return entry[0] if entry and _is_named(layout) else 0

    def root_value(self, layout: Layout) -> int | None:
        """The exact value of ``layout``'s empty board for its first player (times ``SCALE``), if held."""
        entry = self.layouts.get(layout.name or "")
        return entry[1] if entry and _is_named(layout) else None

    def lookup(self, rnd: Round) -> BookHit | None:
        """The proven best action of ``rnd``'s player to move and the position's exact value, or ``None`` when the
        position is not in the book (another layout, a later ply, or off the lines the book follows)."""
        entry = self.layouts.get(rnd.layout.name or "")
        if entry is None or not _is_named(rnd.layout):
            return None
        key, perm = canonical(rnd.layout, rnd.stacks, rnd.current_player)
        found = entry[2].get(key)
        if found is None:
            return None
        inverse = [0] * TILES
        for t, image in enumerate(perm):
            inverse[image] = t
        code = map_code(found[0], tuple(inverse))
        move = MOVE_BY_CODE[code]
        if move is None or code not in rnd.legal_codes():
            raise StateError(f"opening book: entry {key!r} maps to an illegal action", field="positions")
        return BookHit(move, found[1])


def _is_named(layout: Layout) -> bool:
    """A custom layout may not borrow a named layout's name: the book holds only the named cells."""
    named = LAYOUTS.get(layout.name or "")
    return named is not None and named.cells == layout.cells


@cache
def load_book(path: Path = BOOK_PATH) -> Book:
    """The book at ``path`` (default: the shipped one), read once. A missing file is an empty book (the
    ``perfect`` level then searches from the first ply). Raises ``StateError`` for an unreadable file."""
    if not path.exists():
        return Book({"version": BOOK_VERSION, "layouts": {}})
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise StateError(f"opening book {path.name}: {err}", field="file") from err
    return Book(data)
