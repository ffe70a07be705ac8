"""Serialising a CONEX ``Game``: ``to_dict``, ``from_dict`` (validated) and ``view_for`` (hidden information
stripped). The format, ``"version": 1``, is documented in docs/conex-state.md."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from engine.conex.deck import DECK_SIZE
from engine.conex.geometry import normalize_angle, posed_card
from engine.conex.table import TableCard
from engine.errors import InvalidInputError, StateError

if TYPE_CHECKING:
    from engine.conex.game import Game

VERSION = 1


def to_dict(g: Game) -> dict[str, Any]:
    """Full state, JSON-ready (ints, floats, strings, lists, dicts, None)."""
    return {
        "version": VERSION,
        "game": "conex",
        "seed": g.seed,
        "players": g.players,
        "table_size": g.table_size,
        "goal": g.goal,
        "hands": [list(h) for h in g.hands],
        "draw_pile": list(g.pile),
        "table": [
            {
                "card": tc.id,
                "x_mm": tc.pose[0],
                "y_mm": tc.pose[1],
                "rotation": tc.pose[2],
                "placed_by": tc.placed_by,
                "points": tc.points,
                "corner": tc.corner,
                "target": tc.target,
            }
            for tc in g.board.cards
        ],
        "scores": list(g.scores),
        "current_player": g.current_player,
        "turn": g.turn,
        "stars": {s: {"holder": g.star_holder[s], "since_turn": g.star_since[s]} for s in g.star_holder},
        "pending_discards": sorted(g.pending_discards),
        "passes": g.passes,
        "goal_reached": g.goal_reached,
        "is_over": g.is_over,
        "end_reason": g.end_reason,
        "rolls": g.rolls,
        "window": list(g.window) if g.window is not None else None,
        "history": [[p, t] for p, t in g.history],
    }


def view_for(g: Game, player: int) -> dict[str, Any]:
    """``to_dict`` as seat ``player`` may see it: no seed (it would reveal the pile), the pile as a count,
    other hands as counts (``hand_counts``), others' discards and drawn cards masked."""
    seat = g._seat(player)
    d = to_dict(g)
    del d["seed"]
    d["draw_pile"] = len(g.pile)
    d["hand_counts"] = [len(h) for h in g.hands]
    d["hands"] = [list(h) if p == seat else None for p, h in enumerate(g.hands)]
    d["history"] = [[p, t if p == seat or not t.startswith("discard") else "discard ?"] for p, t in g.history]
    d["last_events"] = [
        {k: v for k, v in e.items() if k not in ("cards", "card") or not e.get("private") or e.get("player") == seat}
        for e in g.last_events
    ]
    d["viewer"] = seat
    return d


def _int(d: dict[str, Any], key: str, lo: int, hi: int, default: Any = ...) -> int:
    if key not in d:
        if default is ...:
            raise StateError(f"missing field {key!r}", field=key)
        return default
    v = d[key]
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise StateError(f"{key} must be a whole number {lo}..{hi}, not {v!r}", field=key)
    return v


def _float(v: Any, what: str) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
        raise StateError(f"{what} must be a finite number, not {v!r}", field=what)
    return float(v) + 0.0


def _seat_or_none(v: Any, n: int, what: str) -> int | None:
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < n:
        raise StateError(f"{what} must be a seat 0..{n - 1} or null, not {v!r}", field=what)
    return v


