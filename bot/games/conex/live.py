"""CONEX on the live table (``bot/web/``): the page's view of a seat, its actions as engine actions, and the live
pose check (legal or not in the engine's own words, the points, the finder's nearest legal pose to snap to).

Units on the page: table mm, the card **centre** pose (as ``Game.view_for`` gives the table), rotation in degrees
clockwise. A ``Place`` is the chosen corner's centroid in cm (the engine's action), rounded to 1 mm and 1 degree
like every stored action, and the check is made on that rounded pose, so what the page shows green is what
commits.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

from bot.errors import BotError, describe
from bot.games.conex.letters import letters_of
from bot.games.conex.narration import game_of
from bot.games.conex.placing import can_double
from engine.conex import BOARD_SQUARES, Card, Game, Place, turns
from engine.conex.geometry import BOARD_MM, centre_for_corner, corner_point, normalize_angle
from engine.errors import InvalidInputError, RuleError

if TYPE_CHECKING:
    from bot.core.kind import Snapshot

SNAP_MM = 90.0
"""A drop snaps to a legal pose whose card centre is at most this far (mm) from where the card was let go."""
SNAP_WIDE_MM = 400.0
"""A card picked from the keyboard (or tapped) goes to the middle of the view and snaps this far: anywhere near."""
SNAP_PER_CORNER = 24
"""Finder poses looked at per corner when snapping."""


def card_json(card: Card) -> dict[str, Any]:
    """A card's face for the page: id, colour, action and corners (card-local mm, portrait, y down)."""
    return {
        "id": card.id,
        "color": card.color,
        "action": card.action,
        "corners": [
            {"index": k.index, "color": k.color, "value": k.value, "points": [list(p) for p in k.vertices]}
            for k in card.corners
        ],
    }


def view(snap: Snapshot, seat: int | None, locale: str | None) -> dict[str, Any]:
    """The page's state for ``seat`` (``None``: watching): ``Game.view_for(seat)`` (only the seat's own hand, the
    pile as a count), the faces of the cards it may see, the board, the hand letters, what the seat may do and
    (for the lightning star's holder only) the table cards it may remove."""
    game = game_of(snap)
    seen = game.view_for(seat)
    seen.pop("history", None)
    seen.pop("setup", None)
    visible = [t["card"] for t in seen["table"]]
    hand = list(seen["hands"][seat]) if seat is not None and seen["hands"][seat] is not None else []
    letters = letters_of(snap.env.extra, game, seat) if seat is not None else {}
    to_play = game.current_player
    mine = seat is not None and not game.is_over
    return {
        **seen,
        "hand": [{"card": c, "letter": letters.get(c, "")} for c in hand],
        "faces": {str(c): card_json(game.card(c)) for c in [*visible, *hand]},
        "board_mm": BOARD_MM,
        "squares": {colour: list(poly.bounds) for colour, poly in BOARD_SQUARES.items()},
        "table_mm": list(game.table_size_mm),
        "free": [c for c in visible if _free(game, c)] if mine and game.stars.get("lightning") == seat else [],
        "can": {
            "place": mine and to_play == seat and not game.pending_discards,
            "draw": mine and to_play == seat and bool(game.draw_pile) and not game.pending_discards,
            "pass": mine and to_play == seat and not game.draw_pile and not game.pending_discards,
            "lightning": mine and game.can_lightning(seat),  # type: ignore[arg-type]
            "discard": mine and seat in game.pending_discards,
            "double": mine and can_double(game, seat),  # type: ignore[arg-type]
        },
    }


def _free(game: Game, card_id: int) -> bool:
    """A table card lightning may remove (the engine's own check on a copy)."""
    try:
        holder = game.stars.get("lightning")
        if holder is None:
            return False
        game.check(game.parse_action(f"lightning {card_id}", holder))
        return True
    except RuleError:
        return False


def _number(payload: Mapping[str, Any], key: str) -> float:
    value = payload.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise InvalidInputError(f"{key} must be a number", reason="not_number", what=key)
    return float(value)


def _card(payload: Mapping[str, Any]) -> int:
    value = payload.get("card")
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInputError("card must be a card number", reason="not_card", text=str(value)[:40], letters="")
    return value


def place_of(game: Game, seat: int, payload: Mapping[str, Any], corner: int) -> Place:
    """The ``Place`` that puts ``corner`` of the payload's card where the page holds it: its centre ``x``/``y``
    (mm) and ``rotation``; rounded to 1 mm / 1 degree. Raises ``InvalidInputError`` (not numbers, unknown card)."""
    card = game.card(_card(payload))
    rotation = float(round(normalize_angle(_number(payload, "rotation")))) % 360.0
    px, py = corner_point(card.corner(corner), _number(payload, "x"), _number(payload, "y"), rotation)
    return Place(seat, card.id, corner, round(px / 10, 1), round(py / 10, 1), rotation, bool(payload.get("double")))


