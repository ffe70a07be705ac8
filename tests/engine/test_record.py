"""Game records (issue 16, engine/record.py): finished games of both kinds exported to small JSON and replayed to the
very same state; malformed or tampered records refused with StateError; the game class found only among the classes
the caller passes or registered (``register_game``), never by importing a name a record holds."""

from __future__ import annotations

import copy
import json
import random
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.conex import Game
from engine.constructo import Match
from engine.errors import StateError
from engine.protocol import Outcome
from engine.record import (
    FORMAT,
    GAMES,
    MAX_ACTION_CHARS,
    MAX_ACTIONS,
    VERSION,
    export_record,
    game_class,
    load_record,
    parse_record,
    register_game,
    replay_steps,
)
from tests.engine.record_games import NAMES, conex_game, constructo_match

BOTH = (Game, Match)
"""The state classes the records of these tests may be of (as the bot passes ``kind.engine``)."""
COORDS = "(0,0) (1,0) (2,0) (3,0) (4,0) (5,0) (6,0) (7,0) (7,1)"  # a custom layout (no name)


def round_trip(state: Any) -> tuple[dict[str, Any], Any]:
    rec = export_record(state, names=NAMES[: state.num_players])
    text = json.dumps(rec)
    return rec, load_record(json.loads(text), BOTH)


def refused(rec: dict[str, Any], field: str | None = None) -> StateError:
    with pytest.raises(StateError) as info:
        load_record(rec, BOTH)
    assert info.value.rule == "State"
    if field is not None:
        assert info.value.details.get("field") == field, info.value
    return info.value


# ----------------------------------------------------------------------------------------------
# round trips
# ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("end", ["M2", "M3", "timeout"])
@pytest.mark.parametrize("second", ["flor", None, COORDS])
def test_constructo_round_trip_with_layout_choice_resignation_and_timeout(end: str, second: str | None) -> None:
    m = constructo_match(3, end=end, second=second)
    rec, back = round_trip(m)
    assert isinstance(back, Match)
    assert back.to_dict() == m.to_dict()
    assert rec["outcome"]["reason"] == end and rec["game"] == "constructo" and rec["state_version"] == 2
    assert [tuple(e) for e in rec["history"]] == m.history
    if len(m.rounds) == 2:
        assert any(text.startswith("layout ") for _, text in m.history)  # the layout choice is in the record


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 1)])
def test_conex_round_trip_with_lightning_discards_timeouts_and_forfeit(players: int, seed: int) -> None:
    g = conex_game(players, seed)
    texts = [t for _, t in g.history]
    assert any(t.startswith("lightning") for t in texts) and any(t.startswith("discard") for t in texts)
    assert "timeout" in texts and "forfeit" in texts
    rec, back = round_trip(g)
    assert isinstance(back, Game)
    assert back.to_dict() == g.to_dict()
    assert Outcome.from_dict(rec["outcome"]) == g.outcome
    assert rec["players"] == list(NAMES[:players])


def test_record_is_small_and_holds_no_state_snapshot() -> None:
    g = conex_game(4, 1, goal=100, forfeit_at=None, timeouts=0.0)
    rec = export_record(g, names=NAMES)
    size = len(json.dumps(rec))
    assert size * 2.5 < len(json.dumps(g.to_dict()))
    assert set(rec) == {"format", "version", "game", "state_version", "setup", "history", "players", "outcome"}
    assert size < 40 * len(g.history) + 1000  # history text dominates: ~30 characters per action


def test_meta_is_stored_as_json_and_ignored_by_the_engine() -> None:
    m = constructo_match(2)
    rec = export_record(m, names=NAMES[:2], meta={"game_id": 17, "finished_at": "2026-01-01T00:00:00Z"})
    assert rec["meta"] == {"game_id": 17, "finished_at": "2026-01-01T00:00:00Z"}
    assert parse_record(rec, BOTH).meta["game_id"] == 17
    assert load_record(rec, [Match]).to_dict() == m.to_dict()
    with pytest.raises(ValueError):
        export_record(m, names=NAMES[:2], meta={"when": object()})


