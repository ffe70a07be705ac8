"""Phone legibility (issue 14): every text label of every image kind, once the image is scaled to 400 px wide
(how a phone shows it in the chat), has capitals at least MIN_CAP_PX_AT_400 (9 px) tall, and no label is cut
off at the edge of the picture it is drawn on. Crowded states included: a 52-card table, nine hints, a full
Constructo board on every layout, a 12-card hand, four seats with 32-character names.

Labels are read from the renderers' own record (render.text.record_labels): each label's font size and ink box.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

from engine.conex import Game
from engine.conex.sample import first_fit_game
from engine.constructo import LAYOUTS, Match, Round
from render.conex import render_hand, render_hints, render_table
from render.constructo import render_board
from render.constructo_layouts import render_layouts_sheet
from render.results import render_conex_result, render_constructo_result, render_leaderboard
from render.text import MIN_CAP_PX_AT_400, Label, cap_px_at_phone, min_font_px, record_labels

FIXTURE = Path(__file__).resolve().parent / "data" / "conex_52.json"
LONG = (
    "Maximiliano Alejandro Gutiérrez1",
    "Александра Владимировна Петрова!",
    "山田太郎" * 8,
    "🦄🦄 Unicorn Rainbow Sparkle 🌈✨ ok",
)


def full_game() -> Game:
    return Game.from_dict(json.loads(FIXTURE.read_text(encoding="utf-8")))


def played(n: int, seed: int = 11, players: int = 3) -> Game:
    """A real game after ``n`` placements, each the finder's first legal one."""
    return first_fit_game(n, players=players, seed=seed)


def big_hand() -> Game:
    """A fresh game whose seat 0 drew 9 more cards (12 in hand)."""
    d = Game.new(players=2, seed=8).to_dict()
    d["hands"][0] = list(d["hands"][0]) + list(d["draw_pile"][:9])
    d["draw_pile"] = list(d["draw_pile"][9:])
    return Game.from_dict(d)


def busy_round(layout: str, seed: int) -> Match:
    """A round on ``layout`` played at random until it ends (every tile busy, towers up to 3 bars)."""
    rng = random.Random(seed)
    rnd = Round(layout)
    while not rnd.is_over:
        rnd.play(rng.choice(rnd.legal_moves()))
    return Match(0, [rnd])


def hints_for(g: Game, n: int = 9) -> list:
    p = g.current_player
    out = []
    for c in g.hand(p):
        out += g.find_placements(p, c.id, limit=3)
    return out[:n]


def finished_match() -> Match:
    m = Match(0, [Round.from_record("rombo: S1 L2 M9 2-1 L5 M4 S6 4-5")])
    while not m.current_round.is_over:
        m.play(m.current_round.legal_moves()[0])
    m.choose_layout(1, "flor")
    while not m.is_over:
        m.play(m.current_round.legal_moves()[0])
    return m


def _cases() -> dict[str, Callable[[], Image.Image]]:
    small = played(6)
    mid4 = played(14, seed=5, players=4)
    full = full_game()
    removed = (full.table[20].card.id, full.table[20].pose)
    cases: dict[str, Callable[[], Image.Image]] = {
        "table empty": lambda: render_table(Game.new(players=2, seed=3), names=("Alice", "Bob")),
        "table 6 cards": lambda: render_table(small, names=("Alice", "Bob", "Cara")),
        "table 14 cards 4 long names": lambda: render_table(mid4, names=LONG),
        "table 52 cards": lambda: render_table(full, names=LONG[:3]),
        "table 52 zoom last": lambda: render_table(full, names=("Alice", "Bob", "Cara"), zoom="last"),
        "table 52 zoom board": lambda: render_table(full, names=("Alice", "Bob", "Cara"), zoom="board"),
        "table 52 removed": lambda: render_table(full, names=("Alice", "Bob", "Cara"), removed=removed, highlight=None),
        "table ghosts": lambda: render_table(small, names=("Alice", "Bob", "Cara"), ghosts=hints_for(small)),
        "table light": lambda: render_table(small, names=("Alice", "Bob", "Cara"), theme="light", zoom="table"),
        "hand 3": lambda: render_hand(small, small.current_player, legal_counts={}),
        "hand 12": lambda: render_hand(big_hand(), 0, legal_counts={}),
        "hand empty": lambda: render_hand(full, 0),
        "hints 9": lambda: render_hints(small, hints_for(small)),
        "conex result": lambda: render_conex_result(full, names=LONG[:3]),
        "constructo result": lambda: render_constructo_result(finished_match(), names=LONG[:2]),
        "leaderboard": lambda: render_leaderboard(
            [(i + 1, LONG[i % 4], 1500 - 7 * i, 100 + i, 99, 3) for i in range(10)], title="CONEX · " + LONG[0]
        ),
        "leaderboard empty": lambda: render_leaderboard([], title="Constructo leaderboard"),
        "layouts sheet": render_layouts_sheet,
        "board empty": lambda: render_board(Match.new("rombo"), names=("Alice", "AI (easy)")),
        "board long names light": lambda: render_board(busy_round("flor", 3), names=LONG[:2], theme="light"),
        "board finished match": lambda: render_board(finished_match(), names=("Alice", "Bob")),
    }
    for name in sorted(LAYOUTS):
        cases[f"board full {name}"] = lambda name=name: render_board(busy_round(name, 1), names=("Alice", "Bob"))
    return cases


