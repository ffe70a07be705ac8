"""The CONEX AI seats' action at their level (``engine.conex.ai_levels``: easy, medium, hard), with a fallback so a
table never hangs on its AI seat."""

from __future__ import annotations

import logging

from engine.conex import AnyAction, Discard, Draw, Game, Pass, Place
from engine.conex.ai_levels import DEFAULT_LEVEL, LEVELS, decide_level

log = logging.getLogger(__name__)

AI_BUDGET_S = 30.0
"""The wall-clock safety cap handed to ``engine.conex.ai_levels.decide_level``: a guard against a runaway search
only. Each level's search is bounded by its finder calls (``LEVEL_CALLS``; medium's 100: p99 ~0.4 s, max ~0.8 s of
CPU here), so the cap is never what ends it and a busy machine gets the same action as an idle one (a 1-s cap did
end searches once the machine was loaded)."""


def ai_action(game: Game, seat: int, level: str, seed: int) -> str:
    """The layer's AI function: :func:`choose_ai_action` at the seat's ``level`` as action text (CPU work: runs in
    a worker)."""
    return str(choose_ai_action(game, seat, seed, level=level))


def choose_ai_action(
    game: Game, seat: int, seed: int, budget_s: float = AI_BUDGET_S, *, level: str = DEFAULT_LEVEL
) -> AnyAction:
    """The AI seat's action at ``level`` (an unknown level plays medium): ``engine.conex.ai_levels.decide_level``
    (CPU work: call in a worker thread). Should it raise, or return an action ``game.check`` refuses (a bug), the
    seat plays :func:`fallback_action` and the failure is logged, so a table never hangs on its AI seat."""
    try:
        action = decide_level(game, seat, level if level in LEVELS else DEFAULT_LEVEL, seed, budget_s).action
        game.check(action)
        return action
    except Exception:
        log.exception("the CONEX AI failed for seat %s; using the fallback player", seat)
    return fallback_action(game, seat)


def fallback_action(game: Game, seat: int) -> AnyAction:
    """The simple AI of :func:`choose_ai_action` (discard, best placement, draw or pass)."""
    if seat in game.pending_discards and game.hands[seat]:
        worst = min(game.hands[seat], key=lambda cid: (max(c.value for c in game.deck[cid].corners), cid))
        return Discard(seat, worst)
    best: tuple[int, Place] | None = None
    for cid in game.hands[seat]:
        for place in game.find_placements(seat, cid, limit=2):
            pts = game.points_for(place)
            if best is None or pts > best[0]:
                best = (pts, place)
    if best is not None:
        return best[1]
    return Draw(seat) if game.draw_pile else Pass(seat)
