"""The CONEX AI levels (issue 25, ``engine/conex/ai_levels.py``): every level returns legal actions to the end of a
game, is deterministic for a seed, sees only its own view, and stays within its work budget (finder calls, never
wall time: the same position gets the same action when the clock races as on a loaded machine)."""

from __future__ import annotations

import itertools
import time

import pytest

from engine.conex import Discard, Draw, Game, Lightning, Pass, Place
from engine.conex.ai import first_fit
from engine.conex.ai_endgame import POINTS_TIEBREAK, WIN_SCALE
from engine.conex.ai_levels import FIRST_RESPONSE_CALLS, LEVEL_CALLS, LEVELS, decide_level
from engine.errors import InvalidInputError
from tests.engine.conex.scenes import find_card, find_corner
from tests.engine.conex.scenes import game as scene


def play_out(levels: tuple[str, ...], seed: int, goal: int = 20) -> tuple[Game, list[tuple[str, object, int]]]:
    """A game where seat ``i`` plays ``levels[i]``; every action is checked before it is played. Returns the game
    and ``(level, action, finder calls)`` of every decision."""
    g = Game.new(players=len(levels), seed=seed, goal=goal)
    seen: list[tuple[str, object, int]] = []
    for _ in range(250):
        if g.is_over:
            break
        for q in sorted(g.pending_discards):
            d = decide_level(g, q, levels[q], seed=7)
            assert isinstance(d.action, Discard)
            g.check(d.action)
            g.play(d.action)
            seen.append((levels[q], d.action, d.calls))
        p = g.current_player
        d = decide_level(g, p, levels[p], seed=7)
        g.check(d.action)
        g.play(d.action)
        seen.append((levels[p], d.action, d.calls))
    return g, seen


def midgame(seed: int = 5, moves: int = 24, goal: int = 40) -> Game:
    game = Game.new(players=3, seed=seed, table="medium", goal=goal)
    for _ in range(moves):
        game.play(first_fit(game, game.current_player))
    return game


def test_every_level_plays_legal_actions_to_the_end_within_its_budget() -> None:
    for seed, seats in ((3, ("easy", "medium", "hard")), (11, ("hard", "easy", "medium"))):
        g, seen = play_out(seats, seed)
        assert g.is_over, f"game {seed} did not end"
        for level in LEVELS:
            mine = [s for s in seen if s[0] == level]
            assert mine, level
            assert max(c for _lv, _a, c in mine) <= LEVEL_CALLS[level]
        easy = [a for lv, a, _c in seen if lv == "easy"]
        assert not any(isinstance(a, Lightning) or (isinstance(a, Place) and a.double) for a in easy)


@pytest.mark.parametrize("level", LEVELS)
def test_each_level_is_deterministic_for_a_seed(level: str) -> None:
    game = midgame()
    first = decide_level(game, game.current_player, level, seed=3)
    again = decide_level(game.copy(), game.current_player, level, seed=3)
    assert first.action == again.action and first.calls == again.calls
    assert isinstance(first.action, Place)


def test_easy_picks_among_the_lower_scoring_poses_it_found() -> None:
    """Easy plays a pose from the lower half by points of what the finder offered it (so never the best one when
    the poses' points differ), over many positions and seeds."""
    below_best = 0
    for seed in range(4):
        game = midgame(seed=seed, moves=18)
        me = game.current_player
        best = max(
            (game.points_for(p) for c in game.hands[me] for p in game.find_placements(me, c, limit=3)), default=0
        )
        for ai_seed in range(3):
            d = decide_level(game, me, "easy", seed=ai_seed)
            if isinstance(d.action, Place):
                assert not d.action.double
                below_best += game.points_for(d.action) < best
    assert below_best >= 3


def test_levels_see_only_their_view() -> None:
    """Swapping the opponents' hands with the pile (what the seat cannot see) changes no level's action."""
    game = midgame(seed=8)
    me = game.current_player
    other = game.copy()
    hidden = [c for s, h in enumerate(other.hands) if s != me for c in h]
    pile = list(other.pile)
    for s in range(len(other.hands)):
        if s != me:
            n = len(other.hands[s])
            other.hands[s], pile = pile[:n], pile[n:]
    other.pile = pile + hidden
    for level in LEVELS:
        assert decide_level(game, me, level, seed=1).action == decide_level(other, me, level, seed=1).action


