"""One Constructo round: stacks, reserves, legal actions, play, end and scoring.

Rules implemented (``docs/rules/constructo.md``): C1-C4 (players, chips, layout, numbering), T1-T5 (a
turn), K1-K5 (stacking), S1-S3 (towers and scoring), E1-E2 (end of a round) and the notation of
section 8 (a round's record). The stacking rules as such (which stacks K1-K5 can build) and the structural checks of a
stored position are in ``engine/constructo/stacks.py``.

Internal representation (kept small and fast for the AI search):

* a chip is the int ``(player << 2) | size`` (player 0/1, size 1..3);
* a stack is a tuple of chips, bottom to top; the board is a list of 9 stacks (index = tile - 1);
* reserves are ``[[_, small, medium, large], [...]]`` counts per player;
* an action is an int code (see :attr:`Move.code`): ``size*9 + t`` for placements (9..35) and
  ``36 + 9*src + dst`` for moves (tile indices 0..8).

:meth:`Round.play` always validates. The search uses the unchecked :meth:`Round.apply_code` /
:meth:`Round.undo_code` pair and :meth:`Round.legal_codes`, and :meth:`Round.key` as a hashable key.
"""

from __future__ import annotations

from typing import Any

from engine.constructo.layout import TILES, Layout
from engine.constructo.move import MOVE_BY_CODE, Move, Size
from engine.constructo.stacks import CHIPS_PER_SIZE, SIZE_WORD, can_stack, stack_is_possible, validate_position
from engine.errors import IllegalMoveError, InvalidInputError, NotYourTurnError, RuleError, StateError, quoted

__all__ = ["CHIPS_PER_SIZE", "STATE_VERSION", "Round", "stack_is_possible"]

STATE_VERSION = 1
"""Version written by :meth:`Round.to_dict` (a round's format; the match has its own, ``Match.STATE_VERSION``)."""


