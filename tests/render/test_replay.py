"""Animated replays (issue 16, render/replay.py): the GIF decodes with one frame per action plus the start, within
size bounds; frame 0 is the start position and every frame the position after its action (checked against frames
drawn from fresh replays); frames change where the action changed the board; frame sampling; the size fallback;
legibility at phone width; tampered records refused."""

from __future__ import annotations

import io
import itertools
import json
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageStat

from engine.conex import Game
from engine.conex.events import CardRemoved, Placed
from engine.constructo import Match
from engine.constructo.events import ChipMoved, ChipPlaced, LayoutChosen
from engine.errors import StateError
from engine.record import export_record, replay_steps
from render.conex_replay import PAD, frame_view, plot_top
from render.conex_replay import REPLAY as CONEX_REPLAY
from render.constructo import board_fit, render_board
from render.constructo_replay import REPLAY as CONSTRUCTO_REPLAY
from render.replay import (
    DEFAULT_WIDTH,
    LAST_MS,
    START_MS,
    ReplayRenderer,
    caption_height,
    frame_durations,
    frame_indices,
    render_replay,
    replay_frame,
)
from render.text import MIN_CAP_PX_AT_400, cap_px_at_phone, record_labels
from tests.engine.record_games import NAMES, conex_game, constructo_match

REPLAYS = {"conex": CONEX_REPLAY, "constructo": CONSTRUCTO_REPLAY}
"""The renderers the plug-ins name (``kind.replay``), by the records' game."""


def of(record: dict[str, Any]) -> ReplayRenderer:
    """The replay renderer of ``record``'s game."""
    return REPLAYS[record["game"]]


LONG = (
    "Maximiliano Alejandro Gutiérrez1",
    "Александра Владимировна Петрова!",
    "山田太郎" * 8,
    "🦄🦄 Unicorn Rainbow Sparkle 🌈✨ ok",
)


def frames_of(data: bytes) -> list[Image.Image]:
    im = Image.open(io.BytesIO(data))
    assert im.format == "GIF"
    out = []
    for k in range(im.n_frames):
        im.seek(k)
        out.append(im.convert("RGB"))
    return out


def durations_of(data: bytes) -> list[int]:
    im = Image.open(io.BytesIO(data))
    out = []
    for k in range(im.n_frames):
        im.seek(k)
        out.append(im.info["duration"])
    return out


def close(a: Image.Image, b: Image.Image, share: float = 1e-3) -> bool:
    """Equal but for the palette reduction (which moves a pixel by at most ~25 grey levels): under ``share`` of the
    pixels differ by more than 40 levels (a new card or chip changes > 1% of a frame)."""
    if a.size != b.size:
        return False
    hist = ImageChops.difference(a, b).convert("L").histogram()
    return sum(hist[41:]) < share * a.width * a.height


def mean_error(a: Image.Image, b: Image.Image) -> float:
    return max(ImageStat.Stat(ImageChops.difference(a, b)).mean)


def crop_body(img: Image.Image, top: int = 0) -> Image.Image:
    return img.crop((0, caption_height(img.width) + top, img.width, img.height))


def record_for(state: Any) -> dict[str, Any]:
    return json.loads(json.dumps(export_record(state, names=NAMES[: state.num_players])))


@pytest.fixture(scope="module")
def conex_rec() -> dict[str, Any]:
    return record_for(conex_game(3, 2))


@pytest.fixture(scope="module")
def conex_gif(conex_rec: dict[str, Any]) -> bytes:
    return render_replay(conex_rec, of(conex_rec))


@pytest.fixture(scope="module")
def constructo_rec() -> dict[str, Any]:
    return record_for(constructo_match(5, end="M2", second="flor"))


@pytest.fixture(scope="module")
def constructo_gif(constructo_rec: dict[str, Any]) -> bytes:
    return render_replay(constructo_rec, of(constructo_rec))


# ----------------------------------------------------------------------------------------------
# frame counts, sizes, times
# ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["conex", "constructo"])
def test_one_frame_per_action_plus_the_start(kind: str, request: pytest.FixtureRequest) -> None:
    rec, data = request.getfixturevalue(f"{kind}_rec"), request.getfixturevalue(f"{kind}_gif")
    frames = frames_of(data)
    assert len(frames) == len(rec["history"]) + 1
    assert all(f.size == frames[0].size for f in frames) and frames[0].width == DEFAULT_WIDTH
    times = durations_of(data)
    assert times[0] == START_MS and times[-1] == LAST_MS and len(set(times[1:-1])) == 1
    assert Image.open(io.BytesIO(data)).info.get("loop") == 0  # loops forever


def test_a_long_conex_game_stays_far_below_the_upload_limit() -> None:
    g = conex_game(4, 1, goal=100, forfeit_at=None, timeouts=0.0)
    assert len(g.table) >= 45
    data = render_replay(record_for(g), CONEX_REPLAY)
    assert Image.open(io.BytesIO(data)).n_frames == len(g.history) + 1
    assert len(data) < 4_000_000  # Discord takes 10 MiB; figures in BENCHMARKS.md


