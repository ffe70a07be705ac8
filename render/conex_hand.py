"""CONEX hand image (:func:`render_hand`, sent ephemerally) and its text twin (:func:`hand_text`).

Cards upright and large, three per row (a phone shows the image 400 px wide: the hand grows downwards rather
than shrinking), each with its hand letter, its number and colour letter, its corners as tags ``1:Y4``
(corner number, colour letter, value) **inside** the card, in its corner over the triangle they describe (a tag
outside a card sat beside its neighbour's and read as one: "1:R3 1:Y3"), the action symbol (+2 or a die), and,
when given, its count of legal placements. Every label is at least :func:`render.text.min_font_px` of the
width, in the viewer's language (``words``). An empty hand is a small banner (:func:`hand_is_empty` lets the bot
send text instead). Also re-exported by :mod:`render.conex`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from engine.conex.deck import CARD_H_MM, CARD_W_MM
from engine.conex.geometry import posed_card
from engine.conex.handref import LEGAL_CAP, hand_letter
from render.common import Theme, draw_fit, draw_text, ink_on, min_font_px, new_canvas, text_width, theme_of
from render.conex_ink import COLOUR_FILL, draw_card_shapes, halo_for
from render.conex_view import View
from render.conex_words import EN
from render.palette import Palette
from render.words import Words, resolve

WIDTH = 800
PAD = 20
HAND_COLS = 3
HAND_SCALE = 3.3  # px per mm for upright hand cards (a card is 198 x 297 px)
FS = min_font_px(WIDTH)
PILL_H = round(FS * 1.4)
PILL_INSET = 5
HAND_TOP = round(FS * 1.4 + 10 + FS * 1.3 + 14)
CELL_W = (WIDTH - 2 * PAD) / HAND_COLS
ROW_H = 8 + CARD_H_MM * HAND_SCALE + 6 + FS * 1.4 + 18
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"  # kept for callers; hands use engine.conex.handref.hand_letter


def hand_is_empty(game: Any, player: int) -> bool:
    """True when seat ``player`` holds no card (the bot then says so in text rather than sending an image)."""
    return not list(game.hand(player))


def _draw_die(draw: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    draw.rounded_rectangle(
        (x - s / 2, y - s / 2, x + s / 2, y + s / 2), radius=s * 0.18, fill="#FFFFFF", outline="#000000", width=3
    )
    for dx, dy in ((-0.25, -0.25), (0.25, 0.25), (0.0, 0.0)):
        r = s * 0.08
        draw.ellipse((x + dx * s - r, y + dy * s - r, x + dx * s + r, y + dy * s + r), fill="#000000")


def legal_text(count: int, words: Words | None = None, cap: int = LEGAL_CAP) -> str:
    """``"9+ legal"`` at or above ``cap`` (the finder stopped counting), ``"3 legal"``, ``"no legal spot"``, in
    the language of ``words`` (plural forms by count)."""
    w = resolve(words, EN)
    if count <= 0:
        return w("cn.legal_none")
    return w("cn.legal_capped", n=cap) if count >= cap else w.count("cn.legal", count)


def corner_tag_box(x0: float, y_card: float, corner: Any) -> tuple[float, float, float, float]:
    """The box (px) of a corner's tag on a hand card whose top-left is ``(x0, y_card)``: inside the card, in the
    corner's own card corner (inset :data:`PILL_INSET` px), so it can only belong to that card."""
    label = f"{corner.index}:{corner.color}{corner.value}"
    w = text_width(label, FS, True) + 14
    cw, ch = CARD_W_MM * HAND_SCALE, CARD_H_MM * HAND_SCALE
    left = corner.position in ("tl", "bl")
    top = corner.position in ("tl", "tr")
    bx0 = x0 + PILL_INSET if left else x0 + cw - PILL_INSET - w
    by0 = y_card + PILL_INSET if top else y_card + ch - PILL_INSET - PILL_H
    return bx0, by0, bx0 + w, by0 + PILL_H


