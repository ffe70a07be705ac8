"""Property tests: random games where each player places the finder's first pose or draws (and sometimes uses
lightning and discards) always end, never raise, conserve the 52 cards, keep each placement legal when made,
and round-trip through to_dict/from_dict and replay."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.conex import Discard, Draw, Game, Lightning, Pass, Place, Timeout
from engine.conex.ai import first_fit
from engine.errors import RuleError


def conserved(g: Game) -> bool:
    ids = [i for h in g.hands for i in h] + g.pile + [tc.id for tc in g.table]
    return sorted(ids) == list(range(1, 53))


def play_random_game(seed: int, players: int, goal: int, style: int) -> Game:
    rng = random.Random(seed * 7 + style)
    g = Game.new(
        players=players, seed=seed, goal=goal, table=("small", "medium", "large")[style % 3], timeout_forfeit=99
    )
    for _ in range(600):
        if g.is_over:
            break
        for q in sorted(g.pending_discards):
            if rng.random() < 0.5:
                g.play(Timeout(q))
            else:
                g.play(Discard(q, rng.choice(g.hands[q])))
        p = g.current_player
        if g.can_lightning(p) and rng.random() < 0.7:
            free = g.board.free_ids()
            if free:
                g.play(Lightning(p, rng.choice(free)))
                assert conserved(g)
        action = None
        if rng.random() < 0.85:
            for card in sorted(g.hands[p], key=lambda _c: rng.random()):
                found = g.find_placements(p, card, limit=1)
                if found:
                    place = found[0]
                    if g.star_usable(p, "2x"):
                        place = Place(p, place.card, place.corner, place.x, place.y, place.rotation, True)
                    action = place
                    break
        if action is None:
            action = Draw(p) if g.pile else Pass(p)
        before = g.scores[p]
        if isinstance(action, Place):
            pts = g.points_for(action)  # legal at the moment it is placed (raises otherwise)
            g.play(action)
            assert g.scores[p] == before + pts
            assert g.table[-1].id == action.card
        else:
            g.play(action)
        assert conserved(g)
    assert g.is_over, "a game must end"
    return g


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4), style=st.integers(0, 5))
def test_random_games_end_conserve_cards_and_round_trip(seed: int, players: int, style: int) -> None:
    g = play_random_game(seed, players, goal=20, style=style)
    assert g.winners and all(g.scores[w] == max(g.scores) for w in g.winners)
    d = g.to_dict()
    assert Game.from_dict(d).to_dict() == d
    again = Game.replay(g.setup, g.history)
    assert again.to_dict() == d


def _mid_game() -> Game:
    g = Game.new(players=3, seed=77, table="small", goal=100)
    for _ in range(30):
        g.play(first_fit(g, g.current_player))
    return g


MID = _mid_game()


@settings(max_examples=150, deadline=None)
@given(
    slot=st.integers(0, 20),
    corner=st.integers(1, 3),
    x=st.floats(-400, 400, allow_nan=False),
    y=st.floats(-300, 300, allow_nan=False),
    rot=st.one_of(st.none(), st.floats(-720, 720, allow_nan=False)),
)
def test_any_place_is_either_legal_or_a_rule_error(
    slot: int, corner: int, x: float, y: float, rot: float | None
) -> None:
    """Never a crash: a random pose on a crowded table is accepted or refused with a rule code; nothing changes."""
    g = MID
    p = g.current_player
    hand = g.hands[p]
    card = hand[slot % len(hand)] if hand else 1
    before = g.to_dict()
    try:
        place = Place(p, card, corner, x / 10, y / 10, rot)
        g.check(place)
    except RuleError as exc:
        assert exc.rule in {"P1", "P2", "P3", "P4", "P5", "Input", "X3"}
        assert str(exc).startswith(exc.rule + ": ")
    assert g.to_dict() == before
