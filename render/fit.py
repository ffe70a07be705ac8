"""A picture made to fit an upload limit (Discord refused the full-size one: 413, code 40005).

Pure: bytes in, bytes out. The bot runs it in its CPU workers (``bot/services/refusals.py``).
"""

from __future__ import annotations

import io

from PIL import Image

from render.common import fixed_palette

MIN_WIDTH_PX = 400
"""A smaller picture is never narrower than this: a phone shows pictures ~400 px wide, and every label is at least
9 px tall at that width (``render.text``); below it the text twin is sent instead."""
SCALES = (1.0, 0.85, 0.7, 0.6, 0.5, 0.4)
"""Scales tried, largest first (1.0: the same pixels, compressed harder: ~30 % smaller than the bot's fast PNGs)."""


def smaller_png(data: bytes, max_bytes: int) -> bytes | None:
    """The picture ``data`` (any format Pillow reads; an animation's first frame) as a PNG of at most
    ``max_bytes`` bytes: the largest of :data:`SCALES` that fits, box-filtered (flat colours stay flat: a Lanczos
    filter's fringes made a half-size board *larger* than the box filter's by ~50 %), mapped to the fixed drawing
    palette without dithering and compressed at zlib's best (``optimize``). ``None`` when it cannot fit without
    going below :data:`MIN_WIDTH_PX` (or ``data`` is no picture). Sizes in bytes and pixels."""
    try:
        with Image.open(io.BytesIO(data)) as opened:
            img = opened.convert("RGB")
    except (OSError, ValueError):
        return None
    width, height = img.size
    for scale in SCALES:
        w, h = round(width * scale), round(height * scale)
        if w < min(MIN_WIDTH_PX, width):
            break
        scaled = img if scale == 1.0 else img.resize((w, h), Image.Resampling.BOX)
        buf = io.BytesIO()
        scaled.quantize(palette=fixed_palette(), dither=Image.Dither.NONE).save(buf, format="PNG", optimize=True)
        if buf.tell() <= max_bytes:
            return buf.getvalue()
    return None
