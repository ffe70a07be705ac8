"""The README's screenshots (``docs/screenshots``) are what the project renders now: regenerate them with
``python -m tools.screenshots`` after a visual change (and look at them)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render import to_png
from tests.render.golden_util import mean_abs_diff, worst_block
from tools import screenshots


@pytest.mark.parametrize("name", sorted(screenshots.images()))
def test_the_committed_screenshot_is_current(name: str) -> None:
    path = screenshots.OUT / name
    assert path.exists(), f"{path} is missing: run python -m tools.screenshots"
    now = Image.open(io.BytesIO(to_png(screenshots.images()[name]))).convert("RGB")  # as the script writes it
    kept = Image.open(path).convert("RGB")
    assert kept.size == now.size, f"{name}: {kept.size} != {now.size}: run python -m tools.screenshots"
    assert mean_abs_diff(now, kept) <= 1.5 and worst_block(now, kept)[0] <= 12.0, (
        f"{name} is out of date: run python -m tools.screenshots"
    )
