"""Generate the project's own 52-card CONEX deck, deterministically, into ``engine/data/conex_deck.json``.

Implements rulings D1-D3 and G4 of rules/conex.md:

- D1: 13 cards per background colour (Y, R, T, P): one ``plus2`` card, two ``die`` cards, ten plain.
- D2: every corner colour differs from its card's background; values 1-4, except that each +2 card has
  exactly one 5-point corner (and one other corner of 1-4).
- D3: each colour appears as a corner colour a similar number of times (exactly equal here) and the colours'
  total corner values are equal (so well within 10 %).
- G4: 2 or 3 CONEX corners per card on distinct card corners, legs 15-30 mm, corners on the same card
  edge never overlap (the sum of their legs along that edge stays below the edge length).

Smaller corners are worth more (a 4-point corner has legs of 15-19 mm, a 1-point corner 25-30 mm), so a
valuable corner is harder to fit. Run: ``.venv/bin/python tools/gen_conex_deck.py [--check]``.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

COLORS = ("Y", "R", "T", "P")
POSITIONS = ("tl", "tr", "br", "bl")
CARD_W_MM = 60
CARD_H_MM = 90
OUT = Path(__file__).resolve().parent.parent / "engine" / "data" / "conex_deck.json"
SEED = 20171  # fixed: the deck never changes unless this file changes

# leg length ranges (mm) by corner value: higher value, smaller corner
LEGS_BY_VALUE: dict[int, tuple[int, int]] = {1: (25, 30), 2: (21, 26), 3: (18, 22), 4: (15, 19), 5: (15, 16)}

# Per colour: corner counts of the 13 cards (plus2 first, then 2 die cards, then 10 plain).
# 2 + 2*2 + 3*10 would be 36; we use 2 (plus2) + 3 + 2 (die) + 7x3 + 3x2 = 34 corners per colour.
CORNER_COUNTS = (2, 3, 2, 3, 3, 3, 3, 3, 3, 3, 2, 2, 2)
ACTIONS: tuple[str | None, ...] = ("plus2", "die", "die") + (None,) * 10

# values of the non-5 corners of one colour's cards (33 corners), a fixed multiset so that every
# colour's total is equal: 8 ones, 9 twos, 9 threes, 7 fours
VALUE_POOL = (1,) * 8 + (2,) * 9 + (3,) * 9 + (4,) * 7


# the colour that gets one corner more from each background (a derangement: every colour gets one extra),
# also the colour of that background's 5-point corner (so each colour has exactly one 5 in the deck)
EXTRA = {"Y": "R", "R": "T", "T": "P", "P": "Y"}


def _corner_colours(rng: random.Random, background: str) -> list[str]:
    """The 33 non-5 corner colours of one background: 11 of each other colour, shuffled."""
    pool = [c for c in COLORS if c != background for _ in range(11)]
    rng.shuffle(pool)
    return pool


def _legs(rng: random.Random, value: int) -> tuple[int, int]:
    lo, hi = LEGS_BY_VALUE[value]
    return rng.randint(lo, hi), rng.randint(lo, hi)


def _fits(corners: list[dict]) -> bool:
    """G4: corners on the same card edge must not overlap (strictly shorter than the edge together)."""
    by_pos = {c["position"]: c["legs_mm"] for c in corners}
    pairs_x = (("tl", "tr"), ("bl", "br"))  # share a horizontal edge (width 60)
    pairs_y = (("tl", "bl"), ("tr", "br"))  # share a vertical edge (height 90)
    for a, b in pairs_x:
        if a in by_pos and b in by_pos and by_pos[a][0] + by_pos[b][0] >= CARD_W_MM - 2:
            return False
    for a, b in pairs_y:
        if a in by_pos and b in by_pos and by_pos[a][1] + by_pos[b][1] >= CARD_H_MM - 2:
            return False
    return True


def _value_totals(deck: dict) -> dict[str, int]:
    totals = dict.fromkeys(COLORS, 0)
    for card in deck["cards"]:
        for corner in card["corners"]:
            totals[corner["color"]] += corner["value"]
    return totals


def generate() -> dict:
    """Return the deck as the JSON-ready dict (``{"version": 1, "card_size_mm": [60, 90], "cards": [...]}``).

    Draws candidate decks from a fixed-seed RNG until the value totals per corner colour are within 4 % of
    each other (D3 asks for 10 %) and every background colour carries a 4-point corner of each other colour
    (so the worked checks of section 9, e.g. a red 4 on a purple card, can happen), so the result is always
    the same deck.
    """
    rng = random.Random(SEED)
    while True:
        deck = _draw(rng)
        totals = _value_totals(deck).values()
        fours = {(card["color"], k["color"]) for card in deck["cards"] for k in card["corners"] if k["value"] == 4}
        if max(totals) <= 1.04 * min(totals) and len(fours) == 12:
            return deck


def _draw(rng: random.Random) -> dict:
    cards: list[dict] = []
    card_id = 1
    for background in COLORS:
        colours = _corner_colours(rng, background)
        values = list(VALUE_POOL)
        rng.shuffle(values)
        five_colour = EXTRA[background]
        for n, action in zip(CORNER_COUNTS, ACTIONS, strict=True):
            card_values = (
                [5] + [values.pop() for _ in range(n - 1)] if action == "plus2" else [values.pop() for _ in range(n)]
            )
            card_colours = (
                [five_colour] + [colours.pop() for _ in range(n - 1)]
                if action == "plus2"
                else [colours.pop() for _ in range(n)]
            )
            while True:
                positions = sorted(rng.sample(POSITIONS, n), key=POSITIONS.index)
                order = list(range(n))
                rng.shuffle(order)
                corners = [
                    {
                        "index": i + 1,
                        "position": pos,
                        "legs_mm": list(_legs(rng, card_values[order[i]])),
                        "color": card_colours[order[i]],
                        "value": card_values[order[i]],
                    }
                    for i, pos in enumerate(positions)
                ]
                if _fits(corners):
                    break
            cards.append({"id": card_id, "color": background, "action": action, "corners": corners})
            card_id += 1
    return {"version": 1, "card_size_mm": [CARD_W_MM, CARD_H_MM], "cards": cards}


def to_text(deck: dict) -> str:
    """The file's text: one card per line, so a diff shows which card changed."""
    cards = ",\n".join("  " + json.dumps(card) for card in deck["cards"])
    return (
        f'{{\n "version": {deck["version"]},\n "card_size_mm": {json.dumps(deck["card_size_mm"])},\n'
        f' "cards": [\n{cards}\n ]\n}}\n'
    )


def _balance_report(deck: dict) -> str:
    counts = dict.fromkeys(COLORS, 0)
    for card in deck["cards"]:
        for corner in card["corners"]:
            counts[corner["color"]] += 1
    return f"corner colour counts {counts}, value totals {_value_totals(deck)}"


def main(argv: list[str]) -> int:
    deck = generate()
    text = to_text(deck)
    if "--check" in argv:
        same = OUT.read_text() == text
        print("up to date" if same else "engine/data/conex_deck.json differs from the generator")
        return 0 if same else 1
    OUT.write_text(text)
    print(f"wrote {OUT} ({len(deck['cards'])} cards); {_balance_report(deck)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
