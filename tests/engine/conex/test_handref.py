"""Hand letters beyond Z (AA, AB...) and the capped legal-count label (issue 6 follow-up)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.conex.handref import LEGAL_CAP, hand_index, hand_letter, legal_label


def test_letters_go_on_past_z_like_spreadsheet_columns() -> None:
    assert [hand_letter(i) for i in (0, 1, 25, 26, 27, 51, 52, 701, 702)] == [
        "A",
        "B",
        "Z",
        "AA",
        "AB",
        "AZ",
        "BA",
        "ZZ",
        "AAA",
    ]
    assert len({hand_letter(i) for i in range(60)}) == 60
    with pytest.raises(ValueError):
        hand_letter(-1)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=5000))
def test_hand_index_reads_back_every_letter(i: int) -> None:
    letter = hand_letter(i)
    assert hand_index(letter) == i and hand_index(letter.lower()) == i


def test_hand_index_rejects_non_letters() -> None:
    assert [hand_index(t) for t in ("12", "#3", "A1", "", "ABCD", "é")] == [None] * 6


def test_legal_label_marks_the_cap_with_a_plus() -> None:
    assert legal_label(0) == "no legal spot"
    assert legal_label(3) == "3 legal"
    assert legal_label(LEGAL_CAP) == f"{LEGAL_CAP}+ legal"
    assert legal_label(4, cap=4) == "4+ legal"
