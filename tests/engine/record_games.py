"""Finished games for the record and replay tests: real engine games with the rare paths in them (Constructo:
both rounds with a layout choice, resignation, timeout; CONEX: lightning, discards, timeouts, a forfeit)."""

from __future__ import annotations

import random
from typing import Any

from engine.conex import Discard, Forfeit, Game, Lightning, Timeout
from engine.conex.ai import first_fit
from engine.constructo import LAYOUTS, ChooseLayout, Match
from engine.constructo import Forfeit as Resign
from engine.constructo import Timeout as ConstructoTimeout

NAMES = ("Alice", "Bob", "Carol", "Dave")


def constructo_match(
    seed: int = 1, *, end: str = "M2", layout: str = "rombo", second: str | None = "flor", first: int = 0
) -> Match:
    """A random match played to its end. ``end``: ``"M2"`` (both rounds), ``"M3"`` (seat 1 resigns during round
    2, or round 1 when ``second`` is None), ``"timeout"`` (the player to move runs out of time in the last round
    played). ``second``: round 2's layout (a name, or a coordinates text), None = keep round 1's."""
    rng = random.Random(seed)
    m = Match.new({"layout": layout, "first": first})
    stop_round = 2 if second is not None or end == "M2" else 1
    while not m.is_over:
        seat = m.current_player
        assert seat is not None
        if m.phase == "choosing_layout":
            if end != "M2" and stop_round == 1:
                m.apply(Resign(1) if end == "M3" else ConstructoTimeout(seat))
                break
            m.apply(
                ChooseLayout(
                    seat,
                    LAYOUTS[second] if second in LAYOUTS else m.parse_action(f"layout {second or 'keep'}", seat).layout,
                )
            )
            continue
        if end != "M2" and m.round_no == stop_round and len(m.current_round.history) >= 6:
            m.apply(Resign(1) if end == "M3" else ConstructoTimeout(seat))
            break
        m.apply(rng.choice(m.legal_actions(seat)))
    assert m.is_over
    return m


def conex_game(
    players: int = 3,
    seed: int = 5,
    *,
    goal: int = 40,
    table: str = "medium",
    forfeit_at: int | None = 25,
    timeouts: float = 0.04,
    max_actions: int = 600,
) -> Game:
    """A CONEX game played to its end: first_fit placements, lightning whenever usable (on a random free card),
    random discards, a ``Timeout`` of the awaited seat now and then (``timeouts`` per action), and seat
    ``players - 1`` forfeiting at action ``forfeit_at`` (None: nobody leaves)."""
    rng = random.Random(seed)
    g = Game.new(players=players, seed=seed * 7919 + players, goal=goal, table=table)
    while not g.is_over and len(g.history) < max_actions:
        act: Any
        if forfeit_at is not None and len(g.history) == forfeit_at and players - 1 in g.in_play:
            act = Forfeit(players - 1)
        elif rng.random() < timeouts:
            act = Timeout(rng.choice(g.awaiting()))
        elif g.pending_discards:
            seat = min(g.pending_discards)
            act = Discard(seat, rng.choice(g.hands[seat]))
        elif g.can_lightning(g.to_play) and g.board.free_ids():
            act = Lightning(g.to_play, rng.choice(g.board.free_ids()))
        else:
            act = first_fit(g, g.to_play)
        g.apply(act)
    assert g.is_over, "game did not end"
    return g
