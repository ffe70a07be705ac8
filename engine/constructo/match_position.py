"""The position of a Constructo match (docs/rules/constructo.md M1-M3, C1): what the rules read and change.

Below :mod:`engine.constructo.match_rules` (which checks and applies actions to a :class:`MatchPosition`) and the thin
:class:`engine.constructo.match.Match` front (the game protocol, storage). Everything here is derived from four
fields; nothing here validates an action.

>>> from engine.constructo.layout import Layout
>>> from engine.constructo.round import Round
>>> pos = MatchPosition(0, [Round(Layout.parse("rombo"), 0)])
>>> phase(pos), current_player(pos), totals(pos)
('playing', 0, (0, 0))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from engine.constructo.round import Round
from engine.protocol import Outcome, Result

__all__ = [
    "REASON_AGREED",
    "REASON_RESIGN",
    "REASON_ROUNDS",
    "REASON_TIMEOUT",
    "MatchPosition",
    "Phase",
    "current_player",
    "last_move",
    "outcome",
    "phase",
    "takeback_plies",
    "totals",
]

Phase = Literal["playing", "choosing_layout", "over"]

REASON_ROUNDS = "M2"
"""Outcome reason: both rounds were played; higher total wins, equal totals draw."""
REASON_RESIGN = "M3"
"""Outcome reason: a player resigned (the shared ``Forfeit``)."""
REASON_TIMEOUT = "timeout"
"""Outcome reason: a player's time ran out and the opponent claimed the win (the shared ``Timeout``)."""
REASON_AGREED = "agreed"
"""Outcome reason: both players agreed to a draw: the match is drawn whatever the score."""


@dataclass(slots=True)
class MatchPosition:
    """A match's position: ``first`` (player 0/1 who started round 1, M1), its ``rounds`` (1 or 2 :class:`Round`),
    ``ended`` (``(seat, reason)`` after a resignation, timeout or agreed draw, else ``None``) and ``log`` (every
    applied action as ``(player, text)``, in order)."""

    first: int
    rounds: list[Round]
    ended: tuple[int, str] | None = None
    log: list[tuple[int, str]] = field(default_factory=list)

    def copy(self) -> MatchPosition:
        """An independent copy (rounds and log copied)."""
        return MatchPosition(self.first, [r.copy() for r in self.rounds], self.ended, list(self.log))


def phase(pos: MatchPosition) -> Phase:
    """``"playing"``, ``"choosing_layout"`` (round 1 over, round 2's layout not chosen, M1) or ``"over"``."""
    if pos.ended is not None:
        return "over"
    if not pos.rounds[-1].is_over:
        return "playing"
    return "choosing_layout" if len(pos.rounds) == 1 else "over"


def current_player(pos: MatchPosition) -> int | None:
    """The player to act: to move in the current round, or to choose round 2's layout (M1: the one who did not
    start round 1); ``None`` once over."""
    now = phase(pos)
    if now == "playing":
        return pos.rounds[-1].current_player
    if now == "choosing_layout":
        return 1 - pos.first
    return None


def totals(pos: MatchPosition) -> tuple[int, int]:
    """Sum of both players' tower counts (S2) over the rounds played so far (M2)."""
    scores = [r.score() for r in pos.rounds]
    return (sum(s[0] for s in scores), sum(s[1] for s in scores))


def outcome(pos: MatchPosition) -> Outcome | None:
    """How the match ended, or ``None`` while it runs. Reasons: ``"M2"`` (both rounds: sole higher total WIN/LOSS,
    equal totals both DRAW in one group), ``"M3"`` (resignation), ``"timeout"`` (the leaving player LOSS, ranked
    last, in ``forfeited``), ``"agreed"`` (a draw both agreed). ``scores`` are the totals (M2) at the end."""
    if phase(pos) != "over":
        return None
    scores = totals(pos)
    if pos.ended is not None and pos.ended[1] == REASON_AGREED:
        return Outcome(((0, 1),), REASON_AGREED, (Result.DRAW, Result.DRAW), scores)
    if pos.ended is not None:
        loser, reason = pos.ended
        results = [Result.WIN, Result.WIN]
        results[loser] = Result.LOSS
        return Outcome(((1 - loser,), (loser,)), reason, tuple(results), scores, (loser,))
    a, b = scores
    if a == b:
        return Outcome(((0, 1),), REASON_ROUNDS, (Result.DRAW, Result.DRAW), scores)
    w = 0 if a > b else 1
    results = [Result.LOSS, Result.LOSS]
    results[w] = Result.WIN
    return Outcome(((w,), (1 - w,)), REASON_ROUNDS, tuple(results), scores)


def last_move(pos: MatchPosition, seat: int) -> str | None:
    """The notation of the last move still on the board (the current round's, not taken back) when ``seat`` made it:
    the one move a takeback by ``seat`` may undo; ``None`` once over, before any move of the round, or when the
    other player made it."""
    rnd = pos.rounds[-1]
    if phase(pos) == "over" or not rnd.codes or rnd.current_player == seat:
        return None
    return str(rnd.last_move)


def takeback_plies(pos: MatchPosition, seat: int) -> int:
    """How many moves a takeback asked for by ``seat`` undoes (lichess's rule): 1 when the last move on the board is
    ``seat``'s, 2 when it is the opponent's reply to ``seat``'s move (the reply goes too), else 0."""
    if last_move(pos, seat) is not None:
        return 1
    if last_move(pos, 1 - seat) is not None and len(pos.rounds[-1].codes) >= 2:
        return 2
    return 0
