"""Chip sizes and actions with their notation (rules C2, T1 and section 8).

Notation: a placement is the size letter and the tile number (``L5``, ``M1``, ``S9``); a move is
``from-to`` (``3-4``). Parsing is case-insensitive and strict; errors quote the bad token.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum

from engine.errors import InvalidInputError, quoted

__all__ = ["Move", "Size"]

_TILES = 9


class Size(IntEnum):
    """Chip size (C2): ``SMALL=1``, ``MEDIUM=2``, ``LARGE=3``.

    >>> Size.parse("m")
    <Size.MEDIUM: 2>
    >>> Size.LARGE.letter, Size.SMALL.word
    ('L', 'small')
    """

    SMALL = 1
    MEDIUM = 2
    LARGE = 3

    @property
    def letter(self) -> str:
        """``"S"``, ``"M"`` or ``"L"`` (the notation letter)."""
        return "SML"[self - 1]

    @property
    def word(self) -> str:
        """``"small"``, ``"medium"`` or ``"large"``."""
        return ("small", "medium", "large")[self - 1]

    @classmethod
    def parse(cls, text: str | int | Size) -> Size:
        """Parse ``"s"|"m"|"l"``, ``"small"|"medium"|"large"`` (any case), 1..3 or a Size.

        Raises:
            InvalidInputError: anything else (the message quotes it).
        """
        if isinstance(text, Size):
            return text
        if isinstance(text, int) and not isinstance(text, bool):
            if 1 <= text <= 3:
                return cls(text)
            raise InvalidInputError(
                f"size {quoted(text)} does not exist: use 1 (small), 2 (medium) or 3 (large)",
                reason="no_such_size",
                token=str(text),
            )
        if isinstance(text, str):
            key = text.strip().lower()
            for s in cls:
                if key in (s.letter.lower(), s.word):
                    return s
        raise InvalidInputError(
            f"unknown chip size {quoted(text)}: use S, M or L (small, medium, large)",
            reason="unknown_size",
            token=str(text),
        )


_PLACE_RE = re.compile(r"([sSmMlL])([0-9]+)")
_STEP_RE = re.compile(r"([0-9]+)-([0-9]+)")
_HELP = "a placement is a size letter S, M or L and a tile 1-9 (e.g. L5); a move is from-to (e.g. 3-4)"


def _check_tile(n: int, token: str) -> None:
    if not 1 <= n <= _TILES:
        raise InvalidInputError(
            f"{quoted(token)}: tile {n} does not exist, tiles are numbered 1-9",
            reason="token_no_such_tile",
            token=token,
            tile=n,
        )


def _tile_digits(digits: str, token: str) -> int:
    if len(digits) != 1 or digits == "0":
        raise InvalidInputError(
            f"{quoted(token)}: tile {digits} does not exist, tiles are numbered 1-9",
            reason="token_no_such_tile",
            token=token,
            tile=digits,
        )
    return int(digits)


@dataclass(frozen=True, slots=True)
class Move:
    """One action (T1): place a chip from the reserve, or step a lone chip onto an adjacent tile.

    Attributes:
        size: the placed chip's :class:`Size` (placements only, else ``None``).
        tile: the tile 1..9 a chip is placed on (placements only, else ``None``).
        src, dst: the tiles 1..9 of a step (moves only, else ``None``).
        player: the acting player (0/1) when the move is a match action (``Match.apply``, the game protocol),
            else ``None`` (= the player to move: rounds, the search and notation ignore it).

    Build with :meth:`place`, :meth:`step` or :meth:`parse`, then :meth:`by` to name the player;
    ``str(move)`` is the notation (without the player).

    >>> Move.parse("M5")
    Move('M5')
    >>> Move.parse("3-4").by(1)
    Move('3-4', player=1)
    >>> str(Move.place("l", 5)), Move.parse("M5").is_place, Move.step(3, 4).src
    ('L5', True, 3)
    >>> Move.from_code(Move.parse("3-4").code) == Move.step(3, 4)
    True
    >>> Move.parse("pass")
    Traceback (most recent call last):
    engine.errors.InvalidInputError: T5: passing is not allowed; every turn takes exactly one action
    """

    size: Size | None = None
    tile: int | None = None
    src: int | None = None
    dst: int | None = None
    player: int | None = None

    def __post_init__(self) -> None:
        place = self.size is not None or self.tile is not None
        step = self.src is not None or self.dst is not None
        tiles = (self.tile,) if place else (self.src, self.dst)
        if place == step or not all(isinstance(t, int) and not isinstance(t, bool) and 1 <= t <= _TILES for t in tiles):
            raise InvalidInputError(
                "a Move is either a placement (size and tile 1-9) or a move (src and dst 1-9); "
                "use Move.place, Move.step or Move.parse",
                reason="internal",
            )
        if place and not isinstance(self.size, Size):
            raise InvalidInputError(f"a placement needs a Size, not {self.size!r}", reason="internal")
        if step and self.src == self.dst:
            raise InvalidInputError("a move needs two different tiles", reason="same_tile")
        if self.player is not None and (self.player not in (0, 1) or isinstance(self.player, bool)):
            raise InvalidInputError(
                f"player must be 0 or 1, not {self.player!r}", reason="bad_player", player=self.player
            )

    def by(self, player: int | None) -> Move:
        """This move made by ``player`` (0/1, or ``None`` for a player-less move). Raises InvalidInputError."""
        if player == self.player:
            return self
        return Move(self.size, self.tile, self.src, self.dst, player)

    @classmethod
    def place(cls, size: Size | str | int, tile: int) -> Move:
        """A placement of a ``size`` chip on ``tile`` (1..9). Raises InvalidInputError if out of range."""
        s = Size.parse(size)
        if not isinstance(tile, int) or isinstance(tile, bool):
            raise InvalidInputError(f"tile {quoted(tile)} is not a number 1-9", reason="tile_not_number", tile=tile)
        _check_tile(tile, f"{s.letter}{tile}")
        return _PLACES[s][tile]

    @classmethod
    def step(cls, src: int, dst: int) -> Move:
        """A move of the lone chip on ``src`` onto ``dst`` (both 1..9, different).

        Raises InvalidInputError when a tile is out of range or both are the same tile.
        """
        for t in (src, dst):
            if not isinstance(t, int) or isinstance(t, bool):
                raise InvalidInputError(f"tile {quoted(t)} is not a number 1-9", reason="tile_not_number", tile=t)
        token = f"{src}-{dst}"
        _check_tile(src, token)
        _check_tile(dst, token)
        if src == dst:
            raise InvalidInputError(
                f"{quoted(token)}: a move needs two different tiles", reason="same_tile_token", token=token
            )
        return _STEPS[src][dst]

    @classmethod
    def parse(cls, text: str | Move) -> Move:
        """Parse one action in notation (``"L5"``, ``"m1"``, ``"3-4"``), case-insensitive, strict.

        Raises:
            InvalidInputError: rule ``Input`` for anything that is not exactly one action (the message
                quotes the token); rule ``T5`` for an attempt to pass.
        """
        if isinstance(text, Move):
            return text
        if not isinstance(text, str):
            raise InvalidInputError(
                f"an action must be text like 'L5' or '3-4', not {type(text).__name__}", reason="internal"
            )
        token = text.strip()
        if not token:
            raise InvalidInputError("empty action: " + _HELP, reason="empty_action")
        if token.lower() == "pass":
            raise InvalidInputError(
                "passing is not allowed; every turn takes exactly one action", rule="T5", reason="no_pass"
            )
        m = _PLACE_RE.fullmatch(token)
        if m:
            n = _tile_digits(m.group(2), token)
            return _PLACES[Size.parse(m.group(1))][n]
        m = _STEP_RE.fullmatch(token)
        if m:
            a, b = _tile_digits(m.group(1), token), _tile_digits(m.group(2), token)
            if a == b:
                raise InvalidInputError(
                    f"{quoted(token)}: a move needs two different tiles", reason="same_tile_token", token=token
                )
            return _STEPS[a][b]
        raise InvalidInputError(f"cannot read {quoted(token)}: " + _HELP, reason="unreadable_move", token=token)

    @property
    def is_place(self) -> bool:
        """True for a placement from the reserve, False for a move between tiles."""
        return self.size is not None

    @property
    def code(self) -> int:
        """Compact integer code used by the search: ``size*9 + tile-1`` (9..35) or ``36 + 9*(src-1) + dst-1``."""
        if self.size is not None:
            return int(self.size) * 9 + self.tile - 1  # type: ignore[operator]
        return 36 + 9 * (self.src - 1) + self.dst - 1  # type: ignore[operator]

    @staticmethod
    def from_code(code: int) -> Move:
        """Inverse of :attr:`code` (no validation beyond the table lookup)."""
        return MOVE_BY_CODE[code]  # type: ignore[return-value]

    def __str__(self) -> str:
        if self.size is not None:
            return f"{self.size.letter}{self.tile}"
        return f"{self.src}-{self.dst}"

    def __repr__(self) -> str:
        return f"Move({str(self)!r})" if self.player is None else f"Move({str(self)!r}, player={self.player})"


_PLACES: dict[Size, dict[int, Move]] = {s: {t: Move(size=s, tile=t) for t in range(1, _TILES + 1)} for s in Size}
_STEPS: dict[int, dict[int, Move]] = {
    a: {b: Move(src=a, dst=b) for b in range(1, _TILES + 1) if b != a} for a in range(1, _TILES + 1)
}
MOVE_BY_CODE: list[Move | None] = [None] * (36 + 81)
for _s in Size:
    for _t in range(1, _TILES + 1):
        MOVE_BY_CODE[_PLACES[_s][_t].code] = _PLACES[_s][_t]
for _a in range(1, _TILES + 1):
    for _b in range(1, _TILES + 1):
        if _a != _b:
            MOVE_BY_CODE[_STEPS[_a][_b].code] = _STEPS[_a][_b]
