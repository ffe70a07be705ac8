"""Replay properties (issue 11 evidence): in random games with random forfeits, timeouts and (Constructo) layout
choices and resignations, the history replays to the very same state after every action and at the end.

"After every action" is checked with a replica built from the setup that applies each new history entry from its
text: it equals ``replay(setup, history[:k])`` for every k (replay is exactly that fold) at linear cost."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.conex import Discard, Draw, Forfeit, Game, Lightning, Pass, Timeout
from engine.conex.ai import first_fit
from engine.constructo import LAYOUTS, ChooseLayout, Match


def follow(replica, state) -> None:  # type: ignore[no-untyped-def]
    """Apply the state's newest history entry to the replica (from its text) and compare the full states."""
    seat, text = state.history[len(replica.history)]
    replica.apply(replica.parse_action(text, seat))
    assert replica.history == state.history
    assert replica.to_dict() == state.to_dict()


def conex_step(g: Game, rng: random.Random) -> object:
    """One random action: a forfeit or a timeout now and then, else discards, lightning, a placement, a draw."""
    roll = rng.random()
    if roll < 0.03 and len(g.in_play) > 1:
        return Forfeit(rng.choice(g.in_play))
    if roll < 0.10:
        return Timeout(rng.choice(g.awaiting()))
    owing = sorted(g.pending_discards)
    if owing:
        seat = rng.choice(owing)
        return Discard(seat, rng.choice(g.hands[seat]))
    p = g.to_play
    if g.can_lightning(p) and rng.random() < 0.5:
        free = g.board.free_ids()
        if free:
            return Lightning(p, rng.choice(free))
    if rng.random() < 0.8:
        return first_fit(g, p)
    return Draw(p) if g.pile else Pass(p)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**128 - 1),
    players=st.integers(2, 4),
    goal=st.sampled_from([20, 30]),
    table=st.sampled_from(["small", "medium"]),
    limit=st.integers(1, 3),
    bots=st.integers(0, 2),
)
def test_conex_replays_at_every_step_with_forfeits_and_timeouts(
    seed: int, players: int, goal: int, table: str, limit: int, bots: int
) -> None:
    setup = {
        "players": players,
        "seed": seed,
        "goal": goal,
        "table": table,
        "timeout_forfeit": limit,
        "bots": list(range(players - min(bots, players - 1), players)),
    }
    g = Game.new(setup)
    replica = Game.new(setup)
    rng = random.Random(seed)
    for _ in range(400):
        if g.is_over:
            break
        g.apply(conex_step(g, rng))  # type: ignore[arg-type]
        follow(replica, g)
    assert g.is_over
    outcome = g.outcome
    assert outcome is not None and outcome.forfeited == tuple(sorted(g.forfeited))
    in_play_places = [outcome.place_of(s) for s in g.in_play]
    assert all(outcome.place_of(s) > max(in_play_places) for s in g.forfeited)  # forfeited seats rank last
    assert Game.replay(g.setup, g.history).to_dict() == g.to_dict()
    assert Game.from_dict(g.to_dict()).to_dict() == g.to_dict()


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    first=st.integers(0, 1),
    layout=st.sampled_from(sorted(LAYOUTS)),
    leave=st.floats(0.0, 0.05),
)
def test_constructo_replays_at_every_step_with_resignations_timeouts_and_layout_choices(
    seed: int, first: int, layout: str, leave: float
) -> None:
    rng = random.Random(seed)
    setup = {"layout": layout, "first": first}
    m = Match.new(setup)
    replica = Match.new(setup)
    while not m.is_over:
        seat = m.current_player
        assert seat is not None
        roll = rng.random()
        if roll < leave:
            action: object = Forfeit(rng.randrange(2))
        elif roll < 2 * leave:
            action = Timeout(seat)
        elif m.phase == "choosing_layout":
            action = ChooseLayout(seat, LAYOUTS[rng.choice(sorted(LAYOUTS))])
        else:
            action = rng.choice(m.legal_actions(seat))
        m.apply(action)  # type: ignore[arg-type]
        follow(replica, m)
    assert m.outcome is not None and m.outcome.reason in ("M2", "M3", "timeout")
    assert Match.replay(m.setup, m.history).to_dict() == m.to_dict()
    assert Match.from_dict(m.to_dict()).to_dict() == m.to_dict()
