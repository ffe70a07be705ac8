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
from render.conex_ink import REMOVED_INK
from render.conex_scene import draw_scene, paste_plot
from render.conex_view import View, fit_bounds, window_view
from render.conex_words import EN as CONEX_EN
from render.palette import Palette
from render.record_words import EN as RECORD_EN
from render.replay import ReplayRenderer
from render.words import Words, resolve

__all__ = ["EXTRA_COLOURS", "PAD", "REPLAY", "caption", "frame_view", "move_lines", "plot_top", "prepare", "score_key"]

PAD = 10
EXTRA_COLOURS = (REMOVED_INK, "#FFFFFF", "#000000")
"""Colours a frame may need that the first and last frames can lack (the removed card's dashes, the outline)."""
SEAT_LETTERS = "ABCD"
WORDS = {**CONEX_EN, **RECORD_EN}
_STAR = {"2x": "cn.star_2x", "lightning": "cn.star_lightning"}
_TAKEN = {"supply": "rp.cn_takes_supply", "kept": "rp.cn_keeps", "from": "rp.cn_takes_from"}
"""A die's star (``StarTaken.how``) -> its words in a move list (the narration's: ``cn.ev_star*``)."""
_FACE = {
    "card": "rp.cn_face_card",
    "two cards": "rp.cn_face_two",
    "lightning": "rp.cn_face_lightning",
    "2x": "rp.cn_face_2x",
}


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


def _turn_line(game: Any, names: Sequence[str], max_w: float, fs: int, w: Words) -> str:
    """``goal 40 · draw pile 12 · ▶ Alice to play`` (or who won), names shortened so the line fits ``max_w``."""
    head = w("rp.cn_head", goal=game.goal, pile=len(game.draw_pile)) + " · "
    if game.current_player is None:
        winners = list(game.winners)
        if not winners:
            return ellipsize(head + w("cn.game_over"), max_w, fs, True)
        bare = head + w.count("cn.game_over_wins", len(winners), names="")
        room = max(max_w * 0.25, max_w - text_width(bare, fs, True))
        gap = text_width(" & ", fs, True) * (len(winners) - 1)
        who = " & ".join(ellipsize(names[k], (room - gap) / len(winners), fs, True) for k in winners)
        return ellipsize(head + w.count("cn.game_over_wins", len(winners), names=who), max_w, fs, True)
    room = max(max_w * 0.25, max_w - text_width(head + w("cn.to_play", name=""), fs, True))
    name = ellipsize(names[game.current_player], room, fs, True)
    return ellipsize(head + w("cn.to_play", name=name), max_w, fs, True)


def _seat_line(game: Any, seat: int, names: Sequence[str], max_w: float, fs: int, w: Words) -> str:
    extras = [w(_STAR[k]) for k, v in game.stars.items() if v == seat]
    if seat in game.forfeited:
        extras.append(w("cn.seat_left"))
    if seat in game.pending_discards:
        extras.append(w("cn.seat_must_discard"))
    suffix = ": " + w.count("cn.points", game.scores[seat]) + (" · " + " · ".join(extras) if extras else "")
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
    words: Words | None = None,
) -> Callable[[Step], Image.Image]:
    """A painter: the header and table after a step (``step.state``, a live ``Game``), ``width`` px wide, with the
    step's placement outlined or its removed card dashed; the header in ``words``' language (``None`` = English)."""
    th = theme_of(theme, palette)
    w = resolve(words, WORDS)
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
            draw_scene(plot, view, step.state, th, fs=fs, highlight=highlight, removed=removed, words=w)
            cache.update(key=key, plot=plot)
        plot_img: Image.Image = cache["plot"]
        return plot_img

    def paint(step: Step) -> Image.Image:
        game = step.state
        img = Image.new("RGB", (width, height), th.bg)
        draw = ImageDraw.Draw(img)
        max_w = width - 2 * PAD
        y = 8.0
        draw_text(draw, (PAD, y), _turn_line(game, names, max_w, fs, w), size=fs, fill=th.text, bold=True)
        for seat in range(game.players):
            y += line_h
            ink = th.muted if seat in game.forfeited else th.text
            draw_text(draw, (PAD, y), _seat_line(game, seat, names, max_w, fs, w), size=fs, fill=ink)
        paste_plot(img, table_plot(step), (PAD, header_h))
        return img

    return paint


