"""Result cards and the leaderboard image: structure, text twins, goldens (UPDATE_GOLDEN=1 regenerates)."""

from __future__ import annotations

from engine.conex import Game
from engine.constructo import Match, Round
from render.common import THEMES, hex_rgb
from render.constructo import PLAYER_FILL
from render.results import (
    conex_ranking,
    constructo_result_text,
    leaderboard_text,
    render_constructo_result,
    render_leaderboard,
)
from tests.render.golden_util import assert_matches_golden

NAMES = ("Alice", "Bob")
ROWS = [(1, "Alice", 27.31, 5, 2, 0), (2, "Bob the Builder", 25.0, 3, 3, 1), (3, "Céline", 20.49, 1, 4, 0)]


def _finished_match() -> Match:
    # round 1: player 1 ends with a tower on 5 (M2: scores come from towers, S2)
    r1 = Round.from_record("rombo: S1 L2 M9 2-1 L5 M4 S6 4-5")
    m = Match(0, [r1])
    while not m.current_round.is_over:
        m.play(m.current_round.legal_moves()[0])
    m.choose_layout(1, "flor")
    while not m.is_over:
        m.play(m.current_round.legal_moves()[0])
    return m


def test_constructo_result_card_names_winner_and_rounds() -> None:
    m = _finished_match()
    img = render_constructo_result(m, names=NAMES)
    assert img.mode == "RGB" and img.width == 800
    t = m.totals()
    text = constructo_result_text(m, names=NAMES)
    assert f"Total: Alice {t[0]} – {t[1]} Bob" in text
    assert "Round 1 (rombo)" in text and "Round 2 (flor)" in text
    if m.winner is None:
        assert "Draw" in text
        assert img.getpixel((3, 100)) == hex_rgb(THEMES["dark"].muted)
    else:
        assert f"{NAMES[m.winner]} wins" in text
        assert img.getpixel((3, 100)) == hex_rgb(PLAYER_FILL[m.winner])  # winner's colour stripe


def test_constructo_resignation_card() -> None:
    m = Match.new("rombo")
    m.play("L5")
    m.resign(0)
    text = constructo_result_text(m, names=NAMES)
    assert text.startswith("Constructo — match result: Alice resigned — Bob wins")
    assert img_ok(render_constructo_result(m, names=NAMES, theme="light"))


def img_ok(img: object) -> bool:
    return getattr(img, "mode", None) == "RGB" and img.width == 800  # type: ignore[attr-defined]


def _scored(scores: list[int]) -> Game:
    g = Game.new(players=len(scores), seed=1)
    g.scores = list(scores)
    return g


def test_conex_ranking_shares_places_on_ties() -> None:
    assert conex_ranking(_scored([5, 9, 5])) == [(1, 1, 9), (2, 0, 5), (2, 2, 5)]
    assert conex_ranking(_scored([3, 3])) == [(1, 0, 3), (1, 1, 3)]
    assert conex_ranking(_scored([1, 2, 3, 0])) == [(1, 2, 3), (2, 1, 2), (3, 0, 1), (4, 3, 0)]


def test_leaderboard_image_and_text() -> None:
    img = render_leaderboard(ROWS, title="Constructo — Test guild")
    assert img_ok(img)
    text = leaderboard_text(ROWS, title="Constructo — Test guild")
    assert text.splitlines()[1] == "1. Alice — rating 27.3 (W 5 / L 2 / D 0)"
    assert "3. Céline — rating 20.5 (W 1 / L 4 / D 0)" in text
    assert "no rated games" in leaderboard_text([], title="X")
    empty = render_leaderboard([], title="X")
    assert img_ok(empty) and empty.height < img.height


def test_goldens() -> None:
    assert_matches_golden(render_leaderboard(ROWS, title="Constructo — Test guild"), "leaderboard")
    assert_matches_golden(render_constructo_result(_finished_match(), names=NAMES), "constructo_result")


def test_long_names_are_shrunk_then_cut_to_fit() -> None:
    from render.common import fit_text, text_size

    long = "Bartholomew the Magnificent Constructor of Towers"
    text, size = fit_text(long, 300, 26, bold=True)
    assert size == 16 and text.endswith("…") and text_size(text, size, True)[0] <= 300
    assert fit_text("Bob", 300, 26) == ("Bob", 26)
    img = render_leaderboard([(1, long * 2, 30.0, 1, 0, 0)], title=long * 3)
    assert img_ok(img)


def test_every_image_kind_has_a_light_variant() -> None:
    from engine.conex import Game
    from render.conex import render_hand, render_table
    from render.constructo import render_board
    from render.constructo_layouts import render_layouts_sheet

    g = Game.new(players=2, seed=5)
    m = _finished_match()
    light, dark = hex_rgb(THEMES["light"].bg), hex_rgb(THEMES["dark"].bg)
    images = {
        "board": (render_board(m, names=NAMES, theme="light"), render_board(m, names=NAMES)),
        "sheet": (render_layouts_sheet(theme="light"), render_layouts_sheet()),
        "table": (render_table(g, names=NAMES, theme="light"), render_table(g, names=NAMES)),
        "hand": (render_hand(g, 0, theme="light"), render_hand(g, 0)),
        "result": (render_constructo_result(m, names=NAMES, theme="light"), render_constructo_result(m, names=NAMES)),
        "leaderboard": (render_leaderboard(ROWS, theme="light"), render_leaderboard(ROWS)),
    }
    for kind, (lt, dk) in images.items():
        assert lt.getpixel((lt.width - 3, lt.height - 3)) == light, kind
        assert dk.getpixel((dk.width - 3, dk.height - 3)) == dark, kind
