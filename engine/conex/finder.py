"""The CONEX placement finder: legal poses for a card without typing coordinates (rules P1-P4, V1-V2).

Behind hints, hand counts, auto-fit, the AI, ``targets_for`` (the ``target`` autocomplete) and ``place`` without
a rotation (``best_rotation``). For each (corner, target) pair the card may use — the targets are the visible main
areas of table cards of the corner's colour (newest first) and that colour's board square — taken in order of
the points they score (V1 + V2):

0. a pair is skipped when its target is sealed (no point of its outline is 1 mm clear of everything forbidden, so
   no card can leave it);
1. the quick edge candidates (``finder_search.edge_candidates``): poses crossing the target's exposed outline,
   pointing out of it; roomy poses when there are any;
2. if a pair gets no legal pose that way (none of its edge candidates passes the exact check), the lattice search
   (``finder_search.lattice_search``): every corner position on the 1 mm grid and every rotation on the 5-degree
   grid, searched whole when its first poses all fail the exact check, so **a pair gets a pose whenever one exists
   on that lattice** (bench/bench_finder_recall.py measures this
   against a brute force of the real check). Whether a pair is searched never depends on what earlier searches
   left in the caches (issue 22: a pair with an edge pose but no lattice candidate was skipped once another search
   had built the target's rasters, so ``corner=1, target="board"`` and ``targets_for`` missed a pose the
   unrestricted search had found);
3. every candidate is judged with ``TargetGeom.evaluate`` (vectorised P4/P1/P2/P3);
4. ranking: points, then clearance (distance to the nearest forbidden thing or the table edge, capped at 3 cm, to
   0.5 mm), then candidate order; near-duplicates (same corner and target, within 2 cm and 45 degrees) are
   skipped; once ``limit`` poses are chosen, pairs worth fewer points are not searched.

Poses are rounded to 1 mm and whole degrees before they are judged, and each returned pose is re-checked with the
exact check (``Table.check_pose``). A target the geometry library fails on (a ``GEOSException``) is skipped like one
without a pose (:func:`_or`); a pose it fails on is refused by the exact check (rule ``Geometry``), so skipped too.
Per-target geometry is cached on the table until it changes, so the cards of one hand share it. Deterministic: the
same state gives the same list.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TypeVar

import numpy as np
import shapely
from shapely.errors import GEOSException

from engine.conex.actions import Place
from engine.conex.deck import Card, Corner
from engine.conex.finder_explain import no_pose_error, no_rotation_error
from engine.conex.finder_geom import TargetGeom
from engine.conex.finder_search import edge_candidates, lattice_any, lattice_search, sealed
from engine.conex.geometry import centre_for_corner
from engine.conex.position import Position
from engine.conex.table import Table, Target
from engine.errors import IllegalActionError, InvalidInputError, quoted

ALL = 1 << 30  # ``want`` for a lattice search that judges every candidate
_Found = tuple[int, float, int, int, Corner, Target, float, float, float]  # pts, clearance, order, i, c, tgt, x, y, r
_Pair = tuple[int, int, Corner, Target]  # points, order, corner, target


def validate(game: Position, player: int, card_id: int, corner: int | None, target: int | str | None) -> Card:
    """The card, after checking the request: a seat, a card in that seat's hand (P5), a corner it has, a target on
    the table. Raises ``InvalidInputError`` or ``IllegalActionError`` (P5)."""
    game.seat(player)
    card = game.card(card_id)
    if card_id not in game.hands[player]:
        raise IllegalActionError(f"card {card_id} is not in seat {player + 1}'s hand", rule="P5", card=card_id)
    if corner is not None and corner not in [c.index for c in card.corners]:
        raise InvalidInputError(
            f"card {card_id} has corners 1-{len(card.corners)}, not {quoted(corner)}",
            reason="no_such_corner",
            card=card_id,
            corner=corner,
            corners=len(card.corners),
        )
    if target is not None and target != "board":
        if isinstance(target, bool) or not isinstance(target, int) or target not in game.board:
            if isinstance(target, int) and not isinstance(target, bool):
                raise InvalidInputError(
                    f"card #{target} is not on the table: give a table card number or the board",
                    reason="not_on_table",
                    target=target,
                )
            raise InvalidInputError(
                f"{quoted(target)} is not a target: give a table card number or the board",
                reason="not_a_target",
                target=target,
            )
    return card


def pair_points(table: Table, corner: Corner, target: Target) -> int:
    """V1 + V2: the corner's value, +2 on a +2 card."""
    return corner.value + (2 if target != "board" and table.get(int(target)).card.action == "plus2" else 0)


