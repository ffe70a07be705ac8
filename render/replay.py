"""Animated replays and move lists of finished games (issue 16), for any game with a replay hook module.

:func:`render_replay` turns a game record (:mod:`engine.record`) into an animated **GIF**: the start position, then
one frame per action with that action highlighted and a caption (``"12/40 · Alice: place #12 on #7 · +5"``) over
a progress bar. GIF because Discord animates GIF attachments inline on every client, while it strips APNG to its
first frame and animates WebP only in recent clients (README design notes). Bounded:

- frames: ``actions + 1`` up to ``max_frames`` (default :data:`MAX_FRAMES`); a longer game keeps the start, the
  last frame and every frame where a score changed, and samples the other actions evenly (the caption's
  ``k/n`` shows the jumps);
- size: frames are drawn ``width`` px wide (default 600: what a phone shows at 400 px keeps 9 px capitals), reduced
  to one palette shared by every frame (no per-frame colour tables, no dithering), and Pillow's GIF writer stores
  each frame as the rectangle that changed, unchanged pixels in it transparent. Past ``max_bytes`` frames are
  dropped (never the start, the end or a score change), then the frames scaled down, until it fits;
- time: two engine replays (a few ms per action) plus one frame drawing per kept action.

Pure and picklable: ``render_replay(record_dict, names=..., ...) -> bytes`` can run in a process pool.

A game takes part through a :class:`ReplayRenderer` its plug-in names (``kind.replay``; e.g.
``render/<game>_replay.py: REPLAY``), passed to every function here (never looked up by the record's game name):

- ``engine``: the game's ``GameState`` class (the record is replayed with it; a record of another game is refused);
- ``prepare(final, steps, *, names, width, theme, words[, palette]) -> Callable[[Step], Image]``: a painter drawing
  the frame body (``width`` px wide, RGB) for a live :class:`engine.record.Step`; ``final`` is the game at its end and
  ``steps``
  every step's events (``state`` is ``None`` in them), e.g. to fix one camera for the whole replay;
- ``caption(step, names, words) -> (seat | None, text)``: what the step did (the seat's name is put before it);
- ``score_key(state) -> Hashable``: a frame whose key differs from the previous one's is never dropped;
- ``move_lines(record, steps, names, *, compact, words) -> list[str]``: the move list (``steps`` = the live
  replay);
- ``extra_colours``: colours the shared palette must hold even if the first and last frames lack them.

Every hook takes ``words`` (:class:`render.words.Words` of the reader's language, ``None`` = English; templates in
:mod:`render.record_words`): no word of a frame, caption or move list comes from the code.

Text twins (:mod:`render.replay_moves`): ``move_list_text`` (fits one Discord message) and ``move_list_pages`` (the
full list in messages of at most ``limit`` characters).
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from PIL import Image, ImageDraw

from engine.record import Record, Step, parse_record, replay_steps, verify_final
from render.common import draw_text, ellipsize, min_font_px, note_paste, seat_names, text_width, theme_of
from render.palette import Palette
from render.words import Words

__all__ = [
    "DEFAULT_WIDTH",
    "MAX_BYTES",
    "MAX_FRAMES",
    "REPLAY_FILENAME",
    "REPLAY_MIME",
    "ReplayRenderer",
    "caption_height",
    "frame_durations",
    "frame_indices",
    "render_replay",
    "replay_frame",
]

REPLAY_MIME = "image/gif"
REPLAY_FILENAME = "replay.gif"
DEFAULT_WIDTH = 600
"""Frame width (px). Labels are sized for it (:func:`render.text.min_font_px`), so 9 px capitals at 400 px wide."""
MAX_FRAMES = 200
"""Default frame cap: a 52-card CONEX game (~70-150 actions) and a two-round Constructo match fit whole."""
MAX_BYTES = 8 * 1024 * 1024
"""Default size bound (bytes), under Discord's 10 MiB attachment limit."""
MESSAGE_LIMIT = 1900
"""Default characters per message for the move list (Discord allows 2000)."""
START_MS, LAST_MS = 2000, 5000
"""How long the start position and the final position stay (ms)."""
TARGET_MS, MIN_MS, MAX_MS = 90_000, 500, 1200
"""Automatic frame time: the whole replay about ``TARGET_MS``, each action between ``MIN_MS`` and ``MAX_MS``."""
BAR_H = 5