def score_key(state: Any) -> Hashable:
    """Every seat's score."""
    return tuple(state.scores)


# ----------------------------------------------------------------------------------------------
# words
# ----------------------------------------------------------------------------------------------
def _target(target: Any, w: Words) -> str:
    return w("cn.the_board") if target == "board" else f"#{target}"


def _describe(events: Iterable[Event], names: Sequence[str], detail: bool, w: Words) -> list[str]:
    """The parts of one action's description, in event order (``detail``: corners, whose card, owed discards)."""
    parts: list[str] = []
    timed_out = False
    for ev in events:
        if isinstance(ev, Placed):
            fields = {"card": ev.card, "corner": ev.corner, "target": _target(ev.target, w), "points": ev.points}
            text = w("rp.cn_place_corner" if detail else "rp.cn_place", **fields)
            parts.append(text + (" (2x)" if ev.doubled else ""))
        elif isinstance(ev, StarUsed) and ev.star == "2x" and detail:
            parts.append(w("rp.cn_uses_2x"))
        elif isinstance(ev, DieRolled):
            face = w(_FACE[ev.face]) if ev.face in _FACE else ev.face
            parts.append(w("rp.cn_die", face=face))
        elif isinstance(ev, StarTaken) and detail:  # the live narration tells the same ``how``
            name = names[ev.from_] if ev.from_ is not None else ""
            parts.append(w(_TAKEN[ev.how], star=w(_STAR[ev.star]), name=name))
        elif isinstance(ev, Drew) and not parts:
            parts.append(w("rp.cn_draw"))
        elif isinstance(ev, Drew) and timed_out:
            parts.append(w("rp.cn_draws"))
        elif isinstance(ev, CardRemoved):
            if detail:
                parts.append(w("rp.cn_removes_owner", card=ev.card, name=names[ev.placed_by]))
            else:
                parts.append(w("rp.cn_removes", card=ev.card))
        elif isinstance(ev, DiscardsPending) and detail:
            parts.append(w("rp.cn_discards_owed", names=", ".join(names[p] for p in ev.players)))
        elif isinstance(ev, Discarded):
            key = "rp.cn_random_discard" if ev.random else "rp.cn_discard"
            parts.append(w(key, card=ev.card) if ev.card is not None else w(key + "_hidden"))
        elif isinstance(ev, Passed):
            parts.append(w("rp.cn_passes" if timed_out else "rp.cn_pass"))
        elif isinstance(ev, TimedOut):
            timed_out = True
            parts.append(w("rp.cn_time_out_n", count=ev.count, limit=ev.limit) if detail else w("rp.cn_time_out"))
        elif isinstance(ev, Forfeited):
            parts.append(w.count("rp.cn_leaves_n", ev.returned) if detail else w("rp.cn_leaves"))
        elif isinstance(ev, GoalReached):
            parts.append(w("rp.cn_goal", score=ev.score))
        elif isinstance(ev, GameOver) and detail:  # a frame's header already says the game is over, and who won
            parts.append(w("rp.cn_over"))
    return parts


def caption(step: Step, names: Sequence[str], words: Words | None = None) -> tuple[int | None, str]:
    """``(seat, text)``: ``place #12 on #7 · +5 · die: 2x``, ``draw``, ``⚡ lightning removes #7``,
    ``discard #17``, ``time out · draws``, ``leaves the game``... (``start · 3 players · Alice begins`` first), in
    ``words``' language (``None`` = English)."""
    w = resolve(words, WORDS)
    if step.index == 0:
        g = step.state
        return None, w("rp.cn_start", n=g.players, name=names[g.current_player])
    return step.seat, " · ".join(_describe(step.events, names, False, w)) or str(step.text)


