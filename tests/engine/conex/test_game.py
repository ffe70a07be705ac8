"""Set-up U1-U3, turns A2-A3, die X1, stars X2-X4, end E1-E3, views, serialisation and replay."""

from __future__ import annotations

import copy

import pytest

from engine.conex import DIE_FACES, Discard, Draw, Game, Lightning, Pass, Place, Timeout
from engine.conex.ai import first_fit
from engine.conex.events import (
    CardRemoved,
    DieRolled,
    Discarded,
    DiscardsPending,
    Drew,
    GoalReached,
    StarTaken,
    StarUsed,
)
from engine.errors import IllegalActionError, InvalidInputError, NotYourTurnError, StateError
from engine.protocol import GameOver
from tests.engine.conex.scenes import DECK, attach, find_card, find_corner, game, host_entry, state

F = (300.0, 0.0)


# --- U1-U3 -------------------------------------------------------------------------------------------------------


def test_u2_u3_new_game_deals_five_and_seeds_the_shuffle() -> None:
    g = Game.new(players=3, seed=11)
    assert [len(g.hand(p)) for p in range(3)] == [5, 5, 5]
    assert len(g.draw_pile) == 52 - 15
    assert sorted([c.id for p in range(3) for c in g.hand(p)] + [c.id for c in g.draw_pile]) == list(range(1, 53))
    assert g.stars == {"2x": None, "lightning": None}
    assert g.scores == [0, 0, 0] and g.current_player == 0 and g.goal == 40
    assert g.table_size_mm == (1000.0, 700.0)
    again = Game.new(players=3, seed=11)
    assert again.to_dict() == g.to_dict()
    assert Game.new(players=3, seed=12).hands != g.hands


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"players": 1}, "U1"),
        ({"players": 5}, "U1"),
        ({"goal": 19}, "U3"),
        ({"goal": 101}, "U3"),
        ({"table": "huge"}, "G2"),
        ({"seed": 1.5}, "seed"),
        ({"seed": 2**300}, "seed"),
        ({"bots": [0, 0]}, "bots"),
        ({"bots": [3]}, "bots"),
        ({"timeout_forfeit": 0}, "timeout_forfeit"),
        ({"colour": "red"}, "unknown"),
    ],
)
def test_bad_setup_is_refused(kwargs: dict, code: str) -> None:
    with pytest.raises(InvalidInputError, match=code):
        Game.new({"players": 3, "seed": 1, **kwargs})
    with pytest.raises(InvalidInputError, match="seed"):
        Game.new(players=3)


# --- A2, A3 and turn order ---------------------------------------------------------------------------------------


def test_a2_draw_two_then_one_then_refused() -> None:
    g = game([[1, *range(6, 53)], [2]], pile=[3, 4, 5], table=[], players=2)
    events = g.apply(Draw(0)).events
    assert g.hands[0][-2:] == [3, 4] and g.pile == [5] and g.current_player == 1
    assert events[0] == Drew(0, 2, (3, 4)) and events[0].owner() == 0 and events[0].redacted() == Drew(0, 2, None)
    g = game([[1, *range(6, 53)], [2, 3, 4]], pile=[5], players=2)
    g.play(Draw(0))
    assert g.pile == [] and 5 in g.hands[0]
    with pytest.raises(IllegalActionError) as exc:
        g.check(Draw(1))
    assert exc.value.rule == "A2"


def test_a3_pass_only_with_an_empty_pile() -> None:
    g = Game.new(players=2, seed=1)
    with pytest.raises(IllegalActionError) as exc:
        g.check(Pass(0))
    assert exc.value.rule == "A3"


def test_not_your_turn_for_main_actions() -> None:
    g = Game.new(players=2, seed=1)
    with pytest.raises(NotYourTurnError):
        g.play(Draw(1))
    with pytest.raises(InvalidInputError):
        g.play(Draw(3))  # no such seat in a 2-player game


