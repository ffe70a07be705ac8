"""Long one-font lines are drawn from cached glyph masks (``render.text._draw_line``, issue 22: CPU per
placement): pixel for pixel what ``ImageDraw.text`` draws, at any sub-pixel position and anchor, and a board drawn
twice (the second from the cache) is the same image as one drawn without it."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops, ImageDraw

import render.text as text
from engine.constructo import Match
from render.constructo import render_board

LINE = "▶ Alice (A, solid) to move · last move: S4 by B — ñandú 123"


@pytest.mark.parametrize("anchor", ["la", "lm", "mm", "rs", "ls", "ld"])
@pytest.mark.parametrize("xy", [(10.3, 20.7), (100.0, 55.5), (-3.5, 10.25)])
def test_a_cached_line_is_what_pillow_draws(anchor: str, xy: tuple[float, float]) -> None:
    for mode, bg in (("RGB", "#123456"), ("RGBA", (18, 52, 86, 255))):
        ours = Image.new(mode, (700, 80), bg)
        pillows = ours.copy()
        box = text._draw_line(ImageDraw.Draw(ours), xy, LINE, 25, "#FFCC00", False, anchor)
        ImageDraw.Draw(pillows).text(xy, LINE, font=text.font(25, False), fill="#FFCC00", anchor=anchor)
        assert ImageChops.difference(ours, pillows).getbbox() is None, (mode, anchor, xy)
        assert box == text.font(25, False).getbbox(LINE, anchor=anchor)


def test_a_board_from_the_cache_is_the_board_without_it(monkeypatch: pytest.MonkeyPatch) -> None:
    match = Match.new("rombo")
    for _ in range(5):
        match.apply(match.legal_actions(match.current_player)[0])
    text._line_mask.cache_clear()
    first = render_board(match, names=("Alice", "Bob"))
    again = render_board(match, names=("Alice", "Bob"))
    assert text._line_mask.cache_info().hits > 0, "the long lines came from the cache the second time"
    monkeypatch.setattr(text, "_masks_usable", lambda _draw: False)  # Pillow's own drawing
    plain = render_board(match, names=("Alice", "Bob"))
    assert ImageChops.difference(first, plain).getbbox() is None
    assert ImageChops.difference(again, plain).getbbox() is None


def test_one_cached_mask_serves_every_colour_and_theme() -> None:
    """The cache key has no colour: the mask is the glyphs' coverage, the ink is applied at drawing."""
    text._line_mask.cache_clear()
    for fill in ("#FFCC00", "#000000", "#3366FF", "#FFFFFF"):
        ours = Image.new("RGB", (700, 60), "#222222")
        pillows = ours.copy()
        text._draw_line(ImageDraw.Draw(ours), (5.3, 30.6), LINE, 25, fill, True, "lm")
        ImageDraw.Draw(pillows).text((5.3, 30.6), LINE, font=text.font(25, True), fill=fill, anchor="lm")
        assert ImageChops.difference(ours, pillows).getbbox() is None, fill
    assert text._line_mask.cache_info().misses == 1
