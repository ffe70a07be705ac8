"""Draw offers and takebacks with the opponent's consent (as on lichess): the offer state machine of a two-player
game whose engine knows ``"agreed draw"`` and ``"takeback"`` and has ``takeback_plies``.

States, kept **with the game** in ``env.extra["offer"]`` = ``{"what": "draw" | "takeback", "seat": <offerer>,
"state": "open" | "declined" | "cancelled"}``, so an offer survives a restart and every step is a commit through
the one action path (``GameLayer.transact`` inside ``GameLayer.perform``, effects by the outbox)::

    (none) --offer--> open --accept (the opponent)--> the engine action ("agreed draw" / "takeback"), offer gone
                           --decline (the opponent)--> declined
                           --cancel (the offerer)---> cancelled
                           --any engine action (a move, a resignation...)--> gone (voided: the kind's
                             ``Rules.after`` drops it; a button drawn before is stale and refused in words)

Only one offer is open at a time; the offerer never answers their own offer, nobody offers against themselves.
Logged actions (the game's log; no engine action): ``offer draw``, ``offer takeback``, ``decline <what>``,
``cancel <what>`` (:data:`OFFER_ACTIONS`). Accepting commits the engine's own actions: ``agreed draw`` by the offerer
(the match ends drawn), or ``takeback`` (the offerer's last move; when the opponent already replied, the reply is
taken back first, by its own ``takeback``: lichess's rule), so records and replays show them.

The AI answers an offer made to its seat (an ``offer_ai`` effect, done at once by the committing process, else by
the outbox's workers): a takeback is accepted in an unrated game and declined in a rated one; a draw is accepted
when the game's own evaluation (``kind.rules.draw_function``, in the background CPU lane) says it is not winning.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from bot.core.changes import Change
from bot.errors import BotError
from bot.storage import Effect, Owed
from engine.errors import RuleError

if TYPE_CHECKING:
    from bot.core.changes import Committed
    from bot.core.envelope import Envelope
    from bot.core.kind import Snapshot
    from bot.core.layer import GameLayer, Step

log = logging.getLogger(__name__)

KEY = "offer"
"""The key of the offer in the envelope's ``extra``."""
WHATS = ("draw", "takeback")
VERBS = ("accept", "decline", "cancel")
OFFER_ACTIONS = frozenset(
    {f"offer {w}" for w in WHATS} | {f"decline {w}" for w in WHATS} | {f"cancel {w}" for w in WHATS}
)
"""Logged action texts of offers: no engine action (a replay of the log skips them)."""
EFFECT = "offer_ai"
AI_DELAY_S = 2.0
"""An AI's answer is left to the committing process this long before the outbox's workers give it."""


def current(env: Envelope) -> dict[str, Any] | None:
    """The game's latest offer (open, declined or cancelled) as stored, or ``None``."""
    offer = env.extra.get(KEY)
    return dict(offer) if isinstance(offer, dict) and offer.get("what") in WHATS else None


def open_offer(env: Envelope) -> dict[str, Any] | None:
    """The open offer ``{"what", "seat", "state": "open"}``, or ``None``."""
    offer = current(env)
    return offer if offer is not None and offer.get("state") == "open" else None


def without_offer(env: Envelope) -> Envelope:
    """``env`` with no offer (an engine action voids any offer)."""
    if KEY not in env.extra:
        return env
    return env.with_(extra={k: v for k, v in env.extra.items() if k != KEY})


def _with(env: Envelope, offer: dict[str, Any]) -> Envelope:
    return env.with_(extra={**env.extra, KEY: offer})


def would_be_rated(snap: Snapshot) -> bool:
    """True when the game, if it ended now with each player having moved, would be rated: no AI seat (games
    against the AI are never rated, README "Ratings")."""
    return not snap.has_ai


def ai_accepts_takeback(snap: Snapshot) -> bool:
    """The AI's answer to a takeback request: yes in an unrated game, no in a rated one."""
    return not would_be_rated(snap)


def _state(snap: Snapshot) -> Any:
    state = snap.require_state()
    if len(snap.players) != 2 or not hasattr(state, "takeback_plies"):
        raise BotError("offer.unsupported")
    return state


def ask(user_id: int, what: str) -> Step:
    """The step of ``user_id`` offering ``what`` (``"draw"`` or ``"takeback"``). Refuses (``BotError``): not a
    player, a game without offers, an offer already open, a takeback with no move of theirs to take back, an
    opponent who is the same user (never an offer against oneself)."""
    if what not in WHATS:
        raise BotError("err.bad_option", value=what)

    def step(snap: Snapshot) -> Change:
        state = _state(snap)
        seat = snap.seat_of(user_id)
        if snap.players[1 - seat] == user_id:
            raise BotError("offer.self")
        pending = open_offer(snap.env)
        if pending is not None:
            raise BotError(f"offer.pending_{pending['what']}", name=snap.names[pending["seat"]])
        if state.is_over:
            raise BotError("err.game_closed", status="finished")
        if what == "takeback" and state.takeback_plies(seat) == 0:
            other = 1 - seat  # the board's one Take back button is shown for them (bot.ui.offers.board_items)
            if state.takeback_plies(other) and not snap.is_ai(other):
                raise BotError("offer.nothing_to_take_back_theirs", name=snap.names[other])
            raise BotError("offer.nothing_to_take_back")
        env = _with(snap.env, {"what": what, "seat": seat, "state": "open"})
        return Change(env, f"offer {what}", user_id)

    return step


