"""Nim, the test game's engine: heaps of stones; on your turn take 1 or more stones from one heap (N1); whoever
takes the last stone wins (N2, normal play). Implements ``engine.protocol.GameState`` and nothing more: it exists
to prove that a game plugs into the bot through the protocol (``docs/adding-a-game.md``).

Setup: ``{"heaps": [3, 4, 5], "first": 0}`` (1-7 heaps of 1-15 stones). Actions: :class:`Take` (text
``"take <heap> <count>"``, heaps numbered from 1) and the shared ``Forfeit``/``Timeout`` (the seat loses).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.errors import IllegalMoveError, InvalidInputError, NotYourTurnError, StateError
from engine.protocol import (
    Applied,
    Event,
    Forfeit,
    GameOver,
    Outcome,
    Result,
    Timeout,
    TurnStarted,
    parse_shared_action,
)

STATE_VERSION = 1


@dataclass(frozen=True)
class Take:
    """Seat ``player`` takes ``count`` stones from heap ``heap`` (1-based)."""

    player: int
    heap: int
    count: int

    def __str__(self) -> str:
        return f"take {self.heap} {self.count}"


@dataclass(frozen=True)
class Took(Event):
    player: int
    heap: int
    count: int
    left: int


@dataclass(frozen=True)
class Left(Event):
    """``player`` forfeited or ran out of time."""

    player: int
    how: str


def _setup(setup: dict[str, Any]) -> dict[str, Any]:
    heaps = setup.get("heaps", [3, 4, 5])
    first = setup.get("first", 0)
    unknown = set(setup) - {"heaps", "first"}
    if unknown:
        raise InvalidInputError(f"unknown Nim options {sorted(unknown)}")
    if (
        not isinstance(heaps, list)
        or not 1 <= len(heaps) <= 7
        or not all(isinstance(h, int) and not isinstance(h, bool) and 1 <= h <= 15 for h in heaps)
    ):
        raise InvalidInputError(f"heaps must be 1-7 heaps of 1-15 stones, not {heaps!r}")
    if first not in (0, 1):
        raise InvalidInputError(f"first must be 0 or 1, not {first!r}")
    return {"heaps": list(heaps), "first": first}


class Nim:
    """The state of one game of Nim (``engine.protocol.GameState``)."""

    game: ClassVar[str] = "nim"
    STATE_VERSION: ClassVar[int] = STATE_VERSION
    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 2

    def __init__(self, setup: dict[str, Any]) -> None:
        self._setup = _setup(setup)
        self.heaps = list(self._setup["heaps"])
        self.to_play = self._setup["first"]
        self._history: list[tuple[int, str]] = []
        self._outcome: Outcome | None = None

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def new(cls, setup: dict[str, Any]) -> Nim:
        return cls(setup)

    @classmethod
    def replay(cls, setup: dict[str, Any], history: Sequence[tuple[int, str]]) -> Nim:
        state = cls(setup)
        for seat, text in history:
            state.apply(state.parse_action(text, seat))
        return state

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": STATE_VERSION,
            "game": self.game,
            "setup": self.setup,
            "history": self.history,
            "heaps": list(self.heaps),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Nim:
        if not isinstance(d, dict) or d.get("version") != STATE_VERSION or d.get("game") != cls.game:
            raise StateError("not a Nim state of version 1")
        try:
            state = cls.replay(d["setup"], [(int(s), str(t)) for s, t in d["history"]])
        except (KeyError, TypeError, ValueError) as err:
            raise StateError(f"unreadable Nim state: {err}") from err
        if state.heaps != d.get("heaps"):
            raise StateError("the heaps do not match the history")
        return state

    def copy(self) -> Nim:
        return Nim.replay(self.setup, self.history)

    @property
    def setup(self) -> dict[str, Any]:
        return {"heaps": list(self._setup["heaps"]), "first": self._setup["first"]}

    @property
    def num_players(self) -> int:
        return 2

    @property
    def history(self) -> list[tuple[int, str]]:
        return list(self._history)

    # -- turn -----------------------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        return None if self._outcome is not None else self.to_play

    def awaiting(self) -> tuple[int, ...]:
        return () if self._outcome is not None else (self.to_play,)

    def legal_actions(self, seat: int) -> list[Take]:
        if seat != self.current_player:
            return []
        return [Take(seat, h + 1, c) for h, n in enumerate(self.heaps) for c in range(1, n + 1)]

    def parse_action(self, text: str, seat: int) -> Any:
        shared = parse_shared_action(text, seat)
        if shared is not None:
            return shared
        words = text.split()
        if len(words) != 3 or words[0].lower() != "take" or not words[1].isdigit() or not words[2].isdigit():
            raise InvalidInputError(f"{text[:40]!r} is not 'take <heap> <count>'")
        return Take(seat, int(words[1]), int(words[2]))

    def check(self, action: Any) -> Any:
        if self._outcome is not None:
            raise IllegalMoveError("the game is over", rule="N2")
        if action.player not in (0, 1):
            raise InvalidInputError(f"no seat {action.player}")
        if isinstance(action, Forfeit):
            return action
        if action.player != self.to_play:
            raise NotYourTurnError(f"it is seat {self.to_play + 1}'s turn", player=self.to_play)
        if isinstance(action, Timeout):
            return action
        if not 1 <= action.heap <= len(self.heaps):
            raise IllegalMoveError(f"there is no heap {action.heap}", rule="N1", heap=action.heap)
        if not 1 <= action.count <= self.heaps[action.heap - 1]:
            raise IllegalMoveError(
                f"heap {action.heap} has {self.heaps[action.heap - 1]} stones, not {action.count} to take",
                rule="N1",
                heap=action.heap,
                count=action.count,
            )
        return action

    def apply(self, action: Any) -> Applied:
        action = self.check(action)
        events: list[Event] = []
        if isinstance(action, Forfeit | Timeout):
            loser, how = action.player, str(action)
            events.append(Left(loser, how))
            self._finish(winner=1 - loser, reason=how, forfeited=(loser,))
        else:
            self.heaps[action.heap - 1] -= action.count
            events.append(Took(action.player, action.heap, action.count, self.heaps[action.heap - 1]))
            if not any(self.heaps):
                self._finish(winner=action.player, reason="N2")
            else:
                self.to_play = 1 - action.player
        self._history.append((action.player, str(action)))
        events.append(GameOver(self._outcome) if self._outcome is not None else TurnStarted(self.to_play))
        return Applied(action, tuple(events))

    def _finish(self, *, winner: int, reason: str, forfeited: tuple[int, ...] = ()) -> None:
        results = tuple(Result.WIN if s == winner else Result.LOSS for s in (0, 1))
        self._outcome = Outcome(((winner,), (1 - winner,)), reason, results, None, forfeited)

    # -- end ------------------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self._outcome is not None

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    def view_for(self, seat: int | None) -> dict[str, Any]:
        return dict(self.to_dict(), viewer=seat)


GameState = Nim


def best_take(state: Nim, seat: int) -> Take:
    """The winning move when there is one (make the nim-sum 0), else take one stone from the biggest heap."""
    total = 0
    for n in state.heaps:
        total ^= n
    if total:
        for h, n in enumerate(state.heaps):
            if n ^ total < n:
                return Take(seat, h + 1, n - (n ^ total))
    h = max(range(len(state.heaps)), key=lambda i: state.heaps[i])
    return Take(seat, h + 1, 1)
