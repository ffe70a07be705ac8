"""Shared drawing kit for every image: themes, the Okabe–Ito palette and small helpers; text measuring and
drawing (font fallback, fitting, legibility) live in :mod:`render.text` and are re-exported here.

Pure: the only I/O is reading the shipped fonts in ``engine/data/fonts/`` (cached after first use).
All coordinates are pixels (floats allowed), origin top-left, y down, as in Pillow.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from PIL import Image, ImageDraw

from render.fonts import FONT_DIR
from render.palette import PALETTES, STANDARD, Palette, hex_rgb, luminance
from render.text import (
    STAMP_MAX_CHARS,
    draw_fit,
    draw_text,
    ellipsize,
    fit_font_size,
    fit_text,
    font,
    min_font_px,
    note_paste,
    stamp_text,
    text_size,
    text_width,
    wrap_text,
)

__all__ = [
    "FONT_DIR",
    "OKABE_ITO",
    "STAMP_MAX_CHARS",
    "THEMES",
    "Palette",
    "Theme",
    "arrow",
    "draw_fit",
    "draw_text",
    "ellipsize",
    "fit_font_size",
    "fit_text",
    "font",
    "hatch",
    "hex_rgb",
    "ink_on",
    "luminance",
    "min_font_px",
    "new_canvas",
    "note_paste",
    "polygon_centroid",
    "seat_names",
    "stamp_text",
    "text_size",
    "text_width",
    "theme_of",
    "to_png",
    "wrap_text",
]

# Okabe & Ito (2008) colour-blind-safe palette.
OKABE_ITO: dict[str, str] = {
    "black": "#000000",
    "orange": "#E69F00",
    "sky": "#56B4E9",
    "green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "purple": "#CC79A7",
}

RGB = tuple[int, int, int]
Point = tuple[float, float]


def ink_on(colour: str | RGB) -> str:
    """Black or white, whichever reads better on ``colour``."""
    return "#111111" if luminance(colour) > 0.23 else "#FFFFFF"


@dataclass(frozen=True)
class Theme:
    """Colours of one Discord theme. ``bg`` is the image's own panel (we never rely on Discord's background)."""

    name: str
    bg: str
    panel: str
    text: str
    muted: str
    grid: str
    grid_strong: str
    tile: str
    tile_edge: str
    table: str
    table_edge: str
    highlight: str
    outline: str
    seats: tuple[str, str] = STANDARD.seats["dark"]
    """The two seats' fills (the :class:`render.palette.Palette` applied by :func:`theme_of`)."""
    stripe: str = STANDARD.stripes["dark"]
    """The stripes over seat 1's fill."""
    card_patterns: bool = False
    """Cards: a pattern per colour on every corner triangle (the colour-blind palette)."""
    palette: str = STANDARD.name


THEMES: dict[str, Theme] = {
    "dark": Theme(
        name="dark",
        bg="#1E1F22",
        panel="#2B2D31",
        text="#F2F3F5",
        muted="#B5BAC1",
        grid="#34363C",
        grid_strong="#4E5058",
        tile="#3A3D44",
        tile_edge="#8E9297",
        table="#26282C",
        table_edge="#C9CDD2",
        highlight=OKABE_ITO["yellow"],
        outline="#000000",
    ),
    "light": Theme(
        name="light",
        bg="#F2F3F5",
        panel="#FFFFFF",
        text="#1E1F22",
        muted="#4E5058",
        grid="#DCDEE2",
        grid_strong="#B5BAC1",
        tile="#D9DCE1",
        tile_edge="#5C5F66",
        table="#FBFBFC",
        table_edge="#2B2D31",
        highlight="#B8860B",
        outline="#FFFFFF",
    ),
}


def theme_of(theme: str, palette: Palette | None = None) -> Theme:
    """The :class:`Theme` called ``"dark"`` or ``"light"`` with ``palette``'s seat colours and cues for that theme
    (``None`` = :data:`render.palette.STANDARD`); raises ``ValueError`` for another theme name."""
    try:
        th = THEMES[theme]
    except KeyError:
        raise ValueError(f"unknown theme {theme!r}: use 'dark' or 'light'") from None
    pal = palette or STANDARD
    return replace(
        th, seats=pal.seat_fill(theme), stripe=pal.stripe(theme), card_patterns=pal.card_patterns, palette=pal.name
    )


def new_canvas(width: int, height: int, th: Theme) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """An RGB image of ``width`` x ``height`` px filled with the theme background, and its drawer."""
    img = Image.new("RGB", (int(width), int(height)), th.bg)
    return img, ImageDraw.Draw(img)


