"""Every name renders (issue 14): names in Latin, Cyrillic, Greek, Arabic, Hebrew, CJK, Korean, Thai, Devanagari,
emoji, fullwidth letters, U+FDFD and styled math letters are drawn with a font that has each glyph (no empty
boxes) in every image; 32-character names are shortened with an ellipsis and no seat or score is dropped.
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import cache
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont
from PIL import Image, ImageChops, ImageDraw, ImageFont

from engine.conex import Draw, Game
from engine.constructo import Match, Round
from render.conex import render_table
from render.constructo import render_board
from render.fonts import EMOJI_PPEM, FACES, FONT_DIR, split_runs, uncovered
from render.results import render_conex_result, render_constructo_result, render_leaderboard
from render.text import ellipsize, record_labels, text_width

NAMES_BY_SCRIPT = {
    "latin": "Zoë Ångström",
    "cyrillic": "Борис Пастернак",
    "greek": "Γιώργος",
    "arabic": "محمد علي",
    "hebrew": "דוד כהן",
    "cjk": "山田太郎",
    "korean": "김민준",
    "japanese kana": "さくら カタカナ",
    "thai": "สมชาย",
    "devanagari": "राहुल",
    "emoji": "🦄 Uni 😀🔥",
    "fullwidth": "ＡＢＣ１２３",
    "fdfd": "\ufdfd",
    "math letters": "𝓐𝓵𝓲𝓬𝓮 𝔹𝕠𝕓",
}
FIXTURE = Path(__file__).resolve().parent / "data" / "conex_52.json"


@cache
def _cmap(face: str) -> frozenset[int]:
    """The cmap of a face's regular file, read here independently of render.fonts."""
    font = TTFont(FONT_DIR / FACES[face].regular, lazy=True)
    return frozenset(font.getBestCmap())


def _drawn_chars(run: str) -> list[str]:
    """The characters of a run that need a glyph of their own (marks, joiners and selectors ride along)."""
    return [
        ch
        for ch in run
        if unicodedata.category(ch) not in ("Mn", "Me", "Mc", "Cf", "Zs")
        and not 0xFE00 <= ord(ch) <= 0xFE0F
        and not 0x1F3FB <= ord(ch) <= 0x1F3FF
    ]


def _glyph(face: str, ch: str, size: int = 40) -> Image.Image:
    f = ImageFont.truetype(str(FONT_DIR / FACES[face].regular), EMOJI_PPEM if FACES[face].colour else size)
    im = Image.new("RGBA", (4 * f.size, 2 * f.size), (0, 0, 0, 0))
    ImageDraw.Draw(im).text(
        (f.size, f.size), ch, font=f, fill="#000000", anchor="ls", embedded_color=FACES[face].colour
    )
    return im


@pytest.mark.parametrize("script", sorted(NAMES_BY_SCRIPT))
def test_every_character_is_drawn_by_a_font_that_has_its_glyph(script: str) -> None:
    name = NAMES_BY_SCRIPT[script]
    assert uncovered(name) == []
    runs = split_runs(name)
    assert "".join(s for _, s in runs) == name  # nothing dropped or replaced
    for face, run in runs:
        for ch in _drawn_chars(run):
            assert ord(ch) in _cmap(face), f"{script}: {ch!r} (U+{ord(ch):04X}) drawn with {face}, which lacks it"


@pytest.mark.parametrize("script", sorted(NAMES_BY_SCRIPT))
def test_no_character_renders_as_the_missing_glyph_box(script: str) -> None:
    for face, run in split_runs(NAMES_BY_SCRIPT[script]):
        notdef = _glyph(face, "\U0010fffd")  # a private-use code point no font maps: FreeType draws .notdef
        for ch in _drawn_chars(run):
            img = _glyph(face, ch)
            assert img.getbbox() is not None, f"{ch!r} draws nothing"
            assert ImageChops.difference(img, notdef).getbbox() is not None, f"{ch!r} is the .notdef box in {face}"


def test_a_character_no_font_has_becomes_a_visible_replacement_and_controls_vanish() -> None:
    unknown = "A\U0010fffdB"  # private use: no font has it
    assert uncovered(unknown) == ["\U0010fffd"]
    assert split_runs(unknown) == (("dejavu", "A\ufffdB"),)
    assert split_runs("a\x07b") == (("dejavu", "ab"),)


def test_runs_keep_marks_joiners_and_right_to_left_words_together() -> None:
    assert split_runs("e\u0301") == (("dejavu", "e\u0301"),)
    assert split_runs("👨\u200d👩\u200d👧") == (("emoji", "👨\u200d👩\u200d👧"),)
    assert split_runs("👍🏽 ok") == (("emoji", "👍🏽"), ("dejavu", " ok"))
    assert split_runs("محمد علي") == (("dejavu", "محمد علي"),)  # one run: shaped and ordered right to left whole
    assert [f for f, _ in split_runs("Bob 山田")] == ["dejavu", "cjk"]


