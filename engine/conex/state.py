"""Serialising a CONEX :class:`~engine.conex.position.Position`: ``to_dict`` (version 2), ``from_dict`` (version 2,
and version 1 migrated) and ``view_for`` (hidden information stripped). The format is documented in
docs/conex-state.md. Functions over a ``Position`` (the game's class is passed in): this module does not import
``engine.conex.game``."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar

from engine.conex.actions import Draw, GameAction, Pass, Place, parse_action
from engine.conex.deck import DECK_SIZE
from engine.conex.geometry import normalize_angle, posed_card
from engine.conex.position import (
    END_REASONS,
    REASON_ALL_PASSED,
    REASON_EMPTY,
    REASON_FORFEIT,
    REASON_GOAL,
    Position,
)
from engine.conex.table import TableCard
from engine.errors import InvalidInputError, RuleError, StateError
from engine.protocol import Forfeit

P = TypeVar("P", bound=Position)
Apply = Callable[[P, GameAction], object]
"""How the caller applies one action to a position (``Game.apply``); used to replay a version-1 history."""

VERSION = 2

_REPLAY_KEYS = (
    "hands",
    "draw_pile",
    "table",
    "scores",
    "stars",
    "pending_discards",
    "goal_reached",
    "rolls",
    "forfeited",
    "end_reason",
)
_RUNNING_KEYS = ("current_player", "turn", "passes", "window")


def to_dict(g: Position) -> dict[str, Any]:
    """Full state, JSON-ready (ints, floats, strings, lists, dicts, None)."""
    outcome = g.outcome
    return {
        "version": VERSION,
        "game": "conex",
        "setup": g.setup,
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
        "rolls": g.rolls,
        "window": list(g.window) if g.window is not None else None,
        "forfeited": sorted(g.forfeited),
        "timeouts": list(g.timeouts),
        "end_reason": g.end_reason,
        "outcome": outcome.to_dict() if outcome is not None else None,
        "history": [[p, t] for p, t in g.history],
    }


def view_for(g: Position, seat: int | None) -> dict[str, Any]:
    """``to_dict`` as ``seat`` (``None``: a spectator) may see it: no seed (it would reveal the pile), the pile as
    a count, other hands as ``None`` with ``hand_counts``, others' discards masked as ``"discard ?"``."""
    viewer = None if seat is None else g.seat(seat)
    d = to_dict(g)
    d["setup"] = {k: v for k, v in d["setup"].items() if k != "seed"}
    d["draw_pile"] = len(g.pile)
    d["hand_counts"] = [len(h) for h in g.hands]
    d["hands"] = [list(h) if p == viewer else None for p, h in enumerate(g.hands)]
    d["history"] = [[p, t if p == viewer or not t.startswith("discard") else "discard ?"] for p, t in g.history]
    d["viewer"] = viewer
    return d


def _int(d: dict[str, Any], key: str, lo: int, hi: int, default: Any = ...) -> int:
    if key not in d:
        if default is ...:
            raise StateError(f"missing field {key!r}", field=key)
        return int(default)
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


def _seats(v: Any, n: int, what: str) -> set[int]:
    if not isinstance(v, list) or any(_seat_or_none(p, n, what) is None for p in v):
        raise StateError(f"{what} must be a list of seats", field=what)
    return set(v)


def from_dict(cls: type[P], d: dict[str, Any], apply: Apply[P]) -> P:
    """Build a ``cls`` (a ``Position`` class, e.g. ``Game``) from ``d`` (docs/conex-state.md); ``apply`` replays a
    version-1 history. Raises ``StateError`` on anything inconsistent."""
    if not isinstance(d, dict):
        raise StateError("a CONEX state must be a JSON object")
    if d.get("game", "conex") != "conex":
        raise StateError(f"not a CONEX state: game = {d.get('game')!r}")
    if d.get("version") == 1:
        return _from_v1(cls, d, apply)
    if d.get("version") != VERSION:
        raise StateError(f"unknown CONEX state version {d.get('version')!r} (this engine reads 1 and {VERSION})")
    setup = d.get("setup")
    if not isinstance(setup, dict):
        raise StateError("setup must be an object", field="setup")
    g = _new(cls, setup, deal=False)
    n = g.players
    _load_position(g, d)
    g.forfeited = _seats(d.get("forfeited", []), n, "forfeited")
    timeouts = d.get("timeouts", [0] * n)
    if (
        not isinstance(timeouts, list)
        or len(timeouts) != n
        or any(isinstance(t, bool) or not isinstance(t, int) or not 0 <= t <= g.timeout_forfeit for t in timeouts)
    ):
        raise StateError(f"timeouts must be {n} whole numbers 0..{g.timeout_forfeit}", field="timeouts")
    g.timeouts = list(timeouts)
    reason = d.get("end_reason")
    if reason is not None and reason not in END_REASONS:
        raise StateError(
            f"end_reason must be one of {', '.join(END_REASONS)} or null, not {reason!r}", field="end_reason"
        )
    g.end_reason = reason
    current = d.get("current_player")
    if g.is_over:
        if current is not None:
            raise StateError("current_player must be null once the game is over", field="current_player")
    else:
        to_play = _seat_or_none(current, n, "current_player")
        if to_play is None or to_play in g.forfeited:
            raise StateError("current_player must be a seat still in play while the game runs", field="current_player")
        g.to_play = to_play
    if g.forfeited & (g.pending_discards | {s for s in g.star_holder.values() if s is not None}) or any(
        g.hands[s] or g.scores[s] for s in g.forfeited
    ):
        raise StateError("a forfeited seat holds cards, points, a star or a pending discard", field="forfeited")
    g.history = _history(d.get("history", []))
    stored = d.get("outcome")
    if stored is not None or "outcome" in d:
        mine = g.outcome
        if stored != (mine.to_dict() if mine is not None else None):
            raise StateError(f"stored outcome {stored!r} disagrees with the state", field="outcome")
    return g