def hatch(draw: ImageDraw.ImageDraw, box: Sequence[float], colour: str, spacing: int = 7, width: int = 2) -> None:
    """Diagonal stripes (top-right to bottom-left) clipped to the rectangle ``box`` = (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = box
    h = y1 - y0
    x = x0 - h
    while x < x1:
        # segment from (x, y1) to (x + h, y0), clipped to [x0, x1]
        ax, ay, bx, by = x, y1, x + h, y0
        if ax < x0:
            ay -= x0 - ax
            ax = x0
        if bx > x1:
            by += bx - x1
            bx = x1
        if bx > ax:
            draw.line([(ax, ay), (bx, by)], fill=colour, width=width)
        x += spacing


def arrow(
    draw: ImageDraw.ImageDraw,
    a: Point,
    b: Point,
    *,
    colour: str,
    width: int = 8,
    head: float = 26,
    outline: str | None = None,
) -> None:
    """An arrow from ``a`` to ``b`` (px) with a filled triangular head; ``outline`` draws a darker halo first."""
    ax, ay = a
    bx, by = b
    ang = math.atan2(by - ay, bx - ax)
    base = (bx - head * math.cos(ang), by - head * math.sin(ang))
    left = (base[0] + head * 0.55 * math.sin(ang), base[1] - head * 0.55 * math.cos(ang))
    right = (base[0] - head * 0.55 * math.sin(ang), base[1] + head * 0.55 * math.cos(ang))
    if outline:
        draw.line([a, base], fill=outline, width=width + 4)
        draw.polygon([b, left, right], fill=outline, outline=outline, width=3)
    draw.line([a, base], fill=colour, width=width)
    draw.polygon([b, left, right], fill=colour)


def polygon_centroid(points: Iterable[Point]) -> Point:
    """Arithmetic mean of a polygon's vertices (good enough for convex label placement)."""
    pts = list(points)
    return sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)


def seat_names(names: Sequence[str] | None, seats: int) -> list[str]:
    """``names`` padded to ``seats`` entries: a missing or blank name becomes ``"P<seat+1>"``."""
    given = list(names or ())
    return [str(given[i]).strip() if i < len(given) and str(given[i]).strip() else f"P{i + 1}" for i in range(seats)]


PALETTE_EXACT: tuple[str, ...] = (
    "#FFFFFF",
    "#000000",
    "#111111",
    "#08306B",
    "#60646C",
    "#A9AEB6",
    "#0E0F11",
    "#C4C7CC",
    "#FF4040",
    "#FF66CC",
    "#B6FF3B",
    "#FFB000",
    "#00E5E5",
    "#FF5555",
    "#C9A6FF",
    "#FFF27A",
    "#B8860B",
)
"""Colours the images draw with besides :data:`OKABE_ITO` and the themes' (kept exact by :func:`fixed_palette`)."""


def _palette_colours() -> list[RGB]:
    exact = [
        *OKABE_ITO.values(),
        *(c for t in THEMES.values() for c in vars(t).values() if isinstance(c, str) and c.startswith("#")),
        *(c for p in PALETTES.values() for c in p.colours()),
        *PALETTE_EXACT,
    ]
    colours: list[RGB] = list(dict.fromkeys(hex_rgb(c) for c in exact))
    levels = (0, 51, 102, 153, 204, 255)
    cube = [(r, g, b) for r in levels for g in levels for b in levels]
    colours += [c for c in cube if c not in colours]
    grey = 8
    while len(colours) < 256 and grey < 255:  # greys between the cube's steps: anti-aliased text and edges
        if (grey, grey, grey) not in colours:
            colours.append((grey, grey, grey))
        grey += 8
    return colours[:256]


_FIXED: Image.Image | None = None


def fixed_palette() -> Image.Image:
    """One 256-colour palette for every picture: the Okabe–Ito and theme colours exactly, a 6x6x6 colour cube and
    greys. Mapping to a fixed palette costs ~1 ms where an adaptive one (octree) costs ~10 ms per board."""
    global _FIXED
    if _FIXED is None:
        flat = [v for c in _palette_colours() for v in c]
        pal = Image.new("P", (1, 1))
        pal.putpalette(flat + [0] * (768 - len(flat)))
        _FIXED = pal
    return _FIXED


def to_png(img: Image.Image) -> bytes:
    """Encode ``img`` as PNG bytes, optimised for flat-colour art: mapped to :func:`fixed_palette` (no dithering;
    the drawing colours are in it exactly) and zlib level 2 (a mid-game board picture: ~2.1 ms and 35 KB, where
    level 3 takes ~2.35 ms for 33 KB; BENCHMARKS.md "CPU per placement, third round"). A few ms and ~35-80 KB per
    board."""
    buf = io.BytesIO()
    rgb = img if img.mode == "RGB" else img.convert("RGB")
    pal = rgb.quantize(palette=fixed_palette(), dither=Image.Dither.NONE)
    pal.save(buf, format="PNG", compress_level=2)
    return buf.getvalue()
