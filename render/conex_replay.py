"""CONEX's replay hooks (:mod:`render.replay`): frames, captions and the numbered move list of a game.

A frame is a compact header (goal, draw pile, whose turn; one line per seat: score, stars held, "left", "must
discard") over the table drawn by :func:`render.conex_scene.draw_scene`, the same scene as
:func:`render.conex.render_table`: the card placed by the step outlined white (``highlight=``), a card a lightning
removed as red dashes (``removed=``), nothing highlighted for draws, passes, discards and timeouts. One camera for
the whole replay: the region every card ever placed covers (:func:`render.conex_view.fit_bounds` of the final table
plus the cards removed on the way), so nothing jumps between frames and frames differ only where play happened
(small GIF deltas). Labels are sized for the frame width (9 px capitals at 400 px wide); corner values are left
out (they never fit at this scale), card numbers and colour letters stay.

The move list is numbered, one line per action (seat, card, corner, target, points, die face, stars, removed and
discarded cards, timeouts, forfeits), or compact tokens (``12A:7>3+5``) when a message must hold it all. Card ids
of discards are shown: a record is read after the game, when the shuffle seed is public anyway.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

from PIL import Image, ImageDraw

from engine.conex import Game
from engine.conex.deck import card_by_id
from engine.conex.events import (
    CardRemoved,
    DieRolled,
    Discarded,
    DiscardsPending,
    Drew,
    Forfeited,
    GameOver,
    GoalReached,
    Passed,
    Placed,
    StarTaken,
    StarUsed,
    TimedOut,
)
from engine.conex.geometry import posed_card
from engine.protocol import Event
from engine.record import Record, Step
from render.common import draw_text, ellipsize, min_font_px, text_width, theme_of
from render.conex_scene import REMOVED_INK, draw_scene, paste_plot
from render.conex_view import View, fit_bounds, window_view
from render.palette import Palette
from render.replay import ReplayRenderer

__all__ = ["EXTRA_COLOURS", "PAD", "REPLAY", "caption", "frame_view", "move_lines", "plot_top", "prepare", "score_key"]

PAD = 10
EXTRA_COLOURS = (REMOVED_INK, "#FFFFFF", "#000000")
"""Colours a frame may need that the first and last frames can lack (the removed card's dashes, the outline)."""
SEAT_LETTERS = "ABCD"
_STAR = {"2x": "2x star", "lightning": "lightning star"}


# ----------------------------------------------------------------------------------------------
# frames
# ----------------------------------------------------------------------------------------------
def frame_view(final: Any, steps: Sequence[Step], width: int) -> View:
    """The one camera of a replay ``width`` px wide: the default view's window (:func:`fit_bounds`) around the final
    table and every card placed during the game (``Placed`` events), ``width - 2 * PAD`` px wide."""
    extra = []
    for step in steps:
        for ev in step.events:
            if isinstance(ev, Placed):
                extra.append(posed_card(card_by_id(ev.card), *ev.pose).rect)
    x0, y0, x1, y1 = fit_bounds(final, extra=extra)
    return window_view(x0, y0, x1 - x0, y1 - y0, width - 2 * PAD)


def plot_top(players: int, width: int) -> int:
    """Where the table picture starts in a frame body ``width`` px wide (px from its top; left edge ``PAD``)."""
    return 8 + round(min_font_px(width) * 1.35) * (1 + players) + 6


def _turn_line(game: Any, names: Sequence[str], max_w: float, fs: int) -> str:
    head = f"goal {game.goal} · draw pile {len(game.draw_pile)} · "
    if game.current_player is None:
        winners = list(game.winners)
        if not winners:
            return head + "game over"
        verb = " wins" if len(winners) == 1 else " win"
        room = max(max_w * 0.25, max_w - text_width(head + "game over · " + verb, fs, True))
        gap = text_width(" & ", fs, True) * (len(winners) - 1)
        who = " & ".join(ellipsize(names[w], (room - gap) / len(winners), fs, True) for w in winners)
        return ellipsize(head + f"game over · {who}{verb}", max_w, fs, True)
    room = max(max_w * 0.25, max_w - text_width(head + "▶  to play", fs, True))
    return ellipsize(head + f"▶ {ellipsize(names[game.current_player], room, fs, True)} to play", max_w, fs, True)


def _seat_line(game: Any, seat: int, names: Sequence[str], max_w: float, fs: int) -> str:
    extras = [_STAR[k] for k, v in game.stars.items() if v == seat]
    if seat in game.forfeited:
        extras.append("left")
    if seat in game.pending_discards:
        extras.append("must discard")
    suffix = f": {game.scores[seat]} pts" + (" · " + " · ".join(extras) if extras else "")
    name_w = max(max_w * 0.4, max_w - text_width(suffix, fs))
    return ellipsize(names[seat], name_w, fs) + suffix


def _lit(step: Step) -> tuple[int | None, tuple[int, Any] | None]:
    """(card to outline, (removed card id, its rectangle)) for a step."""
    highlight = removed = None
    for ev in step.events:
        if isinstance(ev, Placed):
            highlight = ev.card
        elif isinstance(ev, CardRemoved):
            removed = (ev.card, posed_card(card_by_id(ev.card), *ev.pose).rect)
            highlight = None
    return highlight, removed


def prepare(
    final: Any,
    steps: Sequence[Step],
    *,
    names: Sequence[str],
    width: int,
    theme: str,
    palette: Palette | None = None,
) -> Callable[[Step], Image.Image]:
    """A painter: the header and table after a step (``step.state``, a live ``Game``), ``width`` px wide, with the
    step's placement outlined or its removed card dashed."""
    th = theme_of(theme, palette)
    fs = min_font_px(width)
    view = frame_view(final, steps, width)
    line_h = round(fs * 1.35)
    header_h = plot_top(final.players, width)
    height = header_h + view.height + PAD
    cache: dict[str, Any] = {}

    def table_plot(step: Step) -> Image.Image:
        """The table picture; draws, passes, discards and timeouts reuse the previous step's (same table, nothing
        highlighted)."""
        highlight, removed = _lit(step)
        key = (tuple(tc.card.id for tc in step.state.table), highlight, removed[0] if removed else None)
        if cache.get("key") != key:
            plot = Image.new("RGB", (view.width, view.height), th.bg)
            draw_scene(plot, view, step.state, th, fs=fs, highlight=highlight, removed=removed)
            cache.update(key=key, plot=plot)
        plot_img: Image.Image = cache["plot"]
        return plot_img

    def paint(step: Step) -> Image.Image:
        game = step.state
        img = Image.new("RGB", (width, height), th.bg)
        draw = ImageDraw.Draw(img)
        max_w = width - 2 * PAD
        y = 8.0
        draw_text(draw, (PAD, y), _turn_line(game, names, max_w, fs), size=fs, fill=th.text, bold=True)
        for seat in range(game.players):
            y += line_h
            ink = th.muted if seat in game.forfeited else th.text
            draw_text(draw, (PAD, y), _seat_line(game, seat, names, max_w, fs), size=fs, fill=ink)
        paste_plot(img, table_plot(step), (PAD, header_h))
        return img

    return paint


def score_key(state: Any) -> Hashable:
    """Every seat's score."""
    return tuple(state.scores)


# ----------------------------------------------------------------------------------------------
# words
# ----------------------------------------------------------------------------------------------
def _target(target: Any) -> str:
    return "the board" if target == "board" else f"#{target}"


def _describe(events: Iterable[Event], names: Sequence[str], detail: bool) -> list[str]:
    """The parts of one action's description, in event order (``detail``: corners, whose card, owed discards)."""
    parts: list[str] = []
    timed_out = False
    for ev in events:
        if isinstance(ev, Placed):
            corner = f" corner {ev.corner}" if detail else ""
            parts.append(
                f"place #{ev.card}{corner} on {_target(ev.target)} · +{ev.points}" + (" (2x)" if ev.doubled else "")
            )
        elif isinstance(ev, StarUsed) and ev.star == "2x" and detail:
            parts.append("uses the 2x star")
        elif isinstance(ev, DieRolled):
            parts.append(f"die: {ev.face}")
        elif isinstance(ev, StarTaken) and detail:
            src = "the supply" if ev.from_ is None else ("own" if ev.from_ == ev.player else names[ev.from_])
            parts.append(f"takes the {_STAR[ev.star]}" + ("" if src == "own" else f" from {src}"))
        elif isinstance(ev, Drew) and not parts:
            parts.append("draw")
        elif isinstance(ev, Drew) and timed_out:
            parts.append("draws")
        elif isinstance(ev, CardRemoved):
            owner = f" ({names[ev.placed_by]}'s)" if detail else ""
            parts.append(f"⚡ lightning removes #{ev.card}{owner}")
        elif isinstance(ev, DiscardsPending) and detail:
            parts.append("discards owed: " + ", ".join(names[p] for p in ev.players))
        elif isinstance(ev, Discarded):
            card = f" #{ev.card}" if ev.card is not None else ""
            parts.append(("random discard" if ev.random else "discard") + card)
        elif isinstance(ev, Passed):
            parts.append("passes" if timed_out else "pass")
        elif isinstance(ev, TimedOut):
            timed_out = True
            parts.append(f"time out {ev.count}/{ev.limit}" if detail else "time out")
        elif isinstance(ev, Forfeited):
            parts.append("leaves the game" + (f" ({ev.returned} cards back to the pile)" if detail else ""))
        elif isinstance(ev, GoalReached):
            parts.append(f"reaches the goal with {ev.score}")
        elif isinstance(ev, GameOver):
            parts.append("game over")
    return parts


def caption(step: Step, names: Sequence[str]) -> tuple[int | None, str]:
    """``(seat, text)``: ``place #12 on #7 · +5 · die: 2x``, ``draw``, ``⚡ lightning removes #7``,
    ``discard #17``, ``time out · draws``, ``leaves the game``... (``start · 3 players · Alice begins`` first)."""
    if step.index == 0:
        g = step.state
        return None, f"start · {g.players} players · {names[g.current_player]} begins"
    return step.seat, " · ".join(_describe(step.events, names, detail=False)) or str(step.text)


ENDINGS: dict[str, str] = {
    "E1": "goal reached",
    "E2-pass": "everyone passed",
    "E2-empty": "out of cards",
    "forfeit": "too few players left",
}
"""How a game ended, in words (the outcome's reason is a rule code: never shown to players)."""
PLACES: dict[int, str] = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}