CASES = _cases()


def labels_of(fn: Callable[[], Image.Image]) -> tuple[Image.Image, list[Label], list[Label]]:
    """The image, its own labels, and every label drawn while making it (on any part)."""
    with record_labels() as log:
        img = fn()
    return img, [lb for lb in log if lb.image is img], list(log)


@pytest.mark.parametrize("kind", sorted(CASES))
def test_every_label_has_9px_capitals_at_400px_wide(kind: str) -> None:
    img, labels, _ = labels_of(CASES[kind])
    assert labels, f"{kind}: no label recorded"
    small = [(lb.text, lb.size) for lb in labels if cap_px_at_phone(lb.size, img.width) < MIN_CAP_PX_AT_400 - 1e-9]
    assert not small, f"{kind} ({img.width} px wide): labels below {min_font_px(img.width)} px: {small[:8]}"


@pytest.mark.parametrize("kind", sorted(CASES))
def test_no_label_is_cut_off_at_the_edge_of_its_picture(kind: str) -> None:
    _, _, every = labels_of(CASES[kind])
    cut = []
    for lb in every:
        if lb.image is None:
            continue
        x0, y0, x1, y1 = lb.box
        if x0 < -1 or y0 < -1 or x1 > lb.image.width + 1 or y1 > lb.image.height + 1:
            cut.append((lb.text, tuple(round(v) for v in lb.box), lb.image.size))
    assert not cut, f"{kind}: labels past the edge: {cut[:6]}"


def test_the_rule_is_9px_capitals_and_scales_with_the_width() -> None:
    assert MIN_CAP_PX_AT_400 == 9.0
    assert min_font_px(400) == 13 and min_font_px(800) == 25 and min_font_px(1200) == 38
    assert cap_px_at_phone(min_font_px(1116), 1116) >= 9.0 > cap_px_at_phone(min_font_px(1116) - 1, 1116)


def test_crowded_table_still_numbers_every_visible_card() -> None:
    g = full_game()
    _img, labels, _ = labels_of(lambda: render_table(g, names=("Alice", "Bob", "Cara")))
    from render.conex_view import label_point, visible_parts

    texts = {lb.text for lb in labels}
    vis = visible_parts(g)
    for tc in g.table:
        if label_point(vis[tc.card.id][0]) is not None:  # some of it is still visible
            assert str(tc.card.id) in texts or f"{tc.card.id}{tc.card.color}" in texts, tc.card.id
    assert "Some corner values: zoom in (/conex board zoom:<card>)" in texts  # the crowded rest left to the zoom
    assert sum(1 for lb in labels if lb.text in "12345") >= 20  # but many corners show their value coin
    _, zoomed, _ = labels_of(lambda: render_table(g, names=("Alice", "Bob", "Cara"), zoom="last"))
    assert sum(1 for lb in zoomed if len(lb.text) == 2 and lb.text[0] in "YRTP" and lb.text[1].isdigit()) >= 10
