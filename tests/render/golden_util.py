"""Golden-image comparison for the render tests.

``assert_matches_golden(img, name)`` compares ``img`` with ``tests/render/golden/<name>.png`` by mean absolute
pixel difference (0-255 scale, RGB): over the whole image (``tolerance``) and over every 64 x 64 block
(``block_tolerance``), so a small local change (one card's colour, a missing label) fails too while a
one-pixel text shift does not. Regenerate the goldens after an intended visual change with::

    UPDATE_GOLDEN=1 .venv/bin/pytest tests/render -q

then look at the new PNGs before committing them.
"""

from __future__ import annotations

import os
from pathlib import Path

from PIL import Image, ImageChops, ImageStat

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"


def mean_abs_diff(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute difference per channel (0..255) of two RGB images of the same size."""
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    return sum(ImageStat.Stat(diff).mean) / 3.0


def worst_block(a: Image.Image, b: Image.Image, block: int = 64) -> tuple[float, tuple[int, int]]:
    """The largest mean absolute difference over ``block`` x ``block`` pixel blocks, and that block's origin."""
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB")).convert("L")
    small = diff.reduce(block)  # each output pixel = the mean of one block (edge blocks partial)
    worst = max(range(small.width * small.height), key=lambda i: small.getpixel((i % small.width, i // small.width)))
    x, y = worst % small.width, worst // small.width
    return float(small.getpixel((x, y))), (x * block, y * block)


def assert_matches_golden(img: Image.Image, name: str, tolerance: float = 1.5, block_tolerance: float = 12.0) -> None:
    """Fail when ``img`` differs from the stored golden ``name``: size, mean abs diff above ``tolerance``, or a
    64 x 64 block whose mean abs diff (grey) is above ``block_tolerance``."""
    path = GOLDEN_DIR / f"{name}.png"
    if os.environ.get("UPDATE_GOLDEN") == "1":
        GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
        img.save(path, optimize=True)
        return
    assert path.exists(), f"golden image {path} is missing: run with UPDATE_GOLDEN=1 to create it"
    golden = Image.open(path).convert("RGB")
    assert golden.size == img.size, f"{name}: size {img.size} != golden {golden.size}"
    d = mean_abs_diff(img, golden)
    assert d <= tolerance, f"{name}: mean abs pixel difference {d:.2f} > {tolerance} (UPDATE_GOLDEN=1 to accept)"
    worst, at = worst_block(img, golden)
    assert worst <= block_tolerance, f"{name}: block at {at} differs by {worst:.1f} > {block_tolerance}"
