"""CONEX images on a phone and in the viewer's language: every word drawn comes from ``words`` (a pseudo-language
run finds any English left in the drawing code), plural forms (en, es), hint ghosts in their real colours on a
sheet that fits one phone screen, corner values on the table, hand tags inside their own card, and the "Last:"
line giving the placed corner's position as ``/conex place x: y:`` takes it."""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from engine.conex import Draw, Game, Place, posed_card
from engine.conex.deck import CARD_H_MM, CARD_W_MM
from render.common import hex_rgb
from render.conex import placed_corner_cm, render_hand, render_table, table_layout, table_text
from render.conex_hand import HAND_SCALE, corner_tag_box, hand_slots, hand_text, legal_text
from render.conex_hints import columns, hint_tiles, hints_text, render_hints
from render.conex_ink import COLOUR_FILL
from render.conex_scene import corner_coins
from render.conex_view import ghost_pose, visible_parts
from render.conex_words import EN
from render.results import render_conex_result
from render.text import MIN_CAP_PX_AT_400, cap_px_at_phone, record_labels
from render.words import Words, plural_category

FIXTURE = Path(__file__).resolve().parent / "data" / "conex_52.json"
NAMES = ("Ω1", "Ω2", "Ω3")  # no Latin letters: any two-letter word on a picture came from the renderer
PSEUDO = Words("xx", {k: "¤" for k in EN})
ENGLISH_WORD = re.compile(r"[A-Za-z]{2,}")


def played(n: int) -> tuple[Game, Place]:
    """A real game after ``n`` placements (the finder's first legal one each turn) and the last ``Place``."""
    g = Game.new(players=3, seed=11)
    last = None
    while n:
        p = g.current_player
        for c in g.hand(p):
            found = g.find_placements(p, c.id, limit=1)
            if found:
                g.play(found[0])
                last, n = found[0], n - 1
                break
        else:
            g.play(Draw(p))
    assert last is not None
    return g, last


def _labels(make: Callable[[], Image.Image]) -> list[Any]:
    with record_labels() as labels:
        make()
    return labels


def test_plural_categories_in_english_and_spanish() -> None:
    assert [plural_category("en", n) for n in (0, 1, 2, 21)] == ["other", "one", "other", "other"]
    assert [plural_category("es", n) for n in (0, 1, 2, 1_000_000)] == ["other", "one", "other", "many"]
    es = Words("es", {"k.one": "{n} carta", "k.other": "{n} cartas"})
    assert (es.count("k", 1), es.count("k", 0), es.count("k", 1_000_000)) == ("1 carta", "0 cartas", "1000000 cartas")


def test_hand_title_says_1_card_not_1_cards() -> None:
    g = Game.new(players=2, seed=8)
    d = g.to_dict()
    d["draw_pile"] = [*d["draw_pile"], *d["hands"][0][1:]]
    d["hands"][0] = d["hands"][0][:1]
    one = Game.from_dict(d)
    texts = {lb.text for lb in _labels(lambda: render_hand(one, 0))}
    assert "Your hand · 1 card" in texts
    assert hand_text(one, 0).startswith("Your hand (1 card);")
    assert hand_text(g, 0).startswith("Your hand (5 cards);")
    assert legal_text(1) == "1 legal" and legal_text(0) == "no legal spot" and legal_text(12) == "9+ legal"


