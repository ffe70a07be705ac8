"""Rebuild the fallback fonts shipped in ``engine/data/fonts/`` from Debian's Noto packages (reproducible).

The images' text uses DejaVu Sans first, then a fallback chain of Noto fonts (SIL OFL 1.1) so that every
player name renders: see ``render/fonts.py`` (``CHAIN``) and ``engine/data/fonts/README.md``. Large fonts are
subset with fontTools so the repository and the Docker image stay small:

- Noto Sans CJK JP Regular: kana, Bopomofo, Hangul (all 11,172 syllables and the jamo), CJK symbols and
  punctuation, enclosed CJK, fullwidth and halfwidth forms, and the CJK ideographs of GB 2312, Big5 level 1,
  JIS X 0208 and KS X 1001 (the common-use sets of Chinese, Japanese and Korean; about 11,000 ideographs).
  Only the glyphs reached from ``cmap`` are kept (no layout features: names are set horizontally).
- Noto Color Emoji: the single-code-point emoji (no ZWJ, flag or skin-tone sequences: a sequence is drawn
  as its parts); its bitmaps (109 ppem PNGs) are kept as they are.
- Noto Sans Math: the Mathematical Alphanumeric Symbols and Letterlike Symbols blocks (the styled letters
  many display names use, such as "𝓐𝓵𝓲𝓬𝓮").
- The others are copied whole (Arabic incl. U+FDFD, Hebrew, Thai, Devanagari, Bengali, Tamil, Symbols,
  Symbols2).

Input: the font files of the Debian packages ``fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji``
(Debian 12 versions 20201225-1, 1:20220127+repack1-1, 2.042-0+deb12u1), either installed
(``apt-get install``; default ``--src /usr/share/fonts``) or unpacked with
``apt-get download fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji && dpkg-deb -x <deb> <dir>``
(then ``--src <dir>/usr/share/fonts``).

Run: ``.venv/bin/python tools/build_fonts.py [--src DIR]`` (about 2 minutes: the CJK subset). Writes the fonts
and ``engine/data/fonts/MANIFEST.txt`` (file, bytes, SHA-256 of input and output).
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import sys
from collections.abc import Iterable
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "engine" / "data" / "fonts"

COPIED = [
    "NotoSansArabic-Regular.ttf",
    "NotoSansArabic-Bold.ttf",
    "NotoSansHebrew-Regular.ttf",
    "NotoSansHebrew-Bold.ttf",
    "NotoSansThai-Regular.ttf",
    "NotoSansThai-Bold.ttf",
    "NotoSansDevanagari-Regular.ttf",
    "NotoSansDevanagari-Bold.ttf",
    "NotoSansBengali-Regular.ttf",
    "NotoSansTamil-Regular.ttf",
    "NotoSansSymbols-Regular.ttf",
    "NotoSansSymbols2-Regular.ttf",
]
CJK_OUT = "NotoSansCJKjp-Regular-subset.otf"
EMOJI_OUT = "NotoColorEmoji-subset.ttf"
MATH_OUT = "NotoSansMath-Regular-subset.ttf"


def _find(src: Path, name: str) -> Path:
    hits = sorted(src.rglob(name))
    if not hits:
        sys.exit(
            f"{name} not found under {src}: install or unpack fonts-noto-core, fonts-noto-cjk, "
            "fonts-noto-color-emoji (see this script's docstring)"
        )
    return hits[0]


def _legacy_set(codec: str, lo: int, hi: int, accept: Iterable[tuple[int, int]] | None = None) -> set[int]:
    """Code points in [lo, hi) that ``codec`` encodes (as a 2-byte code inside ``accept`` ranges, when given)."""
    out = set()
    ranges = list(accept) if accept is not None else None
    for cp in range(lo, hi):
        try:
            b = chr(cp).encode(codec)
        except UnicodeEncodeError:
            continue
        if ranges is not None:
            code = int.from_bytes(b, "big")
            if len(b) != 2 or not any(a <= code <= z for a, z in ranges):
                continue
        out.add(cp)
    return out


def cjk_codepoints() -> set[int]:
    """The CJK subset's code points (see the module docstring)."""
    han = (
        _legacy_set("gb2312", 0x4E00, 0xA000)
        | _legacy_set("shift_jis", 0x4E00, 0xA000)
        | _legacy_set("euc_kr", 0x4E00, 0xA000)
        | _legacy_set("big5", 0x4E00, 0xA000, [(0xA440, 0xC67E)])
    )
    blocks = [
        (0x1100, 0x11FF),
        (0x3000, 0x30FF),
        (0x3100, 0x312F),
        (0x3130, 0x318F),
        (0x31A0, 0x31FF),
        (0x3200, 0x33FF),
        (0xAC00, 0xD7A3),
        (0xFF00, 0xFFEF),
    ]
    cps = set(han)
    for a, z in blocks:
        cps.update(range(a, z + 1))
    return cps


def _subset(font: TTFont, unicodes: set[int], notdef: bool = True) -> None:
    opts = subset.Options()
    opts.layout_features = []
    opts.notdef_outline = notdef
    opts.hinting = False
    opts.name_IDs = ["*"]
    opts.name_languages = ["*"]
    s = subset.Subsetter(opts)
    s.populate(unicodes=unicodes)
    s.subset(font)


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--src", type=Path, default=Path("/usr/share/fonts"), help="where the Debian font files are")
    args = ap.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    manifest: list[str] = []

    def note(out_name: str, src_path: Path) -> None:
        out = OUT / out_name
        manifest.append(
            f"{out_name}\t{out.stat().st_size}\tfrom {src_path.name} sha256 {_sha(src_path)[:16]}"
            f"\tout sha256 {_sha(out)[:16]}"
        )
        print(manifest[-1])

    for name in COPIED:
        p = _find(args.src, name)
        shutil.copyfile(p, OUT / name)
        note(name, p)

    p = _find(args.src, "NotoSansMath-Regular.ttf")
    f = TTFont(p)
    _subset(f, set(range(0x1D400, 0x1D800)) | set(range(0x2100, 0x2150)))
    f.save(OUT / MATH_OUT)
    note(MATH_OUT, p)

    p = _find(args.src, "NotoColorEmoji.ttf")
    f = TTFont(p)
    _subset(f, set(f.getBestCmap()), notdef=False)
    f.save(OUT / EMOJI_OUT)
    note(EMOJI_OUT, p)

    p = _find(args.src, "NotoSansCJK-Regular.ttc")
    f = TTFont(p, fontNumber=0)  # face 0 of the collection: Noto Sans CJK JP
    _subset(f, cjk_codepoints())
    f.save(OUT / CJK_OUT)
    note(CJK_OUT, p)

    (OUT / "MANIFEST.txt").write_text(
        "# written by tools/build_fonts.py: file, bytes, input and output SHA-256 (first 16 hex digits)\n"
        + "\n".join(manifest)
        + "\n",
        encoding="utf-8",
    )


if __name__ == "__main__":
    main()
