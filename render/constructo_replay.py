"""Constructo's replay hooks (:mod:`render.replay`): frames, captions and the move list of a match.

Frames are the board image (:func:`render.constructo.render_board`: stacks side-on, the last action highlighted by
a ring around the placed tile or the move arrow, reserves, towers, round and match scores) scaled to the replay's
width. Captions and the move list use the notation of docs/rules/constructo.md section 8 (``L5``, ``3-4``; a round's
record ``rombo: L5 M4 4-5``, which ``Round.from_record`` reads back).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

from PIL import Image

from engine.constructo import Match
from engine.constructo.events import (
    ChipMoved,
    ChipPlaced,
    DrawAgreed,
    LayoutChosen,
    Resigned,
    RoundOver,
    TakenBack,
    TimedOut,
)
from engine.record import Record, Step
from render.constructo import player_tags, render_board, tower_counts
from render.replay import ReplayRenderer

__all__ = ["REPLAY", "caption", "move_lines", "prepare", "score_key"]


def prepare(
    final: Any, steps: Sequence[Step], *, names: Sequence[str], width: int, theme: str
) -> Callable[[Step], Image.Image]:
    """A painter: the board after a step (``step.state``, a live ``Match``), ``width`` px wide."""

    def paint(step: Step) -> Image.Image:
        img = render_board(step.state, names=names, theme=theme)
        if img.width != width:
            img = img.resize((width, round(img.height * width / img.width)), Image.Resampling.HAMMING)
        return img

    return paint


def score_key(state: Any) -> Hashable:
    """Round number, the shown round's towers per player and the match totals."""
    return len(state.rounds), tower_counts(state.rounds[-1]), tuple(state.totals())


def _layout_name(layout: Any) -> str:
    return layout.name or "a custom layout"


def caption(step: Step, names: Sequence[str]) -> tuple[int | None, str]:
    """``(seat, text)``: ``L5 · large on 5``, ``4-5 · tower ●``, ``3-4 · swallows the small``, ``chooses flor for
    round 2``, ``resigns``, ``runs out of time``; a round's end adds ``· round 1 over: A 3–2 B``."""
    tags = player_tags(names)
    if step.index == 0:
        rnd = step.state.rounds[0]
        return None, f"start · {_layout_name(rnd.layout)} · {names[rnd.first]} moves first"
    parts: list[str] = []
    for ev in step.events:
        if isinstance(ev, ChipPlaced):
            parts.append(f"{ev.size.letter}{ev.tile} · {ev.size.word} on {ev.tile}")
        elif isinstance(ev, ChipMoved):
            text = f"{ev.src}-{ev.dst}"
            if ev.swallow:
                text += " · swallows the small"
            elif ev.tower_owner is not None:
                text += f" · tower {tags[ev.tower_owner]}"
            parts.append(text)
        elif isinstance(ev, LayoutChosen):
            parts.append(f"chooses {_layout_name(ev.layout)} for round {ev.round_no}")
        elif isinstance(ev, RoundOver):
            parts.append(f"round {ev.round_no} over: {tags[0]} {ev.scores[0]}–{ev.scores[1]} {tags[1]}")
        elif isinstance(ev, Resigned):
            parts.append("resigns")
        elif isinstance(ev, TimedOut):
            parts.append("runs out of time")
        elif isinstance(ev, TakenBack):
            parts.append(f"takes back {ev.move} (agreed)")
        elif isinstance(ev, DrawAgreed):
            parts.append("draw agreed")
    return step.seat, " · ".join(parts) or str(step.text)


def _result_line(final: Any, names: Sequence[str]) -> str:
    outcome = final.outcome
    if outcome is None:
        return "Unfinished."
    totals = final.totals()
    if outcome.reason == "M3" or outcome.reason == "timeout":
        loser = outcome.forfeited[0] if outcome.forfeited else outcome.ranking[-1][0]
        how = "resigned" if outcome.reason == "M3" else "ran out of time"
        return f"{names[loser]} {how}: {names[1 - loser]} wins."
    if outcome.reason == "agreed":
        return f"Draw agreed at {totals[0]}–{totals[1]}."
    if len(outcome.ranking) == 1:
        return f"Draw {totals[0]}–{totals[1]} over both rounds."
    w = outcome.ranking[0][0]
    return f"{names[w]} wins {totals[w]}–{totals[1 - w]} over both rounds."


def move_lines(rec: Record, steps: Iterable[Step], names: Sequence[str], *, compact: bool = False) -> list[str]:
    """The match in notation, round by round::

        Constructo · Alice vs Bob
        Round 1 · rombo · Alice starts · towers 3–2
        rombo: L5 M4 4-5 S3 ...
        Round 2 · Bob chose flor and starts · towers 1–2
        flor: ...
        Bob resigned.
        Alice wins 4–4 ...

    Each record line is a round's ``Round.record()`` (readable back with ``Round.from_record``). ``compact`` changes
    nothing (a match fits one message)."""
    final: Any = None
    for step in steps:
        final = step.state
    scores = final.round_scores()
    lines = [f"Constructo · {names[0]} vs {names[1]}"]
    for i, rnd in enumerate(final.rounds):
        a, b = scores[i] if i < len(scores) else (0, 0)
        so_far = "" if rnd.is_over else " (so far)"
        how = (
            f"{_layout_name(rnd.layout)} · {names[rnd.first]} starts"
            if i == 0
            else f"{names[rnd.first]} chose {_layout_name(rnd.layout)} and starts"
        )
        lines.append(f"Round {i + 1} · {how} · towers {a}–{b}{so_far}")
        lines.append(rnd.record())
    if final.resigned is not None:
        lines.append(f"{names[final.resigned]} resigned.")
    elif final.timed_out is not None:
        lines.append(f"{names[final.timed_out]} ran out of time.")
    takebacks = [f"{names[seat]} (action {i})" for i, (seat, text) in enumerate(rec.history, 1) if text == "takeback"]
    if takebacks:
        lines.append("Takebacks agreed: " + ", ".join(takebacks) + ".")
    lines.append(_result_line(final, names))
    return lines


REPLAY = ReplayRenderer(Match, prepare, caption, score_key, move_lines)
"""The game's replay renderer (named by its plug-in: ``kind.replay``)."""
