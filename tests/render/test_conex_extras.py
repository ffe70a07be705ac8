"""CONEX images, issue 14: the card a lightning removed and an explicit highlight, one unmistakable tile per
hint, a small image for an empty hand and an empty leaderboard, display ratings as integers."""

from __future__ import annotations

import itertools

import pytest
import shapely
from PIL import Image, ImageChops

from engine.conex import Game, Place
from engine.conex.sample import first_fit_game
from render.common import hex_rgb
from render.conex import (
    hand_is_empty,
    hints_text,
    render_hand,
    render_hints,
    render_table,
    table_layout,
    table_text,
    table_view,
)
from render.conex_hints import hint_plot, hint_target, hint_tiles
from render.conex_ink import REMOVED_INK
from render.conex_view import ghost_pose
from render.results import leaderboard_text, render_leaderboard
from render.text import record_labels

NAMES = ("Alice", "Bob", "Cara")


@pytest.fixture(scope="module")
def game() -> Game:
    return first_fit_game(8)


def _without(game: Game, card_id: int) -> Game:
    """The game with a free table card taken off (what a lightning does, X1), as a stored state."""
    d = game.to_dict()
    d["table"] = [t for t in d["table"] if t["card"] != card_id]
    d["draw_pile"] = [*d["draw_pile"], card_id]
    return Game.from_dict(d)


def _labels(fn):  # type: ignore[no-untyped-def]
    with record_labels() as log:
        img = fn()
    return img, [lb.text for lb in log if lb.image is img]