def action(snap: Snapshot, seat: int, payload: Mapping[str, Any]) -> tuple[Any, dict[str, Any]]:
    """``{"type": "place", "card", "corner", "x", "y", "rotation", "double"}`` (centre pose in mm) -> ``Place``;
    ``draw``; ``pass``; ``{"type": "lightning", "card"}``; ``{"type": "discard", "card"}``. Raises
    ``InvalidInputError`` for anything else."""
    kind = payload.get("type")
    if kind == "place":
        corner = payload.get("corner")
        if not isinstance(corner, int) or isinstance(corner, bool):
            raise InvalidInputError("corner must be 1-3", reason="not_number", what="corner")
        return place_of(game_of(snap), seat, payload, corner), {}
    if kind in ("draw", "pass"):
        return kind, {}
    if kind in ("lightning", "discard"):
        return f"{kind} {_card(payload)}", {}
    raise BotError("live.bad_message")


def _centre(game: Game, place: Place) -> tuple[float, float]:
    corner = game.card(place.card).corner(place.corner)
    return centre_for_corner(corner, place.x * 10, place.y * 10, place.rotation or 0.0)


def preview(game: Game, seat: int, payload: dict[str, Any], locale: str | None) -> dict[str, Any]:
    """Is the pose legal, for which corner and how many points; else why not (the engine's words) and, when
    ``payload["snap"]``, the finder's nearest legal pose (centre within :data:`SNAP_MM`; ``"wide"``:
    :data:`SNAP_WIDE_MM`). CPU work."""
    try:
        card = game.card(_card(payload))
    except RuleError as err:
        return {"legal": False, "error": describe(err, locale).replace("**", "")}
    errors: list[RuleError] = []
    for k in card.corners:
        try:
            place = place_of(game, seat, payload, k.index)
            game.check(place)
            resolved, verdict = game.check_place(place)
            cx, cy = _centre(game, resolved)
            return {
                "legal": True,
                "corner": k.index,
                "points": turns.points(game, resolved, verdict),
                "target": verdict.target,
                "pose": {"x": cx, "y": cy, "rotation": resolved.rotation},
            }
        except RuleError as err:
            errors.append(err)
    # the most telling refusal: one about this card's pose (P2-P4), else the first (turn, colour, ...)
    telling = next((e for e in errors if e.rule not in ("P1", "Input")), errors[0])
    out: dict[str, Any] = {"legal": False, "error": describe(telling, locale).replace("**", "")}
    if payload.get("snap") and not isinstance(telling, InvalidInputError):
        out["snap"] = nearest(game, seat, card, payload)
    return out


def nearest(game: Game, seat: int, card: Card, payload: Mapping[str, Any]) -> dict[str, Any] | None:
    """The finder's legal pose of ``card`` nearest to the payload's centre (rotation counts 1 mm per 3 degrees),
    with its corner and points; ``None`` when none is within :data:`SNAP_MM` (``snap == "wide"``:
    :data:`SNAP_WIDE_MM`)."""
    x, y, rotation = _number(payload, "x"), _number(payload, "y"), _number(payload, "rotation")
    radius = SNAP_WIDE_MM if payload.get("snap") == "wide" else SNAP_MM
    best: tuple[float, dict[str, Any]] | None = None
    for k in card.corners:
        try:
            found = game.find_placements(seat, card.id, k.index, None, limit=SNAP_PER_CORNER)
        except RuleError:
            continue
        for place in found:
            cx, cy = _centre(game, place)
            turn = abs((float(place.rotation or 0.0) - rotation + 180.0) % 360.0 - 180.0)
            distance = math.hypot(cx - x, cy - y)
            if distance > radius:
                continue
            score = distance + turn / 3.0
            if best is None or score < best[0]:
                resolved, verdict = game.check_place(place)
                pose = {"x": cx, "y": cy, "rotation": resolved.rotation}
                points = turns.points(game, resolved, verdict)
                best = (score, {"corner": k.index, "pose": pose, "points": points, "target": verdict.target})
    return best[1] if best else None


async def check(
    cpu: Callable[..., Awaitable[Any]], snap: Snapshot, seat: int, payload: Mapping[str, Any], locale: str | None
) -> dict[str, Any]:
    """:func:`preview` through the layer's CPU seam."""
    result: dict[str, Any] = await cpu(preview, game_of(snap), seat, dict(payload), locale)
    return result


class ConexLive:
    """The adapter (``bot.web.adapter.LiveGame``)."""

    view = staticmethod(view)
    action = staticmethod(action)
    check = staticmethod(check)


LIVE = ConexLive()