def _place(place: int, w: Words) -> str:
    return w(f"rp.cn_place_{place}") if 1 <= place <= 3 else w("rp.cn_place_n", n=place)


def _result(final: Any, names: Sequence[str], w: Words) -> str:
    """``Result (goal reached): 1st Alice 41 · 2nd Bob 39 · 3rd Carol 12 (left)``: places named as places; how the
    game ended in words (the outcome's reason is a rule code: never shown to players)."""
    outcome = final.outcome
    if outcome is None:
        return w("rp.unfinished")
    parts = []
    for seat in range(final.players):
        left = f" ({w('cn.seat_left')})" if seat in outcome.forfeited else ""
        parts.append(f"{_place(outcome.place_of(seat), w)} {names[seat]} {final.scores[seat]}{left}")
    order = sorted(range(final.players), key=outcome.place_of)
    key = f"rp.cn_end_{outcome.reason}"
    how = w(key) if key in WORDS else w("rp.cn_over")
    return w("rp.cn_result", how=how, parts=" · ".join(parts[s] for s in order))


def _compact(step: Step, w: Words) -> str:
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
            return who + w("rp.cn_tok_time")
        if isinstance(ev, Forfeited):
            return who + w("rp.cn_tok_left")
        if isinstance(ev, Passed):
            return who + w("rp.cn_tok_pass")
        if isinstance(ev, Drew):
            return who + w("rp.cn_tok_draw")
    return who + str(step.text)


def move_lines(
    rec: Record, steps: Iterable[Step], names: Sequence[str], *, compact: bool = False, words: Words | None = None
) -> list[str]:
    """The game as a numbered action list::

        CONEX · 3 players: Alice, Bob, Carol · goal 40 · medium table
        1. Alice: place #12 corner 2 on the board · +4
        2. Bob: place #3 corner 1 on #12 · +5 · die: two cards
        3. Carol: ⚡ lightning removes #3 (Bob's) · discards owed: Alice, Bob
        ...
        Result (goal reached): 1st Alice 41 · 2nd Bob 39 · 3rd Carol 12 (left)

    ``compact``: seats lettered A-D (a legend line) and one token per action, ten to a line: ``2B:3>12+5`` (card 3
    on card 12 for 5; ``>B`` = on the board), ``⚡7`` (lightning on 7), ``x17`` (discard 17), ``draw``, ``pass``,
    ``time``, ``left`` (words in ``words``' language, ``None`` = English)."""
    w = resolve(words, WORDS)
    lines: list[str] = []
    tokens: list[str] = []
    final: Any = None
    for step in steps:
        final = step.state
        if step.index == 0:
            g = step.state
            if compact:
                legend = " · ".join(f"{SEAT_LETTERS[s]} {names[s]}" for s in range(g.players))
                lines.append(w("rp.cn_compact_head", legend=legend, goal=g.goal))
            else:
                size_key = f"rp.cn_size_{g.table_size}"
                size = w(size_key) if size_key in WORDS else g.table_size
                lines.append(
                    w("rp.cn_list_head", n=g.players, names=", ".join(names[: g.players]), goal=g.goal, size=size)
                )
            continue
        if compact:
            tokens.append(_compact(step, w))
        else:
            seat = step.seat if step.seat is not None else 0
            said = " · ".join(_describe(step.events, names, True, w)) or str(step.text)
            lines.append(f"{step.index}. {names[seat]}: {said}")
    for i in range(0, len(tokens), 10):
        lines.append(" ".join(tokens[i : i + 10]))
    lines.append(_result(final, names, w))
    return lines


REPLAY = ReplayRenderer(Game, prepare, caption, score_key, move_lines, EXTRA_COLOURS)
"""The game's replay renderer (named by its plug-in: ``kind.replay``)."""
