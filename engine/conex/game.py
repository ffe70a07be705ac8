"""The CONEX game state: set-up, turns, checks, forfeits and timeouts, end (rules/conex.md sections 3, 4, 6-8).

``Game`` implements the game protocol (:class:`engine.protocol.GameState`, ``game = "conex"``). It is pure and
deterministic: all chance comes from the setup's ``seed`` (the shuffle, die rolls, random discards; see
``engine/conex/fair.py``), so a game replays exactly from its setup + history. What each action does lives in
``engine/conex/turns.py``; the placement finder in ``engine/conex/finder.py``; serialisation in
``engine/conex/state.py`` (format: docs/conex-state.md).
"""

from __future__ import annotations

import pickle
from collections.abc import Sequence
from typing import Any, ClassVar

from engine.conex import checks, finder, finder_explain, state, turns
from engine.conex.actions import Action, AnyAction, Discard, Draw, Lightning, Pass, Place
from engine.conex.deck import Card, load_deck
from engine.conex.fair import deal
from engine.conex.geometry import TABLE_SIZES_MM
from engine.conex.table import Table, TableCard, Target, Verdict
from engine.errors import InvalidInputError, RuleError
from engine.protocol import Applied, Event, Forfeit, Outcome, Timeout, parse_shared_action

DIE_FACES: tuple[str, ...] = ("card", "two cards", "lightning", "lightning", "2x", "2x")  # X1
STARS: tuple[str, ...] = ("2x", "lightning")
HAND_SIZE = 5  # U2
MIN_GOAL, MAX_GOAL, DEFAULT_GOAL = 20, 100, 40  # U3
DEFAULT_TIMEOUT_FORFEIT = 3
MAX_SEED_BITS = 256

GameAction = AnyAction | Forfeit | Timeout
"""Every action a :class:`Game` accepts: the CONEX actions plus the shared ``Forfeit`` and ``Timeout``."""

_SETUP_KEYS = ("players", "seed", "table", "goal", "bots", "timeout_forfeit")