# ----------------------------------------------------------------------------------------------
# hooks and records
# ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ReplayRenderer:
    """One game's replay hooks (see the module docstring for each one's shapes). Its fields are module-level
    functions and a class, so the renderer pickles by reference and runs in a worker process.

    Attributes:
        engine: the game's ``GameState`` class (``engine.record.replay_steps`` replays the record with it).
        prepare: ``prepare(final, steps, *, names, width, theme, words[, palette]) -> paint(step) -> RGB image``.
        caption: ``caption(step, names, words) -> (seat | None, text)``.
        score_key: ``score_key(state) -> Hashable``.
        move_lines: ``move_lines(record, steps, names, *, compact, words) -> list[str]``.
        extra_colours: colours (``"#RRGGBB"``) the shared palette must hold.
    """

    engine: type
    prepare: Callable[..., Callable[[Step], Image.Image]]
    caption: Callable[[Step, Sequence[str], Words | None], tuple[int | None, str]]
    score_key: Callable[[Any], Hashable]
    move_lines: Callable[..., list[str]]
    extra_colours: tuple[str, ...] = ()

    def parse(self, record: Mapping[str, Any]) -> Record:
        """``engine.record.parse_record`` of a record of this game. Raises ``StateError`` (also for a record of
        another game: ``field="game"``)."""
        return parse_record(record, (self.engine,))


def record_names(rec: Record, names: Sequence[str] | None, seats: int) -> list[str]:
    """The seats' display names: ``names`` when given, else the record's players (``seat_names`` fills gaps)."""
    return seat_names(names if names is not None else rec.players, seats)


def _scan(rec: Record, hooks: ReplayRenderer) -> tuple[list[Step], set[int], Any]:
    """First pass: every step's events (state dropped), the indices where the score key changed, the final state
    (checked against the record's players and outcome)."""
    steps: list[Step] = []
    scored: set[int] = set()
    key: Any = None
    state: Any = None
    for step in replay_steps(rec.state_cls, rec.setup, rec.history):
        k = hooks.score_key(step.state)
        if step.index > 0 and k != key:
            scored.add(step.index)
        key, state = k, step.state
        steps.append(replace(step, state=None))
    verify_final(rec, state)
    return steps, scored, state


# ----------------------------------------------------------------------------------------------
# frames
# ----------------------------------------------------------------------------------------------
def frame_indices(actions: int, keep: Iterable[int] = (), max_frames: int = MAX_FRAMES) -> list[int]:
    """Which positions (0 = start, k = after action k) a replay of ``actions`` actions shows, ascending.

    All ``actions + 1`` when that is at most ``max_frames``. Otherwise the start, the end and every index in
    ``keep`` (score changes) always, and the rest of ``max_frames`` spread evenly over the other actions; when
    those always-kept frames alone reach ``max_frames`` they are returned (the cap yields to them).
    Raises ``ValueError`` for ``max_frames < 2`` or negative ``actions``.
    """
    if max_frames < 2 or actions < 0:
        raise ValueError(f"need max_frames >= 2 and actions >= 0, not {max_frames}, {actions}")
    return _spread(list(range(actions + 1)), set(keep), max_frames)


def _spread(candidates: list[int], keep: set[int], cap: int) -> list[int]:
    """At most ``cap`` of the ascending ``candidates``: the first, the last and those in ``keep`` always, the rest
    spread evenly over the others (all of them if they fit)."""
    if len(candidates) <= cap:
        return list(candidates)
    must = {candidates[0], candidates[-1]} | (keep & set(candidates))
    slots = cap - len(must)
    if slots <= 0:
        return sorted(must)
    rest = [k for k in candidates if k not in must]
    picked = {rest[math.floor((i + 0.5) * len(rest) / slots)] for i in range(slots)}
    return sorted(must | picked)


def frame_durations(count: int, frame_ms: int | None = None, last_ms: int = LAST_MS) -> list[int]:
    """Display time (ms) of each of ``count`` frames: the start :data:`START_MS` (at least ``frame_ms``), the last
    ``last_ms``, the others ``frame_ms`` (default: about :data:`TARGET_MS` in all, each between :data:`MIN_MS` and
    :data:`MAX_MS`). GIF stores hundredths of a second, so values are rounded to 10 ms."""
    if frame_ms is None:
        frame_ms = min(MAX_MS, max(MIN_MS, TARGET_MS // max(1, count)))
    out = [max(START_MS, frame_ms)] + [frame_ms] * (count - 2) + [last_ms] if count > 1 else [last_ms]
    return [max(20, round(ms, -1)) for ms in out]


def caption_height(width: int) -> int:
    """Height (px) of the caption band above each frame body of an image ``width`` px wide."""
    fs = min_font_px(width)
    return BAR_H + round(fs * 1.55) + 6


def _caption_band(
    width: int, index: int, total: int, seat: int | None, text: str, names: Sequence[str], theme: str
) -> Image.Image:
    th = theme_of(theme)
    fs = min_font_px(width)
    h = caption_height(width)
    img = Image.new("RGB", (width, h), th.panel)
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, width, BAR_H - 1), fill=th.grid_strong)
    if total > 0 and index > 0:
        draw.rectangle((0, 0, round(width * index / total) - 1, BAR_H - 1), fill=th.highlight)
    pad = 10
    room = width - 2 * pad
    head = f"{index}/{total} · "
    if seat is not None:
        rest = f": {text}"
        name_w = max(room * 0.35, room - text_width(head + rest, fs, True))
        line = head + ellipsize(names[seat], name_w, fs, True) + rest
    else:
        line = head + text
    draw_text(
        draw,
        (pad, BAR_H + (h - BAR_H) / 2),
        ellipsize(line, room, fs, True),
        size=fs,
        fill=th.text,
        bold=True,
        anchor="lm",
    )
    return img


