"""Measuring and drawing text in every image: per-character font fallback, fitting with an ellipsis, the
minimum legible size; the recorder of every label drawn (for tests) lives in :mod:`render.text_labels` and is
re-exported here.

Text is set run by run (:func:`render.fonts.split_runs`): DejaVu Sans for what it has, then the Noto fallback
chain; widths are measured the same way, so fitting and ellipses hold for any script. Vertical anchors
(``a``, ``m``, ``s``, ``d``) use DejaVu's metrics whatever the runs, so a name in another script sits on the
same line as its neighbours.

Legibility (phone first): Discord shows an image about 400 px wide on a phone. :func:`min_font_px` is the
smallest font size whose capital letters are at least :data:`MIN_CAP_PX_AT_400` px tall once the image is
scaled to 400 px wide; every renderer sizes its labels from it, and :func:`record_labels` lets tests check
every label of every image.

All coordinates are pixels, origin top-left, y down, as in Pillow. Pure; thread-safe.
"""

from __future__ import annotations

import math
import threading
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from render.fonts import EMOJI_PPEM, FACES, PRIMARY, pil_font, split_runs
from render.text_labels import Label as Label  # the recorder (render.text_labels), re-exported
from render.text_labels import note_paste as note_paste
from render.text_labels import record_label
from render.text_labels import record_labels as record_labels

Point = tuple[float, float]
_FONT_LOCK = threading.RLock()  # FreeType faces are shared by every rendering thread

MIN_CAP_PX_AT_400 = 9.0
"""Smallest cap height (px) of any label when its image is shown 400 px wide (a phone's chat column)."""
CAP_HEIGHT_EM = 1493 / 2048
"""DejaVu Sans's cap height per em (OS/2 sCapHeight / unitsPerEm), the same for its bold."""
PHONE_WIDTH = 400


def min_font_px(image_width: float) -> int:
    """The smallest font size (px) allowed in an image ``image_width`` px wide: its cap height scaled to
    :data:`PHONE_WIDTH` px wide is at least :data:`MIN_CAP_PX_AT_400` (e.g. 25 px at 800 px wide)."""
    return math.ceil(MIN_CAP_PX_AT_400 / CAP_HEIGHT_EM * image_width / PHONE_WIDTH - 1e-9)


def cap_px_at_phone(size: float, image_width: float) -> float:
    """Cap height (px) of text set at ``size`` px once its ``image_width`` px wide image is shown 400 px wide."""
    return size * CAP_HEIGHT_EM * PHONE_WIDTH / image_width