def _pairs(table: Table, card: Card, corner: int | None, target: Target | None) -> list[_Pair]:
    pairs: list[_Pair] = []
    for c in card.corners:
        if corner is not None and c.index != corner:
            continue
        for tgt, _ in table.targets_for(c.color):
            if target is None or tgt == target:
                pairs.append((pair_points(table, c, tgt), len(pairs), c, tgt))
    pairs.sort(key=lambda k: (-k[0], k[1]))
    return pairs


_T = TypeVar("_T")


def _or(default: _T, failed: list[Exception] | None, fn: Callable[..., _T], *args: object) -> _T:
    """``fn(*args)``, or ``default`` when the geometry library fails on the pair's target (a ``GEOSException``,
    "TopologyException: ..."; noted in ``failed``): that pair is searched no further, the others are (never a
    player's "something went wrong" for one odd target)."""
    try:
        return fn(*args)
    except GEOSException as err:
        if failed is not None:
            failed.append(err)
        return default


def unchecked(card: Card, corner: int, err: Exception) -> IllegalActionError:
    """The refusal (rule ``Geometry``, reason ``"unchecked"``, as ``Table.check_pose``'s) when the geometry library
    failed while explaining why no pose was found: what was found cannot be told truly."""
    return IllegalActionError(
        f"card {card.id} (corner {corner}) could not be checked here: the geometry library failed ({str(err)[:80]})",
        rule="Geometry",
        card=card.id,
        corner=corner,
        reason="unchecked",
    )


def _hopeless(table: Table, pair: _Pair) -> bool:
    """True when the target is ``sealed`` (no card fits on it at all). Only that: the edge candidates of every other
    pair are always tried, whatever rasters earlier searches built (a pose legal only between the lattice's
    5-degree steps is still found by its edges, the same in every call; issue 22)."""
    _, _, c, tgt = pair
    return sealed(TargetGeom.get(table, tgt, c.color))


def _lattice_hopeless(table: Table, pair: _Pair) -> bool:
    """True when the target's rasters already exist and hold no lattice candidate for the corner: the lattice
    search would find nothing (a shortcut for that step only; never builds rasters)."""
    _, _, c, tgt = pair
    geom = TargetGeom.get(table, tgt, c.color)
    return geom.has_rasters and not lattice_any(geom, c)


def _edge_found(table: Table, pair: _Pair) -> list[_Found]:
    pts, order, c, tgt = pair
    geom = TargetGeom.get(table, tgt, c.color)
    x, y, r = edge_candidates(geom, c)
    idx, clearance = geom.evaluate(c, x, y, r)
    return [
        (pts, float(cl), order, int(i), c, tgt, float(x[i]), float(y[i]), float(r[i]))
        for i, cl in zip(idx, clearance, strict=True)
    ]


def _lattice_found(table: Table, pair: _Pair, want: int) -> list[_Found]:
    pts, order, c, tgt = pair
    x, y, r, clearance = lattice_search(TargetGeom.get(table, tgt, c.color), c, want)
    return [
        (pts, float(clearance[i]), order, 1_000_000 + i, c, tgt, float(x[i]), float(y[i]), float(r[i]))
        for i in range(len(x))
    ]


