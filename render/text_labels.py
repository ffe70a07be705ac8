"""A recorder of every text label drawn into an image, for tests (:func:`record_labels`): the text as fitted, its
size (px) and its ink box in the pixels of the image it ended up in. Renderers call :func:`note_paste` after pasting
a drawn part, and :mod:`render.text` calls :func:`record_label` for every label. Coordinates are pixels, origin
top-left, y down. Pure; each thread (context) records on its own.
"""

from __future__ import annotations

import contextvars
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from PIL import Image

from render.fonts import split_runs


@dataclass
class Label:
    """One text label as drawn: the text (after fitting), its font size (px), its ink box ``(x0, y0, x1, y1)``
    in the pixels of ``image``, and its runs ``(face key, substring)``."""

    text: str
    size: int
    box: tuple[float, float, float, float]
    image: Image.Image | None
    runs: tuple[tuple[str, str], ...] = field(default=())


_LOG: contextvars.ContextVar[list[Label] | None] = contextvars.ContextVar("render_label_log", default=None)


@contextmanager
def record_labels() -> Iterator[list[Label]]:
    """Within this block (same thread), every label drawn is appended to the yielded list. A label drawn on a
    part that is then pasted into a bigger image is added again in the bigger image's pixels (see
    :func:`note_paste`), so ``[lb for lb in log if lb.image is final]`` is every label of ``final``."""
    log: list[Label] = []
    token = _LOG.set(log)
    try:
        yield log
    finally:
        _LOG.reset(token)


def note_paste(src: Image.Image, dst: Image.Image, offset: tuple[float, float]) -> None:
    """Tell the recorder that ``src`` was pasted into ``dst`` at ``offset``: its labels, clipped to ``dst``,
    now belong to ``dst`` too. Renderers call this after each ``paste`` of a drawn part; no-op when not
    recording."""
    log = _LOG.get()
    if log is None:
        return
    ox, oy = offset
    for lb in [lb for lb in log if lb.image is src]:
        x0, y0, x1, y1 = lb.box
        log.append(Label(lb.text, lb.size, (x0 + ox, y0 + oy, x1 + ox, y1 + oy), dst, lb.runs))


def record_label(image: Image.Image | None, text: str, size: int, box: tuple[float, float, float, float]) -> None:
    """Append a drawn label to the recorder's list (no-op when not recording or the text is blank)."""
    log = _LOG.get()
    if log is not None and text.strip():
        log.append(Label(text, size, box, image, split_runs(text)))
