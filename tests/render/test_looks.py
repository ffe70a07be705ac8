"""The theme and the palette reach every picture the bot draws: Constructo board, layouts sheet, result cards,
leaderboard, analysis graph and turning board, CONEX table, hand, hint sheet, and both games' replays (GIF and
still). Light pictures are mostly light and dark ones dark (their most common colour); the colour-blind palette's
seat colour is drawn where the standard one was, and CONEX pictures change (corner patterns)."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image, ImageChops

from engine.conex import Game
from engine.constructo import Match, Round
from engine.record import export_record
from render.common import THEMES, hex_rgb, luminance
from render.conex import render_hand, render_hints, render_table
from render.conex_replay import REPLAY as CONEX_REPLAY
from render.constructo import render_board
from render.constructo_analysis import render_turning_board, render_value_graph
from render.constructo_layouts import render_layouts_sheet
from render.constructo_replay import REPLAY as CONSTRUCTO_REPLAY
from render.palette import COLOUR_BLIND, STANDARD, Palette
from render.replay import render_replay, replay_frame
from render.results import render_conex_result, render_constructo_result, render_leaderboard
from tests.engine.record_games import NAMES, conex_game, constructo_match
from tests.render.test_constructo_analysis import stored

RECORD = "rombo: S1 L2 M9 2-1 L5 M4 S6 4-5 L3 M7"


def _conex() -> Game:
    game = Game.new(players=3, seed=11)
    for _ in range(6):  # a few cards on the table: the first legal placement, else a draw
        seat = game.current_player
        found = [p for c in game.hand(seat) for p in game.find_placements(seat, c.id, limit=1)]
        game.play(found[0]) if found else game.play(game.legal_actions()[0])
    return game


def _record(state: Any) -> dict[str, Any]:
    return export_record(state, names=NAMES[: state.num_players])


def _gif_last_frame(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    im.seek(im.n_frames - 1)
    return im.convert("RGB")


Draw = Callable[[str, Palette], Image.Image]


def pictures() -> dict[str, Draw]:
    """Every picture, drawn for a theme name and a palette."""
    board = Match(0, [Round.from_record(RECORD)])
    done = constructo_match(3)
    game = _conex()
    seat = game.current_player
    hints = [p for c in game.hand(seat) for p in game.find_placements(seat, c.id, limit=2)][:3]
    over = conex_game(3, forfeit_at=None)
    rows = [(1, "Alice", 27.3, 5, 2, 0), (2, "Bob", 25.0, 3, 3, 1)]
    return {
        "constructo board": lambda t, p: render_board(board, names=("A", "B"), theme=t, palette=p),
        "layouts sheet": lambda t, p: render_layouts_sheet(theme=t, palette=p),
        "constructo result": lambda t, p: render_constructo_result(done, names=("A", "B"), theme=t, palette=p),
        "leaderboard": lambda t, p: render_leaderboard(rows, theme=t, palette=p),
        "analysis graph": lambda t, p: render_value_graph([stored()], names=("A", "B"), theme=t, palette=p),
        "turning board": lambda t, p: render_turning_board(board, 0, 1, names=("A", "B"), theme=t, palette=p),
        "conex table": lambda t, p: render_table(game, names=("A", "B", "C"), theme=t, palette=p),
        "conex hand": lambda t, p: render_hand(game, seat, theme=t, palette=p),
        "conex hints": lambda t, p: render_hints(game, hints, theme=t, palette=p),
        "conex result": lambda t, p: render_conex_result(over, names=("A", "B", "C"), theme=t, palette=p),
        "constructo replay": lambda t, p: _gif_last_frame(
            render_replay(_record(done), CONSTRUCTO_REPLAY, theme=t, palette=p, max_frames=3)
        ),
        "conex replay still": lambda t, p: replay_frame(_record(over), CONEX_REPLAY, 4, theme=t, palette=p),
    }


PICTURES = pictures()
SEATED = ("constructo board", "constructo result", "analysis graph", "turning board")
"""Pictures that draw the seats' colours exactly (PNG: no colour table of their own)."""
PATTERNED = ("conex table", "conex hand", "conex hints", "conex replay still")


def most_common(img: Image.Image) -> tuple[int, int, int]:
    colours = img.convert("RGB").getcolors(img.width * img.height) or []
    return max(colours)[1]


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("name", PICTURES)
def test_the_theme_reaches_the_picture(name: str, theme: str) -> None:
    img = PICTURES[name](theme, STANDARD)
    lum = luminance(most_common(img))
    if theme == "light":
        assert lum > 0.5, f"{name}: mostly {most_common(img)} on the light theme"
    else:
        assert lum < 0.1, f"{name}: mostly {most_common(img)} on the dark theme"


def _has(img: Image.Image, colour: str, at_least: int = 30) -> bool:
    rgb = hex_rgb(colour)
    return sum(n for n, c in img.convert("RGB").getcolors(img.width * img.height) or [] if c == rgb) >= at_least


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("name", SEATED)
def test_the_palette_s_seat_colours_are_the_ones_drawn(name: str, theme: str) -> None:
    standard, blind = (PICTURES[name](theme, p) for p in (STANDARD, COLOUR_BLIND))
    for seat in (0, 1):
        ours, other = COLOUR_BLIND.seat_fill(theme)[seat], STANDARD.seat_fill(theme)[seat]
        if ours == other:
            continue
        assert _has(blind, ours) and not _has(blind, other, 1), f"{name}: seat {seat} not in the colour-blind colour"
        assert _has(standard, other), f"{name}: seat {seat} not in the standard colour"  # (dark yellow = highlight)


@pytest.mark.parametrize("name", PATTERNED)
def test_the_colour_blind_palette_patterns_the_conex_pictures(name: str) -> None:
    standard, blind = (PICTURES[name]("dark", p) for p in (STANDARD, COLOUR_BLIND))
    assert standard.size == blind.size
    assert ImageChops.difference(standard, blind).getbbox() is not None, f"{name}: no corner patterns drawn"