def find_placements(
    game: Position,
    player: int,
    card_id: int,
    corner: int | None,
    target: int | str | None,
    limit: int,
    failed: list[Exception] | None = None,
) -> list[Place]:
    """See ``Game.find_placements``; ``failed`` collects the geometry library's failures on skipped targets (so an
    empty answer is not told as "no legal pose" when a target could not be searched)."""
    card = validate(game, player, card_id, corner, target)
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise InvalidInputError(f"limit must be a whole number >= 1, not {limit!r}", reason="bad_limit", limit=limit)
    table = game.board
    pairs = _pairs(table, card, corner, target)  # type: ignore[arg-type]
    found: list[_Found] = []
    verified: dict[tuple[int, float, float, float], Target | None] = {}
    chosen: list[Place] = []
    k = 0
    while k < len(pairs):
        # every pair worth these points first by its edges, then the lattice for those that got nothing
        pts = pairs[k][0]
        tier = []
        while k < len(pairs) and pairs[k][0] == pts:
            tier.append(pairs[k])
            k += 1
        searched = []
        for pair in tier:
            if _or(True, failed, _hopeless, table, pair):
                continue
            found.extend(_or(list[_Found](), failed, _edge_found, table, pair))
            searched.append(pair)
        posed: set[tuple[int, Target]] = set()
        chosen = _select(table, player, card, found, limit, verified, posed)
        if len(chosen) >= limit:
            return chosen
        # fewer than ``limit``: every candidate was judged, so a pair without a chosen pose has no legal edge pose
        empty = [
            pair
            for pair in searched
            if (pair[2].index, pair[3]) not in posed and not _or(True, failed, _lattice_hopeless, table, pair)
        ]
        more = {id(pair): _or(list[_Found](), failed, _lattice_found, table, pair, limit) for pair in empty}
        if any(more.values()):
            found.extend(f for got in more.values() for f in got)
            chosen = _select(table, player, card, found, limit, verified, posed)
            if len(chosen) >= limit:
                return chosen
            # a pair whose first lattice poses all failed the exact check: the whole lattice (rare)
            rest = [
                f
                for pair in empty
                if more[id(pair)] and (pair[2].index, pair[3]) not in posed
                for f in _or(list[_Found](), failed, _lattice_found, table, pair, ALL)
            ]
            if rest:
                found.extend(rest)
                chosen = _select(table, player, card, found, limit, verified, posed)
                if len(chosen) >= limit:
                    return chosen
    return chosen


def has_pose(game: Position, player: int, card: Card, corner: Corner, target: Target) -> bool:
    """Whether the finder finds a legal pose of ``corner`` on ``target`` (no validation; for ``targets_for``)."""
    try:
        return _has_pose(game.board, player, card, (pair_points(game.board, corner, target), 0, corner, target))
    except GEOSException:
        return False


def _has_pose(table: Table, player: int, card: Card, pair: _Pair) -> bool:
    if _hopeless(table, pair):
        return False
    verified: dict[tuple[int, float, float, float], Target | None] = {}
    if _select(table, player, card, _edge_found(table, pair), 1, verified):
        return True
    if _lattice_hopeless(table, pair):
        return False
    first = _lattice_found(table, pair, 1)
    if _select(table, player, card, first, 1, verified):
        return True
    return bool(first) and bool(_select(table, player, card, _lattice_found(table, pair, ALL), 1, verified))


def targets_for(game: Position, player: int, card_id: int, corner: int) -> list[Target]:
    """See ``Game.targets_for``."""
    card = validate(game, player, card_id, corner, None)
    c = card.corner(corner)
    table = game.board
    return [t for _, _, _, t in _pairs(table, card, corner, None) if has_pose(game, player, card, c, t)]


