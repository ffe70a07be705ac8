"""The ``perfect`` level (issue 25): the opening book's symmetry frames, the shipped book's coverage, exact play
where the solver proves the round, the counted fallback to hard search."""

from __future__ import annotations

import random

import pytest

import engine.constructo.core as core_module
from engine.constructo import LAYOUTS, RECOMMENDED, IllegalMoveError, Round
from engine.constructo.ai import LEVELS, choose_move, solve
from engine.constructo.book import BOOK_VERSION, Book, canonical, load_book, map_code
from engine.constructo.perfect import COUNTS, book_floor, perfect_choice, prove_at_least
from engine.constructo.symmetry import automorphisms
from tools.build_book import Builder


def late_position(name: str, seed: int, plies: int) -> Round:
    """A position after ``plies`` random actions (small enough for the solver in a test)."""
    rng = random.Random(seed)
    rnd = Round(LAYOUTS[name], seed % 2)
    for _ in range(plies):
        codes = rnd.legal_codes()
        if not codes:
            break
        rnd.apply_code(rng.choice(codes))
    while not rnd.legal_codes():  # keep an action to choose
        rnd.undo_code()
    return rnd


def image(rnd: Round, perm: tuple[int, ...]) -> Round:
    """``rnd`` with its tiles renamed by ``perm`` (same layout, same player to move)."""
    out = Round(rnd.layout, rnd.first)
    for code in rnd.codes:
        out.apply_code(map_code(code, perm))
    return out


def one_entry_book(rnd: Round) -> tuple[Book, int]:
    proved = solve(rnd, max_nodes=20_000_000)
    assert proved is not None
    key, perm = canonical(rnd.layout, rnd.stacks, rnd.current_player)
    entry = {"plies": 1, "root_value": 0, "positions": {key: [map_code(proved.move.code, perm), proved.value]}}
    return Book({"version": BOOK_VERSION, "layouts": {rnd.layout.name: entry}}), proved.value


@pytest.mark.parametrize("name", RECOMMENDED)
def test_a_book_entry_answers_every_symmetric_image_with_an_optimal_action(name: str) -> None:
    rnd = late_position(name, 5, 12)
    book, value = one_entry_book(rnd)
    for perm in automorphisms(rnd.layout):
        other = image(rnd, perm)
        hit = book.lookup(other)
        assert hit is not None and hit.value == value
        assert hit.move.code in other.legal_codes()
        other.apply_code(hit.move.code)
        after = solve(other, max_nodes=20_000_000) if other.legal_codes() else None
        final = -(after.value if after else _final(other))  # the opponent's best reply, from the mover's side
        assert final == value, (perm, hit.move)


def _final(rnd: Round) -> int:
    a, b = rnd.score()
    return ((a - b) if rnd.current_player == 0 else (b - a)) * 100


def test_the_book_ignores_other_layouts_and_a_custom_layout_that_borrows_a_name() -> None:
    rnd = late_position("corona", 3, 12)
    book, _ = one_entry_book(rnd)
    assert book.lookup(late_position("flor", 3, 12)) is None
    custom = Round(type(LAYOUTS["rombo"])(LAYOUTS["rombo"].cells, name="corona"), 0)
    assert book.lookup(custom) is None and book.plies(custom.layout) == 0


@pytest.mark.parametrize("name", sorted(load_book().layouts))
def test_the_shipped_book_covers_every_position_of_its_plies_against_any_opponent(name: str) -> None:
    """Walk the builder's own traversal, answering from the book: every position the perfect player can face in
    the covered plies is there, with a legal action, and nothing else is (the file is what the command builds)."""
    book = load_book()
    plies, root_value, positions = book.layouts[name]

    class FromBook(Builder):
        def prove(self, rnd: Round) -> tuple[int, int]:
            hit = book.lookup(rnd)
            assert hit is not None, rnd.codes
            assert hit.move.code in rnd.legal_codes()
            return hit.move.code, hit.value

    entry = FromBook(name, plies, tt_bits=4).build()
    assert entry["positions"] == {k: list(v) for k, v in positions.items()}
    assert entry["root_value"] == root_value


def test_perfect_plays_the_book_on_the_empty_board() -> None:
    book = load_book()
    name = sorted(book.layouts)[0]
    before = COUNTS["book"]
    choice = perfect_choice(Round(LAYOUTS[name], 1), fallback_nodes=1000)
    assert choice.source == "book" and choice.value == book.root_value(LAYOUTS[name]) and choice.nodes == 0
    assert COUNTS["book"] == before + 1