def _new(cls: type[P], setup: dict[str, Any], *, deal: bool) -> P:
    try:
        g = cls.new(setup)
    except InvalidInputError as exc:
        raise StateError(f"bad setup: {exc.message}", field="setup") from exc
    if not deal:
        g.hands = [[] for _ in range(g.players)]
        g.pile = []
    return g


def _history(history: Any) -> list[tuple[int, str]]:
    if not isinstance(history, list) or any(
        not isinstance(h, list | tuple)
        or len(h) != 2
        or isinstance(h[0], bool)
        or not isinstance(h[0], int)
        or not isinstance(h[1], str)
        for h in history
    ):
        raise StateError("history must be a list of [seat, action text]", field="history")
    return [(int(p), t) for p, t in history]


def _load_position(g: Position, d: dict[str, Any]) -> None:
    """Hands, pile, table, scores, turn, stars, pending discards, passes, goal, rolls and window (both versions)."""
    n = g.players

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
    g.pending_discards = _seats(d.get("pending_discards", []), n, "pending_discards")
    g.passes = _int(d, "passes", 0, n, 0)
    g.goal_reached = bool(d.get("goal_reached", any(s >= g.goal for s in g.scores)))
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


# --- version 1 (the bot before the game protocol) ---------------------------------------------------------------


def _v1_reason(text: Any) -> str | None:
    """The end-reason code of a version-1 English ``end_reason``."""
    if text is None:
        return None
    t = str(text)
    if "passed" in t:
        return REASON_ALL_PASSED
    if "empty" in t:
        return REASON_EMPTY
    if "forfeit" in t:
        return REASON_FORFEIT
    if "(E1)" in t or "goal" in t:
        return REASON_GOAL
    raise StateError(f"unknown version-1 end_reason {text!r}", field="end_reason")


def _from_v1(cls: type[P], d: dict[str, Any], apply: Apply[P]) -> P:
    """Version 1: the setup was flat (``seed``, ``players``, ``table_size``, ``goal``), forfeits lived in the bot
    (pass them as ``"forfeited"``, and the AI seats as ``"bots"``), ``end_reason`` was English and the history
    had no forfeits. The history is rebuilt by replaying it with each forfeit inserted where the seat's turn was
    first skipped (or at the end); when that replay reproduces the stored position, it is the game; otherwise the
    stored position is loaded with the rebuilt history kept as its record."""
    n = _int(d, "players", 2, 4)
    setup = {
        "players": n,
        "seed": d.get("seed"),
        "table": d.get("table_size", "medium"),
        "goal": _int(d, "goal", 20, 100, 40),
        "bots": d.get("bots", []),
    }
    snap = _new(cls, setup, deal=False)
    _load_position(snap, d)
    snap.forfeited = _seats(d.get("forfeited", []), n, "forfeited")
    snap.end_reason = _v1_reason(d.get("end_reason")) if d.get("is_over") else None
    if not snap.is_over:
        to_play = _int(d, "current_player", 0, n - 1, 0)
        snap.to_play = to_play
    snap.history = _history(d.get("history", []))
    replayed = _v1_replay(cls, setup, snap.history, snap.forfeited, apply)
    if replayed is not None and _same_position(replayed, snap):
        return replayed
    if replayed is not None:
        snap.history = list(replayed.history)
    return snap


def _v1_replay(
    cls: type[P], setup: dict[str, Any], history: list[tuple[int, str]], forfeited: set[int], apply: Apply[P]
) -> P | None:
    """Replay a version-1 history, inserting each forfeit just before the first main action that skips the
    seat's turn, the rest at the end. ``None`` if the history does not replay."""
    g = cls.new(setup)
    waiting = set(forfeited)
    try:
        for seat, text in history:
            action = parse_action(text, seat)
            while (
                isinstance(action, Place | Draw | Pass) and not g.is_over and g.to_play != seat and g.to_play in waiting
            ):
                waiting.discard(g.to_play)
                apply(g, Forfeit(g.to_play))
            apply(g, action)
        for s in sorted(waiting):
            if not g.is_over:
                apply(g, Forfeit(s))
    except RuleError:
        return None
    return g


def _same_position(a: Position, b: Position) -> bool:
    da, db = to_dict(a), to_dict(b)
    keys = _REPLAY_KEYS + (() if a.is_over and b.is_over else _RUNNING_KEYS)
    return all(da[k] == db[k] for k in keys)
