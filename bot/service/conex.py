"""The CONEX game service: lobby (new/join/leave/add bot/start), actions, forfeits, AI seats.

Stored state (``GameRecord.state``)::

    {"conex": Game.to_dict() | None,   # engine state (rules/conex.md); None while in the lobby
     "table": "small" | "medium" | "large", "goal": 20..100,
     "host": <user id>,                # who opened the lobby; only the host adds bots and starts (U1)
     "names": [str by seat],           # display names kept for images and messages
     "ai": [<negative seat id>, ...],  # AI seats (see below)
     "discards_since": float,          # epoch seconds of the lightning whose discards are owed (X3 timeout)
     "locale": str | None}

(Games saved before the game protocol also hold ``"forfeited": [seat, ...]`` beside a version-1 engine state;
:func:`game_of` hands it, and the AI seats, to the engine's migration.)

Seats: ``record.players`` is the seat order = lobby join order (U1); the host is seat 0 and starts.
**AI seats use distinct negative ids** ``-1, -2, -3`` in ``players`` (storage needs distinct ids per
seat, and no Discord user id is negative), so ``is_ai(uid)`` is ``uid < 0`` (or the bot's own id).
Games with an AI seat are **not rated** (same policy as Constructo's AI games).

FORFEIT (``/conex leave`` in a running game): the engine's ``Forfeit(seat)`` (logged ``forfeit``): hand to the
bottom of the pile, stars to the supply, pending discard dropped, score 0, turns skipped, ranked last; the game
ends at once when fewer than two seats, or only AI seats (the engine's ``bots``), remain in play.

X3 TIMEOUT (no timer runs): when an action arrives more than :data:`DISCARD_TIMEOUT_S` after the lightning and
discards are still owed, each owing seat first gets the engine's ``Timeout(seat)`` (its discard made at random,
seeded; committed and logged as that seat's ``timeout``, so the log replays), then the action runs. A seat
choosing its own discard is never pre-empted. Until then a pending discard blocks only the owing player.

Every verb goes through :meth:`GameService.transact` (per-game lock + version check); engine errors
(``RuleError`` with the rule code) refuse and nothing is written.
"""

from __future__ import annotations

import asyncio
import logging
import math
import re
import secrets
import time
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from bot.errors import BotError
from bot.service.base import Change, Committed, GameService, outcome_result
from bot.storage.records import GameRecord
from engine.conex import Action, AnyAction, Discard, Draw, Forfeit, Game, Pass, Place, Timeout
from engine.conex.ai import choose_action
from engine.conex.events import DiscardsPending, Placed
from engine.conex.handref import hand_index, hand_letter
from engine.errors import IllegalActionError, InvalidInputError, NotYourTurnError, RuleError

log = logging.getLogger(__name__)

TABLE_SIZES: tuple[str, ...] = ("small", "medium", "large")
MIN_PLAYERS, MAX_PLAYERS = 2, 4
MAX_HINTS = 9
HINT_SPACING_CM = 3.0
AI_BUDGET_S = 1.0  # wall-clock cap handed to engine.conex.ai.choose_action
COORD_LIMIT_CM = 100.0  # |x|, |y| accepted by /conex place (the large table is 140 x 90 cm)
DISCARD_TIMEOUT_S = 600.0  # X3: a discard still owed this long after the lightning is made at random (see act)


def ai_seats(record: GameRecord) -> list[int]:
    """Seats played by the AI (negative ids), for the engine's ``bots``."""
    return [seat for seat, uid in enumerate(record.players) if uid < 0]


def game_of(record: GameRecord) -> Game:
    """The engine ``Game`` of a started game. Raises ``BotError("err.not_started")`` in the lobby and
    ``StateError`` if the stored state is corrupt. A version-1 engine state gets the forfeited seats and the AI
    seats the bot kept beside it (the engine migrates it)."""
    data = record.state.get("conex")
    if data is None:
        raise BotError("err.not_started")
    if data.get("version") == 1:
        data = dict(data, forfeited=record.state.get("forfeited", []), bots=ai_seats(record))
    return Game.from_dict(data)