def _select(
    table: Table,
    player: int,
    card: Card,
    found: list[_Found],
    limit: int,
    verified: dict[tuple[int, float, float, float], Target | None],
    posed: set[tuple[int, Target]] | None = None,
) -> list[Place]:
    """The best ``limit`` of ``found``: points, then clearance (to 0.5 mm), then candidate order; skipping a pose
    within 2 cm and 45 degrees of a chosen one on the same corner and target; each re-checked exactly (results
    remembered in ``verified``: the target the pose lands on, ``None`` when illegal, keyed by corner and pose, so a
    pose two pairs propose is judged for each pair's own target). ``posed`` collects the ``(corner index,
    target)`` of every chosen pose."""
    found.sort(key=lambda f: (-f[0], -round(f[1] * 2) / 2, f[2], f[3]))
    chosen: list[tuple[Corner, Target, float, float, float]] = []
    out: list[Place] = []
    for _pts, _cl, _o, _i, c, tgt, x, y, r in found:
        if any(
            c2 is c and t2 == tgt and math.hypot(x - x2, y - y2) < 20.0 and abs((r - r2 + 180.0) % 360.0 - 180.0) < 45.0
            for c2, t2, x2, y2, r2 in chosen
        ):
            continue
        place = Place(player, card.id, c.index, round(x / 10.0, 1), round(y / 10.0, 1), r)
        key = (c.index, x, y, r)
        if key not in verified:
            try:
                cx, cy = centre_for_corner(c, place.x_mm, place.y_mm, r)
                verified[key] = table.check_pose(card, c.index, cx, cy, r).target
            except IllegalActionError:  # the filter is lenient only by micrometres
                verified[key] = None
        if verified[key] != tgt:
            continue
        chosen.append((c, tgt, x, y, r))
        out.append(place)
        if posed is not None:
            posed.add((c.index, tgt))
        if len(out) >= limit:
            break
    return out


ROTATION_STEP_DEG = 1  # best_rotation tries every whole degree


def best_rotation(game: Position, card: Card, corner_index: int, x_mm: float, y_mm: float) -> float:
    """The best legal rotation (whole degrees) for ``corner_index`` of ``card`` with its centroid at ``(x_mm,
    y_mm)``: every whole degree is tried on every target whose grown visible area holds the point, and the legal
    one with the most clearance wins (ties: the smallest angle). So a rotation is found whenever one at whole-degree
    resolution is legal.

    Raises ``IllegalActionError`` when none is: the rule and details of the most common reason among the
    rotations (``finder_explain.no_rotation_error``)."""
    table = game.board
    corner = card.corner(corner_index)
    rots = np.arange(0.0, 360.0, ROTATION_STEP_DEG)
    xs, ys = np.full(len(rots), float(x_mm)), np.full(len(rots), float(y_mm))
    best: tuple[float, float] | None = None  # (clearance, rotation)
    for tgt, _ in table.targets_for(corner.color):
        try:
            geom = TargetGeom.get(table, tgt, corner.color)
            if not shapely.contains_xy(geom.grown, x_mm, y_mm):
                continue
            idx, clearance = geom.evaluate(corner, xs, ys, rots)
        except GEOSException:  # this target could not be searched; the others are
            continue
        order = sorted(zip((-round(float(c) * 2) / 2 for c in clearance), rots[idx].tolist(), strict=True))
        for neg_cl, rot in order:
            cx, cy = centre_for_corner(corner, x_mm, y_mm, rot)
            try:
                table.check_pose(card, corner_index, cx, cy, rot)
            except IllegalActionError:
                continue
            if best is None or (-neg_cl, -rot) > (best[0], -best[1]):
                best = (-neg_cl, rot)
            break
    if best is not None:
        return float(best[1])
    try:
        err = no_rotation_error(game, card, corner_index, x_mm, y_mm)
    except GEOSException as failed:
        raise unchecked(card, corner_index, failed) from failed
    raise err


def auto_fit(game: Position, player: int, card_id: int, corner: int, target: int | str) -> Place:
    """See ``Game.auto_fit``: the best pose of ``corner`` on ``target``, else the ``IllegalActionError`` of
    ``finder_explain.no_pose_error`` (why none exists)."""
    card = validate(game, player, card_id, corner, target)
    skipped: list[Exception] = []
    found = find_placements(game, player, card_id, corner, target, 1, skipped)
    if found:
        return found[0]
    if skipped:  # the target could not be searched: "no legal pose" would not be known
        raise unchecked(card, corner, skipped[0])
    try:
        err = no_pose_error(game, card, card.corner(corner), target)  # type: ignore[arg-type]
    except GEOSException as failed:
        raise unchecked(card, corner, failed) from failed
    raise err


__all__ = ["ROTATION_STEP_DEG", "auto_fit", "best_rotation", "find_placements", "targets_for", "validate"]