def _result(final: Any, names: Sequence[str]) -> str:
    """``Result (goal reached): 1st Alice 41 · 2nd Bob 39 · 3rd Carol 12 (left)``: places named as places."""
    outcome = final.outcome
    if outcome is None:
        return "Unfinished."
    parts = []
    for seat in range(final.players):
        place = outcome.place_of(seat)
        left = " (left)" if seat in outcome.forfeited else ""
        parts.append(f"{PLACES.get(place, f'{place}th')} {names[seat]} {final.scores[seat]}{left}")
    order = sorted(range(final.players), key=outcome.place_of)
    how = ENDINGS.get(outcome.reason, "game over")
    return f"Result ({how}): " + " · ".join(parts[s] for s in order)


def _compact(step: Step) -> str:
    who = f"{step.index}{SEAT_LETTERS[step.seat or 0]}:"
    for ev in step.events:
        if isinstance(ev, Placed):
            tgt = "B" if ev.target == "board" else str(ev.target)
            return who + f"{ev.card}>{tgt}+{ev.points}"
        if isinstance(ev, CardRemoved):
            return who + f"⚡{ev.card}"
        if isinstance(ev, Discarded):
            return who + f"x{ev.card}"
        if isinstance(ev, TimedOut):
            return who + "time"
        if isinstance(ev, Forfeited):
            return who + "left"
        if isinstance(ev, Passed):
            return who + "pass"
        if isinstance(ev, Drew):
            return who + "draw"
    return who + str(step.text)