def forfeited_of(record: GameRecord) -> set[int]:
    """Seats that forfeited (left the running game); none in the lobby."""
    data = record.state.get("conex")
    if data is None:
        return set()
    if data.get("version") == 1:
        return {int(s) for s in record.state.get("forfeited", [])}
    return {int(s) for s in data.get("forfeited", [])}


def names_of(record: GameRecord) -> list[str]:
    """Display names by seat."""
    names = [str(n) for n in record.state.get("names", [])]
    return names + [f"P{i + 1}" for i in range(len(names), len(record.players))]


# A card number alone ("12"), or followed by the rest of one of the bot's own labels ("12 red +2 · 1:Y4"), so a
# pasted suggestion still works; "12.9" or "3 or 4" are refused rather than read as 12 or 3.
CARD_NUMBER = re.compile(r"^(\d{1,3})(?:\s+(?:yellow|red|turquoise|purple)\b.*)?$", re.IGNORECASE)


def parse_card_ref(game: Game, seat: int, ref: str | int) -> int:
    """A hand card from a reference: the hand letter (``"A"``: first card of the hand; past ``"Z"`` the letters
    go on ``"AA"``, ``"AB"``..., :func:`engine.conex.handref.hand_letter`), the card number (``"12"``, ``"#12"``)
    or an autocomplete value. Returns the card id.

    Raises ``InvalidInputError`` (rule ``Input``) for text that is neither, or a letter past the hand's end.
    A number not in the hand is returned as is (the engine then refuses it with P5).
    """
    text = str(ref).strip().lstrip("#").strip()
    index = hand_index(text)
    if index is not None:
        hand = game.hands[seat]
        if index >= len(hand):
            last = f"A-{hand_letter(len(hand) - 1)}" if hand else "none"
            raise InvalidInputError(
                f"your hand has {len(hand)} cards ({last}), there is no card {text.upper()}", card=text
            )
        return hand[index]
    m = CARD_NUMBER.match(text)
    if not m:
        hand = game.hands[seat]
        letters = f"A-{hand_letter(len(hand) - 1)}" if hand else "none in your hand"
        raise InvalidInputError(f"{str(ref)[:40]!r} is not a card: give its hand letter ({letters}) or its number")
    return int(m.group(1))


def parse_target(ref: str | int | None) -> int | str | None:
    """``"board"`` (or ``"b"``), a table card number (``"7"``, ``"#7"``) or ``None``.

    Raises ``InvalidInputError`` for anything else.
    """
    if ref is None:
        return None
    text = str(ref).strip().lower().lstrip("#").strip()
    if text in ("", "none"):
        return None
    if text in ("board", "b", "the board"):
        return "board"
    m = CARD_NUMBER.match(text)
    if not m:
        raise InvalidInputError(f"{str(ref)[:40]!r} is not a target: give a table card number or 'board'")
    return int(m.group(1))


def humanized(err: RuleError, record: GameRecord, game: Game) -> RuleError | BotError:
    """An engine refusal reworded for people: ``NotYourTurn`` names the player to act (display name) instead of
    seat numbers (``BotError("cn.not_your_turn", rule="NotYourTurn", who=...)``) and a ``P5`` "not in seat n's
    hand" becomes ``cn.not_in_hand`` (rule P5). Any other error is returned unchanged."""
    if isinstance(err, NotYourTurnError):
        seat = game.current_player
        return BotError("cn.not_your_turn", rule="NotYourTurn", who=names_of(record)[seat])
    if err.rule == "P5" and "card" in err.details:
        return BotError("cn.not_in_hand", rule="P5", card=err.details["card"])
    return err


