"""The hard CONEX AI's sampled look-ahead (``engine/conex/ai_rollout.py``, issue 25): deals drawn only from the unseen
cards, deterministic for a seed, legal actions, and the work bound (finder calls, never the clock)."""

from __future__ import annotations

import random

from engine.conex import Draw, Game, Lightning, Place, ai_rollout
from engine.conex.ai import first_fit
from engine.conex.ai_endgame import WIN_SCALE
from engine.conex.ai_levels import LEVEL_CALLS, decide_level
from engine.conex.ai_model import DECK, DEFAULT_WEIGHTS, Context, sim_from_view
from engine.conex.ai_rollout import (
    PLAYOUT_CALLS,
    Option,
    deal,
    greedy_reply,
    playout_mode,
    rollout_values,
)


def midgame(seed: int, moves: int = 20) -> Game:
    game = Game.new(players=3, seed=seed, table="medium", goal=40)
    for _ in range(moves):
        game.play(first_fit(game, game.current_player))
    return game


def context(game: Game, calls: int = 120) -> tuple[Context, Game]:
    me = game.current_player
    view = game.view_for(me)
    hand = list(view["hands"][me])
    on_table = {t["card"] for t in view["table"]}
    unseen = [i for i in sorted(DECK) if i not in on_table and i not in hand]
    ctx = Context(
        me=me,
        players=3,
        goal=40,
        scores=list(view["scores"]),
        hand=hand,
        hand_counts=list(view["hand_counts"]),
        unseen=unseen,
        pile=view["draw_pile"],
        goal_reached=False,
        stars={s: v["holder"] for s, v in view["stars"].items()},
        star_usable_2x=False,
        w=DEFAULT_WEIGHTS,
        rng=random.Random("t"),
        deadline=float("inf"),
        max_calls=0,
        roll_limit=calls,
    )
    return ctx, sim_from_view(game, view, me, [])


def test_deals_come_from_the_unseen_cards_only_with_the_known_hand_sizes() -> None:
    game = midgame(4)
    ctx, sim = context(game)
    me = ctx.me
    for k in range(5):
        g = deal(sim, ctx, random.Random(k))
        assert g.hands[me] == game.hands[me]
        dealt = [c for s in range(3) if s != me for c in g.hands[s]]
        assert sorted(dealt + g.pile) == sorted(ctx.unseen)
        for s in range(3):
            assert len(g.hands[s]) == len(game.hands[s])
        assert g.board is not game.board


def test_greedy_reply_is_legal_and_counts_its_calls() -> None:
    game = midgame(6)
    ctx, sim = context(game)
    g = deal(sim, ctx, random.Random(1))
    g.play(Draw(ctx.me))
    p = g.current_player
    before = ctx.calls
    action = greedy_reply(g, p, ctx)
    g.check(action)
    assert 0 < ctx.calls - before


def test_before_the_playouts_margin_no_option_is_rolled_out_and_no_call_is_spent() -> None:
    """Early in a game the one-ply estimate stands (``roll_budget`` 0): every option is ``None``, no finder call."""
    game = midgame(7, moves=4)
    me = game.current_player
    place = next(p for c in game.hands[me] for p in game.find_placements(me, c, limit=1))
    options = [Option(place, 3.0, 3.0, game.points_for(place)), Option(Draw(me), 0.6, 0.6, 0)]
    ctx, sim = context(game, calls=120)
    assert not playout_mode(ctx) and ai_rollout.roll_budget(ctx) == 0
    before = ctx.calls
    assert rollout_values(sim, ctx, options) == [None, None]
    assert ctx.calls == before


def test_hard_with_rollouts_is_deterministic_legal_and_within_its_budget() -> None:
    for seed in range(3):
        game = midgame(seed, moves=12 + 4 * seed)
        me = game.current_player
        d = decide_level(game, me, "hard", seed=5)
        game.check(d.action)
        assert d.calls <= LEVEL_CALLS["hard"]
        again = decide_level(game.copy(), me, "hard", seed=5)
        assert again.action == d.action and again.calls == d.calls and again.value == d.value
        assert isinstance(d.action, (Place, Draw, Lightning))


def test_playouts_value_options_by_won_playouts_within_their_budget() -> None:
    """Near the end (``PLAYOUT_MARGIN``) each option is played out to the game's end on the same deals: the values
    are ``WIN_SCALE`` x (share of won playouts + a small margin term), deterministic, and the calls stay within
    ``PLAYOUT_CALLS``; a budget too small for the first option compares nothing."""
    game = Game.new(players=3, seed=2, table="medium", goal=20)
    while max(game.scores) < 12:
        game.play(first_fit(game, game.current_player))
    me = game.current_player
    place = next(p for c in game.hands[me] for p in game.find_placements(me, c, limit=1))
    options = [Option(place, 3.0, 3.0, game.points_for(place)), Option(Draw(me), 0.6, 0.6, 0)]
    ctx, sim = context(game, calls=PLAYOUT_CALLS)
    ctx.goal = 20
    assert playout_mode(ctx)
    first = rollout_values(sim, ctx, options)
    assert ctx.calls <= PLAYOUT_CALLS
    for v in first:
        assert v is not None and -WIN_SCALE <= v <= 2 * WIN_SCALE
    ctx2, sim2 = context(game, calls=PLAYOUT_CALLS)
    ctx2.goal = 20
    assert rollout_values(sim2, ctx2, options) == first
    ctx3, sim3 = context(game, calls=3)
    ctx3.goal = 20
    assert rollout_values(sim3, ctx3, options) == [None, None]