# ----------------------------------------------------------------------------------------------
# measuring
# ----------------------------------------------------------------------------------------------
@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The primary font (DejaVu Sans, ``bold``: DejaVu Sans Bold) at ``size`` px, cached."""
    return pil_font(PRIMARY.key, size, bold)


def _run_font(face: str, size: int, bold: bool) -> ImageFont.FreeTypeFont:
    return pil_font(face, size, bold)


@lru_cache(maxsize=8192)
def _advances(text: str, size: int, bold: bool) -> tuple[float, ...]:
    out = []
    with _FONT_LOCK:
        for face, s in split_runs(text):
            f = _run_font(face, size, bold)
            adv = f.getlength(s)
            out.append(adv * size / EMOJI_PPEM if FACES[face].colour else adv)
    return tuple(out)


def text_width(text: str, size: int, bold: bool = False) -> float:
    """Advance width (px) of ``text`` at ``size`` px, summed over its font runs."""
    return sum(_advances(text, size, bold))


def _single(text: str) -> bool:
    runs = split_runs(text)
    return len(runs) <= 1 and (not runs or (runs[0][0] == PRIMARY.key and runs[0][1] == text))


@lru_cache(maxsize=4096)
def text_size(text: str, size: int, bold: bool = False) -> tuple[int, int]:
    """Width and height in px of the ink of ``text`` set at ``size`` px (with font fallback)."""
    if _single(text):
        with _FONT_LOCK:
            x0, y0, x1, y1 = font(size, bold).getbbox(text)
        return int(x1 - x0), int(y1 - y0)
    x0, y0, x1, y1 = _composite(text, size, "#FFFFFF", bold, None, 0)[3]
    return int(x1 - x0), int(y1 - y0)


def fit_font_size(text: str, max_w: float, start: int, minimum: int = 16, bold: bool = False) -> int:
    """Largest size <= ``start`` (and >= ``minimum``) at which ``text`` is at most ``max_w`` px wide."""
    size = start
    while size > minimum and text_width(text, size, bold) > max_w:
        size -= 1
    return size


def ellipsize(text: str, max_w: float, size: int, bold: bool = False) -> str:
    """``text`` if it is at most ``max_w`` px wide at ``size`` px, else its longest prefix (never ending inside
    a character's marks or an emoji sequence) plus "…" that is; "…" alone when nothing fits."""
    if text_width(text, size, bold) <= max_w:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # the longest prefix that fits with the ellipsis (widths grow with length)
        mid = (lo + hi + 1) // 2
        if text_width(text[:mid].rstrip() + "…", size, bold) <= max_w:
            lo = mid
        else:
            hi = mid - 1
    cut = text[:lo]
    while cut and (cut[-1] in "\u200d\ufe0f" or _is_mark(cut[-1])):
        cut = cut[:-1]
    if 0 < len(cut) < len(text) and _is_mark(text[len(cut)]):  # a mark follows: drop its base as well
        cut = cut[:-1]
    return cut.rstrip() + "…"


def _is_mark(ch: str) -> bool:
    import unicodedata

    return (
        unicodedata.category(ch) in ("Mn", "Me", "Mc") or 0xFE00 <= ord(ch) <= 0xFE0F or 0x1F3FB <= ord(ch) <= 0x1F3FF
    )


def fit_text(text: str, max_w: float, start: int, minimum: int = 16, bold: bool = False) -> tuple[str, int]:
    """``(text, size)`` that fits ``max_w`` px: the largest size from ``start`` down to ``minimum``, then the text
    cut with an ellipsis if even ``minimum`` is too wide."""
    size = fit_font_size(text, max_w, start, minimum, bold)
    return ellipsize(text, max_w, size, bold), size


# ----------------------------------------------------------------------------------------------
# drawing
# ----------------------------------------------------------------------------------------------
STAMP_MAX_CHARS = 24


def _baseline_offset(anchor: str, size: int, bold: bool, top: float, bottom: float) -> float:
    """Distance from the anchor point down to the baseline for a vertical anchor letter (DejaVu metrics)."""
    v = anchor[1] if len(anchor) > 1 else "a"
    with _FONT_LOCK:
        asc, desc = font(size, bold).getmetrics()
    return {"a": asc, "s": 0.0, "d": -desc, "m": (asc - desc) / 2, "t": -top, "b": -bottom}.get(v, asc)


@lru_cache(maxsize=512)
def _composite(
    text: str, size: int, fill: str, bold: bool, stroke: str | None, stroke_width: int
) -> tuple[Image.Image, float, float, tuple[float, float, float, float]]:
    """``text`` drawn run by run on a transparent image: (image, x and y of its top-left relative to the
    start of the baseline, total advance, ink box relative to the start of the baseline)."""
    pieces: list[tuple[str, str, float]] = []
    advances = _advances(text, size, bold)
    pen = 0.0
    x0 = y0 = math.inf
    x1 = y1 = -math.inf
    with _FONT_LOCK:
        for (face, s), adv in zip(split_runs(text), advances, strict=True):
            f = _run_font(face, size, bold)
            if FACES[face].colour:
                k = size / EMOJI_PPEM
                bx0, by0, bx1, by1 = (v * k for v in f.getbbox(s, anchor="ls"))
            else:
                bx0, by0, bx1, by1 = f.getbbox(s, anchor="ls", stroke_width=stroke_width)
            x0, y0 = min(x0, pen + bx0), min(y0, by0)
            x1, y1 = max(x1, pen + bx1), max(y1, by1)
            pieces.append((face, s, pen))
            pen += adv
    if not pieces:
        return Image.new("RGBA", (1, 1)), 0.0, 0.0, (0.0, 0.0, 0.0, 0.0)
    ox, oy = math.floor(x0) - 1, math.floor(y0) - 1
    im = Image.new("RGBA", (math.ceil(x1) - ox + 2, math.ceil(y1) - oy + 2), (0, 0, 0, 0))
    draw = ImageDraw.Draw(im)
    with _FONT_LOCK:
        for face, s, at in pieces:
            f = _run_font(face, size, bold)
            if FACES[face].colour:
                k = size / EMOJI_PPEM
                ex0, ey0, ex1, ey1 = f.getbbox(s, anchor="ls")
                big = Image.new("RGBA", (max(1, math.ceil(ex1 - ex0)), max(1, math.ceil(ey1 - ey0))), (0, 0, 0, 0))
                ImageDraw.Draw(big).text((-ex0, -ey0), s, font=f, anchor="ls", embedded_color=True)
                small = big.resize(
                    (max(1, round(big.width * k)), max(1, round(big.height * k))), Image.Resampling.LANCZOS
                )
                im.alpha_composite(small, (round(at + ex0 * k - ox), round(ey0 * k - oy)))
            else:
                draw.text(
                    (at - ox, -oy),
                    s,
                    font=f,
                    fill=fill,
                    anchor="ls",
                    stroke_width=stroke_width,
                    stroke_fill=stroke if stroke_width else None,
                )
    return im, ox, oy, (x0, y0, x1, y1)


def _paste_composite(
    img: Image.Image,
    xy: Point,
    text: str,
    size: int,
    fill: str,
    bold: bool,
    stroke: str | None,
    stroke_width: int,
    anchor: str,
) -> tuple[float, float, float, float]:
    im, ox, oy, (bx0, by0, bx1, by1) = _composite(text, size, fill, bold, stroke, stroke_width)
    width = text_width(text, size, bold)
    h = anchor[0] if anchor else "l"
    x = xy[0] - {"l": 0.0, "m": width / 2, "r": width}.get(h, 0.0)
    y = xy[1] + _baseline_offset(anchor, size, bold, by0, by1)
    if img.mode == "RGBA":
        img.alpha_composite(im, (round(x + ox), round(y + oy)))
    else:
        img.paste(im, (round(x + ox), round(y + oy)), im)
    return x + bx0, y + by0, x + bx1, y + by1


@lru_cache(maxsize=512)
def _stamp(
    text: str, size: int, fill: str, bold: bool, stroke: str | None, stroke_width: int, anchor: str = "mm"
) -> tuple[Image.Image, int, int, tuple[float, float, float, float]]:
    f = font(size, bold)
    with _FONT_LOCK:
        x0, y0, x1, y1 = f.getbbox(text, anchor=anchor, stroke_width=stroke_width)
    box = (x0, y0, x1, y1)
    ix0, iy0 = math.floor(x0) - 1, math.floor(y0) - 1
    im = Image.new("RGBA", (math.ceil(x1) - ix0 + 2, math.ceil(y1) - iy0 + 2), (0, 0, 0, 0))
    with _FONT_LOCK:
        ImageDraw.Draw(im).text(
            (-ix0, -iy0),
            text,
            font=f,
            fill=fill,
            anchor=anchor,
            stroke_width=stroke_width,
            stroke_fill=stroke if stroke_width else None,
        )
    return im, ix0, iy0, box


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
) -> tuple[float, float, float, float]:
    """Like :func:`draw_text` but pasted from a cache of rendered labels: much faster for a label drawn again and
    again (corner values, tile numbers, legends). Returns the label's ink box in ``img`` pixels."""
    if not _single(text):
        box = _paste_composite(img, xy, text, size, fill, bold, stroke, stroke_width, anchor)
    else:
        im, x0, y0, (bx0, by0, bx1, by1) = _stamp(text, size, fill, bold, stroke, stroke_width, anchor)
        px, py = round(xy[0]), round(xy[1])
        if img.mode == "RGBA":
            img.alpha_composite(im, (px + x0, py + y0))
        else:
            img.paste(im, (px + x0, py + y0), im)
        box = (px + bx0, py + by0, px + bx1, py + by1)
    record_label(img, text, size, box)
    return box


