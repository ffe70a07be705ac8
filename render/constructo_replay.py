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
from render.constructo_words import EN
from render.palette import Palette
from render.record_words import EN as RECORD_EN
from render.replay import ReplayRenderer
from render.words import Words, resolve

__all__ = ["REPLAY", "caption", "move_lines", "prepare", "score_key"]


WORDS = {**EN, **RECORD_EN}


def prepare(
    final: Any,
    steps: Sequence[Step],
    *,
    names: Sequence[str],
    width: int,
    theme: str,
    palette: Palette | None = None,
    words: Words | None = None,
) -> Callable[[Step], Image.Image]:
    """A painter: the board after a step (``step.state``, a live ``Match``), ``width`` px wide, in ``words``'
    language."""

    def paint(step: Step) -> Image.Image:
        img = render_board(step.state, names=names, theme=theme, palette=palette, words=words)
        if img.width != width:
            img = img.resize((width, round(img.height * width / img.width)), Image.Resampling.HAMMING)
        return img

    return paint


def score_key(state: Any) -> Hashable:
    """Round number, the shown round's towers per player and the match totals."""
    return len(state.rounds), tower_counts(state.rounds[-1]), tuple(state.totals())


def _layout_name(layout: Any, w: Words) -> str:
    return layout.name or w("rp.ko_custom")


def caption(step: Step, names: Sequence[str], words: Words | None = None) -> tuple[int | None, str]:
    """``(seat, text)``: ``L5 · large on 5``, ``4-5 · tower ●``, ``3-4 · swallows the small``, ``chooses flor for
    round 2``, ``resigns``, ``runs out of time``; a round's end adds ``· round 1 over: A 3–2 B`` (in ``words``'
    language; ``None`` = English)."""
    w = resolve(words, WORDS)
    tags = player_tags(names)
    if step.index == 0:
        rnd = step.state.rounds[0]
        return None, w("rp.ko_start", layout=_layout_name(rnd.layout, w), name=names[rnd.first])
    parts: list[str] = []
    for ev in step.events:
        if isinstance(ev, ChipPlaced):
            chip = f"{ev.size.letter}{ev.tile}"
            parts.append(w("rp.ko_place", chip=chip, size=w(f"rp.ko_size_{int(ev.size)}"), tile=ev.tile))
        elif isinstance(ev, ChipMoved):
            text = f"{ev.src}-{ev.dst}"
            if ev.swallow:
                text += " · " + w("rp.ko_swallows")
            elif ev.tower_owner is not None:
                text += " · " + w("rp.ko_tower", tag=tags[ev.tower_owner])
            parts.append(text)
        elif isinstance(ev, LayoutChosen):
            parts.append(w("rp.ko_chooses", layout=_layout_name(ev.layout, w), n=ev.round_no))
        elif isinstance(ev, RoundOver):
            a, b = ev.scores
            parts.append(w("rp.ko_round_over", n=ev.round_no, a=tags[0], x=a, y=b, b=tags[1]))
        elif isinstance(ev, Resigned):
            parts.append(w("rp.ko_resigns"))
        elif isinstance(ev, TimedOut):
            parts.append(w("rp.ko_times_out"))
        elif isinstance(ev, TakenBack):
            parts.append(w("rp.ko_takes_back", move=ev.move))
        elif isinstance(ev, DrawAgreed):
            parts.append(w("rp.ko_draw_agreed"))
    return step.seat, " · ".join(parts) or str(step.text)


def _result_line(final: Any, names: Sequence[str], w: Words) -> str:
    outcome = final.outcome
    if outcome is None:
        return w("rp.unfinished")
    totals = final.totals()
    if outcome.reason == "M3" or outcome.reason == "timeout":
        loser = outcome.forfeited[0] if outcome.forfeited else outcome.ranking[-1][0]
        key = "rp.ko_lost_resigned" if outcome.reason == "M3" else "rp.ko_lost_time"
        return w(key, loser=names[loser], winner=names[1 - loser])
    if outcome.reason == "agreed":
        return w("rp.ko_agreed_result", a=totals[0], b=totals[1])
    if len(outcome.ranking) == 1:
        return w("rp.ko_draw", a=totals[0], b=totals[1])
    win = outcome.ranking[0][0]
    return w("rp.ko_wins", winner=names[win], a=totals[win], b=totals[1 - win])


def move_lines(
    rec: Record, steps: Iterable[Step], names: Sequence[str], *, compact: bool = False, words: Words | None = None
) -> list[str]:
    """The match in notation, round by round::

        Constructo · Alice vs Bob
        Round 1 · rombo · Alice starts · towers 3–2
        rombo: L5 M4 4-5 S3 ...
        Round 2 · Bob chose flor and starts · towers 1–2
        flor: ...
        Bob resigned: Alice wins.

    Each record line is a round's ``Round.record()`` (readable back with ``Round.from_record``). ``compact`` changes
    nothing (a match fits one message). ``words``: the reader's language (``None`` = English)."""
    w = resolve(words, WORDS)
    final: Any = None
    takebacks: list[str] = []  # each move taken back, in its notation (players never see action numbers)
    for step in steps:
        final = step.state
        takebacks += [
            w("rp.ko_takeback_item", name=names[ev.player], move=ev.move)
            for ev in step.events
            if isinstance(ev, TakenBack)
        ]
    scores = final.round_scores()
    lines = [w("rp.ko_list_head", a=names[0], b=names[1])]
    for i, rnd in enumerate(final.rounds):
        a, b = scores[i] if i < len(scores) else (0, 0)
        key = "rp.ko_round_first" if i == 0 else "rp.ko_round_chose"
        line = w(key, n=i + 1, layout=_layout_name(rnd.layout, w), name=names[rnd.first], a=a, b=b)
        if not rnd.codes and final.is_over:  # the match ended before this round's first move
            line = f"{line} {w('rp.ko_not_played')}"
        elif not (rnd.is_over or final.is_over):  # "so far" only while the match runs
            line = f"{line} {w('rp.ko_so_far')}"
        lines.append(line)
        lines.append(rnd.record())
    if takebacks:
        lines.append(w("rp.ko_takebacks", list=", ".join(takebacks)))
    lines.append(_result_line(final, names, w))  # a resignation or timeout is said once, there
    return lines


REPLAY = ReplayRenderer(Match, prepare, caption, score_key, move_lines)
"""The game's replay renderer (named by its plug-in: ``kind.replay``)."""
