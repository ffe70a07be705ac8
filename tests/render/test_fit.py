"""``render.fit.smaller_png``: a picture made to fit an upload limit Discord enforced (413, code 40005)."""

from __future__ import annotations

import io

from PIL import Image

from engine.constructo import Match
from render import to_png
from render.constructo import render_board
from render.fit import MIN_WIDTH_PX, smaller_png


def board_png() -> bytes:
    match = Match.new("rombo")
    match.play(match.parse_action("L5", 0))
    return to_png(render_board(match, names=["Alice", "Bob"]))


def size_of(png: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(png)) as img:
        img.load()
        assert img.format == "PNG"
        return img.size


def test_a_board_fits_a_lower_limit_and_keeps_its_aspect() -> None:
    png = board_png()
    width, height = size_of(png)
    for share in (0.9, 0.6, 0.45):
        limit = int(len(png) * share)
        small = smaller_png(png, limit)
        assert small is not None and len(small) <= limit, share
        w, h = size_of(small)
        assert MIN_WIDTH_PX <= w <= width and abs(w / h - width / height) < 0.01


def test_never_narrower_than_a_phone_shows_and_no_picture_is_none() -> None:
    png = board_png()
    assert smaller_png(png, 2_000) is None, "a board cannot be legible in 2 KB: the text twin is sent instead"
    assert smaller_png(b"not a picture", 10**6) is None
    narrow = Image.new("RGB", (300, 200), "white")
    buf = io.BytesIO()
    narrow.save(buf, "PNG")
    assert smaller_png(buf.getvalue(), 10**6) is not None, "a picture already narrower is only re-encoded"
