"""Pictures of a Constructo analysis: the value graph of each round and the board at its turning point.

The graph plots, for every position of a round (0 = before the first action), the value with best play from then
on as the final tower difference (S2), seen from seat 0: above the middle line seat 0 is ahead, below seat 1.
A proven stretch is a solid line, an estimated one dashed; a change of result (win, draw, loss) is a dot in the
mover's colour, and the turning point is a yellow band with its move number. Axis labels are the seats' tags and
numbers only, so the picture needs no translation (titles come from the caller, in the reader's language).

Pure: reads the analysis as stored by the bot (``RoundAnalysis.to_dict()`` plus ``"round"``), no I/O. 800 px wide,
labels at least :func:`render.text.min_font_px` (9 px capitals at 400 px).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from render.common import draw_text, ellipsize, hex_rgb, min_font_px, new_canvas, seat_names, theme_of
from render.constructo import player_tags, render_board
from render.palette import Palette

__all__ = ["match_at", "render_turning_board", "render_value_graph", "round_values"]

WIDTH = 800
MARGIN = 16
FS = min_font_px(WIDTH)
PANEL_H = 300
OUTCOME_CODES = ("win_to_draw", "draw_to_loss", "win_to_loss")


def round_values(rnd: Mapping[str, Any]) -> list[tuple[float, bool]]:
    """``(towers for seat 0, proven)`` of every position of an analysed round: ``len(moves) + 1`` points. Position
    ``i < len(moves)`` is ``moves[i]``'s value before it; the last is the value after the last action."""
    scale = float(rnd.get("scale", 100))
    moves = rnd["moves"]
    out: list[tuple[float, bool]] = []
    for m in moves:
        sign = 1 if m["player"] == 0 else -1
        out.append((sign * m["value_before"] / scale, bool(m["exact"])))
    if moves:
        last = moves[-1]
        sign = 1 if last["player"] == 0 else -1
        out.append((sign * last["value_after"] / scale, bool(last["exact"])))
    else:
        out.append((rnd.get("start_value", 0) / scale, bool(rnd.get("start_exact", True))))
    return out