def crowded_positions(count: int) -> list[Game]:
    """Positions with 35+ cards on the table (first-fit self-play to goal 100): the finder's slowest tables."""
    out: list[Game] = []
    for seed in (100, 101):
        g = Game.new(players=3, seed=seed, goal=100)
        while not g.is_over and len(out) < count:
            if len(g.table) >= 35 and not g.pending_discards:
                out.append(g.copy())
            g.play(first_fit(g, g.current_player))
    return out[:count]


def test_hard_work_is_bounded_by_finder_calls_within_the_first_response_budget() -> None:
    """Worst case per move: ``LEVEL_CALLS[level]`` finder calls, all at most ``FIRST_RESPONSE_CALLS``; on crowded
    tables the hard level's count never passes its budget, and a smaller budget is obeyed exactly."""
    assert max(LEVEL_CALLS.values()) <= FIRST_RESPONSE_CALLS
    for game in crowded_positions(6):
        d = decide_level(game, game.current_player, "hard")
        assert 0 < d.calls <= LEVEL_CALLS["hard"]
    from engine.conex.ai import decide

    game = crowded_positions(1)[0]
    for cap in (3, 10):
        assert decide(game, game.current_player, max_calls=cap, refine=4, poses=2).calls <= cap


def test_hard_plays_the_same_action_when_the_clock_races(monkeypatch: pytest.MonkeyPatch) -> None:
    game = midgame(seed=9)
    calm = decide_level(game, game.current_player, "hard", seed=2).action
    ticks = itertools.count()
    monkeypatch.setattr(time, "perf_counter", lambda: next(ticks) * 5.0)  # 5 "seconds" per clock read
    assert decide_level(game, game.current_player, "hard", seed=2).action == calm


def test_unknown_level_is_refused() -> None:
    game = midgame()
    with pytest.raises(InvalidInputError):
        decide_level(game, game.current_player, "brutal")


def last_round_positions(count: int) -> list[Game]:
    """Positions of the last round (a score reached the goal, E1, the game not over), first-fit self-play."""
    out: list[Game] = []
    for seed in range(20):
        g = Game.new(players=3, seed=seed, goal=20)
        while not g.is_over and not g.pending_discards:
            if g.goal_reached:
                out.append(g.copy())
                break
            g.play(first_fit(g, g.current_player))
        if len(out) >= count:
            break
    return out


def test_hard_values_last_round_moves_by_their_chance_to_win_e1_e3() -> None:
    """In the last round the hard level's value is ``WIN_SCALE * P(win)`` plus a small per-point tiebreak
    (``ai_endgame.py``), never a points estimate; the medium level keeps valuing points there."""
    positions = last_round_positions(4)
    assert len(positions) >= 3
    for game in positions:
        me = game.current_player
        hard = decide_level(game, me, "hard", seed=1)
        game.check(hard.action)
        if isinstance(hard.action, Place):
            pts = hard.details["points"]
            assert 0.0 <= hard.value - POINTS_TIEBREAK * pts <= WIN_SCALE + 1e-6
            chance = (hard.value - POINTS_TIEBREAK * pts) / WIN_SCALE
            # no chance only when another seat has (or may still reach) at least the AI's final score
            assert chance > 0.0 or max(game.scores[s] for s in range(3) if s != me) >= game.scores[me] + pts
        elif isinstance(hard.action, (Draw, Pass)):
            assert 0.0 <= hard.value <= WIN_SCALE
        medium = decide_level(game, me, "medium", seed=1)
        if isinstance(medium.action, Place):
            assert medium.value <= medium.details["points"] + 1e-6  # points minus estimates, not a chance


def test_hard_spends_the_2x_star_on_a_four_point_placement_medium_keeps_it_for_v3_x2() -> None:
    """``HARD_WEIGHTS``: hard holds the 2x star for less than medium does (a die roll may take it, X1), so on an
    empty table a turquoise 4 on the turquoise board square is doubled by hard (8 points) and not by medium."""
    four_t = find_card(
        lambda c: c.action is None and find_corner(c, "T", 4) is not None and max(k.value for k in c.corners) == 4
    )
    stars = {"2x": {"holder": 0, "since_turn": 1}, "lightning": {"holder": None}}
    g = scene([[four_t.id], [], []], [], turn=2, stars=stars)
    hard = decide_level(g, 0, "hard").action
    medium = decide_level(g, 0, "medium").action
    assert isinstance(hard, Place) and isinstance(medium, Place)
    assert hard.double and not medium.double
    assert g.points_for(hard) == 8 and g.points_for(medium) == 4
