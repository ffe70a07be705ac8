"""Candidate poses for the CONEX placement finder: the quick *edge* candidates and the complete *lattice* search.

Poses are given by where the corner's centroid lands (``x, y`` in mm, what a ``Place`` carries) and a rotation
(degrees clockwise). Every candidate is rounded to 1 mm and whole degrees *before* it is judged, so the text of the
resulting ``Place`` replays exactly.

**Edge candidates** (``edge_candidates``): a card laid on a target must leave the target's visible area somewhere,
and only across the part of its outline that is not within 1 mm of anything forbidden (the *exposed* outline). At
points every 8 mm along it: rotations pointing the card body out of the target (every 15 degrees within +-60) and
the target-aligned ones; the corner pushed inwards just far enough for its triangle to clear that edge, and 8 mm
deeper; on a board square also a grid inside the square (a card may lie over the board). Cheap, and the poses it
finds are roomy (they are ranked by clearance).

**Lattice search** (``lattice_search``): every corner position on the 1 mm grid inside the target and every
rotation on the 5-degree grid (``LATTICE_ROT_DEG``), so that if any such pose is legal one is found. Feasible only
because most poses are dismissed per rotation with whole-array operations on the target's rasters
(``finder_geom.Rasters``): the three triangle vertices must be on the target and the three 30 mm discs inside the
card must be clear of everything forbidden; per rotation that is the target's mask ANDed with six shifted
rasters. The rasters are built so that they never reject a legal pose; the survivors are judged by
``TargetGeom.evaluate``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from engine.conex.deck import CARD_H_MM, CARD_W_MM, Corner
from engine.conex.finder_geom import WINDOW_MM, TargetGeom
from engine.conex.geometry import LIES_ON_MM

EDGE_STEP_MM = 8.0
EDGE_OFFSETS_DEG = np.arange(-60.0, 61.0, 15.0)
EDGE_DEPTHS_MM = (0.3,)  # how far inside the crossing edge the corner triangle's farthest vertex sits
BOARD_GRID_MM = 14.0
LATTICE_ROT_DEG = 5


def round_poses(x: np.ndarray, y: np.ndarray, r: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Round to 1 mm and whole degrees in [0, 360), drop NaN rotations and duplicates (first occurrence kept, in
    order); ``x``/``y`` become the exact millimetre values a ``Place`` in cm carries."""
    ok = ~np.isnan(r)
    x, y, r = np.round(x[ok]), np.round(y[ok]), np.mod(np.round(r[ok]), 360.0)
    keys = ((x.astype(np.int64) + 100_000) * 200_000 + (y.astype(np.int64) + 100_000)) * 360 + r.astype(np.int64)
    _, first = np.unique(keys, return_index=True)
    first.sort()
    return (x[first] / 10.0) * 10.0, (y[first] / 10.0) * 10.0, r[first]


# --- edge candidates -----------------------------------------------------------------------------------------


def edge_samples(geom: TargetGeom) -> tuple[np.ndarray, np.ndarray]:
    """Points every ``EDGE_STEP_MM`` (or closer) along the target's outline that are not within 1 mm of anything
    forbidden (its *exposed* outline), with the outward normals; cached on the target."""
    got = geom.extra.get("samples")
    if got is not None:
        return got  # type: ignore[return-value]
    pts: list[np.ndarray] = []
    tangents: list[np.ndarray] = []
    for ring in shapely.get_rings(shapely.get_parts(geom.area)):
        c = shapely.get_coordinates(ring)
        seg = np.diff(c, axis=0)
        length = np.hypot(seg[:, 0], seg[:, 1])
        keep = length > 1e-6
        c0, seg, length = c[:-1][keep], seg[keep], length[keep]
        n = np.maximum(1, np.round(length / EDGE_STEP_MM)).astype(np.int64)
        k = np.repeat(np.arange(len(n)), n)
        t = (np.arange(int(n.sum())) - np.repeat(np.cumsum(n) - n, n) + 0.5) / n[k]
        pts.append(c0[k] + seg[k] * t[:, None])
        tangents.append(seg[k] / length[k, None])
    if pts:
        p, tan = np.concatenate(pts), np.concatenate(tangents)
        nrm = np.stack([tan[:, 1], -tan[:, 0]], axis=1)
        probe = p + nrm * 0.75
        nrm[shapely.contains_xy(geom.grown, probe[:, 0], probe[:, 1])] *= -1.0
        if not geom.empty:
            exposed = ~shapely.contains_xy(geom.touch, p[:, 0], p[:, 1])
            p, nrm = p[exposed], nrm[exposed]
        got = (p, nrm)
    else:
        got = (np.empty((0, 2)), np.empty((0, 2)))
    geom.extra["samples"] = got
    return got


def sealed(geom: TargetGeom) -> bool:
    """True when no point of the target's outline is 1 mm or more from everything forbidden (exactly, not just at the
    samples): then no card can lie on it at all. A card on the target holds points inside it (its corner) and
    outside it (it is larger than any visible main area), so its rectangle crosses the outline, at a point closer
    than 1 mm to something forbidden (P2/P3). Cached."""
    got = geom.extra.get("sealed")
    if got is None:
        got = (
            not len(edge_samples(geom)[0])
            and not geom.empty
            and bool(geom.area.boundary.difference(geom.touch).is_empty)
        )
        geom.extra["sealed"] = got
    return bool(got)


