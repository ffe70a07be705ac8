"""Stored-state migration (issue 11 part 2): every engine state saved by the bot before the game protocol
(state version 1, frozen in ``tests/fixtures/state_v1``, see its README) loads, continues with a legal action,
re-serialises as version 2, and its rebuilt history is the game's real action log and replays to it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.conex import Game
from engine.constructo import Match
from engine.protocol import Result

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "state_v1"
NAMES = sorted(p.stem for p in FIXTURES.glob("*.json"))
NOT_ENGINE = {"join", "add bot", "start", "accept", "leave", "close", "withdraw", "decline", "abort"}


def fixture(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text())
    return data


def engine_v1(data: dict[str, Any]) -> dict[str, Any] | None:
    """The version-1 engine state inside the stored envelope, with what the bot kept beside it (forfeited seats,
    AI seats) handed to the loader, as the bot's game layer does."""
    state = data["state"]
    if data["kind"] == "constructo":
        return dict(state["match"])
    if state["conex"] is None:
        return None
    bots = [seat for seat, uid in enumerate(data["players"]) if uid < 0]
    return dict(state["conex"], forfeited=state.get("forfeited", []), bots=bots)


def logged_history(data: dict[str, Any]) -> list[tuple[int, str]]:
    """The storage action log as ``(seat, text)``, lobby entries left out, ``resign`` read as ``forfeit``."""
    seats = {uid: seat for seat, uid in enumerate(data["players"])}
    return [
        (seats[a["player"]], "forfeit" if a["action"] == "resign" else a["action"])
        for a in data["actions"]
        if a["action"] not in NOT_ENGINE
    ]


def test_every_kind_of_saved_game_is_here() -> None:
    assert set(NAMES) >= {
        "constructo_ai_round1",
        "constructo_round2",
        "constructo_resigned",
        "conex_forfeit_discard",
        "conex_lobby",
        "conex_finished",
    }


@pytest.mark.parametrize("name", NAMES)
def test_a_version_1_state_loads_continues_and_saves_as_version_2(name: str) -> None:
    data = fixture(name)
    v1 = engine_v1(data)
    if v1 is None:
        assert data["status"] == "lobby"
        return
    assert v1["version"] == 1
    cls = Match if data["kind"] == "constructo" else Game
    state = cls.from_dict(json.loads(json.dumps(v1)))
    d = state.to_dict()
    assert d["version"] == 2 and cls.from_dict(d).to_dict() == d
    assert state.history == logged_history(data)
    assert cls.replay(state.setup, state.history).to_dict() == d
    assert state.is_over == (data["status"] == "finished")
    if state.is_over:
        assert state.outcome is not None
        return
    seat = state.current_player
    owing = [s for s in state.awaiting() if s != seat]
    for s in [*owing, seat]:
        state.apply(state.legal_actions(s)[0])
    again = cls.from_dict(json.loads(json.dumps(state.to_dict())))
    assert again.to_dict() == state.to_dict() and again.to_dict()["version"] == 2


def test_the_migrated_states_keep_their_facts() -> None:
    ai = Match.from_dict(engine_v1(fixture("constructo_ai_round1")))
    assert ai.setup == {"layout": "flor", "first": 0} and ai.current_player == 0 and ai.round_no == 1
    round2 = Match.from_dict(engine_v1(fixture("constructo_round2")))
    assert round2.round_no == 2 and round2.rounds[1].layout.name == "corona" and (1, "layout corona") in round2.history
    resigned = Match.from_dict(engine_v1(fixture("constructo_resigned")))
    assert resigned.outcome is not None and resigned.outcome.reason == "M3" and resigned.outcome.forfeited == (1,)
    assert resigned.history[-1] == (1, "forfeit")
    g = Game.from_dict(engine_v1(fixture("conex_forfeit_discard")))
    assert g.forfeited == {2} and g.pending_discards == {0} and g.awaiting() == (0, 1) and g.star_holder["2x"] == 0
    assert (2, "forfeit") in g.history and g.setup["seed"] == 2 and g.setup["bots"] == []
    done = Game.from_dict(engine_v1(fixture("conex_finished")))
    assert done.end_reason == "E1" and done.setup["bots"] == [2]
    left = Game.from_dict(engine_v1(fixture("conex_finished_forfeit")))
    assert left.end_reason == "forfeit" and left.outcome is not None and left.outcome.ranking == ((1,), (0,))
    assert left.outcome.results == (Result.LOSS, Result.WIN)


def test_a_version_1_conex_state_whose_history_does_not_replay_loads_as_stored() -> None:
    """A hand-edited or odd version-1 state still loads (its stored position wins); its record is kept."""
    v1 = engine_v1(fixture("conex_forfeit_discard"))
    assert v1 is not None
    v1["scores"] = [30, 35, 0]  # no longer what the history gives
    g = Game.from_dict(v1)
    assert g.scores == [30, 35, 0] and g.forfeited == {2} and len(g.history) == len(v1["history"]) + 1
