"""Move lists of a game record (``/replay``'s text, the records' "Moves" pages): one line per action, or per round
for a game played in rounds, in the game's notation, paged within Discord's message limit. Split from
:mod:`render.replay` by job; each game's lines come from its :class:`render.replay.ReplayRenderer` hooks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.record import replay_steps
from render.record_words import EN as RECORD_EN
from render.replay import MESSAGE_LIMIT, ReplayRenderer, record_names
from render.words import Words, resolve


def split_pages(lines: Sequence[str], limit: int = MESSAGE_LIMIT) -> list[str]:
    """``lines`` joined with newlines into as few messages of at most ``limit`` characters as possible, never
    splitting a line (a line longer than ``limit`` is cut with "…")."""
    pages: list[str] = []
    cur: list[str] = []
    size = 0
    for line in lines:
        if len(line) > limit:
            line = line[: limit - 1] + "…"
        if cur and size + 1 + len(line) > limit:
            pages.append("\n".join(cur))
            cur, size = [], 0
        size += len(line) + (1 if cur else 0)
        cur.append(line)
    if cur:
        pages.append("\n".join(cur))
    return pages


def _move_lines(
    record: Mapping[str, Any],
    hooks: ReplayRenderer,
    names: Sequence[str] | None,
    compact: bool,
    words: Words | None = None,
) -> list[str]:
    rec = hooks.parse(record)
    seats = rec.state_cls.new(dict(rec.setup)).num_players  # type: ignore[attr-defined]
    steps = replay_steps(rec.state_cls, rec.setup, rec.history)
    lines: list[str] = hooks.move_lines(rec, steps, record_names(rec, names, seats), compact=compact, words=words)
    return lines


def move_list_pages(
    record: Mapping[str, Any],
    renderer: ReplayRenderer,
    *,
    names: Sequence[str] | None = None,
    limit: int = MESSAGE_LIMIT,
    words: Words | None = None,
) -> list[str]:
    """The full move list of ``record`` (one line per action, or per round for a game played in rounds, in its
    notation) split into messages of at most ``limit`` characters (:func:`split_pages`). Raises like
    :func:`render.replay.render_replay`."""
    return split_pages(_move_lines(record, renderer, names, compact=False, words=words), limit)


def move_list_text(
    record: Mapping[str, Any],
    renderer: ReplayRenderer,
    *,
    names: Sequence[str] | None = None,
    limit: int = MESSAGE_LIMIT,
    words: Words | None = None,
) -> str:
    """The move list of ``record`` as one message of at most ``limit`` characters: the full list if it fits, else
    the game's compact form (e.g. one short token per action), else the compact form cut at a line with a last
    line saying how many lines were left out (the full list: :func:`move_list_pages` or the JSON record)."""
    full = "\n".join(_move_lines(record, renderer, names, compact=False, words=words))
    if len(full) <= limit:
        return full
    lines = _move_lines(record, renderer, names, compact=True, words=words)
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    kept: list[str] = []
    size = 0
    for i, line in enumerate(lines):
        note = resolve(words, RECORD_EN).count("rp.more_lines", len(lines) - i)
        if size + len(line) + 1 + len(note) > limit:
            return "\n".join([*kept, note])
        kept.append(line)
        size += len(line) + 1
    return text  # pragma: no cover
