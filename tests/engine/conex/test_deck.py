"""The deck file against D1-D4 and G4 of rules/conex.md, checked from the raw JSON (not through the loader)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import jsonschema
import pytest
from shapely.geometry import Polygon, box

from engine.conex import load_deck
from engine.conex.deck import deck_from_dict
from engine.errors import StateError

ROOT = Path(__file__).resolve().parents[3]
DECK = json.loads((ROOT / "engine" / "data" / "conex_deck.json").read_text())
SCHEMA = json.loads((ROOT / "engine" / "data" / "conex_deck.schema.json").read_text())
COLOURS = ("Y", "R", "T", "P")
CORNER_XY = {"tl": (-30, -45, 1, 1), "tr": (30, -45, -1, 1), "br": (30, 45, -1, -1), "bl": (-30, 45, 1, -1)}


def triangle(corner: dict) -> Polygon:
    x, y, sx, sy = CORNER_XY[corner["position"]]
    lx, ly = corner["legs_mm"]
    return Polygon([(x, y), (x + sx * lx, y), (x, y + sy * ly)])


def test_d4_schema_valid() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    jsonschema.validate(DECK, SCHEMA)


def test_d4_schema_rejects_a_bad_edit() -> None:
    bad = json.loads(json.dumps(DECK))
    bad["cards"][0]["corners"][0]["value"] = 6
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, SCHEMA)


def test_d1_52_cards_13_per_colour_with_one_plus2_two_die_ten_plain() -> None:
    cards = DECK["cards"]
    assert sorted(c["id"] for c in cards) == list(range(1, 53))
    for colour in COLOURS:
        mine = [c for c in cards if c["color"] == colour]
        assert len(mine) == 13
        assert Counter(c["action"] for c in mine) == {"plus2": 1, "die": 2, None: 10}


def test_d2_corner_colours_differ_and_values() -> None:
    for card in DECK["cards"]:
        values = [k["value"] for k in card["corners"]]
        assert all(k["color"] != card["color"] for k in card["corners"]), card["id"]
        if card["action"] == "plus2":
            assert values.count(5) == 1 and all(1 <= v <= 4 for v in values if v != 5), card["id"]
        else:
            assert all(1 <= v <= 4 for v in values), card["id"]


def test_d3_balanced_corner_colours_and_values() -> None:
    counts: Counter[str] = Counter()
    totals: Counter[str] = Counter()
    for card in DECK["cards"]:
        for k in card["corners"]:
            counts[k["color"]] += 1
            totals[k["color"]] += k["value"]
    assert max(counts.values()) - min(counts.values()) <= 2
    assert max(totals.values()) <= 1.10 * min(totals.values())


def test_g4_corners_are_right_triangles_on_distinct_card_corners_inside_the_card() -> None:
    card_rect = box(-30, -45, 30, 45)
    for card in DECK["cards"]:
        corners = card["corners"]
        assert 2 <= len(corners) <= 3
        assert [k["index"] for k in corners] == list(range(1, len(corners) + 1))
        assert len({k["position"] for k in corners}) == len(corners)
        tris = [triangle(k) for k in corners]
        for k, t in zip(corners, tris, strict=True):
            assert all(15 <= leg <= 30 for leg in k["legs_mm"])
            assert card_rect.contains(t)
        for i in range(len(tris)):
            for j in range(i + 1, len(tris)):
                assert tris[i].intersection(tris[j]).area == 0, card["id"]


def test_d4_loader_matches_file_and_every_card_has_drawable_corners() -> None:
    cards = load_deck()
    assert [c.id for c in cards] == list(range(1, 53))
    for card, raw in zip(cards, DECK["cards"], strict=True):
        assert card.color == raw["color"] and card.action == raw["action"]
        for k, rk in zip(card.corners, raw["corners"], strict=True):
            assert k.shape.equals(triangle(rk))
            assert k.shape.is_valid and k.shape.area > 100


def test_loader_refuses_a_corner_of_the_background_colour() -> None:
    bad = json.loads(json.dumps(DECK))
    bad["cards"][0]["corners"][0]["color"] = bad["cards"][0]["color"]
    with pytest.raises(StateError, match="D2"):
        deck_from_dict(bad)


def test_generator_reproduces_the_file() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "gen_conex_deck.py"), "--check"], capture_output=True, text=True
    )
    assert out.returncode == 0, out.stdout + out.stderr