def move_lines(rec: Record, steps: Iterable[Step], names: Sequence[str], *, compact: bool = False) -> list[str]:
    """The game as a numbered action list::

        CONEX · 3 players: Alice, Bob, Carol · goal 40 · medium table
        1. Alice: place #12 corner 2 on the board · +4
        2. Bob: place #3 corner 1 on #12 · +5 · die: two cards
        3. Carol: ⚡ lightning removes #3 (Bob's) · discards owed: Alice, Bob
        ...
        Result (goal reached): 1st Alice 41 · 2nd Bob 39 · 3rd Carol 12 (left)

    ``compact``: seats lettered A-D (a legend line) and one token per action, ten to a line: ``2B:3>12+5`` (card 3
    on card 12 for 5; ``>B`` = on the board), ``⚡7`` (lightning on 7), ``x17`` (discard 17), ``draw``, ``pass``,
    ``time``, ``left``."""
    lines: list[str] = []
    tokens: list[str] = []
    final: Any = None
    for step in steps:
        final = step.state
        if step.index == 0:
            g = step.state
            if compact:
                legend = " · ".join(f"{SEAT_LETTERS[s]} {names[s]}" for s in range(g.players))
                lines.append(f"CONEX · {legend} · goal {g.goal} · card>target+points, ⚡ lightning, x discard")
            else:
                lines.append(
                    f"CONEX · {g.players} players: {', '.join(names[: g.players])} · goal {g.goal} · "
                    f"{g.table_size} table"
                )
            continue
        if compact:
            tokens.append(_compact(step))
        else:
            seat = step.seat if step.seat is not None else 0
            lines.append(
                f"{step.index}. {names[seat]}: " + (" · ".join(_describe(step.events, names, True)) or str(step.text))
            )
    for i in range(0, len(tokens), 10):
        lines.append(" ".join(tokens[i : i + 10]))
    lines.append(_result(final, names))
    return lines


REPLAY = ReplayRenderer(Game, prepare, caption, score_key, move_lines, EXTRA_COLOURS)
"""The game's replay renderer (named by its plug-in: ``kind.replay``)."""
