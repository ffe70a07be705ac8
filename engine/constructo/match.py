"""A Constructo match: two rounds, layout choice, totals, draw, resignation and timeout (docs/rules/constructo.md:
M1-M3, C1).

:class:`Match` implements the game protocol (:class:`engine.protocol.GameState`, ``game = "constructo"``); the
stored format (version 2) is documented in ``docs/interfaces.md`` (section engine/constructo).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Literal

from engine.constructo import match_state
from engine.constructo.actions import AgreeDraw, ChooseLayout, MatchAction, Takeback, parse_action
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
from engine.constructo.layout import LAYOUTS, Layout
from engine.constructo.move import Move
from engine.constructo.round import Round
from engine.errors import IllegalMoveError, InvalidInputError, NotYourTurnError, RuleError, StateError
from engine.protocol import Applied, Event, Forfeit, GameOver, Outcome, Result, Timeout, TurnStarted

__all__ = ["Match", "Phase"]

Phase = Literal["playing", "choosing_layout", "over"]

REASON_ROUNDS = "M2"
"""Outcome reason: both rounds were played; higher total wins, equal totals draw."""
REASON_RESIGN = "M3"
"""Outcome reason: a player resigned (the shared ``Forfeit``)."""
REASON_TIMEOUT = "timeout"
"""Outcome reason: a player's time ran out and the opponent claimed the win (the shared ``Timeout``)."""
REASON_AGREED = "agreed"
"""Outcome reason: both players agreed to a draw (:class:`AgreeDraw`): the match is drawn whatever the score."""


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

    __slots__ = ("_ended", "_first", "_log", "rounds")

    def __init__(
        self,
        first: int,
        rounds: list[Round],
        ended: tuple[int, str] | None = None,
        log: list[tuple[int, str]] | None = None,
    ) -> None:
        self._first = first
        self.rounds: list[Round] = rounds
        self._ended = ended  # (seat, reason "M3" | "timeout" | "agreed") after a Forfeit, Timeout or AgreeDraw
        if log is None:  # built from rounds alone: no takeback in them
            log = match_state.history_of(first, rounds)
            if ended is not None:
                log.append(
                    (ended[0], {REASON_RESIGN: "forfeit", REASON_AGREED: "agreed draw"}.get(ended[1], "timeout"))
                )
        self._log: list[tuple[int, str]] = log

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
                raise InvalidInputError(f"unknown Constructo setup options {sorted(unknown)}", options=sorted(unknown))
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
        return Match(self._first, [r.copy() for r in self.rounds], self._ended, list(self._log))

    # -- state --------------------------------------------------------------------------------
    @property
    def setup(self) -> dict[str, Any]:
        """``{"layout": round 1's layout text, "first": 0|1}``."""
        return {"layout": self.rounds[0].layout.to_text(), "first": self._first}

    @property
    def num_players(self) -> int:
        """Always 2 (C1)."""
        return 2

    @property
    def history(self) -> list[tuple[int, str]]:
        """Every applied action as ``(player, text)`` in order (a new list): moves in notation, ``"layout ..."``,
        ``"takeback"`` (after the move it took back, which stays in the history), ``"forfeit"``, ``"timeout"``,
        ``"agreed draw"``. :meth:`replay` of it rebuilds the match."""
        return list(self._log)

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
        if self._ended is not None:
            return "over"
        if not self.rounds[-1].is_over:
            return "playing"
        return "choosing_layout" if len(self.rounds) == 1 else "over"

    @property
    def is_over(self) -> bool:
        """True after round 2 ended, a resignation or a timeout (M2, M3)."""
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

    def awaiting(self) -> tuple[int, ...]:
        """``(current_player,)`` while the match runs, ``()`` once over."""
        p = self.current_player
        return () if p is None else (p,)

    @property
    def resigned(self) -> int | None:
        """The player who resigned (M3), or ``None`` (also after a timeout)."""
        return self._ended[0] if self._ended is not None and self._ended[1] == REASON_RESIGN else None

    @property
    def timed_out(self) -> int | None:
        """The player who lost on time, or ``None``."""
        return self._ended[0] if self._ended is not None and self._ended[1] == REASON_TIMEOUT else None

    def round_scores(self) -> list[tuple[int, int]]:
        """Each round's ``(player 0, player 1)`` tower count (S2), rounds in order (running count if unfinished)."""
        return [r.score() for r in self.rounds]

    def totals(self) -> tuple[int, int]:
        """Sum of both players' tower counts over the rounds played so far (M2)."""
        scores = self.round_scores()
        return (sum(s[0] for s in scores), sum(s[1] for s in scores))

    @property
    def outcome(self) -> Outcome | None:
        """How the match ended, or ``None`` while it runs.

        Reasons: ``"M2"`` (both rounds: sole higher total WIN/LOSS, equal totals both DRAW in one group),
        ``"M3"`` (resignation) and ``"timeout"`` (the leaving player LOSS, ranked last, in ``forfeited``).
        ``scores`` are the totals (M2) at the end.
        """
        if not self.is_over:
            return None
        totals = self.totals()
        if self._ended is not None and self._ended[1] == REASON_AGREED:
            return Outcome(((0, 1),), REASON_AGREED, (Result.DRAW, Result.DRAW), totals)
        if self._ended is not None:
            loser, reason = self._ended
            results = [Result.WIN, Result.WIN]
            results[loser] = Result.LOSS
            return Outcome(((1 - loser,), (loser,)), reason, tuple(results), totals, (loser,))
        a, b = totals
        if a == b:
            return Outcome(((0, 1),), REASON_ROUNDS, (Result.DRAW, Result.DRAW), totals)
        w = 0 if a > b else 1
        results = [Result.LOSS, Result.LOSS]
        results[w] = Result.WIN
        return Outcome(((w,), (1 - w,)), REASON_ROUNDS, tuple(results), totals)

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

    def _check_player(self, player: Any) -> int:
        if player not in (0, 1) or isinstance(player, bool):
            raise InvalidInputError(f"player must be 0 or 1, not {player!r}", player=player)
        return int(player)

    def _refuse_if_over(self) -> None:
        if self._ended is not None:
            seat, reason = self._ended
            if reason == REASON_RESIGN:
                raise IllegalMoveError(f"the match is over: player {seat} resigned", rule="M3", resigned=seat)
            if reason == REASON_AGREED:
                raise IllegalMoveError("the match is over: the players agreed to a draw", rule="E1")
            raise IllegalMoveError(f"the match is over: player {seat} ran out of time", rule="E1", timed_out=seat)
        if self.is_over:
            a, b = self.totals()
            raise IllegalMoveError(f"the match is over (both rounds played, totals {a}-{b})", rule="E1", totals=(a, b))

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
        if isinstance(action, Forfeit):
            self._check_player(action.player)
            if self.is_over:
                raise IllegalMoveError("the match is already over; there is nothing to resign", rule="M3")
            return action
        if isinstance(action, Timeout):
            seat = self._check_player(action.player)
            self._refuse_if_over()
            if seat not in self.awaiting():
                raise NotYourTurnError(
                    f"player {seat} cannot run out of time: the match waits for player {self.current_player}",
                    player=seat,
                    awaiting=list(self.awaiting()),
                )
            return action
        if isinstance(action, AgreeDraw):
            self._check_player(action.player)
            self._refuse_if_over()
            return action
        if isinstance(action, Takeback):
            self._check_takeback(self._check_player(action.player))
            return action
        if isinstance(action, ChooseLayout):
            seat = self._check_player(action.player)
            self._refuse_if_over()
            if self.phase != "choosing_layout":
                raise IllegalMoveError("round 2's layout is chosen only once round 1 is over", rule="M1")
            chooser = 1 - self._first
            if seat != chooser:
                raise NotYourTurnError(
                    "the player who did not start round 1 chooses the layout of round 2 (M1)", chooser=chooser
                )
            return action
        if not isinstance(action, Move):
            raise InvalidInputError(f"not a Constructo action: {action!r}")
        self._refuse_if_over()
        if self.phase == "choosing_layout":
            raise IllegalMoveError(
                f"round 1 is over; player {1 - self._first} must first choose the layout of round 2",
                rule="M1",
                chooser=1 - self._first,
            )
        rnd = self.rounds[-1]
        move = rnd.check(action)
        return move.by(rnd.current_player)

    def last_move(self, seat: int) -> str | None:
        """The notation of the last move still on the board (the current round's, not taken back) when ``seat``
        made it: the one move a :class:`Takeback` by ``seat`` may undo; ``None`` once over, before any move of
        the round, or when the other player made it."""
        rnd = self.rounds[-1]
        if self._ended is not None or self.is_over or not rnd.codes or rnd.current_player == seat:
            return None
        return str(rnd.last_move)

    def takeback_plies(self, seat: int) -> int:
        """How many moves a takeback asked for by ``seat`` undoes (lichess's rule): 1 when the last move on the
        board is ``seat``'s, 2 when it is the opponent's reply to ``seat``'s move (the reply goes too), else 0."""
        if self.last_move(seat) is not None:
            return 1
        if self.last_move(1 - seat) is not None and len(self.rounds[-1].codes) >= 2:
            return 2
        return 0

    def _check_takeback(self, seat: int) -> None:
        self._refuse_if_over()
        if self.last_move(seat) is None:
            raise IllegalMoveError(
                f"player {seat} has no move to take back: only the last move on the board, theirs, can be",
                rule="takeback",
                player=seat,
            )

    def apply(self, action: MatchAction) -> Applied:
        """Validate and apply ``action``; append it (resolved) to :attr:`history`. Returns the resolved action
        and its events (see :mod:`engine.constructo.events`). Raises like :meth:`check`; nothing changes then.
        """
        resolved = self.check(action)
        events: list[Event] = []
        if isinstance(resolved, Forfeit | Timeout):
            self._ended = (resolved.player, REASON_RESIGN if isinstance(resolved, Forfeit) else REASON_TIMEOUT)
            events.append(Resigned(resolved.player) if isinstance(resolved, Forfeit) else TimedOut(resolved.player))
        elif isinstance(resolved, AgreeDraw):
            self._ended = (resolved.player, REASON_AGREED)
            events.append(DrawAgreed(resolved.player))
        elif isinstance(resolved, Takeback):
            text = str(self.rounds[-1].last_move)
            self.rounds[-1].undo_code()  # the pure inverse of the move: the position before it, exactly
            events.append(TakenBack(resolved.player, text, len(self.rounds)))
        elif isinstance(resolved, ChooseLayout):
            self.rounds.append(Round(resolved.layout, resolved.player))
            events.append(LayoutChosen(resolved.player, 2, resolved.layout))
        else:
            assert isinstance(resolved, Move) and resolved.player is not None
            rnd = self.rounds[-1]
            if resolved.is_place:
                assert resolved.size is not None and resolved.tile is not None
                rnd.apply_code(resolved.code)
                events.append(ChipPlaced(resolved.player, resolved.size, resolved.tile))
            else:
                assert resolved.src is not None and resolved.dst is not None
                size = rnd.tile(resolved.src)[0][1]
                rnd.apply_code(resolved.code)
                events.append(
                    ChipMoved(
                        resolved.player,
                        size,
                        resolved.src,
                        resolved.dst,
                        rnd.is_swallow(resolved.dst),
                        len(rnd.tile(resolved.dst)),
                        rnd.tower_owner(resolved.dst),
                    )
                )
            if rnd.is_over:
                events.append(RoundOver(len(self.rounds), rnd.score(), rnd.current_player))
        assert resolved.player is not None  # check() resolved it
        self._log.append((resolved.player, str(resolved)))
        outcome = self.outcome
        if outcome is not None:
            events.append(GameOver(outcome))
        else:
            current = self.current_player
            assert current is not None
            events.append(TurnStarted(current))
        return Applied(resolved, tuple(events))

    def play(self, move: Move | str, player: int | None = None) -> Move:
        """Convenience: apply one move (a :class:`Move` or notation like ``"L5"``, ``"3-4"``) by ``player``
        (default: the move's own player, else the player to move). Returns the resolved move.

        Raises what :meth:`check` raises (``M1`` while round 2's layout is to be chosen, ``NotYourTurn``...).
        """
        m = Move.parse(move)
        if player is not None:
            self._check_player(player)
            m = m.by(player)
        played = self.apply(m).action
        assert isinstance(played, Move)
        return played

    def choose_layout(self, player: int, layout: Layout | str) -> Round:
        """Convenience: apply :class:`ChooseLayout` (M1; ``layout`` a :class:`Layout`, a name or 9 coordinates;
        the same layout as round 1 is allowed). Returns the new round. Raises like :meth:`check`."""
        self.apply(ChooseLayout(self._check_player(player), layout))  # type: ignore[arg-type]
        return self.rounds[-1]

    def resign(self, player: int) -> None:
        """Convenience: apply ``Forfeit(player)`` (M3). Raises IllegalMoveError (M3) once over."""
        self.apply(Forfeit(self._check_player(player)))

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
        return f"Match(first={self._first}, rounds={[r.record() for r in self.rounds]!r}, phase={self.phase!r})"
