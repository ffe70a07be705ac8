"""The CONEX table: cards in play order and their **visible** areas, kept incrementally (G5, G6).

Also the placement check P1-P4 (docs/rules/conex.md section 5) for one posed card. Units: mm, y down.

Incremental upkeep: placing a card subtracts its rectangle from the visible areas of the earlier cards (and the
board) whose bounds it meets — nothing else is recomputed. Removing a (free) card (X3/X4) rebuilds only the
cards below it. Every visible piece (card area, CONEX corner, board) sits in an STRtree that is rebuilt lazily
once per table change and answers "what is within 1 mm of this rectangle" for the check and the finder.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import shapely
from shapely.errors import GEOSException
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry
from shapely.strtree import STRtree

from engine.conex.deck import COLOR_NAMES, Card, Corner
from engine.conex.geometry import (
    BOARD,
    BOARD_SQUARES,
    LIES_ON_MM,
    TOUCH_MM,
    area_parts,
    at_cm,
    cm_text,
    difference,
    near_point,
    polygonal,
    posed_card,
    table_rect,
    union_all,
)
from engine.conex.under import describe_under, what_is_under
from engine.errors import IllegalActionError

Target = int | Literal["board"]
_EMPTY: BaseGeometry = Polygon()


@dataclass
class TableCard:
    """A card on the table (G6: the list order is the stacking order).

    Attributes:
        card: the ``Card``.
        pose: ``(x_mm, y_mm, rotation_deg)`` of the card **centre**, rotation clockwise as drawn.
        placed_by: seat of the player who placed it.
        points: points scored by that placement (after V2/V3).
        corner: the index of the corner it was placed with.
        target: the table card id under that corner, or ``"board"``.
        rect, corner_shapes: shapely Polygons in table mm (corner shapes in the card's printed corner order).
    """

    card: Card
    pose: tuple[float, float, float]
    placed_by: int
    points: int
    corner: int
    target: Target
    rect: Polygon = field(repr=False)
    corner_shapes: tuple[Polygon, ...] = field(repr=False)

    @property
    def id(self) -> int:
        return self.card.id


@dataclass(frozen=True)
class Verdict:
    """A legal pose's facts: the target (card id or ``"board"``) and the target card (None for the board)."""

    target: Target
    target_card: Card | None


class Table:
    """Cards in play order plus their visible areas (G5-G6), the board's visible squares (G3) and the table (G2)."""

    def __init__(self, size: str) -> None:
        self.size = size
        self.area: Polygon = table_rect(size)
        self.cards: list[TableCard] = []
        self._by_id: dict[int, TableCard] = {}
        self.vis_rect: dict[int, BaseGeometry] = {}
        self.vis_main: dict[int, BaseGeometry] = {}
        self.vis_corners: dict[int, list[BaseGeometry]] = {}
        self.vis_board: BaseGeometry = BOARD
        self.vis_squares: dict[str, BaseGeometry] = dict(BOARD_SQUARES)
        self.version = 0
        self._tree_version = -1
        self._tree: STRtree | None = None
        self._owners: list[tuple[str, int | str, int]] = []
        self._pieces: list[BaseGeometry] = []
        self._grown: dict[tuple[str, int | str], BaseGeometry] = {}
        self.cache: dict[object, object] = {}  # for derived data (the finder's); emptied on every change

    def __getstate__(self) -> dict[str, object]:
        """Pickling (and deep copies) leave the derived caches behind: shapely does not keep geometries prepared
        across pickling, and the caches rebuild on demand."""
        state = dict(self.__dict__)
        state["cache"] = {}
        state["_grown"] = {}
        state["_tree"] = None
        state["_tree_version"] = -1
        state["_pieces"] = []
        state["_owners"] = []
        return state

    # --- queries ---------------------------------------------------------------------------------------------

    def __contains__(self, card_id: object) -> bool:
        return card_id in self._by_id

    def get(self, card_id: int) -> TableCard:
        return self._by_id[card_id]

    def ids(self) -> list[int]:
        return [tc.id for tc in self.cards]

    def is_free(self, card_id: int) -> bool:
        """G6: no later card's rectangle overlaps this card's (overlap = shared area above 0.01 mm²)."""
        tc = self._by_id[card_id]
        later = self.cards[self.cards.index(tc) + 1 :]
        return all(shapely.intersection(tc.rect, o.rect).area <= 0.01 for o in later)

    def free_ids(self) -> list[int]:
        return [tc.id for tc in self.cards if self.is_free(tc.id)]

    def grown(self, key: tuple[str, int | str]) -> BaseGeometry:
        """The visible main area of a card (``("card", id)``) or a board square (``("square", colour)``) grown by
        0.5 mm (G7 "lies on"), prepared; cached until the table changes."""
        g = self._grown.get(key)
        if g is None:
            base = self.vis_main[key[1]] if key[0] == "card" else self.vis_squares[key[1]]  # type: ignore[index]
            g = base.buffer(LIES_ON_MM) if not base.is_empty else _EMPTY
            shapely.prepare(g)
            self._grown[key] = g
        return g

    def targets_for(self, colour: str) -> list[tuple[Target, BaseGeometry]]:
        """Every visible area a corner of ``colour`` may lie on (P1): matching cards' visible main areas (newest
        first) then the board square of that colour; empty areas left out."""
        out: list[tuple[Target, BaseGeometry]] = [
            (tc.id, self.vis_main[tc.id])
            for tc in reversed(self.cards)
            if tc.card.color == colour and not self.vis_main[tc.id].is_empty
        ]
        if not self.vis_squares[colour].is_empty:
            out.append(("board", self.vis_squares[colour]))
        return out

    def tree(self) -> tuple[STRtree, list[BaseGeometry], list[tuple[str, int | str, int]]]:
        """STRtree over every visible piece; owners are ``("card", id, 0)`` for a card's visible rectangle,
        ``("corner", id, index)`` for a visible CONEX corner, ``("board", "board", 0)`` for the visible board."""
        if self._tree_version != self.version or self._tree is None:
            pieces: list[BaseGeometry] = []
            owners: list[tuple[str, int | str, int]] = []
            for tc in self.cards:
                for part in area_parts(self.vis_rect[tc.id]):
                    pieces.append(part)
                    owners.append(("card", tc.id, 0))
                for corner, vis in zip(tc.card.corners, self.vis_corners[tc.id], strict=True):
                    for part in area_parts(vis):
                        pieces.append(part)
                        owners.append(("corner", tc.id, corner.index))
            for part in area_parts(self.vis_board):
                pieces.append(part)
                owners.append(("board", "board", 0))
            self._pieces, self._owners = pieces, owners
            self._tree = STRtree(pieces)
            self._tree_version = self.version
        return self._tree, self._pieces, self._owners

    # --- changes ---------------------------------------------------------------------------------------------

    def add(self, tc: TableCard) -> None:
        """Lay ``tc`` on top (G6): subtract its rectangle from whatever it covers. Incremental."""
        rect = tc.rect
        shapely.prepare(rect)
        for other in self.cards:
            if not rect.intersects(self.vis_rect[other.id]):
                continue
            oid = other.id
            self.vis_rect[oid] = polygonal(difference(self.vis_rect[oid], rect))
            self.vis_main[oid] = polygonal(difference(self.vis_main[oid], rect))
            self.vis_corners[oid] = [
                polygonal(difference(v, rect)) if rect.intersects(v) else v for v in self.vis_corners[oid]
            ]
        if rect.intersects(self.vis_board):
            self.vis_board = polygonal(difference(self.vis_board, rect))
            self.vis_squares = {
                c: (polygonal(difference(s, rect)) if rect.intersects(s) else s) for c, s in self.vis_squares.items()
            }
        self.cards.append(tc)
        self._by_id[tc.id] = tc
        self._set_own(tc, [])
        self._changed()

    def remove(self, card_id: int) -> TableCard:
        """Take a (free) card off the table (X3) and uncover what it covered (X4); returns it."""
        tc = self._by_id.pop(card_id)
        pos = self.cards.index(tc)
        self.cards.pop(pos)
        for k in ("vis_rect", "vis_main", "vis_corners"):
            getattr(self, k).pop(card_id)
        for i, other in enumerate(self.cards[:pos]):
            if other.rect.intersects(tc.rect):
                self._set_own(other, [o.rect for o in self.cards[i + 1 :]])
        self._rebuild_board()
        self._changed()
        return tc

    def _set_own(self, tc: TableCard, covers: list[Polygon]) -> None:
        rect = tc.rect
        main = polygonal(difference(rect, union_all(tc.corner_shapes)))
        cover = union_all([c for c in covers if c.intersects(rect)]) if covers else _EMPTY
        if cover.is_empty:
            self.vis_rect[tc.id], self.vis_main[tc.id] = rect, main
            self.vis_corners[tc.id] = list(tc.corner_shapes)
        else:
            self.vis_rect[tc.id] = polygonal(difference(rect, cover))
            self.vis_main[tc.id] = polygonal(difference(main, cover))
            self.vis_corners[tc.id] = [polygonal(difference(c, cover)) for c in tc.corner_shapes]

    def _rebuild_board(self) -> None:
        cover = union_all([tc.rect for tc in self.cards]) if self.cards else _EMPTY
        self.vis_board = polygonal(difference(BOARD, cover))
        self.vis_squares = {c: polygonal(difference(s, cover)) for c, s in BOARD_SQUARES.items()}

    def _changed(self) -> None:
        self.version += 1
        self._grown.clear()
        self.cache.clear()

    # --- the placement check (P4, P1, P2, P3) ----------------------------------------------------------------

    def check_pose(self, card: Card, corner_index: int, x_mm: float, y_mm: float, rotation: float) -> Verdict:
        """Check a pose of ``card`` (centre at ``(x_mm, y_mm)``, rotation clockwise) placed with corner
        ``corner_index`` against P1, P2, P3, P4: a refusal names the first failed rule in the ruling's order
        (docs/rules/conex.md section 5; issue 22). The cheap P4 test runs first, but a pose off the table is still
        checked against P1-P3 before P4 is named.

        Returns the ``Verdict`` (target) when legal. Raises ``IllegalActionError`` with ``.rule`` the first failed
        rule and ``.details`` (machine-readable, for translations) holding ``card``, ``corner`` and ``reason``:

        - P4 ``"off_table"``: ``over_cm`` (how far the card sticks out), ``edge`` (``"left"``, ``"right"``,
          ``"top"``, ``"bottom"``), ``table_cm`` (width, height);
        - P1 ``"color"``: ``other`` (the card id or ``"board"`` under the corner), ``corner_color``,
          ``target_color`` (colour letters), ``at_cm``;
        - P1 ``"not_on_target"``: ``corner_color``, ``at_cm``, ``under`` (what lies under the corner: a list of
          ``{"kind": "card", "id", "color"}``, ``{"kind": "corner", "id"}``, ``{"kind": "square", "color"}``,
          ``{"kind": "track"}``, ``{"kind": "table"}``);
        - P2 ``"touches"``: ``other`` (a card id or ``"board"``), ``other_kind`` (``"card"``/``"board"``),
          ``gap_mm``, ``at_cm``;
        - P3 ``"touches_corner"``: ``other`` (the card id), ``other_corner`` (its corner index), ``gap_mm``,
          ``at_cm``;
        - ``Geometry`` ``"unchecked"`` (not a rulebook rule: the pose could not be judged): the geometry library
          failed on it (a ``GEOSException``, "TopologyException: ..."); ``card``, ``corner``. The pose is
          refused, never taken on trust, and nothing changes; another pose a millimetre or a degree away is judged
          afresh. The finder and the AI skip such a pose as they skip an illegal one.
        """
        try:
            return self._check_pose(card, corner_index, x_mm, y_mm, rotation)
        except GEOSException as err:
            raise IllegalActionError(
                f"this pose of card {card.id} (corner {corner_index}) could not be checked: the geometry library "
                f"failed on it ({str(err)[:80]}); nothing was placed: move the card a millimetre or turn it a "
                "degree, or let me fit it",
                rule="Geometry",
                card=card.id,
                corner=corner_index,
                reason="unchecked",
            ) from err

    def _check_pose(self, card: Card, corner_index: int, x_mm: float, y_mm: float, rotation: float) -> Verdict:
        posed = posed_card(card, x_mm, y_mm, rotation)
        corner = card.corner(corner_index)
        tri = posed.corners[card.corners.index(corner)]
        who = f"card {card.id}"
        # P4: the rectangle lies on the table (grown by 0.5 mm); named only after P1-P3 hold
        minx, miny, maxx, maxy = posed.rect.bounds
        tminx, tminy, tmaxx, tmaxy = self.area.bounds
        if (
            minx < tminx - LIES_ON_MM
            or miny < tminy - LIES_ON_MM
            or maxx > tmaxx + LIES_ON_MM
            or maxy > tmaxy + LIES_ON_MM
        ):
            self._p2_p3(card, posed.rect, self._p1(card, corner, tri))  # P1, P2, P3 fail first if they fail
            sides = {"left": tminx - minx, "top": tminy - miny, "right": maxx - tmaxx, "bottom": maxy - tmaxy}
            edge = max(sides, key=lambda k: sides[k])
            over = sides[edge]
            raise IllegalActionError(
                f"{who} would stick out {over / 10:.1f} cm over the edge of the table "
                f"({self.area.bounds[2] / 5:.0f} x {self.area.bounds[3] / 5:.0f} cm)",
                rule="P4",
                card=card.id,
                corner=corner_index,
                over_cm=round(over / 10, 1),
                edge=edge,
                table_cm=(round((tmaxx - tminx) / 10), round((tmaxy - tminy) / 10)),
                reason="off_table",
            )
        target = self._p1(card, corner, tri)
        self._p2_p3(card, posed.rect, target)
        return Verdict(target, None if target == "board" else self._by_id[target].card)

    def _p1(self, card: Card, corner: Corner, tri: Polygon) -> Target:
        colour = corner.color
        cx, cy = tri.centroid.x, tri.centroid.y
        bx0, by0, bx1, by1 = tri.bounds
        for tc in reversed(self.cards):
            x0, y0, x1, y1 = tc.rect.bounds
            if x1 < bx0 - 1 or x0 > bx1 + 1 or y1 < by0 - 1 or y0 > by1 + 1:
                continue
            if self.grown(("card", tc.id)).contains(tri):
                if tc.card.color != colour:
                    raise IllegalActionError(
                        f"corner {corner.index} of card {card.id} is {COLOR_NAMES[colour]} but card #{tc.id} "
                        f"under it is {COLOR_NAMES[tc.card.color]}",
                        rule="P1",
                        card=card.id,
                        corner=corner.index,
                        other=tc.id,
                        corner_color=colour,
                        target_color=tc.card.color,
                        at_cm=at_cm(cx, cy),
                        reason="color",
                    )
                return tc.id
        for sq_colour in BOARD_SQUARES:
            if self.grown(("square", sq_colour)).contains(tri):
                if sq_colour != colour:
                    raise IllegalActionError(
                        f"corner {corner.index} of card {card.id} is {COLOR_NAMES[colour]} but it lies on the "
                        f"{COLOR_NAMES[sq_colour]} board square",
                        rule="P1",
                        card=card.id,
                        corner=corner.index,
                        other="board",
                        corner_color=colour,
                        target_color=sq_colour,
                        at_cm=at_cm(cx, cy),
                        reason="color",
                    )
                return "board"
        under = what_is_under(self, tri)
        raise IllegalActionError(
            f"corner {corner.index} ({COLOR_NAMES[colour]}) of card {card.id} at {cm_text(cx, cy)} must lie wholly on "
            f"the visible main area of one {COLOR_NAMES[colour]} card or on the {COLOR_NAMES[colour]} board square; "
            f"it lies on {describe_under(under)}",
            rule="P1",
            card=card.id,
            corner=corner.index,
            corner_color=colour,
            at_cm=at_cm(cx, cy),
            under=under,
            reason="not_on_target",
        )

    def covered(self) -> BaseGeometry:
        """The union of the board and every card rectangle (cached until the table changes)."""
        got = self.cache.get("covered")
        if got is None:
            got = shapely.union_all([BOARD] + [tc.rect for tc in self.cards])
            shapely.prepare(got)
            self.cache["covered"] = got
        return got

    def track(self) -> BaseGeometry:
        """The visible part of the board outside the colour squares (the score track; cached)."""
        got = self.cache.get("track")
        if got is None:
            got = polygonal(self.vis_board.difference(shapely.union_all(list(self.vis_squares.values()))))
            self.cache["track"] = got
        return got

    def _p2_p3(self, card: Card, rect: Polygon, target: Target) -> None:
        tree, pieces, owners = self.tree()
        hits = tree.query(rect, predicate="dwithin", distance=TOUCH_MM)
        p2: list[tuple[float, int]] = []
        p3: list[tuple[float, int]] = []
        for i in sorted(int(k) for k in hits):
            kind, owner, _ = owners[i]
            if kind == "card" and owner == target:
                continue
            if kind == "board" and target == "board":
                continue
            d = shapely.distance(rect, pieces[i])
            if d >= TOUCH_MM:
                continue
            (p3 if kind == "corner" else p2).append((d, i))
        for rule, found in (("P2", p2), ("P3", p3)):
            if not found:
                continue
            d, i = min(found)
            kind, owner, index = owners[i]
            pt = near_point(rect, pieces[i])
            what = (
                "the scoring board"
                if kind == "board"
                else f"card #{owner}"
                if kind == "card"
                else f"CONEX corner {index} of card #{owner}"
            )
            why = "it may touch only its target" if rule == "P2" else "corners must stay clear"
            msg = f"card {card.id} would touch {what} at {cm_text(*pt)} (gap {d:.1f} mm; {why})"
            extra: dict[str, object] = (
                {"other_kind": kind, "reason": "touches"}
                if rule == "P2"
                else {"other_corner": index, "reason": "touches_corner"}
            )
            raise IllegalActionError(
                msg,
                rule=rule,
                card=card.id,
                other=owner,
                at_cm=at_cm(pt[0], pt[1]),
                gap_mm=round(float(d), 2),
                **extra,
            )


__all__ = ["Table", "TableCard", "Target", "Verdict"]
