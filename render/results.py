"""Result cards (end of a Constructo match, end of a CONEX game) and the leaderboard image, with text twins.

Images are RGB, 800 px wide (a phone shows them 400 px wide: every label is at least
:func:`render.text.min_font_px`, 25 px), dark panel by default (``theme="light"`` available). Long names are
shortened with an ellipsis; no player, score or rating is ever dropped. Pure: no I/O but fonts.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine.conex import Game
from engine.constructo import Match
from render.common import (
    OKABE_ITO,
    Theme,
    draw_fit,
    draw_text,
    ellipsize,
    min_font_px,
    new_canvas,
    seat_names,
    text_width,
    theme_of,
    wrap_text,
)
from render.conex_words import EN as CONEX_EN
from render.constructo import player_tags
from render.constructo_draw import draw_player_swatch
from render.constructo_words import EN as CONSTRUCTO_EN
from render.palette import Palette
from render.record_words import EN as RECORD_EN
from render.words import Words, resolve

WIDTH = 800
MARGIN = 24
FS = min_font_px(WIDTH)
ROW_H = round(FS * 1.8)

LeaderRow = tuple[int, str, float | str, int, int, int]
KO_WORDS = {**CONSTRUCTO_EN, **RECORD_EN}
CN_WORDS = {**CONEX_EN, **RECORD_EN}


def _table(
    draw: ImageDraw.ImageDraw,
    y: float,
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    xs: Sequence[float],
    aligns: Sequence[str],
    th: Theme,
    bold_rows: Sequence[int] = (),
    widths: Sequence[float] | None = None,
) -> float:
    """Draw a simple table (header + rows, zebra striped) starting at ``y``; returns the y below it. Column ``i``
    is anchored at ``xs[i]`` (left or right per ``aligns[i]``) and its cells are shortened with an ellipsis to
    ``widths[i]`` px (default: up to the next column)."""
    if widths is None:
        widths = [
            (xs[i + 1] - xs[i] - 16 if i + 1 < len(xs) else WIDTH - MARGIN - xs[i]) if a == "l" else 140.0
            for i, a in enumerate(aligns)
        ]
    for h, x, a, w in zip(headers, xs, aligns, widths, strict=True):
        if h:
            draw_text(
                draw, (x, y + ROW_H / 2), ellipsize(h, w, FS, True), size=FS, fill=th.muted, bold=True, anchor=a + "m"
            )
    y += ROW_H
    for i, row in enumerate(rows):
        if i % 2 == 0:
            draw.rectangle((MARGIN - 10, y, WIDTH - MARGIN + 10, y + ROW_H), fill=th.panel)
        for cell, x, a, w in zip(row, xs, aligns, widths, strict=True):
            draw_fit(
                draw,
                (x, y + ROW_H / 2),
                cell,
                max_w=w,
                size=FS + 2,
                fill=th.text,
                bold=i in bold_rows,
                anchor=a + "m",
                minimum=FS,
            )
        y += ROW_H
    return y


# ----------------------------------------------------------------------------------------------
# Constructo
# ----------------------------------------------------------------------------------------------
def _constructo_headline(match: Match, names: Sequence[str], w: Words) -> str:
    totals = match.totals()
    if match.resigned is not None:
        return w("rs.ko_resigned", loser=names[match.resigned], winner=names[1 - match.resigned])
    outcome = match.outcome
    if outcome is not None and outcome.reason == "agreed":
        return w("rs.ko_agreed", a=totals[0], b=totals[1])
    if match.timed_out is not None:
        return w("rs.ko_timed_out", loser=names[match.timed_out], winner=names[1 - match.timed_out])
    if not match.is_over:
        return w("rs.ko_in_progress", a=totals[0], b=totals[1])
    if match.winner is None:
        return w("rs.ko_draw", a=totals[0], b=totals[1])
    win = match.winner
    return w("rs.ko_won", winner=names[win], a=totals[win], b=totals[1 - win])


def _played(match: Match, i: int) -> bool:
    """False for round ``i`` (0-based) of a finished match that ended before the round's first move (an agreed
    draw or a resignation first): it reads as not played, never as a 0–0 round."""
    return bool(match.rounds[i].codes) or not match.is_over


def render_constructo_result(
    match: Match,
    *,
    names: Sequence[str] = ("P1", "P2"),
    theme: str = "dark",
    palette: Palette | None = None,
    words: Words | None = None,
) -> Image.Image:
    """End-of-match card for Constructo: the winner (or draw, or resignation, M2/M3), per-round tower scores
    with each round's layout, and match totals. ``words``: the reader's language (``None`` = English; the card is
    public: the server's). 800 px wide RGB image. Raises ``ValueError`` for a bad theme.
    """
    th = theme_of(theme, palette)
    w = resolve(words, KO_WORDS)
    names = seat_names(names, 2)
    tags = player_tags(names)
    scores = list(match.round_scores())
    headline = wrap_text(_constructo_headline(match, names, w), WIDTH - 2 * MARGIN, FS + 12, True, max_lines=2)
    key_top = 20 + FS * 1.5 + len(headline) * (FS + 12) * 1.3 + 14
    table_top = key_top + 2 * FS * 1.6 + 8
    height = int(table_top + ROW_H * (len(scores) + 2) + MARGIN)
    img, draw = new_canvas(WIDTH, height, th)
    draw_text(draw, (MARGIN, 20), w("rs.ko_title"), size=FS + 2, fill=th.muted, bold=True)
    y = 20 + FS * 1.5
    for ln in headline:
        draw_text(draw, (MARGIN, y), ln, size=FS + 12, fill=th.highlight, bold=True)
        y += (FS + 12) * 1.3
    # player key, one line per seat: colour/pattern swatch with the tag + name (pattern)
    y = key_top
    for p in (0, 1):
        mid = y + FS * 0.8
        draw_player_swatch(draw, (MARGIN + FS * 0.8, mid), FS * 1.45, p, tags[p], FS, th)
        draw_fit(
            draw,
            (MARGIN + FS * 2.2, mid),
            w("rs.ko_key", name=names[p], pattern=w(f"ko.pattern_{p}")),
            max_w=WIDTH - 2 * MARGIN - 70,
            size=FS + 1,
            fill=th.text,
            anchor="lm",
            minimum=FS,
        )
        y += FS * 1.6
    rows = []
    for i, (a, b) in enumerate(scores):
        lay = match.rounds[i].layout
        cells = [str(a), str(b)] if _played(match, i) else ["—", "—"]
        rows.append([w("rs.ko_round", n=i + 1), lay.name or w("rs.ko_custom"), *cells])
    t = match.totals()
    rows.append([w("rs.ko_total"), "", str(t[0]), str(t[1])])
    xs = [MARGIN, 190, 580, WIDTH - MARGIN]
    _table(
        draw,
        table_top,
        ["", w("rs.ko_layout"), f"{tags[0]} {names[0]}", f"{tags[1]} {names[1]}"],
        rows,
        xs,
        ["l", "l", "r", "r"],
        th,
        bold_rows=[len(rows) - 1],
        widths=[150, 200, 180, 180],
    )
    draw.rectangle((0, 0, 10, height), fill=th.seats[match.winner] if match.winner is not None else th.muted)
    return img


def constructo_result_text(match: Match, *, names: Sequence[str] = ("P1", "P2"), words: Words | None = None) -> str:
    """Text twin of :func:`render_constructo_result`: headline, one line per round (layout, scores), totals, in
    ``words``' language (``None`` = English)."""
    w = resolve(words, KO_WORDS)
    names = seat_names(names, 2)
    lines = [w("rs.ko_t_head", headline=_constructo_headline(match, names, w))]
    for i, (a, b) in enumerate(match.round_scores()):
        lay = match.rounds[i].layout.name or w("rs.ko_custom")
        if not _played(match, i):
            lines.append(w("rs.ko_t_unplayed", n=i + 1, layout=lay))
            continue
        lines.append(w("rs.ko_t_round", n=i + 1, layout=lay, a=names[0], x=a, y=b, b=names[1]))
    t = match.totals()
    lines.append(w("rs.ko_t_total", a=names[0], x=t[0], y=t[1], b=names[1]))
    return "\n".join(lines)


# ----------------------------------------------------------------------------------------------
# CONEX
# ----------------------------------------------------------------------------------------------
def conex_ranking(game: Game) -> list[tuple[int, int, int]]:
    """``(place, seat, score)`` best first, from the engine's E3 standings (the outcome's ranking once over):
    tied seats share a place (scores [5, 9, 5] -> [(1, 1, 9), (2, 0, 5), (2, 2, 5)]); forfeited seats last."""
    out: list[tuple[int, int, int]] = []
    place = 1
    for group in game.standings():
        out += [(place, seat, game.scores[seat]) for seat in group]
        place += len(group)
    return out


def conex_winners(game: Game) -> list[int]:
    """The engine's winners of a finished game (E3: every tied leader still in play); ``[]`` while it runs."""
    return list(game.winners)


def _conex_headline(game: Game, names: Sequence[str], words: Words | None = None) -> str:
    w = resolve(words, CN_WORDS)
    winners = conex_winners(game)
    if not winners:
        return w("cn.r_over") if game.is_over else w("cn.r_in_progress")
    if len(winners) == 1:
        return w("cn.r_wins", name=names[winners[0]])
    return w("cn.r_shared", names=", ".join(names[k] for k in winners))


def render_conex_result(
    game: Game, *, names: Sequence[str], theme: str = "dark", words: Words | None = None, palette: Palette | None = None
) -> Image.Image:
    """End-of-game card for CONEX: the engine's ranking (ties share a place, E3), winners marked, the goal.
    Forfeited seats (they left the running game) rank last, marked "(left)", and never win.

    ``names`` are by seat; ``words`` the reader's language (``None`` = English; the card is public: the server's).
    800 px wide RGB image. Raises ``ValueError`` for a bad theme.
    """
    th = theme_of(theme, palette)
    w = resolve(words, CN_WORDS)
    names = seat_names(names, game.players)
    forfeited = game.forfeited
    ranking = conex_ranking(game)
    headline = wrap_text(_conex_headline(game, names, w), WIDTH - 2 * MARGIN, FS + 12, True, max_lines=2)
    table_top = 20 + FS * 1.5 + len(headline) * (FS + 12) * 1.3 + 10
    height = int(table_top + ROW_H * (len(ranking) + 1) + MARGIN)
    img, draw = new_canvas(WIDTH, height, th)
    draw_text(draw, (MARGIN, 20), w("cn.r_title", goal=game.goal), size=FS + 2, fill=th.muted, bold=True)
    y = 20 + FS * 1.5
    for ln in headline:
        draw_text(draw, (MARGIN, y), ln, size=FS + 12, fill=th.highlight, bold=True)
        y += (FS + 12) * 1.3
    winners = set(conex_winners(game))
    rows = [
        [
            f"{place}.",
            ("★ " if seat in winners else "") + names[seat] + (f" ({w('cn.seat_left')})" if seat in forfeited else ""),
            str(score),
        ]
        for place, seat, score in ranking
    ]
    headers = [w("cn.r_place"), w("cn.r_player"), w("cn.r_points")]
    place_w = max(90.0, text_width(headers[0], FS, True) + 4)  # the place header whole ("place", "puesto")
    name_x = MARGIN + place_w + 6
    _table(
        draw,
        table_top,
        headers,
        rows,
        [MARGIN, name_x, WIDTH - MARGIN],
        ["l", "l", "r"],
        th,
        bold_rows=[i for i, (_, seat, _) in enumerate(ranking) if seat in winners],
        widths=[place_w, WIDTH - MARGIN - 120 - 16 - name_x, 120],
    )
    draw.rectangle((0, 0, 10, height), fill=OKABE_ITO["yellow"])
    return img


def conex_result_text(game: Game, *, names: Sequence[str], words: Words | None = None) -> str:
    """Text twin of :func:`render_conex_result`: headline then ``"1. name — 42 points"`` per seat, in ``words``'
    language (``None`` = English)."""
    w = resolve(words, CN_WORDS)
    names = seat_names(names, game.players)
    winners = set(conex_winners(game))
    lines = [w("rs.cn_t_head", headline=_conex_headline(game, names, w))]
    for place, seat, score in conex_ranking(game):
        lines.append(
            w.count("rs.cn_t_row", score, place=place, name=names[seat])
            + (f" ({w('rs.cn_t_winner')})" if seat in winners else "")
            + (f" ({w('cn.seat_left')})" if seat in game.forfeited else "")
        )
    return "\n".join(lines)


# ----------------------------------------------------------------------------------------------
# leaderboard
# ----------------------------------------------------------------------------------------------
def _rating(value: float | str) -> str:
    """A rating as shown: an int or a text as is (``1234``, ``1234?`` for a provisional one), a float with one
    decimal (``27.3``)."""
    return str(value) if isinstance(value, int | str) else f"{value:.1f}"


def render_leaderboard(
    rows: Sequence[LeaderRow],
    *,
    title: str | None = None,
    theme: str = "dark",
    palette: Palette | None = None,
    empty_note: str | None = None,
    columns: Sequence[str] | None = None,
    headings: Sequence[str] | None = None,
    words: Words | None = None,
) -> Image.Image:
    """A leaderboard image: one line per row ``(rank, name, rating, wins, losses, draws)`` in the given order.

    ``rating`` is shown as given: an int (the display scale, e.g. ``1234``) as is, a float with one decimal; the
    rating column fits five characters at full size. Names are shortened with an ellipsis, never a number.
    ``columns`` names the three counts (default W, L, D; a game ranking 3-4 players may count places, e.g.
    ``("1st", "2nd", "3rd+")``); ``headings`` names the player and rating columns. ``title``, ``empty_note``,
    ``columns`` and ``headings`` default to ``words`` (the reader's language; ``None`` = English).
    Every header is shown whole: columns are as wide as their header or widest cell. Empty ``rows`` draws only the
    title and ``empty_note`` (an 800 x ~130 px banner; the bot may send text instead). 800 px wide RGB. Raises
    ``ValueError`` for a bad theme.
    """
    th = theme_of(theme, palette)
    w = resolve(words, RECORD_EN)
    title = w("lb.title") if title is None else title
    columns = _columns(w) if columns is None else columns
    headings = (w("lb.player"), w("lb.rating")) if headings is None else headings
    title_lines = wrap_text(title, WIDTH - 2 * MARGIN, FS + 8, True, max_lines=2)
    top = 18 + len(title_lines) * (FS + 8) * 1.3 + 6
    height = int(top + ROW_H * (len(rows) + 1) + MARGIN) if rows else int(top + FS * 1.6 + MARGIN)
    img, draw = new_canvas(WIDTH, height, th)
    y = 18.0
    for ln in title_lines:
        draw_text(draw, (MARGIN, y), ln, size=FS + 8, fill=th.text, bold=True)
        y += (FS + 8) * 1.3
    if not rows:
        note = w("lb.empty") if empty_note is None else empty_note
        draw_text(draw, (MARGIN, top), note, size=FS, fill=th.muted)
        return img
    table_rows = [[f"{r[0]}", r[1], _rating(r[2]), str(r[3]), str(r[4]), str(r[5])] for r in rows]
    headers = ["#", *headings, *columns]
    # Right-hand columns as wide as their header or widest cell (bold, at full size), laid out from the right
    # edge; the name takes what is left, so a long count header ("3rd+", "3.º+") is never cut.
    need = [
        max(48.0, text_width(headers[c], FS, True), *(text_width(row[c], FS + 2, True) for row in table_rows)) + 4
        for c in range(2, 6)
    ]
    need[0] = max(need[0], 110.0)
    right = float(WIDTH - MARGIN)
    xs_right: list[float] = []
    for need_w in reversed(need):
        xs_right.insert(0, right)
        right -= need_w + 12
    xs = [MARGIN + 44, 84, *xs_right]
    _table(
        draw,
        top,
        headers,
        table_rows,
        xs,
        ["r", "l", "r", "r", "r", "r"],
        th,
        bold_rows=[i for i, r in enumerate(rows) if r[0] == 1],
        widths=[60, xs_right[0] - need[0] - 16 - 84, *need],
    )
    return img


def _columns(w: Words) -> tuple[str, str, str]:
    return w("lb.col_w"), w("lb.col_l"), w("lb.col_d")


def leaderboard_text(
    rows: Sequence[LeaderRow],
    *,
    title: str | None = None,
    columns: Sequence[str] | None = None,
    words: Words | None = None,
) -> str:
    """Text twin of :func:`render_leaderboard`: ``"1. name — rating 1027 (W 5 / L 2 / D 0)"`` per row, in
    ``words``' language (``None`` = English; ``title`` and ``columns`` default to it)."""
    w = resolve(words, RECORD_EN)
    title = w("lb.title") if title is None else title
    if not rows:
        return w("lb.t_empty", title=title)
    lines = [title]
    a, b, c = _columns(w) if columns is None else columns
    for rank, name, rating, wins, losses, d in rows:
        lines.append(w("lb.t_row", rank=rank, name=name, rating=_rating(rating), a=a, w=wins, b=b, l=losses, c=c, d=d))
    return "\n".join(lines)