LINE_MASKS = 256
"""Glyph masks of long lines kept per process (:func:`_line_mask`): the title, legends and score lines of a board are
the same move after move; at most ~30 KB each."""


def _masks_usable(draw: ImageDraw.ImageDraw) -> bool:
    """Whether ``draw`` can take a cached mask (:func:`_draw_line`): an RGB(A) image drawn in Pillow's antialiased
    font mode through its core drawer, as ``ImageDraw.text`` does itself."""
    return (
        getattr(draw, "fontmode", None) == "L"
        and getattr(draw, "mode", None) in ("RGB", "RGBA")
        and hasattr(getattr(draw, "draw", None), "draw_bitmap")
    )


@lru_cache(maxsize=LINE_MASKS)
def _line_mask(
    text: str, size: int, bold: bool, anchor: str, start: tuple[float, float]
) -> tuple[object, tuple[int, int], tuple[float, float, float, float]]:
    """The glyph mask of a one-font line as ``ImageDraw.text`` makes it (``getmask2`` at the sub-pixel ``start``),
    its offset from the anchor point, and its ink box relative to that point."""
    f = font(size, bold)
    with _FONT_LOCK:
        mask, offset = f.getmask2(text, "L", anchor=anchor, start=start)
        box = f.getbbox(text, anchor=anchor)
    return mask, (int(offset[0]), int(offset[1])), box


