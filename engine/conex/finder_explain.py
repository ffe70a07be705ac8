"""Why the CONEX finder found nothing: the errors of ``auto_fit`` and of a ``place`` without a rotation
(``engine/conex/finder.py`` raises them; this module does not import it).

A specific pose that fails is explained by the check itself (``Table.check_pose``: P1 colour or not on the target,
P2 touches card #n / the board at gap g mm, P3 touches corner k of card #n, P4 off the table edge by d cm, each
with machine-readable ``details``). When *no* pose exists, these functions say which rule blocks the corner and by
what: they judge a spread sample of poses with the real check and tally the first failed rule and the thing it
names (the *blockers*). Errors are ``IllegalActionError`` whose ``rule`` is the most common blocker's rule (P1 for
a colour mismatch or a corner that cannot lie on the target) and whose ``details`` are::

    card, corner            the card and corner asked for
    target                  (auto-fit) the card id or "board"
    at_cm                   (no rotation) the corner point asked for, cm
    reason                  "color" | "covered" | "too_small" | "blocked"
    corner_color            colour letter of the corner
    target_color            (auto-fit on a card, no rotation on a card) the target card's background colour letter
    blockers                [{"rule": "P2", "other": 12, "other_kind": "card", "share": 0.62}, ...] most common
                            first; P3 entries carry "other_corner", P4 entries "edge" ("left"...), P1 entries
                            "other" when a card of the wrong colour lies there; shares of the poses tried, to 0.01
    poses_tried             how many poses the tally judged
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import numpy as np
import shapely

from engine.conex.deck import COLOR_NAMES, Card, Corner
from engine.conex.finder_geom import TargetGeom
from engine.conex.geometry import centre_for_corner, posed_batch
from engine.conex.position import Position
from engine.conex.table import Target
from engine.errors import IllegalActionError

SAMPLE_STEP_MM = 3.0
SAMPLE_ROT_DEG = 10.0
MAX_SAMPLES = 120
ROTATION_SAMPLE_DEG = 5.0
_Key = tuple[tuple[str, Any], ...]


def _blocker(exc: IllegalActionError) -> _Key:
    d = exc.details
    if exc.rule == "P4":
        return (("rule", "P4"), ("edge", d.get("edge")))
    if exc.rule == "P3":
        return (("rule", "P3"), ("other", d.get("other")), ("other_corner", d.get("other_corner")))
    if exc.rule == "P2":
        return (("rule", "P2"), ("other", d.get("other")), ("other_kind", d.get("other_kind")))
    if d.get("reason") == "color":
        return (("rule", "P1"), ("other", d.get("other")), ("reason", "color"))
    return (("rule", exc.rule), ("reason", d.get("reason", "")))


def tally(game: Position, card: Card, corner: Corner, poses: list[tuple[float, float, float]]) -> list[dict[str, Any]]:
    """The blockers of ``poses`` (corner centroid mm, rotation) by the real check, most common first (ties in
    first-seen order), each a dict with ``rule``, what it names and ``share`` (0-1, two decimals). Legal poses are
    not counted."""
    counts: Counter[_Key] = Counter()
    first: dict[_Key, int] = {}
    for x, y, r in poses:
        cx, cy = centre_for_corner(corner, x, y, r)
        try:
            game.board.check_pose(card, corner.index, cx, cy, r)
        except IllegalActionError as exc:
            key = _blocker(exc)
            counts[key] += 1
            first.setdefault(key, len(first))
    total = max(1, len(poses))
    ranked = sorted(counts, key=lambda k: (-counts[k], first[k]))
    return [{**dict(k), "share": round(counts[k] / total, 2)} for k in ranked]


def blocker_text(b: dict[str, Any]) -> str:
    """English for one blocker without its rule (``"card #12"``, ``"CONEX corner 2 of card #9"``)."""
    rule = b["rule"]
    if rule == "P4":
        return f"the {b.get('edge')} edge of the table"
    if rule == "P3":
        return f"CONEX corner {b.get('other_corner')} of card #{b.get('other')}"
    if rule == "P2":
        return "the scoring board" if b.get("other") == "board" else f"card #{b.get('other')}"
    if b.get("reason") == "color":
        other = b.get("other")
        return f"{'a board square' if other == 'board' else f'card #{other}'} of another colour"
    return "nothing it may lie on"


def _summary(blockers: list[dict[str, Any]]) -> str:
    """The blockers that together cover 90 % of the poses (at most 3): ``"card #1 (P2, 58%) or card #12 (P2,
    40%)"``; a lone one without its share."""
    parts: list[str] = []
    covered = 0.0
    for b in blockers[:3]:
        parts.append(f"{blocker_text(b)} ({b['rule']}, {round(100 * b['share'])}%)")
        covered += b["share"]
        if covered >= 0.9:
            break
    if len(parts) == 1:
        return f"{blocker_text(blockers[0])} ({blockers[0]['rule']})"
    return ", ".join(parts[:-1]) + " or " + parts[-1]


def _on(target: Target) -> str:
    return "the board" if target == "board" else f"card #{target}"


