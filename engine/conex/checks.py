"""Checking a CONEX action against the rules without changing anything (docs/rules/conex.md sections 4, 5, 7, 8, plus
forfeits and timeouts). ``Game.check`` calls :func:`check`; the rule codes are those of the refusals below."""

from __future__ import annotations

from engine.conex import finder
from engine.conex.actions import Discard, Draw, GameAction, Lightning, Pass, Place
from engine.conex.geometry import centre_for_corner
from engine.conex.position import Position
from engine.conex.table import Verdict
from engine.errors import IllegalActionError, InvalidInputError, NotYourTurnError, quoted
from engine.protocol import Forfeit, Timeout


def check(g: Position, action: GameAction) -> GameAction:
    """Validate ``action`` without changing anything; returns it resolved (a ``Place`` with
    ``rotation=None`` gets the best legal rotation at its point).

    Order of checks: game over (E1), seat (``Input``), a forfeited seat (``Forfeited``); ``Forfeit`` is then
    legal; ``Timeout`` needs the seat in :meth:`awaiting` (``NotYourTurn``); discards and lightning (X3, X2);
    turn (``NotYourTurn``), pending discard (X3), A2/A3; for a place unknown card/corner (``Input``), card
    in hand (P5), star use (V3, X2), then the pose: P1, P2, P3, P4, the first that fails named (the ruling's
    order, ``Table.check_pose``). P5 comes before the pose: a pose is judged only for a card the player may play.
    """
    if not isinstance(action, Place | Draw | Pass | Lightning | Discard | Forfeit | Timeout):
        raise InvalidInputError(f"not a CONEX action: {quoted(action)}", reason="internal")
    p = _check_seat(g, action.player)
    if isinstance(action, Forfeit):
        return action
    if isinstance(action, Timeout):
        if p not in g.awaiting():
            raise NotYourTurnError(
                f"seat {p + 1} cannot run out of time: the game is not waiting for it",
                player=p,
                awaiting=list(g.awaiting()),
            )
        return action
    if isinstance(action, Discard):
        _check_discard(g, p, action.card)
        return action
    if isinstance(action, Lightning):
        _check_lightning(g, p, action.card)
        return action
    _check_turn(g, p)
    if isinstance(action, Draw):
        if not g.pile:
            raise IllegalActionError("the draw pile is empty: place a card or pass", rule="A2")
        return action
    if isinstance(action, Pass):
        if g.pile:
            raise IllegalActionError(
                f"you may pass only when the draw pile is empty ({len(g.pile)} cards left): draw instead",
                rule="A3",
                pile=len(g.pile),
            )
        return action
    resolved, _ = check_place(g, action)
    return resolved


def check_actor(g: Position, player: int, kind: type[Place] | type[Discard]) -> None:
    """The checks of a ``kind`` action by ``player`` that come before its card: game over (E1), seat (``Input``),
    a forfeited seat (``Forfeited``); for a place the turn (``NotYourTurn``) and a pending discard (X3), for a
    discard that one is owed (X3). The same refusals as :func:`check`, for a caller that must still read which
    hand card is meant (a refusal about the seat, not about a card of a hand it no longer plays)."""
    p = _check_seat(g, player)
    if kind is Discard:
        if p not in g.pending_discards:
            raise IllegalActionError("you have no discard to make", rule="X3", player=p)
        return
    _check_turn(g, p)


def _check_seat(g: Position, player: int) -> int:
    if g.is_over:
        raise IllegalActionError("the game is over", rule="E1", reason=g.end_reason)
    p = g.seat(player)
    if p in g.forfeited:
        raise IllegalActionError(f"seat {p + 1} has left the game", rule="Forfeited", player=p)
    return p


def _check_turn(g: Position, p: int) -> None:
    if p != g.to_play:
        raise NotYourTurnError(f"it is seat {g.to_play + 1}'s turn, not seat {p + 1}'s", player=p, current=g.to_play)
    if p in g.pending_discards:
        raise IllegalActionError(
            "you must first discard a card to the bottom of the pile (lightning was used)", rule="X3", player=p
        )


def check_place(g: Position, place: Place) -> tuple[Place, Verdict]:
    """``place`` resolved (best rotation when ``rotation`` is None) and the table's verdict. Raises ``Input`` for an
    unknown card or corner, P5 (not in hand), V3/X2 (the 2x star), then the table's P4, P1, P2, P3."""
    card = g.card(place.card)
    p = place.player
    if place.card not in g.hands[p]:
        where = "on the table" if place.card in g.board else "not in your hand"
        raise IllegalActionError(
            f"card {place.card} is {where}", rule="P5", card=place.card, on_table=place.card in g.board
        )
    if place.corner not in [c.index for c in card.corners]:
        raise InvalidInputError(
            f"card {card.id} has corners 1-{len(card.corners)}, not {place.corner}",
            reason="no_such_corner",
            card=card.id,
            corner=place.corner,
            corners=len(card.corners),
        )
    if place.double:
        if g.star_holder["2x"] != p:
            raise IllegalActionError("you do not hold the 2x star", rule="V3", star="2x")
        if not g.star_usable(p, "2x"):
            raise IllegalActionError(
                "the 2x star was won this turn: use it from your next turn on", rule="X2", star="2x"
            )
    if place.rotation is None:
        rot = finder.best_rotation(g, card, place.corner, place.x_mm, place.y_mm)
        place = Place(p, place.card, place.corner, place.x, place.y, rot, place.double)
    assert place.rotation is not None
    corner = card.corner(place.corner)
    cx, cy = centre_for_corner(corner, place.x_mm, place.y_mm, place.rotation)
    verdict = g.board.check_pose(card, place.corner, cx, cy, place.rotation)
    return place, verdict


def _check_discard(g: Position, p: int, card_id: int) -> None:
    g.card(card_id)
    if p not in g.pending_discards:
        raise IllegalActionError("you have no discard to make", rule="X3", player=p)
    if card_id not in g.hands[p]:
        raise IllegalActionError(f"card {card_id} is not in your hand", rule="X3", card=card_id)


def _check_lightning(g: Position, p: int, card_id: int) -> None:
    if g.star_holder["lightning"] != p:
        raise IllegalActionError("you do not hold the lightning star", rule="X3", player=p, star="lightning")
    if not g.can_lightning(p):
        since = g.star_since["lightning"]
        if since is not None and (since >= g.turn or (g.window and since >= g.window[1])):
            raise IllegalActionError(
                "the lightning star was won this turn: use it from your next turn on", rule="X2", star="lightning"
            )
        raise IllegalActionError(
            "lightning can be used only at the start or the end of your own turn", rule="X3", player=p
        )
    g.card(card_id)
    if card_id not in g.board:
        raise IllegalActionError(f"card #{card_id} is not on the table", rule="X3", card=card_id)
    if not g.board.is_free(card_id):
        raise IllegalActionError(f"card #{card_id} is not free: a later card lies on it", rule="X3", card=card_id)