def _corner_pill(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], corner: Any) -> None:
    """A white tag ``1:Y4`` (corner number, colour letter, value) with a border of the corner's colour."""
    label = f"{corner.index}:{corner.color}{corner.value}"
    x0, y0, x1, y1 = box
    draw.rounded_rectangle((x0 - 2, y0 - 2, x1 + 2, y1 + 2), radius=10, fill="#000000")
    draw.rounded_rectangle(box, radius=9, fill="#FFFFFF", outline=COLOUR_FILL[corner.color], width=4)
    draw_text(draw, ((x0 + x1) / 2, (y0 + y1) / 2), label, size=FS, fill="#000000", bold=True, anchor="mm")


def hand_slots(n: int) -> list[tuple[float, float]]:
    """Top-left pixel of each of ``n`` upright cards in :func:`render_hand` (:data:`HAND_COLS` per row); a card
    is ``CARD_W_MM * HAND_SCALE`` x ``CARD_H_MM * HAND_SCALE`` px."""
    cw = CARD_W_MM * HAND_SCALE
    out = []
    for i in range(n):
        r, c = divmod(i, HAND_COLS)
        out.append((PAD + c * CELL_W + (CELL_W - cw) / 2, HAND_TOP + 8 + r * ROW_H))
    return out


def _draw_hand_card(
    draw: ImageDraw.ImageDraw,
    x0: float,
    y_card: float,
    card: Any,
    letter: str,
    legal: int | None,
    th: Theme,
    words: Words,
) -> None:
    """One upright card with its top-left at (x0, y_card); corner tags inside its corners, legal count under."""
    view = View(-(x0 / HAND_SCALE) - CARD_W_MM / 2, -(y_card / HAND_SCALE) - CARD_H_MM / 2, HAND_SCALE, 0, 0)
    posed = posed_card(card, 0.0, 0.0, 0.0)
    draw_card_shapes(draw, view, card, posed.rect, posed.corners, width=3, patterns=th.card_patterns)
    w, h = CARD_W_MM * HAND_SCALE, CARD_H_MM * HAND_SCALE
    cx, cy = x0 + w / 2, y_card + h / 2
    ink = ink_on(COLOUR_FILL[card.color])
    halo = halo_for(ink)
    for corner in card.corners:
        _corner_pill(draw, corner_tag_box(x0, y_card, corner), corner)
    draw_text(
        draw,
        (cx, cy - h * 0.14),
        letter,
        size=round(FS * 2.3),
        fill=ink,
        bold=True,
        anchor="mm",
        stroke=halo,
        stroke_width=2,
    )
    draw_text(
        draw,
        (cx, cy + h * 0.06),
        f"#{card.id} {card.color}",
        size=FS + 3,
        fill=ink,
        bold=True,
        anchor="mm",
        stroke=halo,
        stroke_width=1,
    )
    if card.action == "plus2":
        draw_text(
            draw, (cx, cy + h * 0.24), "+2", size=FS + 6, fill=ink, bold=True, anchor="mm", stroke=halo, stroke_width=2
        )
    elif card.action == "die":
        _draw_die(draw, cx, cy + h * 0.25, FS * 1.4)
    if legal is not None:
        draw_text(
            draw,
            (cx, y_card + h + 8),
            legal_text(legal, words),
            size=FS,
            fill=th.text if legal else th.muted,
            anchor="ma",
        )


