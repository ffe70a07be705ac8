"""Worked checks of rules/constructo.md section 9 and every rule code C1-C4, T1-T5, K1-K5, S1-S3, E1-E2."""

from __future__ import annotations

import pytest

from engine.constructo import LAYOUTS, IllegalMoveError, Layout, Move, NotYourTurnError, Round, Size
from engine.errors import InvalidInputError

S, M, L = Size.SMALL, Size.MEDIUM, Size.LARGE


def play_all(rnd: Round, text: str) -> Round:
    for token in text.split():
        rnd.play(token)
    return rnd


def rombo(text: str = "", first: int = 0) -> Round:
    return play_all(Round(LAYOUTS["rombo"], first), text)


def refused(rnd: Round, move: str, rule: str, *words: str) -> IllegalMoveError:
    """Assert ``move`` is refused with ``rule``, the message holds ``words``, and nothing changed."""
    before = rnd.to_dict()
    with pytest.raises(IllegalMoveError) as info:
        rnd.play(move)
    err = info.value
    assert err.rule == rule, str(err)
    assert str(err).startswith(f"{rule}: ")
    for w in words:
        assert w in err.message, err.message
    assert rnd.to_dict() == before
    return err


# ---- section 9: worked checks -----------------------------------------------------------------


def test_check1_empty_rombo_27_actions() -> None:
    rnd = rombo()
    moves = rnd.legal_moves()
    assert len(moves) == 27
    assert {str(m) for m in moves} == {f"{s}{t}" for s in "SML" for t in range(1, 10)}
    assert rnd.current_player == 0


def test_check2_L5_M4_then_21_placements_and_medium_onto_large() -> None:
    rnd = rombo("L5 M4")
    assert 4 in rnd.layout.neighbours(5)
    moves = rnd.legal_moves()
    assert all(m.is_place for m in moves)
    assert len(moves) == 21  # 7 empty tiles x 3 sizes
    assert Move.step(5, 4) not in moves
    refused(rnd, "5-4", "K5", "large", "medium")
    rnd.play("S1")
    assert Move.parse("4-5") in rnd.legal_moves()
    rnd.play("4-5")
    assert rnd.tile(5) == ((0, L), (1, M))
    assert rnd.tile(4) == ()
    assert rnd.is_blocked(5)
    assert rnd.tower_owner(5) == 1
    assert rnd.score() == (0, 1)


def test_check3_K3_small_alone_next_to_lone_large_has_no_move() -> None:
    rnd = rombo("S5 L4 L9 S1")  # player 0's small on 5 next to player 1's lone large on 4
    assert rnd.current_player == 0
    assert not any(not m.is_place and m.src == 5 for m in rnd.legal_moves())
    refused(rnd, "5-4", "K3", "small", "large", "tile 4")


def test_check4_K4_swallow_is_no_tower_then_medium_makes_tower() -> None:
    rnd = rombo("L5 S4 5-4")
    assert rnd.tile(4) == ((1, S), (0, L))
    assert rnd.is_swallow(4)
    assert rnd.tower_owner(4) is None
    assert rnd.score() == (0, 0)
    rnd.play("M1")  # player 1, owner of the swallowed small
    rnd.play("S9")
    rnd.play("1-4")
    assert rnd.tile(4) == ((1, S), (0, L), (1, M))
    assert not rnd.is_swallow(4)
    assert rnd.tower_owner(4) == 1
    assert rnd.score() == (0, 1)


def test_check5_E1_full_board_without_moves_ends_round_with_chips_left() -> None:
    rnd = rombo("L2 S3 L7 M6 S4 S5 M9 L8 M1")
    assert all(rnd.tile(n) for n in range(1, 10))
    p = rnd.current_player
    assert p == 1
    assert sum(rnd.reserve(p).values()) == 5
    assert rnd.legal_moves() == []
    assert rnd.is_over
    refused(rnd, "4-6", "E1", "over")


# ---- C: components ---------------------------------------------------------------------------


def test_C1_players_are_0_and_1_and_first_starts() -> None:
    rnd = Round(LAYOUTS["rombo"], first=1)
    assert rnd.current_player == 1
    rnd.play("L5")
    assert rnd.tile(5) == ((1, L),)
    assert rnd.current_player == 0
    with pytest.raises(InvalidInputError):
        Round(LAYOUTS["rombo"], first=2)


