"""``Game.check_actor``: the refusals about the seat itself (game over, a seat that left, the turn, a discard owed)
that a hand card's action gets before its card is read, the same ones ``Game.check`` gives that action."""

from __future__ import annotations

import pytest

from engine.conex import Discard, Forfeit, Game, Place
from engine.errors import RuleError


def rule_of(call) -> str | None:  # type: ignore[no-untyped-def]
    try:
        call()
    except RuleError as err:
        return err.rule
    return None


def positions() -> list[Game]:
    fresh = Game.new(players=3, seed=11, table="medium", goal=40)
    left = Game.new(players=3, seed=11, table="medium", goal=40)
    left.apply(Forfeit((left.current_player + 1) % 3))
    owing = Game.new(players=3, seed=11, table="medium", goal=40)
    owing.pending_discards.update({(owing.current_player + 2) % 3})
    over = Game.new(players=2, seed=11, table="medium", goal=40)
    over.apply(Forfeit(0))
    return [fresh, left, owing, over]


@pytest.mark.parametrize("index", range(4))
def test_check_actor_refuses_as_check_does_before_the_card(index: int) -> None:
    game = positions()[index]
    for seat in range(game.players):
        card = game.hands[seat][0] if game.hands[seat] else 1
        for kind, action in ((Place, Place(seat, card, 1, 0.0, 0.0)), (Discard, Discard(seat, card))):
            said = rule_of(lambda seat=seat, kind=kind: game.check_actor(seat, kind))
            full = rule_of(lambda action=action: game.check(action))
            if said is not None:  # what check() says first, whatever the card
                assert full == said, (index, seat, kind)
            else:  # nothing about the seat is left for check() to refuse
                assert full not in ("E1", "Forfeited", "NotYourTurn"), (index, seat, kind, full)


def test_a_seat_that_left_is_told_it_left_for_a_place_and_a_discard() -> None:
    game = positions()[1]
    gone = next(iter(game.forfeited))
    assert rule_of(lambda: game.check_actor(gone, Place)) == "Forfeited"
    assert rule_of(lambda: game.check_actor(gone, Discard)) == "Forfeited"
    assert rule_of(lambda: game.check_actor(game.current_player, Place)) is None


def test_the_turn_and_the_discard_owed() -> None:
    game = positions()[2]
    owes = next(iter(game.pending_discards))
    waiting = next(s for s in range(3) if s not in (owes, game.current_player))
    assert rule_of(lambda: game.check_actor(waiting, Place)) == "NotYourTurn"
    assert rule_of(lambda: game.check_actor(waiting, Discard)) == "X3"
    assert rule_of(lambda: game.check_actor(owes, Discard)) is None
    over = positions()[3]
    assert (
        over.is_over
        and rule_of(lambda: over.check_actor(1, Place)) == rule_of(lambda: over.check_actor(1, Discard)) == "E1"
    )
