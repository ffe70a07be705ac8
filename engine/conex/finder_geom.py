"""Per-target geometry for the CONEX placement finder and its vectorised pose filter (rules P1-P4, G7).

A *target* is a table card id or ``"board"`` (with a colour: the board square of that colour). For a card laid on
a target, ``TargetGeom`` holds, cached on the ``Table`` until the table changes (so a hand's cards share it):

- ``area``/``grown``: the target's visible main area (or visible board square) and the same grown by 0.5 mm
  (G7 "lies on"; the very geometry the check uses);
- ``forbidden``: everything the card must not touch near the target (P2, P3): every card rectangle and the board,
  minus what the card may touch (the target's visible main area, or the whole visible board for the board
  target). Built as ``covered - allowed`` with ``allowed`` grown by 1 micrometre, so that no zero-width sliver of
  the target's own outline survives the subtraction (issue 14: such slivers rejected every pose crossing the
  target's edge);
- ``touch``: ``forbidden`` grown by (a hair under) 1 mm with 2 segments per quarter circle. Such a buffer lies
  *inside* the true offset, so a point in it is certainly closer than 1 mm to something forbidden;
- ``free``: a raster of where the centre of a 30 mm disc inside the card may be (not within 31 mm of
  ``forbidden``, and on the table). A legal card's rectangle holds three such discs, centred on its long axis at
  -15, 0 and +15 mm (``DISC_OFFSETS_MM``). Sampled every 2 mm (``RASTER_MM``) and read at 1 mm: a cell is free
  when its sample point is outside ``forbidden`` grown by 31 - 1.45 mm; a disc centre read at the nearest whole
  millimetre is within 1.42 mm of the sample it gets, so the raster never rejects a legal pose;
- ``mask``/``vmask``: rasters on whole millimetres of the target grown by 0.5 mm (where a corner centroid can be)
  and of the same grown by 0.75 mm more (where a corner vertex read at the nearest whole millimetre can be).

``evaluate`` judges many poses at once, cheapest test first; every test except the last can only drop poses the
check refuses, and the last is the check's own geometry (P1 containment in ``grown``, P2/P3 distance below 1 mm to
``forbidden``). Units: mm, degrees clockwise, y down.
"""

from __future__ import annotations

import math

import numpy as np
import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from engine.conex.deck import CARD_W_MM, Corner
from engine.conex.geometry import LIES_ON_MM, TOUCH_MM, polygonal, posed_batch
from engine.conex.table import Table, Target

CLEARANCE_CAP_MM = 30.0
NEAR_MM = 110.0  # > a posed card's reach from its corner centroid (108.2 mm) + the 0.5 mm grown target + 1 mm
SLIVER_MM = 1e-3  # ``allowed`` is grown by this before it is subtracted (no zero-width slivers survive)
HAIR_MM = 1e-6  # conservative buffers stop this much short of the true distance
CORE_MM = CARD_W_MM / 2 + TOUCH_MM  # 31 mm: a card centre closer than this to something forbidden touches it
RASTER_MM = 2  # free-centre raster: one sample per 2 x 2 mm block
RASTER_SLACK_MM = 1.45  # > sqrt(2)/2 (reading at the nearest whole mm) + sqrt(2)/2 (block sample to its points)
VERTEX_SLACK_MM = 0.75  # > sqrt(2)/2 (a vertex read at the nearest whole mm) + the buffer's chord error
DISC_OFFSETS_MM = (-15.0, 0.0, 15.0)  # card-local y of the three 30 mm discs inside the card
WINDOW_MM = 64  # free raster margin around the target: > the farthest disc centre from a corner centroid (60.2)
VPAD_MM = 24  # vertex mask margin: > the farthest corner vertex from its centroid (22.4)