def aligned_rotations(geom: TargetGeom) -> np.ndarray:
    """The four rotations aligned with the target (whole degrees)."""
    base = 0.0 if geom.target == "board" else geom.table.get(int(geom.target)).pose[2]
    return np.array([float(round(base + k * 90.0) % 360) for k in range(4)])


def edge_candidates(geom: TargetGeom, corner: Corner) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rounded, deduplicated candidate poses ``(x_mm, y_mm, rotation)`` of ``corner`` near the exposed outline."""
    tri = np.array(corner.vertices) - np.array(corner.centroid)
    gx, gy = corner.centroid
    body = math.degrees(math.atan2(-gy, -gx))  # from the corner centroid to the card centre, card-local
    al = aligned_rotations(geom)
    p, nrm = edge_samples(geom)
    xs: list[np.ndarray] = []
    ys: list[np.ndarray] = []
    rs: list[np.ndarray] = []
    if len(p):
        theta0 = np.degrees(np.arctan2(nrm[:, 1], nrm[:, 0])) - body
        diff = (al[None, :] - theta0[:, None] + 180.0) % 360.0 - 180.0
        al_rot = np.where(np.abs(diff) <= 80.0, al[None, :], np.nan)
        rot = np.concatenate([al_rot, theta0[:, None] + EDGE_OFFSETS_DEG[None, :]], axis=1)
        rot = np.where(np.isnan(rot), np.nan, np.round(rot))
        rad = np.radians(np.nan_to_num(rot))
        c, s = np.cos(rad), np.sin(rad)
        rx = tri[None, None, :, 0] * c[..., None] - tri[None, None, :, 1] * s[..., None]
        ry = tri[None, None, :, 0] * s[..., None] + tri[None, None, :, 1] * c[..., None]
        proj = (rx * nrm[:, None, None, 0] + ry * nrm[:, None, None, 1]).max(axis=2)
        for inset in EDGE_DEPTHS_MM:
            depth = proj + inset
            xs.append((p[:, None, 0] - nrm[:, None, 0] * depth).reshape(-1))
            ys.append((p[:, None, 1] - nrm[:, None, 1] * depth).reshape(-1))
            rs.append(rot.reshape(-1))
    if geom.target == "board":
        xs_, ys_, rs_ = _board_grid(geom.area, corner, al)
        xs.append(xs_)
        ys.append(ys_)
        rs.append(rs_)
    if not xs:
        return np.empty(0), np.empty(0), np.empty(0)
    return round_poses(np.concatenate(xs), np.concatenate(ys), np.concatenate(rs))


def _board_grid(area: BaseGeometry, corner: Corner, al: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A coarse grid inside a board square, every 15 degrees (a card may lie over the board)."""
    lx, ly = corner.legs_mm
    inner = area.buffer(-(lx * ly / 3.0) / math.hypot(lx, ly))
    minx, miny, maxx, maxy = area.bounds
    gxs = np.arange(minx + BOARD_GRID_MM / 2, maxx, BOARD_GRID_MM)
    gys = np.arange(miny + BOARD_GRID_MM / 2, maxy, BOARD_GRID_MM)
    if not len(gxs) or not len(gys) or inner.is_empty:
        return np.empty(0), np.empty(0), np.empty(0)
    mx, my = (a.reshape(-1) for a in np.meshgrid(gxs, gys))
    inside = shapely.contains_xy(inner, mx, my)
    mx, my = mx[inside], my[inside]
    rots = np.concatenate([np.arange(0.0, 360.0, 15.0), al])
    return np.repeat(mx, len(rots)), np.repeat(my, len(rots)), np.tile(rots, len(mx))


# --- the lattice search --------------------------------------------------------------------------------------


