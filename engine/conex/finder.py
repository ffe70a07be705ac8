"""The CONEX placement finder: legal poses for a card without typing coordinates (rules P1-P4, V1-V2).

Search, for each corner of the card (or the one asked for) and each visible area its colour may lie on (the
visible main areas of cards of that colour, newest first, then the board square of that colour), taking the
(corner, target) pairs in order of the points they score:

1. the *forbidden set* of the target: everything covered (board + card rectangles) within 14 cm, minus what a
   card on that target may touch (its visible main area, or the visible board); grown by 1.09 mm and prepared;
2. edge candidates: points every 8 mm along the part of the target's boundary that is not within 1 mm of the
   forbidden set (the only place where the card can leave the target); at each, rotations pointing the card
   body out of the target and +-15..60 degrees around that, plus rotations aligned with the target's edges; the
   corner pushed inwards just far enough for its triangle to fit (and 8 mm deeper); on a board square also a
   grid inside the square with every 15 degrees (a card may lie over the board);
3. if a pair has no legal edge candidate and the finder still lacks poses, a fallback from free card-centre
   positions (a 6 mm grid of centres outside the 31 mm "core" of the forbidden set, every 10 degrees);
4. positions are rounded to 1 mm and rotations to whole degrees *before* anything is measured, so the text of the
   resulting ``Place`` replays exactly;
5. every candidate is tested at once with numpy + vectorised prepared shapely predicates, cheapest first: card
   centre in the core (P2/P3), P4 by bounds, corner vertices on the target (P1), rectangle corners and
   mid-edges in the forbidden set, then the exact polygons (touching = within 1.09 mm here, a hair stricter
   than the check, so results are legal);
6. ranking: points (V1 + V2), then clearance (distance to the nearest forbidden thing or the table edge,
   capped at 3 cm, to 0.5 mm), then candidate order; near-duplicates (same corner and target, within 2 cm and
   45 degrees) are skipped; once ``limit`` poses are chosen, pairs worth fewer points are not searched.

Chosen poses are re-checked with the exact check (``Table.check_pose``). Per-target geometry is cached on the
table until it changes, so the cards of one hand share it. Deterministic: the same state gives the same list.
Measured recall against a dense brute force (3 mm x 5 degrees) on grown tables: about 87 % of the (corner,
target) pairs that have a legal pose get one from the finder.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from engine.conex.actions import Place
from engine.conex.deck import CARD_W_MM, Card, Corner
from engine.conex.geometry import LIES_ON_MM, TOUCH_MM, centre_for_corner, polygonal, posed_batch
from engine.conex.table import Table, Target
from engine.errors import IllegalActionError, InvalidInputError

if TYPE_CHECKING:
    from engine.conex.game import Game

CLEARANCE_CAP_MM = 30.0
GRID_MM = 14.0
BOUNDARY_STEP_MM = 8.0
DEPTHS_MM = (0.3, 8.0)  # how far inside the crossing edge the corner triangle sits (beyond its reach)
MAX_PER_AREA = 6000
CENTRE_STEP_MM = 6.0
CENTRE_ROT_DEG = 10.0


def _norm(a: np.ndarray) -> np.ndarray:
    return np.mod(np.round(a), 360.0)


def _edge_samples(lines: BaseGeometry, grown: BaseGeometry, step: float) -> tuple[np.ndarray, np.ndarray]:
    """Points along ``lines`` (pieces of an area's boundary) every ``step`` mm and the area's outward normals
    (``grown`` is the area grown by 0.5 mm, prepared: a probe 0.75 mm out is outside it)."""
    pts: list[np.ndarray] = []
    normals: list[np.ndarray] = []
    for line in getattr(lines, "geoms", [lines]):
        if line.is_empty or line.geom_type not in ("LineString", "LinearRing"):
            continue
        length = line.length
        if length < 0.5:
            continue
        n = max(1, round(length / step))
        s = (np.arange(n) + 0.5) * (length / n)
        p = shapely.get_coordinates(shapely.line_interpolate_point(line, s))
        a = shapely.get_coordinates(shapely.line_interpolate_point(line, np.minimum(s + 0.25, length)))
        b = shapely.get_coordinates(shapely.line_interpolate_point(line, np.maximum(s - 0.25, 0.0)))
        t = a - b
        t /= np.maximum(np.linalg.norm(t, axis=1, keepdims=True), 1e-9)
        nrm = np.stack([t[:, 1], -t[:, 0]], axis=1)
        probe = p + nrm * 0.75
        inside = shapely.contains_xy(grown, probe[:, 0], probe[:, 1])
        nrm[inside] *= -1.0
        pts.append(p)
        normals.append(nrm)
    if not pts:
        return np.empty((0, 2)), np.empty((0, 2))
    return np.concatenate(pts), np.concatenate(normals)


def _centre_candidates(
    corner: Corner, area: BaseGeometry, grown: BaseGeometry, core: BaseGeometry, bounds: tuple[float, ...]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Poses found from the card centre: a grid of centres (every ``CENTRE_STEP_MM``) around ``area`` that are
    outside ``core`` (P2/P3 need the centre 31 mm clear) and on the table, times rotations every
    ``CENTRE_ROT_DEG``,
    kept when the corner's centroid then falls on the (grown) area. Catches cards that cross a narrow target
    broadside, which the edge samples miss. Returns corner-centroid ``x, y`` and rotations."""
    gx, gy = corner.centroid
    reach = math.hypot(gx, gy)
    x0, y0, x1, y1 = area.bounds
    tx0, ty0, tx1, ty1 = bounds
    xs = np.arange(max(x0 - reach, tx0 + 30.0), min(x1 + reach, tx1 - 30.0) + 1e-9, CENTRE_STEP_MM)
    ys = np.arange(max(y0 - reach, ty0 + 30.0), min(y1 + reach, ty1 - 30.0) + 1e-9, CENTRE_STEP_MM)
    if not len(xs) or not len(ys):
        return np.empty(0), np.empty(0), np.empty(0)
    mesh_x, mesh_y = np.meshgrid(xs, ys)
    mx, my = mesh_x.reshape(-1), mesh_y.reshape(-1)
    if not core.is_empty:
        free = ~shapely.contains_xy(core, mx, my)
        mx, my = mx[free], my[free]
    rots = np.arange(0.0, 360.0, CENTRE_ROT_DEG)
    a = np.radians(rots)
    ox = gx * np.cos(a) - gy * np.sin(a)
    oy = gx * np.sin(a) + gy * np.cos(a)
    px = (mx[:, None] + ox[None, :]).reshape(-1)
    py = (my[:, None] + oy[None, :]).reshape(-1)
    rr = np.tile(rots, len(mx))
    on = shapely.contains_xy(grown, px, py)
    return px[on], py[on], rr[on]


def _candidates(
    corner: Corner,
    area: BaseGeometry,
    samples: tuple[np.ndarray, np.ndarray],
    aligned: list[float],
    grid: bool,
    extra: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
) -> tuple[np.ndarray, ...]:
    """Candidate (x_mm, y_mm, rotation_deg) arrays for ``corner`` on ``area`` (rounded, deduplicated, ordered).

    ``samples`` are points (and outward normals) on the part of the area's boundary a card may cross (not within
    1 mm of anything it must not touch). For such a point with outward normal n and a rotation, the corner is
    pushed inwards just far enough that its triangle clears that edge (its farthest vertex 0.3 mm inside), and
    once more 8 mm deeper.
    """
    tri = np.array(corner.vertices) - np.array(corner.centroid)  # (3, 2) relative to the centroid
    gx, gy = corner.centroid
    body = math.degrees(math.atan2(-gy, -gx))  # direction from the corner centroid to the card centre, local
    xs: list[np.ndarray] = []
    ys: list[np.ndarray] = []
    rs: list[np.ndarray] = []
    offsets = np.array([0.0, -15.0, 15.0, -30.0, 30.0, -45.0, 45.0, -60.0, 60.0])
    al = np.array(aligned)
    p, nrm = samples
    if len(p):
        theta0 = np.degrees(np.arctan2(nrm[:, 1], nrm[:, 0])) - body
        diff = (al[None, :] - theta0[:, None] + 180.0) % 360.0 - 180.0
        al_rot = np.where(np.abs(diff) <= 80.0, al[None, :], np.nan)
        rot = np.concatenate([al_rot, theta0[:, None] + offsets[None, :]], axis=1)  # (m, k)
        rad = np.radians(np.nan_to_num(rot))
        c, s = np.cos(rad), np.sin(rad)
        # rotated triangle offsets (m, k, 3) projected on the outward normal
        rx = tri[None, None, :, 0] * c[..., None] - tri[None, None, :, 1] * s[..., None]
        ry = tri[None, None, :, 0] * s[..., None] + tri[None, None, :, 1] * c[..., None]
        proj = (rx * nrm[:, None, None, 0] + ry * nrm[:, None, None, 1]).max(axis=2)  # (m, k)
        for inset in DEPTHS_MM:
            depth = proj + inset
            xs.append((p[:, None, 0] - nrm[:, None, 0] * depth).reshape(-1))
            ys.append((p[:, None, 1] - nrm[:, None, 1] * depth).reshape(-1))
            rs.append(rot.reshape(-1))
    if grid:  # a coarse grid inside the area, every 15 degrees (the board: cards may lie over it)
        lx, ly = corner.legs_mm
        d_in = (lx * ly / 3.0) / math.hypot(lx, ly)  # centroid to hypotenuse (the closest side)
        inner = area.buffer(-d_in)
        minx, miny, maxx, maxy = area.bounds
        gxs = np.arange(minx + GRID_MM / 2, maxx, GRID_MM)
        gys = np.arange(miny + GRID_MM / 2, maxy, GRID_MM)
        if len(gxs) and len(gys) and not inner.is_empty:
            mesh_x, mesh_y = np.meshgrid(gxs, gys)
            mx, my = mesh_x.reshape(-1), mesh_y.reshape(-1)
            inside = shapely.contains_xy(inner, mx, my)
            mx, my = mx[inside], my[inside]
            grid_rots = np.concatenate([np.arange(0.0, 360.0, 15.0), al])
            xs.append(np.repeat(mx, len(grid_rots)))
            ys.append(np.repeat(my, len(grid_rots)))
            rs.append(np.tile(grid_rots, len(mx)))
    if extra is not None:
        xs.append(extra[0])
        ys.append(extra[1])
        rs.append(extra[2])
    if not xs:
        return np.empty(0), np.empty(0), np.empty(0)
    x = np.concatenate(xs)
    y = np.concatenate(ys)
    r = np.concatenate(rs)
    ok = ~np.isnan(r)
    x, y, r = np.round(x[ok]), np.round(y[ok]), _norm(r[ok])
    # dedupe, keeping first occurrence order
    keys = ((x.astype(np.int64) + 100_000) * 200_000 + (y.astype(np.int64) + 100_000)) * 360 + r.astype(np.int64)
    _, first = np.unique(keys, return_index=True)
    first.sort()
    first = first[:MAX_PER_AREA]
    # the exact millimetre values a Place in cm will carry (x_cm * 10.0)
    x_cm = x[first] / 10.0
    y_cm = y[first] / 10.0
    return x_cm * 10.0, y_cm * 10.0, r[first]


NEAR_MM = 140.0  # a posed card reaches at most 108.2 mm from its corner; plus the clearance cap and a margin
# a buffer with 2 segments per quarter circle lies inside the true offset by up to r (1 - cos 22.5 deg): grow by
# 1.09 mm so that everything within 1 mm is covered (the finder may only be stricter than the check)
GROW_MM = TOUCH_MM / math.cos(math.pi / 8) + 0.005


class _Evaluator:
    """Vectorised P4/P1/P2/P3 for many poses of one corner on one target area.

    P2/P3 use, per target, the union of every visible piece within 14 cm of the target that the new card must
    not touch (other cards, the board unless it is the target, every visible CONEX corner), grown by 1.01 mm and
    prepared: one ``intersects`` per candidate. Cached on the table until it changes (shared by a hand's cards).
    """

    def __init__(self, table: Table) -> None:
        self.table = table
        self.tree, self.pieces, self.owners = table.tree()
        minx, miny, maxx, maxy = table.area.bounds
        self.tbounds = (minx - LIES_ON_MM, miny - LIES_ON_MM, maxx + LIES_ON_MM, maxy + LIES_ON_MM)

    def covered(self) -> BaseGeometry:
        return self.table.covered()

    def forbidden(self, target: Target, area: BaseGeometry, colour: str) -> tuple[BaseGeometry, BaseGeometry]:
        """``(grown, raw)`` for cards placed on ``target``: what they must not touch near the target (P2, P3), grown
        by ``GROW_MM`` and prepared; and the same ungrown (for clearance).

        What a card on ``target`` may touch is only the target's visible main area (a card target) or the visible
        board (the board target), so the forbidden set is everything covered minus that area.
        """
        key = ("forbidden", target, colour)
        got = self.table.cache.get(key)
        if got is None:
            x0, y0, x1, y1 = area.bounds
            near = shapely.clip_by_rect(self.covered(), x0 - NEAR_MM, y0 - NEAR_MM, x1 + NEAR_MM, y1 + NEAR_MM)
            allowed = self.table.vis_board if target == "board" else self.table.vis_main[int(target)]
            raw = polygonal(near.difference(allowed))
            grown = raw.buffer(GROW_MM, quad_segs=2) if not raw.is_empty else Polygon()
            shapely.prepare(grown)
            shapely.prepare(raw)
            got = (grown, raw)
            self.table.cache[key] = got
        return got  # type: ignore[return-value]

    def core(self, target: Target, area: BaseGeometry, colour: str) -> BaseGeometry:
        """Where a card centre cannot be: within 31 mm of the forbidden set (the card's inscribed 30 mm disc would
        come within 1 mm of it). Built as a 2-segments-per-quarter buffer, which lies *inside* the true offset, so
        it never rejects a legal pose. Prepared, cached until the table changes."""
        key = ("core", target, colour)
        got = self.table.cache.get(key)
        if got is None:
            _, raw = self.forbidden(target, area, colour)
            got = raw.buffer(CARD_W_MM / 2 + TOUCH_MM, quad_segs=2) if not raw.is_empty else Polygon()
            shapely.prepare(got)
            self.table.cache[key] = got
        return got  # type: ignore[return-value]

    def samples(self, target: Target, area: BaseGeometry, colour: str) -> tuple[np.ndarray, np.ndarray] | None:
        """Points every 8 mm along the part of ``area``'s boundary not within 1 mm of anything a card on
        ``target`` must not touch (the only place where such a card can leave the area), with the area's outward
        normals; ``None`` if there is no such part and the target is a card. Cached until the table changes."""
        key = ("samples", target, colour)
        if key in self.table.cache:
            return self.table.cache[key]  # type: ignore[return-value]
        forbidden, _ = self.forbidden(target, area, colour)
        exposed = shapely.line_merge(area.boundary.difference(forbidden)) if not forbidden.is_empty else area.boundary
        got: tuple[np.ndarray, np.ndarray] | None
        if exposed.is_empty and target != "board":
            got = None
        else:
            grown = self.table.grown(("card", target) if target != "board" else ("square", colour))
            got = _edge_samples(exposed, grown, BOUNDARY_STEP_MM)
        self.table.cache[key] = got
        return got

    def evaluate(
        self,
        corner: Corner,
        target: Target,
        area: BaseGeometry,
        grown: BaseGeometry,
        x: np.ndarray,
        y: np.ndarray,
        r: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Indices of the legal candidates and their clearance in mm.

        Cheapest tests first: the card centre near the forbidden set (P2/P3, see ``core``); P4 on bounds; the
        triangle's vertices outside the target (P1); corners and mid-edges of the rectangle in the forbidden set
        (P2/P3, ``contains_xy``); then the exact polygon tests.
        """
        if len(x) == 0:
            return np.empty(0, dtype=int), np.empty(0)
        forbidden, raw = self.forbidden(target, area, corner.color)
        idx = np.arange(len(x))
        if not forbidden.is_empty:
            # the card centre first (one point per pose): cheap, and it rejects most poses on a crowded table
            gx, gy = corner.centroid
            a = np.radians(r)
            cxs = x - (gx * np.cos(a) - gy * np.sin(a))
            cys = y - (gx * np.sin(a) + gy * np.cos(a))
            idx = idx[~shapely.contains_xy(self.core(target, area, corner.color), cxs, cys)]
        if len(idx) == 0:
            return idx, np.empty(0)
        x, y, r = x[idx], y[idx], r[idx]
        rect_c, tri_c, _ = posed_batch(corner, x, y, r)
        x0, y0, x1, y1 = self.tbounds
        ok = (
            (rect_c[:, :, 0].min(axis=1) >= x0)
            & (rect_c[:, :, 0].max(axis=1) <= x1)
            & (rect_c[:, :, 1].min(axis=1) >= y0)
            & (rect_c[:, :, 1].max(axis=1) <= y1)
        )
        base = idx
        idx = np.nonzero(ok)[0]  # indices into the survivors; mapped back through ``base`` at the end

        def keep_if(mask: np.ndarray) -> None:
            nonlocal idx
            idx = idx[mask]

        if len(idx):
            keep_if(shapely.contains_xy(grown, tri_c[idx, :, 0], tri_c[idx, :, 1]).all(axis=1))
        if not forbidden.is_empty and len(idx):
            pr = rect_c[idx]
            probes = np.concatenate([pr, 0.5 * (pr + np.roll(pr, 1, axis=1))], axis=1)  # corners and mid-edges
            keep_if(~shapely.contains_xy(forbidden, probes[:, :, 0], probes[:, :, 1]).any(axis=1))
        if len(idx) == 0:
            return idx, np.empty(0)
        tris = shapely.polygons(tri_c[idx])
        idx = idx[shapely.contains(grown, tris)]
        if len(idx) == 0:
            return idx, np.empty(0)
        rects = shapely.polygons(rect_c[idx])
        if not forbidden.is_empty:
            keep = ~shapely.intersects(forbidden, rects)
            idx, rects = idx[keep], rects[keep]
        if len(idx) == 0:
            return idx, np.empty(0)
        clearance = np.full(len(idx), CLEARANCE_CAP_MM) if raw.is_empty else shapely.distance(rects, raw)
        rc = rect_c[idx]
        tx0, ty0, tx1, ty1 = self.table.area.bounds
        edge = np.minimum(
            np.minimum(rc[:, :, 0].min(axis=1) - tx0, tx1 - rc[:, :, 0].max(axis=1)),
            np.minimum(rc[:, :, 1].min(axis=1) - ty0, ty1 - rc[:, :, 1].max(axis=1)),
        )
        return base[idx], np.minimum(np.minimum(clearance, edge), CLEARANCE_CAP_MM)


def _aligned(table: Table, target: Target) -> list[float]:
    base = 0.0 if target == "board" else table.get(int(target)).pose[2]
    return [float(round(base + k * 90.0) % 360) for k in range(4)]


def _validate(game: Game, player: int, card_id: int, corner: int | None, target: int | str | None) -> Card:
    game._seat(player)
    card = game._card(card_id)
    if card_id not in game.hands[player]:
        raise IllegalActionError(f"card {card_id} is not in seat {player + 1}'s hand", rule="P5", card=card_id)
    if corner is not None and corner not in [c.index for c in card.corners]:
        raise InvalidInputError(f"card {card_id} has corners 1-{len(card.corners)}, not {corner!r}", card=card_id)
    if target is not None and target != "board":
        if isinstance(target, bool) or not isinstance(target, int) or target not in game.board:
            raise InvalidInputError(f"target must be 'board' or a card on the table, not {target!r}", target=target)
    return card


_Found = tuple[int, float, int, int, Corner, Target, float, float, float]  # pts, clearance, order, i, c, tgt, x, y, r


def find_placements(
    game: Game, player: int, card_id: int, corner: int | None, target: int | str | None, limit: int
) -> list[Place]:
    """See ``Game.find_placements``."""
    card = _validate(game, player, card_id, corner, target)
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise InvalidInputError(f"limit must be a whole number >= 1, not {limit!r}")
    table = game.board
    ev = _Evaluator(table)
    combos: list[tuple[int, int, Corner, Target, BaseGeometry]] = []  # (points, order, corner, target, area)
    for c in card.corners:
        if corner is not None and c.index != corner:
            continue
        for tgt, area in table.targets_for(c.color):
            if target is not None and tgt != target:
                continue
            plus = 2 if tgt != "board" and table.get(int(tgt)).card.action == "plus2" else 0
            combos.append((c.value + plus, len(combos), c, tgt, area))
    combos.sort(key=lambda k: (-k[0], k[1]))
    found: list[_Found] = []
    empty: list[tuple[int, int, Corner, Target, BaseGeometry]] = []  # pairs with no pose near the edges
    verified: dict[tuple[int, float, float, float], bool] = {}
    k = 0
    while k < len(combos):
        # evaluate every (corner, target) pair worth these points, then pick; lower points cannot outrank them
        pts = combos[k][0]
        while k < len(combos) and combos[k][0] == pts:
            combo = combos[k]
            _, order, c, tgt, area = combo
            k += 1
            if area.area < 0.5 * c.legs_mm[0] * c.legs_mm[1]:
                continue
            samples = ev.samples(tgt, area, c.color)
            if samples is None:
                continue
            grown = table.grown(("card", tgt) if tgt != "board" else ("square", c.color))
            x, y, r = _candidates(c, area, samples, _aligned(table, tgt), grid=tgt == "board")
            idx, clearance = ev.evaluate(c, tgt, area, grown, x, y, r)
            if len(idx) == 0:
                empty.append(combo)
            found.extend(
                (pts, float(cl), order, int(i), c, tgt, float(x[i]), float(y[i]), float(r[i]))
                for i, cl in zip(idx, clearance, strict=True)
            )
        chosen = _select(table, player, card, found, limit, verified)
        if len(chosen) >= limit:
            higher = [e for e in empty if e[0] > pts]
            if not higher:
                return chosen
            # pairs worth more points had nothing near their edges: give them the wider search first
            found.extend(_fallback(ev, higher))
            return _select(table, player, card, found, limit, verified)
    # fewer than ``limit``: look again at the pairs with nothing near the edges, from free card-centre positions
    found.extend(_fallback(ev, empty))
    return _select(table, player, card, found, limit, verified)


def _fallback(ev: _Evaluator, combos: list[tuple[int, int, Corner, Target, BaseGeometry]]) -> list[_Found]:
    """Legal poses of (corner, target) pairs found from free card-centre positions (``_centre_candidates``)."""
    table = ev.table
    out: list[_Found] = []
    for pts, order, c, tgt, area in combos:
        grown = table.grown(("card", tgt) if tgt != "board" else ("square", c.color))
        extra = _centre_candidates(c, area, grown, ev.core(tgt, area, c.color), table.area.bounds)
        if not len(extra[0]):
            continue
        x, y, r = _candidates(c, area, (np.empty((0, 2)), np.empty((0, 2))), [], False, extra)
        idx, clearance = ev.evaluate(c, tgt, area, grown, x, y, r)
        out.extend(
            (pts, float(cl), order, 1_000_000 + int(i), c, tgt, float(x[i]), float(y[i]), float(r[i]))
            for i, cl in zip(idx, clearance, strict=True)
        )
    return out


def _select(
    table: Table,
    player: int,
    card: Card,
    found: list[_Found],
    limit: int,
    verified: dict[tuple[int, float, float, float], bool],
) -> list[Place]:
    """The best ``limit`` of ``found``: points, then clearance (to 0.5 mm), then candidate order; skipping a pose
    within 2 cm and 45 degrees of a chosen one on the same corner and target; each re-checked exactly (results
    remembered in ``verified``)."""
    found.sort(key=lambda f: (-f[0], -round(f[1] * 2) / 2, f[2], f[3]))
    chosen: list[tuple[Corner, Target, float, float, float]] = []
    out: list[Place] = []
    for _pts, _cl, _o, _i, c, tgt, x, y, r in found:
        if any(
            c2 is c
            and t2 == tgt
            and math.hypot(x - x2, y - y2) < 20.0
            and abs((r - r2 + 180.0) % 360.0 - 180.0) < 45.0
            for c2, t2, x2, y2, r2 in chosen
        ):
            continue
        place = Place(player, card.id, c.index, round(x / 10.0, 1), round(y / 10.0, 1), r)
        key = (c.index, x, y, r)
        if key not in verified:
            try:
                cx, cy = centre_for_corner(c, place.x_mm, place.y_mm, r)
                table.check_pose(card, c.index, cx, cy, r)
                verified[key] = True
            except IllegalActionError:  # pragma: no cover - the vectorised filter is stricter than the check
                verified[key] = False
        if not verified[key]:
            continue  # pragma: no cover
        chosen.append((c, tgt, x, y, r))
        out.append(place)
        if len(out) >= limit:
            break
    return out


def best_rotation(game: Game, card: Card, corner_index: int, x_mm: float, y_mm: float) -> float:
    """The best legal rotation (whole degrees) for ``corner_index`` of ``card`` with its centroid at ``(x_mm,
    y_mm)``: every 5 degrees plus the target-aligned ones, ranked by clearance. If none is legal, raises the
    ``IllegalActionError`` of the most promising rotation (the one pointing the card out of the target)."""
    table = game.board
    corner = card.corner(corner_index)
    tgt: Target | None = None
    area: BaseGeometry | None = None
    for t, a in table.targets_for(corner.color):
        if shapely.contains_xy(a, x_mm, y_mm):
            tgt, area = t, a
            break
    if tgt is None or area is None:
        return 0.0  # the check reports P1 (the point is not on a matching area)
    rots = np.concatenate([np.arange(0.0, 360.0, 5.0), np.array(_aligned(table, tgt))])
    rots = np.unique(_norm(rots))
    x = np.full(len(rots), x_mm)
    y = np.full(len(rots), y_mm)
    grown = table.grown(("card", tgt) if tgt != "board" else ("square", corner.color))
    ev = _Evaluator(table)
    idx, clearance = ev.evaluate(corner, tgt, area, grown, x, y, rots)
    if len(idx):
        best = int(idx[int(np.argmax(clearance))])
        return float(rots[best])
    # explain with the outward-pointing rotation
    bnd = area.exterior if area.geom_type == "Polygon" else area.boundary
    near = shapely.line_interpolate_point(bnd, shapely.line_locate_point(bnd, shapely.Point(x_mm, y_mm)))
    gx, gy = corner.centroid
    out = math.degrees(math.atan2(y_mm - near.y, x_mm - near.x)) + 180.0 - math.degrees(math.atan2(-gy, -gx))
    rot = float(round(out) % 360)
    cx, cy = centre_for_corner(corner, x_mm, y_mm, rot)
    try:
        table.check_pose(card, corner_index, cx, cy, rot)
    except IllegalActionError as exc:
        raise IllegalActionError(
            f"no rotation of card {card.id} is legal with corner {corner_index} at "
            f"({x_mm / 10:.1f}, {y_mm / 10:.1f}) cm; e.g. at r{rot:g}: {exc.message}",
            rule=exc.rule,
            **exc.details,
        ) from exc
    return rot  # pragma: no cover - the 1 mm rounding made it legal after all
