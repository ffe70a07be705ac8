"""What a board picture's PNG costs, part by part, and what the alternatives would save (issue 22, "halve the CPU
per placement"; BENCHMARKS.md "CPU per placement, fourth round: what is left").

Usage: .venv/bin/python bench/bench_png.py [--n 200]

The picture: ``render_board`` of a Constructo board after 5 placements (800 px wide, as posted). Figures are CPU
milliseconds (``time.process_time``, best of 3 runs of ``--n``) and bytes:

- ``to_png`` as the bot does it, then apart: mapping to ``fixed_palette`` and Pillow's PNG save at zlib levels 1-3;
- zlib alone on the palette image's rows without a filter (what a home-made PNG writer would compress), with the
  ``zlib`` module Pillow's wheel loads here (``features.version("zlib")``) and, when the optional ``zlib-ng``
  package is importable, with zlib-ng (what a system whose ``libz.so.1`` is zlib-ng would give Pillow);
- the same board resized to 640 px (fewer pixels) and lossless WebP at its fastest setting (another format).

Prints ``uptime``'s load average first.
"""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image, features

from engine.constructo import Match
from render import to_png
from render.common import fixed_palette
from render.constructo import render_board


def best_ms(fn: Callable[[], Any], n: int) -> tuple[float, Any]:
    """(best of 3 runs: CPU ms per call, the last result)."""
    best, out = float("inf"), None
    for _ in range(3):
        t0 = time.process_time()
        for _ in range(n):
            out = fn()
        best = min(best, (time.process_time() - t0) / n * 1000)
    return best, out


def save(img: Image.Image, **kw: Any) -> bytes:
    buf = io.BytesIO()
    img.save(buf, **kw)
    return buf.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200)
    n = parser.parse_args().n
    print(subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    match = Match.new("rombo")
    for _ in range(5):
        match.apply(match.legal_actions(match.current_player)[0])
    rgb = render_board(match, names=("Alice", "Bob")).convert("RGB")
    pal = rgb.quantize(palette=fixed_palette(), dither=Image.Dither.NONE)
    width, height = pal.size
    raw = pal.tobytes()
    rows = b"".join(b"\0" + raw[y * width : (y + 1) * width] for y in range(height))
    print(f"board {width}x{height}, {len(pal.getcolors(256) or [])} colours; zlib loaded {features.version('zlib')}")
    print("| part | CPU ms | bytes |\n|---|---:|---:|")

    def row(name: str, fn: Callable[[], Any], runs: int = n) -> None:
        ms, out = best_ms(fn, runs)
        size = f"{len(out):,}" if isinstance(out, bytes) else "-"
        print(f"| {name} | {ms:.2f} | {size} |")

    row("to_png (palette + PNG, zlib level 2)", lambda: to_png(rgb))
    row("mapping to the fixed palette", lambda: rgb.quantize(palette=fixed_palette(), dither=Image.Dither.NONE))
    for level in (1, 2, 3):
        row(f"Pillow PNG save, level {level}", lambda level=level: save(pal, format="PNG", compress_level=level))
    for level in (1, 2):
        row(f"zlib alone, unfiltered rows, level {level}", lambda level=level: zlib.compress(rows, level))
    try:
        from zlib_ng import zlib_ng
    except ImportError:
        print("| zlib-ng alone | (the optional `zlib-ng` package is not installed) | - |")
    else:
        for level in (1, 2):
            row(f"zlib-ng alone, unfiltered rows, level {level}", lambda level=level: zlib_ng.compress(rows, level))
    small = rgb.resize((640, round(height * 640 / width)), Image.Resampling.LANCZOS)
    row("to_png of the board resized to 640 px", lambda: to_png(small))
    row(
        "lossless WebP, method 0", lambda: save(rgb, format="WEBP", lossless=True, method=0, quality=0), max(1, n // 10)
    )


if __name__ == "__main__":
    main()