class Round:
    """A Constructo round on a layout, players ``0`` and ``1`` (C1), ``first`` to move.

    Args:
        layout: a :class:`Layout` or the name of one in ``LAYOUTS``.
        first: the player (0 or 1) who takes the first action of this round.

    Raises:
        InvalidInputError: unknown layout name or ``first`` not 0/1.

    The search's raw view (read it, change it only through :meth:`apply_code`/:meth:`undo_code`): ``stacks``
    (9 tuples of chip codes ``player << 2 | size``, bottom to top), ``reserves`` (``[[_, S, M, L], [...]]``),
    ``codes`` (the action codes played, :data:`MOVE_BY_CODE`), ``adjacency`` (0-based tile neighbours).
    """

    __slots__ = ("_first", "_layout", "_legal", "_turn", "adjacency", "codes", "reserves", "stacks")

    def __init__(self, layout: Layout | str, first: int = 0) -> None:
        if isinstance(layout, str):
            layout = Layout.parse(layout)
        if not isinstance(layout, Layout):
            raise InvalidInputError(f"a round needs a Layout, not {type(layout).__name__}", reason="internal")
        if first not in (0, 1) or isinstance(first, bool):
            raise InvalidInputError(f"first must be 0 or 1, not {first!r}", rule="C1", reason="bad_first", first=first)
        self._layout: Layout = layout
        self.adjacency: tuple[tuple[int, ...], ...] = layout.adjacency
        self._first: int = first
        self.stacks: list[tuple[int, ...]] = [()] * TILES
        self.reserves: list[list[int]] = [[0, CHIPS_PER_SIZE, CHIPS_PER_SIZE, CHIPS_PER_SIZE] for _ in range(2)]
        self._turn: int = first
        self.codes: list[int] = []
        self._legal: list[int] | None = None

    # -- fast internals (unchecked; for the search) -------------------------------------------
    def legal_codes(self) -> list[int]:
        """Legal action codes of the player to move (cached until the position changes)."""
        cached = self._legal
        if cached is not None:
            return cached
        p = self._turn
        stacks = self.stacks
        res = self.reserves[p]
        out: list[int] = []
        sizes = [s for s in (1, 2, 3) if res[s]]
        if sizes:
            for t in range(TILES):
                if not stacks[t]:
                    for s in sizes:
                        out.append(s * 9 + t)
        nbrs = self.adjacency
        for t in range(TILES):
            st = stacks[t]
            if len(st) == 1 and (st[0] >> 2) == p:
                m = st[0] & 3
                for d in nbrs[t]:
                    ds = stacks[d]
                    if ds:
                        top = ds[-1]
                        if (top >> 2) != p:
                            ts = top & 3
                            if (m == 2 and ts == 3) or (m == 1 and ts == 2) or (m == 3 and ts == 1 and len(ds) == 1):
                                out.append(36 + 9 * t + d)
        self._legal = out
        return out

    def apply_code(self, code: int) -> None:
        """Play action ``code`` for the player to move, without any check."""
        p = self._turn
        if code < 36:
            s, t = divmod(code, 9)
            self.stacks[t] = ((p << 2) | s,)
            self.reserves[p][s] -= 1
        else:
            src, dst = divmod(code - 36, 9)
            stacks = self.stacks
            stacks[dst] = (*stacks[dst], stacks[src][0])
            stacks[src] = ()
        self._turn = 1 - p
        self.codes.append(code)
        self._legal = None

    def undo_code(self) -> None:
        """Take back the last action (inverse of :meth:`apply_code`)."""
        code = self.codes.pop()
        p = 1 - self._turn
        self._turn = p
        stacks = self.stacks
        if code < 36:
            s, t = divmod(code, 9)
            stacks[t] = ()
            self.reserves[p][s] += 1
        else:
            src, dst = divmod(code - 36, 9)
            ds = stacks[dst]
            stacks[src] = (ds[-1],)
            stacks[dst] = ds[:-1]
        self._legal = None

    def key(self) -> tuple[tuple[tuple[int, ...], ...], int]:
        """Hashable position key: ``(stacks, player to move)`` (reserves follow from the stacks, C2)."""
        return (tuple(self.stacks), self._turn)

    def copy(self) -> Round:
        """An independent copy (same layout, position and history)."""
        other = Round.__new__(Round)
        other._layout = self._layout
        other.adjacency = self.adjacency
        other._first = self._first
        other.stacks = list(self.stacks)
        other.reserves = [list(self.reserves[0]), list(self.reserves[1])]
        other._turn = self._turn
        other.codes = list(self.codes)
        other._legal = self._legal
        return other

    # -- public queries -----------------------------------------------------------------------
    @property
    def layout(self) -> Layout:
        """The round's :class:`Layout`."""
        return self._layout

    @property
    def first(self) -> int:
        """The player (0/1) who took this round's first action."""
        return self._first

    @property
    def current_player(self) -> int:
        """The player (0/1) to act (T1). After the round ended, the player who had no action (E1)."""
        return self._turn

    @property
    def is_over(self) -> bool:
        """True when the player to move has no legal action (E1)."""
        return not self.legal_codes()

    def legal_moves(self) -> list[Move]:
        """Every legal action of the player to move (T1-T5, K1-K5): placements first, then moves.

        Empty once the round is over (E1).
        """
        return [MOVE_BY_CODE[c] for c in self.legal_codes()]  # type: ignore[misc]

    def is_legal(self, move: Move | str) -> bool:
        """Whether ``move`` (a :class:`Move` or notation) is legal now. Never raises for bad text."""
        try:
            m = Move.parse(move)
        except RuleError:
            return False
        return m.code in self.legal_codes()

    @property
    def history(self) -> list[Move]:
        """The actions played so far, in order (a new list)."""
        return [MOVE_BY_CODE[c] for c in self.codes]  # type: ignore[misc]

    @property
    def last_move(self) -> Move | None:
        """The last action played, or ``None`` at the start."""
        return MOVE_BY_CODE[self.codes[-1]] if self.codes else None

    def _tile_index(self, n: int) -> int:
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= TILES:
            raise InvalidInputError(f"tile {quoted(n)} does not exist: tiles are 1-9", reason="no_such_tile", tile=n)
        return n - 1

    def tile(self, n: int) -> tuple[tuple[int, Size], ...]:
        """The chips on tile ``n`` (1..9), bottom to top, as ``(player, Size)`` pairs.

        Raises InvalidInputError for a tile number outside 1..9.
        """
        return tuple((c >> 2, Size(c & 3)) for c in self.stacks[self._tile_index(n)])

    def tiles(self) -> list[tuple[tuple[int, Size], ...]]:
        """All 9 tiles (index 0 is tile 1), each as :meth:`tile` returns it."""
        return [tuple((c >> 2, Size(c & 3)) for c in st) for st in self.stacks]

    def is_blocked(self, n: int) -> bool:
        """True when tile ``n`` holds 2 or more chips: none of them can move again (T4)."""
        return len(self.stacks[self._tile_index(n)]) >= 2

    def is_swallow(self, n: int) -> bool:
        """True when tile ``n`` holds exactly a small under an opponent's large (K4; not a tower, S1)."""
        st = self.stacks[self._tile_index(n)]
        return len(st) == 2 and (st[0] & 3) == 1

    def tower_owner(self, n: int) -> int | None:
        """The player owning the tower on tile ``n`` (top chip, S2), or ``None`` if it is no tower (S1)."""
        st = self.stacks[self._tile_index(n)]
        if len(st) < 2 or (len(st) == 2 and (st[0] & 3) == 1):
            return None
        return st[-1] >> 2

    def score(self) -> tuple[int, int]:
        """Towers owned by player 0 and player 1 (S1, S2). Final once :attr:`is_over` (E2); running before (S3)."""
        sc = [0, 0]
        for st in self.stacks:
            n = len(st)
            if n >= 2 and not (n == 2 and (st[0] & 3) == 1):
                sc[st[-1] >> 2] += 1
        return (sc[0], sc[1])

    def reserve(self, player: int) -> dict[Size, int]:
        """Chips still in ``player``'s reserve by size (C2): ``{Size.SMALL: n, Size.MEDIUM: n, Size.LARGE: n}``."""
        if player not in (0, 1):
            raise InvalidInputError(f"player must be 0 or 1, not {player!r}", reason="bad_player", player=player)
        r = self.reserves[player]
        return {Size.SMALL: r[1], Size.MEDIUM: r[2], Size.LARGE: r[3]}

    @property
    def winner(self) -> int | None:
        """The player with more towers once the round is over; ``None`` if tied or still playing (E2)."""
        if not self.is_over:
            return None
        a, b = self.score()
        return 0 if a > b else 1 if b > a else None

    # -- playing ------------------------------------------------------------------------------
    def check(self, move: Move | str, player: int | None = None) -> Move:
        """Validate ``move`` for the player to move and return it parsed; changes nothing.

        Raises:
            InvalidInputError: unreadable notation or tile outside 1..9 (rule ``Input``).
            IllegalMoveError: round over (E1); no such chip in reserve (C2); placing on an occupied
                tile (T2); moving from an empty tile, another player's chip or to a non-adjacent tile
                (T1); from a blocked tile (T4); onto an empty tile (T3); onto your own colour (K5);
                stacking the rules forbid (K3, K4, K5).
            NotYourTurnError: ``player`` (or the move's own ``player``) is given and is not the player to move.
        """
        m = Move.parse(move)
        if player is None:
            player = m.player
        if self.is_over:
            a, b = self.score()
            raise IllegalMoveError(
                f"the round is over (the player to move had no legal action); final score {a}-{b}",
                rule="E1",
                score=(a, b),
            )
        p = self._turn
        if player is not None and player != p:
            raise NotYourTurnError("it is not your turn: wait for your opponent's action", player=player, turn=p)
        stacks = self.stacks
        if m.size is not None:
            t = m.tile - 1  # type: ignore[operator]
            if stacks[t]:
                raise IllegalMoveError(
                    f"tile {m.tile} is occupied ({self._describe(stacks[t][-1], p)} on top): chips from the "
                    "reserve go only onto empty tiles",
                    rule="T2",
                    tile=m.tile,
                )
            if not self.reserves[p][m.size]:
                raise IllegalMoveError(
                    f"you have no {m.size.word} chip left in your reserve", rule="C2", size=m.size.letter
                )
            return m
        src, dst = m.src - 1, m.dst - 1  # type: ignore[operator]
        s_st, d_st = stacks[src], stacks[dst]
        if not s_st:
            raise IllegalMoveError(f"tile {m.src} is empty: there is no chip to move", rule="T1", tile=m.src)
        if len(s_st) >= 2:
            raise IllegalMoveError(
                f"tile {m.src} is blocked ({len(s_st)} chips): none of its chips can ever move again",
                rule="T4",
                tile=m.src,
            )
        chip = s_st[0]
        if (chip >> 2) != p:
            raise IllegalMoveError(
                f"the chip on tile {m.src} is your opponent's: you may only move your own chips",
                rule="T1",
                tile=m.src,
            )
        if dst not in self.adjacency[src]:
            raise IllegalMoveError(
                f"tiles {m.src} and {m.dst} are not adjacent: a chip moves only to a neighbouring tile",
                rule="T1",
                src=m.src,
                dst=m.dst,
            )
        if not d_st:
            raise IllegalMoveError(
                f"tile {m.dst} is empty: a chip can only move onto an occupied tile (place from the reserve instead)",
                rule="T3",
                tile=m.dst,
            )
        top = d_st[-1]
        size, tsize = chip & 3, top & 3
        what = f"tile {m.dst} has {self._describe(top, p)} on top"
        if (top >> 2) == p:
            raise IllegalMoveError(f"a chip never goes onto its own colour ({what})", rule="K5", tile=m.dst)
        if can_stack(size, d_st):
            return m
        if size == 1 and tsize == 3:
            raise IllegalMoveError(
                f"a small chip can never go directly onto a large one ({what})", rule="K3", tile=m.dst
            )
        if tsize == 1 and size == 3:
            raise IllegalMoveError(
                f"a large may swallow only a small standing alone; tile {m.dst} holds {len(d_st)} chips",
                rule="K4",
                tile=m.dst,
            )
        if tsize == 1:
            raise IllegalMoveError(
                f"nothing may go onto a small chip except a large swallowing a lone small ({what})",
                rule="K3",
                tile=m.dst,
            )
        raise IllegalMoveError(
            f"a {SIZE_WORD[size]} chip may not go onto a {SIZE_WORD[tsize]} one ({what}); only medium onto "
            "large, small onto medium and large onto a lone small are allowed",
            rule="K5",
            tile=m.dst,
        )

    @staticmethod
    def _describe(chip: int, viewer: int) -> str:
        whose = "your" if (chip >> 2) == viewer else "your opponent's"
        return f"{whose} {SIZE_WORD[chip & 3]}"

    def play(self, move: Move | str, player: int | None = None) -> Move:
        """Validate and play one action (a :class:`Move` or notation like ``"L5"``, ``"3-4"``).

        Returns the parsed :class:`Move`. On any error nothing changes; errors are those of
        :meth:`check`.
        """
        m = self.check(move, player)
        self.apply_code(m.code)
        return m

    # -- notation and storage -----------------------------------------------------------------
    def record(self) -> str:
        """The round's record (section 8): ``"rombo: L5 M4 4-5"`` (coordinates for a custom layout)."""
        moves = " ".join(str(MOVE_BY_CODE[c]) for c in self.codes)
        return f"{self._layout.to_text()}:" + (f" {moves}" if moves else "")

    @classmethod
    def from_record(cls, text: str, first: int = 0) -> Round:
        """Replay a record ``"<layout>: <action> <action> ..."`` (section 8), every action validated.

        Raises:
            InvalidInputError: no ``:``, bad layout, or an unreadable token (quoted).
            IllegalMoveError: an action the rules forbid; the message names its position and token.
        """
        if not isinstance(text, str) or ":" not in text:
            raise InvalidInputError("a round record is layout, colon, actions: 'rombo: L5 M4 4-5'", reason="bad_record")
        head, _, tail = text.partition(":")
        rnd = cls(Layout.parse(head), first)
        for i, token in enumerate(tail.split(), start=1):
            try:
                rnd.play(token)
            except RuleError as err:
                raise type(err)(f"action {i} {token!r}: {err.message}", rule=err.rule, token=token, index=i) from err
        return rnd

    def to_dict(self) -> dict[str, Any]:
        """Versioned JSON-ready state.

        Shape: ``{"version": 1, "layout": {"name", "cells"}, "first": 0|1, "moves": ["L5", ...],
        "to_move": 0|1, "tiles": [[[player, "S"|"M"|"L"], ...] x 9], "reserves": [{"S": n, "M": n, "L": n} x 2],
        "score": [a, b], "over": bool}``. Everything after ``moves`` is redundant and checked on load.
        """
        return {
            "version": STATE_VERSION,
            "layout": self._layout.to_dict(),
            "first": self._first,
            "moves": [str(MOVE_BY_CODE[c]) for c in self.codes],
            "to_move": self._turn,
            "tiles": [[[c >> 2, "SML"[(c & 3) - 1]] for c in st] for st in self.stacks],
            "reserves": [{"S": r[1], "M": r[2], "L": r[3]} for r in self.reserves],
            "score": list(self.score()),
            "over": self.is_over,
        }

    @classmethod
    def from_dict(cls, d: Any) -> Round:
        """Load :meth:`to_dict` output: replays ``moves`` and checks every redundant field.

        Raises:
            StateError: unknown version, malformed fields, impossible stacks (K1-K5), wrong chip counts
                (C2), a turn that does not follow from the position (T1), an illegal stored move, or
                redundant fields that disagree with the replay. The message says which.
        """
        if not isinstance(d, dict):
            raise StateError("a stored round must be an object")
        version = d.get("version")
        if version != STATE_VERSION:
            raise StateError(f"unknown round state version {version!r} (this engine reads version {STATE_VERSION})")
        try:
            layout = Layout.from_dict(d.get("layout"))
        except InvalidInputError as err:
            raise StateError(f"bad layout: {err.message}") from err
        first = d.get("first")
        if first not in (0, 1) or isinstance(first, bool):
            raise StateError(f"bad 'first' {first!r}: must be 0 or 1")
        moves = d.get("moves")
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise StateError("'moves' must be a list of actions in notation")
        if "tiles" in d or "reserves" in d or "to_move" in d:
            validate_position(d, first)
        rnd = cls(layout, first)
        for i, token in enumerate(moves, start=1):
            try:
                rnd.play(token)
            except RuleError as err:
                raise StateError(f"stored action {i} {token!r} is illegal: {err}") from err
        stored = rnd.to_dict()
        for key in ("to_move", "tiles", "reserves", "score", "over"):
            if key in d and d[key] != stored[key]:
                raise StateError(f"stored {key!r} {d[key]!r} disagrees with the replayed moves ({stored[key]!r})")
        return rnd

    def __repr__(self) -> str:
        return f"Round({self.record()!r}, first={self._first})"
