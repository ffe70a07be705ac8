"""CONEX images: the table (full, zoomed, ghosts), the hand, the result card; key pixels are computed from the
engine's own geometry (TableCard.rect / corner_shapes, BOARD_SQUARES, posed_card). Goldens: tests/render/golden/
(regenerate with ``UPDATE_GOLDEN=1``, see golden_util.py). The 52-card table is a stored real game
(tests/render/data/conex_52.json, built by make_conex_fixture.py) loaded with ``Game.from_dict``.
"""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from pathlib import Path

import pytest
import shapely
from PIL import Image
from shapely.geometry import Point

from engine.conex import BOARD_SQUARES, Game, posed_card
from engine.conex.deck import CARD_H_MM, CARD_W_MM
from engine.conex.geometry import centre_for_corner
from engine.conex.sample import first_fit_game
from render import to_png
from render.common import hex_rgb
from render.conex import (
    COLOUR_FILL,
    ghost_badges,
    placed_corner_cm,
    render_hand,
    render_table,
    table_layout,
    table_text,
    table_view,
)
from render.conex_hand import HAND_SCALE, hand_slots, hand_text
from render.conex_view import PLOT_LONG_PX
from render.results import conex_result_text, render_conex_result
from render.text import record_labels
from tests.render.golden_util import assert_matches_golden, mean_abs_diff

NAMES = ("Alice", "Bob", "Cara")
FIXTURE = Path(__file__).resolve().parent / "data" / "conex_52.json"


@pytest.fixture(scope="module")
def full_game() -> Game:
    return Game.from_dict(json.loads(FIXTURE.read_text(encoding="utf-8")))


@pytest.fixture(scope="module")
def small_game() -> Game:
    """A real game with 6 cards placed by the engine's finder (first legal placement each turn)."""
    return first_fit_game(6)


def _origin(game: Game, zoom: object = None, ghosts: tuple = (), names: tuple = NAMES) -> tuple[int, int]:
    """Where render_table puts its plot's top-left in the image (the header height depends on the state)."""
    return table_layout(game, names=names, zoom=zoom, ghosts=ghosts).origin  # type: ignore[arg-type]


def _dominant(
    img: Image.Image,
    game: Game,
    geom: shapely.Geometry,
    zoom: object = None,
    inset_mm: float = 1.0,
    step_mm: float = 1.5,
    names: tuple = NAMES,
) -> tuple[int, int, int]:
    """Most common pixel colour over a grid of sample points inside ``geom`` (table mm) shrunk by ``inset_mm``."""
    view = table_view(game, zoom)
    PLOT_ORIGIN = _origin(game, zoom, names=names)
    inner = geom.buffer(-inset_mm)
    assert not inner.is_empty
    x0, y0, x1, y1 = inner.bounds
    counts: Counter[tuple[int, int, int]] = Counter()
    y = y0
    while y <= y1:
        x = x0
        while x <= x1:
            if inner.contains(Point(x, y)):
                px, py = view.px(x, y)
                if 0 <= px < view.width and 0 <= py < view.height:
                    counts[img.getpixel((round(px + PLOT_ORIGIN[0]), round(py + PLOT_ORIGIN[1])))[:3]] += 1
            x += step_mm
        y += step_mm
    assert counts, "no sample points"
    return counts.most_common(1)[0][0]


def test_empty_table_shows_the_four_board_squares_in_their_colours() -> None:
    g = Game.new(players=2, seed=3)
    img = render_table(g, names=NAMES[:2])
    assert img.mode == "RGB" and max(img.size) >= 1024
    for colour, square in BOARD_SQUARES.items():  # G3: Y top-left, R top-right, T bottom-right, P bottom-left
        assert _dominant(img, g, square, step_mm=3.0, names=NAMES[:2]) == hex_rgb(COLOUR_FILL[colour])
    text = table_text(g, names=NAMES[:2])
    assert "No cards on the table yet" in text and "Alice to play" in text


def _near_tips(shape: shapely.Polygon) -> list[tuple[float, float]]:
    """Two points of a CONEX corner triangle near its acute tips, clear of the value label at its incentre.

    The triangle's vertices keep ``Corner.vertices``' order: right-angle vertex, end of the x leg, end of the y leg.
    """
    (ax, ay), (bx, by), (cx, cy) = list(shape.exterior.coords)[:3]
    return [
        (ax + 0.8 * (bx - ax) + 0.08 * (cx - ax), ay + 0.8 * (by - ay) + 0.08 * (cy - ay)),
        (ax + 0.8 * (cx - ax) + 0.08 * (bx - ax), ay + 0.8 * (cy - ay) + 0.08 * (by - ay)),
    ]


