"""Constructo layouts: 9 hexagonal tiles (rules C3, C4 and section 2).

A layout is a set of exactly 9 distinct axial cells ``(q, r)`` (pointy-top hexagons) that is
edge-connected, with ``|q| <= 8`` and ``|r| <= 8``. Tiles are numbered 1..9 in reading order:
sorted by ``r`` then ``q`` (C4). Two tiles are adjacent when their cells differ by one of the six
axial directions (C3).

The six named layouts of the rulings are loaded from ``engine/data/constructo_layouts.json``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.data import DATA_DIR
from engine.errors import InvalidInputError, quoted

__all__ = ["DIRECTIONS", "EXPERIMENTAL", "LAYOUTS", "MAX_COORD", "RECOMMENDED", "TILES", "Layout"]

TILES = 9
"""Number of tiles in every layout (C3)."""

MAX_COORD = 8
"""Largest allowed ``|q|`` or ``|r|`` of a custom layout cell (section 2)."""

DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
"""The six axial offsets of edge-adjacent hexagons (C3)."""

_COORD_RE = re.compile(r"\(\s*([+-]?[0-9]+)\s*,\s*([+-]?[0-9]+)\s*\)")


def _fmt_cell(cell: tuple[int, int]) -> str:
    return f"({cell[0]},{cell[1]})"


@dataclass(frozen=True)
class Layout:
    """A board of 9 hex tiles (C3, C4).

    Attributes:
        cells: the 9 axial ``(q, r)`` cells in tile order: tile ``n`` (1..9) is ``cells[n - 1]``.
        name: the layout's name for the named layouts (``"rombo"``...), ``None`` for a custom one.
        adjacency: derived: ``adjacency[i]`` = the 0-based indices of tile ``i + 1``'s neighbours (C4).

    Build custom layouts with :meth:`from_cells` or :meth:`parse` (both validate); the constructor
    expects already-sorted, valid cells and validates them too.
    """

    cells: tuple[tuple[int, int], ...]
    name: str | None = None
    adjacency: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        cells = _validated_cells(self.cells)
        if cells != tuple(self.cells):
            raise InvalidInputError(
                "layout cells must be given in tile order (sorted by r, then q); use Layout.from_cells",
                rule="C4",
                reason="cell_order",
            )
        object.__setattr__(self, "cells", cells)
        index = {c: i for i, c in enumerate(cells)}
        nbrs = []
        for q, r in cells:
            nbrs.append(tuple(sorted(index[(q + dq, r + dr)] for dq, dr in DIRECTIONS if (q + dq, r + dr) in index)))
        object.__setattr__(self, "adjacency", tuple(nbrs))

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def from_cells(cls, cells: Iterable[Any], name: str | None = None) -> Layout:
        """Validate 9 ``(q, r)`` cells (any order) and number them in reading order (C4).

        Raises:
            InvalidInputError: not exactly 9 cells, a cell that is not a pair of integers, a
                repeated cell, a coordinate with ``|q|`` or ``|r|`` above 8, or cells that are not
                edge-connected (C3). The message says which and why.
        """
        sorted_cells = tuple(sorted(_validated_cells(cells), key=lambda c: (c[1], c[0])))
        return cls(sorted_cells, name)

    @classmethod
    def parse(cls, text: str) -> Layout:
        """Parse a layout name from :data:`LAYOUTS` (case-insensitive) or 9 coordinates.

        Coordinates are written ``"(0,0) (1,0) (2,0) ..."`` (spaces and commas between the pairs
        are optional). Raises :class:`InvalidInputError` quoting the bad token, or saying why the
        cells do not form a layout.

        >>> rombo = Layout.parse("Rombo")
        >>> rombo.name, rombo.neighbours(5), rombo.adjacent(1, 2)
        ('rombo', (2, 3, 4, 6, 7, 8), True)
        >>> Layout.parse("(0,0) (1,0) (2,0) (0,1) (1,1) (2,1) (0,2) (1,2) (2,2)") is rombo
        True
        """
        if not isinstance(text, str):
            raise InvalidInputError(f"a layout must be text, not {type(text).__name__}", reason="internal")
        stripped = text.strip()
        if not stripped:
            raise InvalidInputError(
                "empty layout: give a name (" + ", ".join(LAYOUTS) + ") or 9 coordinates",
                reason="empty_layout",
                names=", ".join(LAYOUTS),
            )
        if not stripped.startswith("("):
            key = stripped.lower()
            if key in LAYOUTS:
                return LAYOUTS[key]
            raise InvalidInputError(
                f"unknown layout {quoted(stripped)}: known layouts are "
                + ", ".join(LAYOUTS)
                + ", or give 9 coordinates "
                "like (0,0) (1,0) ...",
                token=stripped,
                reason="unknown_layout",
                names=", ".join(LAYOUTS),
            )
        cells: list[tuple[int, int]] = []
        pos = 0
        while pos < len(stripped):
            ch = stripped[pos]
            if ch.isspace() or ch == ",":
                pos += 1
                continue
            m = _COORD_RE.match(stripped, pos)
            if m is None:
                bad = stripped[pos:].split()[0]
                raise InvalidInputError(
                    f"cannot read {quoted(bad)} in the layout: coordinates are written (q,r), e.g. (0,0) (1,0)",
                    token=bad,
                    reason="unreadable_cell",
                )
            cells.append((int(m.group(1)), int(m.group(2))))
            pos = m.end()
        layout = cls.from_cells(cells)
        for named in LAYOUTS.values():
            if named.cells == layout.cells:
                return named
        return layout

    # -- queries ------------------------------------------------------------------------------
    def neighbours(self, n: int) -> tuple[int, ...]:
        """Tile numbers (1..9, ascending) adjacent to tile ``n`` (C3).

        Raises:
            InvalidInputError: ``n`` is not a tile number 1..9.
        """
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= TILES:
            raise InvalidInputError(
                f"tile {quoted(n)} does not exist: tiles are numbered 1-9", reason="no_such_tile", tile=n
            )
        return tuple(i + 1 for i in self.adjacency[n - 1])

    def adjacent(self, a: int, b: int) -> bool:
        """True when tiles ``a`` and ``b`` (1..9) share an edge (C3)."""
        return (b - 1) in self.adjacency[a - 1] if 1 <= a <= TILES and 1 <= b <= TILES else False

    def to_text(self) -> str:
        """The layout as notation: its name, or its 9 cells ``"(0,0) (1,0) ..."`` in tile order."""
        return self.name if self.name else self.coords_text()

    def coords_text(self) -> str:
        """The 9 cells as ``"(q,r) (q,r) ..."`` in tile order (always coordinates, even if named)."""
        return " ".join(_fmt_cell(c) for c in self.cells)

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``{"name": str | None, "cells": [[q, r], ...]}`` (cells in tile order)."""
        return {"name": self.name, "cells": [list(c) for c in self.cells]}

    @classmethod
    def from_dict(cls, d: Any) -> Layout:
        """Inverse of :meth:`to_dict`; a stored name must match the named layout's cells.

        Raises:
            InvalidInputError: malformed cells, or a name whose cells differ from :data:`LAYOUTS`.
        """
        if not isinstance(d, dict) or "cells" not in d:
            raise InvalidInputError("a stored layout must be an object with 'cells'", reason="internal")
        name = d.get("name")
        layout = cls.from_cells(d["cells"])
        if name is None:
            return layout
        if name not in LAYOUTS:
            raise InvalidInputError(f"unknown layout name {quoted(name)}", reason="internal")
        if LAYOUTS[name].cells != layout.cells:
            raise InvalidInputError(
                f"stored cells of layout {quoted(name)} differ from the named layout", reason="internal"
            )
        return LAYOUTS[name]

    def __str__(self) -> str:
        return self.to_text()


