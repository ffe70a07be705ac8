"""Words about a CONEX table: the lines the image header and the text twin share (whose turn, the last placement,
the stars) and the text twin itself (:func:`table_text`), which reads the table as a Discord message.

Positions are the placed corner's centroid in **cm** (G1: origin at the board centre, x to the right, y down),
rotations in degrees clockwise, as ``/conex place x: y:`` takes them. Pure functions.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Literal

from shapely.geometry.base import BaseGeometry

from engine.conex import Game, Place
from engine.conex.geometry import corner_point
from render.common import ellipsize, seat_names
from render.conex_view import Pose, table_cards, visible_parts
from render.conex_words import EN
from render.results import conex_winners
from render.words import Words, resolve

Highlight = int | None | Literal["last"]
"""Which table card a picture or text marks as the last placement: its id, none, or the newest (``"last"``)."""


def star_holders(game: Any) -> dict[str, int | None]:
    return dict(game.stars)


def star_word(kind: str, w: Words) -> str:
    return w("cn.star_2x") if kind == "2x" else w("cn.star_lightning")


def highlighted(game: Any, highlight: Highlight) -> Any | None:
    cards = table_cards(game)
    if highlight == "last":
        return cards[-1] if cards else None
    return next((tc for tc in cards if tc.card.id == highlight), None)


def _short(name: str, fs: int | None) -> str:
    """``name`` shortened to at most 40% of an 1100 px header line at ``fs`` px (as is when ``fs`` is None)."""
    return name if fs is None else ellipsize(name, 440, fs)


def placed_corner_cm(tc: Any) -> tuple[float, float]:
    """Where a table card's placed corner lies, in cm (its centroid, as ``/conex place x: y:`` takes it, G1): the
    one convention of every position players read (the "Last:" line, the text twin, the hints)."""
    x, y, r = tc.pose
    cx, cy = corner_point(tc.card.corner(tc.corner), x, y, r)
    return cx / 10.0, cy / 10.0


def last_text(tc: Any, names: Sequence[str], w: Words, fs: int | None = None) -> str:
    tgt = w("cn.the_board") if tc.target == "board" else f"#{tc.target}"
    x, y = placed_corner_cm(tc)
    return w(
        "cn.last",
        card=tc.card.id,
        name=_short(names[tc.placed_by], fs),
        corner=tc.corner,
        x=f"{x:.1f}",
        y=f"{y:.1f}",
        rot=f"{tc.pose[2] % 360:.0f}",
        target=tgt,
        points=tc.points,
    )


def turn_text(game: Game, names: Sequence[str], w: Words, fs: int | None = None) -> str:
    if game.current_player is None:
        winners = conex_winners(game)
        if not winners:
            return w("cn.game_over")
        return w.count("cn.game_over_wins", len(winners), names=" & ".join(_short(names[k], fs) for k in winners))
    return w("cn.to_play", name=_short(names[game.current_player], fs))


def _header_lines(
    game: Game,
    names: Sequence[str],
    w: Words,
    highlight: Highlight = "last",
    removed: tuple[int, Pose] | None = None,
) -> tuple[str, str, str]:
    """(title and turn, scores, last placement) as one line each: the text twin's header."""
    if game.current_player is None:
        winners = conex_winners(game)
        joined = " & ".join(names[k] for k in winners)
        turn = w.count("cn.t_game_over_wins", len(winners), names=joined) if winners else w("cn.t_game_over")
    else:
        turn = w("cn.t_to_play", name=names[game.current_player])
    head = w("cn.t_head", goal=game.goal, pile=len(game.draw_pile), turn=turn)
    stars = star_holders(game)
    parts = []
    for p in range(game.players):
        s = f"{names[p]} {game.scores[p]}"
        held = [f"({star_word(k, w)})" for k, v in stars.items() if v == p]
        if held:
            s += " " + " ".join(held)
        parts.append(s)
    scores = w("cn.t_scores", scores="   ".join(parts))
    supply = [star_word(k, w) for k, v in stars.items() if v is None]
    if supply:
        scores += "   · " + w("cn.t_supply", stars=", ".join(supply))
    pending = sorted(game.pending_discards)
    if pending:
        scores += "   · " + w("cn.t_must_discard", names=", ".join(names[p] for p in pending))
    lit = highlighted(game, highlight)
    lines = []
    if removed is not None:
        lines.append(w("cn.t_removed", card=removed[0]))
    if lit is not None:
        lines.append(last_text(lit, names, w))
    elif not table_cards(game):
        lines.append(w("cn.no_card_placed") if game.is_over else w("cn.t_no_cards"))
    return head, scores, " ".join(lines)


