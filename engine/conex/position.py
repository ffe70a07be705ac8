"""The CONEX position: everything a game is at one moment, and the questions it answers without changing
(docs/rules/conex.md sections 3, 4, 8). The bottom layer of ``engine/conex``: it imports no rule module.

Layers (imports point down only)::

    game.py                    Game: the thin front (protocol, dispatch)
    checks.py turns.py state.py finder*.py   rules as functions over a Position
    position.py                Position: state + queries (this module)
    table.py deck.py geometry.py actions.py ...  values and geometry

A :class:`Position` is mutated only by ``engine/conex/turns.py`` (and loaded by ``engine/conex/state.py``), both
called by ``Game.apply``/``Game.from_dict``. Seats are 0-based ints; card ids 1-52; lengths in mm.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Self

from engine.conex.deck import Card, load_deck
from engine.conex.fair import deal
from engine.conex.geometry import TABLE_SIZES_MM
from engine.conex.table import Table, TableCard
from engine.errors import InvalidInputError, quoted
from engine.protocol import Outcome, Result

DIE_FACES: tuple[str, ...] = ("card", "two cards", "lightning", "lightning", "2x", "2x")  # X1
STARS: tuple[str, ...] = ("2x", "lightning")
HAND_SIZE = 5  # U2
MIN_GOAL, MAX_GOAL, DEFAULT_GOAL = 20, 100, 40  # U3
DEFAULT_TIMEOUT_FORFEIT = 3
MAX_SEED_BITS = 256

REASON_GOAL = "E1"
"""The goal was reached and the round completed."""
REASON_ALL_PASSED = "E2-pass"
"""Every seat passed in one go-round (a forfeited seat's skipped turn counts as a pass)."""
REASON_EMPTY = "E2-empty"
"""All hands and the draw pile are empty."""
REASON_FORFEIT = "forfeit"
"""Fewer than two seats, or only ``bots`` seats, are left after a forfeit."""
END_REASONS: tuple[str, ...] = (REASON_GOAL, REASON_ALL_PASSED, REASON_EMPTY, REASON_FORFEIT)

SETUP_KEYS: tuple[str, ...] = ("players", "seed", "table", "goal", "bots", "timeout_forfeit")
"""The keys of a CONEX setup (``Position.new``)."""


class Position:
    """A CONEX position for 2-4 seats (0-based; seat 0 starts and keeps the start-player marker, U1).

    Fields (all public, mutated only by the rule modules): ``hands`` (card ids per seat, in the order received),
    ``pile`` (card ids, index 0 the top), ``board`` (the :class:`Table`), ``scores``, ``to_play``, ``turn`` (turns
    completed), ``star_holder``/``star_since`` (X2), ``pending_discards`` (X3), ``passes`` (E2), ``goal_reached``
    (E1), ``end_reason`` (one of :data:`END_REASONS` once over), ``rolls`` (die rolls used), ``window`` (X3:
    ``(seat, turn)`` that may still use lightning), ``forfeited``, ``timeouts``, ``history`` (``(seat, text)``).

    Raises ``InvalidInputError`` (rule ``Input``, or U1/U3/G2 in the message) for a bad option.
    """

    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 4

    def __init__(
        self,
        players: int,
        seed: int,
        table: str,
        goal: int,
        bots: Sequence[int] = (),
        timeout_forfeit: int = DEFAULT_TIMEOUT_FORFEIT,
    ) -> None:
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
            raise InvalidInputError(
                f"U1: CONEX is for 2-4 players, not {quoted(players)}", reason="player_count", players=players
            )
        if isinstance(seed, bool) or not isinstance(seed, int) or seed.bit_length() > MAX_SEED_BITS:
            raise InvalidInputError(
                f"the seed must be a whole number of at most {MAX_SEED_BITS} bits",
                reason="bad_seed",
                seed=seed,
                bits=MAX_SEED_BITS,
            )
        if table not in TABLE_SIZES_MM:
            raise InvalidInputError(
                f"G2: table size must be one of {', '.join(TABLE_SIZES_MM)}, not {quoted(table)}",
                reason="unknown_table",
                table=table,
                sizes=", ".join(TABLE_SIZES_MM),
            )
        if isinstance(goal, bool) or not isinstance(goal, int) or not MIN_GOAL <= goal <= MAX_GOAL:
            raise InvalidInputError(
                f"U3: the goal must be {MIN_GOAL}-{MAX_GOAL} points, not {quoted(goal)}",
                reason="goal_range",
                goal=goal,
                low=MIN_GOAL,
                high=MAX_GOAL,
            )
        if (
            isinstance(bots, str | bytes)
            or not all(isinstance(b, int) and not isinstance(b, bool) and 0 <= b < players for b in bots)
            or len(set(bots)) != len(bots)
        ):
            raise InvalidInputError(
                f"bots must be distinct seats 0..{players - 1}, not {bots!r}",
                reason="bad_bots",
                bots=bots,
                last=players - 1,
            )
        if isinstance(timeout_forfeit, bool) or not isinstance(timeout_forfeit, int) or timeout_forfeit < 1:
            raise InvalidInputError(
                f"timeout_forfeit must be a whole number >= 1, not {timeout_forfeit!r}",
                reason="bad_timeout",
                timeout_forfeit=timeout_forfeit,
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

    @classmethod
    def new(cls, setup: dict[str, Any] | None = None, /, **options: Any) -> Self:
        """A fresh game from ``setup`` (and/or the same keys as keyword options, which win):

        ``players`` (2-4, U1), ``seed`` (a whole number, required: the bot draws it from ``secrets``; the
        engine never makes one up), ``table`` (``"small" | "medium" | "large"``, default medium, G2), ``goal``
        (20-100, default 40, U3), ``bots`` (seats played by a program, default none: the game ends at once when
        only they are left), ``timeout_forfeit`` (consecutive timeouts that forfeit a seat, default 3).

        The deal is :func:`engine.conex.fair.deal` (U2). Raises ``InvalidInputError`` for a bad or unknown option.
        """
        if setup is not None and not isinstance(setup, dict):
            raise InvalidInputError(f"a CONEX setup is a dict of options, not {setup!r}", reason="internal")
        opts = {**(setup or {}), **options}
        unknown = set(opts) - set(SETUP_KEYS)
        if unknown:
            raise InvalidInputError(
                f"unknown CONEX setup options {sorted(unknown)}",
                reason="unknown_options",
                options=sorted(unknown),
                names=", ".join(sorted(map(str, unknown))),
            )
        for key in ("players", "seed"):
            if key not in opts:
                raise InvalidInputError(f"a CONEX setup needs {key!r}", reason="missing_option", option=key)
        g = cls(
            opts["players"],
            opts["seed"],
            opts.get("table", "medium"),
            opts.get("goal", DEFAULT_GOAL),
            list(opts.get("bots", ())),
            opts.get("timeout_forfeit", DEFAULT_TIMEOUT_FORFEIT),
        )
        g.hands, g.pile = deal(g.seed, g.players)
        return g

    # --- queries -------------------------------------------------------------------------------------------------

    @property
    def setup(self) -> dict[str, Any]:
        """``{"players", "seed", "table", "goal", "bots", "timeout_forfeit"}``: ``replay(setup, history)``
        rebuilds this game."""
        return {
            "players": self.players,
            "seed": self.seed,
            "table": self.table_size,
            "goal": self.goal,
            "bots": list(self.bots),
            "timeout_forfeit": self.timeout_forfeit,
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

    def standings(self) -> tuple[tuple[int, ...], ...]:
        """E3 ranking groups as they stand: seats in play by score (best first; ties share a group), then
        forfeited seats (by score): the outcome's ranking once over."""
        groups: list[tuple[int, ...]] = []
        for pool in (self.in_play, sorted(self.forfeited)):
            for score in sorted({self.scores[s] for s in pool}, reverse=True):
                groups.append(tuple(s for s in pool if self.scores[s] == score))
        return tuple(groups)

    @property
    def outcome(self) -> Outcome | None:
        """E3 once over: seats in play by score (ties share a group), forfeited seats after them; every tied
        leader wins, everyone else loses. ``reason`` = :attr:`end_reason`. ``None`` while the game runs."""
        if self.end_reason is None:
            return None
        groups = self.standings()
        leaders = set(groups[0]) - self.forfeited
        results = tuple(Result.WIN if s in leaders else Result.LOSS for s in range(self.players))
        return Outcome(groups, self.end_reason, results, tuple(self.scores), tuple(sorted(self.forfeited)))

    @property
    def winners(self) -> list[int]:
        """E3: the seats that won (all tied leaders in play); empty while the game runs."""
        outcome = self.outcome
        return list(outcome.winners) if outcome is not None else []

    def hand(self, player: int) -> list[Card]:
        """Seat ``player``'s cards, in the order received. Raises ``InvalidInputError`` for no such seat."""
        return [self.deck[i] for i in self.hands[self.seat(player)]]

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
        """The table's (width, height) in mm (G2)."""
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

    def seat(self, player: object) -> int:
        """``player`` as a seat of this game. Raises ``InvalidInputError`` (rule ``Input``) for anything else."""
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.players:
            raise InvalidInputError(
                f"no seat {player!r} in a {self.players}-player game",
                reason="no_seat",
                player=player,
                players=self.players,
            )
        return player

    def card(self, card_id: object) -> Card:
        """The deck's card ``card_id`` (1-52). Raises ``InvalidInputError`` (rule ``Input``) for anything else."""
        if isinstance(card_id, bool) or not isinstance(card_id, int) or card_id not in self.deck:
            raise InvalidInputError(
                f"there is no card {card_id!r} (cards are numbered 1-52)", reason="no_such_card", card=card_id
            )
        return self.deck[card_id]

    def __repr__(self) -> str:
        return (
            f"<conex.{type(self).__name__} players={self.players} turn={self.turn} to_play={self.to_play} "
            f"scores={self.scores} pile={len(self.pile)} table={len(self.board.cards)} "
            f"forfeited={sorted(self.forfeited)} over={self.end_reason}>"
        )


__all__ = [
    "DEFAULT_GOAL",
    "DEFAULT_TIMEOUT_FORFEIT",
    "DIE_FACES",
    "END_REASONS",
    "HAND_SIZE",
    "MAX_GOAL",
    "MAX_SEED_BITS",
    "MIN_GOAL",
    "REASON_ALL_PASSED",
    "REASON_EMPTY",
    "REASON_FORFEIT",
    "REASON_GOAL",
    "SETUP_KEYS",
    "STARS",
    "Position",
]
