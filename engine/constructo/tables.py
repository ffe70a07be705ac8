"""Stack tables of the Constructo search: every stack the rules can build, as a small integer id.

Built once from :func:`engine.constructo.round.stack_is_possible` (K1-K5) and the tower rule (S1, S2), so the
search (pure Python or compiled) never restates a stacking rule. A chip is ``(player << 2) | size`` as in
:mod:`engine.constructo.round`; a stack is a tuple of chips, bottom to top.

Tables (index = stack id, ``0`` = the empty tile; 19 stacks in all):

* ``STACKS[i]``: the chips of stack ``i``; ``STACK_ID[chips]``: its id.
* ``LONE[i]``: the chip if stack ``i`` is one chip alone (it may move, T4), else 0.
* ``LAND[i * 8 + chip]``: the stack after a lone ``chip`` lands on stack ``i`` (K1, K2, K4), ``-1`` if illegal
  (including every landing on an empty tile, T3, and on the mover's own colour, K5).
* ``TOWER[i]``: ``+1`` a tower of player 0, ``-1`` of player 1, ``0`` no tower (S1, S2).
* ``SINGLE[chip]``: the id of ``chip`` alone on a tile (a placement, T1).
* ``SWAP[i]``: the same stack with the two players' colours exchanged.
"""

from __future__ import annotations

from engine.constructo.round import CHIPS_PER_SIZE, Round, stack_is_possible

__all__ = [
    "LAND",
    "LONE",
    "NS",
    "SINGLE",
    "STACKS",
    "STACK_ID",
    "SWAP",
    "TOWER",
    "board_of",
    "max_plies_left",
    "reserves_of",
]


def _build() -> tuple[list[tuple[int, ...]], list[int], list[int], list[int], list[int]]:
    chips = [(p << 2) | s for p in (0, 1) for s in (1, 2, 3)]
    stacks: list[tuple[int, ...]] = [()]
    index: dict[tuple[int, ...], int] = {(): 0}
    todo: list[tuple[int, ...]] = [(c,) for c in chips]
    while todo:
        st = todo.pop(0)
        if st in index:
            continue
        index[st] = len(stacks)
        stacks.append(st)
        for c in chips:
            cand = (*st, c)
            if stack_is_possible([(x >> 2, x & 3) for x in cand]):
                todo.append(cand)
    n = len(stacks)
    lone = [st[0] if len(st) == 1 else 0 for st in stacks]
    land = [-1] * (n * 8)
    for i, st in enumerate(stacks):
        if st:
            for c in chips:
                cand = (*st, c)
                if cand in index:
                    land[i * 8 + c] = index[cand]
    tower = [0] * n
    for i, st in enumerate(stacks):
        if len(st) >= 2 and not (len(st) == 2 and (st[0] & 3) == 1):
            tower[i] = 1 if (st[-1] >> 2) == 0 else -1
    single = [0] * 8
    for c in chips:
        single[c] = index[(c,)]
    return stacks, lone, land, tower, single


STACKS, LONE, LAND, TOWER, SINGLE = _build()
STACK_ID: dict[tuple[int, ...], int] = {st: i for i, st in enumerate(STACKS)}
NS = len(STACKS)
SWAP: list[int] = [STACK_ID[tuple(c ^ 4 for c in st)] for st in STACKS]


def board_of(rnd: Round) -> list[int]:
    """The 9 stack ids of ``rnd`` (index = tile - 1)."""
    return [STACK_ID[st] for st in rnd.stacks]


def reserves_of(rnd: Round) -> list[int]:
    """Reserves as 8 counts indexed by chip ``(player << 2) | size`` (0 and 4 unused, C2)."""
    r0, r1 = rnd.reserves
    return [0, r0[1], r0[2], r0[3], 0, r1[1], r1[2], r1[3]]


def max_plies_left(rnd: Round) -> int:
    """An upper bound on the actions left in the round: every chip is placed once (18 placements) and moves at
    most once (a moved chip lands on a stack of 2+ and is blocked for good, T4), so a round has at most 36."""
    placed = sum(len(st) for st in rnd.stacks)
    moved = sum(len(st) - 1 for st in rnd.stacks if st)
    return max(0, 2 * 2 * 3 * CHIPS_PER_SIZE - placed - moved)
