"""The CONEX game: the thin front of the engine (docs/rules/conex.md; rule codes U1-U3, A1-A3, P1-P5, V1-V3, X1-X3,
E1-E3 as written there).

``Game`` implements the game protocol (:class:`engine.protocol.GameState`, ``game = "conex"``) over a
:class:`~engine.conex.position.Position` (the state and its queries). It holds no rule of its own: checks live in
``engine/conex/checks.py``, what each action does in ``engine/conex/turns.py``, the placement finder in
``engine/conex/finder.py``, serialisation in ``engine/conex/state.py`` (format: docs/conex-state.md); each is a
set of functions over a ``Position`` and none imports this module. It is pure and deterministic: all chance comes
from the setup's ``seed`` (the shuffle, die rolls, random discards; see ``engine/conex/fair.py``), so a game
replays exactly from its setup + history.
"""

from __future__ import annotations

import pickle
from collections.abc import Sequence
from typing import Any, ClassVar

from engine.conex import checks, finder, state, turns
from engine.conex.actions import Discard, Draw, GameAction, Lightning, Pass, Place, parse_action
from engine.conex.position import DIE_FACES, Position
from engine.conex.table import Target, Verdict
from engine.errors import RuleError
from engine.protocol import Applied, Event, Forfeit, Timeout

__all__ = ["DIE_FACES", "Game", "GameAction"]