def _dashed(draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], fill: str, width: int) -> None:
    (x0, y0), (x1, y1) = a, b
    length = max(1.0, ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5)
    steps = max(1, int(length // 10))
    for k in range(0, steps, 2):
        t0, t1 = k / steps, min(1.0, (k + 1) / steps)
        draw.line((x0 + (x1 - x0) * t0, y0 + (y1 - y0) * t0, x0 + (x1 - x0) * t1, y0 + (y1 - y0) * t1), fill, width)


def _panel(
    draw: ImageDraw.ImageDraw, top: float, rnd: Mapping[str, Any], title: str, tags: Sequence[str], th: Any
) -> None:
    pts = round_values(rnd)
    span = max(1, int(max(abs(v) for v, _ in pts) + 0.999))
    left, right = MARGIN + 70, WIDTH - MARGIN - 10
    y_top, y_bot = top + 10 + FS * 1.35 + FS * 0.7, top + PANEL_H - 12 - FS * 1.3 - FS * 0.7
    draw.rounded_rectangle((MARGIN - 6, top + 2, WIDTH - MARGIN + 6, top + PANEL_H - 4), radius=12, fill=th.panel)
    draw_text(
        draw,
        (MARGIN + 4, top + 10),
        ellipsize(title, WIDTH - 2 * MARGIN - 8, FS, True),
        size=FS,
        fill=th.text,
        bold=True,
    )
    mid = (y_top + y_bot) / 2

    def ypos(v: float) -> float:
        return mid - v / span * (y_bot - y_top) / 2

    n = len(pts) - 1

    def xpos(i: int) -> float:
        return left + (right - left) * (i / max(1, n))

    tp = rnd.get("turning_point")
    if tp is not None:
        xa, xb = xpos(tp), xpos(tp + 1)
        band = tuple(round(0.6 * p + 0.4 * h) for p, h in zip(hex_rgb(th.panel), hex_rgb(th.highlight), strict=True))
        draw.rectangle((xa, y_top - FS * 0.5, xb, y_bot + FS * 0.5), fill=band, outline=th.highlight, width=2)
        label = f"{tp + 1}"
        draw_text(draw, ((xa + xb) / 2, y_bot + FS * 0.7), label, size=FS, fill=th.highlight, bold=True, anchor="mt")
    draw.line((left, mid, right, mid), fill=th.grid_strong, width=2)
    for v in (span, -span):
        draw.line((left, ypos(v), right, ypos(v)), fill=th.grid, width=1)
    seat_top, seat_bot = (0, 1)
    draw_text(
        draw, (left - 8, ypos(span)), f"{tags[seat_top]} +{span}", size=FS, fill=th.seats[0], bold=True, anchor="rm"
    )
    draw_text(draw, (left - 8, mid), "0", size=FS, fill=th.muted, bold=True, anchor="rm")
    draw_text(
        draw, (left - 8, ypos(-span)), f"{tags[seat_bot]} +{span}", size=FS, fill=th.seats[1], bold=True, anchor="rm"
    )
    for i in range(n):
        a, b = (xpos(i), ypos(pts[i][0])), (xpos(i + 1), ypos(pts[i + 1][0]))
        if pts[i][1] and pts[i + 1][1]:
            draw.line((*a, *b), fill=th.text, width=4)
        else:
            _dashed(draw, a, b, th.text, 4)
    for m in rnd["moves"]:
        if m["code"] in OUTCOME_CODES:
            i = m["index"] + 1
            x, y = xpos(i), ypos(pts[i][0])
            r = 9
            draw.ellipse((x - r, y - r, x + r, y + r), fill=th.seats[m["player"]], outline=th.text, width=2)
            if m["player"] == 1:
                draw.line((x - 5, y + 5, x + 5, y - 5), fill=th.stripe, width=3)
    draw_text(draw, (left, y_bot + FS * 0.7), "1", size=FS, fill=th.muted, anchor="lt")
    draw_text(draw, (right, y_bot + FS * 0.7), f"{n}", size=FS, fill=th.muted, anchor="rt")


def render_value_graph(
    rounds: Sequence[Mapping[str, Any]],
    *,
    names: Sequence[str] = ("P1", "P2"),
    titles: Sequence[str] | None = None,
    theme: str = "dark",
    palette: Palette | None = None,
) -> Image.Image:
    """The value graph of each analysed round, one panel per round (800 px wide, ``300 x len(rounds)`` px tall).

    Args:
        rounds: stored analyses (``RoundAnalysis.to_dict()`` each; ``"moves"``, ``"scale"``, ``"turning_point"``).
        names: seat 0 and seat 1 (their tags label the axis: ``A +2`` = A ahead by two towers, S2).
        titles: one title per round, in the reader's language (default ``"Round n"``).
        theme: ``"dark"`` or ``"light"``.
        palette: the seat colours (:class:`render.palette.Palette`; ``None`` = standard).

    Raises:
        ValueError: unknown ``theme``, or ``titles`` of another length than ``rounds``.
    """
    th = theme_of(theme, palette)
    if titles is not None and len(titles) != len(rounds):
        raise ValueError("one title per round")
    tags = player_tags(seat_names(names, 2))
    img, draw = new_canvas(WIDTH, max(1, len(rounds)) * PANEL_H + MARGIN, th)
    for k, rnd in enumerate(rounds):
        title = titles[k] if titles is not None else f"Round {rnd.get('round', k + 1)}"
        _panel(draw, MARGIN / 2 + k * PANEL_H, rnd, title, tags, th)
    return img


def match_at(match: Any, round_index: int, actions: int) -> Any:
    """A copy of ``match`` (an ``engine.constructo.Match``) as it stood after ``actions`` actions of round
    ``round_index`` (0-based), the earlier rounds complete. Raises ``IndexError`` for a round it does not have."""
    from engine.constructo import Match, Round

    rounds = list(match.rounds)
    src = rounds[round_index]
    rnd = Round(src.layout, src.first)
    for mv in list(src.history)[:actions]:
        rnd.play(mv)
    return Match(match.first, [r.copy() for r in rounds[:round_index]] + [rnd])


def render_turning_board(
    match: Any,
    round_index: int,
    turning_point: int,
    *,
    names: Sequence[str] = ("P1", "P2"),
    theme: str = "dark",
    palette: Palette | None = None,
) -> Image.Image:
    """The board right after the turning-point action (0-based ``turning_point``) of round ``round_index``, that
    action highlighted (:func:`render.constructo.render_board`)."""
    return render_board(match_at(match, round_index, turning_point + 1), names=names, theme=theme, palette=palette)