def test_C2_three_chips_of_each_size() -> None:
    rnd = rombo()
    assert rnd.reserve(0) == {S: 3, M: 3, L: 3} == rnd.reserve(1)
    play_all(rnd, "L1 L2 L3 L4 L5 L6")
    assert rnd.reserve(0)[L] == 0
    err = refused(rnd, "L7", "C2", "no large")
    assert err.details["size"] == "L"
    assert not any(m.is_place and m.size == L for m in rnd.legal_moves())


def test_C3_adjacency_is_the_six_axial_directions() -> None:
    dirs = {(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)}
    for layout in LAYOUTS.values():
        for a in range(1, 10):
            for b in range(1, 10):
                qa, ra = layout.cells[a - 1]
                qb, rb = layout.cells[b - 1]
                assert (b in layout.neighbours(a)) == ((qb - qa, rb - ra) in dirs)
    assert LAYOUTS["rombo"].neighbours(5) == (2, 3, 4, 6, 7, 8)
    assert LAYOUTS["linea"].neighbours(1) == (2,)


def test_C4_tiles_numbered_in_reading_order() -> None:
    for layout in LAYOUTS.values():
        assert list(layout.cells) == sorted(layout.cells, key=lambda c: (c[1], c[0]))
    shuffled = list(reversed(LAYOUTS["flor"].cells))
    assert Layout.from_cells(shuffled).cells == LAYOUTS["flor"].cells
    assert LAYOUTS["corona"].cells[0] == (0, -1)  # smallest r first, then smallest q
    assert LAYOUTS["corona"].cells[3] == (-1, 0)


# ---- T: a turn -------------------------------------------------------------------------------


def test_T1_players_alternate_and_move_only_own_lone_chip_to_adjacent() -> None:
    rnd = rombo("L5 M4")
    assert rnd.current_player == 0
    refused(rnd, "4-5", "T1", "opponent")  # player 1's medium
    refused(rnd, "1-5", "T1", "empty")
    rnd2 = rombo("M1 L9 S2")  # player 1's large on 9 is not adjacent to player 0's medium on 1
    rnd2.play("S3")
    refused(rnd2, "1-9", "T1", "not adjacent")
    with pytest.raises(NotYourTurnError) as info:
        rnd2.play("L6", player=1)
    assert info.value.rule == "NotYourTurn"
    rnd2.play("L6", player=0)
    assert rnd2.current_player == 1


def test_T2_no_placing_on_an_occupied_tile() -> None:
    rnd = rombo("L5")
    err = refused(rnd, "S5", "T2", "tile 5", "occupied")
    assert err.details["tile"] == 5
    assert all(m.tile != 5 for m in rnd.legal_moves())


def test_T3_no_move_onto_an_empty_tile() -> None:
    rnd = rombo("M5 S1")
    refused(rnd, "5-4", "T3", "tile 4", "empty")


def test_T4_chips_on_a_blocked_tile_never_move() -> None:
    rnd = rombo("L5 M4 S1 4-5 L6")  # tile 5 = [L0, M1], player 1's medium on top
    assert rnd.is_blocked(5)
    rnd.play("S9")
    rnd.play("S8")  # player 0
    # player 1's medium on 5 could go onto player 0's large on 6 were it not blocked
    refused(rnd, "5-6", "T4", "blocked")
    assert not any(not m.is_place and m.src == 5 for m in rnd.legal_moves())


def test_T5_no_passing_and_a_new_chip_moves_next_turn() -> None:
    rnd = rombo("L5")
    with pytest.raises(InvalidInputError) as info:
        rnd.play("pass")
    assert info.value.rule == "T5"
    rnd.play("M4")  # player 1
    rnd.play("S9")
    assert Move.step(4, 5) in rnd.legal_moves()  # placed last turn, may move now


# ---- K: stacking ------------------------------------------------------------------------------


def test_K1_medium_onto_opponent_large() -> None:
    rnd = rombo("L5 M4 S1")
    rnd.play("4-5")
    assert rnd.tile(5) == ((0, L), (1, M))


def test_K2_small_onto_opponent_medium() -> None:
    rnd = rombo("M5 S4 L1")
    rnd.play("4-5")
    assert rnd.tile(5) == ((0, M), (1, S))
    assert rnd.tower_owner(5) == 1