class TargetGeom:
    """What a card laid on ``target`` (with a corner of ``colour``) may and may not touch. Build with ``get``."""

    def __init__(self, table: Table, target: Target, colour: str) -> None:
        self.table = table
        self.target = target
        self.colour = colour
        if target == "board":
            self.area: BaseGeometry = table.vis_squares[colour]
            self.grown = table.grown(("square", colour))
            allowed = table.vis_board
        else:
            self.area = table.vis_main[int(target)]
            self.grown = table.grown(("card", int(target)))
            allowed = table.vis_main[int(target)]
        x0, y0, x1, y1 = self.area.bounds if not self.area.is_empty else (0.0, 0.0, 0.0, 0.0)
        near = shapely.clip_by_rect(table.covered(), x0 - NEAR_MM, y0 - NEAR_MM, x1 + NEAR_MM, y1 + NEAR_MM)
        if not allowed.is_empty:
            near = near.difference(allowed.buffer(SLIVER_MM, quad_segs=1))
        self.forbidden: BaseGeometry = polygonal(near)
        shapely.prepare(self.forbidden)
        self.empty = self.forbidden.is_empty
        tx0, ty0, tx1, ty1 = table.area.bounds
        self.table_bounds = (tx0, ty0, tx1, ty1)
        self._touch: BaseGeometry | None = None
        self._rasters: Rasters | None = None
        self._core: BaseGeometry | None = None
        self.extra: dict[object, object] = {}  # per-target data other finder modules cache here

    @classmethod
    def get(cls, table: Table, target: Target, colour: str) -> TargetGeom:
        """The cached geometry for ``target`` (built on first use after each table change)."""
        key = ("target-geom", target, colour)
        got = table.cache.get(key)
        if got is None:
            got = cls(table, target, colour)
            table.cache[key] = got
        return got  # type: ignore[return-value]

    @property
    def touch(self) -> BaseGeometry:
        """Points certainly closer than 1 mm to something forbidden (prepared)."""
        if self._touch is None:
            self._touch = self.forbidden.buffer(TOUCH_MM - HAIR_MM, quad_segs=2) if not self.empty else Polygon()
            shapely.prepare(self._touch)
        return self._touch

    @property
    def core(self) -> BaseGeometry:
        """Where a disc centre is certainly within 31 - 1.45 mm of something forbidden (prepared): the polygon the
        ``free`` raster is sampled from; ``evaluate`` tests the three disc centres of a pose against it."""
        if self._core is None:
            # only disc centres within WINDOW_MM of the target are ever asked about: nothing farther than that plus
            # the buffer distance matters
            r = CORE_MM - RASTER_SLACK_MM - HAIR_MM
            x0, y0, x1, y1 = self.grown.bounds
            m = WINDOW_MM + r + 2.0
            near = shapely.clip_by_rect(self.forbidden, x0 - m, y0 - m, x1 + m, y1 + m)
            self._core = polygonal(near).buffer(r, quad_segs=2) if not near.is_empty else Polygon()
            shapely.prepare(self._core)
        return self._core

    @property
    def has_rasters(self) -> bool:
        return self._rasters is not None

    @property
    def rasters(self) -> Rasters:
        """The free-centre and target rasters (built on first use)."""
        if self._rasters is None:
            self._rasters = Rasters(self)
        return self._rasters

    def discs_clear(self, corner: Corner, x: np.ndarray, y: np.ndarray, r: np.ndarray) -> np.ndarray:
        """For poses ``(x, y, r)``, whether the three inscribed disc centres are outside ``core`` (False =
        certainly illegal, P2/P3)."""
        gx, gy = corner.centroid
        a = np.radians(r)
        c, s = np.cos(a), np.sin(a)
        ok = np.ones(len(x), dtype=bool)
        for d in DISC_OFFSETS_MM:
            vx, vy = gx, gy - d
            px = x[ok] - (vx * c[ok] - vy * s[ok])
            py = y[ok] - (vx * s[ok] + vy * c[ok])
            ok[ok] = ~shapely.contains_xy(self.core, px, py)
        return ok

    def evaluate(
        self,
        corner: Corner,
        x: np.ndarray,
        y: np.ndarray,
        r: np.ndarray,
        clearance: bool = True,
        lattice: bool = False,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Indices of the legal poses among ``(x, y, r)`` (corner centroid mm, rotation degrees) and their
        clearance in mm (distance to the nearest forbidden thing or table edge, capped at 30 mm; zeros when
        ``clearance`` is false). ``lattice=True`` is for poses the lattice rasters already passed (their disc
        test is skipped; the exact table test is not: the rasters keep the discs on the table, not the rectangle's
        corners, issue 22).

        Tests, cheapest first: the three disc centres outside ``core`` (P2/P3); rectangle off the table (P4,
        exact); rectangle corners, then mid-edges, in ``touch`` (P2/P3); triangle vertices off ``grown`` (P1);
        then exactly: the triangle within ``grown`` (P1) and the rectangle at least 1 mm from ``forbidden``
        (P2/P3). A legal pose passes every test; the finder re-checks the poses it returns with
        ``Table.check_pose``.
        """
        none = (np.empty(0, dtype=np.int64), np.empty(0))
        if len(x) == 0 or self.area.is_empty:
            return none
        idx = np.arange(len(x))
        if not lattice and not self.empty:
            idx = idx[self.discs_clear(corner, x, y, r)]
            if not len(idx):
                return none
        rect_c, tri_c, _ = posed_batch(corner, x[idx], y[idx], r[idx])
        rx, ry = rect_c[:, :, 0].T, rect_c[:, :, 1].T  # (4, n) each: one row per rectangle corner
        x0, y0, x1, y1 = self.table_bounds
        ok = (
            (np.minimum.reduce(rx) >= x0 - LIES_ON_MM)
            & (np.maximum.reduce(rx) <= x1 + LIES_ON_MM)
            & (np.minimum.reduce(ry) >= y0 - LIES_ON_MM)
            & (np.maximum.reduce(ry) <= y1 + LIES_ON_MM)
        )
        if not self.empty:
            for k in range(4):  # the corners, then the mid-edges, in ``touch``
                ok[ok] = ~shapely.contains_xy(self.touch, rx[k, ok], ry[k, ok])
            for k in range(4):
                j = (k + 1) % 4
                ok[ok] = ~shapely.contains_xy(self.touch, 0.5 * (rx[k, ok] + rx[j, ok]), 0.5 * (ry[k, ok] + ry[j, ok]))
        for k in range(3):
            ok[ok] = shapely.contains_xy(self.grown, tri_c[ok, k, 0], tri_c[ok, k, 1])
        if ok.any():
            ok[ok] = shapely.contains(self.grown, shapely.polygons(tri_c[ok]))
        rects = shapely.polygons(rect_c[ok]) if ok.any() else np.empty(0, dtype=object)
        if not self.empty and len(rects):
            clear = ~shapely.dwithin(self.forbidden, rects, TOUCH_MM - HAIR_MM)
            ok[ok] = clear
            rects = rects[clear]
        sel = np.nonzero(ok)[0]
        if not len(sel):
            return none
        if not clearance:
            return idx[sel], np.zeros(len(sel))
        dist = np.full(len(sel), CLEARANCE_CAP_MM) if self.empty else shapely.distance(rects, self.forbidden)
        edge = np.minimum(
            np.minimum(np.minimum.reduce(rx[:, sel]) - x0, x1 - np.maximum.reduce(rx[:, sel])),
            np.minimum(np.minimum.reduce(ry[:, sel]) - y0, y1 - np.maximum.reduce(ry[:, sel])),
        )
        return idx[sel], np.minimum(np.minimum(dist, edge), CLEARANCE_CAP_MM)


class Rasters:
    """The rasters of a ``TargetGeom`` (see the module docstring), all ``(fh, fw)`` bool arrays over one window
    ``WINDOW_MM`` wider than the target's grown bounds on every side, indexed ``[y - wy0, x - wx0]`` in whole
    millimetres (``mask`` and ``vmask`` are False outside their own margins). One shape for all three lets the
    lattice search shift them with flat, contiguous slices (``flat_offset``)."""

    def __init__(self, geom: TargetGeom) -> None:
        x0, y0, x1, y1 = geom.grown.bounds if not geom.grown.is_empty else (0.0, 0.0, 0.0, 0.0)
        self.tx0, self.ty0 = math.floor(x0), math.floor(y0)
        self.w, self.h = math.ceil(x1) - self.tx0 + 1, math.ceil(y1) - self.ty0 + 1
        self.wx0, self.wy0 = self.tx0 - WINDOW_MM, self.ty0 - WINDOW_MM
        fw, fh = self.w + 2 * WINDOW_MM, self.h + 2 * WINDOW_MM
        m = WINDOW_MM
        self.mask = np.zeros((fh, fw), dtype=bool)
        self.mask[m : m + self.h, m : m + self.w] = rasterize(geom.grown, self.tx0, self.ty0, self.w, self.h)
        self.vmask = np.zeros((fh, fw), dtype=bool)
        v = m - VPAD_MM
        self.vmask[v : fh - v, v : fw - v] = rasterize(
            geom.grown.buffer(VERTEX_SLACK_MM), self.tx0 - VPAD_MM, self.ty0 - VPAD_MM, fw - 2 * v, fh - 2 * v
        )
        bw, bh = (fw + 1) // 2, (fh + 1) // 2
        sx0, sy0 = self.wx0 + 0.5, self.wy0 + 0.5  # block samples at the centre of each 2 x 2 block
        if geom.empty:
            free = np.ones((bh, bw), dtype=bool)
        else:
            free = ~rasterize(geom.core, sx0, sy0, bw, bh, RASTER_MM)
        px0, py0, px1, py1 = geom.table_bounds
        edge = CORE_MM - TOUCH_MM - LIES_ON_MM - RASTER_SLACK_MM  # each disc lies on the table (grown by 0.5 mm)
        bx = sx0 + RASTER_MM * np.arange(bw)
        by = sy0 + RASTER_MM * np.arange(bh)
        free &= ((by >= py0 + edge) & (by <= py1 - edge))[:, None] & ((bx >= px0 + edge) & (bx <= px1 - edge))[None, :]
        self.any_free = bool(free.any())
        self.free = np.ascontiguousarray(np.repeat(np.repeat(free, 2, axis=0), 2, axis=1)[:fh, :fw])

    def flat_offset(self, dx: np.ndarray, dy: np.ndarray) -> np.ndarray:
        """Flat index offsets of whole-mm shifts in the raster arrays."""
        out: np.ndarray = dy * self.free.shape[1] + dx
        return out

    def disc_shifts(self, corner: Corner, rots: np.ndarray) -> np.ndarray:
        """``(len(rots), 3, 2)`` whole-mm offsets ``(dx, dy)`` from a corner centroid to the three disc centres."""
        gx, gy = corner.centroid
        a = np.radians(rots)[:, None]
        c, s = np.cos(a), np.sin(a)
        vx = gx - np.zeros(len(DISC_OFFSETS_MM))
        vy = gy - np.array(DISC_OFFSETS_MM)
        return np.stack([-np.round(vx * c - vy * s), -np.round(vx * s + vy * c)], axis=-1).astype(np.int64)

    def vertex_shifts(self, corner: Corner, rots: np.ndarray) -> np.ndarray:
        """``(len(rots), 3, 2)`` whole-mm offsets from a corner centroid to its triangle's vertices."""
        rel = np.array(corner.vertices) - np.array(corner.centroid)
        a = np.radians(rots)[:, None]
        c, s = np.cos(a), np.sin(a)
        return np.stack(
            [np.round(rel[None, :, 0] * c - rel[None, :, 1] * s), np.round(rel[None, :, 0] * s + rel[None, :, 1] * c)],
            axis=-1,
        ).astype(np.int64)


def rasterize(geom: BaseGeometry, x0: float, y0: float, nx: int, ny: int, step: float = 1.0) -> np.ndarray:
    """Which of the points ``(x0 + j * step, y0 + i * step)`` lie inside ``geom`` (a Polygon or MultiPolygon;
    even-odd rule over all rings), as an ``(ny, nx)`` bool array. A scanline fill with numpy: each ring edge
    toggles the points to the right of where it crosses each row (points on an edge may go either way). Matches
    ``shapely.contains_xy`` (a test checks it) at a fraction of the cost on a whole grid."""
    if geom.is_empty or nx <= 0 or ny <= 0:
        return np.zeros((max(ny, 0), max(nx, 0)), dtype=bool)
    rings = shapely.get_rings(shapely.get_parts(geom))
    segs = []
    for ring in rings:
        c = shapely.get_coordinates(ring)
        segs.append(np.concatenate([c[:-1], c[1:]], axis=1))
    s = np.concatenate(segs)
    s = s[s[:, 1] != s[:, 3]]
    lo, hi = np.minimum(s[:, 1], s[:, 3]), np.maximum(s[:, 1], s[:, 3])
    i_lo = np.clip(np.ceil((lo - y0) / step), 0, ny).astype(np.int64)
    n = np.clip(np.ceil((hi - y0) / step), 0, ny).astype(np.int64) - i_lo
    keep = n > 0
    s, i_lo, n = s[keep], i_lo[keep], n[keep]
    e = np.repeat(np.arange(len(s)), n)
    i = i_lo[e] + (np.arange(int(n.sum())) - np.repeat(np.cumsum(n) - n, n))
    xa, ya, xb, yb = s[e, 0], s[e, 1], s[e, 2], s[e, 3]
    xc = xa + (y0 + i * step - ya) * (xb - xa) / (yb - ya)
    j = np.clip(np.floor((xc - x0) / step).astype(np.int64) + 1, 0, nx)
    flips = (np.bincount(i * (nx + 1) + j, minlength=ny * (nx + 1)) & 1).astype(np.uint8).reshape(ny, nx + 1)
    return np.bitwise_xor.accumulate(flips, axis=1)[:, :nx].view(bool)


__all__ = ["CLEARANCE_CAP_MM", "DISC_OFFSETS_MM", "Rasters", "TargetGeom", "rasterize"]
