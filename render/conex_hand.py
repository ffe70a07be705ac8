"""CONEX hand image (:func:`render_hand`, sent ephemerally) and its text twin (:func:`hand_text`).

Cards upright and large, lettered A, B, C..., each with its number and colour letter, its corners as pills
``1:Y4`` (corner number, colour letter, value) beside the corner, the action symbol (+2 or a die), and,
when given, its count of legal placements. Also re-exported by :mod:`render.conex`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from engine.conex.deck import CARD_H_MM, CARD_W_MM, COLOR_NAMES
from engine.conex.geometry import posed_card
from engine.conex.handref import hand_letter, legal_label
from render.common import Theme, draw_fit, draw_text, ink_on, new_canvas, text_size, theme_of
from render.conex import COLOUR_FILL, PAD, View, _draw_card_shapes, _star_holders

# ----------------------------------------------------------------------------------------------
# the hand
# ----------------------------------------------------------------------------------------------
HAND_SCALE = 3.2  # px per mm for upright hand cards (a card is 192 x 288 px)
HAND_COLS = 5
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"  # kept for callers; hands use engine.conex.handref.hand_letter


def _draw_die(draw: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    draw.rounded_rectangle((x - s / 2, y - s / 2, x + s / 2, y + s / 2), radius=s * 0.18, fill="#FFFFFF",
                           outline="#000000", width=3)
    for dx, dy in ((-0.25, -0.25), (0.25, 0.25), (0.0, 0.0)):
        r = s * 0.08
        draw.ellipse((x + dx * s - r, y + dy * s - r, x + dx * s + r, y + dy * s + r), fill="#000000")


PILL_H = 34


def _corner_pill(draw: ImageDraw.ImageDraw, x: float, y: float, corner: Any, align: str) -> None:
    """A white pill ``[swatch] 1:Y4`` (corner number, colour letter, value) with its left or right edge at x."""
    label = f"{corner.index}:{corner.color}{corner.value}"
    tw = text_size(label, 20, True)[0]
    w = tw + 36
    x0 = x if align == "l" else x - w
    draw.rounded_rectangle((x0, y, x0 + w, y + PILL_H - 4), radius=10, fill="#FFFFFF", outline="#000000", width=2)
    draw.rectangle((x0 + 6, y + 7, x0 + 22, y + PILL_H - 11), fill=COLOUR_FILL[corner.color], outline="#000000",
                   width=1)
    draw_text(draw, (x0 + 27, y + (PILL_H - 4) / 2), label, size=20, fill="#000000", bold=True, anchor="lm")


def _draw_hand_card(
    draw: ImageDraw.ImageDraw, x0: float, y0: float, card: Any, letter: str, legal: int | None, th: Theme,
) -> None:
    """One upright card with its top-left at (x0, y0 + PILL_H); corner pills above/below it, legal count under."""
    y_card = y0 + PILL_H
    view = View(-(x0 / HAND_SCALE) - CARD_W_MM / 2, -(y_card / HAND_SCALE) - CARD_H_MM / 2, HAND_SCALE, 0, 0)
    posed = posed_card(card, 0.0, 0.0, 0.0)
    _draw_card_shapes(None, draw, view, card, posed.rect, posed.corners, detail=False, width=3, labels=False)
    w, h = CARD_W_MM * HAND_SCALE, CARD_H_MM * HAND_SCALE
    cx, cy = x0 + w / 2, y_card + h / 2
    ink = ink_on(COLOUR_FILL[card.color])
    halo = "#000000" if ink == "#FFFFFF" else "#FFFFFF"
    for corner in card.corners:
        top = corner.position in ("tl", "tr")
        left = corner.position in ("tl", "bl")
        y = y0 - 2 if top else y_card + h + 4
        _corner_pill(draw, x0 if left else x0 + w, y, corner, "l" if left else "r")
    draw_text(draw, (cx, cy - 40), letter, size=60, fill=ink, bold=True, anchor="mm", stroke=halo, stroke_width=2)
    draw_text(draw, (cx, cy + 16), f"#{card.id} {card.color}", size=26, fill=ink, bold=True, anchor="mm",
              stroke=halo, stroke_width=1)
    if card.action == "plus2":
        draw_text(draw, (cx, cy + 56), "+2", size=32, fill=ink, bold=True, anchor="mm", stroke=halo, stroke_width=2)
    elif card.action == "die":
        _draw_die(draw, cx, cy + 58, 36)
    if legal is not None:
        label = legal_label(legal)
        draw_text(draw, (cx, y_card + h + PILL_H + 10), label, size=22, fill=th.text if legal else th.muted,
                  anchor="ma")


HAND_TOP = 112
HAND_GAP_X, HAND_GAP_Y = 36.0, 2 * PILL_H + 56.0


def hand_slots(n: int) -> list[tuple[float, float]]:
    """Top-left pixel of each of ``n`` upright cards in :func:`render_hand` (5 per row); a card is
    ``CARD_W_MM * HAND_SCALE`` x ``CARD_H_MM * HAND_SCALE`` px."""
    cw, ch = CARD_W_MM * HAND_SCALE, CARD_H_MM * HAND_SCALE
    out = []
    for i in range(n):
        r, c = divmod(i, HAND_COLS)
        out.append((PAD + c * (cw + HAND_GAP_X), HAND_TOP + PILL_H + r * (ch + HAND_GAP_Y)))
    return out


def render_hand(
    game: Any, player: int, *, legal_counts: Mapping[int, int] | None = None, theme: str = "dark",
) -> Image.Image:
    """A player's hand (sent ephemerally): cards upright, each lettered A, B, C... with its number, corners
    numbered 1–3 with colour letter and value, the action symbol (+2 or a die), the stars this player holds and,
    when ``legal_counts`` (card id -> count) is given, each card's number of legal placements.

    At least 1024 px wide, 5 cards per row. Raises ``ValueError`` for an unknown theme.
    """
    th = theme_of(theme)
    hand = list(game.hand(player))
    slots = hand_slots(len(hand))
    cw, ch = CARD_W_MM * HAND_SCALE, CARD_H_MM * HAND_SCALE
    rows = max(1, math.ceil(len(hand) / HAND_COLS))
    width = max(1024, int(PAD * 2 + HAND_COLS * cw + (HAND_COLS - 1) * HAND_GAP_X))
    height = int(HAND_TOP + rows * (ch + HAND_GAP_Y) + PAD)
    img, draw = new_canvas(width, height, th)
    stars = [("2x star" if k == "2x" else "lightning star") for k, v in _star_holders(game).items() if v == player]
    title = f"Your hand · {len(hand)} card{'s' if len(hand) != 1 else ''}"
    draw_text(draw, (PAD, 18), title, size=32, fill=th.text, bold=True)
    sub = "Stars: " + (", ".join(stars) if stars else "none") + f" · score {game.scores[player]}"
    pending: set[int] = getattr(game, "pending_discards", set())
    if player in pending:
        sub += " · you must discard one card"
    draw_fit(draw, (PAD, 66), sub, max_w=width - 2 * PAD, size=24, fill=th.muted)
    if not hand:
        draw_text(draw, (PAD, HAND_TOP + 20), "No cards in hand.", size=28, fill=th.text)
    for i, card in enumerate(hand):
        x0, y0 = slots[i]
        y0 -= PILL_H
        legal = None if legal_counts is None else int(legal_counts.get(card.id, 0))
        _draw_hand_card(draw, x0, y0, card, hand_letter(i), legal, th)
    return img


def hand_text(game: Any, player: int, *, legal_counts: Mapping[int, int] | None = None) -> str:
    """Text twin of :func:`render_hand`: one line per card ``A: #12 red +2 — corners 1:Y4 (tl), 2:P3 (br)``
    plus legal counts when given, and the stars held."""
    hand = list(game.hand(player))
    stars = [k for k, v in _star_holders(game).items() if v == player]
    lines = [f"Your hand ({len(hand)} cards); stars held: {', '.join(stars) if stars else 'none'}"]
    for i, card in enumerate(hand):
        act = {"plus2": " +2", "die": " die"}.get(card.action or "", "")
        corners = ", ".join(f"{c.index}:{c.color}{c.value} ({c.position})" for c in card.corners)
        line = f"{hand_letter(i)}: #{card.id} {COLOR_NAMES[card.color]}{act} — corners {corners}"
        if legal_counts is not None:
            line += f" — {legal_label(legal_counts.get(card.id, 0))}"
        lines.append(line)
    return "\n".join(lines)