def _sample(geom: TargetGeom, corner: Corner) -> list[tuple[float, float, float]]:
    """Up to ``MAX_SAMPLES`` poses spread over the target (3 mm x 10 degree grid) whose corner triangle lies on the
    grown visible area (so P1 holds and the tally shows what else blocks)."""
    x0, y0, x1, y1 = geom.grown.bounds
    xs = np.arange(math.ceil(x0 / SAMPLE_STEP_MM), math.floor(x1 / SAMPLE_STEP_MM) + 1) * SAMPLE_STEP_MM
    ys = np.arange(math.ceil(y0 / SAMPLE_STEP_MM), math.floor(y1 / SAMPLE_STEP_MM) + 1) * SAMPLE_STEP_MM
    mx, my = (a.reshape(-1) for a in np.meshgrid(xs, ys))
    on = shapely.contains_xy(geom.grown, mx, my)
    mx, my = mx[on], my[on]
    rots = np.arange(0.0, 360.0, SAMPLE_ROT_DEG)
    px, py, pr = np.repeat(mx, len(rots)), np.repeat(my, len(rots)), np.tile(rots, len(mx))
    if not len(px):
        return []
    _, tri, _ = posed_batch(corner, px, py, pr)
    fits = shapely.contains(geom.grown, shapely.polygons(tri))
    px, py, pr = px[fits], py[fits], pr[fits]
    if len(px) > MAX_SAMPLES:
        pick = np.linspace(0, len(px) - 1, MAX_SAMPLES).round().astype(int)
        px, py, pr = px[pick], py[pick], pr[pick]
    return list(zip(px.tolist(), py.tolist(), pr.tolist(), strict=True))


def no_pose_error(game: Position, card: Card, corner: Corner, target: Target) -> IllegalActionError:
    """The error for "no legal pose of ``corner`` on ``target``" with the reason (see the module docstring)."""
    table = game.board
    head = f"no legal pose for corner {corner.index} of card {card.id} on {_on(target)}"
    base: dict[str, Any] = {"card": card.id, "corner": corner.index, "target": target, "corner_color": corner.color}
    colour = COLOR_NAMES[corner.color]
    if target != "board":
        tcol = table.get(int(target)).card.color
        base["target_color"] = tcol
        if tcol != corner.color:
            return IllegalActionError(
                f"{head}: the corner is {colour}, card #{target} is {COLOR_NAMES[tcol]}",
                rule="P1",
                reason="color",
                blockers=[],
                poses_tried=0,
                **base,
            )
    geom = TargetGeom.get(table, target, corner.color)
    if geom.area.is_empty:
        what = f"the {colour} board square is" if target == "board" else f"card #{target} is"
        return IllegalActionError(
            f"{head}: {what} covered by other cards",
            rule="P1",
            reason="covered",
            blockers=[],
            poses_tried=0,
            **base,
        )
    poses = _sample(geom, corner)
    if not poses:
        return IllegalActionError(
            f"{head}: the corner ({corner.legs_mm[0] / 10:g} x {corner.legs_mm[1] / 10:g} cm) does not fit on the "
            f"visible part of {_on(target) if target != 'board' else f'the {colour} board square'}",
            rule="P1",
            reason="too_small",
            blockers=[],
            poses_tried=0,
            **base,
        )
    blockers = tally(game, card, corner, poses)
    rule = blockers[0]["rule"] if blockers else "P2"
    return IllegalActionError(
        f"{head}: every pose with the corner there touches {_summary(blockers)}" if blockers else head,
        rule=rule,
        reason="blocked",
        blockers=blockers,
        poses_tried=len(poses),
        **base,
    )


def no_rotation_error(game: Position, card: Card, corner_index: int, x_mm: float, y_mm: float) -> IllegalActionError:
    """The error for a ``place`` without rotation when no whole-degree rotation is legal at ``(x_mm, y_mm)``: the
    tally over every ``ROTATION_SAMPLE_DEG`` degrees (see the module docstring; ``at_cm`` instead of ``target``).
    When the point is on no area of the corner's colour, the check's own P1 error (what lies there) is kept."""
    table = game.board
    corner = card.corner(corner_index)
    at = (round(x_mm / 10, 1), round(y_mm / 10, 1))
    head = f"no rotation of card {card.id} is legal with corner {corner_index} at ({at[0]:.1f}, {at[1]:.1f}) cm"
    rots = np.arange(0.0, 360.0, ROTATION_SAMPLE_DEG).tolist()
    blockers = tally(game, card, corner, [(x_mm, y_mm, r) for r in rots])
    base: dict[str, Any] = {"card": card.id, "corner": corner_index, "at_cm": at, "corner_color": corner.color}
    on_target = [t for t, a in table.targets_for(corner.color) if shapely.contains_xy(a.buffer(0.5), x_mm, y_mm)]
    if not on_target:
        cx, cy = centre_for_corner(corner, x_mm, y_mm, 0.0)
        try:
            table.check_pose(card, corner_index, cx, cy, 0.0)
        except IllegalActionError as exc:
            if exc.rule == "P1":
                return IllegalActionError(
                    f"{head}: {exc.message}",
                    rule="P1",
                    **{**exc.details, **base, "blockers": blockers, "poses_tried": len(rots)},
                )
    if on_target and on_target[0] != "board":
        base["target_color"] = table.get(int(on_target[0])).card.color
    if blockers and all(b["rule"] == "P1" for b in blockers):
        return IllegalActionError(
            f"{head}: at every rotation the corner overhangs the visible part of {_on(on_target[0])} (P1)"
            if on_target
            else f"{head}: the corner lies on nothing of its colour (P1)",
            rule="P1",
            reason="too_small",
            blockers=blockers,
            poses_tried=len(rots),
            **base,
        )
    rule = blockers[0]["rule"] if blockers else "P2"
    return IllegalActionError(
        f"{head}: every rotation touches {_summary(blockers)}",
        rule=rule,
        reason="blocked",
        blockers=blockers,
        poses_tried=len(rots),
        **base,
    )


__all__ = ["blocker_text", "no_pose_error", "no_rotation_error", "tally"]
