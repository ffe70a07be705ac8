"""Versioned to_dict/from_dict of rounds and matches: round trips and refusals (StateError)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from engine.constructo import LAYOUTS, Layout, Match, Round
from engine.errors import StateError


def sample_round() -> Round:
    rnd = Round(LAYOUTS["rombo"], first=1)
    for t in "L5 M4 S1 4-5 L6".split():
        rnd.play(t)
    return rnd


def test_round_to_dict_is_json_and_round_trips() -> None:
    rnd = sample_round()
    d = rnd.to_dict()
    assert d["version"] == 1
    assert d["moves"] == ["L5", "M4", "S1", "4-5", "L6"]
    again = Round.from_dict(json.loads(json.dumps(d)))
    assert again.key() == rnd.key() and again.first == 1 and again.to_dict() == d


def test_round_from_dict_custom_layout() -> None:
    layout = Layout.from_cells([(i, 0) for i in range(8)] + [(0, 1)])
    rnd = Round(layout)
    rnd.play("S9")
    again = Round.from_dict(rnd.to_dict())
    assert again.layout.cells == layout.cells and again.layout.name is None


def mutated(**changes: Any) -> dict[str, Any]:
    d = copy.deepcopy(sample_round().to_dict())
    d.update(changes)
    return d


@pytest.mark.parametrize(
    ("d", "words"),
    [
        ("nope", ["must be an object"]),
        (mutated(version=2), ["version 2"]),
        (mutated(version=None), ["version None"]),
        (mutated(first=3), ["'first'"]),
        (mutated(moves="L5"), ["'moves'"]),
        (mutated(layout={"name": "rombo", "cells": [[0, 0]]}), ["bad layout", "exactly 9"]),
        (mutated(layout={"name": "flor", "cells": LAYOUTS["rombo"].to_dict()["cells"]}), ["differ"]),
        (mutated(moves=["L5", "M4", "S5"]), ["stored action 3", "'S5'", "T2"]),
        (mutated(to_move=1 - sample_round().current_player), ["bad turn"]),
        (mutated(to_move=7), ["'to_move'"]),
    ],
)
def test_round_from_dict_refuses(d: Any, words: list[str]) -> None:
    with pytest.raises(StateError) as info:
        Round.from_dict(d)
    assert info.value.rule == "State"
    for w in words:
        assert w in info.value.message, info.value.message


def test_round_from_dict_impossible_stack() -> None:
    d = mutated()
    d["tiles"][4] = [[0, "L"], [1, "S"]]  # a small straight onto a large (K3)
    with pytest.raises(StateError, match="tile 5: impossible stack"):
        Round.from_dict(d)
    d["tiles"][4] = [[0, "L"], [0, "M"]]  # onto own colour (K5)
    with pytest.raises(StateError, match="impossible stack"):
        Round.from_dict(d)
    d["tiles"][4] = [[0, "L"], [1, "X"]]
    with pytest.raises(StateError, match="bad chip"):
        Round.from_dict(d)


def test_round_from_dict_wrong_chip_counts() -> None:
    d = mutated()
    assert d["tiles"][0] == [[1, "S"]]
    d["reserves"][1]["S"] = 3  # player 1 has a small on tile 1 (S1)
    with pytest.raises(StateError, match="total must be 3"):
        Round.from_dict(d)
    d = mutated()
    d["tiles"] = [[[0, "L"]]] * 4 + [[]] * 5
    with pytest.raises(StateError, match="4 large chips on the board"):
        Round.from_dict(d)


def test_round_from_dict_redundant_field_disagrees_with_moves() -> None:
    d = mutated()
    d["tiles"][8] = [[1, "S"]]  # plausible on its own, but no move put it there
    d["reserves"][1]["S"] -= 1
    d["to_move"] = 1 - d["to_move"]
    with pytest.raises(StateError, match="disagrees with the replayed moves"):
        Round.from_dict(d)
    d = mutated(score=[5, 0])
    with pytest.raises(StateError, match="'score'"):
        Round.from_dict(d)


def finished_match() -> Match:
    match = Match.new("rombo", first=0)
    for t in "L2 S3 L7 M6 S4 S5 M9 L8 M1".split():
        match.play(t)
    match.choose_layout(1, "flor")
    return match


def test_match_to_dict_round_trips_in_every_phase() -> None:
    match = Match.new(LAYOUTS["cinta"], first=1)
    for _ in range(3):
        again = Match.from_dict(json.loads(json.dumps(match.to_dict())))
        assert again.to_dict() == match.to_dict()
        match.play(match.current_round.legal_moves()[0])
    m2 = finished_match()
    assert Match.from_dict(m2.to_dict()).phase == "playing" and Match.from_dict(m2.to_dict()).round_no == 2
    m2.resign(0)
    back = Match.from_dict(m2.to_dict())
    assert back.resigned == 0 and back.winner == 1 and back.is_over


def v1_dict(match: Match) -> dict[str, Any]:
    """The version-1 form of ``match`` (what the bot stored before the game protocol)."""
    return {
        "version": 1,
        "first": match.first,
        "rounds": [r.to_dict() for r in match.rounds],
        "resigned": match.resigned,
        "phase": match.phase,
        "totals": list(match.totals()),
    }


def test_match_v1_loads_and_migrates_to_v2() -> None:
    match = finished_match()
    match.play(match.current_round.legal_moves()[0])
    back = Match.from_dict(json.loads(json.dumps(v1_dict(match))))
    assert back.to_dict() == match.to_dict() and back.to_dict()["version"] == 2
    assert back.history == match.history and back.history[9] == (1, "layout flor")
    match.resign(1)
    back = Match.from_dict(v1_dict(match))
    assert back.resigned == 1 and back.history[-1] == (1, "forfeit") and back.outcome == match.outcome


def test_match_v2_from_dict_refuses() -> None:
    good = finished_match().to_dict()
    cases: list[tuple[dict[str, Any], str]] = []
    d = copy.deepcopy(good)
    d["history"][3] = [1, "L2"]
    cases.append((d, "history entry 3 'L2'"))
    d = copy.deepcopy(good)
    d["history"][0] = [1, "L2"]
    cases.append((d, "history entry 0 'L2'"))
    d = copy.deepcopy(good)
    d["setup"] = {"layout": "nowhere", "first": 0}
    cases.append((d, "unknown layout"))
    d = copy.deepcopy(good)
    d["history"] = "L2 S3"
    cases.append((d, "'history' must be a list"))
    d = copy.deepcopy(good)
    d["totals"] = [9, 9]
    cases.append((d, "stored 'totals'"))
    d = copy.deepcopy(good)
    d["outcome"] = {"ranking": [[0], [1]], "reason": "M2", "results": ["win", "loss"], "scores": [1, 0]}
    cases.append((d, "stored 'outcome'"))
    d = copy.deepcopy(good)
    d["game"] = "conex"
    cases.append((d, "not a Constructo state"))
    for bad, words in cases:
        with pytest.raises(StateError) as info:
            Match.from_dict(bad)
        assert words in info.value.message, (words, info.value.message)


def test_match_v1_from_dict_refuses() -> None:
    good = v1_dict(finished_match())
    cases: list[tuple[dict[str, Any], str]] = []
    d = copy.deepcopy(good)
    d["version"] = 9
    cases.append((d, "version 9"))
    d = copy.deepcopy(good)
    d["rounds"] = []
    cases.append((d, "1 or 2 rounds"))
    d = copy.deepcopy(good)
    d["rounds"][1]["first"] = 0
    d["rounds"][1].pop("to_move")
    cases.append((d, "round 2 must be started by player 1"))
    d = copy.deepcopy(good)
    d["rounds"][0]["moves"] = d["rounds"][0]["moves"][:3]
    for k in ("to_move", "tiles", "reserves", "score", "over"):
        d["rounds"][0].pop(k)
    cases.append((d, "round 1 is not over"))
    d = copy.deepcopy(good)
    d["resigned"] = 2
    cases.append((d, "'resigned'"))
    d = copy.deepcopy(good)
    d["phase"] = "over"
    cases.append((d, "stored 'phase'"))
    d = copy.deepcopy(good)
    d["totals"] = [1, 0]
    cases.append((d, "stored 'totals'"))
    d = copy.deepcopy(good)
    d["rounds"][1]["version"] = 0
    cases.append((d, "round 2: unknown round state version"))
    for bad, words in cases:
        with pytest.raises(StateError) as info:
            Match.from_dict(bad)
        assert words in info.value.message, (words, info.value.message)
