"""What lies under a shape on the CONEX table, for P1 refusals (rules/conex.md P1, G6): machine-readable for
translations, and in English."""

from __future__ import annotations

from typing import TYPE_CHECKING

from shapely.geometry.base import BaseGeometry

from engine.conex.deck import COLOR_NAMES

if TYPE_CHECKING:
    from engine.conex.table import Table


def what_is_under(table: Table, shape: BaseGeometry) -> list[dict[str, object]]:
    """The visible things under ``shape`` (more than 0.01 mm² of overlap; newest cards first): ``{"kind": "card",
    "id", "color"}`` (a visible main area), ``{"kind": "corner", "id"}`` (a CONEX corner of that card),
    ``{"kind": "square", "color"}`` (a board square), ``{"kind": "track"}`` (the board's score track),
    ``{"kind": "table"}`` (the bare table)."""

    def under(geom: BaseGeometry) -> bool:
        return shape.intersects(geom) and shape.intersection(geom).area > 0.01

    found: list[dict[str, object]] = []
    bx0, by0, bx1, by1 = shape.bounds
    for tc in reversed(table.cards):
        x0, y0, x1, y1 = tc.rect.bounds
        if x1 < bx0 or x0 > bx1 or y1 < by0 or y0 > by1:
            continue
        if under(table.vis_main[tc.id]):
            found.append({"kind": "card", "id": tc.id, "color": tc.card.color})
        if any(under(v) for v in table.vis_corners[tc.id]):
            found.append({"kind": "corner", "id": tc.id})
    for colour, sq in table.vis_squares.items():
        if under(sq):
            found.append({"kind": "square", "color": colour})
    if under(table.track()):
        found.append({"kind": "track"})
    if shape.difference(table.covered()).area > 0.01:
        found.append({"kind": "table"})
    return found


def describe_under(under: list[dict[str, object]]) -> str:
    """English for ``what_is_under``'s list (``"card #7 (red), the bare table"``)."""
    words = []
    for u in under:
        kind = u["kind"]
        if kind == "card":
            words.append(f"card #{u['id']} ({COLOR_NAMES[str(u['color'])]})")
        elif kind == "corner":
            words.append(f"a CONEX corner of card #{u['id']}")
        elif kind == "square":
            words.append(f"the {COLOR_NAMES[str(u['color'])]} board square")
        elif kind == "track":
            words.append("the board's score track")
        else:
            words.append("the bare table")
    return ", ".join(words) if words else "nothing visible"


__all__ = ["describe_under", "what_is_under"]
