"""The rules of a Constructo match over its :class:`~engine.constructo.match_position.MatchPosition`
(docs/rules/constructo.md M1-M3, E1; a round's own rules T1-T5, K1-K5 are :meth:`Round.check`'s).

:func:`check` validates an action without changing anything; :func:`apply` validates then changes the position and
returns the events. The :class:`engine.constructo.match.Match` front calls both.
"""

from __future__ import annotations

from typing import Any

from engine.constructo.actions import AgreeDraw, ChooseLayout, MatchAction, Takeback
from engine.constructo.events import (
    ChipMoved,
    ChipPlaced,
    DrawAgreed,
    LayoutChosen,
    Resigned,
    RoundOver,
    TakenBack,
    TimedOut,
)
from engine.constructo.match_position import (
    REASON_AGREED,
    REASON_RESIGN,
    REASON_TIMEOUT,
    MatchPosition,
    current_player,
    last_move,
    outcome,
    phase,
    totals,
)
from engine.constructo.move import Move
from engine.constructo.round import Round
from engine.errors import IllegalMoveError, InvalidInputError, NotYourTurnError, quoted
from engine.protocol import Applied, Event, Forfeit, GameOver, Timeout, TurnStarted

__all__ = ["apply", "check", "check_player"]


def check_player(player: Any) -> int:
    """``player`` as 0 or 1. Raises InvalidInputError for anything else (a bool included)."""
    if player not in (0, 1) or isinstance(player, bool):
        raise InvalidInputError(f"player must be 0 or 1, not {player!r}", reason="bad_player", player=player)
    return int(player)


def _refuse_if_over(pos: MatchPosition) -> None:
    if pos.ended is not None:
        seat, reason = pos.ended
        if reason == REASON_RESIGN:
            raise IllegalMoveError(f"the match is over: player {seat} resigned", rule="M3", resigned=seat)
        if reason == REASON_AGREED:
            raise IllegalMoveError("the match is over: the players agreed to a draw", rule="E1")
        raise IllegalMoveError(f"the match is over: player {seat} ran out of time", rule="E1", timed_out=seat)
    if phase(pos) == "over":
        a, b = totals(pos)
        raise IllegalMoveError(f"the match is over (both rounds played, totals {a}-{b})", rule="E1", totals=(a, b))


def _check_takeback(pos: MatchPosition, seat: int) -> None:
    _refuse_if_over(pos)
    if last_move(pos, seat) is None:
        raise IllegalMoveError(
            f"player {seat} has no move to take back: only the last move on the board, theirs, can be",
            rule="takeback",
            player=seat,
        )


def check(pos: MatchPosition, action: MatchAction) -> MatchAction:
    """Validate ``action`` on ``pos`` without changing anything; returns it resolved (a :class:`Move` without a
    player gets the player to move).

    Raises:
        IllegalMoveError: rule ``M3``/``E1`` once over; ``M1`` for a move while round 2's layout is to be chosen, or
            a layout choice at any other time; a move's rule (T1-T5, K1-K5, C2) from :meth:`Round.check`; ``M3``
            for a resignation once over; ``takeback`` when there is no move of the player's to take back.
        NotYourTurnError: a move or layout choice by the other player; a ``Timeout`` of a player the match is not
            waiting for.
        InvalidInputError: a bad player or action.
    """
    if isinstance(action, Forfeit):
        check_player(action.player)
        if phase(pos) == "over":
            raise IllegalMoveError("the match is already over; there is nothing to resign", rule="M3")
        return action
    if isinstance(action, Timeout):
        seat = check_player(action.player)
        _refuse_if_over(pos)
        now = current_player(pos)
        if seat != now:
            raise NotYourTurnError(
                f"player {seat} cannot run out of time: the match waits for player {now}",
                player=seat,
                awaiting=[] if now is None else [now],
            )
        return action
    if isinstance(action, AgreeDraw):
        check_player(action.player)
        _refuse_if_over(pos)
        return action
    if isinstance(action, Takeback):
        _check_takeback(pos, check_player(action.player))
        return action
    if isinstance(action, ChooseLayout):
        seat = check_player(action.player)
        _refuse_if_over(pos)
        if phase(pos) != "choosing_layout":
            raise IllegalMoveError("round 2's layout is chosen only once round 1 is over", rule="M1")
        chooser = 1 - pos.first
        if seat != chooser:
            raise NotYourTurnError(
                "the player who did not start round 1 chooses the layout of round 2", chooser=chooser
            )
        return action
    if not isinstance(action, Move):
        raise InvalidInputError(f"not a Constructo action: {quoted(action)}", reason="internal")
    _refuse_if_over(pos)
    if phase(pos) == "choosing_layout":
        raise IllegalMoveError(
            f"round 1 is over; player {1 - pos.first} must first choose the layout of round 2",
            rule="M1",
            chooser=1 - pos.first,
        )
    rnd = pos.rounds[-1]
    move = rnd.check(action)
    return move.by(rnd.current_player)