def test_frame_durations() -> None:
    assert frame_durations(1) == [LAST_MS]
    assert frame_durations(3, 700, 4000) == [START_MS, 700, 4000]
    auto = frame_durations(150)
    assert 500 <= auto[1] <= 1200 and sum(auto) < 120_000
    assert frame_durations(20)[1] == 1200 and all(ms % 10 == 0 for ms in frame_durations(77, 333))


# ----------------------------------------------------------------------------------------------
# frames show the right positions
# ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["conex", "constructo"])
def test_frames_equal_positions_drawn_from_fresh_replays(kind: str, request: pytest.FixtureRequest) -> None:
    rec, data = request.getfixturevalue(f"{kind}_rec"), request.getfixturevalue(f"{kind}_gif")
    frames = frames_of(data)
    n = len(rec["history"])
    for k in (0, 1, n // 2, n - 1, n):
        still = replay_frame(rec, of(rec), k)
        assert close(frames[k].crop((0, 0, *still.size)), still), k
        if still.height < frames[k].height:  # a shorter board (round 2's layout) is padded with one colour
            pad = frames[k].crop((0, still.height, still.width, frames[k].height))
            assert all(lo == hi for lo, hi in pad.getextrema()), k
    board_moves = ("place", "L", "M", "S")
    k = next(i for i, (_, text) in enumerate(rec["history"]) if i > n // 2 and text.startswith(board_moves))
    still = replay_frame(rec, of(rec), k + 1)
    assert not close(frames[k].crop((0, 0, *still.size)), still)  # and not just any frame


def test_constructo_first_frame_is_the_start_board(constructo_rec: dict[str, Any], constructo_gif: bytes) -> None:
    start = render_board(Match.new(constructo_rec["setup"]), names=NAMES[:2])
    start = start.resize((DEFAULT_WIDTH, round(start.height * DEFAULT_WIDTH / start.width)), Image.Resampling.HAMMING)
    body = crop_body(frames_of(constructo_gif)[0])
    assert close(body.crop((0, 0, *start.size)), start)


def test_conex_first_frame_is_the_deal(conex_rec: dict[str, Any]) -> None:
    fresh = Game.new(conex_rec["setup"])
    with record_labels() as log:
        img = replay_frame(conex_rec, of(conex_rec), 0)
    texts = [lb.text for lb in log if lb.image is img]
    assert f"goal {fresh.goal} · draw pile {len(fresh.pile)} · ▶ {NAMES[0]} to play" in texts
    assert [t for t in texts if t.endswith(": 0 pts")] == [f"{n}: 0 pts" for n in NAMES[:3]]
    assert not any(t.rstrip("YRTP").isdigit() for t in texts)  # no card on the table
    assert any(t.startswith("0/") and "start" in t for t in texts)


def test_conex_frames_change_where_a_card_was_placed_or_removed(conex_rec: dict[str, Any], conex_gif: bytes) -> None:
    frames = frames_of(conex_gif)
    history = [(seat, text) for seat, text in conex_rec["history"]]
    steps = [replace(s, state=None) for s in replay_steps(Game, conex_rec["setup"], history)]
    view = frame_view(Game.replay(conex_rec["setup"], history), steps, DEFAULT_WIDTH)
    top = caption_height(DEFAULT_WIDTH) + plot_top(3, DEFAULT_WIDTH)
    checked = 0
    for step in steps[1:]:
        for ev in step.events:
            if isinstance(ev, Placed | CardRemoved):
                x, y = view.px(ev.pose[0], ev.pose[1])
                box = (round(PAD + x - 12), round(top + y - 12), round(PAD + x + 12), round(top + y + 12))
                before, after = frames[step.index - 1].crop(box), frames[step.index].crop(box)
                assert not close(before, after, 0.05), (step.index, step.text)
                checked += 1
    assert checked > 20


def test_constructo_frames_change_where_a_chip_went(constructo_rec: dict[str, Any], constructo_gif: bytes) -> None:
    frames = frames_of(constructo_gif)
    scale = DEFAULT_WIDTH / 800
    checked = 0
    for step in replay_steps(Match, constructo_rec["setup"], [tuple(e) for e in constructo_rec["history"]]):
        tiles = [ev.tile for ev in step.events if isinstance(ev, ChipPlaced)]
        tiles += [ev.dst for ev in step.events if isinstance(ev, ChipMoved)]
        if any(isinstance(ev, LayoutChosen) for ev in step.events):
            assert not close(crop_body(frames[step.index - 1]), crop_body(frames[step.index]), 0.05)
        if not tiles:
            continue
        fit = board_fit(step.state, names=NAMES[:2])
        cx, cy = fit.centres[tiles[0] - 1]
        r = fit.radius * 0.5
        box = tuple(round(v * scale) for v in (cx - r, cy - r, cx + r, cy + r))
        top = caption_height(DEFAULT_WIDTH)
        box = (box[0], box[1] + top, box[2], box[3] + top)
        assert not close(frames[step.index - 1].crop(box), frames[step.index].crop(box), 0.05), step.text
        checked += 1
    assert checked == sum(1 for _, t in constructo_rec["history"] if t[0] in "SML" or "-" in t)


# ----------------------------------------------------------------------------------------------
# sampling and the size fallback
# ----------------------------------------------------------------------------------------------
def test_frame_indices_keep_everything_under_the_cap() -> None:
    assert frame_indices(10, (), 11) == list(range(11))
    assert frame_indices(0, (), 2) == [0]


def test_frame_indices_sample_but_keep_start_end_and_score_changes() -> None:
    keep = {3, 50, 51, 120}
    got = frame_indices(300, keep, 40)
    assert len(got) == 40 and got == sorted(set(got))
    assert {0, 300} | keep <= set(got)
    gaps = [b - a for a, b in itertools.pairwise(got)]
    assert max(gaps) <= 2 * (300 // 40) + 2  # spread evenly, no long hole
    assert frame_indices(100, set(range(1, 100)), 10) == list(range(101))  # the cap yields to score changes
    with pytest.raises(ValueError):
        frame_indices(10, (), 1)


def test_max_frames_samples_a_long_game(conex_rec: dict[str, Any]) -> None:
    data = render_replay(conex_rec, of(conex_rec), max_frames=12, width=300)
    n = Image.open(io.BytesIO(data)).n_frames
    placements = sum(1 for _, t in conex_rec["history"] if t.startswith("place"))
    assert 12 <= n < len(conex_rec["history"]) + 1
    assert n >= placements  # every frame that changed a score stays


def test_size_fallback_after_sampling_keeps_only_drawn_frames(conex_rec: dict[str, Any]) -> None:
    sampled = render_replay(conex_rec, of(conex_rec), max_frames=30)
    assert Image.open(io.BytesIO(sampled)).n_frames == 30 < len(conex_rec["history"])
    limit = int(len(sampled) * 0.7)
    data = render_replay(conex_rec, of(conex_rec), max_frames=30, max_bytes=limit)
    im = Image.open(io.BytesIO(data))
    assert len(data) <= limit and 2 <= im.n_frames <= 30 and im.width < DEFAULT_WIDTH


def test_size_fallback_drops_frames_then_scales(constructo_rec: dict[str, Any], constructo_gif: bytes) -> None:
    limit = len(constructo_gif) // 4
    data = render_replay(constructo_rec, of(constructo_rec), max_bytes=limit)
    assert len(data) <= limit
    frames = frames_of(data)
    assert 2 <= len(frames) < len(constructo_rec["history"]) + 1
    full = frames_of(constructo_gif)
    small = frames[0].resize(full[0].size, Image.Resampling.BILINEAR)
    assert mean_error(small, full[0]) < 12.0 < mean_error(small, full[-1])  # still the start position


# ----------------------------------------------------------------------------------------------
# readable, robust, pure
# ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["conex", "constructo"])
def test_every_label_has_9px_capitals_at_400px_wide(kind: str, request: pytest.FixtureRequest) -> None:
    rec = request.getfixturevalue(f"{kind}_rec")
    n = len(rec["history"])
    names = LONG[: len(rec["players"])]
    for k in (0, n // 2, n):
        with record_labels() as log:
            img = replay_frame(rec, of(rec), k, names=names)
        own = [lb for lb in log if lb.image is img]
        assert any(lb.text.startswith(f"{k}/{n}") for lb in own)
        small = [
            (lb.text, lb.size)
            for lb in log
            if lb.image is not None and cap_px_at_phone(lb.size, lb.image.width) < MIN_CAP_PX_AT_400 - 1e-9
        ]
        assert not small, small[:5]
        cut = [lb.text for lb in own if lb.box[0] < -1 or lb.box[2] > img.width + 1 or lb.box[3] > img.height + 1]
        assert not cut, cut[:5]


def test_light_theme_and_other_widths(constructo_rec: dict[str, Any]) -> None:
    img = replay_frame(constructo_rec, of(constructo_rec), 3, theme="light", width=800)
    assert img.width == 800 and img.getpixel((img.width - 2, img.height - 2)) != (30, 31, 34)
    with pytest.raises(ValueError):
        render_replay(constructo_rec, of(constructo_rec), theme="sepia")
    with pytest.raises(ValueError):
        render_replay(constructo_rec, of(constructo_rec), width=100)
    with pytest.raises(IndexError):
        replay_frame(constructo_rec, of(constructo_rec), len(constructo_rec["history"]) + 1)


def test_a_tampered_record_is_refused(conex_rec: dict[str, Any]) -> None:
    bad = json.loads(json.dumps(conex_rec))
    bad["outcome"]["scores"][0] += 5
    with pytest.raises(StateError):
        render_replay(bad, of(bad))
    bad = json.loads(json.dumps(conex_rec))
    bad["history"][2][1] = "lightning 99"
    with pytest.raises(StateError):
        render_replay(bad, of(bad))


def test_renders_in_a_worker_process() -> None:
    rec = record_for(constructo_match(2, end="M3", second=None))
    with ProcessPoolExecutor(max_workers=1) as pool:
        data = pool.submit(render_replay, rec, CONSTRUCTO_REPLAY, width=300).result(timeout=120)  # the renderer pickles
    assert Image.open(io.BytesIO(data)).n_frames == len(rec["history"]) + 1
