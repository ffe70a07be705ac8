"""Notation (section 8), layouts (section 2) and bad input: every refusal is specific."""

from __future__ import annotations

import pytest

from engine.constructo import EXPERIMENTAL, LAYOUTS, RECOMMENDED, Layout, Move, Round, Size
from engine.errors import IllegalMoveError, InvalidInputError

# ---- moves -------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["L5", "M1", "S9", "3-4", "9-8", "1-2"])
def test_notation_move_round_trip(text: str) -> None:
    m = Move.parse(text)
    assert str(m) == text
    assert Move.parse(str(m)) == m


def test_notation_parse_is_case_insensitive_and_trims() -> None:
    assert Move.parse("l5") == Move.place(Size.LARGE, 5)
    assert Move.parse("  m1 ") == Move.place("medium", 1)
    assert Move.parse("s9").size is Size.SMALL
    step = Move.parse(" 3-4 ")
    assert (step.src, step.dst, step.is_place) == (3, 4, False)
    place = Move.parse("L5")
    assert (place.size, place.tile, place.is_place, place.src) == (Size.LARGE, 5, True, None)


@pytest.mark.parametrize(
    ("text", "quoted"),
    [
        ("X5", "X5"),
        ("L", "L"),
        ("5", "5"),
        ("L 5", "L 5"),
        ("5L", "5L"),
        ("LL5", "LL5"),
        ("L5 M4", "L5 M4"),
        ("3 - 4", "3 - 4"),
        ("3--4", "3--4"),
        ("3-", "3-"),
        ("-4", "-4"),
        ("3-4-5", "3-4-5"),
        ("L5!", "L5!"),
        ("big5", "big5"),
        ("L٥", "L٥"),
        ("L５", "L５"),
        ("ſ5", "ſ5"),
    ],
)
def test_notation_garbage_is_refused_quoting_the_token(text: str, quoted: str) -> None:
    with pytest.raises(InvalidInputError) as info:
        Move.parse(text)
    assert info.value.rule == "Input"
    assert repr(quoted) in info.value.message


@pytest.mark.parametrize("text", ["L0", "L10", "M05", "0-1", "3-10", "10-3", "S99"])
def test_notation_tile_outside_1_9_is_invalid_input(text: str) -> None:
    with pytest.raises(InvalidInputError) as info:
        Move.parse(text)
    assert "1-9" in info.value.message and repr(text) in info.value.message


def test_notation_same_tile_move_and_empty_and_non_text() -> None:
    with pytest.raises(InvalidInputError, match="two different tiles"):
        Move.parse("4-4")
    with pytest.raises(InvalidInputError, match="empty"):
        Move.parse("   ")
    with pytest.raises(InvalidInputError, match="not int"):
        Move.parse(5)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError):
        Move.place("huge", 3)
    with pytest.raises(InvalidInputError):
        Move.place(Size.LARGE, 0)
    with pytest.raises(InvalidInputError):
        Move.step(1, 1)


def test_size_parse_and_letters() -> None:
    assert [s.letter for s in Size] == ["S", "M", "L"]
    assert Size.parse("m") is Size.MEDIUM and Size.parse("Medium") is Size.MEDIUM and Size.parse(3) is Size.LARGE
    for bad in ("x", "", "mediums", 0, 4):
        with pytest.raises(InvalidInputError):
            Size.parse(bad)  # type: ignore[arg-type]


def test_play_refuses_garbage_and_changes_nothing() -> None:
    rnd = Round(LAYOUTS["rombo"])
    rnd.play("L5")
    before = rnd.to_dict()
    for bad in ("L10", "Q1", "", "5-5", "pass"):
        with pytest.raises(IllegalMoveError):
            rnd.play(bad)
        assert rnd.to_dict() == before
    with pytest.raises(InvalidInputError):
        rnd.tile(0)
    with pytest.raises(InvalidInputError):
        rnd.tile(10)


# ---- records -----------------------------------------------------------------------------------


def test_notation_record_round_trip_named() -> None:
    rnd = Round(LAYOUTS["rombo"])
    for t in "L5 M4 S1 4-5".split():
        rnd.play(t)
    assert rnd.record() == "rombo: L5 M4 S1 4-5"
    again = Round.from_record(rnd.record())
    assert again.key() == rnd.key()
    assert again.history == rnd.history
    assert Round.from_record("ROMBO:  l5 m4  s1 4-5").key() == rnd.key()


def test_notation_record_with_coordinates_and_empty_record() -> None:
    cells = [(0, 0), (1, 0), (2, 0), (3, 0), (0, 1), (1, 1), (2, 1), (0, 2), (1, 2)]
    layout = Layout.from_cells(cells)
    assert layout.name is None
    rnd = Round(layout, first=1)
    rnd.play("M2")
    text = rnd.record()
    assert text == "(0,0) (1,0) (2,0) (3,0) (0,1) (1,1) (2,1) (0,2) (1,2): M2"
    again = Round.from_record(text, first=1)
    assert again.layout.cells == layout.cells and again.key() == rnd.key()
    empty = Round.from_record("flor:")
    assert empty.layout is LAYOUTS["flor"] and empty.history == []
    assert Round(LAYOUTS["cinta"]).record() == "cinta:"