def lattice_candidates(
    geom: TargetGeom, corner: Corner, rotations: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every pose on the lattice (corner centroid on whole mm inside the grown target, rotation in ``rotations``,
    default every ``LATTICE_ROT_DEG`` degrees) whose three disc centres are ``free``, whose triangle vertices are on
    ``vmask`` and whose rectangle is on the table (P4, exact), in rotation order: a superset of the legal lattice
    poses. Cached on the target per corner shape."""
    key = ("lattice", corner.position, corner.legs_mm)
    if rotations is None and key in geom.extra:
        return geom.extra[key]  # type: ignore[return-value]
    xs: list[np.ndarray] = []
    ys: list[np.ndarray] = []
    rs: list[np.ndarray] = []
    for rot, px, py in _lattice_rows(geom, corner, rotations):
        xs.append(px)
        ys.append(py)
        rs.append(np.full(len(px), rot))
    got = (np.concatenate(xs), np.concatenate(ys), np.concatenate(rs)) if xs else (np.empty(0),) * 3
    if rotations is None:
        geom.extra[key] = got
        geom.extra[("lattice-any", *key[1:])] = bool(len(got[0]))
    return got


def lattice_any(geom: TargetGeom, corner: Corner) -> bool:
    """Whether ``lattice_candidates`` is non-empty, stopping at the first rotation that has one (cached)."""
    key = ("lattice-any", corner.position, corner.legs_mm)
    if key not in geom.extra:
        geom.extra[key] = next(_lattice_rows(geom, corner, None), None) is not None
    return bool(geom.extra[key])


def _lattice_rows(
    geom: TargetGeom, corner: Corner, rotations: np.ndarray | None
) -> Iterator[tuple[float, np.ndarray, np.ndarray]]:
    """Per rotation with any, the lattice candidates ``(rotation, x, y)`` (see ``lattice_candidates``)."""
    ras = geom.rasters
    if not ras.any_free:
        return
    rots = np.arange(0, 360, LATTICE_ROT_DEG, dtype=float) if rotations is None else rotations
    vsh = ras.vertex_shifts(corner, rots)
    dsh = ras.disc_shifts(corner, rots)
    voff = ras.flat_offset(vsh[..., 0], vsh[..., 1])
    doff = ras.flat_offset(dsh[..., 0], dsh[..., 1])
    fw = ras.free.shape[1]
    base = WINDOW_MM * fw + WINDOW_MM  # the target window's first point
    n = (ras.h - 1) * fw + ras.w  # its rows, contiguous with the columns between them (False in ``mask``)
    vmask, free = ras.vmask.reshape(-1), ras.free.reshape(-1)
    seg = ras.mask.reshape(-1)[base : base + n]
    buf = np.empty(n, dtype=bool)
    land = np.logical_and
    # P4 exactly: for each rotation the corner centroids that keep the rectangle on the table form a box
    w2, h2 = CARD_W_MM / 2, CARD_H_MM / 2
    a = np.radians(rots)[:, None]
    lx = np.array([-w2, w2, w2, -w2]) - corner.centroid[0]
    ly = np.array([-h2, -h2, h2, h2]) - corner.centroid[1]
    ox, oy = lx * np.cos(a) - ly * np.sin(a), lx * np.sin(a) + ly * np.cos(a)  # (rots, 4) corners from centroid
    px0, py0, px1, py1 = geom.table_bounds
    lo_x, hi_x = px0 - LIES_ON_MM - ox.min(axis=1) - 1e-9, px1 + LIES_ON_MM - ox.max(axis=1) + 1e-9
    lo_y, hi_y = py0 - LIES_ON_MM - oy.min(axis=1) - 1e-9, py1 + LIES_ON_MM - oy.max(axis=1) + 1e-9
    boxes = np.stack([lo_x, hi_x, lo_y, hi_y], axis=1).tolist()
    offsets = zip(rots.tolist(), (base + voff).tolist(), (base + doff).tolist(), boxes, strict=True)
    for rot, (v0, v1, v2), (d0, d1, d2), (bx0, bx1, by0, by1) in offsets:
        # the card-centre disc first: it alone rejects ~92 % of the target's points on a typical table
        land(seg, free[d1 : d1 + n], out=buf)
        if not buf.any():
            continue
        land(buf, free[d0 : d0 + n], out=buf)
        if not buf.any():
            continue
        land(buf, free[d2 : d2 + n], out=buf)
        if not buf.any():
            continue
        land(buf, vmask[v0 : v0 + n], out=buf)
        land(buf, vmask[v1 : v1 + n], out=buf)
        land(buf, vmask[v2 : v2 + n], out=buf)
        nz = np.flatnonzero(buf)
        if len(nz):
            px, py = nz % fw + float(ras.tx0), nz // fw + float(ras.ty0)
            on = (px >= bx0) & (px <= bx1) & (py >= by0) & (py <= by1)
            if on.any():
                yield float(rot), px[on], py[on]


def lattice_search(geom: TargetGeom, corner: Corner, want: int) -> tuple[np.ndarray, ...]:
    """Legal lattice poses of ``corner`` on the target: ``(x, y, r, clearance)`` arrays. The candidates are judged
    in a fixed pseudo-random order (spread over rotations and positions), in growing batches, until ``want`` are
    legal or all are judged — so a legal lattice pose is found whenever one exists."""
    x, y, r = lattice_candidates(geom, corner)
    if not len(x):
        return np.empty(0), np.empty(0), np.empty(0), np.empty(0)
    order = np.random.default_rng(len(x)).permutation(len(x))
    out: list[tuple[np.ndarray, ...]] = []
    found = 0
    start, size = 0, max(64, 16 * want)
    while start < len(x) and found < want:
        sl = order[start : start + size]
        idx, cl = geom.evaluate(corner, x[sl], y[sl], r[sl], lattice=True)
        out.append((x[sl][idx], y[sl][idx], r[sl][idx], cl))
        found += len(idx)
        start += size
        size *= 2
    return tuple(np.concatenate([o[k] for o in out]) for k in range(4))


__all__ = [
    "LATTICE_ROT_DEG",
    "edge_candidates",
    "lattice_any",
    "lattice_candidates",
    "lattice_search",
    "round_poses",
    "sealed",
]
