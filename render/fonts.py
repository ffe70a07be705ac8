"""The font fallback chain: which shipped font draws each character of a label.

Every image's text is set in DejaVu Sans; a character DejaVu lacks is drawn with the first font of :data:`CHAIN`
whose ``cmap`` (read with fontTools) has it: Noto Sans Arabic, Hebrew, Thai, Devanagari, Bengali, Tamil, a
subset of Noto Sans CJK JP (Chinese, Japanese, Korean and fullwidth forms), a subset of Noto Sans Math (styled
letters such as "𝓐"), Noto Sans Symbols 1 and 2, and Noto Color Emoji (single-code-point emoji; a character
followed by U+FE0F and every code point from U+1F000 goes to the emoji font first). A character no font has is
drawn as U+FFFD "�", never as an empty box. The fonts live in ``engine/data/fonts/`` (SIL OFL 1.1, rebuilt by
``tools/build_fonts.py``; see ``engine/data/fonts/README.md``).

:func:`split_runs` cuts a string into runs of one face each; :mod:`render.text` measures and draws run by run.
Pure apart from reading the font files once (cached, thread-safe).
"""

from __future__ import annotations

import threading
import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from fontTools.ttLib import TTFont
from PIL import ImageFont

from engine.data import DATA_DIR

FONT_DIR: Path = DATA_DIR / "fonts"
EMOJI_PPEM = 109  # Noto Color Emoji has one bitmap strike: FreeType opens it at exactly this size


@dataclass(frozen=True)
class Face:
    """One font of the chain: ``key``, regular and (optional) bold file names in :data:`FONT_DIR`, and whether
    it is a colour bitmap font (drawn at :data:`EMOJI_PPEM` and scaled)."""

    key: str
    regular: str
    bold: str | None = None
    colour: bool = False

    def file(self, bold: bool) -> Path:
        """The font file for the weight (the regular one when the face has no bold)."""
        return FONT_DIR / (self.bold if bold and self.bold else self.regular)


PRIMARY = Face("dejavu", "DejaVuSans.ttf", "DejaVuSans-Bold.ttf")
EMOJI = Face("emoji", "NotoColorEmoji-subset.ttf", colour=True)
CHAIN: tuple[Face, ...] = (
    PRIMARY,
    Face("arabic", "NotoSansArabic-Regular.ttf", "NotoSansArabic-Bold.ttf"),
    Face("hebrew", "NotoSansHebrew-Regular.ttf", "NotoSansHebrew-Bold.ttf"),
    Face("thai", "NotoSansThai-Regular.ttf", "NotoSansThai-Bold.ttf"),
    Face("devanagari", "NotoSansDevanagari-Regular.ttf", "NotoSansDevanagari-Bold.ttf"),
    Face("bengali", "NotoSansBengali-Regular.ttf"),
    Face("tamil", "NotoSansTamil-Regular.ttf"),
    Face("cjk", "NotoSansCJKjp-Regular-subset.otf"),
    Face("math", "NotoSansMath-Regular-subset.ttf"),
    Face("symbols", "NotoSansSymbols-Regular.ttf"),
    Face("symbols2", "NotoSansSymbols2-Regular.ttf"),
    EMOJI,
)
"""Fallback order: the first face whose cmap has a character draws it (emoji first for emoji, see above)."""

FACES: dict[str, Face] = {f.key: f for f in CHAIN}
REPLACEMENT = "\ufffd"
_LOCK = threading.Lock()
# Characters that never start a run of their own: they join the run before them (marks, joiners, variation
# selectors, emoji modifiers and tags) so shaping sees them with their base.
_JOINING_CATEGORIES = {"Mn", "Me", "Mc", "Cf"}
_EMOJI_MODIFIERS = range(0x1F3FB, 0x1F400)
_TAGS = range(0xE0020, 0xE0080)


@cache
def cmap(face_key: str) -> frozenset[int]:
    """The code points the face ``face_key`` maps to a glyph (its regular file's best cmap), cached."""
    face = FACES[face_key]
    with _LOCK:
        font = TTFont(face.file(False), lazy=True)
        try:
            return frozenset(font.getBestCmap() or {})
        finally:
            font.close()


def has_glyph(face_key: str, ch: str) -> bool:
    """True when the face maps the single character ``ch`` to a glyph."""
    return ord(ch) in cmap(face_key)


@lru_cache(maxsize=256)
def pil_font(face_key: str, size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The Pillow font of a face at ``size`` px (a colour face is always opened at :data:`EMOJI_PPEM`)."""
    face = FACES[face_key]
    return ImageFont.truetype(str(face.file(bold)), size=EMOJI_PPEM if face.colour else size)


def _joins(ch: str) -> bool:
    cp = ord(ch)
    return (
        unicodedata.category(ch) in _JOINING_CATEGORIES
        or cp in _EMOJI_MODIFIERS
        or cp in _TAGS
        or 0xFE00 <= cp <= 0xFE0F
    )


def _wants_emoji(text: str, i: int) -> bool:
    cp = ord(text[i])
    if cp < 0x1F000 and not (i + 1 < len(text) and text[i + 1] == "\ufe0f"):
        return False
    return cp in cmap(EMOJI.key)


def face_for(text: str, i: int) -> str | None:
    """The key of the face that draws ``text[i]`` when it starts a run, or ``None`` when no face has it."""
    if _wants_emoji(text, i):
        return EMOJI.key
    cp = ord(text[i])
    if cp in cmap(PRIMARY.key):  # the common case, and the only cmap loaded for plain Latin text
        return PRIMARY.key
    for face in CHAIN[1:]:
        if cp in cmap(face.key):
            return face.key
    return None


@lru_cache(maxsize=8192)
def split_runs(text: str) -> tuple[tuple[str, str], ...]:
    """``text`` cut into ``(face key, substring)`` runs in logical order, each drawn with one face.

    Control characters are dropped; a character no face has becomes U+FFFD (drawn by DejaVu); marks, joiners,
    variation selectors, emoji modifiers and tag characters stay in the run of the character before them, and so
    do spaces (a name in one script stays one run, so right-to-left text is shaped and ordered as a whole).
    """
    runs: list[list[str]] = []
    for i, ch in enumerate(text):
        cat = unicodedata.category(ch)
        if cat == "Cc":
            continue
        if runs and (_joins(ch) or (ch == " " and not FACES[runs[-1][0]].colour and ord(ch) in cmap(runs[-1][0]))):
            runs[-1][1] += ch
            continue
        if cat == "Cf" or _joins(ch):  # a joiner with nothing before it: drop it
            continue
        key = face_for(text, i)
        if key is None:
            key, ch = PRIMARY.key, REPLACEMENT
        if runs and runs[-1][0] == key:
            runs[-1][1] += ch
        else:
            runs.append([key, ch])
    return tuple((k, s) for k, s in runs)


def uncovered(text: str) -> list[str]:
    """The characters of ``text`` that no shipped face has (drawn as U+FFFD); ``[]`` when every one renders."""
    return [
        ch
        for i, ch in enumerate(text)
        if unicodedata.category(ch) not in ("Cc", "Cf") and not _joins(ch) and face_for(text, i) is None
    ]