class Game(Position):
    """A CONEX game for 2-4 seats (0-based; seat 0 starts and keeps the start-player marker, U1).

    Build with :meth:`new`, :meth:`from_dict` or :meth:`replay`; change only through :meth:`apply` (or
    :meth:`play`, which returns just the resolved action). Errors: ``NotYourTurnError``, ``InvalidInputError``
    (rule ``Input``), ``IllegalActionError`` with the rule code (A2, A3, P1-P5, V3, X2, X3, E1, ``Forfeited``).
    The state and its queries (hands, board, scores, outcome, ...) are :class:`Position`'s.
    """

    game: ClassVar[str] = "conex"
    STATE_VERSION: ClassVar[int] = 2

    # --- construction ----------------------------------------------------------------------------------------

    @classmethod
    def replay(cls, setup: dict[str, Any], history: Sequence[tuple[int, str]]) -> Game:
        """``new(setup)`` then every ``(seat, text)`` of ``history`` applied (forfeits and timeouts included).
        Raises the refused entry's ``RuleError`` (``details["index"]`` = its 0-based position)."""
        g = cls.new(setup)
        for i, (seat, text) in enumerate(history):
            try:
                g.apply(g.parse_action(text, seat))
            except RuleError as err:
                raise type(err)(f"history entry {i} {text!r}: {err.message}", rule=err.rule, index=i) from err
        return g

    def to_dict(self) -> dict[str, Any]:
        """The full state as JSON-ready data, ``"version": 2`` (format: docs/conex-state.md)."""
        return state.to_dict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Game:
        """Load a state written by ``to_dict`` (version 2) or by the bot before the game protocol (version 1,
        migrated by replaying its history through :meth:`apply`; see docs/conex-state.md). Raises ``StateError``
        for an unknown version, broken card conservation, a bad seat or turn, malformed numbers or a stored
        outcome that disagrees."""
        return state.from_dict(cls, d, cls.apply)

    def copy(self) -> Game:
        """An independent copy (table geometry included), for AI search and what-if checks."""
        out: Game = pickle.loads(pickle.dumps(self))
        return out

    def view_for(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (``None`` = a spectator) may see: ``to_dict()`` without the seed and the pile order,
        other hands as counts, others' discards masked (docs/conex-state.md)."""
        return state.view_for(self, seat)

    # --- actions ---------------------------------------------------------------------------------------------

    def parse_action(self, text: str, seat: int) -> GameAction:
        """The action for ``text`` by ``seat``: ``"forfeit"``, ``"timeout"`` or a CONEX action's text
        (``Action.parse``). Raises ``InvalidInputError`` quoting the bad text."""
        return parse_action(text, seat)

    def legal_actions(self, seat: int) -> list[GameAction]:
        """``seat``'s legal actions now, without the shared ``Forfeit``/``Timeout``: a seat owing a discard
        lists a ``Discard`` per hand card; the seat to play ``Draw`` (or ``Pass``), every ``Lightning`` it may
        use, and the finder's best two poses per hand card (plus each best pose with the 2x star when usable);
        the seat that just finished may still list ``Lightning`` (X3). Empty when the seat may not act. CPU
        work (the finder): seconds on a crowded table."""
        if self.is_over or seat in self.forfeited or not 0 <= seat < self.players:
            return []
        out: list[GameAction] = []
        if self.can_lightning(seat):
            out += [Lightning(seat, tc.id) for tc in self.board.cards if self.board.is_free(tc.id)]
        if seat in self.pending_discards:
            return [Discard(seat, c) for c in self.hands[seat]] + out
        if seat != self.to_play:
            return out
        out.append(Draw(seat) if self.pile else Pass(seat))
        double = self.star_usable(seat, "2x")
        for cid in self.hands[seat]:
            found = self.find_placements(seat, cid, limit=2)
            out += found
            if double and found:
                best = found[0]
                out.append(Place(seat, best.card, best.corner, best.x, best.y, best.rotation, True))
        return out

    def check(self, action: GameAction) -> GameAction:
        """Validate ``action`` without changing anything; returns it resolved (a ``Place`` with
        ``rotation=None`` gets the best legal rotation at its point). Check order and rule codes:
        :func:`engine.conex.checks.check`."""
        return checks.check(self, action)

    def check_actor(self, seat: int, kind: type[Place] | type[Discard]) -> None:
        """Raise what :meth:`check` would about ``seat`` acting (game over, a seat that left, the turn, discards)
        before a ``kind`` action's card is known: :func:`engine.conex.checks.check_actor`."""
        checks.check_actor(self, seat, kind)

    def check_place(self, place: Place) -> tuple[Place, Verdict]:
        """``place`` (by the seat to play, turn order already checked) resolved, and the table's verdict on it (its
        target). Raises like :meth:`check` for the place-specific rules (P1-P5, V3, X2, ``Input``)."""
        return checks.check_place(self, place)

    def points_for(self, place: Place) -> int:
        """The points ``place`` would score (V1 corner value, V2 +2 on a +2 card, V3 doubled with ``double``).

        Raises the same errors as ``check``.
        """
        self.check(place)
        resolved, verdict = self.check_place(place)
        return turns.points(self, resolved, verdict)

    def apply(self, action: GameAction) -> Applied:
        """Validate and apply ``action``; append it (resolved) to :attr:`history`. Returns the resolved action and
        its events (``engine/conex/events.py``). Raises like :meth:`check`, and then nothing changes."""
        resolved = self.check(action)
        events: list[Event] = []
        p = resolved.player
        if isinstance(resolved, Forfeit):
            turns.forfeit(self, p, events)
        elif isinstance(resolved, Timeout):
            turns.timeout(self, p, events)
        else:
            self.timeouts[p] = 0
            if isinstance(resolved, Place):
                _, verdict = self.check_place(resolved)
                turns.place(self, resolved, verdict, events)
            elif isinstance(resolved, Draw):
                turns.draw_turn(self, p, events)
            elif isinstance(resolved, Pass):
                turns.pass_turn(self, p, events)
            elif isinstance(resolved, Lightning):
                turns.lightning(self, resolved, events)
            else:
                turns.discard(self, p, resolved.card, events)
        self.history.append((p, str(resolved)))
        return Applied(resolved, tuple(events))

    def play(self, action: GameAction) -> GameAction:
        """``apply(action).action``: validate, apply, return the resolved action."""
        resolved: GameAction = self.apply(action).action
        return resolved

    def play_text(self, text: str, player: int) -> GameAction:
        """``play(parse_action(text, player))``."""
        return self.play(self.parse_action(text, player))

    # --- the placement finder (engine/conex/finder.py) -------------------------------------------------------

    def find_placements(
        self,
        player: int,
        card_id: int,
        corner: int | None = None,
        target: int | str | None = None,
        limit: int = 10,
        failed: list[Exception] | None = None,
    ) -> list[Place]:
        """Legal poses for ``card_id`` from ``player``'s hand, best first (points, then clearance), at most
        ``limit``, spread out (no two near-identical). ``corner``/``target`` (a table card id or ``"board"``)
        narrow the search. Coordinates are rounded to 1 mm and whole degrees and every result passes ``check``
        (for the seat to move). Deterministic. Raises ``InvalidInputError`` for unknown ids. ``failed``, if given,
        collects the geometry library's failures on targets it could not search (``finder._or``).
        """
        return finder.find_placements(self, player, card_id, corner, target, limit, failed)

    def auto_fit(self, player: int, card_id: int, corner: int, target: int | str) -> Place:
        """The single best legal pose of ``corner`` of ``card_id`` on ``target``; if none, raises
        ``IllegalActionError`` ("no legal pose for corner 2 of card 31 on card #7: ...") saying why, with the
        rule and machine-readable details of ``engine/conex/finder_explain.py``."""
        return finder.auto_fit(self, player, card_id, corner, target)

    def targets_for(self, player: int, card_id: int, corner: int) -> list[Target]:
        """The targets (table card ids, ``"board"``) where ``corner`` of ``card_id`` from ``player``'s hand can
        legally go now (P1 colour and a pose the finder finds), best points first (V2: +2 cards), then newest
        first, the board last. For the ``target`` autocomplete. Raises ``InvalidInputError`` for unknown ids,
        ``IllegalActionError`` (P5) for a card not in that hand."""
        return finder.targets_for(self, player, card_id, corner)

    def legal_counts(self, player: int, cap: int = 9) -> dict[int, int]:
        """For each card in ``player``'s hand, how many distinct legal placements the finder offers, capped at
        ``cap`` (for the hand image)."""
        return {cid: len(finder.find_placements(self, player, cid, None, None, cap)) for cid in self.hands[player]}
