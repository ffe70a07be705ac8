"""Action text round-trips and bad input (NaN, inf, 1e9, -0.0, rotations 720 / -90)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.conex import Action, Discard, Draw, Lightning, Pass, Place
from engine.errors import InvalidInputError


@pytest.mark.parametrize(
    "text",
    ["place 12 c2 at 3.5,-10.0 r90 x2", "place 12 c2 at 3.5,-10.0", "draw", "pass", "lightning 7", "discard 31"],
)
def test_round_trip(text: str) -> None:
    action = Action.parse(text, 1)
    assert str(action) == text
    assert Action.parse(str(action), 1) == action


def test_lenient_input() -> None:
    a = Action.parse("  PLACE #12 corner 2 (3.5, -10) rot 90° x2 ", 0)
    assert a == Place(0, 12, 2, 3.5, -10.0, 90.0, True)
    assert Action.parse("lightning #7", 2) == Lightning(2, 7)
    assert Action.parse("discard 31", 3) == Discard(3, 31)
    assert Action.parse("Draw", 0) == Draw(0) and Action.parse("pass", 0) == Pass(0)


@pytest.mark.parametrize(
    "text", ["place 1 c1 at nan,0", "place 1 c1 at inf,0", "place 1 c1 at 0,-inf", "place 1 c1 at 1e9,0"]
)
def test_bad_numbers_are_input_errors(text: str) -> None:
    with pytest.raises(InvalidInputError) as exc:
        Action.parse(text, 0)
    assert exc.value.rule == "Input"


@pytest.mark.parametrize("text", ["", "place", "place 1 at 1,2", "jump 3", "lightning", "place 1 c1 at 1,2 r", None, 7])
def test_unreadable_text(text: object) -> None:
    with pytest.raises(InvalidInputError):
        Action.parse(text, 0)  # type: ignore[arg-type]


def test_normalisation_of_rotation_and_negative_zero() -> None:
    assert Place(0, 1, 1, -0.0, -0.0, 720.0) == Place(0, 1, 1, 0.0, 0.0, 0.0)
    assert Place(0, 1, 1, 0.0, 0.0, -90.0).rotation == 270.0
    assert str(Place(0, 1, 1, -0.0, 2.0, -0.0)) == "place 1 c1 at 0.0,2.0 r0"
    with pytest.raises(InvalidInputError):
        Place(0, 1, 1, math.nan, 0.0)
    with pytest.raises(InvalidInputError):
        Place(0, 1, 1, 0.0, 0.0, math.inf)
    with pytest.raises(InvalidInputError):
        Place(0, 1, 1, 0.0, 0.0, double="yes")  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError):
        Place(0, True, 1, 0.0, 0.0)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError):
        Draw(7)


@settings(max_examples=60, deadline=None)
@given(
    card=st.integers(1, 52),
    corner=st.integers(1, 3),
    x=st.floats(-1000, 1000, allow_nan=False),
    y=st.floats(-1000, 1000, allow_nan=False),
    rot=st.one_of(st.none(), st.floats(-1e6, 1e6, allow_nan=False)),
    double=st.booleans(),
)
def test_place_text_round_trips_exactly(
    card: int, corner: int, x: float, y: float, rot: float | None, double: bool
) -> None:
    place = Place(2, card, corner, x, y, rot, double)
    again = Action.parse(str(place), 2)
    assert again == place