@pytest.mark.parametrize(
    "kind",
    [
        "table_early",
        "table_full",
        "table_lightning",
        "table_zoom",
        "hand",
        "hand_discard",
        "hints",
        "no_hints",
        "result",
    ],
)
def test_no_english_is_drawn_when_the_viewer_reads_another_language(kind: str) -> None:
    """Every template is "¤" in this pseudo-language: a drawn label with a two-letter word is hard-coded text."""
    early, _ = played(6)
    full = Game.from_dict(json.loads(FIXTURE.read_text(encoding="utf-8")))
    fresh = Game.new(players=3, seed=11)
    d = fresh.to_dict()
    d["pending_discards"] = [0]
    pending = Game.from_dict(d)
    hand = fresh.hand(0)
    hints = [Place(0, hand[0].id, 1, 8.0, -6.0, 30.0), Place(0, hand[1].id, 1, -7.5, 7.0, 300.0)]
    last = full.table[-1]
    make: dict[str, Callable[[], Image.Image]] = {
        "table_early": lambda: render_table(early, names=NAMES, words=PSEUDO),
        "table_full": lambda: render_table(full, names=NAMES, words=PSEUDO),
        "table_lightning": lambda: render_table(
            full, names=NAMES, words=PSEUDO, highlight=None, removed=(last.card.id, last.pose)
        ),
        "table_zoom": lambda: render_table(early, names=NAMES, words=PSEUDO, zoom="board"),
        "hand": lambda: render_hand(fresh, 0, legal_counts={c.id: 1 for c in hand}, words=PSEUDO),
        "hand_discard": lambda: render_hand(pending, 0, words=PSEUDO),
        "hints": lambda: render_hints(fresh, hints, marks=["A", "B"], words=PSEUDO),
        "no_hints": lambda: render_hints(fresh, [], words=PSEUDO),
        "result": lambda: render_conex_result(full, names=NAMES, words=PSEUDO),
    }
    english = [lb.text for lb in _labels(make[kind]) if ENGLISH_WORD.search(lb.text)]
    assert english == [], f"hard-coded English drawn in {kind}: {english}"


def test_text_twins_follow_the_words_too() -> None:
    early, _ = played(6)
    fresh = Game.new(players=3, seed=11)
    hints = [Place(0, fresh.hand(0)[0].id, 1, 8.0, -6.0, 30.0)]
    for text in (
        table_text(early, names=NAMES, words=PSEUDO),
        hand_text(fresh, 0, legal_counts={c.id: 2 for c in fresh.hand(0)}, words=PSEUDO),
        hints_text(fresh, hints, words=PSEUDO),
    ):
        # card entries keep their symbols (#12R, c2 = corner 2, r90 = rotation; tl/br = corner positions)
        words = [w for w in ENGLISH_WORD.findall(text) if w not in ("tl", "tr", "bl", "br")]
        assert words == [], (words, text)


def test_spanish_words_reach_the_hand_picture() -> None:
    from bot.i18n import image_words

    fresh = Game.new(players=3, seed=11)
    texts = {lb.text for lb in _labels(lambda: render_hand(fresh, 0, words=image_words("es-ES")))}
    assert "Tu mano · 5 cartas" in texts and not any("Your hand" in t for t in texts)


@pytest.mark.parametrize("n", range(1, 10))
def test_a_hint_sheet_fits_one_phone_screen(n: int) -> None:
    """Between 1.35:1 and 1:1.8 for 1 to 9 hints (nine used to make an 800 x 1948 image, 1:2.4)."""
    fresh = Game.new(players=3, seed=11)
    card = fresh.hand(0)[0]
    hints = [Place(0, card.id, 1, -30.0 + 7.0 * k, 20.0, 15.0 * k) for k in range(n)]
    img = render_hints(fresh, hints)
    assert 1 / 1.8 <= img.width / img.height <= 1.35, (n, img.size)
    assert columns(n) in (1, 2, 3) and len(hint_tiles(fresh, hints)) == n
    labels = _labels(lambda: render_hints(fresh, hints))
    assert min(cap_px_at_phone(lb.size, img.width) for lb in labels) >= MIN_CAP_PX_AT_400 - 1e-6


