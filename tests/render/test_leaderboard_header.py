"""The leaderboard's column headers are shown whole at any locale's labels and any count width (never "3r…"),
and every count stays inside the picture. Labels are read from the renderer's own record (render.text)."""

from __future__ import annotations

import pytest

from render.results import render_leaderboard
from render.text import record_labels

ROWS = [(i + 1, "Maximiliano Alejandro Gutiérrez1", 15000 - 7 * i, 1000 + i, 999, 30) for i in range(10)]


@pytest.mark.parametrize("columns", [("W", "L", "D"), ("V", "D", "E"), ("1st", "2nd", "3rd+"), ("1.º", "2.º", "3.º+")])
def test_every_column_header_is_drawn_whole(columns: tuple[str, str, str]) -> None:
    with record_labels() as log:
        img = render_leaderboard(ROWS, title="CONEX leaderboard — a server", columns=columns)
    texts = [lb.text for lb in log if lb.image is img]
    for header in ("#", "player", "rating", *columns):
        assert header in texts, f"{header!r} cut or missing: {texts[:12]}"
    assert not any(t.endswith("…") for t in texts if t in columns or t[:-1] in "".join(columns))
    boxes = {lb.text: lb.box for lb in log if lb.image is img}
    xs = sorted(boxes[h][0] for h in columns)
    assert boxes["rating"][2] < xs[0]  # headers side by side, not over each other
    assert all(0 <= lb.box[0] and lb.box[2] <= img.width for lb in log if lb.image is img)


def test_spanish_headings_are_drawn_whole_beside_spanish_counts() -> None:
    with record_labels() as log:
        img = render_leaderboard(
            ROWS, title="Clasificación", columns=("1.º", "2.º", "3.º+"), headings=("jugador", "puntuación")
        )
    texts = [lb.text for lb in log if lb.image is img]
    assert {"jugador", "puntuación", "1.º", "2.º", "3.º+"} <= set(texts) and "player" not in texts
