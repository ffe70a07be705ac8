"""A Constructo match: two rounds, layout choice, totals, draw, resignation and timeout (docs/rules/constructo.md:
M1-M3, C1).

:class:`Match` implements the game protocol (:class:`engine.protocol.GameState`, ``game = "constructo"``); the
stored format (version 2) is documented in ``docs/interfaces.md`` (section engine/constructo).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from engine.constructo import match_rules, match_state
from engine.constructo.actions import ChooseLayout, MatchAction, parse_action
from engine.constructo.layout import LAYOUTS, Layout
from engine.constructo.match_position import (
    REASON_AGREED,
    REASON_RESIGN,
    REASON_TIMEOUT,
    MatchPosition,
    Phase,
    current_player,
    last_move,
    outcome,
    phase,
    takeback_plies,
    totals,
)
from engine.constructo.move import Move
from engine.constructo.round import Round
from engine.errors import InvalidInputError, RuleError, StateError
from engine.protocol import Applied, Forfeit, Outcome

__all__ = ["Match", "Phase"]


class Match:
    """Two rounds between players 0 and 1 (colours fixed for the match, C1); the game protocol's state.

    M1: the player who starts round 1 (``first``) chose its layout; the other player chooses round 2's layout
    (:class:`ChooseLayout`) and starts round 2. M2: higher total wins, equal totals draw. M3: a ``Forfeit``
    (resignation) ends the match at once as a loss for that player; a ``Timeout`` of the player the match waits
    for ends it the same way (reason ``"timeout"``).

    Build with :meth:`new`, :meth:`replay` or :meth:`from_dict`; change only through :meth:`apply` (or its
    conveniences :meth:`play`, :meth:`choose_layout`, :meth:`resign`).
    """

    game: ClassVar[str] = "constructo"
    STATE_VERSION: ClassVar[int] = 2
    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 2

    __slots__ = ("_pos",)

    def __init__(
        self,
        first: int,
        rounds: list[Round],
        ended: tuple[int, str] | None = None,
        log: list[tuple[int, str]] | None = None,
    ) -> None:
        if log is None:  # built from rounds alone: no takeback in them
            log = match_state.history_of(first, rounds)
            if ended is not None:
                log.append(
                    (ended[0], {REASON_RESIGN: "forfeit", REASON_AGREED: "agreed draw"}.get(ended[1], "timeout"))
                )
        self._pos = MatchPosition(first, rounds, ended, log)

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def new(cls, setup: dict[str, Any] | Layout | str | None = None, first: int | None = None) -> Match:
        """A match from ``setup`` = ``{"layout": name | coordinates | Layout, "first": 0|1}`` (defaults
        ``"rombo"``, 0); ``Match.new(layout, first=0)`` is the same. Round 1 is on that layout (chosen by
        ``first``, M1) and starts with ``first``.

        Raises InvalidInputError for an unknown layout, ``first`` not 0/1, or unknown setup keys.
        """
        if isinstance(setup, dict):
            unknown = set(setup) - {"layout", "first"}
            if unknown:
                raise InvalidInputError(
                    f"unknown Constructo setup options {sorted(unknown)}",
                    reason="unknown_options",
                    options=sorted(unknown),
                    names=", ".join(sorted(map(str, unknown))),
                )
            layout = setup.get("layout", "rombo")
            start = setup.get("first", 0) if first is None else first
        else:
            layout = "rombo" if setup is None else setup
            start = 0 if first is None else first
        if isinstance(layout, str):
            layout = Layout.parse(layout)
        return cls(start, [Round(layout, start)])

    @classmethod
    def replay(cls, setup: dict[str, Any], history: Sequence[tuple[int, str]]) -> Match:
        """``new(setup)`` then every ``(seat, text)`` of ``history`` applied. Raises ``RuleError`` (the
        refused entry's rule; ``details["index"]`` is its 0-based position) for a corrupt record."""
        match = cls.new(setup)
        for i, (seat, text) in enumerate(history):
            try:
                match.apply(match.parse_action(text, seat))
            except RuleError as err:
                raise type(err)(f"history entry {i} {text!r}: {err.message}", rule=err.rule, index=i) from err
        return match

    def copy(self) -> Match:
        """An independent copy (rounds and history copied)."""
        pos = self._pos
        return Match(pos.first, [r.copy() for r in pos.rounds], pos.ended, list(pos.log))

    # -- state --------------------------------------------------------------------------------
    @property
    def rounds(self) -> list[Round]:
        """Round 1, then round 2 once its layout is chosen (the position's own list: change it only by actions)."""
        return self._pos.rounds

    @property
    def setup(self) -> dict[str, Any]:
        """``{"layout": round 1's layout text, "first": 0|1}``."""
        return {"layout": self.rounds[0].layout.to_text(), "first": self._pos.first}

    @property
    def num_players(self) -> int:
        """Always 2 (C1)."""
        return 2

    @property
    def history(self) -> list[tuple[int, str]]:
        """Every applied action as ``(player, text)`` in order (a new list): moves in notation, ``"layout ..."``,
        ``"takeback"`` (after the move it took back, which stays in the history), ``"forfeit"``, ``"timeout"``,
        ``"agreed draw"``. :meth:`replay` of it rebuilds the match."""
        return list(self._pos.log)

    @property
    def first(self) -> int:
        """The player (0/1) who started round 1."""
        return self._pos.first

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
        return phase(self._pos)

    @property
    def is_over(self) -> bool:
        """True after round 2 ended, a resignation or a timeout (M2, M3)."""
        return self.phase == "over"

    @property
    def chooser(self) -> int | None:
        """The player who must choose round 2's layout now (M1: the one who did not start round 1), else None."""
        return 1 - self._pos.first if self.phase == "choosing_layout" else None

    @property
    def current_player(self) -> int | None:
        """The player to act: to move in the current round, or to choose a layout; ``None`` once over."""
        return current_player(self._pos)

    def awaiting(self) -> tuple[int, ...]:
        """``(current_player,)`` while the match runs, ``()`` once over."""
        p = self.current_player
        return () if p is None else (p,)

    @property
    def resigned(self) -> int | None:
        """The player who resigned (M3), or ``None`` (also after a timeout)."""
        ended = self._pos.ended
        return ended[0] if ended is not None and ended[1] == REASON_RESIGN else None

    @property
    def timed_out(self) -> int | None:
        """The player who lost on time, or ``None``."""
        ended = self._pos.ended
        return ended[0] if ended is not None and ended[1] == REASON_TIMEOUT else None

    def round_scores(self) -> list[tuple[int, int]]:
        """Each round's ``(player 0, player 1)`` tower count (S2), rounds in order (running count if unfinished)."""
        return [r.score() for r in self.rounds]

    def totals(self) -> tuple[int, int]:
        """Sum of both players' tower counts over the rounds played so far (M2)."""
        return totals(self._pos)

    @property
    def outcome(self) -> Outcome | None:
        """How the match ended, or ``None`` while it runs.

        Reasons: ``"M2"`` (both rounds: sole higher total WIN/LOSS, equal totals both DRAW in one group),
        ``"M3"`` (resignation) and ``"timeout"`` (the leaving player LOSS, ranked last, in ``forfeited``).
        ``scores`` are the totals (M2) at the end.
        """
        return outcome(self._pos)

    @property
    def winner(self) -> int | None:
        """The match winner once over (``outcome.winners``), ``None`` while playing or for a draw."""
        outcome = self.outcome
        return outcome.winners[0] if outcome is not None and outcome.winners else None

    @property
    def is_draw(self) -> bool:
        """True when the match is over with equal totals after both rounds (M2)."""
        outcome = self.outcome
        return outcome is not None and not outcome.winners

    # -- actions ------------------------------------------------------------------------------
    def parse_action(self, text: str, seat: int) -> MatchAction:
        """The action for ``text`` by ``seat``: notation (``"L5"``, ``"3-4"``), ``"layout <name|coordinates>"``
        (``"layout keep"`` = round 1's layout), ``"forfeit"`` (or ``"resign"``), ``"timeout"``.

        Raises InvalidInputError (rule ``Input``; ``T5`` for ``"pass"``) quoting the bad text.
        """
        if isinstance(text, str) and text.strip().lower() in ("layout keep", "layout"):
            return ChooseLayout(seat, self.rounds[0].layout)
        return parse_action(text, seat)

    def legal_actions(self, seat: int) -> list[MatchAction]:
        """``seat``'s legal actions now (without the shared ``Forfeit``/``Timeout``): every legal move (T1-T5,
        K1-K5) when it is to move, every named layout when it chooses round 2's (M1; custom coordinates are also
        accepted by :meth:`apply`), else ``[]``."""
        if seat != self.current_player:
            return []
        if self.phase == "choosing_layout":
            return [ChooseLayout(seat, layout) for layout in LAYOUTS.values()]
        return [m.by(seat) for m in self.rounds[-1].legal_moves()]

    def check(self, action: MatchAction) -> MatchAction:
        """Validate ``action`` without changing anything; returns it resolved (a :class:`Move` without a player
        gets the player to move).

        Raises:
            IllegalMoveError: rule ``M3``/``E1`` once over; ``M1`` for a move while round 2's layout is to be
                chosen, or a layout choice at any other time; a move's rule (T1-T5, K1-K5, C2) from
                :meth:`Round.check`; ``M3`` for a resignation once over.
            NotYourTurnError: a move or layout choice by the other player; a ``Timeout`` of a player the match
                is not waiting for.
            InvalidInputError: a bad player or action.
        """
        return match_rules.check(self._pos, action)

    def last_move(self, seat: int) -> str | None:
        """The notation of the last move still on the board (the current round's, not taken back) when ``seat``
        made it: the one move a :class:`Takeback` by ``seat`` may undo; ``None`` once over, before any move of
        the round, or when the other player made it."""
        return last_move(self._pos, seat)

    def takeback_plies(self, seat: int) -> int:
        """How many moves a takeback asked for by ``seat`` undoes (lichess's rule): 1 when the last move on the
        board is ``seat``'s, 2 when it is the opponent's reply to ``seat``'s move (the reply goes too), else 0."""
        return takeback_plies(self._pos, seat)

    def apply(self, action: MatchAction) -> Applied:
        """Validate and apply ``action``; append it (resolved) to :attr:`history`. Returns the resolved action
        and its events (see :mod:`engine.constructo.events`). Raises like :meth:`check`; nothing changes then.
        """
        return match_rules.apply(self._pos, action)

    def play(self, move: Move | str, player: int | None = None) -> Move:
        """Convenience: apply one move (a :class:`Move` or notation like ``"L5"``, ``"3-4"``) by ``player``
        (default: the move's own player, else the player to move). Returns the resolved move.

        Raises what :meth:`check` raises (``M1`` while round 2's layout is to be chosen, ``NotYourTurn``...).
        """
        m = Move.parse(move)
        if player is not None:
            match_rules.check_player(player)
            m = m.by(player)
        played = self.apply(m).action
        assert isinstance(played, Move)
        return played

    def choose_layout(self, player: int, layout: Layout | str) -> Round:
        """Convenience: apply :class:`ChooseLayout` (M1; ``layout`` a :class:`Layout`, a name or 9 coordinates;
        the same layout as round 1 is allowed). Returns the new round. Raises like :meth:`check`."""
        self.apply(ChooseLayout(match_rules.check_player(player), layout))  # type: ignore[arg-type]
        return self.rounds[-1]

    def resign(self, player: int) -> None:
        """Convenience: apply ``Forfeit(player)`` (M3). Raises IllegalMoveError (M3) once over."""
        self.apply(Forfeit(match_rules.check_player(player)))

    # -- storage ------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Version-2 JSON (``docs/interfaces.md``): ``{"version": 2, "game": "constructo", "setup", "history",
        "phase", "rounds": [Round.to_dict(), ...], "totals", "outcome"}``; everything after ``history`` is
        redundant and checked on load."""
        outcome = self.outcome
        return {
            "version": self.STATE_VERSION,
            "game": self.game,
            "setup": self.setup,
            "history": [[p, t] for p, t in self.history],
            "phase": self.phase,
            "rounds": [r.to_dict() for r in self.rounds],
            "totals": list(self.totals()),
            "outcome": outcome.to_dict() if outcome is not None else None,
        }

    def view_for(self, seat: int | None) -> dict[str, Any]:
        """Constructo hides nothing: :meth:`to_dict` for every seat and spectators."""
        return self.to_dict()

    @classmethod
    def from_dict(cls, d: Any) -> Match:
        """Load :meth:`to_dict` output (version 2: setup + history replayed, redundant fields checked) or a
        version-1 match (``{"version": 1, "first", "rounds", "resigned", ...}``, migrated: its history is
        rebuilt from the rounds' moves, round 2's layout and the resignation).

        Raises:
            StateError: unknown version; a history the rules refuse; redundant fields that disagree; for
                version 1 every refusal of the old loader (rounds, starters, resignation).
        """
        setup, history, version = match_state.setup_and_history(d, cls.game, cls.STATE_VERSION)
        try:
            match = cls.replay(setup, history)
        except RuleError as err:
            raise StateError(f"the stored match does not replay: {err.message}") from err
        match_state.check_stored(d, version, match.to_dict())
        return match

    def __repr__(self) -> str:
        return f"Match(first={self._pos.first}, rounds={[r.record() for r in self.rounds]!r}, phase={self.phase!r})"