def test_a_running_game_is_exported_only_on_purpose() -> None:
    g = Game.new(players=2, seed=99)
    with pytest.raises(ValueError, match="still running"):
        export_record(g, names=NAMES[:2])
    rec = export_record(g, names=NAMES[:2], unfinished=True)
    assert rec["outcome"] is None and load_record(rec, [Game]).to_dict() == g.to_dict()


def test_names_must_be_one_string_per_seat() -> None:
    m = constructo_match(2)
    for names in (["Alice"], ["Alice", "Bob", "Carol"], ["Alice", 7], ["Alice", "B" * 101]):
        with pytest.raises(ValueError):
            export_record(m, names=names)  # type: ignore[arg-type]


def test_replay_steps_yield_the_start_and_every_action_with_its_events() -> None:
    g = conex_game(3, 2)
    fresh = Game.new(g.setup)
    seen = 0
    for step in replay_steps(Game, g.setup, g.history):
        if step.index == 0:
            assert step.action is None and step.events == () and step.state.to_dict() == fresh.to_dict()
        else:
            seat, text = g.history[step.index - 1]
            applied = fresh.apply(fresh.parse_action(text, seat))
            assert (step.seat, step.text, step.action, step.events) == (seat, text, applied.action, applied.events)
            assert step.state.to_dict() == fresh.to_dict()
        seen += 1
    assert seen == len(g.history) + 1


# ----------------------------------------------------------------------------------------------
# tampered and malformed records
# ----------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def conex_rec() -> dict[str, Any]:
    return export_record(conex_game(3, 2), names=NAMES[:3])


@pytest.fixture(scope="module")
def constructo_rec() -> dict[str, Any]:
    return export_record(constructo_match(4), names=NAMES[:2])


def test_an_outcome_that_disagrees_with_the_history_is_refused(conex_rec: dict[str, Any]) -> None:
    for change in (
        lambda o: o.update(scores=[s + 1 for s in o["scores"]]),
        lambda o: o.update(ranking=list(reversed(o["ranking"])), results=list(reversed(o["results"]))),
        lambda o: o.update(reason="E2-pass"),
        lambda o: o.update(forfeited=[]),
    ):
        rec = copy.deepcopy(conex_rec)
        change(rec["outcome"])
        refused(rec, "outcome")
    refused({**conex_rec, "outcome": None}, "outcome")  # the replay ends the game, the record says it runs


def test_a_history_that_does_not_replay_is_refused(constructo_rec: dict[str, Any]) -> None:
    rec = copy.deepcopy(constructo_rec)
    rec["history"][3][1] = "9-9"  # no such move
    err = refused(rec, "history")
    assert err.details["index"] == 3
    swapped = copy.deepcopy(constructo_rec)
    swapped["history"][0][0] = 1 - swapped["history"][0][0]  # not that seat's turn
    assert refused(swapped, "history").details["refused"] == "NotYourTurn"
    extra = copy.deepcopy(constructo_rec)
    extra["history"].append([0, "L5"])  # after the end of the match
    assert refused(extra, "history").details["index"] == len(constructo_rec["history"])
    short = copy.deepcopy(constructo_rec)
    short["history"].pop()  # the match no longer ends: the recorded outcome is a lie
    refused(short, "outcome")


def test_a_changed_seed_is_refused(conex_rec: dict[str, Any]) -> None:
    rec = copy.deepcopy(conex_rec)
    rec["setup"]["seed"] += 1  # other hands: placements of cards not in hand, or another outcome
    refused(rec)


@pytest.mark.parametrize("seat", [-1, 3, 99, True])
def test_a_seat_outside_the_game_is_refused(conex_rec: dict[str, Any], seat: Any) -> None:
    rec = copy.deepcopy(conex_rec)
    rec["history"][0][0] = seat
    refused(rec, "history")


@pytest.mark.parametrize(
    "game",
    [
        "Conex",
        "../conex",
        "conex.ai",
        "protocol",
        "errors",
        "record",
        "data",
        "os",
        "chess",
        "",
        None,
        7,
        "a" * 33,
        "conex\n",
    ],
)
def test_a_record_makes_the_loader_import_nothing(conex_rec: dict[str, Any], game: Any) -> None:
    before = set(sys.modules)
    refused({**conex_rec, "game": game}, "game")
    assert set(sys.modules) - before == set()
    with pytest.raises(StateError):
        game_class(game, BOTH)


