"""Forfeits and timeouts inside the engine (issue 11 part 1, issue 12 part 3): the seat leaves for good, its
turns are skipped, the game ends when too few seats are left, timeouts skip turns then forfeit; every one of
them is in the history and replays."""

from __future__ import annotations

import pytest

from engine.conex import Discard, Draw, Forfeit, Game, Lightning, Pass, Timeout
from engine.conex.ai import first_fit
from engine.conex.events import Drew, Forfeited, Passed, TimedOut, TurnSkipped
from engine.errors import IllegalActionError, NotYourTurnError
from engine.protocol import GameOver, Result, TurnStarted
from tests.engine.conex.scenes import find_card, game, host_entry

F = (300.0, 0.0)


def lightning_game(since: int = 1, turn: int = 3, current: int = 0) -> Game:
    host = find_card(lambda c: c.color == "P" and c.action is None)
    stars = {"lightning": {"holder": 0, "since_turn": since}, "2x": {"holder": 2, "since_turn": 0}}
    return game([[1, 2], [3, 4], [5]], [host_entry(host, F)], stars=stars, turn=turn, current=current, scores=[4, 6, 3])


def test_forfeit_of_the_seat_to_play_returns_its_hand_and_stars_and_skips_its_turn() -> None:
    g = lightning_game(current=2, turn=5)
    pile = list(g.pile)
    events = g.apply(Forfeit(2)).events
    assert events == (Forfeited(2, 1, 3, ("2x",)), TurnSkipped(2, "forfeit"), TurnStarted(0))
    assert g.pile == [*pile, 5] and g.hands[2] == [] and g.scores == [4, 6, 0]
    assert g.stars["2x"] is None and g.forfeited == {2} and g.passes == 1 and g.current_player == 0
    assert g.history[-1] == (2, "forfeit")
    with pytest.raises(IllegalActionError) as exc:
        g.check(Draw(2))
    assert exc.value.rule == "Forfeited"
    g.play(Draw(0))
    events = g.apply(Draw(1)).events
    assert events[1:] == (TurnSkipped(2, "forfeit"), TurnStarted(0))  # seat 2 is passed over from now on


def test_a_skipped_seat_does_not_close_the_previous_seats_lightning_window_x3() -> None:
    g = lightning_game(current=0)
    g.play(Forfeit(1))  # out of turn: nothing is skipped yet
    g.play(Draw(0))  # seat 1 is skipped, seat 2 to play; seat 0 may still use lightning at the end of its turn
    assert g.current_player == 2 and g.window == (0, 3) and g.can_lightning(0)
    g.play(Lightning(0, g.table[0].id))
    assert g.pending_discards == {2}  # not the forfeited seat 1


def test_forfeit_drops_a_pending_discard_and_leaving_alone_ends_the_game() -> None:
    g = lightning_game()
    g.play(Lightning(0, g.table[0].id))
    assert g.awaiting() == (0, 1, 2)
    g.play(Forfeit(1))
    assert g.pending_discards == {2} and g.awaiting() == (0, 2)
    events = g.apply(Forfeit(0)).events
    assert g.is_over and g.end_reason == "forfeit" and isinstance(events[-1], GameOver)
    outcome = g.outcome
    assert outcome is not None and outcome.ranking == ((2,), (0, 1)) and outcome.forfeited == (0, 1)
    assert outcome.results == (Result.LOSS, Result.LOSS, Result.WIN) and outcome.scores == (0, 0, 3)
    with pytest.raises(IllegalActionError) as exc:
        g.check(Forfeit(2))
    assert exc.value.rule == "E1"


def test_the_game_ends_when_only_bots_are_left() -> None:
    g = Game.new(players=3, seed=4, bots=[1, 2])
    g.play(Draw(0))
    g.play(Forfeit(0))
    assert g.is_over and g.end_reason == "forfeit" and g.outcome is not None
    assert g.outcome.place_of(0) == 3
    bots_only = Game.new(players=2, seed=4, bots=[0, 1])  # a game of programs plays on
    bots_only.play(Draw(0))
    assert not bots_only.is_over


def test_timeout_skips_the_turn_with_a_draw_then_a_pass_and_forfeits_on_the_last_allowed() -> None:
    g = game([[1, 2, *range(8, 53)], [3], [4]], pile=[5, 6, 7], players=3, current=1, turn=1)
    g.timeout_forfeit = 2
    events = g.apply(Timeout(1)).events
    assert events[:2] == (TimedOut(1, "turn", 1, 2), Drew(1, 2, (5, 6))) and g.current_player == 2
    with pytest.raises(NotYourTurnError):
        g.check(Timeout(1))  # only an awaited seat can time out
    g.play(Draw(2))  # takes the last card
    g.play(Pass(0))
    events = g.apply(Timeout(1)).events
    assert events[0] == TimedOut(1, "turn", 2, 2) and isinstance(events[1], Forfeited)
    assert events[1].timeout and g.forfeited == {1} and g.current_player == 2


def test_acting_resets_the_timeout_count_and_the_skip_is_a_pass_on_an_empty_pile() -> None:
    g = game([[1, *range(3, 53)], [2]], pile=[], players=2)
    g.timeout_forfeit = 2
    assert g.apply(Timeout(0)).events[:2] == (TimedOut(0, "turn", 1, 2), Passed(0))
    g.play(Pass(1))
    assert g.is_over and g.end_reason == "E2-pass"  # the timed-out pass counts for E2
    g = game([[1, *range(3, 9), *range(17, 53)], [2]], pile=list(range(9, 17)), players=2)
    g.timeout_forfeit = 2
    g.play(Timeout(0))
    g.play(Draw(1))
    g.play(Draw(0))  # seat 0 acts itself: its count starts again
    g.play(Draw(1))
    assert g.timeouts == [0, 0]
    g.play(Timeout(0))
    assert g.timeouts == [1, 0] and not g.forfeited


def test_a_finished_game_with_a_forfeit_replays() -> None:
    """The record of a game a seat left replays to the same state (on main it raised NotYourTurn)."""
    g = Game.new(players=3, seed=21, goal=20)
    for _ in range(4):
        g.play(first_fit(g, g.current_player))
    g.play(Forfeit(g.current_player))
    g.play(Timeout(g.current_player))
    while not g.is_over:
        owing = sorted(g.pending_discards)
        if owing:
            g.play(Discard(owing[0], g.hands[owing[0]][0]))
            continue
        g.play(first_fit(g, g.current_player))
    assert any(t == "forfeit" for _, t in g.history) and any(t == "timeout" for _, t in g.history)
    again = Game.replay(g.setup, g.history)
    assert again.to_dict() == g.to_dict() and again.outcome == g.outcome