def test_every_card_and_visible_corner_is_drawn_at_its_pose(small_game: Game) -> None:
    g = small_game
    with record_labels() as log:
        img = render_table(g, names=NAMES, zoom="board")
    boxes = [lb.box for lb in log if lb.image is img]
    view = table_view(g, "board")
    PLOT_ORIGIN = _origin(g, "board")
    checked = 0
    later_union = shapely.Polygon()
    for tc in reversed(g.table):  # G6: only what no later card covers is visible
        main = tc.rect.difference(shapely.union_all(list(tc.corner_shapes))).difference(later_union)
        x0, y0, x1, y1 = main.bounds
        in_view = (
            view.x0 <= x0
            and x1 <= view.x0 + view.width / view.scale
            and view.y0 <= y0
            and (y1 <= view.y0 + view.height / view.scale)
        )
        if in_view and main.buffer(-3).area > 600:  # big enough that the card's number label covers a minority
            assert _dominant(img, g, main, zoom="board", inset_mm=3) == hex_rgb(COLOUR_FILL[tc.card.color])
            checked += 1
        for corner, shape in zip(tc.card.corners, tc.corner_shapes, strict=True):
            if tc is g.table[-1]:
                break  # the last card's white outline covers its corners' edges (tested on its own)
            visible = shape.difference(later_union).buffer(-0.5)
            for x, y in _near_tips(shape):
                if not visible.contains(Point(x, y)):
                    continue
                px, py = view.px(x, y)
                if not (2 <= px < view.width - 2 and 2 <= py < view.height - 2):
                    continue  # outside the zoomed window
                ix, iy = round(px + PLOT_ORIGIN[0]), round(py + PLOT_ORIGIN[1])
                if any(b[0] - 3 <= ix <= b[2] + 3 and b[1] - 3 <= iy <= b[3] + 3 for b in boxes):
                    continue  # under a label (drawn after every card)
                around = Counter(img.getpixel((ix + dx, iy + dy)) for dx in (-1, 0, 1) for dy in (-1, 0, 1))
                assert around.most_common(1)[0][0] == hex_rgb(COLOUR_FILL[corner.color]), (
                    f"corner {corner.index} of card {tc.card.id}"
                )
                checked += 1
        later_union = later_union.union(tc.rect)
    assert checked >= 6


