"""What each CONEX action does to a :class:`~engine.conex.position.Position` once ``Game.check`` accepted it
(docs/rules/conex.md sections 4, 6-8), plus forfeits, timeouts, the end of a turn and the outcome (E3). Called only
by ``Game.apply``; every function appends its typed events (``engine/conex/events.py``) to ``events``.

Randomness (all derived from the setup's seed, so a game replays exactly; see ``engine/conex/fair.py``): die roll
*n* (0-based) uses ``random.Random(f"conex-die:{seed}:{n}")``; a timed-out discard uses
``random.Random(f"conex-discard:{seed}:{len(history)}")`` over the sorted hand.
"""

from __future__ import annotations

import random

from engine.conex.actions import Lightning, Place
from engine.conex.events import (
    CardRemoved,
    DieRolled,
    Discarded,
    DiscardsPending,
    Drew,
    Forfeited,
    GoalReached,
    Passed,
    Placed,
    StarTaken,
    StarUsed,
    TimedOut,
    TurnSkipped,
)
from engine.conex.geometry import centre_for_corner, posed_card
from engine.conex.position import (
    DIE_FACES,
    END_REASONS,
    REASON_ALL_PASSED,
    REASON_EMPTY,
    REASON_FORFEIT,
    REASON_GOAL,
    Position,
)
from engine.conex.table import TableCard, Verdict
from engine.protocol import Event, GameOver, Outcome, TurnStarted


def points(g: Position, place: Place, verdict: Verdict) -> int:
    """V1 corner value, +2 on a +2 card (V2), doubled with the 2x star (V3)."""
    pts = g.deck[place.card].corner(place.corner).value  # V1
    if verdict.target_card is not None and verdict.target_card.action == "plus2":
        pts += 2  # V2
    return pts * 2 if place.double else pts  # V3


def place(g: Position, action: Place, verdict: Verdict, events: list[Event]) -> None:
    """A1: lay the card, score it (V1-V3), roll after a die card (X1), note the goal (E1), end the turn."""
    card = g.deck[action.card]
    assert action.rotation is not None
    pts = points(g, action, verdict)
    cx, cy = centre_for_corner(card.corner(action.corner), action.x_mm, action.y_mm, action.rotation)
    posed = posed_card(card, cx, cy, action.rotation)
    g.board.add(
        TableCard(
            card,
            (cx, cy, action.rotation),
            action.player,
            pts,
            action.corner,
            verdict.target,
            posed.rect,
            posed.corners,
        )
    )
    g.hands[action.player].remove(card.id)
    g.scores[action.player] += pts
    g.passes = 0
    events.append(
        Placed(action.player, card.id, action.corner, verdict.target, pts, action.double, (cx, cy, action.rotation))
    )
    if action.double:
        g.star_holder["2x"] = g.star_since["2x"] = None
        events.append(StarUsed("2x", action.player))
    if card.action == "die":
        _roll(g, action.player, events)
    if not g.goal_reached and g.scores[action.player] >= g.goal:
        g.goal_reached = True
        events.append(GoalReached(action.player, g.scores[action.player]))
    end_turn(g, events)


def _roll(g: Position, player: int, events: list[Event]) -> None:
    """X1: roll the seeded die; draw, or take a star. Re-rolling a star the player already holds changes nothing
    (X2's "won this turn" clock keeps running from when it was first taken)."""
    rng = random.Random(f"conex-die:{g.seed}:{g.rolls}")
    g.rolls += 1
    face = DIE_FACES[rng.randrange(len(DIE_FACES))]
    events.append(DieRolled(player, face))
    if face in ("card", "two cards"):
        _draw(g, player, 1 if face == "card" else 2, events)
        return
    prev = g.star_holder[face]
    if prev != player:
        g.star_holder[face] = player
        g.star_since[face] = g.turn
    events.append(StarTaken(face, player, prev))


def _draw(g: Position, player: int, n: int, events: list[Event]) -> None:
    got = g.pile[:n]
    del g.pile[:n]
    g.hands[player].extend(got)
    events.append(Drew(player, len(got), tuple(got)))


def draw_turn(g: Position, player: int, events: list[Event]) -> None:
    """A2: draw two cards (one if only one is left), end the turn."""
    g.passes = 0
    _draw(g, player, 2, events)
    end_turn(g, events)


def pass_turn(g: Position, player: int, events: list[Event]) -> None:
    """A3: pass, end the turn."""
    g.passes += 1
    events.append(Passed(player))
    end_turn(g, events)


def lightning(g: Position, action: Lightning, events: list[Event]) -> None:
    """X3: the free card goes to the bottom of the pile, the star to the supply; every other seat in play holding
    cards owes a discard. The turn does not end (lightning is used at its start or end)."""
    removed = g.board.get(action.card)
    g.board.remove(action.card)
    g.pile.append(removed.id)
    g.star_holder["lightning"] = g.star_since["lightning"] = None
    g.window = None
    events.append(StarUsed("lightning", action.player))
    events.append(CardRemoved(action.player, removed.id, removed.pose, removed.placed_by))
    pending = {q for q in g.in_play if q != action.player and g.hands[q]}
    g.pending_discards |= pending
    if pending:
        events.append(DiscardsPending(tuple(sorted(pending))))