def _corners_text(card: Any, w: Words, visible: Iterable[BaseGeometry] | None = None) -> str:
    vis = list(visible) if visible is not None else [None] * len(card.corners)
    out = []
    for corner, v in zip(card.corners, vis, strict=True):
        if v is not None and v.area < 1.0:
            continue
        out.append(f"{corner.index}:{corner.color}{corner.value}")
    return ",".join(out) if out else w("cn.t_none_visible")


def table_text(
    game: Game,
    *,
    names: Sequence[str],
    ghosts: Sequence[Place] = (),
    limit: int = 1900,
    highlight: Highlight = "last",
    removed: tuple[int, Pose] | None = None,
    words: Words | None = None,
) -> str:
    """Text twin of :func:`render_table`: header facts then one entry per table card in play order.

    A card is given by the corner it was placed with, where it lies in cm (as ``/conex place x: y:`` takes it)
    and its rotation clockwise. Full entries read ``#12R +2 c2 at (3.5,-10.0) r90 corners 1:Y4,3:P2`` (colour
    letter, action, placed corner and its position, visible corners ``index:colour value``); free cards are
    marked ``free``. When that is longer than ``limit`` characters a medium form
    (``#12R+2 c2 4,-10 r90 Y4 P2 free``: whole cm, visible corners as colour and value) is tried, then a compact one
    (``#12R(4,-10)``) truncated with a count if still too long, so the text always fits a Discord message (2000
    characters). ``ghosts`` (the preview's ``Place`` list) are listed after the last placement as
    ``Ghost 1: place 12 c2 at 3.5,-10.0 r90``. ``words``: the reader's language (``None`` = English).
    """
    w = resolve(words, EN)
    names = seat_names(names, game.players)
    head, scores, lastline = _header_lines(game, names, w, highlight, removed)
    head = head.replace("▶ ", "")
    cards = table_cards(game)
    vis = visible_parts(game)
    rects = [tc.rect for tc in cards]
    free_word, die = w("cn.t_free"), w("cn.die")
    full, medium, compact = [], [], []
    for i, tc in enumerate(cards):
        c = tc.card
        x, y = placed_corner_cm(tc)
        r = tc.pose[2] % 360
        act = {"plus2": " +2", "die": f" {die}"}.get(c.action or "", "")
        free = all(o.intersection(tc.rect).area <= 0.01 for o in rects[i + 1 :])
        corners = _corners_text(c, w, vis[c.id][1])
        full.append(
            w(
                "cn.t_card",
                card=c.id,
                colour=c.color,
                action=act,
                corner=tc.corner,
                x=f"{x:.1f}",
                y=f"{y:.1f}",
                rot=f"{r:.0f}",
                corners=corners,
            )
            + (f" {free_word}" if free else "")
        )
        short = " ".join(k.split(":")[1] for k in corners.split(",")) if ":" in corners else "-"
        medium.append(
            f"#{c.id}{c.color}{act.replace(' ', '')} c{tc.corner} {x:.0f},{y:.0f} r{r:.0f} {short}"
            + (f" {free_word}" if free else "")
        )
        compact.append(f"#{c.id}{c.color}{act.strip()}({x:.0f},{y:.0f})")
    if ghosts:
        lastline += "\n" + "\n".join(w("cn.t_ghost", n=i, place=place) for i, place in enumerate(ghosts, start=1))
    intro = [head, scores, lastline, w("cn.t_legend")]
    if not cards:
        return "\n".join(intro)
    text = "\n".join([*intro, w("cn.t_table", n=len(cards)), *full])
    if len(text) <= limit:
        return text
    base = "\n".join([*intro[:3], w("cn.t_table_medium", n=len(cards))])
    text = base + "\n" + "; ".join(medium)
    if len(text) <= limit:
        return text
    out = "\n".join([*intro[:3], w("cn.t_table_compact", n=len(cards))]) + "\n"
    for k, entry in enumerate(compact):
        more = w("cn.t_more", n=len(compact) - k)
        if len(out) + len(entry) + len(more) + 2 > limit:
            out += " " + more
            break
        out += ("" if k == 0 else " ") + entry
    return out