def test_last_placement_is_outlined_in_white(small_game: Game) -> None:
    g = small_game
    img = render_table(g, names=NAMES)
    view = table_view(g)
    PLOT_ORIGIN = _origin(g)
    last = g.table[-1]
    coords = list(last.rect.exterior.coords)
    for a, b in itertools.pairwise(coords):
        mx, my = view.px((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        x, y = round(mx + PLOT_ORIGIN[0]), round(my + PLOT_ORIGIN[1])
        around = {img.getpixel((x + dx, y + dy)) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
        assert (255, 255, 255) in around


def test_ghosts_are_drawn_translucent_and_numbered(small_game: Game) -> None:
    g = small_game
    p = g.current_player
    card = g.hand(p)[0]
    places = g.find_placements(p, card.id, limit=2)
    assert places
    plain = render_table(g, names=NAMES, zoom="table")  # the whole-table view does not move with ghosts
    ghost = render_table(g, names=NAMES, zoom="table", ghosts=places[:1])  # one ghost: no other badge covers it
    view = table_view(g, "table")
    PLOT_ORIGIN = _origin(g, "table", tuple(places[:1]))
    assert PLOT_ORIGIN == _origin(g, "table")  # ghosts do not move the plot
    corner = card.corner(places[0].corner)
    cx, cy = centre_for_corner(corner, places[0].x * 10, places[0].y * 10, places[0].rotation or 0.0)
    rect = posed_card(card, cx, cy, places[0].rotation or 0.0).rect
    x0, y0, x1, y1 = rect.bounds
    p0, p1 = view.px(x0, y0), view.px(x1, y1)
    box = (
        round(p0[0] + PLOT_ORIGIN[0]),
        round(p0[1] + PLOT_ORIGIN[1]),
        round(p1[0] + PLOT_ORIGIN[0]),
        round(p1[1] + PLOT_ORIGIN[1]),
    )
    assert mean_abs_diff(plain.crop(box), ghost.crop(box)) > 10  # the ghost changes its area
    bd = ghost_badges(g, view, places[:1], min_r=table_layout(g, names=NAMES, zoom="table").fs / 1.2)[0]
    badge = ghost.getpixel((round(bd.x + PLOT_ORIGIN[0] + 0.7 * bd.r), round(bd.y + PLOT_ORIGIN[1])))
    assert badge == (255, 255, 255)  # the white number badge "1" (on its ghost, or beside it with a leader)


def test_default_view_fits_the_region_in_play_early_in_a_game(small_game: Game) -> None:
    g = small_game
    p = g.current_player
    places = g.find_placements(p, g.hand(p)[0].id, limit=3)
    for ghosts in ((), places):
        view = table_view(g, None, ghosts)
        whole = table_view(g, "table")
        assert view.scale > whole.scale * 1.5  # zoomed in on the region in play, not the whole table
        assert max(view.width, view.height) == PLOT_LONG_PX
        x1, y1 = view.x0 + view.width / view.scale, view.y0 + view.height / view.scale
        assert x1 - view.x0 >= 400 and y1 - view.y0 >= 290  # never smaller than about 40 x 30 cm
        assert abs(view.width / view.height - whole.width / whole.height) < 0.01  # the table's aspect ratio
        rects = [tc.rect for tc in g.table] + [
            posed_card(
                c, *centre_for_corner(c.corner(pl.corner), pl.x * 10, pl.y * 10, pl.rotation or 0.0), pl.rotation or 0.0
            ).rect
            for pl in ghosts
            for c in [next(h for h in g.hand(p) if h.id == pl.card)]
        ]
        for rect in rects:  # every table card and ghost inside the view, with some margin
            bx0, by0, bx1, by1 = rect.bounds
            assert view.x0 + 20 <= bx0 and bx1 <= x1 - 20 and view.y0 + 20 <= by0 and by1 <= y1 - 20
        area = shapely.union_all([tc.rect for tc in g.table]).area * view.scale**2
        assert area / (view.width * view.height) > 0.10  # the cards are a real part of the picture
    assert max(render_table(g, names=NAMES).size) >= 1024


def test_default_view_of_a_full_table_is_the_whole_table(full_game: Game) -> None:
    assert table_view(full_game) == table_view(full_game, "table")


def test_ghost_badges_are_all_visible_at_distinct_non_overlapping_spots(small_game: Game) -> None:
    g = small_game
    p = g.current_player
    card = max(g.hand(p), key=lambda c: len(g.find_placements(p, c.id, limit=9)))
    places = g.find_placements(p, card.id, limit=9)  # one card's placements: heavily overlapping ghosts
    assert len(places) >= 4
    for zoom in (None, "board"):
        view = table_view(g, zoom, places)
        img = render_table(g, names=NAMES, zoom=zoom, ghosts=places)
        lay = table_layout(g, names=NAMES, zoom=zoom, ghosts=places)
        PLOT_ORIGIN = lay.origin
        badges = ghost_badges(g, view, places, min_r=lay.fs / 1.2)
        assert [b.number for b in badges] == list(range(1, len(places) + 1))
        for a, b in itertools.combinations(badges, 2):
            assert math.dist((a.x, a.y), (b.x, b.y)) >= a.r + b.r, (a, b)
        ghosts = []
        for place in places:
            cx, cy = centre_for_corner(card.corner(place.corner), place.x * 10, place.y * 10, place.rotation or 0.0)
            ghosts.append(posed_card(card, cx, cy, place.rotation or 0.0).rect)
        for bd in badges:
            assert bd.r <= bd.x <= view.width - bd.r and bd.r <= bd.y <= view.height - bd.r
            mx, my = bd.x / view.scale + view.x0, bd.y / view.scale + view.y0
            if bd.leader_to is None:  # on its own ghost, off every other one
                assert ghosts[bd.number - 1].contains(Point(mx, my))
                assert not any(o.contains(Point(mx, my)) for k, o in enumerate(ghosts) if k != bd.number - 1)
            # drawn last: the badge's white disc is on top of everything
            assert img.getpixel((round(bd.x - 0.75 * bd.r + PLOT_ORIGIN[0]), round(bd.y + PLOT_ORIGIN[1]))) == (
                255,
                255,
                255,
            )


def test_zoomed_preview_widens_to_hold_every_ghost(small_game: Game) -> None:
    g = small_game
    p = g.current_player
    places = g.find_placements(p, g.hand(p)[0].id, limit=3)
    view = table_view(g, "last", places)
    x1, y1 = view.x0 + view.width / view.scale, view.y0 + view.height / view.scale
    for place in places:
        card = g.hand(p)[0]
        corner = card.corner(place.corner)
        cx, cy = centre_for_corner(corner, place.x * 10, place.y * 10, place.rotation or 0.0)
        bx0, by0, bx1, by1 = posed_card(card, cx, cy, place.rotation or 0.0).rect.bounds
        assert view.x0 <= bx0 and bx1 <= x1 and view.y0 <= by0 and by1 <= y1
    assert max(view.width, view.height) == PLOT_LONG_PX


def test_zoom_on_a_card_and_bad_zoom(small_game: Game) -> None:
    g = small_game
    cid = g.table[0].card.id
    img = render_table(g, names=NAMES, zoom=cid)
    view = table_view(g, cid)
    assert abs(view.x0 + view.width / view.scale / 2 - g.table[0].pose[0]) < 1.0  # centred on the card
    assert max(img.size) >= 1024
    with pytest.raises(ValueError, match="zoom"):
        render_table(g, names=NAMES, zoom=999)


def test_full_52_card_table_renders_small_and_text_lists_every_card(full_game: Game) -> None:
    g = full_game
    assert len(g.table) == 52
    img = render_table(g, names=NAMES)
    png = to_png(img)
    assert len(png) < 400_000
    text = table_text(g, names=NAMES)
    assert len(text) < 2000
    for tc in g.table:
        assert f"#{tc.card.id}{tc.card.color}" in text
    assert "game over — Alice wins" in text
    assert render_table(g, names=NAMES, theme="light").getpixel((2, 2)) == hex_rgb("#F2F3F5")


def test_table_text_full_form_gives_corners_and_free_cards(small_game: Game) -> None:
    text = table_text(small_game, names=NAMES)
    for tc in small_game.table:
        assert f"#{tc.card.id}{tc.card.color}" in text
    assert "corners" in text and "free" in text
    assert f"Last: #{small_game.table[-1].card.id} by" in text


def test_hand_shows_each_card_upright_lettered_with_legal_counts(small_game: Game) -> None:
    g = small_game
    p = g.current_player
    counts = g.legal_counts(p)
    img = render_hand(g, p, legal_counts=counts)
    assert img.mode == "RGB" and img.width == 800
    hand = g.hand(p)
    for (x0, y0), card in zip(hand_slots(len(hand)), hand, strict=True):
        # the card's main area: a band between the corners, right of centre (off the labels)
        px = img.getpixel((round(x0 + CARD_W_MM * HAND_SCALE * 0.85), round(y0 + CARD_H_MM * HAND_SCALE * 0.5)))
        assert px == hex_rgb(COLOUR_FILL[card.color])
    text = hand_text(g, p, legal_counts=counts)
    for i, card in enumerate(hand):
        assert text.splitlines()[i + 1].startswith(f"{'ABCDE'[i]}: #{card.id} ")
        shown = f"{counts[card.id]}+ legal" if counts[card.id] >= 9 else f"{counts[card.id]} legal"  # capped at 9
        assert (shown if counts[card.id] else "no legal spot") in text.splitlines()[i + 1]
    assert len(text) < 2000


def test_conex_result_card(full_game: Game) -> None:
    img = render_conex_result(full_game, names=NAMES)
    assert img.width == 800
    text = conex_result_text(full_game, names=NAMES)
    assert text.splitlines()[1] == "1. Alice — 50 points (winner)"
    assert "2. Bob — 34 points" in text and "2. Cara — 34 points" in text  # ties share a place (E3)


def test_goldens(full_game: Game) -> None:
    assert_matches_golden(render_table(full_game, names=NAMES), "conex_table_52")
    assert_matches_golden(render_table(full_game, names=NAMES, zoom="last"), "conex_table_52_zoom_last")
    fresh = Game.new(players=3, seed=11)  # the dealt hand depends only on the seed and the deck (not the finder)
    assert_matches_golden(render_hand(fresh, 0, legal_counts={c.id: 3 for c in fresh.hand(0)}), "conex_hand")
    assert_matches_golden(render_conex_result(full_game, names=NAMES), "conex_result")
    # hints on fixed poses (the renderer does not judge legality; the finder may change)
    from engine.conex import Place
    from render.conex import render_hints

    hand = fresh.hand(0)
    hints = [
        Place(0, hand[0].id, 1, 8.0, -6.0, 30.0),
        Place(0, hand[1].id, 1, -7.5, 7.0, 300.0),
        Place(0, hand[2].id, 2, 0.0, 0.0, 0.0),
    ]
    assert_matches_golden(render_hints(fresh, hints, marks=["A", "B", "C"]), "conex_hints")
    # after a lightning: the removed card dashed, no highlight
    d = full_game.to_dict()
    gone = d["table"][30]
    d["table"] = [t for t in d["table"] if t is not gone]
    d["draw_pile"] = [*d["draw_pile"], gone["card"]]
    d["end_reason"] = d["outcome"] = None
    d["current_player"] = 1
    after = Game.from_dict(d)
    pose = next(tc.pose for tc in full_game.table if tc.card.id == gone["card"])
    assert_matches_golden(
        render_table(after, names=NAMES, removed=(gone["card"], pose), highlight=None), "conex_table_lightning"
    )


def test_missing_names_fall_back_to_seat_labels(small_game: Game) -> None:
    text = table_text(small_game, names=("Alice",))
    assert "Alice" in text and "P2" in text and "P3" in text
    assert max(render_table(small_game, names=()).size) >= 1024


def test_table_text_lists_ghosts(small_game: Game) -> None:
    p = small_game.current_player
    places = small_game.find_placements(p, small_game.hand(p)[0].id, limit=2)
    text = table_text(small_game, names=NAMES, ghosts=places)
    for i, place in enumerate(places, start=1):
        assert f"Ghost {i}: {place}" in text


def test_pending_discards_are_announced(full_game: Game) -> None:
    d = full_game.to_dict()
    d["hands"][1] = [d["table"][-1]["card"]]
    d["table"] = d["table"][:-1]
    d["end_reason"] = d["outcome"] = None
    d["current_player"] = 0
    d["pending_discards"] = [1]
    g = Game.from_dict(d)
    assert "must discard: Bob" in table_text(g, names=NAMES)


def test_ghost_with_a_missing_corner_is_refused(small_game: Game) -> None:
    from engine.conex import Place

    card = next(c for c in small_game.hand(small_game.current_player) if len(c.corners) == 2)
    with pytest.raises(ValueError, match="corner 3"):
        render_table(small_game, names=NAMES, ghosts=[Place(small_game.current_player, card.id, 3, 0.0, 0.0, 0.0)])


def test_zoom_near_the_edge_slides_over_the_table(full_game: Game) -> None:
    view = table_view(full_game, "last")  # card #4 lies near the bottom edge of the 100 x 70 cm table
    x1, y1 = view.x0 + view.width / view.scale, view.y0 + view.height / view.scale
    assert y1 <= 350 + 30 + 1e-6 and view.y0 >= -350 - 30 - 1e-6
    bx0, by0, bx1, by1 = full_game.table[-1].rect.bounds
    assert view.x0 <= bx0 and bx1 <= x1 and view.y0 <= by0 and by1 <= y1


def test_table_text_tiers_always_fit(full_game: Game) -> None:
    medium = table_text(full_game, names=NAMES)
    assert "visible corners" in medium and len(medium) <= 1900
    last = full_game.table[-1]
    x, y = placed_corner_cm(last)  # the placed corner's position, as /conex place takes it
    assert f"#{last.card.id}{last.card.color} c{last.corner} {x:.0f},{y:.0f} r0" in medium
    compact = table_text(full_game, names=NAMES, limit=1000)
    assert len(compact) <= 1000 and "#" in compact
    ids_shown = sum(f"#{tc.card.id}{tc.card.color}" in compact for tc in full_game.table)
    assert ids_shown == 52 or "more)" in compact
