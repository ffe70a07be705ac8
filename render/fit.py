"""A picture made to fit an upload limit (Discord refused the full-size one: 413, code 40005).

Pure: bytes in, bytes out. The bot runs it in its CPU workers (``bot/services/refusals.py``).
"""

from __future__ import annotations

import io

from PIL import Image

from render.common import to_png

MIN_WIDTH_PX = 400
"""A smaller picture is never narrower than this: a phone shows pictures ~400 px wide, and every label is at least
9 px tall at that width (``render.text``); below it the text twin is sent instead."""
SCALES = (1.0, 0.85, 0.7, 0.6, 0.5, 0.4)
"""Scales tried, largest first (1.0: only re-encoded with the fixed palette)."""


def smaller_png(data: bytes, max_bytes: int) -> bytes | None:
    """The picture ``data`` (any format Pillow reads; an animation's first frame) as a PNG of at most
    ``max_bytes`` bytes: the largest of :data:`SCALES` that fits, Lanczos-scaled and mapped to the fixed drawing
    palette (``render.common.to_png``). ``None`` when it cannot fit without going below :data:`MIN_WIDTH_PX`
    (or ``data`` is no picture). Sizes in bytes and pixels."""
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
        png = to_png(img if scale == 1.0 else img.resize((w, h), Image.Resampling.LANCZOS))
        if len(png) <= max_bytes:
            return png
    return None
