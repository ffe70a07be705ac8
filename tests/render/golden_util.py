"""Golden-image comparison for the render tests.

``assert_matches_golden(img, name)`` compares ``img`` with ``tests/render/golden/<name>.png`` by mean absolute
pixel difference (0-255 scale, RGB) and fails above ``tolerance``. Regenerate the goldens after an intended
visual change with::

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


def assert_matches_golden(img: Image.Image, name: str, tolerance: float = 1.5) -> None:
    """Fail when ``img`` differs from the stored golden ``name`` (size, or mean abs diff above ``tolerance``)."""
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