class _Frames:
    """Draws frames (caption band + the hook's body) for one record."""

    def __init__(
        self,
        record: Mapping[str, Any],
        renderer: ReplayRenderer,
        names: Sequence[str] | None,
        width: int,
        theme: str,
        palette: Palette | None = None,
        words: Words | None = None,
    ) -> None:
        theme_of(theme)
        if not 240 <= width <= 1600:
            raise ValueError(f"width must be 240..1600 px, not {width}")
        self.rec = renderer.parse(record)
        self.hooks = renderer
        self.steps, self.scored, self.final = _scan(self.rec, self.hooks)
        self.total = len(self.rec.history)
        self.names = record_names(self.rec, names, self.final.num_players)
        self.width, self.theme, self.words = width, theme, words
        extra = {"palette": palette} if palette is not None else {}  # a hook without ``palette`` draws the default
        self.paint = self.hooks.prepare(
            self.final, self.steps, names=self.names, width=width, theme=theme, words=words, **extra
        )

    def live(self) -> Iterable[Step]:
        return replay_steps(self.rec.state_cls, self.rec.setup, self.rec.history)

    def draw(self, step: Step) -> Image.Image:
        body = self.paint(step)
        seat, text = self.hooks.caption(step, self.names, self.words)
        band = _caption_band(self.width, step.index, self.total, seat, text, self.names, self.theme)
        img = Image.new("RGB", (self.width, band.height + body.height), theme_of(self.theme).bg)
        img.paste(band, (0, 0))
        note_paste(band, img, (0, 0))
        img.paste(body, (0, band.height))
        note_paste(body, img, (0, band.height))
        return img


def replay_frame(
    record: Mapping[str, Any],
    renderer: ReplayRenderer,
    index: int,
    *,
    names: Sequence[str] | None = None,
    theme: str = "dark",
    width: int = DEFAULT_WIDTH,
    palette: Palette | None = None,
    words: Words | None = None,
) -> Image.Image:
    """Frame ``index`` (0 = the start, k = after action k) of :func:`render_replay`'s animation as an RGB image,
    drawn from a fresh replay (a still "position after move k"). Raises like :func:`render_replay`, and
    ``IndexError`` for an index outside ``0..actions``."""
    frames = _Frames(record, renderer, names, width, theme, palette, words)
    if not 0 <= index <= frames.total:
        raise IndexError(f"frame {index} of a replay with {frames.total} actions")
    for step in frames.live():
        if step.index == index:
            return frames.draw(step)
    raise AssertionError("unreachable")  # pragma: no cover