def from_dict(cls: type[Game], d: dict[str, Any]) -> Game:
    """Build a ``Game`` from ``d`` (see docs/conex-state.md). Raises ``StateError`` on anything inconsistent."""
    if not isinstance(d, dict):
        raise StateError("a CONEX state must be a JSON object")
    if d.get("version") != VERSION:
        raise StateError(f"unknown CONEX state version {d.get('version')!r} (expected {VERSION})")
    if d.get("game", "conex") != "conex":
        raise StateError(f"not a CONEX state: game = {d.get('game')!r}")
    n = _int(d, "players", 2, 4)
    try:
        g = cls(n, _int(d, "seed", -(2**63), 2**63), d.get("table_size", "medium"), _int(d, "goal", 20, 100, 40))
    except InvalidInputError as exc:
        raise StateError(exc.message) from exc

    def ids(v: Any, what: str) -> list[int]:
        if not isinstance(v, list) or any(isinstance(i, bool) or not isinstance(i, int) for i in v):
            raise StateError(f"{what} must be a list of card ids", field=what)
        bad = [i for i in v if not 1 <= i <= DECK_SIZE]
        if bad:
            raise StateError(f"{what} holds unknown card ids {bad}", field=what)
        return list(v)

    hands = d.get("hands")
    if not isinstance(hands, list) or len(hands) != n:
        raise StateError(f"hands must be a list of {n} lists", field="hands")
    g.hands = [ids(h, f"hands[{p}]") for p, h in enumerate(hands)]
    g.pile = ids(d.get("draw_pile"), "draw_pile")
    table = d.get("table")
    if not isinstance(table, list):
        raise StateError("table must be a list", field="table")
    table_ids = ids([t.get("card") if isinstance(t, dict) else None for t in table], "table")
    everything = [i for h in g.hands for i in h] + g.pile + table_ids
    if sorted(everything) != list(range(1, DECK_SIZE + 1)):
        seen: set[int] = set()
        dup = sorted({i for i in everything if i in seen or seen.add(i)})  # type: ignore[func-returns-value]
        missing = sorted(set(range(1, DECK_SIZE + 1)) - set(everything))
        raise StateError(
            f"card conservation broken: duplicated {dup}, missing {missing} "
            "(hands + pile + table must hold 1..52 once)",
            duplicated=dup,
            missing=missing,
        )
    for k, t in enumerate(table):
        card = g.deck[t["card"]]
        x = _float(t.get("x_mm"), f"table[{k}].x_mm")
        y = _float(t.get("y_mm"), f"table[{k}].y_mm")
        rot = normalize_angle(_float(t.get("rotation", 0.0), f"table[{k}].rotation"))
        placed_by = _seat_or_none(t.get("placed_by", 0), n, f"table[{k}].placed_by")
        corner = t.get("corner", 1)
        if corner not in [c.index for c in card.corners]:
            raise StateError(f"table[{k}].corner {corner!r} is not a corner of card {card.id}")
        target = t.get("target", "board")
        if target != "board" and (target not in table_ids[:k]):
            raise StateError(f"table[{k}].target must be 'board' or an earlier table card, not {target!r}")
        points = t.get("points", 0)
        if isinstance(points, bool) or not isinstance(points, int) or points < 0:
            raise StateError(f"table[{k}].points must be a whole number >= 0")
        posed = posed_card(card, x, y, rot)
        g.board.add(TableCard(card, (x, y, rot), placed_by or 0, points, corner, target, posed.rect, posed.corners))
    scores = d.get("scores", [0] * n)
    if (
        not isinstance(scores, list)
        or len(scores) != n
        or any(isinstance(s, bool) or not isinstance(s, int) or s < 0 for s in scores)
    ):
        raise StateError(f"scores must be {n} whole numbers >= 0", field="scores")
    g.scores = list(scores)
    g.current_player = _int(d, "current_player", 0, n - 1, 0)
    g.turn = _int(d, "turn", 0, 10**9, 0)
    stars = d.get("stars", {})
    if not isinstance(stars, dict) or set(stars) - {"2x", "lightning"}:
        raise StateError("stars must map '2x' and 'lightning' to {holder, since_turn}", field="stars")
    for s, v in stars.items():
        if not isinstance(v, dict):
            raise StateError(f"stars.{s} must be an object", field="stars")
        g.star_holder[s] = _seat_or_none(v.get("holder"), n, f"stars.{s}.holder")
        since = v.get("since_turn")
        if g.star_holder[s] is None:
            g.star_since[s] = None
        else:
            if since is None:
                since = max(g.turn - 1, -1)
            if isinstance(since, bool) or not isinstance(since, int) or not -1 <= since <= g.turn:
                raise StateError(f"stars.{s}.since_turn must be -1..turn, not {since!r}", field="stars")
            g.star_since[s] = since
    pending = d.get("pending_discards", [])
    if not isinstance(pending, list) or any(_seat_or_none(p, n, "pending_discards") is None for p in pending):
        raise StateError("pending_discards must be a list of seats", field="pending_discards")
    g.pending_discards = set(pending)
    g.passes = _int(d, "passes", 0, n, 0)
    g.goal_reached = bool(d.get("goal_reached", any(s >= g.goal for s in g.scores)))
    g.is_over = bool(d.get("is_over", False))
    g.end_reason = d.get("end_reason")
    g.rolls = _int(d, "rolls", 0, 10**9, 0)
    window = d.get("window")
    if window is not None:
        if not isinstance(window, list) or len(window) != 2:
            raise StateError("window must be [seat, turn] or null", field="window")
        seat = _seat_or_none(window[0], n, "window[0]")
        wt = window[1]
        if seat is None or isinstance(wt, bool) or not isinstance(wt, int) or not 0 <= wt < max(g.turn, 1):
            raise StateError("window must be [seat, turn] with turn < the current turn", field="window")
        g.window = (seat, wt)
    history = d.get("history", [])
    if not isinstance(history, list) or any(
        not isinstance(h, list | tuple) or len(h) != 2 or not isinstance(h[1], str) for h in history
    ):
        raise StateError("history must be a list of [seat, action text]", field="history")
    g.history = [(int(p), t) for p, t in history]
    return g
