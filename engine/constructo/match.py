"""A Constructo match: two rounds, layout choice, totals, draw and resignation (rules M1-M3, C1)."""

from __future__ import annotations

from typing import Any, Literal

from engine.constructo.layout import Layout
from engine.constructo.move import Move
from engine.constructo.round import STATE_VERSION, Round
from engine.errors import IllegalMoveError, InvalidInputError, NotYourTurnError, RuleError, StateError

__all__ = ["Match", "Phase"]

Phase = Literal["playing", "choosing_layout", "over"]


class Match:
    """Two rounds between players 0 and 1 (colours fixed for the match, C1).

    M1: the player who starts round 1 (``first``) chose its layout; the other player chooses
    round 2's layout (:meth:`choose_layout`) and starts round 2. M2: higher total wins, equal
    totals draw. M3: :meth:`resign` ends the match at once as a loss for the resigning player.

    Build with :meth:`new` or :meth:`from_dict`.
    """

    __slots__ = ("_first", "_resigned", "rounds")

    def __init__(self, first: int, rounds: list[Round], resigned: int | None = None) -> None:
        self._first = first
        self.rounds: list[Round] = rounds
        self._resigned = resigned

    @classmethod
    def new(cls, layout: Layout | str, first: int = 0) -> Match:
        """A match whose round 1 is on ``layout`` (chosen by ``first``, M1) and starts with ``first``.

        Raises InvalidInputError for an unknown layout or ``first`` not 0/1.
        """
        return cls(first, [Round(layout, first)])

    # -- state --------------------------------------------------------------------------------
    @property
    def first(self) -> int:
        """The player (0/1) who started round 1."""
        return self._first

    @property
    def round_no(self) -> int:
        """1 or 2: the round being played (or the last one played)."""
        return len(self.rounds)

    @property
    def current_round(self) -> Round:
        """The round being played (the last round once the match is over)."""
        return self.rounds[-1]

    @property
    def phase(self) -> Phase:
        """``"playing"``, ``"choosing_layout"`` (round 1 over, round 2's layout not chosen) or ``"over"``."""
        if self._resigned is not None:
            return "over"
        if not self.rounds[-1].is_over:
            return "playing"
        return "choosing_layout" if len(self.rounds) == 1 else "over"

    @property
    def is_over(self) -> bool:
        """True after round 2 ended or a resignation (M2, M3)."""
        return self.phase == "over"

    @property
    def chooser(self) -> int | None:
        """The player who must choose round 2's layout now (M1: the one who did not start round 1), else None."""
        return 1 - self._first if self.phase == "choosing_layout" else None

    @property
    def current_player(self) -> int | None:
        """The player to act: to move in the current round, or to choose a layout; ``None`` once over."""
        phase = self.phase
        if phase == "playing":
            return self.rounds[-1].current_player
        if phase == "choosing_layout":
            return 1 - self._first
        return None

    @property
    def resigned(self) -> int | None:
        """The player who resigned (M3), or ``None``."""
        return self._resigned

    def round_scores(self) -> list[tuple[int, int]]:
        """Each round's ``(player 0, player 1)`` tower count (S2), rounds in order (running count if unfinished)."""
        return [r.score() for r in self.rounds]

    def totals(self) -> tuple[int, int]:
        """Sum of both players' tower counts over the rounds played so far (M2)."""
        a = sum(s[0] for s in self.round_scores())
        b = sum(s[1] for s in self.round_scores())
        return (a, b)

    @property
    def winner(self) -> int | None:
        """The match winner once over: the non-resigning player (M3) or the higher total (M2).

        ``None`` while playing, or for a draw (equal totals, M2).
        """
        if self._resigned is not None:
            return 1 - self._resigned
        if not self.is_over:
            return None
        a, b = self.totals()
        return 0 if a > b else 1 if b > a else None

    @property
    def is_draw(self) -> bool:
        """True when the match is over with equal totals and nobody resigned (M2)."""
        return self.is_over and self._resigned is None and self.winner is None

    # -- actions ------------------------------------------------------------------------------
    def _check_player(self, player: Any) -> None:
        if player not in (0, 1) or isinstance(player, bool):
            raise InvalidInputError(f"player must be 0 or 1, not {player!r}")

    def _refuse_if_over(self) -> None:
        if self._resigned is not None:
            raise IllegalMoveError(
                f"the match is over: player {self._resigned} resigned", rule="M3", resigned=self._resigned
            )
        if self.is_over:
            a, b = self.totals()
            raise IllegalMoveError(f"the match is over (both rounds played, totals {a}-{b})", rule="E1")

    def play(self, move: Move | str, player: int | None = None) -> Move:
        """Validate and play one action in the current round (see :meth:`Round.play`).

        Raises:
            IllegalMoveError: rule ``M1`` while round 2's layout is still to be chosen; ``M3`` after a
                resignation; ``E1`` once over; any error of :meth:`Round.play`.
            NotYourTurnError, InvalidInputError: as :meth:`Round.play`.
        """
        self._refuse_if_over()
        if self.phase == "choosing_layout":
            raise IllegalMoveError(
                f"round 1 is over; player {1 - self._first} must first choose the layout of round 2",
                rule="M1", chooser=1 - self._first,
            )
        return self.rounds[-1].play(move, player)

    def choose_layout(self, player: int, layout: Layout | str) -> Round:
        """Round 2's layout, chosen by the player who did not start round 1, who then starts it (M1).

        ``layout`` may be a :class:`Layout`, a name or 9 coordinates (see :meth:`Layout.parse`);
        the same layout as round 1 is allowed. Returns the new round.

        Raises:
            IllegalMoveError: rule ``M1`` if no layout is to be chosen now; ``M3``/``E1`` once over.
            NotYourTurnError: ``player`` is not the chooser (M1).
            InvalidInputError: bad player or layout.
        """
        self._check_player(player)
        self._refuse_if_over()
        if self.phase != "choosing_layout":
            raise IllegalMoveError("round 2's layout is chosen only once round 1 is over", rule="M1")
        chooser = 1 - self._first
        if player != chooser:
            raise NotYourTurnError(
                "the player who did not start round 1 chooses the layout of round 2 (M1)", chooser=chooser
            )
        if isinstance(layout, str):
            layout = Layout.parse(layout)
        rnd = Round(layout, chooser)
        self.rounds.append(rnd)
        return rnd

    def resign(self, player: int) -> None:
        """``player`` resigns: the match ends at once as their loss (M3).

        Raises IllegalMoveError (rule M3) if the match is already over; InvalidInputError for a bad player.
        """
        self._check_player(player)
        if self.is_over:
            raise IllegalMoveError("the match is already over; there is nothing to resign", rule="M3")
        self._resigned = player

    # -- storage ------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Versioned JSON: ``{"version": 1, "first", "rounds": [Round.to_dict(), ...], "resigned",
        "phase", "totals"}`` (``phase`` and ``totals`` are redundant and checked on load)."""
        return {
            "version": STATE_VERSION,
            "first": self._first,
            "rounds": [r.to_dict() for r in self.rounds],
            "resigned": self._resigned,
            "phase": self.phase,
            "totals": list(self.totals()),
        }

    @classmethod
    def from_dict(cls, d: Any) -> Match:
        """Load :meth:`to_dict` output, validating it.

        Raises:
            StateError: unknown version; not 1 or 2 rounds; a round 2 before round 1 ended; a round
                started by the wrong player (M1); a bad resignation; any :meth:`Round.from_dict`
                refusal; redundant ``phase``/``totals`` that disagree.
        """
        if not isinstance(d, dict):
            raise StateError("a stored match must be an object")
        if d.get("version") != STATE_VERSION:
            raise StateError(f"unknown match state version {d.get('version')!r} (this engine reads {STATE_VERSION})")
        first = d.get("first")
        if first not in (0, 1) or isinstance(first, bool):
            raise StateError(f"bad 'first' {first!r}: must be 0 or 1")
        raw_rounds = d.get("rounds")
        if not isinstance(raw_rounds, list) or not 1 <= len(raw_rounds) <= 2:
            raise StateError("'rounds' must hold 1 or 2 rounds (M1)")
        rounds: list[Round] = []
        for i, raw in enumerate(raw_rounds, start=1):
            try:
                rnd = Round.from_dict(raw)
            except RuleError as err:
                raise StateError(f"round {i}: {err.message}") from err
            expected = first if i == 1 else 1 - first
            if rnd.first != expected:
                raise StateError(f"round {i} must be started by player {expected}, not {rnd.first} (M1)")
            rounds.append(rnd)
        if len(rounds) == 2 and not rounds[0].is_over:
            raise StateError("round 2 exists but round 1 is not over (M1)")
        resigned = d.get("resigned")
        if resigned is not None and (resigned not in (0, 1) or isinstance(resigned, bool)):
            raise StateError(f"bad 'resigned' {resigned!r}: must be null, 0 or 1")
        if resigned is not None and len(rounds) == 2 and rounds[1].is_over:
            raise StateError("a resignation is stored after both rounds were over (M3)")
        match = cls(first, rounds, resigned)
        if "phase" in d and d["phase"] != match.phase:
            raise StateError(f"stored phase {d['phase']!r} disagrees with the rounds ({match.phase!r})")
        if "totals" in d and d["totals"] != list(match.totals()):
            raise StateError(f"stored totals {d['totals']!r} disagree with the rounds ({list(match.totals())!r})")
        return match

    def __repr__(self) -> str:
        return f"Match(first={self._first}, rounds={[r.record() for r in self.rounds]!r}, phase={self.phase!r})"