@pytest.mark.parametrize(
    ("text", "error", "words"),
    [
        ("rombo L5", InvalidInputError, ["colon"]),
        ("nowhere: L5", InvalidInputError, ["'nowhere'", "known layouts"]),
        ("rombo: L5 Q7", InvalidInputError, ["action 2", "'Q7'"]),
        ("rombo: L5 S5", IllegalMoveError, ["action 2", "'S5'", "occupied"]),
        ("rombo: L5 M4 5-4", IllegalMoveError, ["action 3", "'5-4'"]),
        ("(0,0) (1,0): L5", InvalidInputError, ["exactly 9 cells"]),
    ],
)
def test_notation_bad_records_are_refused(text: str, error: type[Exception], words: list[str]) -> None:
    with pytest.raises(error) as info:
        Round.from_record(text)
    for w in words:
        assert w in str(info.value)


# ---- layouts -----------------------------------------------------------------------------------


def test_layouts_six_named_from_data_file() -> None:
    assert RECOMMENDED == ("rombo", "flor", "cinta", "corona")
    assert EXPERIMENTAL == ("linea", "estrella")
    assert set(LAYOUTS) == set(RECOMMENDED) | set(EXPERIMENTAL)
    assert set(LAYOUTS["rombo"].cells) == {(q, r) for q in range(3) for r in range(3)}
    corona = set(LAYOUTS["corona"].cells)
    assert {(0, 0), (1, 0), (0, 1)}.isdisjoint(corona)
    assert all(len(LAYOUTS["corona"].neighbours(n)) == 2 for n in range(1, 10))  # a ring
    for layout in LAYOUTS.values():
        assert len(layout.cells) == 9 and Layout.parse(layout.to_text()) is layout
        assert Layout.parse(layout.coords_text()) is layout  # coordinates of a named layout give the name back
        assert Layout.from_dict(layout.to_dict()) is layout


def test_layout_parse_names_and_coordinates() -> None:
    assert Layout.parse(" Rombo ") is LAYOUTS["rombo"]
    custom = Layout.parse("(0,0),(1,0),(2,0),(3,0),(4,0),(5,0),(6,0),(7,0),(7,1)")
    assert custom.name is None and custom.cells[-1] == (7, 1)
    assert Layout.parse("( 0 , 0 ) (1,0)(2,0) (3,0) (4,0) (5,0) (6,0) (7,0) (-1,1)").cells[-1] == (-1, 1)


@pytest.mark.parametrize(
    ("cells", "words"),
    [
        ([(0, 0)] * 9, ["appears twice"]),
        ([(i, 0) for i in range(8)], ["exactly 9", "got 8"]),
        ([(i, 0) for i in range(10)], ["exactly 9", "got 10"]),
        ([(i, 0) for i in range(8)] + [(9, 9)], ["too far", "(9,9)"]),
        ([(i - 4, 0) for i in range(8)] + [(-4, 8)], ["not connected", "(-4,8)"]),
        ([(i, 0) for i in range(4)] + [(i, 2) for i in range(5)], ["not connected"]),
        ([(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 0), (7, 0), (0, "1")], ["two integers"]),
        ([(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 0), (7, 0), (1.0, 1)], ["two integers"]),
        ([(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 0), (7, 0), (1, 1, 1)], ["not a (q, r) pair"]),
        ([(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 0), (7, 0), 5], ["not a (q, r) pair"]),
        ("rombo", ["list of 9"]),
    ],
)
def test_layout_custom_cells_refused_with_reason(cells: object, words: list[str]) -> None:
    with pytest.raises(InvalidInputError) as info:
        Layout.from_cells(cells)  # type: ignore[arg-type]
    for w in words:
        assert w in info.value.message, info.value.message


def test_layout_corner_cells_at_8_are_allowed() -> None:
    cells = [(8, -i) for i in range(9)]
    assert Layout.from_cells(cells).cells[0] == (8, -8)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", ["empty"]),
        ("square", ["'square'"]),
        ("(0,0) (1,0) [2,0]", ["'[2,0]'"]),
        ("(0,0) (1,0) (2,0", ["'(2,0'"]),
        ("(0,0) (1,0) (a,0)", ["'(a,0)'"]),
        ("(0,0) (1,0) (2,0) (3,0) (4,0) (5,0) (6,0) (7,0)", ["got 8"]),
    ],
)
def test_layout_parse_refuses_with_quoted_token(text: str, words: list[str]) -> None:
    with pytest.raises(InvalidInputError) as info:
        Layout.parse(text)
    for w in words:
        assert w in info.value.message, info.value.message


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"size": Size.LARGE},
        {"tile": 3},
        {"src": 1},
        {"size": Size.SMALL, "tile": 10},
        {"size": 2, "tile": 3},
        {"src": 2, "dst": 2},
        {"size": Size.SMALL, "tile": 1, "src": 1, "dst": 2},
        {"src": 0, "dst": 1},
    ],
)
def test_move_constructor_refuses_malformed_moves(kwargs: dict[str, object]) -> None:
    with pytest.raises(InvalidInputError):
        Move(**kwargs)  # type: ignore[arg-type]
