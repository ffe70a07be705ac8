"""Nim's picture: one row of stones per heap (``render/nim.py`` in a shipped game; depends only on the engine)."""

from __future__ import annotations

from PIL import Image, ImageDraw

from tests.games.nim.engine import Nim

STONE_PX = 64


def render_heaps(state: Nim, *, names: list[str]) -> Image.Image:
    """The heaps as rows of stones (1024 px wide), the player to move named in the margin."""
    width = 1024
    height = max(1, len(state.heaps)) * (STONE_PX + 24) + 96
    img = Image.new("RGB", (width, height), (30, 33, 36))
    draw = ImageDraw.Draw(img)
    for h, n in enumerate(state.heaps):
        y = 24 + h * (STONE_PX + 24)
        draw.text((16, y + STONE_PX // 2), f"{h + 1}", fill=(220, 220, 220))
        for i in range(n):
            x = 64 + i * (STONE_PX + 8)
            draw.ellipse((x, y, x + STONE_PX, y + STONE_PX), fill=(200, 160, 90), outline=(250, 230, 180))
    who = state.current_player
    footer = "game over" if who is None else f"{names[who]} to take"
    draw.text((16, height - 48), footer, fill=(220, 220, 220))
    return img


def heaps_text(state: Nim, *, names: list[str]) -> str:
    """The text twin: ``heap 1: ooo (3)`` per heap."""
    return "\n".join(f"heap {h + 1}: {'o' * n} ({n})" for h, n in enumerate(state.heaps))