def test_a_removed_card_is_outlined_in_red_dashes_and_the_stale_highlight_can_be_dropped(game: Game) -> None:
    free = [
        tc
        for tc in game.table
        if game.table[-1] is not tc
        and all(o.rect.intersection(tc.rect).area < 0.01 for o in game.table[game.table.index(tc) + 1 :])
    ]
    victim = free[-1]
    after = _without(game, victim.card.id)
    removed = (victim.card.id, victim.pose)
    img, texts = _labels(lambda: render_table(after, names=NAMES, removed=removed, highlight=None))
    lay = table_layout(after, names=NAMES, removed=removed, highlight=None)
    view = lay.view
    ox, oy = lay.origin
    reds = 0
    for a, b in itertools.pairwise(list(victim.rect.exterior.coords)):
        for t in (0.1, 0.3, 0.5, 0.7, 0.9):
            x, y = view.px(a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
            around = {img.getpixel((round(x + ox + dx), round(y + oy + dy))) for dx in (-2, 0, 2) for dy in (-2, 0, 2)}
            reds += hex_rgb(REMOVED_INK) in around
    assert reds >= 10  # dashes all round the old place
    assert f"✕ #{victim.card.id}" in texts and any(f"Lightning removed #{victim.card.id}" in t for t in texts)
    assert not any(t.startswith("Last:") for t in texts)  # highlight=None: no stale "last placement"
    # the previous last placement is no longer outlined in white
    last = after.table[-1]
    plain = render_table(after, names=NAMES, removed=removed, highlight=None)
    lit = render_table(after, names=NAMES, removed=removed, highlight=last.card.id)
    lay2 = table_layout(after, names=NAMES, removed=removed, highlight=last.card.id)
    assert lay2.origin[1] >= lay.origin[1]  # the "Last:" line takes room
    a, b = list(last.rect.exterior.coords)[:2]
    mx, my = view.px((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)

    def white(im: Image.Image, origin: tuple[int, int]) -> bool:
        return (255, 255, 255) in {
            im.getpixel((round(mx + origin[0] + dx), round(my + origin[1] + dy)))
            for dx in (-1, 0, 1)
            for dy in (-1, 0, 1)
        }

    assert white(lit, lay2.origin) and not white(plain, lay.origin)
    text = table_text(after, names=NAMES, removed=removed, highlight=None)
    assert f"Lightning: #{victim.card.id} was removed" in text and "Last:" not in text


def test_removed_card_must_exist(game: Game) -> None:
    with pytest.raises(ValueError, match="removed card"):
        render_table(game, names=NAMES, removed=(99, (0.0, 0.0, 0.0)))


def _hints(game: Game, n: int = 6) -> list[Place]:
    p = game.current_player
    out: list[Place] = []
    for c in game.hand(p):
        out += game.find_placements(p, c.id, limit=3)
    assert len(out) >= 4
    return out[:n]


def test_each_hint_tile_shows_only_its_own_ghost(game: Game) -> None:
    hints = _hints(game)
    img = render_hints(game, hints)
    tiles = hint_tiles(game, hints)
    assert [t.number for t in tiles] == list(range(1, len(hints) + 1))
    for tile, place in zip(tiles, hints, strict=True):
        shown = img.crop(tile.plot_box).convert("RGB")
        bare = hint_plot(game, None, tile.view)  # the same window without any ghost
        diff = ImageChops.difference(shown, bare).convert("L").point(lambda v: 255 if v > 24 else 0)
        card, (cx, cy, rot) = ghost_pose(game, place)
        from engine.conex.geometry import posed_card

        own = shapely.Polygon(tile.view.poly(posed_card(card, cx, cy, rot).rect)).buffer(5)
        changed = [(x, y) for y in range(0, diff.height, 2) for x in range(0, diff.width, 2) if diff.getpixel((x, y))]
        assert len(changed) > 200, tile.number  # its ghost is there
        inside = sum(own.contains(shapely.Point(x, y)) for x, y in changed)
        edge = 4  # the tile's coloured frame is drawn over the plot's border
        stray = [
            (x, y)
            for x, y in changed
            if not own.contains(shapely.Point(x, y)) and edge < x < diff.width - edge and edge < y < diff.height - edge
        ]
        assert not stray, (tile.number, stray[:5], inside)  # nothing but its own ghost


def test_hint_captions_give_number_card_corner_and_target(game: Game) -> None:
    hints = _hints(game, 4)
    _, texts = _labels(lambda: render_hints(game, hints))
    for i, place in enumerate(hints, start=1):
        target = hint_target(game, place)
        assert str(i) in texts
        assert any(t.startswith(f"#{place.card} corner {place.corner} → {target}") for t in texts), texts
    _, texts = _labels(lambda: render_hints(game, hints, labels=[f"B: card #{h.card}" for h in hints]))
    assert any(t == f"B: card #{hints[0].card}" for t in texts)
    text = hints_text(game, hints)
    assert text.splitlines()[0].startswith(f"1. #{hints[0].card} corner {hints[0].corner} → ")
    with pytest.raises(ValueError, match="labels"):
        render_hints(game, hints, labels=["just one"])


def test_no_hints_and_an_empty_hand_are_small_banners(game: Game) -> None:
    assert render_hints(game, []).height < 150
    d = game.to_dict()
    d["draw_pile"] = [*d["draw_pile"], *d["hands"][0]]
    d["hands"][0] = []
    empty = Game.from_dict(d)
    assert hand_is_empty(empty, 0) and not hand_is_empty(game, 0)
    img, texts = _labels(lambda: render_hand(empty, 0))
    assert img.height < 200 and "No cards in hand." in texts


def test_hand_letters_can_be_given_by_the_bot(game: Game) -> None:
    p = game.current_player
    hand = game.hand(p)
    letters = {c.id: ref for c, ref in zip(hand, ("C", "D", "F"), strict=False)}
    _, texts = _labels(lambda: render_hand(game, p, letters=letters))
    assert all(ref in texts for ref in letters.values())


def test_leaderboard_shows_display_ratings_as_integers_and_an_empty_one_is_small() -> None:
    rows = [(1, "Alice", 1512, 5, 2, 0), (2, "Bob", 1488, 3, 3, 1)]
    _img, texts = _labels(lambda: render_leaderboard(rows, title="CONEX"))
    assert "1512" in texts and "1488" in texts
    assert leaderboard_text(rows, title="CONEX").splitlines()[1] == "1. Alice — rating 1512 (W 5 / L 2 / D 0)"
    empty, texts = _labels(lambda: render_leaderboard([], title="CONEX", empty_note="No games yet."))
    assert empty.height < 160 and "No games yet." in texts


def test_zoom_table_and_hints_keep_the_plot_where_table_layout_says(game: Game) -> None:
    hints = _hints(game, 3)
    lay = table_layout(game, names=NAMES, zoom="table", ghosts=hints)
    assert lay.view == table_view(game, "table")
    img = render_table(game, names=NAMES, zoom="table", ghosts=hints)
    assert img.size == (lay.width, lay.height)
