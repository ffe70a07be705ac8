"""Nim's replay renderer (``render/nim_replay.py`` in a shipped game; depends only on the engine and ``render``):
the frames, captions and move list that :mod:`render.replay` turns into the animated GIF and the text move list.
The plug-in names it (``kind.replay``); nothing finds it by its file name.

Frame: one row of stones per heap, ``width`` px wide, the height fixed for the whole replay (the setup's largest
heap and heap count); the stones the step took are drawn as hollow rings in the theme's highlight colour.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

from PIL import Image, ImageDraw

from engine.protocol import GameOver
from engine.record import Record, Step
from render.common import draw_text, min_font_px, theme_of
from render.palette import Palette
from render.replay import ReplayRenderer
from tests.games.nim.engine import Left, Nim, Took

__all__ = ["REPLAY", "caption", "move_lines", "prepare", "score_key"]

MARGIN = 12


def _geometry(setup: dict[str, Any], width: int) -> tuple[int, int, int]:
    """``(label_w, stone_px, row_h)`` for a replay ``width`` px wide of the heaps in ``setup``."""
    label_w = min_font_px(width) * 2 + MARGIN
    most = max(setup["heaps"])
    stone = max(6, min(40, (width - label_w - MARGIN) // most - 4))
    return label_w, stone, stone + 10


def prepare(
    final: Nim,
    steps: Sequence[Step],
    *,
    names: Sequence[str],
    width: int,
    theme: str,
    palette: Palette | None = None,
    words: Any = None,
) -> Callable[[Step], Image.Image]:
    """A painter: the heaps after a step (``step.state``, a live ``Nim``), ``width`` px wide, RGB (this test game
    writes English only: ``words`` is ignored)."""
    th = theme_of(theme, palette)
    label_w, stone, row_h = _geometry(final.setup, width)
    height = len(final.setup["heaps"]) * row_h + 2 * MARGIN
    fs = min_font_px(width)

    def paint(step: Step) -> Image.Image:
        img = Image.new("RGB", (width, height), th.bg)
        draw = ImageDraw.Draw(img)
        taken = {e.heap - 1: e.count for e in step.events if isinstance(e, Took)}
        for h, n in enumerate(step.state.heaps):
            y = MARGIN + h * row_h
            draw_text(draw, (MARGIN, y + stone / 2), str(h + 1), size=fs, fill=th.text, bold=True, anchor="lm")
            for i in range(n + taken.get(h, 0)):
                x = label_w + i * (stone + 4)
                box = (x, y, x + stone, y + stone)
                if i < n:
                    draw.ellipse(box, fill=th.tile, outline=th.tile_edge, width=2)
                else:
                    draw.ellipse(box, outline=th.highlight, width=3)
        return img

    return paint


def caption(step: Step, names: Sequence[str], words: Any = None) -> tuple[int | None, str]:
    """``(seat, text)``: ``take 2 from heap 1 · 1 left``, ``gives up``; the start lists the heaps; the last step
    adds ``· <winner> wins``."""
    if step.index == 0:
        return None, "start · heaps " + " ".join(str(n) for n in step.state.setup["heaps"])
    parts: list[str] = []
    for ev in step.events:
        if isinstance(ev, Took):
            parts.append(f"take {ev.count} from heap {ev.heap} · {ev.left} left")
        elif isinstance(ev, Left):
            parts.append("runs out of time" if ev.how == "timeout" else "gives up")
        elif isinstance(ev, GameOver):
            parts.append(f"{names[ev.outcome.winners[0]]} wins")
    return step.seat, " · ".join(parts) or str(step.text)


def score_key(state: Nim) -> Hashable:
    """Which heaps are empty: a frame where a heap empties is never dropped."""
    return tuple(n == 0 for n in state.heaps)


def move_lines(
    rec: Record, steps: Iterable[Step], names: Sequence[str], *, compact: bool = False, words: Any = None
) -> list[str]:
    """``"3. Alice: take 2 from heap 1 (take 1 2)"`` per action, the engine's text in brackets (compact: ``"3. A 1/2"``,
    heap/count), then ``"Alice wins (N2)"``."""
    lines: list[str] = []
    final: Any = None
    for step in steps:
        final = step.state
        if step.index == 0:
            continue
        assert step.seat is not None
        took = next((e for e in step.events if isinstance(e, Took)), None)
        if compact:
            what = f"{took.heap}/{took.count}" if took else str(step.text)
            lines.append(f"{step.index}. {'AB'[step.seat]} {what}")
        else:
            what = f"take {took.count} from heap {took.heap} ({step.text})" if took else str(step.text)
            lines.append(f"{step.index}. {names[step.seat]}: {what}")
    if final is not None and final.outcome is not None:
        lines.append(f"{names[final.outcome.winners[0]]} wins ({final.outcome.reason})")
    return lines


REPLAY = ReplayRenderer(Nim, prepare, caption, score_key, move_lines)
"""Nim's replay renderer (named by its plug-in: ``kind.replay``)."""