def _validated_cells(cells: Any) -> tuple[tuple[int, int], ...]:
    """Check the section 2 conditions; return the cells as a tuple of int pairs (original order)."""
    if isinstance(cells, (str, bytes)) or not isinstance(cells, Iterable):
        raise InvalidInputError("a layout is a list of 9 (q, r) cells", reason="internal")
    out: list[tuple[int, int]] = []
    for cell in cells:
        try:
            q, r = cell
        except (TypeError, ValueError):
            raise InvalidInputError(
                f"layout cell {quoted(cell)} is not a (q, r) pair", reason="bad_cell", cell=repr(cell)
            ) from None
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (q, r)):
            raise InvalidInputError(
                f"layout cell {quoted(cell)} must hold two integers", reason="bad_cell", cell=repr(cell)
            )
        out.append((q, r))
    if len(out) != TILES:
        raise InvalidInputError(f"a layout needs exactly 9 cells, got {len(out)}", reason="cell_count", count=len(out))
    seen: set[tuple[int, int]] = set()
    for c in out:
        if c in seen:
            raise InvalidInputError(
                f"cell {_fmt_cell(c)} appears twice: the 9 cells must be distinct",
                reason="duplicate_cell",
                cell=c,
                where=_fmt_cell(c),
            )
        seen.add(c)
    for c in out:
        if abs(c[0]) > MAX_COORD or abs(c[1]) > MAX_COORD:
            raise InvalidInputError(
                f"cell {_fmt_cell(c)} is too far out: |q| and |r| must be at most {MAX_COORD}",
                reason="cell_too_far",
                cell=c,
                where=_fmt_cell(c),
                limit=MAX_COORD,
            )
    # edge-connectivity (C3)
    start = out[0]
    reached = {start}
    todo = [start]
    while todo:
        q, r = todo.pop()
        for dq, dr in DIRECTIONS:
            nb = (q + dq, r + dr)
            if nb in seen and nb not in reached:
                reached.add(nb)
                todo.append(nb)
    if len(reached) != TILES:
        apart = sorted((c for c in out if c not in reached), key=lambda c: (c[1], c[0]))
        raise InvalidInputError(
            "the cells are not connected: "
            + " ".join(_fmt_cell(c) for c in apart)
            + f" cannot be reached from {_fmt_cell(start)} through shared edges",
            reason="not_connected",
            cells=apart,
            apart=" ".join(_fmt_cell(c) for c in apart),
            start=_fmt_cell(start),
        )
    return tuple(out)


def _load() -> tuple[dict[str, Layout], tuple[str, ...], tuple[str, ...]]:
    raw = json.loads((DATA_DIR / "constructo_layouts.json").read_text(encoding="utf-8"))
    if raw.get("version") != 1:
        raise RuntimeError("constructo_layouts.json: unsupported version")
    layouts: dict[str, Layout] = {}
    rec: list[str] = []
    exp: list[str] = []
    for entry in raw["layouts"]:
        name = entry["name"]
        layouts[name] = Layout.from_cells([tuple(c) for c in entry["cells"]], name=name)
        (rec if entry["group"] == "recommended" else exp).append(name)
    return layouts, tuple(rec), tuple(exp)


LAYOUTS, RECOMMENDED, EXPERIMENTAL = _load()
"""``LAYOUTS``: the named layouts by name; ``RECOMMENDED`` / ``EXPERIMENTAL``: their names by group."""
