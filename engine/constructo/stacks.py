"""Constructo's stacking rules on their own (docs/rules/constructo.md K1-K5, C2): which chip may land on which
stack, which stacks can arise at all, and the structural checks of a stored round's tiles, reserves and turn.
Below ``engine/constructo/round.py`` (which plays them); chips are ``(player << 2) | size`` ints there and
``(player, size)`` pairs here.
"""

from __future__ import annotations

from typing import Any

from engine.constructo.layout import TILES
from engine.errors import StateError

__all__ = ["CHIPS_PER_SIZE", "SIZE_WORD", "can_stack", "stack_is_possible", "validate_position"]

CHIPS_PER_SIZE = 3
"""Each player owns 3 chips of each size (C2)."""

SIZE_WORD = ("", "small", "medium", "large")
"""Size words by size int (index 0 unused)."""


def can_stack(size: int, dst: tuple[int, ...]) -> bool:
    """Whether a lone chip of ``size`` (1..3) may land on the non-empty stack ``dst`` (chips ``player << 2 | size``,
    bottom to top): K1, K2, K4; K3/K5 otherwise.

    >>> can_stack(2, (1 << 2 | 3,)), can_stack(1, (3,)), can_stack(3, (1 << 2 | 1,))
    (True, False, True)

    Ownership (top chip must be the opponent's) is checked by the caller.
    """
    top = dst[-1] & 3
    if size == 2:
        return top == 3  # K1 (a swallowing large counts as a plain large: K4)
    if size == 1:
        return top == 2  # K2
    return top == 1 and len(dst) == 1  # K4 swallow


def stack_is_possible(stack: tuple[tuple[int, int], ...] | list[Any]) -> bool:
    """True when the stack ``[(player, size), ...]`` (bottom to top) can arise under K1-K5.

    Each chip above the bottom must belong to the other player than the chip below it and
    must be a legal landing (K1 medium on large, K2 small on medium, K4 large swallowing a lone
    small). Sizes are ints 1..3 or :class:`Size`.

    >>> stack_is_possible([(0, 3), (1, 2), (0, 1)]), stack_is_possible([(0, 1), (1, 3), (0, 2)])
    (True, True)
    >>> stack_is_possible([(0, 3), (0, 2)]), stack_is_possible([(0, 3), (1, 1)])
    (False, False)
    """
    chips: tuple[int, ...] = ()
    for player, size in stack:
        size = int(size)
        if chips:
            if (chips[-1] >> 2) == player or not can_stack(size, chips):
                return False
        chips = (*chips, (player << 2) | size)
    return True


def validate_position(d: dict[str, Any], first: int) -> None:
    """Structural checks of a stored round's ``tiles`` / ``reserves`` / ``to_move`` (``Round.to_dict`` shape) with
    ``first`` the round's starter: stacks K1-K5 can build, chip counts (C2), whose turn it is (T1). Raises
    ``StateError`` saying which."""
    tiles = d.get("tiles")
    counts = [[0, 0, 0, 0], [0, 0, 0, 0]]
    actions = 0
    if tiles is not None:
        if not isinstance(tiles, list) or len(tiles) != TILES:
            raise StateError("'tiles' must be a list of 9 stacks")
        for n, st in enumerate(tiles, start=1):
            if not isinstance(st, list) or len(st) > 4:
                raise StateError(f"tile {n}: a stack is a list of at most 4 chips")
            parsed: list[tuple[int, int]] = []
            for chip in st:
                if (
                    not isinstance(chip, list)
                    or len(chip) != 2
                    or chip[0] not in (0, 1)
                    or isinstance(chip[0], bool)
                    or chip[1] not in ("S", "M", "L")
                ):
                    raise StateError(f"tile {n}: bad chip {chip!r} (expected [player 0|1, 'S'|'M'|'L'])")
                size = "SML".index(chip[1]) + 1
                parsed.append((chip[0], size))
                counts[chip[0]][size] += 1
            if not stack_is_possible(parsed):
                raise StateError(f"tile {n}: impossible stack {st!r} (the stacking rules K1-K5 cannot build it)")
            if parsed:
                actions += 2 * len(parsed) - 1  # one placement per chip, one move per chip above the bottom
        for p in (0, 1):
            for size in (1, 2, 3):
                if counts[p][size] > CHIPS_PER_SIZE:
                    raise StateError(
                        f"player {p} has {counts[p][size]} {SIZE_WORD[size]} chips on the board; each player owns "
                        f"only {CHIPS_PER_SIZE} (C2)"
                    )
    reserves = d.get("reserves")
    if reserves is not None:
        if not isinstance(reserves, list) or len(reserves) != 2:
            raise StateError("'reserves' must list the two players' reserves")
        for p, r in enumerate(reserves):
            if not isinstance(r, dict) or set(r) != {"S", "M", "L"}:
                raise StateError(f"reserve of player {p} must be {{'S': n, 'M': n, 'L': n}}")
            for letter, n in r.items():
                size = "SML".index(letter) + 1
                if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                    raise StateError(f"reserve of player {p}: bad count {n!r} of {SIZE_WORD[size]} chips")
                if tiles is not None and n + counts[p][size] != CHIPS_PER_SIZE:
                    raise StateError(
                        f"player {p} has {n} {SIZE_WORD[size]} chips in reserve and {counts[p][size]} on the board: "
                        f"the total must be {CHIPS_PER_SIZE} (C2)"
                    )
    to_move = d.get("to_move")
    if "to_move" in d:
        if to_move not in (0, 1) or isinstance(to_move, bool):
            raise StateError(f"bad 'to_move' {to_move!r}: must be 0 or 1")
        if tiles is not None and to_move != first ^ (actions & 1):
            raise StateError(
                f"bad turn: after {actions} actions with player {first} first, player {first ^ (actions & 1)} "
                f"is to move, not player {to_move} (T1)"
            )