def _palette(images: Sequence[Image.Image], extra: Sequence[str]) -> Image.Image:
    """One 255-colour palette for the whole animation (index 255 stays free for GIF transparency), from sample
    frames plus a swatch of ``extra`` colours."""
    w = max(im.width for im in images)
    swatch_h = 8 if extra else 0
    mosaic = Image.new("RGB", (w, sum(im.height for im in images) + swatch_h), images[0].getpixel((0, 0)))
    y = 0
    for im in images:
        mosaic.paste(im, (0, y))
        y += im.height
    if extra:
        draw = ImageDraw.Draw(mosaic)
        step = max(1, w // len(extra))
        for i, colour in enumerate(extra):
            draw.rectangle((i * step, y, (i + 1) * step - 1, y + swatch_h - 1), fill=colour)
    return mosaic.quantize(255, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def _encode(frames: Sequence[Image.Image], durations: Sequence[int], palette: Image.Image) -> bytes:
    h = max(f.height for f in frames)
    fill = frames[0].getpixel((0, frames[0].height - 1))
    same = []
    for f in frames:  # bodies may differ in height (e.g. round 2's layout): pad at the bottom
        if f.height < h:
            g = Image.new("P", (f.width, h), fill)
            g.putpalette(palette.getpalette() or [])
            g.paste(f, (0, 0))
            f = g
        same.append(f)
    buf = io.BytesIO()
    same[0].save(
        buf,
        format="GIF",
        save_all=True,
        append_images=same[1:],
        duration=list(durations),
        loop=0,
        optimize=True,
        disposal=1,
    )
    return buf.getvalue()


def render_replay(
    record: Mapping[str, Any],
    renderer: ReplayRenderer,
    *,
    names: Sequence[str] | None = None,
    theme: str = "dark",
    width: int = DEFAULT_WIDTH,
    max_frames: int = MAX_FRAMES,
    frame_ms: int | None = None,
    last_ms: int = LAST_MS,
    max_bytes: int = MAX_BYTES,
    palette: Palette | None = None,
    words: Words | None = None,
) -> bytes:
    """An animated GIF replaying the game of ``record`` (an :func:`engine.record.export_record` dict).

    Frame 0 is the start position; frame k the position after action k, the action highlighted (its hook's choice:
    a placed chip or card, a move arrow, a removed card) and captioned ``"k/n · <name>: <action>"`` above a progress
    bar. Frames: ``actions + 1`` up to ``max_frames`` (see :func:`frame_indices`); times: :func:`frame_durations`;
    loops forever.

    Args:
        record: the record dict (validated and replayed here: nothing in it is trusted).
        renderer: the game's :class:`ReplayRenderer` (its plug-in's ``kind.replay``).
        names: display names by seat (default: the record's ``players``).
        theme: ``"dark"`` or ``"light"``.
        palette: the seat colours and cues (:class:`render.palette.Palette`; ``None`` = standard).
        width: frame width in px (240..1600; labels keep 9 px capitals at 400 px wide only from the default up).
        max_frames: frame cap (>= 2).
        frame_ms: time per action frame in ms (default automatic).
        last_ms: time the final position stays (ms).
        max_bytes: size bound; past it frames are dropped (never the start, the end or a score change) and then
            scaled down until it fits (best effort below ~150 px wide).
        words: the reader's language (``None`` = English).

    Returns:
        the GIF file's bytes (:data:`REPLAY_MIME`).

    Raises:
        StateError: the record is malformed, is of another game than ``renderer``'s, does not replay, or its outcome
            disagrees with the replay.
        ValueError: an unknown theme, a width outside 240..1600, ``max_frames < 2``.
    """
    frames = _Frames(record, renderer, names, width, theme, palette, words)
    keep = frame_indices(frames.total, frames.scored, max_frames)
    wanted = set(keep)
    drawn: dict[int, Image.Image] = {}
    gif_pal: Image.Image | None = None
    last_rgb: Image.Image | None = None
    for step in frames.live():
        if step.index not in wanted:
            continue
        rgb = frames.draw(step)
        if gif_pal is None:
            last_rgb = _last_frame(frames)
            extra = frames.hooks.extra_colours
            gif_pal = _palette([rgb, last_rgb], extra)
        drawn[step.index] = rgb.quantize(palette=gif_pal, dither=Image.Dither.NONE)
    assert gif_pal is not None and last_rgb is not None
    return _fit(drawn, keep, frames.scored, gif_pal, frame_ms, last_ms, max_bytes)


def _last_frame(frames: _Frames) -> Image.Image:
    """The final position, from the first pass's final state (for the palette, before the second pass ends)."""
    return frames.draw(replace(frames.steps[-1], state=frames.final))


def _fit(
    drawn: dict[int, Image.Image],
    keep: list[int],
    scored: set[int],
    palette: Image.Image,
    frame_ms: int | None,
    last_ms: int,
    max_bytes: int,
) -> bytes:
    """Encode; while over ``max_bytes``: halve the dropped-able frames, then scale every frame by 3/4."""
    data = _encode([drawn[k] for k in keep], frame_durations(len(keep), frame_ms, last_ms), palette)
    scale = 1.0
    while len(data) > max_bytes:
        fewer = _spread(keep, scored, max(2, len(keep) // 2))  # only frames already drawn
        if len(fewer) < len(keep):
            keep = fewer
        elif scale * next(iter(drawn.values())).width * 0.75 >= 150:
            scale *= 0.75
        else:
            break
        frames = [_scaled(drawn[k], scale, palette) for k in keep]
        data = _encode(frames, frame_durations(len(keep), frame_ms, last_ms), palette)
    return data


def _scaled(img: Image.Image, scale: float, palette: Image.Image) -> Image.Image:
    if scale == 1.0:
        return img
    size = (max(1, round(img.width * scale)), max(1, round(img.height * scale)))
    return img.convert("RGB").resize(size, Image.Resampling.LANCZOS).quantize(palette=palette, dither=Image.Dither.NONE)
