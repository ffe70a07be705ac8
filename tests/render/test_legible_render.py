"""Legibility pass, pictures: the hint sheet's number badges stand out in both themes (a white badge on the light
theme's white tiles vanished), captions with the points first are drawn whole, and a zoomed table names the zoom
in words."""

from __future__ import annotations

import pytest

from bot.i18n import image_words
from engine.conex import Game, Place
from engine.conex.sample import first_fit_game
from render.common import THEMES
from render.conex import render_table
from render.conex_hints import FS, badge_colours, hint_tiles, render_hints
from render.palette import contrast_ratio
from render.text import record_labels


@pytest.fixture(scope="module")
def game() -> Game:
    return first_fit_game(8)


def _hints(game: Game, n: int) -> list[Place]:
    p = game.current_player
    out: list[Place] = []
    for c in game.hand(p):
        out += game.find_placements(p, c.id, limit=3)
    return out[:n]


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_hint_badges_contrast_with_their_tile(theme: str) -> None:
    panel = THEMES[theme].panel
    fill, ink = badge_colours(panel)
    assert contrast_ratio(fill, panel) >= 3.0, (theme, fill, panel)
    assert contrast_ratio(ink, fill) >= 4.5, (theme, ink, fill)


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_the_badge_of_hint_one_shows_in_the_picture(game: Game, theme: str) -> None:
    hints = _hints(game, 5)
    img = render_hints(game, hints, theme=theme).convert("RGB")
    panel = THEMES[theme].panel
    for tile in hint_tiles(game, hints)[:2]:
        x0, y0 = tile.box[:2]
        r = FS * 0.85
        bx, by = x0 + 6 + r, y0 + 6 + r
        pixel = img.getpixel((round(bx - r * 0.55), round(by + r * 0.3)))  # inside the badge, beside the number
        assert contrast_ratio(pixel, panel) >= 3.0, (theme, tile.number, pixel, panel)


def test_captions_with_points_first_are_drawn_whole(game: Game) -> None:
    hints = _hints(game, 9)
    labels = [f"+{10 + i}: {chr(65 + i)} #{52 - i} → tablero" for i in range(len(hints))]
    with record_labels() as log:
        img = render_hints(game, hints, labels=labels, words=image_words("es"))
    drawn = [lb.text for lb in log if lb.image is img]
    assert not [d for d in drawn if "…" in d], drawn
    for label in labels:
        assert any(d.startswith(label.split(" ")[0]) for d in drawn), (label, drawn)  # "+10:" opens a line


def test_a_zoomed_table_names_the_zoom_in_words(game: Game) -> None:
    for zoom, lang, word in (("table", "es", "ampliación: toda la mesa"), ("last", "en", "the last card placed")):
        with record_labels() as log:
            img = render_table(game, names=["Alice", "Bob", "Cara"], zoom=zoom, words=image_words(lang))
        drawn = " ".join(lb.text for lb in log if lb.image is img)
        assert word in drawn, drawn
        assert f": {zoom}" not in drawn, drawn
