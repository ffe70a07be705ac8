"""What lies under a shape on the CONEX table, for P1 refusals (docs/rules/conex.md P1, G6): machine-readable for
translations, and in English. Below ``engine/conex/table.py`` (which calls it): it reads a table through the
:class:`Layers` protocol and does not import it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from shapely.geometry.base import BaseGeometry

from engine.conex.deck import COLOR_NAMES, Card


class Laid(Protocol):
    """A card on the table as :func:`what_is_under` reads it (``engine.conex.table.TableCard``)."""

    @property
    def id(self) -> int: ...
    @property
    def card(self) -> Card: ...
    @property
    def rect(self) -> BaseGeometry: ...


class Layers(Protocol):
    """The visible layers of a table (``engine.conex.table.Table``): cards in play order, each card's visible main
    area and CONEX corners, the visible board squares, the score track and the covered area (shapely, mm)."""

    @property
    def cards(self) -> Sequence[Laid]: ...
    @property
    def vis_main(self) -> Mapping[int, BaseGeometry]: ...
    @property
    def vis_corners(self) -> Mapping[int, Sequence[BaseGeometry]]: ...
    @property
    def vis_squares(self) -> Mapping[str, BaseGeometry]: ...
    def track(self) -> BaseGeometry: ...
    def covered(self) -> BaseGeometry: ...


def what_is_under(table: Layers, shape: BaseGeometry) -> list[dict[str, object]]:
    """The visible things under ``shape`` (more than 0.01 mm² of overlap; newest cards first): ``{"kind": "card",
    "id", "color"}`` (a visible main area), ``{"kind": "corner", "id"}`` (a CONEX corner of that card),
    ``{"kind": "square", "color"}`` (a board square), ``{"kind": "track"}`` (the board's score track),
    ``{"kind": "table"}`` (the bare table)."""

    def under(geom: BaseGeometry) -> bool:
        return bool(shape.intersects(geom) and shape.intersection(geom).area > 0.01)

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


__all__ = ["Laid", "Layers", "describe_under", "what_is_under"]
