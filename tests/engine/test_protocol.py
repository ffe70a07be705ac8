"""Protocol conformance: every engine's ``GameState`` is driven here through ``engine.protocol`` alone (found by
``importlib``, built from a setup dict, played through ``awaiting``/``legal_actions``/``apply``) and must keep the
protocol's promises: typed events, a history that round-trips and replays, ``Timeout`` only for awaited seats,
``Forfeit`` ending or continuing the game, ``view_for`` hiding other seats' hands, an ``Outcome`` at the end."""

from __future__ import annotations

import importlib
import json
import random
from typing import Any

import pytest

from engine.errors import RuleError
from engine.protocol import Applied, Event, Forfeit, GameOver, GameState, Outcome, Result, Timeout

GAMES: dict[str, list[dict[str, Any]]] = {
    "constructo": [{"layout": "rombo", "first": 0}, {"layout": "cinta", "first": 1}],
    "conex": [
        {"players": 2, "seed": 2**127 + 5, "table": "small", "goal": 20},
        {"players": 3, "seed": 31, "table": "small", "goal": 20, "bots": [2]},
    ],
}
CASES = [(name, i) for name, setups in GAMES.items() for i in range(len(setups))]


def state_class(name: str) -> Any:
    return importlib.import_module(f"engine.{name}").GameState


def check_invariants(state: Any) -> None:
    cls = type(state)
    assert isinstance(state, GameState)
    awaiting = state.awaiting()
    assert list(awaiting) == sorted(set(awaiting))
    if state.is_over:
        assert awaiting == () and state.current_player is None and isinstance(state.outcome, Outcome)
        assert all(state.legal_actions(s) == [] for s in range(state.num_players))
    else:
        assert state.current_player in awaiting and state.outcome is None
    for seat in range(state.num_players):
        if seat in awaiting:
            assert state.check(Timeout(seat)) == Timeout(seat)
        else:
            with pytest.raises(RuleError):
                state.check(Timeout(seat))
    d = state.to_dict()
    assert d["version"] == cls.STATE_VERSION and d["game"] == cls.game
    again = cls.from_dict(json.loads(json.dumps(d)))
    assert again.to_dict() == d
    for viewer in [None, *range(state.num_players)]:
        view = json.loads(json.dumps(state.view_for(viewer)))
        if "hands" in view:
            assert all(h is None for s, h in enumerate(view["hands"]) if s != viewer), view["hands"]


def play_random(state: Any, rng: random.Random, *, forfeit_at: int | None = None, max_actions: int = 400) -> Any:
    """Random legal actions (and one forfeit at action ``forfeit_at``) until the game ends."""
    for n in range(max_actions):
        if state.is_over:
            return state
        if n % 7 == 0:
            check_invariants(state)
        before = len(state.history)
        if n == forfeit_at:
            seat = rng.choice([s for s in range(state.num_players) if state.legal_actions(s) or s in state.awaiting()])
            action: Any = Forfeit(seat)
        else:
            choices = [(s, state.legal_actions(s)) for s in state.awaiting()]
            seat, legal = rng.choice([c for c in choices if c[1]])
            action = rng.choice(legal)
        applied = state.apply(action)
        assert isinstance(applied, Applied) and all(isinstance(e, Event) for e in applied.events)
        resolved = applied.action
        assert resolved.player == seat and state.parse_action(str(resolved), seat) == resolved
        assert len(state.history) == before + 1 and state.history[-1] == (seat, str(resolved))
        if state.is_over:
            assert isinstance(applied.events[-1], GameOver) and applied.events[-1].outcome == state.outcome
    assert state.is_over, "a random game must end"
    return state


@pytest.mark.parametrize(("name", "case"), CASES)
def test_a_random_game_keeps_the_protocol_to_the_end(name: str, case: int) -> None:
    cls = state_class(name)
    setup = GAMES[name][case]
    state = cls.new(setup)
    assert cls.MIN_PLAYERS <= state.num_players <= cls.MAX_PLAYERS
    assert cls.new(state.setup).to_dict() == state.to_dict()
    state = play_random(state, random.Random(case))
    check_invariants(state)
    outcome = state.outcome
    assert sorted(s for g in outcome.ranking for s in g) == list(range(state.num_players))
    assert len(outcome.results) == state.num_players and outcome.forfeited == ()
    assert all(outcome.results[s] is Result.WIN for s in outcome.ranking[0]) or (
        len(outcome.ranking[0]) > 1 and all(r is Result.DRAW for r in outcome.results)
    )
    assert cls.replay(state.setup, state.history).to_dict() == state.to_dict()
    with pytest.raises(RuleError):
        state.check(Forfeit(0))


@pytest.mark.parametrize(("name", "case"), CASES)
def test_forfeit_ends_or_continues_the_game(name: str, case: int) -> None:
    cls = state_class(name)
    state = cls.new(GAMES[name][case])
    rng = random.Random(100 + case)
    for _ in range(3):
        legal = next(a for s in state.awaiting() if (a := state.legal_actions(s)))
        state.apply(rng.choice(legal))
    if not state.awaiting() or state.is_over:
        pytest.skip("the game ended in three actions")
    state.apply(Forfeit(0))
    with pytest.raises(RuleError):
        state.check(Forfeit(0))
    if state.num_players == 2:
        assert state.is_over and state.outcome.forfeited == (0,) and state.outcome.ranking == ((1,), (0,))
        assert state.outcome.results == (Result.LOSS, Result.WIN)
    else:  # CONEX, 3 seats, seat 2 played by a program: seats 1 and 2 play on
        assert not state.is_over and 0 not in state.awaiting() and state.legal_actions(0) == []
        state.apply(state.legal_actions(state.current_player)[0])
        assert not state.is_over
        state.apply(Forfeit(1))  # only the program's seat is left: the game ends at once
        assert state.is_over and state.outcome.forfeited == (0, 1) and state.outcome.ranking[0] == (2,)
        assert state.outcome.results == (Result.LOSS, Result.LOSS, Result.WIN)
    check_invariants(state)
    assert cls.replay(state.setup, state.history).to_dict() == state.to_dict()


@pytest.mark.parametrize(("name", "case"), CASES)
def test_timeout_is_an_action_in_the_history(name: str, case: int) -> None:
    cls = state_class(name)
    state = cls.new(GAMES[name][case])
    seat = state.awaiting()[0]
    applied = state.apply(Timeout(seat))
    assert state.history == [(seat, "timeout")] and applied.action == Timeout(seat)
    assert cls.replay(state.setup, state.history).to_dict() == state.to_dict()
    check_invariants(state)
