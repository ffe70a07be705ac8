"""The CONEX AI (engine/conex/ai.py): legal actions only, determinism, and the policy's main choices
(+2 targets V2, the 2x star V3/X2, discards X3, lightning X3/X4, draw A2, pass A3).

Scenes are built with ``Game.from_dict`` (tests/engine/conex/scenes.py).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.conex import Discard, Draw, Game, Lightning, Pass, Place
from engine.conex.ai import choose_action, decide, keep_value
from engine.conex.events import Placed
from engine.errors import IllegalActionError, InvalidInputError, NotYourTurnError
from tests.engine.conex.scenes import DECK, find_card, find_corner, game, host_entry, state

F = (300.0, 0.0)  # the host card's free corner: far from the board and the table edge
PLUS2_T = find_card(lambda c: c.action == "plus2" and c.color == "T")
# a plain card whose best corner is a turquoise 4 (so +2 on the turquoise +2 card beats anything else it has)
FOUR_T = find_card(
    lambda c: c.action is None and find_corner(c, "T", 4) is not None and max(k.value for k in c.corners) == 4
)
# a plain card with no turquoise corner and only small corners: at best a poor placement on a board square
POOR = find_card(
    lambda c: c.action is None and c.color != "T" and all(k.color != "T" and k.value <= 2 for k in c.corners)
)


def plus2_scene(**kw: Any) -> Game:
    """Seat 0 to play (turn 2) holding FOUR_T and POOR; a free turquoise +2 card lies at F."""
    return game([[POOR.id, FOUR_T.id], [], []], [host_entry(PLUS2_T, F, placed_by=1, points=5)], turn=2, **kw)


def play_out(seed: int, ai_seed: int, goal: int = 20) -> tuple[Game, list[tuple[int, str]]]:
    """A 3-player AI-vs-AI game; every action is checked with ``game.check`` before it is played."""
    g = Game.new(players=3, seed=seed, goal=goal)
    log: list[tuple[int, str]] = []
    for _ in range(200):
        if g.is_over:
            break
        for q in sorted(g.pending_discards):
            a = choose_action(g, q, seed=ai_seed)
            assert isinstance(a, Discard)
            g.check(a)
            g.play(a)
            log.append((q, str(a)))
        p = g.current_player
        a = choose_action(g, p, seed=ai_seed)
        g.check(a)
        g.play(a)
        log.append((p, str(a)))
    return g, log


def test_ai_vs_ai_games_take_only_legal_actions_and_end() -> None:
    for seed in (3, 11):
        g, log = play_out(seed, ai_seed=0)
        assert g.is_over, f"game {seed} did not end in 200 turns: {g!r}"
        assert max(g.scores) >= g.goal or (g.end_reason or "").startswith("E2")
        assert any(text.startswith("place") for _, text in log)
        # the log replays to the same result (every action was a legal engine action)
        again = Game.replay({"players": 3, "seed": seed, "goal": 20}, log)
        assert again.scores == g.scores and again.is_over


@pytest.mark.parametrize("players", [2, 4])
def test_ai_plays_two_and_four_player_games_to_the_end_u1(players: int) -> None:
    g = Game.new(players=players, seed=9, goal=20)
    for _ in range(300):
        if g.is_over:
            break
        for q in sorted(g.pending_discards):
            g.play(choose_action(g, q))
        g.play(choose_action(g, g.current_player))
    assert g.is_over and max(g.scores) >= 20


def test_same_seed_same_actions_over_a_whole_game() -> None:
    g1, log1 = play_out(3, ai_seed=4)
    g2, log2 = play_out(3, ai_seed=4)
    assert log1 == log2 and g1.scores == g2.scores


def test_same_seed_same_action_and_no_change_to_the_game() -> None:
    g = Game.new(players=3, seed=5)
    for _ in range(6):  # reach a mid-game table
        g.play(choose_action(g, g.current_player, seed=1))
    before = g.to_dict()
    a1 = choose_action(g, g.current_player, seed=1)
    a2 = choose_action(Game.from_dict(before), g.current_player, seed=1)
    assert a1 == a2
    assert g.to_dict() == before  # the AI is pure: it works on copies


def test_the_finder_call_budget_bounds_the_work_and_the_action_stays_legal() -> None:
    g = Game.new(players=3, seed=5)
    for _ in range(9):
        g.play(choose_action(g, g.current_player, seed=1))
    for budget in (1, 4, 100):
        d = decide(g, g.current_player, seed=1, max_calls=budget)
        assert d.calls <= budget
        g.check(d.action)


def test_takes_the_plus2_target_with_a_high_corner_over_a_poor_placement_v2() -> None:
    g = plus2_scene()
    a = choose_action(g, 0)
    assert isinstance(a, Place) and a.card == FOUR_T.id and not a.double
    four = find_corner(FOUR_T, "T", 4)
    assert four is not None and four.index == a.corner
    placed = g.apply(a).events[0]
    assert isinstance(placed, Placed) and placed.target == PLUS2_T.id
    assert g.scores[0] == 4 + 2


def test_uses_the_2x_star_on_a_big_placement_when_allowed_v3() -> None:
    g = plus2_scene(stars={"2x": {"holder": 0, "since_turn": 1}, "lightning": {"holder": None}})
    a = choose_action(g, 0)
    assert isinstance(a, Place) and a.double and a.card == FOUR_T.id
    g.play(a)
    assert g.scores[0] == (4 + 2) * 2
    assert g.stars["2x"] is None


def test_does_not_use_the_2x_star_won_this_turn_x2() -> None:
    g = plus2_scene(stars={"2x": {"holder": 0, "since_turn": 2}, "lightning": {"holder": None}})
    with pytest.raises(IllegalActionError) as exc:  # the rule the AI must respect
        g.check(Place(0, FOUR_T.id, 1, 0.0, 0.0, 0.0, True))
    assert exc.value.rule == "X2"
    a = choose_action(g, 0)
    assert isinstance(a, Place) and not a.double and a.card == FOUR_T.id
    g.play(a)
    assert g.scores[0] == 6 and g.stars["2x"] == 0


def test_keeps_the_2x_star_for_a_better_placement_than_a_poor_one() -> None:
    # only POOR in hand: its best placement is a board square worth at most 2, not worth the star
    stars = {"2x": {"holder": 0, "since_turn": 1}, "lightning": {"holder": None}}
    g = game([[POOR.id], [], []], [host_entry(PLUS2_T, F)], turn=2, stars=stars)
    a = choose_action(g, 0)
    assert not (isinstance(a, Place) and a.double)
    g.check(a)


def test_discards_the_least_useful_card_when_a_discard_is_pending_x3() -> None:
    strong = find_card(lambda c: c.action == "die")
    d = state([[1 if strong.id != 1 else 2], [POOR.id, strong.id], []], current=0, turn=3)
    d["pending_discards"] = [1]
    g = Game.from_dict(d)
    assert keep_value(POOR) < keep_value(strong)
    a = choose_action(g, 1)  # not seat 1's turn: a pending discard may be made out of turn
    assert a == Discard(1, POOR.id)
    g.play(a)
    assert g.pending_discards == set()


def test_discard_comes_before_the_main_action_on_its_own_turn_x3() -> None:
    d = state([[POOR.id, FOUR_T.id], [5 if POOR.id != 5 else 6], []], current=0, turn=3)
    d["pending_discards"] = [0]
    g = Game.from_dict(d)
    a = choose_action(g, 0)
    assert a == Discard(0, POOR.id)


def test_lightning_uncovers_a_covered_plus2_card_then_places_on_it_x3_x4() -> None:
    plus2 = find_card(lambda c: c.action == "plus2" and c.color == "R")
    new = find_card(lambda c: find_corner(c, "R", 4) is not None and c.action is None and c.color != "R")
    cover = find_card(lambda c: c.color == "T" and c.action is None and all(k.color != "R" for k in c.corners))
    others = [i for i in sorted(DECK) if i not in (plus2.id, new.id, cover.id)]
    # the cover lies on all but an 8 mm strip of the +2 card: no corner fits on the +2 card (P1)
    table = [
        {"card": plus2.id, "x_mm": 300.0, "y_mm": 0.0, "rotation": 0.0},
        {"card": cover.id, "x_mm": 308.0, "y_mm": 0.0, "rotation": 0.0, "target": plus2.id},
    ]
    stars = {"lightning": {"holder": 0, "since_turn": 2}, "2x": {"holder": None}}
    g = game([[new.id], others[:2], others[2:4]], table, turn=6, stars=stars)
    assert g.find_placements(0, new.id, target=plus2.id) == []
    d = decide(g, 0)
    assert d.action == Lightning(0, cover.id), d
    g.play(d.action)
    assert g.pending_discards == {1, 2}
    a = choose_action(g, 0)
    assert isinstance(a, Place) and a.card == new.id
    placed = g.apply(a).events[0]
    assert isinstance(placed, Placed) and placed.target == plus2.id and g.scores[0] == 4 + 2


def strip_scene(mine: int) -> tuple[Game, int]:
    """Seat 0 holds ``mine`` and a usable lightning star; a free red +2 card placed by seat 1 lies at F; seats 1
    and 2 hold three cards each."""
    plus2 = find_card(lambda c: c.action == "plus2" and c.color == "R")
    others = [i for i in sorted(DECK) if i not in (plus2.id, mine)]
    stars = {"lightning": {"holder": 0, "since_turn": 2}, "2x": {"holder": None}}
    table = [host_entry(plus2, F, placed_by=1, points=5)]
    return game([[mine], others[:3], others[3:6]], table, turn=6, stars=stars), plus2.id


def test_lightning_strips_a_plus2_card_only_the_opponents_can_use_x3() -> None:
    no_red = find_card(lambda c: c.action is None and c.color != "R" and all(k.color != "R" for k in c.corners))
    g, plus2 = strip_scene(no_red.id)
    a = choose_action(g, 0)
    assert a == Lightning(0, plus2)
    g.play(a)
    assert plus2 not in g.board and g.pending_discards == {1, 2}


def test_no_lightning_on_a_plus2_card_it_can_score_on_itself_v2() -> None:
    red_four = find_card(lambda c: c.action is None and c.color != "R" and find_corner(c, "R", 4) is not None)
    g, plus2 = strip_scene(red_four.id)
    a = choose_action(g, 0)
    assert isinstance(a, Place) and a.card == red_four.id
    placed = g.apply(a).events[0]
    assert isinstance(placed, Placed) and placed.target == plus2 and g.scores[0] == 6


def test_keeps_the_lightning_star_when_removing_a_card_gains_nothing_x3() -> None:
    # the only free card is a plain one covering nothing: no reason to use the star
    plain = find_card(lambda c: c.action is None and c.color == "P")
    stars = {"lightning": {"holder": 0, "since_turn": 2}, "2x": {"holder": None}}
    g = game([[FOUR_T.id], [POOR.id], []], [host_entry(plain, F)], turn=6, stars=stars)
    a = choose_action(g, 0)
    assert not isinstance(a, Lightning)
    g.check(a)


def covered_squares_scene(hand: list[int], pile_empty: bool) -> Game:
    """The four board squares each covered by a turquoise card: only turquoise corners have targets."""
    covers = [c.id for c in DECK.values() if c.color == "T" and c.action is None][:4]
    table = [
        {"card": cid, "x_mm": x, "y_mm": y, "rotation": 0.0}
        for cid, (x, y) in zip(covers, [(-85.0, -85.0), (85.0, -85.0), (85.0, 85.0), (-85.0, 85.0)], strict=True)
    ]
    rest = [i for i in sorted(DECK) if i not in covers and i not in hand]
    if pile_empty:
        return game([hand, rest[: len(rest) // 2], rest[len(rest) // 2 :]], table, turn=4, pile=[])
    return game([hand, [], []], table, turn=4)


def test_draws_when_nothing_fits_a2() -> None:
    g = covered_squares_scene([POOR.id], pile_empty=False)
    assert g.find_placements(0, POOR.id) == []
    assert choose_action(g, 0) == Draw(0)


def test_passes_when_nothing_fits_and_the_pile_is_empty_a3() -> None:
    g = covered_squares_scene([POOR.id], pile_empty=True)
    assert choose_action(g, 0) == Pass(0)
    g.play(Pass(0))


def test_places_rather_than_passes_when_something_fits_and_the_pile_is_empty_a3() -> None:
    g = covered_squares_scene([FOUR_T.id], pile_empty=True)
    a = choose_action(g, 0)
    assert isinstance(a, Place) and a.card == FOUR_T.id
    g.play(a)
    assert g.scores[0] == 4


def test_refusals_name_the_rule() -> None:
    g = plus2_scene()
    with pytest.raises(NotYourTurnError):
        choose_action(g, 1)
    with pytest.raises(InvalidInputError):
        choose_action(g, 7)
    d = g.to_dict()
    d["end_reason"] = "E2-pass"
    d["current_player"] = None
    del d["outcome"]  # optional (redundant) on load
    with pytest.raises(IllegalActionError) as exc:
        choose_action(Game.from_dict(d), 0)
    assert exc.value.rule == "E1"