@pytest.mark.parametrize("seed", range(4))
def test_perfect_solves_late_positions_and_keeps_the_proven_value_to_the_end(seed: int) -> None:
    """From a proven position, the perfect player ends the round with at least the proven value, whatever the
    opponent (here: the medium level) plays."""
    name = RECOMMENDED[seed % len(RECOMMENDED)]
    rnd = late_position(name, 100 + seed, 10)
    me = rnd.current_player
    first = perfect_choice(rnd, fallback_nodes=1000, book=Book({"version": BOOK_VERSION, "layouts": {}}))
    assert first.source == "solved" and first.value is not None
    assert first.value == solve(rnd, max_nodes=50_000_000).value  # type: ignore[union-attr]
    while rnd.legal_codes():
        if rnd.current_player == me:
            choice = perfect_choice(rnd, fallback_nodes=1000)
            assert choice.source in ("book", "solved")
            move = choice.move
        else:
            move = choose_move(rnd, "medium", seed)
        rnd.apply_code(move.code)
    a, b = rnd.score()
    assert ((a - b) if me == 0 else (b - a)) * 100 >= first.value


def test_at_the_books_edge_it_keeps_the_proven_bound_with_a_null_window_proof() -> None:
    """One ply past a book position (the opponent's), the book's exact value proves a bound for every reply; the
    level finds an action reaching it (source ``kept``), and the solver agrees the action reaches it. Further
    on, the book's value is still the target, seen from the right side."""
    rnd = late_position("rombo", 21, 9)
    book, value = one_entry_book(rnd)  # the opponent's position, value for the opponent
    for reply in list(rnd.legal_codes())[:6]:
        rnd.apply_code(reply)
        if rnd.legal_codes():
            assert book_floor(rnd, book) == (-value, 1)
            choice = perfect_choice(rnd, kept_nodes=5_000_000, max_nodes=1000, fallback_nodes=1000, book=book)
            assert choice.source == "kept" and choice.value == -value
            rnd.apply_code(choice.move.code)
            after = solve(rnd, max_nodes=50_000_000) if rnd.legal_codes() else None
            assert (-(after.value) if after else _final(rnd) * -1) >= -value  # type: ignore[union-attr]
            if rnd.legal_codes():
                rnd.apply_code(rnd.legal_codes()[0])
                if rnd.legal_codes():
                    assert book_floor(rnd, book) == (-value, 3)
                rnd.undo_code()
            rnd.undo_code()
        rnd.undo_code()


def test_without_a_proof_in_budget_it_falls_back_to_hard_search_and_counts_it() -> None:
    rnd = Round(LAYOUTS["rombo"], 0)
    rnd.apply_code(9)
    before = COUNTS["fallback"]
    empty = Book({"version": BOOK_VERSION, "layouts": {}})
    choice = perfect_choice(rnd, max_nodes=10_000, kept_nodes=10_000, fallback_nodes=5_000, book=empty)
    assert choice.source == "fallback" and choice.value is None and choice.move.code in rnd.legal_codes()
    assert COUNTS["fallback"] == before + 1


def test_perfect_is_a_level_of_choose_move_and_refuses_a_finished_round() -> None:
    assert "perfect" in LEVELS
    rnd = late_position("cinta", 9, 14)
    assert choose_move(rnd, "perfect").code in rnd.legal_codes()
    while rnd.legal_codes():
        rnd.apply_code(rnd.legal_codes()[0])
    with pytest.raises(IllegalMoveError):
        perfect_choice(rnd, fallback_nodes=1000)


def test_the_kept_proof_of_the_pure_python_search_agrees(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the compiled core the null-window proof runs in the Python search and finds an action the solver
    confirms; a bound above the position's value is refused."""
    rnd = late_position("flor", 8, 16)
    value = solve(rnd, max_nodes=20_000_000).value  # type: ignore[union-attr]
    monkeypatch.setattr(core_module, "core_available", lambda: False)
    kept = prove_at_least(rnd, value, 2_000_000)
    assert prove_at_least(rnd, value + 100, 2_000_000) is None
    monkeypatch.undo()
    assert kept is not None
    rnd.apply_code(kept[0].code)
    after = solve(rnd, max_nodes=20_000_000) if rnd.legal_codes() else None
    assert (-after.value if after else -_final(rnd)) >= value