def test_errors_change_nothing() -> None:
    g = Game.new(players=2, seed=3)
    before = g.to_dict()
    for bad in (Draw(1), Pass(0), Lightning(0, 5), Discard(0, g.hands[0][0]), Place(0, g.hands[1][0], 1, 0, 0, 0)):
        with pytest.raises(IllegalActionError):
            g.play(bad)
    assert g.to_dict() == before


# --- X1: the die -------------------------------------------------------------------------------------------------


def die_setup(seed: int, star_holder: int | None = None) -> tuple[Game, Place]:
    die = find_card(lambda c: c.action == "die" and find_corner(c, "P", 4) is not None)
    host = find_card(lambda c: c.color == "P" and c.action is None)
    d = state([[die.id], [7 if die.id != 7 else 8]], [host_entry(host, F)], turn=3)
    d["setup"]["seed"] = seed
    if star_holder is not None:
        d["stars"] = {s: {"holder": star_holder, "since_turn": 0} for s in ("2x", "lightning")}
    return Game.from_dict(d), attach(die, find_corner(die, "P", 4), F)


def test_x1_die_faces_and_their_effects() -> None:
    seen: set[str] = set()
    for seed in range(60):
        g, place = die_setup(seed, star_holder=1)
        pile = len(g.pile)
        events = g.apply(place).events
        face = next(e for e in events if isinstance(e, DieRolled)).face
        assert face in DIE_FACES
        seen.add(face)
        if face in ("card", "two cards"):
            n = 1 if face == "card" else 2
            assert len(g.hands[0]) == n and len(g.pile) == pile - n
        else:
            assert g.stars[face] == 0 and g.star_since[face] == 3  # taken from seat 1
            assert StarTaken(face, 0, 1) in events
        assert g.rolls == 1
    assert seen == set(DIE_FACES)


def test_x2_rerolling_a_star_you_hold_does_not_restart_its_clock() -> None:
    """X2 applies to a star *won* this turn; re-rolling the star you already hold changes no hands, so it stays
    usable at the end of this very turn (issue 14)."""
    checked = set()
    for seed in range(60):
        g, place = die_setup(seed, star_holder=0)
        events = g.apply(place).events
        face = next(e for e in events if isinstance(e, DieRolled)).face
        if face not in ("lightning", "2x"):
            continue
        checked.add(face)
        assert StarTaken(face, 0, 0) in events and g.star_since[face] == 0
        if face == "lightning":
            assert g.window == (0, 3) and g.can_lightning(0)
            g.play(Lightning(0, g.table[-1].id))  # at the end of the turn that re-rolled it
        else:
            assert g.star_usable(0, "2x")
    assert checked == {"lightning", "2x"}


def test_v3_x1_a_doubled_die_card_can_roll_the_2x_star_straight_back() -> None:
    """The 2x star used on a die card returns to the supply (V3) before the die is rolled; a 2x face then hands
    it to the roller again, won this turn (X1, X2). Found by the e2e game, whose doubled card was a die card."""
    checked = 0
    for seed in range(60):
        g, place = die_setup(seed, star_holder=0)
        doubled = Place(place.player, place.card, place.corner, place.x, place.y, place.rotation, True)
        events = g.apply(doubled).events
        face = next(e for e in events if isinstance(e, DieRolled)).face
        used = next(i for i, e in enumerate(events) if isinstance(e, StarUsed))
        rolled = next(i for i, e in enumerate(events) if isinstance(e, DieRolled))
        assert used < rolled
        if face == "2x":
            checked += 1
            assert g.stars["2x"] == 0 and g.star_since["2x"] == 3  # won anew this turn (turn 3)
        else:
            assert g.stars["2x"] is None
    assert checked


def test_x1_die_is_reproducible_from_the_seed() -> None:
    faces = []
    for _ in range(2):
        g, place = die_setup(5)
        faces.append([e for e in g.apply(place).events if isinstance(e, DieRolled)])
    assert faces[0] == faces[1]


# --- X2, X3: the lightning star ----------------------------------------------------------------------------------