def check_coord(value: float | None, what: str, limit: float = COORD_LIMIT_CM) -> float | None:
    """A finite coordinate within ``±limit`` cm, or ``None``. Raises ``InvalidInputError`` (rule ``Input``) for
    NaN, infinities and huge values (G1: commands speak cm)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInputError(f"{what} must be a number, not {value!r}", what=what)
    v = float(value)
    if not math.isfinite(v):
        raise InvalidInputError(f"{what} must be a finite number of cm, not {v}", what=what)
    if abs(v) > limit:
        raise InvalidInputError(
            f"{what} = {v:g} cm is off every table (at most {limit:g} cm from the centre)", what=what
        )
    return v


@dataclass(frozen=True)
class Hint:
    """A suggested legal placement for the hints preview: ``place`` (exact pose) and its ``points``."""

    place: Place
    points: int


class ConexService(GameService):
    """CONEX verbs over :class:`~bot.service.base.GameService`. See the module docstring."""

    kind: ClassVar[str] = "conex"

    def is_ai(self, user_id: int) -> bool:
        """True for an AI seat id (negative) or the bot itself."""
        return user_id < 0 or super().is_ai(user_id)

    async def channel_game(self, channel_id: int) -> GameRecord:
        """The open CONEX game (lobby or running) of the channel. Raises ``BotError("cn.no_game_here")``."""
        record = await self.in_channel(channel_id)
        if record is None or record.kind != self.kind:
            raise BotError("cn.no_game_here")
        return record

    # -- lobby ---------------------------------------------------------------------------------
    def prepare_new(
        self, *, host: int, name: str, table: str = "medium", goal: int = 40, locale: str | None = None
    ) -> tuple[dict[str, Any], list[int], str]:
        """Validate a new lobby and build ``(state, players, "lobby")`` without writing.

        Raises ``InvalidInputError`` for an unknown table size (G2) or a goal outside 20-100 (U3).
        """
        if table not in TABLE_SIZES:
            raise InvalidInputError(f"G2: table size must be one of {', '.join(TABLE_SIZES)}, not {table!r}")
        if isinstance(goal, bool) or not isinstance(goal, int) or not 20 <= goal <= 100:
            raise InvalidInputError(f"U3: the goal must be 20-100 points, not {goal!r}")
        state = {
            "conex": None,
            "table": table,
            "goal": goal,
            "host": host,
            "names": [name[:32]],
            "ai": [],
            "forfeited": [],
            "locale": locale,
        }
        return state, [host], "lobby"

    async def new(self, *, guild_id: int, channel_id: int, **kwargs: Any) -> GameRecord:
        """:meth:`prepare_new` then create the lobby. Raises ``BotError("err.channel_busy")`` too."""
        state, players, status = self.prepare_new(**kwargs)
        return await self.create(guild_id=guild_id, channel_id=channel_id, state=state, players=players, status=status)

    async def join(self, game_id: int, user_id: int, name: str) -> Committed:
        """Take the next seat (U1: at most 4). Raises ``BotError`` ``cn.already_in`` / ``cn.full``."""

        def step(record: GameRecord) -> Change:
            if user_id in record.players:
                raise BotError("cn.already_in")
            if len(record.players) >= MAX_PLAYERS:
                raise BotError("cn.full", rule="U1", max=MAX_PLAYERS)
            state = dict(record.state, names=[*names_of(record), name[:32]])
            return Change(state=state, action="join", players=[*record.players, user_id], info={"name": name})

        return await self.transact(game_id, step, actor=user_id, statuses=("lobby",))

    async def add_bot(self, game_id: int, user_id: int) -> Committed:
        """The host adds an AI seat (id ``-1``, ``-2``, ``-3``). Raises ``cn.host_only`` / ``cn.full``."""

        def step(record: GameRecord) -> Change:
            self._host_only(record, user_id)
            if len(record.players) >= MAX_PLAYERS:
                raise BotError("cn.full", rule="U1", max=MAX_PLAYERS)
            ai = [int(a) for a in record.state.get("ai", [])]
            uid = next(-k for k in range(1, MAX_PLAYERS + 1) if -k not in record.players)
            name = f"AI {-uid}"
            state = dict(record.state, names=[*names_of(record), name], ai=[*ai, uid])
            return Change(state=state, action="add bot", players=[*record.players, uid], info={"name": name})

        return await self.transact(game_id, step, actor=user_id, statuses=("lobby",))

    async def leave_lobby(self, game_id: int, user_id: int) -> Committed:
        """Leave the lobby; the host leaving closes it (``aborted``). Raises ``err.not_player``."""

        def step(record: GameRecord) -> Change:
            seat = self.seat_of(record, user_id)
            if user_id == record.state.get("host"):
                return Change(state=record.state, action="close", status="aborted", info={"closed": True})
            names = names_of(record)
            del names[seat]
            players = [p for p in record.players if p != user_id]
            return Change(state=dict(record.state, names=names), action="leave", players=players)

        return await self.transact(game_id, step, actor=user_id, statuses=("lobby",))

    async def start(self, game_id: int, user_id: int, *, seed: int | None = None) -> Committed:
        """The host starts the game: deal (U2, seeded), seat 0 to play. Needs 2-4 seats (U1)."""

        def step(record: GameRecord) -> Change:
            self._host_only(record, user_id)
            n = len(record.players)
            if n < MIN_PLAYERS:
                raise BotError("cn.too_few", rule="U1")
            game = Game.new(
                players=n,
                seed=seed if seed is not None else secrets.randbits(128),
                table=record.state.get("table", "medium"),
                goal=int(record.state.get("goal", 40)),
                bots=ai_seats(record),
            )
            state = dict(record.state, conex=game.to_dict())
            return Change(state=state, action="start", status="active", info={"events": []})

        return await self.transact(game_id, step, actor=user_id, statuses=("lobby",))

    @staticmethod
    def _host_only(record: GameRecord, user_id: int) -> None:
        if user_id != record.state.get("host"):
            if user_id not in record.players:
                raise BotError("err.not_player")
            raise BotError("cn.host_only", host=record.state.get("host"))

    # -- actions -------------------------------------------------------------------------------
    def _finish(self, record: GameRecord, game: Game, action: str, info: dict[str, Any]) -> Change:
        """Wrap the new engine state (the forfeited seats live in it) and, once over, the result."""
        events = list(info.get("events", []))
        state = dict(record.state, conex=game.to_dict())
        state.pop("forfeited", None)
        if any(isinstance(e, DiscardsPending) for e in events):
            state["discards_since"] = time.time()
        elif not game.pending_discards:
            state.pop("discards_since", None)
        outcome = game.outcome
        if outcome is not None:
            rated = not any(self.is_ai(uid) for uid in record.players)
            result = outcome_result(outcome, record.players, rated=rated)
            return Change(state=state, action=action, status="finished", result=result, info=info)
        return Change(state=state, action=action, info=info)

    async def act(
        self, game_id: int, user_id: int, action: str | AnyAction, *, expected_version: int | None = None,
        target: int | str | None = None,
    ) -> Committed:
        """Play an engine action for ``user_id``: text (``"draw"``, ``"pass"``, ``"lightning 7"``, ``"discard 31"``,
        ``"place 12 c2 at 3.5,-10.0 r90"``) or an action object (its ``player`` is replaced by the caller's seat).

        ``target`` (optional, for a place): the placement must land on that target, else ``P1``.
        ``info["events"]`` are the engine's typed events (``engine/conex/events.py``).

        X3 timeout: discards owed for longer than ``discard_timeout_s`` are made at random first (X3 TIMEOUT in
        the module docstring; only when the action is legal once they are made); their events come first in
        ``info["events"]`` and a button's ``expected_version`` taken just before them still holds. Should the
        action then be refused (a race), the raised error carries them as ``err.expired`` (``list[Committed]``).

        Raises:
            BotError: ``err.not_player``, ``err.not_started``, ``err.stale``, ``err.conflict``, ``err.game_closed``.
            RuleError: ``NotYourTurn``, ``Input``, ``P1``-``P5``, ``A2``, ``A3``, ``V3``, ``X2``, ``X3``, ``E1``.
        """
        expired = await self.expire_discards(game_id, user_id, action, expected_version=expected_version)
        if expired and expected_version is not None and expected_version == expired[0].before.version:
            expected_version = expired[-1].record.version

        def step(record: GameRecord) -> Change:
            seat = self.seat_of(record, user_id)
            game = game_of(record)
            if seat in game.forfeited:
                raise BotError("cn.forfeited")
            parsed = Action.parse(action, seat) if isinstance(action, str) else _with_player(action, seat)
            try:
                applied = game.apply(parsed)
            except RuleError as err:
                raise humanized(err, record, game) from err
            played = applied.action
            events = list(applied.events)
            if isinstance(played, Place) and target is not None:
                landed = next((e.target for e in events if isinstance(e, Placed)), None)
                if landed != target:
                    on = "the board" if landed == "board" else f"card #{landed}"
                    want = "the board" if target == "board" else f"card #{target}"
                    raise IllegalActionError(f"that pose puts the corner on {on}, not on {want}", rule="P1")
            return self._finish(record, game, str(played), {"events": events, "seat": seat})

        try:
            committed = await self.transact(game_id, step, actor=user_id, expected_version=expected_version)
        except Exception as err:
            if expired:  # the random discards are committed: the caller must still show them (a new table)
                err.expired = expired  # type: ignore[attr-defined]
            raise
        if not expired:
            return committed
        earlier = [e for c in expired for e in c.info.get("events", [])]
        return replace(committed, info=dict(committed.info, events=[*earlier, *committed.info.get("events", [])]))

    discard_timeout_s: float = DISCARD_TIMEOUT_S

    def _expired_seats(self, record: GameRecord, game: Game, spare: int | None) -> list[int]:
        since = record.state.get("discards_since")
        if not game.pending_discards or since is None or time.time() - float(since) < self.discard_timeout_s:
            return []
        return [s for s in sorted(game.pending_discards) if record.players[s] != spare and game.hands[s]]

    async def expire_discards(
        self, game_id: int, user_id: int | None = None, action: str | AnyAction | None = None, *,
        expected_version: int | None = None,
    ) -> list[Committed]:
        """X3 timeout: make at random every discard owed for more than ``discard_timeout_s`` (one commit each,
        logged as the owing seat's ``discard <card>``), unless ``action`` (by ``user_id``) would still be
        refused once they are made (then nothing is written and the action's own refusal follows). ``user_id``'s
        own discard is spared when ``action`` is a discard; a stale click (``expected_version`` not the stored
        version) expires nothing. Returns the commits (empty when nothing expired)."""
        record = await self.get(game_id)
        if record.status != "active" or record.state.get("conex") is None:
            return []
        if expected_version is not None and expected_version != record.version:
            return []
        is_discard = isinstance(action, Discard) or (isinstance(action, str) and action.strip().startswith("discard"))
        spare = user_id if is_discard else None
        game = game_of(record)
        seats = self._expired_seats(record, game, spare)
        if not seats:
            return []
        if action is not None and user_id is not None and user_id in record.players:
            probe = game_of(record)
            for s in seats:
                probe.apply(Timeout(s))
            seat = record.players.index(user_id)
            try:
                probe.check(Action.parse(action, seat) if isinstance(action, str) else _with_player(action, seat))
            except RuleError:
                return []
        out: list[Committed] = []
        for seat in seats:

            def step(rec: GameRecord, seat: int = seat) -> Change:
                g = game_of(rec)
                if seat not in self._expired_seats(rec, g, spare):
                    raise BotError("cn.no_discard", rule="X3")
                applied = g.apply(Timeout(seat))
                return self._finish(rec, g, str(applied.action), {"events": list(applied.events), "seat": seat})

            try:
                out.append(await self.transact(game_id, step, actor=record.players[seat]))
            except BotError as err:  # made meanwhile (by the player, or a concurrent expiry)
                log.info("X3 timeout discard of seat %s in game %s not needed: %s", seat, game_id, err)
        return out

    def resolve_place(
        self, game: Game, seat: int, *, card: str | int, corner: int, x: float | None = None, y: float | None = None,
        rotation: float | None = None, target: str | int | None = None, double: bool = False,
    ) -> tuple[Place, int | str | None]:
        """Build the ``Place`` of ``/conex place``: the exact pose when ``x``/``y`` are given (``rotation``
        optional: the engine picks the best legal one), else the best auto-fit pose on ``target`` (or anywhere).
        Returns ``(place, target)``; the target is checked at commit time for exact poses.

        Raises ``InvalidInputError`` (NaN/inf/huge numbers, only one of x/y, unknown card or target text),
        ``IllegalActionError`` (``P5`` not in hand, ``P1`` no legal pose), ``NotYourTurnError``.
        """
        card_id = parse_card_ref(game, seat, card)
        tgt = parse_target(target)
        cx = check_coord(x, "x")
        cy = check_coord(y, "y")
        rot = check_coord(rotation, "rotation", 360.0)
        if (cx is None) != (cy is None):
            raise InvalidInputError("give both x and y (in cm), or neither to let me fit the card on the target")
        if cx is not None and cy is not None:
            return Place(seat, card_id, corner, cx, cy, rot, double), tgt
        if seat != game.current_player:
            game.check(Draw(seat))  # raises NotYourTurnError with the engine's words
        if tgt is None:
            found = game.find_placements(seat, card_id, corner, None, limit=1)
            if not found:
                raise IllegalActionError(
                    f"corner {corner} of card {card_id} has no legal pose anywhere on the table", rule="P1",
                    card=card_id, corner=corner,
                )
            place = found[0]
        else:
            place = game.auto_fit(seat, card_id, corner, tgt)
        if double:
            place = Place(seat, place.card, place.corner, place.x, place.y, place.rotation, True)
        return place, tgt

    async def place(
        self, game_id: int, user_id: int, *, expected_version: int | None = None, **kwargs: Any
    ) -> Committed:
        """``/conex place``: :meth:`resolve_place` (finder work runs in a worker thread) then :meth:`act`."""
        record = await self.get(game_id)
        if record.status == "lobby":
            raise BotError("err.not_started")
        seat = self.seat_of(record, user_id)
        game = game_of(record)
        try:
            place, tgt = await asyncio.to_thread(self.resolve_place, game, seat, **kwargs)
        except RuleError as err:
            raise humanized(err, record, game) from err
        # The pose was resolved on the version read above; it is re-checked for legality inside the game lock
        # (act -> game.play). Only a button that carries a version (``expected_version``) refuses a newer game:
        # a slash command shows no board, so another seat's discard committing meanwhile must not refuse it.
        return await self.act(game_id, user_id, place, expected_version=expected_version, target=tgt)

    async def forfeit(self, game_id: int, user_id: int) -> Committed:
        """``user_id`` leaves the running game (FORFEIT in the module docstring)."""

        def step(record: GameRecord) -> Change:
            seat = self.seat_of(record, user_id)
            game = game_of(record)
            if seat in game.forfeited:
                raise BotError("cn.forfeited")
            applied = game.apply(Forfeit(seat))
            return self._finish(record, game, str(applied.action), {"events": list(applied.events), "seat": seat})

        return await self.transact(game_id, step, actor=user_id)

    # -- the AI seats --------------------------------------------------------------------------
    def ai_to_act(self, record: GameRecord) -> bool:
        """True if the game is running and an AI seat has a pending discard or is to play."""
        if record.status != "active" or record.state.get("conex") is None:
            return False
        return self._ai_job(record, game_of(record)) is not None

    def _ai_job(self, record: GameRecord, game: Game) -> int | None:
        if game.is_over:
            return None
        for seat in sorted(game.pending_discards):
            if self.is_ai(record.players[seat]):
                return seat
        seat = game.current_player
        return seat if seat is not None and self.is_ai(record.players[seat]) else None

    async def ai_turn(self, game_id: int) -> Committed | None:
        """Let one AI seat act once (a pending discard first, else its turn); ``None`` if nothing to do.

        The choice (:func:`choose_ai_action`) runs in a worker thread outside the lock; it is committed through
        :meth:`act` checked against the version it was computed for.
        """
        record = await self.get(game_id)
        if record.status != "active" or record.state.get("conex") is None:
            return None
        game = game_of(record)
        seat = self._ai_job(record, game)
        if seat is None:
            return None
        seed = record.id * 1000 + record.version
        action = await asyncio.to_thread(choose_ai_action, game, seat, seed)
        return await self.act(game_id, record.players[seat], action, expected_version=record.version)

    # -- read-only helpers ---------------------------------------------------------------------
    @staticmethod
    def hints(game: Game, seat: int, limit: int = MAX_HINTS) -> list[Hint]:
        """Up to ``limit`` good legal placements over the whole hand of ``seat`` (who must be to play), best
        points first. Spread out for a readable preview: up to 4 finder poses per card are gathered, then picked
        best first while keeping their corner points at least :data:`HINT_SPACING_CM` apart (closer ones only
        fill the list when too few remain, cards shown least first, never a mere re-rotation of a chosen one).
        CPU work: call in a worker thread.

        Raises ``NotYourTurnError`` / ``IllegalActionError`` (``X3`` pending discard, ``E1``) via ``check``.
        """
        game.check(Draw(seat) if game.draw_pile else Pass(seat))
        pool: list[Hint] = []
        for cid in game.hands[seat]:
            for place in game.find_placements(seat, cid, limit=4):
                pool.append(Hint(place, game.points_for(place)))
        pool.sort(key=lambda h: -h.points)
        chosen: list[Hint] = []
        for h in pool:
            if len(chosen) < limit and all(
                math.hypot(h.place.x - c.place.x, h.place.y - c.place.y) >= HINT_SPACING_CM for c in chosen
            ):
                chosen.append(h)
        def repeats(h: Hint) -> bool:  # the same card and corner at (nearly) the same point: a mere rotation
            return any(
                c.place.card == h.place.card and c.place.corner == h.place.corner
                and math.hypot(h.place.x - c.place.x, h.place.y - c.place.y) < HINT_SPACING_CM
                for c in chosen
            )

        rest = [h for h in pool if h not in chosen]
        while rest and len(chosen) < limit:  # fill: cards shown least so far first, then points
            h = min(rest, key=lambda r: (sum(c.place.card == r.place.card for c in chosen), -r.points))
            rest.remove(h)
            if not repeats(h):
                chosen.append(h)
        chosen.sort(key=lambda h: -h.points)
        return chosen


def _with_player(action: AnyAction, seat: int) -> AnyAction:
    from dataclasses import replace

    return replace(action, player=seat)


def choose_ai_action(game: Game, seat: int, seed: int, budget_s: float = AI_BUDGET_S) -> AnyAction:
    """The AI seat's action: ``engine.conex.ai.choose_action`` (CPU work: call in a worker thread). Should it
    raise, or return an action ``game.check`` refuses (a bug), the seat plays :func:`fallback_action` and the
    failure is logged, so a table never hangs on its AI seat."""
    try:
        action = choose_action(game, seat, seed, budget_s)
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
    best: Hint | None = None
    for cid in game.hands[seat]:
        for place in game.find_placements(seat, cid, limit=2):
            pts = game.points_for(place)
            if best is None or pts > best.points:
                best = Hint(place, pts)
    if best is not None:
        return best.place
    return Draw(seat) if game.draw_pile else Pass(seat)


__all__ = [
    "ConexService",
    "Hint",
    "ai_seats",
    "check_coord",
    "choose_ai_action",
    "fallback_action",
    "forfeited_of",
    "game_of",
    "names_of",
    "parse_card_ref",
    "parse_target",
]
