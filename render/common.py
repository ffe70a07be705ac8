"""Shared drawing kit for every image: themes, the Okabe–Ito palette, cached fonts and small helpers.

Pure: the only I/O is reading the shipped DejaVu fonts in ``data/fonts/`` (cached after first use).
All coordinates are pixels (floats allowed), origin top-left, y down, as in Pillow.
"""

from __future__ import annotations

import io
import math
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from engine.data import DATA_DIR

FONT_DIR = DATA_DIR / "fonts"
_FONT_LOCK = threading.Lock()  # one FreeType face per (size, weight) is shared by every rendering thread

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


def hex_rgb(colour: str) -> RGB:
    """``"#RRGGBB"`` -> ``(r, g, b)`` ints 0..255."""
    c = colour.lstrip("#")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


def luminance(colour: str | RGB) -> float:
    """Relative luminance 0..1 (WCAG formula) of a colour given as ``"#RRGGBB"`` or an RGB tuple."""
    rgb = hex_rgb(colour) if isinstance(colour, str) else colour

    def lin(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


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


THEMES: dict[str, Theme] = {
    "dark": Theme(
        name="dark", bg="#1E1F22", panel="#2B2D31", text="#F2F3F5", muted="#B5BAC1", grid="#34363C",
        grid_strong="#4E5058", tile="#3A3D44", tile_edge="#8E9297", table="#26282C", table_edge="#C9CDD2",
        highlight=OKABE_ITO["yellow"], outline="#000000",
    ),
    "light": Theme(
        name="light", bg="#F2F3F5", panel="#FFFFFF", text="#1E1F22", muted="#4E5058", grid="#DCDEE2",
        grid_strong="#B5BAC1", tile="#D9DCE1", tile_edge="#5C5F66", table="#FBFBFC", table_edge="#2B2D31",
        highlight="#B8860B", outline="#FFFFFF",
    ),
}


def theme_of(theme: str) -> Theme:
    """The :class:`Theme` called ``"dark"`` or ``"light"``; raises ``ValueError`` for anything else."""
    try:
        return THEMES[theme]
    except KeyError:
        raise ValueError(f"unknown theme {theme!r}: use 'dark' or 'light'") from None


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The shipped DejaVu Sans (``bold``: DejaVu Sans Bold) at ``size`` pixels, cached."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONT_DIR / name), size=size)


def new_canvas(width: int, height: int, th: Theme) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """An RGB image of ``width`` x ``height`` px filled with the theme background, and its drawer."""
    img = Image.new("RGB", (int(width), int(height)), th.bg)
    return img, ImageDraw.Draw(img)


@lru_cache(maxsize=4096)
def text_size(text: str, size: int, bold: bool = False) -> tuple[int, int]:
    """Width and height in px of ``text`` set in :func:`font` ``(size, bold)``."""
    with _FONT_LOCK:
        x0, y0, x1, y1 = font(size, bold).getbbox(text)
    return int(x1 - x0), int(y1 - y0)


def fit_font_size(text: str, max_w: float, start: int, minimum: int = 16, bold: bool = False) -> int:
    """Largest size <= ``start`` (and >= ``minimum``) at which ``text`` is at most ``max_w`` px wide."""
    size = start
    while size > minimum and text_size(text, size, bold)[0] > max_w:
        size -= 1
    return size


def fit_text(text: str, max_w: float, start: int, minimum: int = 16, bold: bool = False) -> tuple[str, int]:
    """``(text, size)`` that fits ``max_w`` px: the largest size from ``start`` down to ``minimum``, then the text
    cut with an ellipsis if even ``minimum`` is too wide."""
    size = fit_font_size(text, max_w, start, minimum, bold)
    if text_size(text, size, bold)[0] <= max_w:
        return text, size
    cut = text
    while cut and text_size(cut + "…", size, bold)[0] > max_w:
        cut = cut[:-1]
    return cut.rstrip() + "…", size


def draw_fit(
    draw: ImageDraw.ImageDraw, xy: Point, text: str, *, max_w: float, size: int, fill: str, bold: bool = False,
    anchor: str = "la", minimum: int = 16,
) -> None:
    """:func:`draw_text` after :func:`fit_text`: shrink to fit ``max_w`` px (not below ``minimum``), then cut."""
    fitted, fs = fit_text(text, max_w, size, minimum, bold)
    draw_text(draw, xy, fitted, size=fs, fill=fill, bold=bold, anchor=anchor)


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: Point,
    text: str,
    *,
    size: int = 18,
    fill: str = "#FFFFFF",
    bold: bool = False,
    anchor: str = "la",
    stroke: str | None = None,
    stroke_width: int = 0,
) -> None:
    """Draw ``text`` at ``xy`` with a Pillow ``anchor`` (``"mm"`` = centred), optional outline for contrast.

    Short labels (up to ``STAMP_MAX_CHARS``) are pasted from the :func:`stamp_text` cache when the drawer exposes
    its RGB image (it does in every Pillow this project supports); others are set directly, so the cache (512
    entries) stays a few MB.
    """
    target = getattr(draw, "_image", None)
    if len(text) <= STAMP_MAX_CHARS and isinstance(target, Image.Image) and target.mode == "RGB":
        stamp_text(target, xy, text, size=size, fill=fill, bold=bold, stroke=stroke, stroke_width=stroke_width,
                   anchor=anchor)
        return
    with _FONT_LOCK:
        draw.text(
            xy, text, font=font(size, bold), fill=fill, anchor=anchor,
            stroke_width=stroke_width, stroke_fill=stroke if stroke_width else None,
        )