def test_a_ghost_keeps_its_cards_real_colour() -> None:
    """The ghost's main area is mostly the card's exact colour (hatched in a darker shade), not a grey or brown
    blend with the table."""
    fresh = Game.new(players=3, seed=11)
    for k, card in enumerate(fresh.hand(0)[:4]):
        place = Place(0, card.id, 1, 30.0, 20.0 + k, 10.0)
        img = render_hints(fresh, [place])
        tile = hint_tiles(fresh, [place])[0]
        _, (cx, cy, rot) = ghost_pose(fresh, place)
        posed = posed_card(card, cx, cy, rot)
        inner = posed.rect.buffer(-15.0)
        counts: Counter[tuple[int, int, int]] = Counter()
        x0, y0, x1, y1 = inner.bounds
        for i in range(40):
            for j in range(40):
                x, y = x0 + (x1 - x0) * i / 39, y0 + (y1 - y0) * j / 39
                px, py = tile.view.px(x, y)
                counts[img.getpixel((round(px + tile.plot_box[0]), round(py + tile.plot_box[1])))] += 1
        colour, n = counts.most_common(1)[0]
        assert colour == hex_rgb(COLOUR_FILL[card.color]) and n > 0.4 * sum(counts.values()), (card.color, colour)


def test_every_visible_corner_shows_its_value_on_the_main_image_early_in_a_game() -> None:
    g, _ = played(6)
    lay = table_layout(g, names=NAMES)
    coins, skipped = corner_coins(lay.view, g, visible_parts(g), lay.fs)
    assert skipped == 0 and len(coins) >= 12
    labels = _labels(lambda: render_table(g, names=NAMES))
    values = [lb for lb in labels if lb.text in {"1", "2", "3", "4", "5"} and lb.box[1] > lay.origin[1]]
    assert len(values) >= len(coins)
    assert all(cap_px_at_phone(lb.size, lay.width) >= MIN_CAP_PX_AT_400 - 1e-6 for lb in values)
    texts = {lb.text for lb in labels}
    assert not any("zoom in" in t for t in texts)  # nothing left to the zoom


def test_hand_corner_tags_sit_inside_their_own_card() -> None:
    d = Game.new(players=2, seed=8).to_dict()
    d["hands"][0] = list(d["hands"][0]) + list(d["draw_pile"][:4])
    d["draw_pile"] = list(d["draw_pile"][4:])
    g = Game.from_dict(d)
    hand = g.hand(0)
    cw, ch = CARD_W_MM * HAND_SCALE, CARD_H_MM * HAND_SCALE
    boxes = []
    for (x0, y0), card in zip(hand_slots(len(hand)), hand, strict=True):
        for corner in card.corners:
            bx0, by0, bx1, by1 = corner_tag_box(x0, y0, corner)
            assert x0 <= bx0 and bx1 <= x0 + cw and y0 <= by0 and by1 <= y0 + ch, (card.id, corner.index)
            boxes.append((bx0, by0, bx1, by1))
    for a, b in ((a, b) for i, a in enumerate(boxes) for b in boxes[i + 1 :]):
        assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), (a, b)


def test_last_gives_the_placed_corner_where_place_takes_it() -> None:
    g, place = played(6)
    x, y = placed_corner_cm(g.table[-1])
    assert math.isclose(x, place.x, abs_tol=0.051) and math.isclose(y, place.y, abs_tol=0.051)
    where = f"corner {place.corner} at ({place.x:.1f}, {place.y:.1f}) cm"
    assert where in table_text(g, names=NAMES)
    texts = " ".join(lb.text for lb in _labels(lambda: render_table(g, names=NAMES)))
    assert f"({place.x:.1f}, {place.y:.1f}) cm" in texts


def test_goldens_of_a_spanish_hand_and_a_nine_hint_sheet() -> None:
    from bot.i18n import image_words
    from tests.render.golden_util import assert_matches_golden

    fresh = Game.new(players=3, seed=11)
    counts = {c.id: k for k, c in enumerate(fresh.hand(0))}  # 0 ("ningún sitio legal"), 1 (singular), 2+ (plural)
    assert_matches_golden(render_hand(fresh, 0, legal_counts=counts, words=image_words("es-ES")), "conex_hand_es")
    g, _ = played(6)
    p = g.current_player
    hints = [h for c in g.hand(p) for h in g.find_placements(p, c.id, limit=3)][:9]
    assert len(hints) == 9
    marks = ["ABCDE"[[c.id for c in g.hand(p)].index(h.card)] for h in hints]
    assert_matches_golden(render_hints(g, hints, marks=marks), "conex_hints_9")
