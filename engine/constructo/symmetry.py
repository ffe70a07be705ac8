"""Symmetries of a Constructo layout: the automorphisms of its adjacency graph, as tile permutations.

The rules see a layout only through which tiles are adjacent (C3, T1), so any permutation of the tiles that
maps adjacent tiles to adjacent tiles (a graph automorphism, which includes every rotation and reflection of
the drawn board) maps a position to one with the same value. The search keys its transposition table by the
smallest key over these permutations (and over a colour swap: the position as seen by the player to move).
"""

from __future__ import annotations

from functools import cache

from engine.constructo.layout import TILES, Layout

__all__ = ["automorphisms", "canonical_stacks"]


@cache
def _automorphisms(nbrs: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    adj = [set(n) for n in nbrs]
    degree = [len(n) for n in nbrs]
    found: list[tuple[int, ...]] = []
    image = [-1] * TILES
    used = [False] * TILES

    def extend(t: int) -> None:
        if t == TILES:
            found.append(tuple(image))
            return
        for cand in range(TILES):
            if used[cand] or degree[cand] != degree[t]:
                continue
            # every earlier tile keeps its adjacency to t
            if all((u in adj[t]) == (image[u] in adj[cand]) for u in range(t)):
                image[t] = cand
                used[cand] = True
                extend(t + 1)
                used[cand] = False
        image[t] = -1

    extend(0)
    identity = tuple(range(TILES))
    found.sort(key=lambda p: (p != identity, p))
    return tuple(found)


def automorphisms(layout: Layout) -> tuple[tuple[int, ...], ...]:
    """Every permutation ``perm`` of the tile indices 0..8 with ``a`` adjacent to ``b`` exactly when
    ``perm[a]`` is adjacent to ``perm[b]`` (C3); the identity first, the rest in lexicographic order.

    ``rombo`` has 4, ``flor`` 4, ``cinta`` 2, ``corona`` 18 (its tiles are adjacent as in a 9-cycle, so every
    rotation and reflection of the cycle counts, not only the 6 of the drawn ring).
    """
    return _automorphisms(layout.adjacency)


def canonical_stacks(
    layout: Layout, stacks: list[tuple[int, ...]] | tuple[tuple[int, ...], ...], mover: int
) -> tuple[tuple[int, ...], ...]:
    """A canonical form of a position (``stacks`` of chips ``(player << 2) | size``, ``mover`` to play): the
    colours swapped so the mover is player 0, then the smallest tile arrangement over :func:`automorphisms`.
    Two positions with the same canonical form have the same value for the player to move. Reference for tests;
    the compiled core computes its own integer keys."""
    seen = [tuple(c ^ 4 for c in st) for st in stacks] if mover else [tuple(st) for st in stacks]
    best: tuple[tuple[int, ...], ...] | None = None
    for perm in automorphisms(layout):
        arranged: list[tuple[int, ...]] = [()] * TILES
        for t, st in enumerate(seen):
            arranged[perm[t]] = st
        cand = tuple(arranged)
        if best is None or cand < best:
            best = cand
    assert best is not None
    return best