def apply(pos: MatchPosition, action: MatchAction) -> Applied:
    """Validate ``action`` (as :func:`check`) and apply it to ``pos``; append it (resolved) to ``pos.log``. Returns
    the resolved action and its events (:mod:`engine.constructo.events`, then ``GameOver`` or ``TurnStarted``).
    Raises like :func:`check`; ``pos`` is unchanged then."""
    resolved = check(pos, action)
    events: list[Event] = []
    if isinstance(resolved, Forfeit | Timeout):
        pos.ended = (resolved.player, REASON_RESIGN if isinstance(resolved, Forfeit) else REASON_TIMEOUT)
        events.append(Resigned(resolved.player) if isinstance(resolved, Forfeit) else TimedOut(resolved.player))
    elif isinstance(resolved, AgreeDraw):
        pos.ended = (resolved.player, REASON_AGREED)
        events.append(DrawAgreed(resolved.player))
    elif isinstance(resolved, Takeback):
        text = str(pos.rounds[-1].last_move)
        pos.rounds[-1].undo_code()  # the pure inverse of the move: the position before it, exactly
        events.append(TakenBack(resolved.player, text, len(pos.rounds)))
    elif isinstance(resolved, ChooseLayout):
        pos.rounds.append(Round(resolved.layout, resolved.player))
        events.append(LayoutChosen(resolved.player, 2, resolved.layout))
    else:
        assert isinstance(resolved, Move) and resolved.player is not None
        events += _move_events(pos.rounds[-1], len(pos.rounds), resolved)
    assert resolved.player is not None  # check() resolved it
    pos.log.append((resolved.player, str(resolved)))
    ended = outcome(pos)
    if ended is not None:
        events.append(GameOver(ended))
    else:
        now = current_player(pos)
        assert now is not None
        events.append(TurnStarted(now))
    return Applied(resolved, tuple(events))


def _move_events(rnd: Round, round_no: int, move: Move) -> list[Event]:
    """Apply checked ``move`` to ``rnd`` (round 1 or 2: ``round_no``); its events (a placement or a chip moved,
    then the round's end if any)."""
    assert move.player is not None
    events: list[Event] = []
    if move.is_place:
        assert move.size is not None and move.tile is not None
        rnd.apply_code(move.code)
        events.append(ChipPlaced(move.player, move.size, move.tile))
    else:
        assert move.src is not None and move.dst is not None
        size = rnd.tile(move.src)[0][1]
        rnd.apply_code(move.code)
        events.append(
            ChipMoved(
                move.player,
                size,
                move.src,
                move.dst,
                rnd.is_swallow(move.dst),
                len(rnd.tile(move.dst)),
                rnd.tower_owner(move.dst),
            )
        )
    if rnd.is_over:
        events.append(RoundOver(round_no, rnd.score(), rnd.current_player))
    return events
