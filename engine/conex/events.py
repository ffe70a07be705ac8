"""Typed events of a CONEX game (``engine.protocol.Event`` subclasses): what one ``Game.apply`` did, in order,
for narration, images and clocks. Codes, seats, card ids and numbers only, never English sentences.

Private events (:class:`Drew`, :class:`Discarded`) name their ``owner()``; ``redacted()`` is what other seats and
spectators may see (the count, no card ids). Public: everything else.

Typical orders: a placement ``Placed`` [``StarUsed``] [``DieRolled`` (``Drew`` | ``StarTaken``)] [``GoalReached``]
then the turn's end; a draw ``Drew``; a pass ``Passed``; a lightning ``StarUsed`` ``CardRemoved``
[``DiscardsPending``] (no turn end: X3 happens at the start or the end of a turn); a discard ``Discarded``. A turn's
end: [``TurnSkipped`` per forfeited seat passed over] then ``TurnStarted`` or ``GameOver``. ``Forfeit``:
``Forfeited`` [turn end if it was the seat's turn] [``GameOver``]. ``Timeout``: ``TimedOut`` then the random
``Discarded``, or the skipped turn (``Drew`` | ``Passed``, turn end), or ``Forfeited`` on the last allowed one.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.conex.table import Target
from engine.protocol import Event, GameOver, TurnStarted

__all__ = [
    "CardRemoved",
    "DieRolled",
    "Discarded",
    "DiscardsPending",
    "Drew",
    "Forfeited",
    "GameOver",
    "GoalReached",
    "Passed",
    "Placed",
    "StarTaken",
    "StarUsed",
    "TimedOut",
    "TurnSkipped",
    "TurnStarted",
]


@dataclass(frozen=True)
class Placed(Event):
    """A1: ``player`` placed ``card`` with corner ``corner`` on ``target`` (a table card id or ``"board"``),
    scoring ``points`` (V1 + V2, doubled when ``doubled``, V3). ``pose``: the card centre ``(x_mm, y_mm,
    rotation_deg)`` on the table."""

    player: int
    card: int
    corner: int
    target: Target
    points: int
    doubled: bool
    pose: tuple[float, float, float]


@dataclass(frozen=True)
class StarUsed(Event):
    """``player`` used ``star`` (``"2x"``: V3, ``"lightning"``: X3); it returns to the supply."""

    star: str
    player: int


@dataclass(frozen=True)
class DieRolled(Event):
    """X1: ``player`` rolled the die after placing a die card; ``face`` is ``"card"``, ``"two cards"``,
    ``"lightning"`` or ``"2x"``."""

    player: int
    face: str


@dataclass(frozen=True)
class StarTaken(Event):
    """X1: ``player`` took ``star`` from ``from_`` (a seat, or ``None`` = the supply). ``from_ == player`` when the
    holder re-rolled its own star: nothing changed hands and X2's clock keeps running from the first roll."""

    star: str
    player: int
    from_: int | None

    @property
    def how(self) -> str:
        """What the roll did, the one fact every text of it tells (the live narration, the record's move list):
        ``"supply"`` (taken from the supply), ``"kept"`` (the holder re-rolled its own star: nothing changed
        hands) or ``"from"`` (taken from seat ``from_``)."""
        if self.from_ is None:
            return "supply"
        return "kept" if self.from_ == self.player else "from"


@dataclass(frozen=True)
class Drew(Event):
    """``player`` drew ``count`` cards from the top of the pile (A2, X1, or a timed-out turn). ``cards`` are their
    ids, private to the drawer (``None`` in :meth:`redacted`)."""

    player: int
    count: int
    cards: tuple[int, ...] | None

    def owner(self) -> int | None:
        return self.player

    def redacted(self) -> Drew:
        return Drew(self.player, self.count, None)


@dataclass(frozen=True)
class CardRemoved(Event):
    """X3: ``player`` used lightning on table card ``card`` (now at the bottom of the pile). ``pose`` is where it
    lay (centre ``(x_mm, y_mm, rotation_deg)``) and ``placed_by`` who had placed it, so an image can show it."""

    player: int
    card: int
    pose: tuple[float, float, float]
    placed_by: int


@dataclass(frozen=True)
class DiscardsPending(Event):
    """X3: each seat of ``players`` owes one discard to the bottom of the pile before its next main action."""

    players: tuple[int, ...]


@dataclass(frozen=True)
class Discarded(Event):
    """X3: ``player`` put ``card`` from its hand at the bottom of the pile (private: ``None`` in
    :meth:`redacted`); ``random`` when a timeout made it."""

    player: int
    card: int | None
    random: bool = False

    def owner(self) -> int | None:
        return self.player

    def redacted(self) -> Discarded:
        return Discarded(self.player, None, self.random)


@dataclass(frozen=True)
class Passed(Event):
    """A3: ``player`` passed (the pile is empty)."""

    player: int


@dataclass(frozen=True)
class TurnSkipped(Event):
    """``player``'s turn was skipped; ``reason`` is ``"forfeit"`` (the seat left; counted as a pass for E2)."""

    player: int
    reason: str


@dataclass(frozen=True)
class Forfeited(Event):
    """``player`` left the game: ``returned`` cards went from its hand to the bottom of the pile, ``stars`` it held
    went back to the supply, its ``score`` (before leaving) became 0; ``timeout`` when its consecutive timeouts
    forfeited it."""

    player: int
    returned: int
    score: int
    stars: tuple[str, ...]
    timeout: bool = False


@dataclass(frozen=True)
class TimedOut(Event):
    """``player``'s time ran out: ``what`` is ``"discard"`` (its X3 discard is made at random) or ``"turn"`` (the
    turn is skipped: a draw, else a pass). ``count`` consecutive timeouts of this seat out of ``limit`` (the
    ``limit``-th forfeits the seat)."""

    player: int
    what: str
    count: int
    limit: int


@dataclass(frozen=True)
class GoalReached(Event):
    """E1: ``player`` is the first to reach the goal, with ``score``; the round is completed, then the game ends."""

    player: int
    score: int