def render_hand(
    game: Any,
    player: int,
    *,
    legal_counts: Mapping[int, int] | None = None,
    theme: str = "dark",
    palette: Palette | None = None,
    letters: Mapping[int, str] | None = None,
    words: Words | None = None,
) -> Image.Image:
    """A player's hand (sent ephemerally): cards upright, each with its hand letter, its number, corners
    numbered 1–3 with colour letter and value, the action symbol (+2 or a die), the stars this player holds and,
    when ``legal_counts`` (card id -> count) is given, each card's number of legal placements.

    ``letters`` (card id -> reference) overrides the hand letters (default: A, B, C... in hand order, see
    ``engine.conex.handref.hand_letter``). ``words``: the viewer's language (``None`` = English). 800 px wide, 3
    cards per row; an empty hand is an 800 x ~200 px "no cards" banner. ``palette``: the viewer's
    :class:`render.palette.Palette` (``None`` = standard). Raises ``ValueError`` for an unknown theme.
    """
    th = theme_of(theme, palette)
    w = resolve(words, EN)
    hand = list(game.hand(player))
    slots = hand_slots(len(hand))
    rows = math.ceil(len(hand) / HAND_COLS)
    height = int(HAND_TOP + rows * ROW_H + PAD) if hand else int(HAND_TOP + FS * 1.6 + PAD)
    img, draw = new_canvas(WIDTH, height, th)
    stars = [
        w("cn.star_2x") if k == "2x" else w("cn.star_lightning") for k, v in dict(game.stars).items() if v == player
    ]
    title = w.count("cn.hand_title", len(hand))
    draw_text(draw, (PAD, 12), title, size=FS + 6, fill=th.text, bold=True)
    sub = w("cn.hand_stars", stars=", ".join(stars) if stars else w("cn.none"), score=game.scores[player])
    pending: set[int] = getattr(game, "pending_discards", set())
    if player in pending:
        sub += " · " + w("cn.you_must_discard")
    draw_fit(draw, (PAD, 12 + FS * 1.4 + 10), sub, max_w=WIDTH - 2 * PAD, size=FS, fill=th.muted, minimum=FS)
    if not hand:
        draw_text(draw, (PAD, HAND_TOP), w("cn.hand_empty"), size=FS, fill=th.text)
    for i, card in enumerate(hand):
        x0, y0 = slots[i]
        legal = None if legal_counts is None else int(legal_counts.get(card.id, 0))
        letter = letters.get(card.id, hand_letter(i)) if letters is not None else hand_letter(i)
        _draw_hand_card(draw, x0, y0, card, letter, legal, th, w)
    return img


def hand_text(
    game: Any,
    player: int,
    *,
    legal_counts: Mapping[int, int] | None = None,
    letters: Mapping[int, str] | None = None,
    words: Words | None = None,
) -> str:
    """Text twin of :func:`render_hand`: one line per card
    ``A: #12 red +2 — corners 1:Y4 (top left), 2:P3 (bottom right)`` (positions in words)
    plus legal counts when given, and the stars held; in the language of ``words`` (``None`` = English)."""
    w = resolve(words, EN)
    hand = list(game.hand(player))
    stars = [k for k, v in dict(game.stars).items() if v == player]
    lines = [w.count("cn.hand_text_head", len(hand), stars=", ".join(stars) if stars else w("cn.none"))]
    die = w("cn.die")
    for i, card in enumerate(hand):
        act = {"plus2": " +2", "die": f" {die}"}.get(card.action or "", "")
        corners = ", ".join(f"{c.index}:{c.color}{c.value} ({w(f'cn.pos_{c.position}')})" for c in card.corners)
        letter = letters.get(card.id, hand_letter(i)) if letters is not None else hand_letter(i)
        line = w(
            "cn.hand_text_card",
            letter=letter,
            card=card.id,
            colour=w(f"cn.colour_{card.color}"),
            action=act,
            corners=corners,
        )
        if legal_counts is not None:
            line += f" — {legal_text(legal_counts.get(card.id, 0), w)}"
        lines.append(line)
    return "\n".join(lines)


__all__ = [
    "HAND_SCALE",
    "LETTERS",
    "corner_tag_box",
    "hand_is_empty",
    "hand_slots",
    "hand_text",
    "legal_text",
    "render_hand",
]
