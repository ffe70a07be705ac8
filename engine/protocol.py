"""The one game protocol every engine implements (models: OpenSpiel's state API, python-chess's ``Outcome``).

Everything above ``engine/`` (storage, the bot's game layer, AI scheduling, clocks, replays, ratings) talks to a
game only through this interface, so adding a game means writing a state class that satisfies :class:`GameState`
plus its actions and events. Nothing finds a state class by its package name: the bot's plug-in of a game names it
(``kind.engine``) and registers it with the record loader (:func:`engine.record.register_game`); the bot registers
games in one list. Nothing here knows a specific game.

Vocabulary
----------
- **seat**: a 0-based player index (``0 .. num_players-1``). Storage maps seats to user ids; the engine never
  sees a user id.
- **setup**: the JSON-ready dict of options a game is created with (Constructo: layout, first; CONEX: players,
  seed, table, goal, bots, timeout_forfeit). ``state_cls.new(setup)`` builds the start state; ``state.setup``
  returns it normalised (defaults filled in).
- **action**: a small frozen dataclass with a ``player`` field (the acting seat) whose text form round-trips:
  ``state.parse_action(str(a), a.player) == a``. Each game defines its own; :class:`Forfeit` and
  :class:`Timeout` are shared and accepted by every game (see below).
- **history**: ``list[(seat, text)]`` of every applied action, resolved (what ``apply`` returned), in order.
  ``state_cls.replay(setup, history)`` rebuilds the same state; ``state.history`` is that list.
- **event**: a typed record (a frozen dataclass subclassing :class:`Event`) of what an ``apply`` did, in order,
  for narration, images and clocks. Events carry codes and numbers, never English sentences.

Shared actions
--------------
- ``Forfeit(seat)``: the seat leaves the game for good (Constructo: resignation, rule M3; CONEX: the seat's
  hand goes to the bottom of the pile, its turns are skipped, it ranks last). Legal for any seat still in play
  at any time while the game runs, whoever's turn it is.
- ``Timeout(seat)``: the seat's time to act ran out (the clock lives above the engine; the engine only records
  the consequence). Legal only while ``seat in state.awaiting()``. Each game defines what it does (Constructo:
  the late seat loses the match, claimed by the opponent; CONEX: the seat's pending discard is made at random,
  else its turn is skipped - draw if the pile has cards, else pass - and after a set number of consecutive
  timeouts the seat forfeits).

Refusals
--------
``check``/``apply`` raise :class:`engine.errors.RuleError` subclasses carrying a rule code (``"K3"``, ``"P2"``,
``"NotYourTurn"``, ``"Input"``...) and ``details``; nothing changes when they raise.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, Self, runtime_checkable

from engine.errors import InvalidInputError, quoted

__all__ = [
    "Applied",
    "Event",
    "Forfeit",
    "GameOver",
    "GameState",
    "Outcome",
    "Result",
    "Timeout",
    "TurnStarted",
    "parse_shared_action",
]


class Result(enum.StrEnum):
    """One seat's result in a finished game, as the game ranks players (for W/D/L columns and ratings)."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended (python-chess's ``Outcome``, for any number of seats).

    Attributes:
        ranking: seat groups, best first; seats in one group tied (share the place). Every seat appears once.
        reason: a code naming the rule that ended the game (documented per game, e.g. Constructo ``"M2"`` both
            rounds played, ``"M3"`` a resignation/forfeit, ``"timeout"``; CONEX ``"E1"``, ``"E2-pass"``,
            ``"E2-empty"``, ``"forfeit"``). Never an English sentence.
        results: per seat (index = seat), :class:`Result` as the game counts it (Constructo: sole first wins,
            shared first draws; CONEX E3: every tied leader wins, everyone else loses).
        scores: per seat final score (points, towers over the match...), or ``None`` for scoreless games.
        forfeited: seats that left (forfeit/timeout); they are ranked after every seat still in play.

    >>> o = Outcome(((1,), (0, 2)), "E1", (Result.LOSS, Result.WIN, Result.LOSS), (10, 41, 10))
    >>> o.winners, o.place_of(0), o.place_of(2)
    ((1,), 2, 2)
    >>> Outcome.from_dict(o.to_dict()) == o
    True
    """

    ranking: tuple[tuple[int, ...], ...]
    reason: str
    results: tuple[Result, ...]
    scores: tuple[int, ...] | None = None
    forfeited: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        seats = sorted(s for group in self.ranking for s in group)
        if seats != list(range(len(self.results))):
            raise ValueError(f"ranking {self.ranking!r} must list every seat 0..{len(self.results) - 1} once")

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats whose result is a win (empty for a draw)."""
        return tuple(s for s, r in enumerate(self.results) if r is Result.WIN)

    def place_of(self, seat: int) -> int:
        """1-based place of ``seat`` (tied seats share the place; the next group's place skips, 1, 1, 3)."""
        place = 1
        for group in self.ranking:
            if seat in group:
                return place
            place += len(group)
        raise ValueError(f"no seat {seat}")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{"ranking": [[...]], "reason", "results": ["win", ...], "scores", "forfeited"}``."""
        return {
            "ranking": [list(g) for g in self.ranking],
            "reason": self.reason,
            "results": [r.value for r in self.results],
            "scores": list(self.scores) if self.scores is not None else None,
            "forfeited": list(self.forfeited),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Outcome:
        """Inverse of :meth:`to_dict`. Raises ``ValueError`` for a malformed dict."""
        return cls(
            ranking=tuple(tuple(int(s) for s in g) for g in d["ranking"]),
            reason=str(d["reason"]),
            results=tuple(Result(r) for r in d["results"]),
            scores=tuple(int(s) for s in d["scores"]) if d.get("scores") is not None else None,
            forfeited=tuple(int(s) for s in d.get("forfeited", ())),
        )


@dataclass(frozen=True)
class Event:
    """Base of every event. :meth:`owner` is the only seat allowed to see a private event's details (a drawn
    card), ``None`` when public; :meth:`redacted` is what other seats may see."""

    def visible_to(self, seat: int | None) -> bool:
        """True if ``seat`` (``None`` = a spectator) may see this event in full."""
        owner = self.owner()
        return owner is None or owner == seat

    def owner(self) -> int | None:
        """The seat this event is private to, or ``None`` (public). Private events override this."""
        return None

    def redacted(self) -> Event:
        """The event as others see it (private events override this to hide card ids)."""
        return self


@dataclass(frozen=True)
class TurnStarted(Event):
    """Seat ``player`` is now to act (its clock starts)."""

    player: int


@dataclass(frozen=True)
class GameOver(Event):
    """The game ended with ``outcome``."""

    outcome: Outcome


@dataclass(frozen=True)
class Forfeit:
    """Shared action: seat ``player`` leaves the game (see the module docstring). Text ``"forfeit"``."""

    player: int
    kind: ClassVar[str] = "forfeit"

    def __str__(self) -> str:
        return "forfeit"


@dataclass(frozen=True)
class Timeout:
    """Shared action: seat ``player`` ran out of time (see the module docstring). Text ``"timeout"``."""

    player: int
    kind: ClassVar[str] = "timeout"

    def __str__(self) -> str:
        return "timeout"


def parse_shared_action(text: str, player: int) -> Forfeit | Timeout | None:
    """``Forfeit``/``Timeout`` for the texts ``"forfeit"``/``"timeout"`` (any case, spaces), else ``None``.

    >>> parse_shared_action(" Forfeit ", 1), parse_shared_action("timeout", 0), parse_shared_action("M5", 0)
    (Forfeit(player=1), Timeout(player=0), None)
    """
    if not isinstance(text, str):
        raise InvalidInputError(f"an action must be text, not {quoted(text)}", reason="internal")
    word = text.strip().lower()
    if word == "forfeit":
        return Forfeit(player)
    if word == "timeout":
        return Timeout(player)
    return None


@dataclass(frozen=True)
class Applied:
    """What :meth:`GameState.apply` returns: the resolved ``action`` (store ``str(action)`` in the log) and the
    ``events`` it caused, in order."""

    action: Any
    events: tuple[Event, ...] = field(default_factory=tuple)


@runtime_checkable
class GameState(Protocol):
    """The state of one game. Mutable: :meth:`apply` changes it in place; :meth:`copy` gives an independent one.

    Class attributes: ``game`` (the registry name, e.g. ``"constructo"``), ``STATE_VERSION`` (the version
    ``to_dict`` writes; ``from_dict`` also reads every older version it knows, migrating it),
    ``MIN_PLAYERS``/``MAX_PLAYERS``.
    """

    game: ClassVar[str]
    STATE_VERSION: ClassVar[int]
    MIN_PLAYERS: ClassVar[int]
    MAX_PLAYERS: ClassVar[int]

    # -- construction -----------------------------------------------------------------------
    @classmethod
    def new(cls, setup: dict[str, Any]) -> Self:
        """The start state for ``setup``. Raises ``InvalidInputError`` for bad or unknown options (engines may
        also take the same options as keywords, e.g. ``Game.new(players=3, seed=...)``)."""
        ...

    @classmethod
    def replay(cls, setup: dict[str, Any], history: Sequence[tuple[int, str]]) -> Self:
        """``new(setup)`` then every ``(seat, text)`` of ``history`` applied in order. Raises ``RuleError`` if
        an entry is refused (a corrupt record)."""
        ...

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Self:
        """Load ``to_dict`` output of this or any older version. Raises ``StateError`` (rule ``State``)."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready full state with ``"version": STATE_VERSION`` and ``"game": game``."""
        ...

    def copy(self) -> Self:
        """An independent copy (for AI search and what-if checks)."""
        ...

    @property
    def setup(self) -> dict[str, Any]:
        """The options this game was created with (``replay(self.setup, self.history)`` equals ``self``)."""
        ...

    @property
    def num_players(self) -> int:
        """How many seats the game has (forfeited seats included)."""
        ...

    @property
    def history(self) -> list[tuple[int, str]]:
        """Every applied action as ``(seat, text)``, resolved, in order."""
        ...

    # -- turn ---------------------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        """The seat whose turn it is (the one whose clock runs), or ``None`` once over."""
        ...

    def awaiting(self) -> tuple[int, ...]:
        """Every seat the game is waiting for now (the current player plus, e.g., CONEX seats owing a
        discard), in seat order; empty once over. ``Timeout(seat)`` is legal exactly for these seats."""
        ...

    def legal_actions(self, seat: int) -> list[Any]:
        """Legal actions of ``seat`` now, without the shared ``Forfeit`` and ``Timeout`` (the layer above applies
        those; a player never picks them from this list). Exhaustive where the action space is finite (Constructo
        moves; the named layouts for a layout choice); for continuous poses (CONEX) the discrete actions plus the
        placement finder's best poses. Empty when the seat may not act."""
        ...

    def parse_action(self, text: str, seat: int) -> Any:
        """The action for ``text`` (its ``str`` form; ``"forfeit"``/``"timeout"`` too) by ``seat``. Raises
        ``InvalidInputError`` (rule ``Input``) quoting the bad text."""
        ...

    def check(self, action: Any) -> Any:
        """Validate without changing anything; returns the action resolved (e.g. CONEX fills a missing
        rotation). Raises ``RuleError`` with the first failed rule's code."""
        ...

    def apply(self, action: Any) -> Applied:
        """Validate and apply ``action``; append it (resolved) to ``history``. Raises like :meth:`check` and then
        changes nothing."""
        ...

    # -- end ----------------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        """True once the game has ended (then :attr:`outcome` is set)."""
        ...

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it runs."""
        ...

    def view_for(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (``None`` = a spectator) may see: ``to_dict()`` minus hidden information (other hands,
        the pile order, the seed), plus ``"viewer"``. Convention: a view's ``"hands"`` list holds ``None`` for
        every seat but the viewer. Games without hidden information return ``to_dict()``."""
        ...