def _draw_line(
    draw: ImageDraw.ImageDraw, xy: Point, text: str, size: int, fill: str, bold: bool, anchor: str
) -> tuple[float, float, float, float]:
    """``draw.text(xy, text, ...)`` of a one-font line without stroke, pixel for pixel, from a cached glyph mask
    (FreeType's rendering is the costly part of a board's long lines). Returns the ink box relative to ``xy``."""
    fx, ix = math.modf(xy[0])
    fy, iy = math.modf(xy[1])
    mask, (ox, oy), box = _line_mask(text, size, bold, anchor, (fx, fy))
    ink = draw._getink(fill)[0]  # the same ink ImageDraw.text computes
    draw.draw.draw_bitmap((int(ix) + ox, int(iy) + oy), mask, ink)
    return box


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
) -> tuple[float, float, float, float]:
    """Draw ``text`` at ``xy`` with a Pillow ``anchor`` (``"mm"`` = centred), optional outline for contrast, with
    font fallback for characters DejaVu Sans lacks. Returns the ink box ``(x0, y0, x1, y1)`` in px.

    Short labels (up to ``STAMP_MAX_CHARS``) and text needing fallback fonts are pasted from cached stamps when
    the drawer exposes its image (it does in every Pillow this project supports); other text is set directly.
    """
    target = getattr(draw, "_image", None)
    if (
        isinstance(target, Image.Image)
        and target.mode in ("RGB", "RGBA")
        and (len(text) <= STAMP_MAX_CHARS or not _single(text))
    ):
        return stamp_text(
            target, xy, text, size=size, fill=fill, bold=bold, stroke=stroke, stroke_width=stroke_width, anchor=anchor
        )
    if not stroke_width and "\n" not in text and _masks_usable(draw):
        box = _draw_line(draw, xy, text, size, fill, bold, anchor)
    else:
        f = font(size, bold)
        with _FONT_LOCK:
            draw.text(
                xy,
                text,
                font=f,
                fill=fill,
                anchor=anchor,
                stroke_width=stroke_width,
                stroke_fill=stroke if stroke_width else None,
            )
            box = f.getbbox(text, anchor=anchor, stroke_width=stroke_width)
    box = (xy[0] + box[0], xy[1] + box[1], xy[0] + box[2], xy[1] + box[3])
    record_label(target if isinstance(target, Image.Image) else None, text, size, box)
    return box


def draw_fit(
    draw: ImageDraw.ImageDraw,
    xy: Point,
    text: str,
    *,
    max_w: float,
    size: int,
    fill: str,
    bold: bool = False,
    anchor: str = "la",
    minimum: int = 16,
    stroke: str | None = None,
    stroke_width: int = 0,
) -> tuple[float, float, float, float]:
    """:func:`draw_text` after :func:`fit_text`: shrink to fit ``max_w`` px (not below ``minimum``), then cut with
    an ellipsis. Returns the ink box."""
    fitted, fs = fit_text(text, max_w, size, min(minimum, size), bold)
    return draw_text(
        draw, xy, fitted, size=fs, fill=fill, bold=bold, anchor=anchor, stroke=stroke, stroke_width=stroke_width
    )


def wrap_text(text: str, max_w: float, size: int, bold: bool = False, max_lines: int = 3) -> list[str]:
    """``text`` broken into lines at most ``max_w`` px wide at ``size`` px: at " · " separators first, at spaces
    inside a part too long for a line; the last allowed line is ellipsized, and so is a word wider than a line."""
    parts = text.split(" · ")
    lines: list[str] = []
    cur = ""
    for part in parts:
        trial = part if not cur else cur + " · " + part
        if text_width(trial, size, bold) <= max_w:
            cur = trial
            continue
        if cur:
            lines.append(cur)
            cur = ""
        for word in part.split(" "):
            trial = word if not cur else cur + " " + word
            if text_width(trial, size, bold) <= max_w or not cur:
                cur = trial
            else:
                lines.append(cur)
                cur = word
    if cur:
        lines.append(cur)
    if len(lines) > max_lines:
        lines = [*lines[: max_lines - 1], " ".join(lines[max_lines - 1 :])]
    return [ellipsize(ln.strip(), max_w, size, bold) for ln in lines]