def lightning_game(since: int, turn: int, current: int = 0) -> Game:
    host = find_card(lambda c: c.color == "P" and c.action is None)
    stars = {"lightning": {"holder": 0, "since_turn": since}, "2x": {"holder": None}}
    return game([[1, 2], [3, 4], [5]], [host_entry(host, F)], stars=stars, turn=turn, current=current)


def test_x3_lightning_at_start_of_own_turn_does_not_end_it() -> None:
    g = lightning_game(since=1, turn=3)
    host_id = g.table[0].id
    pose = g.table[0].pose
    events = g.apply(Lightning(0, host_id)).events
    assert g.current_player == 0 and g.table == [] and g.pile[-1] == host_id
    assert g.pending_discards == {1, 2}
    assert events == (StarUsed("lightning", 0), CardRemoved(0, host_id, pose, 0), DiscardsPending((1, 2))), events
    assert g.awaiting() == (0, 1, 2)
    g.play(Draw(0))  # the lightning user plays on
    g.play(Discard(2, 5))  # out of turn
    with pytest.raises(IllegalActionError) as exc:
        g.play(Draw(1))
    assert exc.value.rule == "X3"
    with pytest.raises(IllegalActionError):
        g.play(Discard(1, 5))  # not in hand
    g.play(Discard(1, 3))
    g.play(Draw(1))


def test_x3_lightning_at_end_of_own_turn_until_the_next_player_acts() -> None:
    g = lightning_game(since=1, turn=3)
    g.play(Draw(0))
    assert g.current_player == 1 and g.can_lightning(0)
    g2 = copy.deepcopy(g)
    g.play(Lightning(0, g.table[0].id))
    assert g.pending_discards == {1, 2}
    g2.play(Draw(1))
    with pytest.raises(IllegalActionError) as exc:
        g2.check(Lightning(0, g2.table[0].id))
    assert exc.value.rule == "X3"


def test_x2_lightning_won_this_turn_is_not_usable_at_its_end() -> None:
    g = lightning_game(since=3, turn=3)
    with pytest.raises(IllegalActionError) as exc:
        g.check(Lightning(0, g.table[0].id))
    assert exc.value.rule == "X2"
    g.play(Draw(0))
    with pytest.raises(IllegalActionError) as exc:
        g.check(Lightning(0, g.table[0].id))
    assert exc.value.rule == "X2"
    g.play(Draw(1))
    g.play(Draw(2))
    g.play(Lightning(0, g.table[0].id))  # the holder's next turn


def test_x3_lightning_refusals() -> None:
    g = lightning_game(since=1, turn=3)
    with pytest.raises(IllegalActionError, match="not on the table"):
        g.check(Lightning(0, 9))
    with pytest.raises(IllegalActionError, match="do not hold"):
        g.check(Lightning(1, g.table[0].id))
    with pytest.raises(InvalidInputError):
        g.check(Lightning(0, 99))


def test_x3_timeout_makes_the_discard_at_random_seeded() -> None:
    results = []
    for _ in range(2):
        g = lightning_game(since=1, turn=3)
        g.play(Lightning(0, g.table[0].id))
        made = [g.apply(Timeout(seat)).events for seat in (1, 2)]
        assert g.pending_discards == set() and g.history[-2:] == [(1, "timeout"), (2, "timeout")]
        assert [e[-1] for e in made][1] == Discarded(2, 5, True)
        results.append(made)
        again = Game.from_dict(g.to_dict())
        assert again.timeouts == [0, 1, 1] and again.current_player == 0
    assert results[0] == results[1]
    assert results[0][0][-1].card in (3, 4) and results[0][0][-1].redacted() == Discarded(1, None, True)


# --- E1-E3 -------------------------------------------------------------------------------------------------------


def goal_game(placer: int, players: int = 3) -> tuple[Game, Place]:
    host = find_card(lambda c: c.color == "P" and c.action is None)
    new = find_card(lambda c: find_corner(c, "P", 4) is not None and c.action is None and c.color != "P")
    hands = [[] for _ in range(players)]
    hands[placer] = [new.id]
    for p in range(players):
        if p != placer:
            hands[p] = [40 + p] if 40 + p not in (host.id, new.id) else [30 + p]
    scores = [0] * players
    scores[placer] = 37
    g = game(hands, [host_entry(host, F)], current=placer, scores=scores, turn=placer)
    return g, attach(new, find_corner(new, "P", 4), F, player=placer)


