"""Perft: leaf counts at depth 1-3 checked against a deliberately naive reference written here.

The reference works straight from the rulings text (T1-T5, K1-K5, C2, C3, E1) on axial cells,
with dicts and lists, without using anything from the engine except the layout's cell list.
"""

from __future__ import annotations

import pytest

from engine.constructo import LAYOUTS, Round

AXIAL = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)]


class Naive:
    """board: cell -> list of (player, size letter) bottom to top; turn: 0/1."""

    def __init__(self, cells: list[tuple[int, int]], first: int) -> None:
        self.cells = sorted(cells, key=lambda c: (c[1], c[0]))  # reading order (C4)
        self.board: dict[tuple[int, int], list[tuple[int, str]]] = {c: [] for c in self.cells}
        self.turn = first

    def clone(self) -> Naive:
        other = Naive(self.cells, self.turn)
        other.board = {c: list(st) for c, st in self.board.items()}
        return other

    def in_reserve(self, player: int, size: str) -> int:
        used = sum(1 for st in self.board.values() for chip in st if chip == (player, size))
        return 3 - used

    def actions(self) -> list[str]:
        out = []
        p = self.turn
        for n, cell in enumerate(self.cells, start=1):
            if not self.board[cell]:
                for size in "SML":
                    if self.in_reserve(p, size) > 0:
                        out.append(f"{size}{n}")
        for n, cell in enumerate(self.cells, start=1):
            stack = self.board[cell]
            if len(stack) != 1 or stack[0][0] != p:
                continue  # only a lone own chip moves (T1, T4)
            mover = stack[0][1]
            for dq, dr in AXIAL:
                target = (cell[0] + dq, cell[1] + dr)
                if target not in self.board:
                    continue
                tstack = self.board[target]
                if not tstack:
                    continue  # T3
                owner, top = tstack[-1]
                if owner == p:
                    continue  # K5
                ok = (
                    (mover == "M" and top == "L")  # K1
                    or (mover == "S" and top == "M")  # K2
                    or (mover == "L" and top == "S" and len(tstack) == 1)  # K4
                )
                if ok:
                    out.append(f"{n}-{self.cells.index(target) + 1}")
        return out

    def do(self, action: str) -> None:
        if "-" in action:
            a, b = (int(x) for x in action.split("-"))
            chip = self.board[self.cells[a - 1]].pop()
            self.board[self.cells[b - 1]].append(chip)
        else:
            self.board[self.cells[int(action[1:]) - 1]].append((self.turn, action[0]))
        self.turn = 1 - self.turn


def naive_perft(pos: Naive, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(naive_perft(_after(pos, a), depth - 1) for a in pos.actions())


def _after(pos: Naive, action: str) -> Naive:
    nxt = pos.clone()
    nxt.do(action)
    return nxt


def engine_perft(rnd: Round, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in rnd.legal_moves():
        child = rnd.copy()
        child.play(move)
        total += engine_perft(child, depth - 1)
    return total


def fast_perft(rnd: Round, depth: int) -> int:
    """The engine's unchecked search path (apply_code/undo_code), which the AI relies on."""
    if depth == 0:
        return 1
    total = 0
    for code in list(rnd.legal_codes()):
        rnd.apply_code(code)
        total += fast_perft(rnd, depth - 1)
        rnd.undo_code()
    return total


POSITIONS = [
    "rombo:",
    "rombo: M7 L3 L5 M9 S1 M6 S4 6-5 4-5 S4 S8 4-7",
    "flor: M2 S8 L1 L5 2-5 8-5 S4 S3",
    "cinta: M1 L2 1-2 L9 S5 9-5 M9 M1 9-5 M8",
    "corona: M3 S8 L7 M2 L4 S9 7-9 S7 S1",
    "estrella: M3 S5 S2 S8 M6 5-6 S1",
    "linea: L5 M4 M6 S3 S7 L2 L8",
]


@pytest.mark.parametrize("record", POSITIONS)
def test_perft_depth_1_to_3_matches_naive_reference(record: str) -> None:
    rnd = Round.from_record(record)
    naive = Naive(list(rnd.layout.cells), 0)
    for token in record.split(":")[1].split():
        naive.do(token)
    assert sorted(naive.actions()) == sorted(str(m) for m in rnd.legal_moves())
    key_before = rnd.key()
    for depth in (1, 2, 3):
        expected = naive_perft(naive, depth)
        assert engine_perft(rnd, depth) == expected, (record, depth)
        assert fast_perft(rnd, depth) == expected, (record, depth)
    assert rnd.key() == key_before  # apply_code/undo_code restored the position


def test_perft_empty_rombo_known_first_level() -> None:
    # independent of both implementations: 27 placements, then 24 (8 empty tiles x 3 sizes)
    rnd = Round(LAYOUTS["rombo"])
    assert engine_perft(rnd, 1) == 27
    assert engine_perft(rnd, 2) == 27 * 24
