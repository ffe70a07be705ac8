"""Lists within Discord's limits (issue 22): whole lines packed into pages of at most 2,000 characters.

A message never ends in the middle of a line: :func:`pages` splits a list of lines into pages (each joined with
newlines fits ``limit``, the page's head included), :func:`clip` keeps the whole lines that fit. Only a single line
longer than a whole page is shortened (its end replaced by ``…``), which no list of the bot produces (names are at
most 32 characters).
"""

from __future__ import annotations

from collections.abc import Sequence

MESSAGE_LIMIT = 2000
"""Discord's limit on a message's content (characters)."""
ELLIPSIS = "…"


def _shorten(line: str, limit: int) -> str:
    return line if len(line) <= limit else line[: max(0, limit - 1)] + ELLIPSIS


def pages(
    lines: Sequence[str], *, limit: int = MESSAGE_LIMIT, head_room: int = 0, per_page: int | None = None
) -> list[list[str]]:
    """``lines`` in order, packed into pages: each page's lines joined by ``\\n`` take at most ``limit - head_room``
    characters (``head_room``: what the page's head and separator need) and at most ``per_page`` lines. Always at
    least one page (empty for no lines)."""
    room = limit - head_room
    if room < 2:
        raise ValueError(f"no room for lines: limit {limit}, head_room {head_room}")
    out: list[list[str]] = [[]]
    used = 0
    for raw in lines:
        line = _shorten(raw, room)
        need = len(line) + (1 if out[-1] else 0)
        if out[-1] and (used + need > room or (per_page is not None and len(out[-1]) >= per_page)):
            out.append([])
            used, need = 0, len(line)
        out[-1].append(line)
        used += need
    return out


def clip(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` if it fits, else its whole lines that fit followed by a line ``…`` (a single first line longer than
    ``limit`` is shortened instead)."""
    if len(text) <= limit:
        return text
    kept: list[str] = []
    used = 0
    for line in text.split("\n"):
        need = len(line) + (1 if kept else 0)
        if used + need + 2 > limit:  # room for "\n…"
            break
        kept.append(line)
        used += need
    if not kept:
        return _shorten(text.split("\n", 1)[0], limit)
    return "\n".join(kept) + "\n" + ELLIPSIS