def test_e1_goal_reached_mid_round_the_round_completes() -> None:
    g, place = goal_game(placer=1)
    g.play(place)
    assert g.goal_reached and not g.is_over and g.current_player == 2
    g2, place2 = goal_game(placer=1)
    assert GoalReached(1, g.scores[1]) in g2.apply(place2).events
    g.play(Draw(2))
    assert g.is_over and g.end_reason == "E1" and g.current_player is None and g.awaiting() == ()
    assert g.winners == [1]
    with pytest.raises(IllegalActionError) as exc:
        g.play(Draw(0))
    assert exc.value.rule == "E1"


def test_e1_goal_reached_by_the_last_seat_ends_at_once() -> None:
    g, place = goal_game(placer=2)
    events = g.apply(place).events
    assert g.is_over and g.winners == [2]
    assert events[-1] == GameOver(g.outcome) and g.outcome is not None and g.outcome.reason == "E1"


def test_e2_every_player_passes() -> None:
    g = game([[1, *range(3, 53)], [2]], pile=[], players=2)
    g.play(Pass(0))
    assert not g.is_over
    g.play(Pass(1))
    assert g.is_over and g.end_reason == "E2-pass"
    assert g.winners == [0, 1]  # E3: tied leaders all win
    assert (
        g.outcome is not None
        and g.outcome.ranking == ((0, 1),)
        and [r.value for r in g.outcome.results] == ["win", "win"]
    )


def test_e2_draw_resets_the_pass_count() -> None:
    d = state([[1, *range(4, 53)], [2]], pile=[3], players=2, current=1, turn=1)
    d["passes"] = 1  # seat 0 passed last turn
    g = Game.from_dict(d)
    g.play(Draw(1))  # takes the last card: the pass count starts again
    g.play(Pass(0))
    assert not g.is_over
    g.play(Pass(1))
    assert g.is_over


