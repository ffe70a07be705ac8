"""The CONEX deck: ``Card`` and ``Corner`` loaded from ``engine/data/conex_deck.json``.

Implements rulings D1-D4 and G4 of docs/rules/conex.md. All lengths are millimetres in the card's local frame:
origin at the card centre, x to the right, y down, the card portrait (60 x 90 mm) at rotation 0.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from shapely.geometry import Polygon

from engine.data import DATA_DIR
from engine.errors import StateError

COLORS: tuple[str, ...] = ("Y", "R", "T", "P")
COLOR_NAMES: dict[str, str] = {"Y": "yellow", "R": "red", "T": "turquoise", "P": "purple"}
CARD_W_MM: float = 60.0
CARD_H_MM: float = 90.0
DECK_SIZE = 52
POSITIONS: tuple[str, ...] = ("tl", "tr", "br", "bl")
# card-local coordinates of each card corner, and the signs of the legs' directions from it
_CORNER_XY: dict[str, tuple[float, float, float, float]] = {
    "tl": (-CARD_W_MM / 2, -CARD_H_MM / 2, 1.0, 1.0),
    "tr": (CARD_W_MM / 2, -CARD_H_MM / 2, -1.0, 1.0),
    "br": (CARD_W_MM / 2, CARD_H_MM / 2, -1.0, -1.0),
    "bl": (-CARD_W_MM / 2, CARD_H_MM / 2, 1.0, -1.0),
}


@dataclass(frozen=True)
class Corner:
    """A CONEX corner (G4): a right triangle on one card corner, legs along the two card edges.

    Attributes:
        index: 1..3, the number printed next to the corner.
        position: ``"tl" | "tr" | "br" | "bl"`` (at rotation 0, portrait, y down).
        legs_mm: ``(along_x, along_y)`` leg lengths in mm (15..30).
        color: the corner's colour letter (``"Y" "R" "T" "P"``), never the card's background (D2).
        value: points scored when placed with this corner (1..5, V1).
        shape: the triangle as a shapely Polygon in card-local mm (card centre at origin, y down).
    """

    index: int
    position: str
    legs_mm: tuple[float, float]
    color: str
    value: int
    shape: Polygon = field(compare=False, repr=False)

    @property
    def vertices(self) -> tuple[tuple[float, float], tuple[float, float], tuple[float, float]]:
        """The triangle's vertices in card-local mm: right-angle vertex first, then along x, then along y."""
        cx, cy, sx, sy = _CORNER_XY[self.position]
        lx, ly = self.legs_mm
        return (cx, cy), (cx + sx * lx, cy), (cx, cy + sy * ly)

    @property
    def centroid(self) -> tuple[float, float]:
        """The triangle's centroid in card-local mm (the point a ``Place`` pose puts at ``(x, y)``)."""
        (ax, ay), (bx, by), (cx, cy) = self.vertices
        return (ax + bx + cx) / 3.0, (ay + by + cy) / 3.0


@dataclass(frozen=True)
class Card:
    """One of the 52 cards (D1).

    Attributes:
        id: 1..52, the number printed on the card; also its id on the table (``target``, ``lightning``).
        color: background colour letter.
        action: ``None`` (plain), ``"plus2"`` (+2 to whoever places a corner on it, V2) or ``"die"`` (X1).
        corners: the card's 2 or 3 CONEX corners in printed order (``corners[i].index == i + 1``).
    """

    id: int
    color: str
    action: str | None
    corners: tuple[Corner, ...]

    def corner(self, index: int) -> Corner:
        """The corner printed with number ``index``; ``KeyError`` if the card has none (callers validate)."""
        for c in self.corners:
            if c.index == index:
                return c
        raise KeyError(index)

    def __str__(self) -> str:
        kind = {"plus2": " +2", "die": " die"}.get(self.action or "", "")
        return f"#{self.id} ({COLOR_NAMES[self.color]}{kind})"


def _corner_from(d: dict[str, Any]) -> Corner:
    position = d["position"]
    lx, ly = float(d["legs_mm"][0]), float(d["legs_mm"][1])
    cx, cy, sx, sy = _CORNER_XY[position]
    shape = Polygon([(cx, cy), (cx + sx * lx, cy), (cx, cy + sy * ly)])
    return Corner(int(d["index"]), position, (lx, ly), d["color"], int(d["value"]), shape)


def deck_from_dict(data: dict[str, Any]) -> list[Card]:
    """Build the deck from the JSON dict (the schema's shape); raises ``StateError`` if it breaks D1/D2/G4 basics.

    The full rule set D1-D3 and G4 is checked against the file by the test suite; this is the loader's guard.
    """
    try:
        cards = [
            Card(int(c["id"]), c["color"], c["action"], tuple(_corner_from(k) for k in c["corners"]))
            for c in data["cards"]
        ]
    except (KeyError, TypeError, ValueError) as exc:
        raise StateError(f"the deck file is malformed: {exc!r}") from exc
    if sorted(c.id for c in cards) != list(range(1, DECK_SIZE + 1)):
        raise StateError("D1: the deck must hold cards 1..52 exactly once")
    for card in cards:
        if card.color not in COLORS or card.action not in (None, "plus2", "die"):
            raise StateError(f"D1: card {card.id} has a bad colour or action")
        if not 2 <= len(card.corners) <= 3 or [c.index for c in card.corners] != list(range(1, len(card.corners) + 1)):
            raise StateError(f"G4: card {card.id} must have 2 or 3 corners numbered from 1")
        if len({c.position for c in card.corners}) != len(card.corners):
            raise StateError(f"G4: card {card.id} has two corners on one card corner")
        for c in card.corners:
            if c.color == card.color or c.color not in COLORS:
                raise StateError(f"D2: corner {c.index} of card {card.id} has a bad colour")
            if not all(15.0 <= leg <= 30.0 for leg in c.legs_mm):
                raise StateError(f"G4: corner {c.index} of card {card.id} has legs outside 15..30 mm")
    return sorted(cards, key=lambda c: c.id)


@cache
def _load(path: Path) -> tuple[Card, ...]:
    with path.open(encoding="utf-8") as fh:
        return tuple(deck_from_dict(json.load(fh)))


def load_deck(path: Path | None = None) -> list[Card]:
    """The 52 cards from ``engine/data/conex_deck.json`` (or ``path``), sorted by id; cached (cards are immutable).

    Raises:
        StateError: the file breaks the deck rules (D1, D2, G4).
    """
    return list(_load(path or DATA_DIR / "conex_deck.json"))


def card_by_id(card_id: int) -> Card:
    """The card with this id from the project deck; ``KeyError`` if not 1..52."""
    deck = _load(DATA_DIR / "conex_deck.json")
    if not isinstance(card_id, int) or not 1 <= card_id <= len(deck):
        raise KeyError(card_id)
    return deck[card_id - 1]
