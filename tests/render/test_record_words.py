"""The after-game pictures in the reader's language: the Constructo and CONEX result cards, the leaderboard, the
Constructo layouts sheet and the replays of both games (frames, captions, move lists) draw only the words they are
given (a pseudo-language run finds any English left in the drawing code), and in Spanish the words drawn are the
catalogue's, every label inside its picture at the legible size on a phone."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.i18n import image_words
from engine.conex import Game
from engine.constructo import LAYOUTS, Match
from engine.record import export_record, replay_steps
from render.conex_replay import REPLAY as CONEX_REPLAY
from render.constructo import board_text
from render.constructo_layouts import layouts_text, render_layouts_sheet
from render.constructo_replay import REPLAY as CONSTRUCTO_REPLAY
from render.record_words import EN as RECORD_EN
from render.replay import ReplayRenderer, replay_frame
from render.replay_moves import move_list_pages, move_list_text
from render.results import (
    CN_WORDS,
    KO_WORDS,
    conex_result_text,
    constructo_result_text,
    leaderboard_text,
    render_conex_result,
    render_constructo_result,
    render_leaderboard,
)
from render.text import MIN_CAP_PX_AT_400, Label, cap_px_at_phone, record_labels
from render.words import Words
from tests.engine.record_games import conex_game, constructo_match

FIXTURE = Path(__file__).resolve().parent / "data" / "conex_52.json"
NAMES = ("Ω1", "Ω2", "Ω3")  # no Latin letters: a two-letter word on a picture came from the renderer
ALL_EN = {**KO_WORDS, **CN_WORDS, **RECORD_EN}
PSEUDO = Words("xx", {k: "¤" for k in ALL_EN})
ENGLISH_WORD = re.compile(r"[A-Za-z]{2,}")
LAYOUT_NAMES = set(LAYOUTS)  # names, the same in every language
ROWS = [(1, "Ω1", 1563, 12, 3, 1), (2, "Ω2", "1402?", 3, 5, 0)]


def english(texts: list[str]) -> list[str]:
    """The texts holding a two-letter word that is not a layout name."""
    return [t for t in texts if any(w not in LAYOUT_NAMES for w in ENGLISH_WORD.findall(t))]


def labels_of(make: Callable[[], Image.Image]) -> tuple[Image.Image, list[Label]]:
    with record_labels() as labels:
        img = make()
    return img, [lb for lb in labels if lb.image is img]


def record(state: Any, seats: int) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(json.dumps(export_record(state, names=NAMES[:seats])))
    return data


CONEX = conex_game()
MATCHES = {end: constructo_match(end=end) for end in ("M2", "M3", "timeout")}


def pictures(words: Words) -> dict[str, Callable[[], Image.Image]]:
    """Every after-game picture (and each replay's first, a middle and last frame) drawn with ``words``."""
    full = Game.from_dict(json.loads(FIXTURE.read_text(encoding="utf-8")))
    cn, ko = record(CONEX, 3), record(MATCHES["M2"], 2)
    cn_n, ko_n = len(cn["history"]), len(ko["history"])
    out: dict[str, Callable[[], Image.Image]] = {
        f"ko_result_{end}": (lambda m=m: render_constructo_result(m, names=NAMES[:2], words=words))
        for end, m in MATCHES.items()
    }
    out |= {
        "cn_result": lambda: render_conex_result(full, names=NAMES, words=words),
        "leaderboard": lambda: render_leaderboard(ROWS, words=words),
        "leaderboard_empty": lambda: render_leaderboard([], words=words),
        "layouts": lambda: render_layouts_sheet(words=words),
    }
    for i in (0, cn_n // 2, cn_n):
        out[f"cn_frame_{i}"] = lambda i=i: replay_frame(cn, CONEX_REPLAY, i, words=words)
    for i in (0, ko_n // 2, ko_n):
        out[f"ko_frame_{i}"] = lambda i=i: replay_frame(ko, CONSTRUCTO_REPLAY, i, words=words)
    return out


KINDS = sorted(pictures(PSEUDO))


@pytest.mark.parametrize("kind", KINDS)
def test_no_english_is_drawn_in_another_language(kind: str) -> None:
    """Every template is "¤" in this pseudo-language: a drawn label with a two-letter word is hard-coded text."""
    _, labels = labels_of(pictures(PSEUDO)[kind])
    assert labels, kind
    assert english([lb.text for lb in labels]) == [], kind


@pytest.mark.parametrize(("renderer", "game", "seats"), [(CONEX_REPLAY, CONEX, 3), (CONSTRUCTO_REPLAY, None, 2)])
def test_every_caption_and_move_list_line_follows_the_words(renderer: ReplayRenderer, game: Any, seats: int) -> None:
    """Each step's caption (drawn above its frame) and the move lists, full and compact, of a whole game."""
    for state in [game] if game is not None else list(MATCHES.values()):
        data = record(state, seats)
        rec = renderer.parse(data)
        captions = [renderer.caption(s, NAMES, PSEUDO)[1] for s in replay_steps(rec.state_cls, rec.setup, rec.history)]
        assert english(captions) == []
        pages = move_list_pages(data, renderer, words=PSEUDO)
        compact = move_list_text(data, renderer, limit=400, words=PSEUDO)
        assert english("\n".join([*pages, compact]).splitlines()) == []


def test_text_twins_follow_the_words_too() -> None:
    """Result cards', leaderboard's, layouts sheet's and the Constructo board's text twins."""
    full = Game.from_dict(json.loads(FIXTURE.read_text(encoding="utf-8")))
    texts = [
        *(constructo_result_text(m, names=NAMES[:2], words=PSEUDO) for m in MATCHES.values()),
        conex_result_text(full, names=NAMES, words=PSEUDO),
        leaderboard_text(ROWS, words=PSEUDO),
        leaderboard_text([], words=PSEUDO),
        layouts_text(words=PSEUDO),
        *(board_text(m, names=NAMES[:2], words=PSEUDO) for m in (*MATCHES.values(), Match.new("flor"))),
    ]
    # layouts_text writes each layout's cells as axial coordinates "(q,r)": symbols
    assert english("\n".join(texts).splitlines()) == []


@pytest.mark.parametrize("kind", KINDS)
def test_spanish_pictures_fit_a_phone(kind: str) -> None:
    """Spanish (longer words): every label inside the picture, none smaller than 9 px capitals at 400 px wide."""
    img, labels = labels_of(pictures(image_words("es"))[kind])
    for lb in labels:
        x0, y0, x1, y1 = lb.box
        assert -1 <= x0 and x1 <= img.width + 1 and -1 <= y0 and y1 <= img.height + 1, (kind, lb.text, lb.box)
        assert cap_px_at_phone(lb.size, img.width) >= MIN_CAP_PX_AT_400 - 1e-6, (kind, lb.text, lb.size)


def drawn(make: Callable[[], Image.Image]) -> set[str]:
    return {lb.text for lb in labels_of(make)[1]}


def _steps(data: dict[str, Any], renderer: ReplayRenderer) -> Any:
    """The live replay of ``data`` (one state object, moved on by each step: read it before the next)."""
    rec = renderer.parse(data)
    return replay_steps(rec.state_cls, rec.setup, rec.history)


def part_of(text: str, labels: set[str]) -> bool:
    """Whether ``text`` is drawn, whole or as the first line of a wrap (at least 20 characters of it)."""
    return any(text.startswith(t) and len(t) >= min(20, len(text)) for t in labels)


def test_the_spanish_words_passed_in_are_the_ones_drawn() -> None:
    es = image_words("es")
    assert es.lang == "es"
    w = Words("es", es.templates, ALL_EN)
    pics = pictures(es)
    ko = drawn(pics["ko_result_M2"])
    assert {w("rs.ko_title"), w("rs.ko_round", n=1), w("rs.ko_round", n=2), w("rs.ko_total"), w("rs.ko_layout")} <= ko
    assert w("rs.ko_title") == "Constructo — resultado de la partida"
    late = MATCHES["timeout"].timed_out
    assert late is not None
    headline = w("rs.ko_timed_out", loser=NAMES[late], winner=NAMES[1 - late])
    assert part_of(headline, drawn(pics["ko_result_timeout"])), headline
    assert {w("cn.r_place"), w("cn.r_player"), w("cn.r_points")} <= drawn(pics["cn_result"])  # headers whole
    assert {w("lb.title"), w("lb.player"), w("lb.rating"), w("lb.col_w")} <= drawn(pics["leaderboard"])
    assert w("lb.empty") in drawn(pics["leaderboard_empty"])
    sheet = drawn(pics["layouts"])
    assert {"★ " + w("ly.recommended"), w("ly.experimental")} <= sheet
    assert part_of(w("ly.title"), sheet)
    # replays: the start frame's header and caption, the first move's caption
    cn = record(CONEX, 3)
    start = next(iter(_steps(cn, CONEX_REPLAY))).state
    frame = drawn(lambda: replay_frame(cn, CONEX_REPLAY, 0, words=es))
    said = w("rp.cn_start", n=3, name=NAMES[start.current_player])
    assert any(t.endswith(said) for t in frame), (said, frame)
    assert any(t.startswith(w("rp.cn_head", goal=start.goal, pile=len(start.draw_pile))) for t in frame), frame
    ko_data = record(MATCHES["M2"], 2)
    placed = next(ev for step in _steps(ko_data, CONSTRUCTO_REPLAY) if step.index == 1 for ev in step.events)
    said = w(
        "rp.ko_place",
        chip=f"{placed.size.letter}{placed.tile}",
        size=w(f"rp.ko_size_{int(placed.size)}"),
        tile=placed.tile,
    )
    assert " en " in said
    assert any(t.endswith(said) for t in drawn(lambda: replay_frame(ko_data, CONSTRUCTO_REPLAY, 1, words=es)))