def test_e2_all_hands_and_pile_empty() -> None:
    table = []
    for i, cid in enumerate(range(1, 52)):
        table.append({"card": cid, "x_mm": -450.0 + (i % 12) * 75, "y_mm": -300.0 + (i // 12) * 100, "rotation": 0})
    host = find_card(lambda c: c.id == 52)
    del host
    g = game([[52], []], table, pile=[], players=2, scores=[3, 5])
    g.play(Pass(0))
    assert not g.is_over  # seat 0 still holds a card
    d = g.to_dict()
    d["hands"] = [[], []]
    d["draw_pile"] = [52]
    g = Game.from_dict(d)
    g.play(Draw(1))
    assert not g.is_over
    d = g.to_dict()
    d["table"].append({"card": 52, "x_mm": 450.0, "y_mm": 300.0, "rotation": 0.0})
    d["hands"] = [[], []]
    g = Game.from_dict(d)
    g.play(Pass(0))
    assert g.is_over and g.end_reason == "E2-empty"
    assert g.winners == [1]


# --- views and serialisation -------------------------------------------------------------------------------------


def test_view_for_hides_other_hands_pile_order_and_seed() -> None:
    g = Game.new(players=3, seed=9)
    g.play(Draw(0))
    v = g.view_for(1)
    assert "seed" not in v["setup"] and str(g.seed) not in str(v)
    assert v["hands"][1] == g.hands[1] and v["hands"][0] is None and v["hands"][2] is None
    assert v["hand_counts"] == [7, 5, 5]
    assert v["draw_pile"] == len(g.pile)
    spectator = g.view_for(None)
    assert spectator["hands"] == [None, None, None] and spectator["viewer"] is None


def test_round_trip_through_dict() -> None:
    g = Game.new(players=4, seed=2)
    for p in range(4):
        g.play(Draw(p))
    d = g.to_dict()
    assert d["version"] == 2 and d["setup"] == {
        "players": 4,
        "seed": 2,
        "table": "medium",
        "goal": 40,
        "bots": [],
        "timeout_forfeit": 3,
    }
    again = Game.from_dict(copy.deepcopy(d))
    assert again.to_dict() == d


def _corrupt(mutator) -> dict:
    g = Game.new(players=2, seed=4)
    d = g.to_dict()
    mutator(d)
    return d


@pytest.mark.parametrize(
    ("mutator", "message"),
    [
        (lambda d: d.update(version=3), "version"),
        (lambda d: d["draw_pile"].pop(), "conservation"),
        (lambda d: d["hands"][0].append(d["hands"][1][0]), "conservation"),
        (lambda d: d["hands"][0].append(53), "unknown card"),
        (lambda d: d.update(current_player=2), "current_player"),
        (lambda d: d.update(turn=-1), "turn"),
        (lambda d: d["setup"].update(players=5), "players"),
        (lambda d: d.update(end_reason="bored"), "end_reason"),
        (lambda d: d.update(forfeited=[1]), "forfeited"),
        (lambda d: d.update(outcome={"ranking": [[0, 1]], "reason": "E1", "results": ["win", "win"]}), "outcome"),
        (lambda d: d.update(timeouts=[0, 9]), "timeouts"),
        (lambda d: d.update(scores=[1]), "scores"),
        (lambda d: d["stars"]["2x"].update(holder=7), "holder"),
        (lambda d: d["setup"].update(table="huge"), "table size"),
        (lambda d: d.update(hands="nope"), "hands"),
    ],
)
def test_from_dict_refuses_bad_states(mutator, message: str) -> None:
    with pytest.raises(StateError, match=message) as exc:
        Game.from_dict(_corrupt(mutator))
    assert exc.value.rule == "State"


def test_from_dict_refuses_bad_table_entries() -> None:
    host = find_card(lambda c: c.color == "P")
    d = state([[1 if host.id != 1 else 2], []], [host_entry(host, F)])
    d["table"][0]["x_mm"] = float("nan")
    with pytest.raises(StateError, match="finite"):
        Game.from_dict(d)
    d = state([[], []], [{"card": 5, "x_mm": 0.0, "y_mm": 0.0, "target": 6}, {"card": 6, "x_mm": 200, "y_mm": 0}])
    with pytest.raises(StateError, match="earlier table card"):
        Game.from_dict(d)


def test_replay_from_seed_and_history_equals_the_game() -> None:
    g = Game.new(players=2, seed=21, goal=20)
    while not g.is_over and len(g.history) < 30:
        g.play(first_fit(g, g.current_player))
    assert any(text.startswith("place") for _, text in g.history)
    again = Game.replay(g.setup, g.history)
    assert again.to_dict() == g.to_dict()


def test_deck_cards_are_shared_objects() -> None:
    g = Game.new(players=2, seed=1)
    assert g.hand(0)[0] is DECK[g.hands[0][0]] or g.hand(0)[0] == DECK[g.hands[0][0]]


def test_view_masks_other_seats_discards_and_round_trips_the_lightning_window() -> None:
    g = lightning_game(since=1, turn=3)
    g.play(Draw(0))  # seat 0 may still use lightning at the end of its turn
    d = g.to_dict()
    assert d["window"] == [0, 3]
    assert Game.from_dict(d).can_lightning(0)
    g.play(Lightning(0, g.table[0].id))
    g.play(Discard(2, 5))
    assert g.view_for(2)["history"][-1] == [2, "discard 5"]
    assert g.view_for(1)["history"][-1] == [2, "discard ?"]


def test_play_text_and_replay_of_a_resolved_rotation() -> None:
    g = Game.new(players=2, seed=13)
    found = g.find_placements(0, g.hands[0][0], limit=1)[0]
    loose = f"place {found.card} c{found.corner} at {found.x},{found.y}"
    resolved = g.play_text(loose, 0)
    assert isinstance(resolved, Place) and resolved.rotation is not None
    again = Game.replay(g.setup, g.history)
    assert again.to_dict() == g.to_dict()
