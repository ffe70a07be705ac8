"""Typed events of a Constructo match (``engine.protocol.Event`` subclasses): what one ``Match.apply`` did, in
order, for narration, images and clocks. Codes and numbers only, never English sentences; all public (Constructo
has no hidden information).

Order within one ``apply``: the action's own event (:class:`ChipPlaced`, :class:`ChipMoved`,
:class:`LayoutChosen`, :class:`Resigned`, :class:`TimedOut`), then :class:`RoundOver` if the round ended, then
``GameOver`` (shared, ``engine.protocol``) if the match ended, else ``TurnStarted`` (shared) naming the player to
act next (to move, or to choose round 2's layout).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.constructo.layout import Layout
from engine.constructo.move import Size
from engine.protocol import Event, GameOver, TurnStarted

__all__ = [
    "ChipMoved",
    "ChipPlaced",
    "DrawAgreed",
    "GameOver",
    "LayoutChosen",
    "Resigned",
    "RoundOver",
    "TakenBack",
    "TimedOut",
    "TurnStarted",
]


@dataclass(frozen=True)
class ChipPlaced(Event):
    """``player`` placed a ``size`` chip from the reserve on the empty ``tile`` (1..9; T2)."""

    player: int
    size: Size
    tile: int


@dataclass(frozen=True)
class ChipMoved(Event):
    """``player`` moved its lone ``size`` chip from tile ``src`` onto tile ``dst`` (T3, K1-K5).

    Attributes:
        swallow: the move was a large swallowing a lone small (K4): ``dst`` holds no tower (S1).
        height: chips on ``dst`` after the move (2..4; the tile is now blocked, T4).
        tower_owner: who owns the tower on ``dst`` now (S2), ``None`` after a swallow.
    """

    player: int
    size: Size
    src: int
    dst: int
    swallow: bool
    height: int
    tower_owner: int | None


@dataclass(frozen=True)
class LayoutChosen(Event):
    """``player`` chose ``layout`` for round ``round_no`` (2) and starts it (M1)."""

    player: int
    round_no: int
    layout: Layout


@dataclass(frozen=True)
class RoundOver(Event):
    """Round ``round_no`` ended because ``stuck_player`` (the player to move) had no legal action (E1).

    ``scores``: towers of player 0 and player 1 in that round (S1, S2, E2).
    """

    round_no: int
    scores: tuple[int, int]
    stuck_player: int


@dataclass(frozen=True)
class Resigned(Event):
    """``player`` resigned (the shared ``Forfeit`` action): the match ends as their loss (M3)."""

    player: int


@dataclass(frozen=True)
class TimedOut(Event):
    """``player``'s time ran out (the shared ``Timeout`` action, claimed by the opponent): they lose the match."""

    player: int


@dataclass(frozen=True)
class TakenBack(Event):
    """``player``'s last move ``move`` (notation, e.g. ``"L5"``, ``"3-4"``) was taken back in round ``round_no``:
    the position is again the one before it, and ``player`` is to move again."""

    player: int
    move: str
    round_no: int


@dataclass(frozen=True)
class DrawAgreed(Event):
    """Both players agreed to a draw offered by ``player``: the match ends drawn, whatever the score."""

    player: int
