"""Corner value coins on crowded CONEX tables (30 and 52 cards), in English and in Spanish (whose action word
"dado" is longer than "die"): no coin covers another coin or a card's label, every coin lies inside the plot, and
each value drawn on the image is at least 9 px capitals on a 400 px wide phone."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from bot.i18n import image_words
from engine.conex import Draw, Game
from render.conex import render_table, table_layout
from render.conex_scene import card_labels, corner_coins
from render.conex_view import visible_parts
from render.text import MIN_CAP_PX_AT_400, cap_px_at_phone, record_labels

FIXTURE = Path(__file__).resolve().parent / "data" / "conex_52.json"
NAMES = ("Ana", "Bartolomé Esteban", "Carla")


def crowded(cards: int) -> Game:
    """The 52-card fixture, or a real 3-player game played (first legal placement each turn) to ``cards`` cards."""
    if cards == 52:
        return Game.from_dict(json.loads(FIXTURE.read_text(encoding="utf-8")))
    g = Game.new(players=3, seed=11, goal=100)
    while len(g.table) < cards:
        p = g.current_player
        found = next((f for c in g.hand(p) if (f := g.find_placements(p, c.id, limit=1))), None)
        g.play(found[0] if found else Draw(p))
    return g


def overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("cards", [30, 52])
def test_crowded_table_coins_stay_apart_and_legible(cards: int, lang: str) -> None:
    g = crowded(cards)
    assert len(g.table) >= cards
    words = image_words(lang)
    lay = table_layout(g, names=NAMES, words=words)
    vis = visible_parts(g)
    labels = card_labels(lay.view, g, vis, lay.fs, words)
    coins, skipped = corner_coins(lay.view, g, vis, lay.fs, words, labels)
    assert len(coins) >= cards // 2, (len(coins), skipped)  # most corners still show their value
    for i, a in enumerate(coins):
        assert a.r > 0 or len(a.text) == 2
        assert 0 <= a.x - a.r and a.x + a.r <= lay.view.width and 0 <= a.y - a.r and a.y + a.r <= lay.view.height
        for b in coins[i + 1 :]:
            assert math.dist((a.x, a.y), (b.x, b.y)) >= a.r + b.r, (a, b)  # no coin covers another
        box = (a.x - a.r, a.y - a.r, a.x + a.r, a.y + a.r)
        for lab in labels:
            assert not any(overlap(box, lb) for lb in lab.boxes(lay.fs)), (a, lab)  # nor a card's number
    with record_labels() as drawn:
        img = render_table(g, names=NAMES, words=words)
    values = [lb for lb in drawn if lb.image is img and lb.text in set("12345") and lb.box[1] > lay.origin[1]]
    assert len(values) >= len(coins)
    assert all(cap_px_at_phone(lb.size, img.width) >= MIN_CAP_PX_AT_400 - 1e-6 for lb in values)