class Game:
    """A CONEX game for 2-4 seats (0-based; seat 0 starts and keeps the start-player marker, U1).

    Build with :meth:`new`, :meth:`from_dict` or :meth:`replay`; change only through :meth:`apply` (or
    :meth:`play`, which returns just the resolved action). Errors: ``NotYourTurnError``, ``InvalidInputError``
    (rule ``Input``), ``IllegalActionError`` with the rule code (A2, A3, P1-P5, V3, X2, X3, E1, ``Forfeited``).
    """

    game: ClassVar[str] = "conex"
    STATE_VERSION: ClassVar[int] = 2
    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 4

    def __init__(
        self, players: int, seed: int, table: str, goal: int, bots: Sequence[int] = (),
        timeout_forfeit: int = DEFAULT_TIMEOUT_FORFEIT,
    ) -> None:
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
            raise InvalidInputError(f"U1: CONEX is for 2-4 players, not {players!r}", players=players)
        if isinstance(seed, bool) or not isinstance(seed, int) or seed.bit_length() > MAX_SEED_BITS:
            raise InvalidInputError(f"the seed must be a whole number of at most {MAX_SEED_BITS} bits", seed=seed)
        if table not in TABLE_SIZES_MM:
            raise InvalidInputError(
                f"G2: table size must be one of {', '.join(TABLE_SIZES_MM)}, not {table!r}", table=table
            )
        if isinstance(goal, bool) or not isinstance(goal, int) or not MIN_GOAL <= goal <= MAX_GOAL:
            raise InvalidInputError(f"U3: the goal must be {MIN_GOAL}-{MAX_GOAL} points, not {goal!r}", goal=goal)
        if isinstance(bots, str | bytes) or not all(
            isinstance(b, int) and not isinstance(b, bool) and 0 <= b < players for b in bots
        ) or len(set(bots)) != len(bots):
            raise InvalidInputError(f"bots must be distinct seats 0..{players - 1}, not {bots!r}", bots=bots)
        if isinstance(timeout_forfeit, bool) or not isinstance(timeout_forfeit, int) or timeout_forfeit < 1:
            raise InvalidInputError(
                f"timeout_forfeit must be a whole number >= 1, not {timeout_forfeit!r}", timeout_forfeit=timeout_forfeit
            )
        self.players = players
        self.seed = seed
        self.table_size = table
        self.goal = goal
        self.bots: tuple[int, ...] = tuple(sorted(bots))
        self.timeout_forfeit = timeout_forfeit
        self.deck: dict[int, Card] = {c.id: c for c in load_deck()}
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.pile: list[int] = []  # index 0 is the top
        self.board = Table(table)
        self.scores: list[int] = [0] * players
        self.to_play = 0  # the seat whose turn it is (or was, once over); ``current_player`` is None once over
        self.turn = 0  # number of turns completed; the turn in progress has this number
        self.star_holder: dict[str, int | None] = dict.fromkeys(STARS)
        self.star_since: dict[str, int | None] = dict.fromkeys(STARS)  # the turn a star was taken (X2)
        self.pending_discards: set[int] = set()
        self.passes = 0  # consecutive passes (E2); a forfeited seat's skipped turn counts as one
        self.goal_reached = False
        self.end_reason: str | None = None  # "E1" | "E2-pass" | "E2-empty" | "forfeit" once over
        self.rolls = 0  # die rolls used (the die is re-derived from seed + this counter)
        self.window: tuple[int, int] | None = None  # (seat, turn): that seat may still use lightning (end of turn)
        self.forfeited: set[int] = set()
        self.timeouts: list[int] = [0] * players  # consecutive timeouts per seat (reset when the seat acts)
        self.history: list[tuple[int, str]] = []

    # --- construction ----------------------------------------------------------------------------------------

    @classmethod
    def new(cls, setup: dict[str, Any] | None = None, /, **options: Any) -> Game:
        """A fresh game from ``setup`` (and/or the same keys as keyword options, which win):

        ``players`` (2-4, U1), ``seed`` (a whole number, required: the bot draws it from ``secrets``; the
        engine never makes one up), ``table`` (``"small" | "medium" | "large"``, default medium, G2), ``goal``
        (20-100, default 40, U3), ``bots`` (seats played by a program, default none: the game ends at once when
        only they are left), ``timeout_forfeit`` (consecutive timeouts that forfeit a seat, default 3).

        The deal is :func:`engine.conex.fair.deal` (U2). Raises ``InvalidInputError`` for a bad or unknown option.
        """
        if setup is not None and not isinstance(setup, dict):
            raise InvalidInputError(f"a CONEX setup is a dict of options, not {setup!r}")
        opts = {**(setup or {}), **options}
        unknown = set(opts) - set(_SETUP_KEYS)
        if unknown:
            raise InvalidInputError(f"unknown CONEX setup options {sorted(unknown)}", options=sorted(unknown))
        for key in ("players", "seed"):
            if key not in opts:
                raise InvalidInputError(f"a CONEX setup needs {key!r}", option=key)
        g = cls(
            opts["players"], opts["seed"], opts.get("table", "medium"), opts.get("goal", DEFAULT_GOAL),
            list(opts.get("bots", ())), opts.get("timeout_forfeit", DEFAULT_TIMEOUT_FORFEIT),
        )
        g.hands, g.pile = deal(g.seed, g.players)
        return g

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
        migrated; see docs/conex-state.md). Raises ``StateError`` for an unknown version, broken card
        conservation, a bad seat or turn, malformed numbers or a stored outcome that disagrees."""
        return state.from_dict(cls, d)

    def copy(self) -> Game:
        """An independent copy (table geometry included), for AI search and what-if checks."""
        out: Game = pickle.loads(pickle.dumps(self))
        return out

    def view_for(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (``None`` = a spectator) may see: ``to_dict()`` without the seed and the pile order,
        other hands as counts, others' discards masked (docs/conex-state.md)."""
        return state.view_for(self, seat)

    # --- protocol queries ------------------------------------------------------------------------------------

    @property
    def setup(self) -> dict[str, Any]:
        """``{"players", "seed", "table", "goal", "bots", "timeout_forfeit"}``: ``replay(setup, history)``
        rebuilds this game."""
        return {
            "players": self.players, "seed": self.seed, "table": self.table_size, "goal": self.goal,
            "bots": list(self.bots), "timeout_forfeit": self.timeout_forfeit,
        }

    @property
    def num_players(self) -> int:
        """Seats in the game, forfeited ones included."""
        return self.players

    @property
    def is_over(self) -> bool:
        """True once the game ended (E1, E2, or too few seats left after forfeits)."""
        return self.end_reason is not None

    @property
    def current_player(self) -> int | None:
        """The seat to make the next main action, ``None`` once over."""
        return None if self.is_over else self.to_play

    def awaiting(self) -> tuple[int, ...]:
        """The seat to play plus every seat owing an X3 discard, in seat order; ``()`` once over."""
        if self.is_over:
            return ()
        return tuple(sorted(self.pending_discards | {self.to_play}))

    @property
    def in_play(self) -> list[int]:
        """Seats that have not forfeited, in seat order."""
        return [s for s in range(self.players) if s not in self.forfeited]

    @property
    def outcome(self) -> Outcome | None:
        """E3 once over: seats in play by score (ties share a group), forfeited seats after them; every tied
        leader wins, everyone else loses. ``reason`` = :attr:`end_reason`. ``None`` while the game runs."""
        return turns.outcome_of(self) if self.is_over else None

    def standings(self) -> tuple[tuple[int, ...], ...]:
        """The E3 ranking groups as they stand (best first; ties share a group; forfeited seats last): the
        outcome's ranking once over."""
        return turns.standings(self)

    @property
    def winners(self) -> list[int]:
        """E3: the seats that won (all tied leaders in play); empty while the game runs."""
        outcome = self.outcome
        return list(outcome.winners) if outcome is not None else []

    def hand(self, player: int) -> list[Card]:
        """Seat ``player``'s cards, in the order received."""
        return [self.deck[i] for i in self.hands[self._seat(player)]]

    @property
    def draw_pile(self) -> list[Card]:
        """The draw pile, top first (engine-private: views show only its size)."""
        return [self.deck[i] for i in self.pile]

    @property
    def table(self) -> list[TableCard]:
        """Cards on the table in play order (G6: later cards lie on top)."""
        return list(self.board.cards)

    @property
    def stars(self) -> dict[str, int | None]:
        """``{"2x": holder, "lightning": holder}``; ``None`` = in the supply."""
        return dict(self.star_holder)

    @property
    def table_size_mm(self) -> tuple[float, float]:
        return TABLE_SIZES_MM[self.table_size]

    def star_usable(self, player: int, star: str) -> bool:
        """X2: ``player`` holds ``star`` and took it before the turn now in progress began."""
        since = self.star_since[star]
        return self.star_holder[star] == player and since is not None and since < self.turn

    def can_lightning(self, player: int) -> bool:
        """X3: ``player`` may use the lightning star now (start of their turn, or the end of the turn they just
        finished while the next player has not acted), holding it since an earlier turn (X2)."""
        if self.is_over or self.star_holder["lightning"] != player:
            return False
        since = self.star_since["lightning"]
        assert since is not None
        if player == self.to_play and since < self.turn:
            return True
        return self.window is not None and self.window[0] == player and since < self.window[1]

    def _seat(self, player: object) -> int:
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.players:
            raise InvalidInputError(f"no seat {player!r} in a {self.players}-player game", player=player)
        return player

    def _card(self, card_id: object) -> Card:
        if isinstance(card_id, bool) or not isinstance(card_id, int) or card_id not in self.deck:
            raise InvalidInputError(f"there is no card {card_id!r} (cards are numbered 1-52)", card=card_id)
        return self.deck[card_id]

    # --- actions ---------------------------------------------------------------------------------------------

    def parse_action(self, text: str, seat: int) -> GameAction:
        """The action for ``text`` by ``seat``: ``"forfeit"``, ``"timeout"`` or a CONEX action's text
        (``Action.parse``). Raises ``InvalidInputError`` quoting the bad text."""
        shared = parse_shared_action(text, seat)
        return shared if shared is not None else Action.parse(text, seat)

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

    def _check_place(self, place: Place) -> tuple[Place, Verdict]:
        return checks.check_place(self, place)

    def points_for(self, place: Place) -> int:
        """The points ``place`` would score (V1 corner value, V2 +2 on a +2 card, V3 doubled with ``double``).

        Raises the same errors as ``check``.
        """
        self.check(place)
        resolved, verdict = self._check_place(place)
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
                _, verdict = self._check_place(resolved)
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
        self, player: int, card_id: int, corner: int | None = None, target: int | str | None = None, limit: int = 10
    ) -> list[Place]:
        """Legal poses for ``card_id`` from ``player``'s hand, best first (points, then clearance), at most
        ``limit``, spread out (no two near-identical). ``corner``/``target`` (a table card id or ``"board"``)
        narrow the search. Coordinates are rounded to 1 mm and whole degrees and every result passes ``check``
        (for the seat to move). Deterministic. Raises ``InvalidInputError`` for unknown ids.
        """
        return finder.find_placements(self, player, card_id, corner, target, limit)

    def auto_fit(self, player: int, card_id: int, corner: int, target: int | str) -> Place:
        """The single best legal pose of ``corner`` of ``card_id`` on ``target``; if none, raises
        ``IllegalActionError`` ("no legal pose for corner 2 of card 31 on card #7: ...") saying why, with the
        rule and machine-readable details of ``engine/conex/finder_explain.py``."""
        return finder_explain.auto_fit(self, player, card_id, corner, target)

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

    def __repr__(self) -> str:
        return (
            f"<conex.Game players={self.players} turn={self.turn} to_play={self.to_play} scores={self.scores} "
            f"pile={len(self.pile)} table={len(self.board.cards)} forfeited={sorted(self.forfeited)} "
            f"over={self.end_reason}>"
        )
