"""CONEX images: the table (:func:`render_table`, also zoomed, with ghost placements, the highlighted last
placement and a card removed by a lightning); its text twin (:mod:`render.conex_text`), hands
(:mod:`render.conex_hand`) and hint previews (:mod:`render.conex_hints`) are re-exported here.

Conventions (docs/rules/conex.md): table units are mm internally, the pictures speak **cm** (G1): origin at the
board centre, x to the right, y down, rotations clockwise. Cards are drawn in play order, later ones over
earlier ones (G6), each with its background colour, its CONEX corners (colour and value) and its number (the
id players type as ``target``). Colours are the Okabe–Ito yellow, vermillion, bluish green and reddish purple,
and carry their letter (Y, R, T, P) too wherever it fits (``R4`` = a red corner worth 4).

Phone first: every label is at least :func:`render.text.min_font_px` of the image width (capitals 9 px tall
when the image is shown 400 px wide). The header grows downwards (one line per seat, long lines wrapped) rather
than shrinking its text; corner values are drawn only where they can be that big (else the header says to
zoom).

Pure functions; the only I/O is the cached font files.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from engine.conex import Game, Place
from render.common import (
    draw_text,
    ellipsize,
    min_font_px,
    new_canvas,
    seat_names,
    text_width,
    theme_of,
    wrap_text,
)
from render.conex_ghosts import GHOST_OUTLINES, Badge, ghost_badges
from render.conex_ink import COLOUR_FILL
from render.conex_scene import draw_axes, draw_scene, paste_plot
from render.conex_text import (
    Highlight,
    highlighted,
    last_text,
    placed_corner_cm,
    star_holders,
    star_word,
    table_text,
    turn_text,
)
from render.conex_view import PLOT_LONG_PX, Pose, View, removed_rect, table_cards, table_view
from render.conex_words import EN
from render.palette import Palette
from render.words import Words, resolve

__all__ = [
    "COLOUR_FILL",
    "GHOST_OUTLINES",
    "Badge",
    "View",
    "ghost_badges",
    "placed_corner_cm",
    "render_table",
    "table_layout",
    "table_text",
    "table_view",
    "zoom_words",
]

AXIS_L, PAD = 96, 20


@dataclass(frozen=True)
class _Line:
    text: str
    size: int
    bold: bool
    muted: bool = False
    gap_before: float = 0.0


def _header(
    game: Game,
    names: Sequence[str],
    highlight: Highlight,
    removed: tuple[int, Pose] | None,
    zoom: Any,
    width: int,
    fs: int,
    corner_note: bool,
    w: Words,
) -> list[_Line]:
    """The image header, top to bottom: title, whose turn, one line per seat (never dropped: the name is
    shortened with an ellipsis so the score always shows), stars in supply, pending discards, the removed card,
    the last placement, the corner-values note. Long lines wrap."""
    max_w = width - 2 * PAD
    out: list[_Line] = []

    def add(text: str, size: int, bold: bool = False, muted: bool = False, lines: int = 2, gap: float = 0) -> None:
        for i, ln in enumerate(wrap_text(text, max_w, size, bold, max_lines=lines)):
            out.append(_Line(ln, size, bold, muted, gap if i == 0 else 0.0))

    title = w("cn.title", goal=game.goal, pile=len(game.draw_pile))
    if zoom is not None:
        title += " · " + w("cn.zoom", zoom=zoom_words(zoom, w))
    add(title, fs + 4, bold=True)
    add(turn_text(game, names, w, fs), fs + 2, bold=True)
    stars = star_holders(game)
    pending = set(game.pending_discards)
    for p in range(game.players):
        extras = [star_word(k, w) for k, v in stars.items() if v == p]
        if p in game.forfeited:
            extras.append(w("cn.seat_left"))
        if p in pending:
            extras.append(w("cn.seat_must_discard"))
        suffix = ": " + w.count("cn.points", game.scores[p]) + (" · " + " · ".join(extras) if extras else "")
        name_w = max(max_w * 0.45, max_w - text_width(suffix, fs))
        add(ellipsize(names[p], name_w, fs) + suffix, fs, gap=fs * 0.15 if p == 0 else 0.0)
    supply = [star_word(k, w) for k, v in stars.items() if v is None]
    if supply:
        add(w("cn.in_supply", stars=", ".join(supply)), fs, muted=True)
    if removed is not None:
        add(w("cn.lightning_removed", card=removed[0]), fs, gap=fs * 0.15)
    lit = highlighted(game, highlight)
    if lit is not None:
        add(last_text(lit, names, w, fs), fs, muted=True, gap=fs * 0.15)
    elif not table_cards(game):
        add(
            w("cn.no_card_placed") if game.is_over else w("cn.no_cards_yet"),
            fs,
            muted=True,
            gap=fs * 0.15,
        )
    if corner_note:  # a zoomed view sends the reader to the text twin rather than to another zoom
        add(w("cn.corner_note" if zoom is None else "cn.corner_note_text"), fs, muted=True)
    return out


def _line_h(ln: _Line) -> float:
    return ln.size * 1.32 + ln.gap_before


@dataclass(frozen=True)
class TableLayout:
    """Where :func:`render_table` puts things: the plot's :class:`View`, the plot's top-left in the image
    (``origin``, px), the image size and its minimum label size ``fs`` (px)."""

    view: View
    origin: tuple[int, int]
    width: int
    height: int
    fs: int


def table_layout(
    game: Game,
    *,
    names: Sequence[str],
    zoom: int | str | None = None,
    ghosts: Sequence[Place] = (),
    highlight: Highlight = "last",
    removed: tuple[int, Pose] | None = None,
    words: Words | None = None,
) -> TableLayout:
    """The :class:`TableLayout` of the :func:`render_table` image with the same arguments (for tests and image
    maps). Raises ``ValueError`` like :func:`render_table`."""
    return _layout(game, seat_names(names, game.players), zoom, ghosts, highlight, removed, resolve(words, EN))[0]


def _layout(
    game: Game,
    names: Sequence[str],
    zoom: Any,
    ghosts: Sequence[Place],
    highlight: Highlight,
    removed: tuple[int, Pose] | None,
    w: Words,
) -> tuple[TableLayout, list[_Line], Any, Any]:
    rrect = removed_rect(removed)
    view = table_view(game, zoom, ghosts, [rrect] if rrect is not None else [], long_px=PLOT_LONG_PX)
    width = AXIS_L + view.width + PAD
    fs = min_font_px(width)
    from render.conex_scene import scene_labels

    labels = scene_labels(game, view, fs, w)
    note = bool(table_cards(game)) and labels.skipped > 0
    lines = _header(game, names, highlight, removed, zoom, width, fs, note, w)
    header_h = 12 + sum(_line_h(ln) for ln in lines) + 8
    axis_t = fs + 18
    origin = (AXIS_L, round(header_h + axis_t))
    height = origin[1] + view.height + PAD
    return TableLayout(view, origin, width, height, fs), lines, rrect, labels


def zoom_words(zoom: int | str, w: Words) -> str:
    """What a zoomed view shows, in the reader's words: ``"card #12"``, ``"last card placed"``, ``"whole table"``
    or ``"board"`` (never the raw option value)."""
    if isinstance(zoom, int):
        return w("cn.zoom_card", card=zoom)
    if zoom in ("last", "table"):
        return w(f"cn.zoom_{zoom}")
    return w("cn.board_word") if zoom == "board" else str(zoom)


def render_table(
    game: Game,
    *,
    names: Sequence[str],
    zoom: int | str | None = None,
    ghosts: Sequence[Place] = (),
    theme: str = "dark",
    palette: Palette | None = None,
    highlight: Highlight = "last",
    removed: tuple[int, Pose] | None = None,
    words: Words | None = None,
) -> Image.Image:
    """The CONEX table as an RGB image (about 1100 px wide), by default fitted to the region in play.

    Draws the table edge (G2), a centimetre grid with labelled axes (G1: origin at the board centre, y down),
    the scoring board with its four colour squares (G3), every table card at its pose in play order (G6) with
    background colour, corners (colour and value, where readable) and number (+ colour letter where it fits), and
    a header with the goal, draw pile, whose turn it is, one line per seat (name, score, stars held; a long
    name is shortened, never a seat or a score; forfeited seats marked "left"), the stars in supply and the last
    placement.

    Args:
        game: an ``engine.conex.Game`` (public attributes only).
        names: display names by seat (any script; emoji included).
        zoom: ``None`` = the region in play (board, cards and ghosts plus 6 cm, at least about 43 x 30 cm, see
            :func:`render.conex_view.fit_bounds`); ``"table"`` = the whole table; ``"last"`` = a 40 x 30 cm window
            around the last placed card; a table card id = around that card (outlined); ``"board"`` = around the
            scoring board. Every view but ``"table"`` widens to hold all ``ghosts`` and the ``removed`` card.
        ghosts: ``Place`` actions drawn as numbered translucent ghosts (rotation ``None`` is drawn at 0 degrees).
            Legality is not checked here.
        theme: ``"dark"`` or ``"light"``.
        palette: the viewer's :class:`render.palette.Palette` (``None`` = standard): the colour-blind one
            patterns the corner triangles.
        highlight: the table card outlined in white and described on the header's "Last:" line: ``"last"``
            (default) = the last card played, a card id, or ``None`` = none (e.g. after a lightning, whose
            removal made the last placement old news).
        removed: ``(card id, pose)`` of a card a lightning took off the table (pose = ``TableCard.pose``: centre
            x, y in mm and rotation in degrees clockwise): drawn as a red dashed outline tagged "✕ #id".
        words: the viewer's :class:`render.words.Words` (keys of :data:`render.conex_words.EN`); ``None`` =
            English. A public table takes the server's language.

    Raises:
        ValueError: unknown theme, ``zoom`` that is no table card id, a ghost naming a card or corner that does
            not exist, or a removed card id that is not 1..52.
    """
    th = theme_of(theme, palette)
    w = resolve(words, EN)
    names = seat_names(names, game.players)
    lay, lines, rrect, labels = _layout(game, names, zoom, ghosts, highlight, removed, w)
    view, fs = lay.view, lay.fs
    lit = highlighted(game, highlight)
    plot = Image.new("RGB", (view.width, view.height), th.bg)
    draw_scene(
        plot,
        view,
        game,
        th,
        fs=fs,
        ghosts=ghosts,
        highlight=lit.card.id if lit is not None else None,
        focus=zoom if isinstance(zoom, int) else None,
        removed=(removed[0], rrect) if removed is not None and rrect is not None else None,
        board_word=zoom not in (None, "table"),
        words=w,
        labels=labels,
    )
    img, draw = new_canvas(lay.width, lay.height, th)
    y = 12.0
    for ln in lines:
        y += ln.gap_before
        draw_text(draw, (PAD, y), ln.text, size=ln.size, fill=th.muted if ln.muted else th.text, bold=ln.bold)
        y += ln.size * 1.32
    paste_plot(img, plot, lay.origin)
    draw_axes(img, view, lay.origin[0], lay.origin[1], th, fs)
    draw_text(draw, (6, lay.origin[1] - 8), w("cn.cm"), size=fs, fill=th.muted, anchor="ls")
    return img


def plot_image(img: Image.Image, lay: TableLayout) -> Image.Image:
    """The plot part of a :func:`render_table` image (for tests)."""
    x, y = lay.origin
    return img.crop((x, y, x + lay.view.width, y + lay.view.height))


def __getattr__(name: str) -> Any:
    """Lazy re-export of the hand image (:mod:`render.conex_hand`) and the hint previews
    (:mod:`render.conex_hints`), avoiding an import cycle."""
    if name in ("render_hand", "hand_text", "hand_slots", "hand_is_empty", "HAND_SCALE"):
        from render import conex_hand

        return getattr(conex_hand, name)
    if name in ("render_hints", "hints_text", "hint_tiles"):
        from render import conex_hints

        return getattr(conex_hints, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