STAMP_MAX_CHARS = 24


@lru_cache(maxsize=512)
def _stamp(
    text: str, size: int, fill: str, bold: bool, stroke: str | None, stroke_width: int, anchor: str = "mm"
) -> tuple[Image.Image, int, int]:
    f = font(size, bold)
    with _FONT_LOCK:
        x0, y0, x1, y1 = f.getbbox(text, anchor=anchor, stroke_width=stroke_width)
    x0, y0 = math.floor(x0) - 1, math.floor(y0) - 1
    im = Image.new("RGBA", (math.ceil(x1) - x0 + 2, math.ceil(y1) - y0 + 2), (0, 0, 0, 0))
    with _FONT_LOCK:
        ImageDraw.Draw(im).text((-x0, -y0), text, font=f, fill=fill, anchor=anchor, stroke_width=stroke_width,
                                stroke_fill=stroke if stroke_width else None)
    return im, x0, y0


def stamp_text(
    img: Image.Image,
    xy: Point,
    text: str,
    *,
    size: int = 18,
    fill: str = "#FFFFFF",
    bold: bool = False,
    stroke: str | None = None,
    stroke_width: int = 0,
    anchor: str = "mm",
) -> None:
    """Like :func:`draw_text` but pasted from a cache of rendered labels: much faster for a label drawn again and
    again (corner values, tile numbers, legends, the same header on the next turn)."""
    im, x0, y0 = _stamp(text, size, fill, bold, stroke, stroke_width, anchor)
    img.paste(im, (round(xy[0]) + x0, round(xy[1]) + y0), im)


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


def arrow(draw: ImageDraw.ImageDraw, a: Point, b: Point, *, colour: str, width: int = 8, head: float = 26,
          outline: str | None = None) -> None:
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


def to_png(img: Image.Image) -> bytes:
    """Encode ``img`` as PNG bytes, optimised for flat-colour art: reduced to a 128-colour palette (fast octree,
    no dithering; invisible on these images) and zlib level 3. About 20 ms and 80 KB for a full CONEX table."""
    buf = io.BytesIO()
    pal = img.quantize(128, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    pal.save(buf, format="PNG", compress_level=3)
    return buf.getvalue()
