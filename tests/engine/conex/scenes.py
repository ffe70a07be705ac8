"""Builders for CONEX test tables (docs/conex-state.md): states written as dicts and loaded with ``from_dict``.

Geometry used by the placement tests: a *host* card lies with one of its corner-free card corners F pointing
straight right (+x) at a chosen point; a new card *attaches* with its CONEX corner's right angle pointing left into
the host near F and its body pointing right, so the two cards overlap only in a small diamond at F.
"""

from __future__ import annotations

import math
from typing import Any

from engine.conex import Card, Corner, Game, Place, load_deck
from engine.conex.geometry import posed_card, rotate_point

DECK = {c.id: c for c in load_deck()}
POSITIONS = ("tl", "tr", "br", "bl")
# direction (degrees, y down) of the bisector of a card corner's right angle, pointing into the card
BISECTOR_IN = {"tl": 45.0, "tr": 135.0, "br": -135.0, "bl": -45.0}
LOCAL = {"tl": (-30.0, -45.0), "tr": (30.0, -45.0), "br": (30.0, 45.0), "bl": (-30.0, 45.0)}


def free_positions(card: Card) -> list[str]:
    used = {k.position for k in card.corners}
    return [p for p in POSITIONS if p not in used]


def find_card(pred: Any, exclude: tuple[int, ...] = ()) -> Card:
    """The lowest-id deck card for which ``pred(card)`` holds."""
    for cid in sorted(DECK):
        if cid not in exclude and pred(DECK[cid]):
            return DECK[cid]
    raise LookupError("no such card in the deck")


def find_corner(card: Card, colour: str, value: int | None = None) -> Corner | None:
    for k in card.corners:
        if k.color == colour and (value is None or k.value == value):
            return k
    return None


def host_entry(card: Card, f: tuple[float, float], free: str | None = None, **extra: Any) -> dict[str, Any]:
    """A table entry (centre pose, mm) putting ``card``'s corner-free card corner ``free`` at ``f`` pointing +x."""
    free = free or free_positions(card)[0]
    rot = (180.0 - BISECTOR_IN[free]) % 360.0
    lx, ly = rotate_point(*LOCAL[free], rot)
    entry = {"card": card.id, "x_mm": f[0] - lx, "y_mm": f[1] - ly, "rotation": rot}
    entry.update(extra)
    return entry


def attach(
    card: Card, corner: Corner, f: tuple[float, float], player: int = 0, depth: float | None = None, dy: float = 0.0
) -> Place:
    """A ``Place`` of ``card`` whose ``corner`` points its right angle into a host near ``f`` (vertex ``depth`` mm
    left of ``f``, default: just deep enough for the triangle to lie inside the host's diamond) and whose body
    points +x."""
    rot = (0.0 - BISECTOR_IN[corner.position]) % 360.0
    if depth is None:
        depth = math.sqrt(2.0) * max(corner.legs_mm) + 1.0
    vx, vy = f[0] - depth, f[1] + dy
    (ax, ay) = corner.vertices[0]
    gx, gy = corner.centroid
    ox, oy = rotate_point(gx - ax, gy - ay, rot)
    return Place(player, card.id, corner.index, (vx + ox) / 10.0, (vy + oy) / 10.0, rot)


def rect_of(place: Place) -> Any:
    """The rectangle (table mm) a ``Place`` would lay."""
    card = DECK[place.card]
    corner = card.corner(place.corner)
    assert place.rotation is not None
    cx, cy = rotate_point(*corner.centroid, place.rotation)
    return posed_card(card, place.x_mm - cx, place.y_mm - cy, place.rotation).rect


def state(
    hands: list[list[int]],
    table: list[dict[str, Any]] | None = None,
    *,
    players: int | None = None,
    current: int = 0,
    turn: int = 0,
    scores: list[int] | None = None,
    stars: dict[str, Any] | None = None,
    size: str = "medium",
    goal: int = 40,
    pile: list[int] | None = None,
) -> dict[str, Any]:
    """A hand-built state dict (version 2, docs/conex-state.md); every card not in ``hands`` or on ``table`` goes to
    the draw pile (id order)."""
    n = players or len(hands)
    table = table or []
    used = {i for h in hands for i in h} | {t["card"] for t in table}
    if pile is None:
        pile = [i for i in sorted(DECK) if i not in used]
    d: dict[str, Any] = {
        "version": 2,
        "game": "conex",
        "setup": {"players": n, "seed": 1, "table": size, "goal": goal},
        "hands": hands,
        "draw_pile": pile,
        "table": table,
        "scores": scores or [0] * n,
        "current_player": current,
        "turn": turn,
    }
    if stars is not None:
        d["stars"] = stars
    return d


def game(*args: Any, **kwargs: Any) -> Game:
    return Game.from_dict(state(*args, **kwargs))