def test_K3_small_never_onto_large() -> None:
    rnd = rombo("L5 S4 L1")
    err = refused(rnd, "4-5", "K3", "small", "large", "tile 5 has your opponent's large on top")
    assert err.details["tile"] == 5


def test_K3_nothing_onto_a_small_except_swallow() -> None:
    rnd = rombo("S5 M4 L1")
    refused(rnd, "4-5", "K3", "small")


def test_K4_large_swallows_only_a_lone_small() -> None:
    # tile 5 = [M0, S1] (a tower with a small on top): a large may not swallow that small
    rnd = rombo("M5 S4 L9 4-5 L6")
    assert rnd.tile(5) == ((0, M), (1, S))
    rnd.play("S1")  # player 1
    refused(rnd, "6-5", "K4", "standing alone", "2 chips")


def test_K4_swallowed_stack_acts_as_plain_large_for_K1() -> None:
    rnd = rombo("L5 S4 5-4 M2 S9 2-4")
    assert rnd.tile(4) == ((1, S), (0, L), (1, M))
    rnd2 = rombo("L5 S4 5-4 L2 S9")  # player 1 to move: a large may not land on the swallowing large
    refused(rnd2, "2-4", "K5", "large")


def test_K5_nothing_else_and_never_onto_own_colour() -> None:
    rnd = rombo("M5 L4 L1")
    refused(rnd, "4-5", "K5", "large", "medium")  # large onto medium
    rnd = rombo("L5 L4 S1")
    refused(rnd, "4-5", "K5", "large")  # large onto large
    rnd = rombo("M5 M4 S1")
    refused(rnd, "4-5", "K5", "medium")  # medium onto medium
    rnd = rombo("L5 S9 M4")
    rnd.play("S1")
    refused(rnd, "4-5", "K5", "own colour")  # medium onto own large


def test_K5_tallest_stack_small_large_medium_small() -> None:
    # player 1: S4; player 0: L5 swallows it (5-4); player 1: M1 onto 4; player 0: S2 onto 4.
    rnd = rombo("L5 S4 5-4 M1 S2 1-4 2-4")
    assert rnd.tile(4) == ((1, S), (0, L), (1, M), (0, S))
    assert rnd.tower_owner(4) == 0
    assert not any(not m.is_place and m.dst == 4 for m in rnd.legal_moves())


# ---- S: scoring -------------------------------------------------------------------------------


def test_S1_swallow_alone_is_not_a_tower() -> None:
    rnd = rombo("L5 S4 5-4")
    assert rnd.is_blocked(4) and rnd.is_swallow(4)
    assert rnd.score() == (0, 0)


def test_S2_each_tower_scores_one_whatever_its_height() -> None:
    rnd = rombo("L5 S4 5-4 M1 S2 1-4 2-4")  # a 4-high tower on 4 for player 0
    play_all(rnd, "M8 S7 L1")
    rnd.play("7-8")  # player 0's small onto player 1's medium: a 2-high tower for player 0
    assert rnd.tower_owner(4) == 0 and rnd.tower_owner(8) == 0
    assert rnd.score() == (2, 0)


def test_S3_running_count_before_the_end() -> None:
    rnd = rombo("L5 M4 S1 4-5")
    assert not rnd.is_over
    assert rnd.score() == (0, 1)


# ---- E: end of a round ------------------------------------------------------------------------


def test_E1_round_ends_when_player_to_move_has_no_action_even_if_other_has() -> None:
    rnd = rombo("L2 S3 L7 M6 S4 S5 M9 L8 M1")
    assert rnd.current_player == 1 and rnd.is_over
    # the other player (0) still has an action: their large on 2 could swallow the lone small on 3
    flipped = rnd.copy()
    flipped._turn = 0
    flipped._legal = None
    assert Move.step(2, 3) in flipped.legal_moves()
    err = refused(rnd, "S9", "E1", "over")
    assert err.details["score"] == rnd.score()
    assert rnd.legal_moves() == []


def test_E2_scores_are_final_and_a_round_can_end_tied() -> None:
    rnd = rombo("L2 S3 L7 M6 S4 S5 M9 L8 M1")
    assert rnd.is_over
    assert rnd.score() == (0, 0)
    assert rnd.winner is None