def answer(layer: GameLayer, user_id: int, verb: str) -> Step:
    """The step of ``user_id`` answering the open offer: ``accept`` / ``decline`` (the opponent only) or
    ``cancel`` (the offerer only). Accepting applies the engine's actions (module docstring). Refuses
    (``BotError``): no open offer (``offer.gone``), the wrong player, an action the engine refuses now."""
    if verb not in VERBS:
        raise BotError("err.bad_option", value=verb)

    def step(snap: Snapshot) -> Change | list[Change]:
        state = _state(snap)
        offer = open_offer(snap.env)
        if offer is None:
            raise BotError("offer.gone")
        seat = snap.seat_of(user_id)
        offerer, what = int(offer["seat"]), str(offer["what"])
        if verb == "cancel":
            if seat != offerer:  # the opponent may answer (Accept / Decline), never withdraw
                key = "offer.cancel_answer_instead" if snap.players[1 - offerer] == user_id else "offer.not_yours"
                raise BotError(key, name=snap.names[offerer])
        elif seat == offerer or snap.players[1 - offerer] != user_id:
            raise BotError("offer.own" if seat == offerer else "offer.not_yours", name=snap.names[offerer])
        if verb != "accept":
            env = _with(snap.env, {**offer, "state": f"{verb}d", "by": seat})
            return Change(env, f"{verb} {what}", user_id)
        return accepted(layer, snap, state, offerer, what)

    return step


def accepted(layer: GameLayer, snap: Snapshot, state: Any, offerer: int, what: str) -> list[Change]:
    """The engine changes of an accepted offer: ``draw`` by the offerer, or the takebacks (the opponent's reply
    first when there is one, then the offerer's move). Raises ``BotError("offer.gone")`` if the engine refuses."""
    if what == "draw":
        plan = [(offerer, "agreed draw")]
    else:
        plies = state.takeback_plies(offerer)
        plan = [(1 - offerer, "takeback"), (offerer, "takeback")] if plies == 2 else [(offerer, "takeback")]
        if plies == 0:
            raise BotError("offer.gone")
    changes: list[Change] = []
    env = snap.env
    for seat, text in plan:
        try:
            applied = state.apply(state.parse_action(text, seat))
        except RuleError as err:
            raise BotError("offer.gone") from err
        changes.append(layer.engine_change(snap, env, state, applied, seat))
        env = changes[-1].env
    return changes


class Offers:
    """The AI's side of offers (module docstring): an outbox rule and handler plus an ``on_shown`` subscriber."""

    def __init__(self, layer: GameLayer) -> None:
        self.layer = layer
        layer.outbox.subscribe(EFFECT, self.effect, rule=self.owed)
        layer.on_shown.append(self.shown)

    @staticmethod
    def owed(snap: Snapshot, _change: object) -> list[Owed]:
        """A commit that leaves an offer open to an AI seat owes that seat's answer."""
        offer = open_offer(snap.env) if snap.status == "active" else None
        if offer is None or len(snap.players) != 2 or not snap.is_ai(1 - int(offer["seat"])):
            return []
        return [Owed(EFFECT, delay_s=AI_DELAY_S)]

    async def shown(self, committed: Committed, _headline: str, _interaction: Any) -> None:
        """After a commit is shown: an offer open to an AI seat is answered now (in a task of its own)."""
        snap = committed.snap
        if self.owed(snap, None):
            self.layer.bot.spawn(self.reply(snap.id, snap.version), name=f"offer-ai-{snap.id}")

    async def effect(self, effect: Effect) -> None:
        """The ``offer_ai`` effect: the AI answers if the offer of that version is still open."""
        await self.reply(effect.game_id, effect.version)

    async def reply(self, game_id: int, version: int) -> None:
        """The AI seat answers the offer open at ``version`` (nothing if the game moved on); commits and shows it."""
        layer = self.layer
        record = await layer.storage.get_game(game_id)
        if record is None or record.version != version or record.status != "active":
            return
        snap = layer.snapshot(record)
        offer = open_offer(snap.env)
        if offer is None or len(snap.players) != 2:
            return
        seat = 1 - int(offer["seat"])
        if not snap.is_ai(seat):
            return
        if offer["what"] == "takeback":
            yes = ai_accepts_takeback(snap)
        else:
            judge = getattr(snap.kind.rules, "draw_function", None)
            yes = bool(judge is not None and await layer.cpu_background(judge, snap.require_state().copy(), seat))
        try:
            committed = await layer.transact(
                game_id, answer(layer, snap.players[seat], "accept" if yes else "decline"), expected_version=version
            )
        except BotError as err:  # someone acted meanwhile (another process answered, a move voided it)
            log.info("the AI's answer to the offer of game %s v%s is moot: %s", game_id, version, err.key)
            return
        await layer.outbox.done(game_id, version, EFFECT)
        await layer.after_commit(committed, layer.headline(committed))
