"""Constructo images: structure, key pixels computed from the hex geometry, text twin, goldens.

Golden images live in tests/render/golden/; regenerate with ``UPDATE_GOLDEN=1`` (see golden_util.py).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from engine.constructo import LAYOUTS, RECOMMENDED, Layout, Match, Round
from render import to_png
from render.common import THEMES, hex_rgb
from render.constructo import (
    FS,
    PLAYER_FILL,
    PLAYER_STRIPE,
    board_fit,
    board_text,
    has_swallowed,
    render_board,
)
from render.constructo_draw import bar_height, board_parts, move_arrow, stack_bottom
from render.constructo_layouts import layouts_text, render_layouts_sheet
from tests.render.golden_util import assert_matches_golden

NAMES = ("Alice", "Bob")


def _match(record: str) -> Match:
    rnd = Round.from_record(record)
    return Match(0, [rnd])


def _px(img: Image.Image, x: float, y: float) -> tuple[int, int, int]:
    return img.getpixel((round(x), round(y)))[:3]


def _check_size(img: Image.Image) -> None:
    assert img.mode == "RGB"
    assert img.width == 800 and img.height >= 500


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_every_named_layout_renders_with_tile_fill_at_each_empty_centre(name: str) -> None:
    m = Match.new(name)
    img = render_board(m, names=NAMES)
    _check_size(img)
    hf = board_fit(m, names=NAMES)
    assert len(hf.centres) == 9
    for cx, cy in hf.centres:  # C4: every tile drawn (empty tile = plain tile fill at its centre)
        assert _px(img, cx, cy + hf.radius * 0.2) == hex_rgb(THEMES["dark"].tile)


def test_custom_layout_is_auto_fitted_inside_the_canvas() -> None:
    lay = Layout.parse("(0,0) (1,0) (2,0) (3,0) (3,1) (3,2) (3,3) (2,4) (1,5)")
    m = Match.new(lay)
    img = render_board(m, names=NAMES)
    hf = board_fit(m, names=NAMES)
    for cx, cy in hf.centres:
        assert hf.radius <= cx <= img.width - hf.radius
        assert cy + hf.radius <= img.height
        assert _px(img, cx, cy + hf.radius * 0.2) == hex_rgb(THEMES["dark"].tile)


def test_chip_bars_show_owner_colour_pattern_and_ring_hole() -> None:
    # L5 (player 0, ring), M4 (player 1, striped medium)
    m = _match("rombo: L5 M4")
    img = render_board(m, names=NAMES)
    hf = board_fit(m, names=NAMES)
    r = hf.radius
    bar_h = bar_height(r, FS)
    cx5, cy5 = hf.centres[4]
    mid = cy5 + stack_bottom(r, 1.30 * r) - bar_h / 2
    assert _px(img, cx5 + r * 0.55, mid) == hex_rgb(PLAYER_FILL[0])  # right leg of the ring (unlabelled)
    assert _px(img, cx5, mid + 4) == hex_rgb(THEMES["dark"].tile)  # the ring's hole shows the tile
    # one chip, not two blocks: a band of the owner's colour runs over the hole
    assert _px(img, cx5, cy5 + stack_bottom(r, 1.30 * r) - bar_h * 0.85) == hex_rgb(PLAYER_FILL[0])
    cx4, cy4 = hf.centres[3]
    stripe_or_fill = {hex_rgb(PLAYER_FILL[1]), hex_rgb(PLAYER_STRIPE)}
    samples = {_px(img, cx4 - r * 0.38 + dx, cy4 + stack_bottom(r, 0.92 * r) - bar_h / 2) for dx in range(0, 10)}
    assert samples <= stripe_or_fill and len(samples) == 2  # striped: both colours appear, nothing else


def test_swallowed_small_is_drawn_inside_the_ring_and_tower_badge_marks_owner() -> None:
    # rombo: tile 1 adjacent to 2. Player 0 S1, player 1 L2, player 0 M9, player 1 swallows 2-1 (K4),
    # player 0 L5, player 1 M4, player 0 S6, player 1 4-5 makes a tower on 5 for player 1.
    m = _match("rombo: S1 L2 M9 2-1 L5 M4 S6 4-5")
    rnd = m.current_round
    assert rnd.is_swallow(1) and rnd.tower_owner(5) == 1
    img = render_board(m, names=NAMES)
    hf = board_fit(m, names=NAMES)
    r = hf.radius
    cx, cy = hf.centres[0]
    bottom = cy + stack_bottom(r, 1.30 * r)
    assert _px(img, cx - r * 0.2, bottom - bar_height(r, FS) * 0.3) == hex_rgb(PLAYER_FILL[0])  # small in the hole
    assert has_swallowed([(0, 1), (1, 3), (0, 2)])
    assert not has_swallowed([(0, 3), (1, 2)])
    # tower badge for player 1 beside tile 5's number (right of it: the arrow 4-5 arrives from the left)
    badge = board_parts(rnd, hf, ("A", "B"), FS)[4].badge
    assert badge is not None
    bx, by, br = badge
    assert bx > hf.centres[4][0]
    assert {_px(img, bx + dx, by - br * 0.7) for dx in (-1, 0, 1)} <= {hex_rgb(PLAYER_FILL[1]), hex_rgb(PLAYER_STRIPE)}
    text = board_text(m, names=NAMES)
    assert "1: (SA swallowed) LB" in text
    assert "5: LA MB — tower B" in text


def test_last_placement_and_move_are_highlighted() -> None:
    m = _match("rombo: L5 M4")
    img = render_board(m, names=NAMES)
    hf = board_fit(m, names=NAMES)
    hl = hex_rgb(THEMES["dark"].highlight)
    cx, cy = hf.centres[3]  # tile 4, last placed: its left edge is ringed
    assert _px(img, cx - hf.radius * 0.866 - 2, cy) == hl
    cx9, cy9 = hf.centres[8]  # an untouched tile is not ringed
    assert _px(img, cx9 - hf.radius * 0.866 - 2, cy9) != hl
    m2 = _match("rombo: L5 M4 S1 4-5")
    img2 = render_board(m2, names=NAMES)
    hf2 = board_fit(m2, names=NAMES)
    (ax, ay), tip, _, _head = move_arrow(hf2, 4, 5)
    # a point on the arrow's shaft 4 -> 5, inside tile 4
    midx, midy = ax + (tip[0] - ax) * 0.3, ay + (tip[1] - ay) * 0.3
    assert _px(img2, midx, midy) == hl
    assert _px(img, midx, midy) != hl  # no arrow after a placement


def test_board_text_lists_every_tile_reserves_and_turn() -> None:
    m = _match("rombo: L5 M4 S1")
    text = board_text(m, names=NAMES)
    for n in range(1, 10):
        assert f"{n}: " in text
    assert "5: LA" in text and "4: MB" in text and "1: SA" in text
    assert "Bob (B, striped) to move" in text
    assert "Alice (A): reserve L2 M3 S2" in text
    assert "Bob (B): reserve L3 M2 S3" in text
    assert len(text) < 2000


def test_tags_fall_back_to_symbols_never_digits_when_initials_clash_or_read_as_sizes() -> None:
    from render.constructo import player_tags

    m = _match("rombo: L5 M4")
    text = board_text(m, names=("Pat", "Paul"))
    assert "5: L●;" in text and "4: M▲;" in text
    assert player_tags(("Alice", "AI (easy)")) == ("●", "▲")  # the case: both start with A
    assert player_tags(("Sara", "Bob")) == ("●", "▲")  # "S" would read as a size letter ("MS", "SS")
    assert player_tags(("Ingrid", "Bob")) == ("●", "▲")  # "I" and "O" look like digits
    assert player_tags(("Alice", "Bob")) == ("A", "B")
    for names in (("1", "2"), ("Pat", "Paul"), ("🦄", "Bob"), ("", ""), ("Alice", "Bob"), ("Lena", "Mia")):
        assert not any(ch.isdigit() for tag in player_tags(names) for ch in tag)


def test_full_random_match_renders_every_position_and_phase() -> None:
    rng = random.Random(5)
    m = Match.new("cinta")
    seen_phases = set()
    while not m.is_over:
        seen_phases.add(m.phase)
        img = render_board(m, names=NAMES)
        assert img.width == 800
        text = board_text(m, names=NAMES)
        assert len(text) < 2000
        if m.phase == "choosing_layout":
            assert "chooses the layout for round 2" in text
            m.choose_layout(m.current_player, "estrella")
        else:
            m.play(rng.choice(m.current_round.legal_moves()))
    assert seen_phases == {"playing", "choosing_layout"}
    text = board_text(m, names=NAMES)
    assert "Match over" in text
    render_board(m, names=NAMES, theme="light")


def test_resignation_and_light_theme() -> None:
    m = _match("rombo: L5 M4")
    m.resign(1)
    img = render_board(m, names=NAMES, theme="light")
    assert _px(img, 2, 2) == hex_rgb(THEMES["light"].bg)
    assert "Bob resigned, Alice (A) wins" in board_text(m, names=NAMES)


def test_unknown_theme_is_refused() -> None:
    with pytest.raises(ValueError, match="theme"):
        render_board(Match.new("rombo"), theme="sepia")


def test_png_is_small() -> None:
    m = _match("rombo: L5 M4 S1 4-5 M3 L2 S9")
    png = to_png(render_board(m, names=NAMES))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(png) < 400_000


def test_layouts_sheet_lists_all_layouts_recommended_first() -> None:
    img = render_layouts_sheet()
    _check_size(img)
    text = layouts_text()
    lines = text.splitlines()[1:]
    assert [ln.split(" ")[0] for ln in lines][: len(RECOMMENDED)] == list(RECOMMENDED)
    assert {ln.split(" ")[0] for ln in lines} == set(LAYOUTS)
    assert len(text) < 2000


def test_goldens() -> None:
    m = _match("rombo: S1 L2 M9 2-1 L5 M4 S6 4-5")
    assert_matches_golden(render_board(m, names=NAMES), "constructo_board_dark")
    assert_matches_golden(render_board(m, names=NAMES, theme="light"), "constructo_board_light")
    assert_matches_golden(render_layouts_sheet(), "constructo_layouts_sheet")


def test_rendering_from_several_threads_gives_the_same_image() -> None:
    # the bot renders in worker threads (asyncio.to_thread): shared fonts and label stamps must be safe
    from concurrent.futures import ThreadPoolExecutor

    matches = [_match("rombo: L5 M4 S1 4-5"), _match("rombo: S1 L2 M9 2-1"), Match.new("linea"), Match.new("flor")]
    serial = [render_board(m, names=NAMES).tobytes() for m in matches]
    with ThreadPoolExecutor(max_workers=4) as pool:
        threaded = list(pool.map(lambda m: render_board(m, names=NAMES).tobytes(), matches * 3))
    assert threaded == serial * 3


_DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


def _random_layout(rng: random.Random) -> Layout:
    cells = {(0, 0)}
    while len(cells) < 9:
        q, r = rng.choice(sorted(cells))
        dq, dr = rng.choice(_DIRS)
        if abs(q + dq) <= 4 and abs(r + dr) <= 4:
            cells.add((q + dq, r + dr))
    return Layout.from_cells(sorted(cells))


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), plies=st.integers(0, 30))
def test_any_layout_and_position_draws_every_tile_and_bottom_chip(seed: int, plies: int) -> None:
    rng = random.Random(seed)
    m = Match.new(_random_layout(rng))
    for _ in range(plies):
        if m.current_round.is_over:
            break
        m.play(rng.choice(m.current_round.legal_moves()))
    img = render_board(m, names=NAMES)
    hf = board_fit(m, names=NAMES)
    r = hf.radius
    rnd = m.current_round
    for n, (cx, cy) in enumerate(hf.centres, start=1):
        assert 0 <= cx - r * 0.8 and cx + r * 0.8 <= img.width
        stack = [(int(p), int(s)) for p, s in rnd.tile(n)]
        if not stack:
            assert _px(img, cx, cy + r * 0.2) == hex_rgb(THEMES["dark"].tile)
            continue
        # the bottom bar (or the ring holding a swallowed small) shows its owner's fill near its left end
        owner, size = stack[1] if has_swallowed(stack) else stack[0]
        size = 3 if has_swallowed(stack) else size
        width = {1: 0.56, 2: 0.92, 3: 1.30}[size] * r
        hole = (0.56 * r + 10) / 2 if size == 3 else 0.0  # a ring's hole is the middle of its bar
        bottom, h = cy + stack_bottom(r, width), bar_height(r, FS)
        xs = [cx - width / 2 + 3 + k for k in range(int(width) - 6) if abs(-width / 2 + 3 + k) > hole + 2]
        counts = Counter(_px(img, x, bottom - h * f) for x in xs for f in (0.2, 0.5, 0.8))
        expected = {hex_rgb(PLAYER_FILL[owner])} | ({hex_rgb(PLAYER_STRIPE)} if owner == 1 else set())
        other = {hex_rgb(PLAYER_FILL[1 - owner])} | ({hex_rgb(PLAYER_STRIPE)} if owner == 0 else set())
        total = sum(counts.values())
        share, wrong = sum(counts[c] for c in expected) / total, sum(counts[c] for c in other) / total
        # the chip's label (white text, black outline) covers part of the bar; the other owner's fill, none of it
        assert share >= 0.1 and wrong == 0, (n, stack, counts.most_common(4))
    assert len(board_text(m, names=NAMES)) < 2000