def test_the_game_class_is_one_the_caller_passes() -> None:
    assert game_class("conex", BOTH) is Game and game_class("constructo", BOTH) is Match
    with pytest.raises(StateError) as info:
        game_class("conex", [Match])  # a Constructo record loader refuses a CONEX record
    assert info.value.details["field"] == "game"


def test_the_registry_is_filled_by_registration_only(conex_rec: dict[str, Any]) -> None:
    saved = dict(GAMES)
    try:
        GAMES.clear()
        with pytest.raises(StateError):
            load_record(conex_rec)  # nothing registered: no game is found by its name
        assert register_game(Game) is Game and register_game(Game) is Game  # idempotent
        assert load_record(conex_rec).to_dict() == load_record(conex_rec, BOTH).to_dict()
        with pytest.raises(ValueError):
            register_game(type("Fake", (), {"game": "conex", "STATE_VERSION": 1, "new": 0, "parse_action": 0}))
        with pytest.raises(ValueError):
            register_game(type("Bad", (), {"game": "Bad Name", "STATE_VERSION": 1, "new": 0, "parse_action": 0}))
        with pytest.raises(ValueError):
            register_game(type("NoState", (), {"game": "nostate"}))
    finally:
        GAMES.clear()
        GAMES.update(saved)


@pytest.mark.parametrize(
    "change,field",
    [
        (lambda r: r.update(format="something-else"), "format"),
        (lambda r: r.update(version=2), "version"),
        (lambda r: r.update(version="1"), "version"),
        (lambda r: r.update(state_version=3), "state_version"),
        (lambda r: r.update(state_version=0), "state_version"),
        (lambda r: r.update(setup=[1, 2]), "setup"),
        (lambda r: r.update(setup={"players": 3, "seed": 1, "colour": "red"}), "setup"),
        (lambda r: r.update(history={"0": "draw"}), "history"),
        (lambda r: r["history"].__setitem__(0, [0]), "history"),
        (lambda r: r["history"].__setitem__(0, ["0", "draw"]), "history"),
        (lambda r: r["history"].__setitem__(0, [0, "x" * (MAX_ACTION_CHARS + 1)]), "history"),
        (lambda r: r.update(history=[[0, "draw"]] * (MAX_ACTIONS + 1)), "history"),
        (lambda r: r.update(players="Alice"), "players"),
        (lambda r: r.update(players=["Alice", "Bob"]), "players"),
        (lambda r: r.update(players=["Alice", "Bob", None]), "players"),
        (lambda r: r.update(outcome={"ranking": [[0]]}), "outcome"),
        (lambda r: r.update(meta=[1]), "meta"),
    ],
)
def test_malformed_records_are_refused(conex_rec: dict[str, Any], change: Any, field: str) -> None:
    rec = copy.deepcopy(conex_rec)
    change(rec)
    refused(rec, field)


@pytest.mark.parametrize(
    "junk", [None, [], "tablebot-record", 3, {"format": FORMAT}, {"format": FORMAT, "version": VERSION}]
)
def test_junk_is_refused(junk: Any) -> None:
    refused(junk)


# ----------------------------------------------------------------------------------------------
# property: random finished games round-trip through JSON
# ----------------------------------------------------------------------------------------------
@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    end=st.sampled_from(["M2", "M3", "timeout"]),
    second=st.sampled_from(["flor", None, COORDS, "rombo"]),
    first=st.integers(0, 1),
)
def test_random_constructo_matches_round_trip(seed: int, end: str, second: str | None, first: int) -> None:
    m = constructo_match(seed, end=end, second=second, first=first)
    _, back = round_trip(m)
    assert back.to_dict() == m.to_dict()


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.integers(2, 4), timeouts=st.sampled_from([0.0, 0.1]))
def test_random_conex_games_round_trip(seed: int, players: int, timeouts: float) -> None:
    g = conex_game(
        players, seed, goal=25, table="small", forfeit_at=random.Random(seed).choice([None, 9]), timeouts=timeouts
    )
    _, back = round_trip(g)
    assert back.to_dict() == g.to_dict()
