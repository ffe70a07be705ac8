"""A refused pose names the FIRST failed rule in the ruling's order P1, P2, P3, P4 (rules/conex.md section 5,
issue 22): before, every pose sticking out over the table edge was named P4 even when its corner was on nothing of
its colour (P1), or it touched another card (P2) or a corner (P3).

Poses are sampled over the table and a margin around it on seeded tables; each rule is judged on its own (P4: the
rectangle's bounds against the table's; P1: what lies under the corner; P2/P3: what the rectangle touches besides
the target) and ``Game.check`` must name the first that fails. P5 (the card in hand, the turn) is checked before
any pose: a pose is judged only for a card the player may play.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.conex import Game, Place
from engine.conex.actions import Discard
from engine.conex.ai import first_fit
from engine.conex.geometry import LIES_ON_MM, centre_for_corner, posed_card
from engine.errors import IllegalActionError

ORDER = ("P1", "P2", "P3", "P4")


def grown_game(seed: int, cards: int) -> Game:
    g = Game.new(players=2, seed=seed, table="small", goal=100)
    while (len(g.table) < cards or g.pending_discards or not g.hands[g.current_player]) and not g.is_over:
        for q in sorted(g.pending_discards):
            g.play(Discard(q, sorted(g.hands[q])[0]))
        g.play(first_fit(g, g.current_player))
    assert not g.is_over
    return g


def failing_rules(g: Game, place: Place) -> list[str]:
    """Every rule among P1-P4 the pose fails, each judged on its own (P2/P3 only when P1 found a target)."""
    table = g.board
    card = g.deck[place.card]
    corner = card.corner(place.corner)
    cx, cy = centre_for_corner(corner, place.x_mm, place.y_mm, place.rotation)
    posed = posed_card(card, cx, cy, place.rotation)
    failed = []
    minx, miny, maxx, maxy = posed.rect.bounds
    tminx, tminy, tmaxx, tmaxy = table.area.bounds
    off = (
        minx < tminx - LIES_ON_MM or miny < tminy - LIES_ON_MM or maxx > tmaxx + LIES_ON_MM or maxy > tmaxy + LIES_ON_MM
    )
    try:
        target = table._p1(card, corner, posed.corners[card.corners.index(corner)])
    except IllegalActionError:
        failed.append("P1")
    else:
        try:
            table._p2_p3(card, posed.rect, target)
        except IllegalActionError as err:
            failed.append(err.rule)
    if off:
        failed.append("P4")
    return failed


def sampled(g: Game, n: int, rng: random.Random) -> list[tuple[Place, list[str], str | None]]:
    """``n`` random poses of the hand's cards: ``(place, failing rules, rule named by Game.check or None)``."""
    p = g.current_player
    x0, y0, x1, y1 = g.board.area.bounds
    out = []
    on_cards = [(tc.rect.bounds, tc.card.color) for tc in g.board.cards]
    for k in range(n):
        cid = rng.choice(sorted(g.hands[p]))
        card = g.deck[cid]
        corner = rng.choice(card.corners)
        if k % 2 and on_cards:  # half of them on a table card of the corner's colour: P1 mostly holds
            fits = [b for b, colour in on_cards if colour == corner.color] or [on_cards[0][0]]
            bx0, by0, bx1, by1 = rng.choice(fits)
            x, y = rng.uniform(bx0, bx1), rng.uniform(by0, by1)
        else:
            x, y = rng.uniform(x0 - 40, x1 + 40), rng.uniform(y0 - 40, y1 + 40)
        corner = corner.index
        place = Place(p, cid, corner, round(x / 10, 1), round(y / 10, 1), float(rng.randrange(360)))
        try:
            g.check(place)
            named = None
        except IllegalActionError as err:
            named = err.rule
        out.append((place, failing_rules(g, place), named))
    return out


@pytest.fixture(scope="module")
def poses() -> list[tuple[Place, list[str], str | None]]:
    rng = random.Random(22)
    out = []
    for seed in (3, 11, 17):
        out += sampled(grown_game(seed, 10), 1500, rng)
    return out


def test_the_named_rule_is_the_first_failed_one_for_every_sampled_pose(poses) -> None:
    for place, failed, named in poses:
        expected = min(failed, key=ORDER.index) if failed else None
        assert named == expected, f"{place}: fails {failed}, named {named}"


@pytest.mark.parametrize("rule", ORDER)
def test_each_rule_is_named_first_when_it_fails_with_the_edge(poses, rule) -> None:
    """Per rule: poses that fail it and stick out over the table edge (P4) are named by it (P4: P4 alone)."""
    cases = [
        (place, failed, named)
        for place, failed, named in poses
        if "P4" in failed and min(failed, key=ORDER.index) == rule
    ]
    assert cases, f"no sampled pose fails {rule} first while off the table"
    assert Counter(named for _, _, named in cases) == Counter({rule: len(cases)})


def test_p5_before_the_pose(poses) -> None:
    """A card that is not in the hand is refused P5 whatever its pose (here one that fails P1 and P4)."""
    place = next(x[0] for x in poses if x[1][:1] == ["P1"] and "P4" in x[1])
    g = grown_game(3, 10)
    other = next(c for c in range(1, 53) if c not in g.hands[g.current_player] and c not in g.board)
    with pytest.raises(IllegalActionError) as err:
        g.check(Place(g.current_player, other, 1, place.x, place.y, place.rotation))
    assert err.value.rule == "P5"