def test_widths_are_measured_run_by_run_and_ellipses_respect_them() -> None:
    mixed = "Ann 山田 🦄"
    parts = sum(text_width(s, 30) for s in ("Ann ", "山田 ")) + text_width("🦄", 30)
    assert abs(text_width(mixed, 30) - parts) < 2
    for name in [*NAMES_BY_SCRIPT.values(), "山" * 32, "🦄" * 32, "𝓐" * 32]:
        cut = ellipsize(name, 150, 26, True)
        assert text_width(cut, 26, True) <= 150
        assert cut == name or cut.endswith("…")


def _labels_with(fn):  # type: ignore[no-untyped-def]
    with record_labels() as log:
        img = fn()
    return img, [lb for lb in log if lb.image is img]


def _all_runs_covered(labels) -> None:  # type: ignore[no-untyped-def]
    for lb in labels:
        for face, run in lb.runs:
            for ch in _drawn_chars(run):
                if ch != "…":
                    assert ord(ch) in _cmap(face), (lb.text, ch, face)


def test_names_in_every_script_render_in_every_image_kind() -> None:
    names = list(NAMES_BY_SCRIPT.values())
    game = Game.from_dict(json.loads(FIXTURE.read_text(encoding="utf-8")))
    match = Match(0, [Round.from_record("rombo: L5 M4 S1 4-5")])
    for i in range(0, len(names), 3):
        trio = names[i : i + 3] + ["Pat"] * (3 - len(names[i : i + 3]))
        for shown, fn in (
            (3, lambda t=trio: render_table(game, names=t)),
            (3, lambda t=trio: render_conex_result(game, names=t)),
            (2, lambda t=trio: render_board(match, names=t[:2])),
            (3, lambda t=trio: render_leaderboard([(k + 1, n, 1500, 1, 0, 0) for k, n in enumerate(t)])),
        ):
            _, labels = _labels_with(fn)
            texts = " ".join(lb.text for lb in labels)
            for name in trio[:shown]:
                assert name in texts, (name, texts[:300])
            _all_runs_covered(labels)


LONG4 = (
    "Maximiliano Alejandro Gutiérrez1",
    "Александра Владимировна Петрова!",
    "山田太郎" * 8,
    "🦄🦄 Unicorn Rainbow Sparkle 🌈✨ ok",
)


def _prefix_shown(name: str, texts: list[str]) -> bool:
    """Some label shows ``name`` whole or its first 4+ characters followed by an ellipsis."""
    return any(name in t or re.search(re.escape(name[:4]) + r".*…", t) for t in texts)


def test_32_character_names_keep_every_seat_and_every_score_in_every_image() -> None:
    assert all(len(n) == 32 for n in LONG4)
    g4 = Game.new(players=4, seed=5)
    for _ in range(8):  # a few real placements (or draws) so the table and scores are not empty
        p = g4.current_player
        found = next((pl for c in g4.hand(p) for pl in g4.find_placements(p, c.id, limit=1)), None)
        g4.play(found if found is not None else Draw(p))
    img, labels = _labels_with(lambda: render_table(g4, names=LONG4))
    texts = [lb.text for lb in labels]
    for seat, name in enumerate(LONG4):
        score = f": {g4.scores[seat]} pts"
        assert any(_prefix_shown(name, [t]) and (t.endswith(score) or score + " ·" in t) for t in texts), (
            seat,
            texts[:12],
        )
    for lb in labels:
        assert lb.box[2] <= img.width and lb.box[0] >= 0
    _, labels = _labels_with(lambda: render_conex_result(g4, names=LONG4))
    texts = [lb.text for lb in labels]
    for seat, name in enumerate(LONG4):
        assert _prefix_shown(name, texts), name
        assert str(g4.scores[seat]) in texts
    m = Match(0, [Round.from_record("rombo: L5 M4 S1 4-5")])
    for fn in (lambda: render_board(m, names=LONG4[:2]), lambda: render_constructo_result(m, names=LONG4[2:])):
        _, labels = _labels_with(fn)
        texts = [lb.text for lb in labels]
        assert sum(_prefix_shown(n, texts) for n in LONG4) >= 2
    rows = [(k + 1, n, 1500 - k, 10 + k, 5, 1) for k, n in enumerate(LONG4)]
    _, labels = _labels_with(lambda: render_leaderboard(rows))
    texts = [lb.text for lb in labels]
    for rank, name, rating, w, _, _ in rows:
        assert _prefix_shown(name, texts) and str(rating) in texts and str(w) in texts and str(rank) in texts