def discard(g: Position, player: int, card: int, events: list[Event], *, at_random: bool = False) -> None:
    """X3: ``card`` from ``player``'s hand to the bottom of the pile; the discard is made."""
    g.hands[player].remove(card)
    g.pile.append(card)
    g.pending_discards.discard(player)
    events.append(Discarded(player, card, at_random))


def forfeit(g: Position, seat: int, events: list[Event], *, by_timeout: bool = False) -> None:
    """The seat leaves: hand to the bottom of the pile, stars to the supply, pending discard dropped, score 0,
    ranked last. The game ends at once when fewer than two seats, or only ``bots`` seats, remain in play;
    otherwise, if it was the seat's turn, that turn is skipped (a pass for E2)."""
    held = tuple(s for s in sorted(g.star_holder) if g.star_holder[s] == seat)
    events.append(Forfeited(seat, len(g.hands[seat]), g.scores[seat], held, by_timeout))
    for star in held:
        g.star_holder[star] = g.star_since[star] = None
    g.pile.extend(g.hands[seat])
    g.hands[seat] = []
    g.pending_discards.discard(seat)
    g.scores[seat] = 0
    g.forfeited.add(seat)
    if g.window is not None and g.window[0] == seat:
        g.window = None
    left = g.in_play
    if len(left) < 2 or all(s in g.bots for s in left):
        _finish(g, REASON_FORFEIT, events)
    elif seat == g.to_play:
        events.append(TurnSkipped(seat, "forfeit"))
        g.passes += 1
        _advance(g, events)


def timeout(g: Position, seat: int, events: list[Event]) -> None:
    """The seat (awaited) ran out of time: the ``timeout_forfeit``-th consecutive timeout forfeits it; else its
    owed X3 discard is made at random (seeded), else its turn is skipped (a draw, or a pass on an empty pile)."""
    count = g.timeouts[seat] + 1
    g.timeouts[seat] = count
    what = "discard" if seat in g.pending_discards else "turn"
    events.append(TimedOut(seat, what, count, g.timeout_forfeit))
    if count >= g.timeout_forfeit:
        forfeit(g, seat, events, by_timeout=True)
    elif what == "discard":
        hand = sorted(g.hands[seat])
        rng = random.Random(f"conex-discard:{g.seed}:{len(g.history)}")
        discard(g, seat, hand[rng.randrange(len(hand))], events, at_random=True)
    elif g.pile:
        draw_turn(g, seat, events)
    else:
        pass_turn(g, seat, events)


def end_turn(g: Position, events: list[Event]) -> None:
    """The seat to play finished its turn: it may still use lightning until the next seat acts (X3 window)."""
    g.window = (g.to_play, g.turn)
    _advance(g, events)


def _advance(g: Position, events: list[Event]) -> None:
    """Turn to the next seat, skipping forfeited seats (each skip a pass for E2), ending the game when E1/E2 say
    so. A skipped seat never acts, so it leaves the X3 window of the seat that really finished open."""
    window = g.window
    while True:
        g.to_play = (g.to_play + 1) % g.players
        g.turn += 1
        reason = _end_reason(g)
        if reason is not None:
            _finish(g, reason, events)
            return
        if g.to_play not in g.forfeited:
            break
        events.append(TurnSkipped(g.to_play, "forfeit"))
        g.passes += 1
    g.window = window if window is not None and window[0] not in g.forfeited else None
    events.append(TurnStarted(g.to_play))


def _end_reason(g: Position) -> str | None:
    if g.passes >= g.players:
        return REASON_ALL_PASSED
    if not g.pile and not any(g.hands):
        return REASON_EMPTY
    if g.goal_reached and g.to_play == 0:
        return REASON_GOAL
    return None


def _finish(g: Position, reason: str, events: list[Event]) -> None:
    g.end_reason = reason
    g.window = None
    g.pending_discards.clear()
    outcome = outcome_of(g)
    events.append(GameOver(outcome))


def standings(g: Position) -> tuple[tuple[int, ...], ...]:
    """E3 ranking groups now (``Position.standings``)."""
    return g.standings()


def outcome_of(g: Position) -> Outcome:
    """E3 ranking of a finished game (``Position.outcome``)."""
    outcome = g.outcome
    assert outcome is not None
    return outcome


__all__ = [
    "END_REASONS",
    "REASON_ALL_PASSED",
    "REASON_EMPTY",
    "REASON_FORFEIT",
    "REASON_GOAL",
    "discard",
    "draw_turn",
    "end_turn",
    "forfeit",
    "lightning",
    "outcome_of",
    "pass_turn",
    "place",
    "points",
    "standings",
    "timeout",
]
