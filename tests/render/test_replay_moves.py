"""Move lists (issue 16): Constructo in its notation (rules/constructo.md section 8), round by round, with the layout
choice and the resignation or timeout marked; CONEX as a numbered action list; both fitting Discord messages. Plus
the property that replays never fail on random finished games of both kinds."""

from __future__ import annotations

import io
import json
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from engine.constructo import Round
from engine.record import export_record
from render.conex_replay import REPLAY as CONEX_REPLAY
from render.constructo_replay import REPLAY as CONSTRUCTO_REPLAY
from render.replay import ReplayRenderer, frame_indices, render_replay
from render.replay_moves import move_list_pages, move_list_text, split_pages
from tests.engine.record_games import NAMES, conex_game, constructo_match

REPLAYS = {"conex": CONEX_REPLAY, "constructo": CONSTRUCTO_REPLAY}
"""The renderers the plug-ins name (``kind.replay``), by the records' game."""


def of(record: dict[str, Any]) -> ReplayRenderer:
    """The replay renderer of ``record``'s game."""
    return REPLAYS[record["game"]]


COORDS = "(0,0) (1,0) (2,0) (3,0) (4,0) (5,0) (6,0) (7,0) (7,1)"  # a custom layout (no name)


def record_for(state: Any) -> dict[str, Any]:
    return json.loads(json.dumps(export_record(state, names=NAMES[: state.num_players])))


def test_constructo_move_list_is_the_notation_round_by_round() -> None:
    m = constructo_match(5, end="M2", second="flor", first=1)
    text = move_list_text(record_for(m), CONSTRUCTO_REPLAY)
    lines = text.splitlines()
    assert lines[0] == "Constructo · Alice vs Bob"
    assert lines[1].startswith("Round 1 · rombo · Bob starts · towers ")
    assert lines[3].startswith("Round 2 · Alice chose flor and starts · towers ")
    for i, rnd in enumerate(m.rounds):
        assert lines[2 + 2 * i] == rnd.record()
        assert Round.from_record(lines[2 + 2 * i], rnd.first).history == rnd.history  # reads back
    t = m.totals()
    w = m.winner
    assert lines[-1] == (
        f"Draw {t[0]}–{t[1]} over both rounds." if w is None else f"{NAMES[w]} wins {t[w]}–{t[1 - w]} over both rounds."
    )
    assert move_list_pages(record_for(m), CONSTRUCTO_REPLAY) == [text]


def test_constructo_resignation_timeout_and_custom_layout_are_marked() -> None:
    resigned = move_list_text(record_for(constructo_match(3, end="M3", second=COORDS)), CONSTRUCTO_REPLAY).splitlines()
    assert resigned[-1] == "Bob resigned: Alice wins."  # said once: the result line names the resignation
    assert sum("resigned" in line for line in resigned) == 1, resigned
    assert "chose a custom layout and starts" in resigned[3] and resigned[4].startswith("(0,0) (1,0)")
    m = constructo_match(3, end="timeout", second=None)
    late = NAMES[m.timed_out]
    timed = move_list_text(record_for(m), CONSTRUCTO_REPLAY).splitlines()
    assert timed[-1].startswith(f"{late} ran out of time: ")
    assert sum("ran out of time" in line for line in timed) == 1, timed
    assert len(m.rounds) == 1 and "so far" not in timed[1]  # the match is over: no round is running


def test_conex_move_list_numbers_every_action() -> None:
    g = conex_game(3, 2)
    rec = record_for(g)
    pages = move_list_pages(rec, of(rec), limit=900)
    assert len(pages) >= 2 and all(len(p) <= 900 for p in pages)
    lines = "\n".join(pages).splitlines()
    assert lines[0] == "CONEX · 3 players: Alice, Bob, Carol · goal 40 · medium table"
    numbered = [ln for ln in lines if re.match(r"\d+\. ", ln)]
    assert [int(ln.split(".")[0]) for ln in numbered] == list(range(1, len(g.history) + 1))
    for ln, (seat, text) in zip(numbered, g.history, strict=True):
        assert ln.split(". ", 1)[1].startswith(NAMES[seat] + ": ")
        if text.startswith("place"):
            card = text.split()[1]
            assert f"place #{card} corner " in ln and " · +" in ln
        elif text.startswith("lightning"):
            assert f"⚡ lightning removes #{text.split()[1]} (" in ln
        elif text.startswith("discard"):
            assert f"discard #{text.split()[1]}" in ln
        elif text == "timeout":
            assert "time out " in ln
        elif text == "forfeit":
            assert "leaves the game" in ln
    assert lines[-1].startswith("Result (") and "): 1st " in lines[-1], lines[-1]  # places named, no rule code
    assert "(left)" in lines[-1] and "loss" not in lines[-1]


def test_conex_move_list_text_fits_one_message_in_compact_form() -> None:
    g = conex_game(4, 1, goal=100, forfeit_at=None, timeouts=0.0)
    rec = record_for(g)
    text = move_list_text(rec, of(rec))
    assert len(text) <= 1900
    tokens = [t for ln in text.splitlines()[1:-1] for t in ln.split()]
    assert [int(re.match(r"\d+", t).group()) for t in tokens] == list(range(1, len(g.history) + 1))  # type: ignore[union-attr]
    assert text.splitlines()[0].startswith("CONEX · A Alice · B Bob · C Carol · D Dave")
    short = move_list_text(rec, of(rec), limit=400)
    assert len(short) <= 400 and short.splitlines()[-1].startswith("… ") and "more lines" in short


def test_split_pages_never_splits_a_line() -> None:
    lines = [f"{i}. " + "x" * (i % 50) for i in range(200)]
    pages = split_pages(lines, 500)
    assert all(len(p) <= 500 for p in pages)
    assert "\n".join(pages).splitlines() == lines
    assert split_pages(["y" * 30], 10) == ["y" * 9 + "…"]
    assert split_pages([], 10) == []


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    end=st.sampled_from(["M2", "M3", "timeout"]),
    second=st.sampled_from(["flor", None, COORDS]),
    max_frames=st.integers(2, 60),
)
def test_constructo_replays_never_fail(seed: int, end: str, second: str | None, max_frames: int) -> None:
    rec = record_for(constructo_match(seed, end=end, second=second, first=seed % 2))
    _check(rec, max_frames)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 4),
    timeouts=st.sampled_from([0.0, 0.15]),
    forfeit_at=st.sampled_from([None, 3, 12]),
    max_frames=st.integers(2, 60),
)
def test_conex_replays_never_fail(
    seed: int, players: int, timeouts: float, forfeit_at: int | None, max_frames: int
) -> None:
    g = conex_game(players, seed, goal=25, table="small", forfeit_at=forfeit_at, timeouts=timeouts)
    _check(record_for(g), max_frames)


def _check(rec: dict[str, Any], max_frames: int) -> None:
    n = len(rec["history"])
    data = render_replay(rec, of(rec), width=240, max_frames=max_frames)
    frames = Image.open(io.BytesIO(data)).n_frames
    if n + 1 <= max_frames:
        assert frames == n + 1
    else:
        assert min(max_frames, n + 1) <= frames <= n + 1
        assert frames == len(frame_indices(n, (), max_frames)) or frames > max_frames - 1
    assert len(move_list_text(rec, of(rec))) <= 1900
    assert all(len(p) <= 1900 for p in move_list_pages(rec, of(rec)))
