"""CONEX's plug-in: engine ``Game``, options (table size, goal), a lobby of 2-4 seats (U1) with AI seats.

Seats: the lobby's join order (U1); the host is seat 0 and starts. **AI seats use the negative ids** ``-1, -2,
-3`` in ``players`` (the engine's ``bots``); games with an AI seat are not rated. Options: ``{"table": "small" |
"medium" | "large", "goal": 20..100}``. Deals use a 128-bit seed from ``secrets`` (:attr:`ConexRules.new_seed`).

X3 timeout ("a discard not made within the game's turn time limit is made at random"): when an action arrives more
than the game's time per move (its clock's ``per_move``; a game without a clock: :attr:`ConexRules.discard_timeout_s`)
after the lightning and discards are still owed, each owing seat first gets the engine's ``Timeout(seat)`` (its
discard made at random; committed and logged as that seat's ``timeout``), then the action, all under one lock, only
when the action is legal once they are made. A seat choosing its own discard is never pre-empted, nor is a seat whose
own ``Timeout`` is the action (the clock's: the engine makes its owed discard then, one timeout, not two). The time
of the lightning is kept in the envelope's ``extra["discards_since"]``.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from typing import Any

from bot.core.envelope import Envelope, Seat
from bot.core.kind import Components, GameKind, Narration, Picture, Pictures, Rules, Seating, Snapshot
from bot.errors import BotError
from bot.games.conex import letters, narration, payload
from bot.games.conex.ai import ai_action
from bot.games.conex.fairness import abort_reveal
from bot.games.conex.views import DYNAMIC_ITEMS, FairButton
from bot.i18n import t
from bot.storage.records import ActionRecord, GameRecord
from engine.conex import Discard, Game, Place, Timeout, fair
from engine.conex.ai_levels import DEFAULT_LEVEL, LEVELS
from engine.conex.events import CardRemoved, Discarded, DiscardsPending, Drew, Passed, Placed, TimedOut
from engine.errors import IllegalActionError, InvalidInputError, NotYourTurnError, RuleError, StateError
from engine.protocol import Event, GameState
from render.conex_replay import REPLAY

TABLE_SIZES: tuple[str, ...] = ("small", "medium", "large")
DISCARD_TIMEOUT_S = 600.0


class ConexRules(Rules):
    """Options (G2, U3), the deal (U2), the X3 timeout, the P1 target check, the bookkeeping in ``extra``,
    refusals reworded, the AI, migration."""

    ai_function = staticmethod(ai_action)

    def ai_lane(self, state: Any, seat: int, level: str) -> str:
        """``"background"`` for a hard seat's turn (up to ``LEVEL_CALLS["hard"]`` finder calls and a few table
        copies, BENCHMARKS.md "CONEX AI levels"); ``"light"`` otherwise: a discard (X3) takes about a millisecond,
        an easy turn a few finder calls and a medium turn at most 100 (p99 about 0.4 s of CPU, "CONEX AI")."""
        if level == "hard" and seat not in getattr(state, "pending_discards", ()):
            return "background"
        return "light"

    def __init__(self) -> None:
        self.discard_timeout_s: float = DISCARD_TIMEOUT_S
        self.new_seed: Callable[[], int] = lambda: secrets.randbits(128)

    # -- options and seats ---------------------------------------------------------------------------------
    def validate_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """Raises ``InvalidInputError`` (reasons ``bad_table``, ``bad_goal``: worded by the catalogue, the codes stay
        in the engine's text) for an unknown table size (G2) or a goal outside 20-100 (U3)."""
        table, goal = options.get("table", "medium"), options.get("goal", 40)
        if table not in TABLE_SIZES:
            sizes = ", ".join(TABLE_SIZES)
            raise InvalidInputError(
                f"G2: table size must be one of {sizes}, not {table!r}",
                reason="bad_table",
                sizes=sizes,
            )
        if isinstance(goal, bool) or not isinstance(goal, int) or not 20 <= goal <= 100:
            raise InvalidInputError(
                f"U3: the goal must be 20-100 points, not {goal!r}", reason="bad_goal", goal=str(goal)[:12]
            )
        return {"table": table, "goal": goal}

    def engine_setup(self, env: Envelope, players: Sequence[int]) -> dict[str, Any]:
        """The deal (U2): ``players``, a fresh 128-bit ``seed``, ``table``, ``goal`` and the AI seats (``bots``)."""
        return {
            "players": len(players),
            "seed": self.new_seed(),
            "table": env.options.get("table", "medium"),
            "goal": int(env.options.get("goal", 40)),
            "bots": [s for s, seat in enumerate(env.seats) if seat.ai],
        }

    # -- actions -------------------------------------------------------------------------------------------
    def before(self, snap: Snapshot, state: GameState, seat: int | None, action: Any, now: float) -> list[Any]:
        """X3 timeout: ``Timeout`` of every seat whose discard is overdue (the actor's own discard or timeout is
        spared)."""
        assert isinstance(state, Game)
        since = snap.env.extra.get("discards_since")
        if not state.pending_discards or since is None or now - float(since) < self.discard_limit(snap.env):
            return []
        spare = seat if isinstance(action, Discard | Timeout) else None
        return [Timeout(s) for s in sorted(state.pending_discards) if s != spare and state.hands[s]]

    def discard_limit(self, env: Envelope) -> float:
        """Seconds an owed X3 discard may wait: the game's time per move (X3: "within the game's turn time
        limit"), or :attr:`discard_timeout_s` for a game without a clock."""
        per_move = env.clock.get("per_move")
        return float(per_move) if per_move else self.discard_timeout_s

    def check_applied(self, snap: Snapshot, action: Any, events: Sequence[Event], request: dict[str, Any]) -> None:
        """``request["target"]``: a placement must land on that target (``"board"`` or a table card), else P1."""
        target = request.get("target")
        if target is None or not isinstance(action, Place):
            return
        landed = next((e.target for e in events if isinstance(e, Placed)), None)
        if landed != target:
            on = "the board" if landed == "board" else f"card #{landed}"
            want = "the board" if target == "board" else f"card #{target}"
            raise IllegalActionError(f"that pose puts the corner on {on}, not on {want}", rule="P1")

    def after(self, env: Envelope, state: GameState, events: Sequence[Event], now: float) -> Envelope:
        """Start the X3 clock at a lightning; stop it once no discard is owed; keep the card a lightning removed
        (``extra["removed"]``: id, pose) until the next placement, draw or pass; letter the cards that reached a hand
        (``letters.py``)."""
        assert isinstance(state, Game)
        extra = dict(env.extra)
        if any(isinstance(e, DiscardsPending) for e in events):
            extra["discards_since"] = now
        elif not state.pending_discards:
            extra.pop("discards_since", None)
        removed = next((e for e in events if isinstance(e, CardRemoved)), None)
        if removed is not None:  # the table shows the removed card (and no stale "last placement") until play goes on
            extra["removed"] = [removed.card, *removed.pose]
        elif any(isinstance(e, Placed | Drew | Passed) for e in events):
            extra.pop("removed", None)
        return env.with_(extra=letters.track(extra, state))  # hand letters kept for the whole game

    def refine(self, snap: Snapshot, state: GameState, err: Exception) -> Exception:
        """``NotYourTurn`` names the player to act, and tells a player whose own turn was just skipped by the clock
        that their time ran out (``cn.not_your_turn_timed_out``); ``P5`` "not in seat n's hand" becomes
        ``cn.not_in_hand``; a forfeited seat is told it left."""
        if not isinstance(err, RuleError):
            return err
        if isinstance(err, NotYourTurnError) and state.current_player is not None:
            who = snap.names[state.current_player]
            seat = err.details.get("player")
            timeouts = getattr(state, "timeouts", ())
            if isinstance(seat, int) and 0 <= seat < len(timeouts) and timeouts[seat] > 0:
                return BotError("cn.not_your_turn_timed_out", rule="NotYourTurn", who=who)
            return BotError("cn.not_your_turn", rule="NotYourTurn", who=who)
        if err.rule == "P5" and "card" in err.details:
            return BotError("cn.not_in_hand", rule="P5", card=err.details["card"])
        if err.rule == "Forfeited":
            return BotError("cn.forfeited")
        return err

    def deal_commitment(self, setup: dict[str, Any]) -> dict[str, str] | None:
        """The deal's commitment (U2: scheme, deck version, SHA-256 of the setup's seed, ``engine/conex/fair.py``).
        Raises ``ValueError`` for a setup without a whole-number seed."""
        seed = setup.get("seed")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"the setup needs its seed, not {seed!r:.40}")
        return {"scheme": fair.COMMITMENT_SCHEME, "deck": fair.deck_version(), "hash": fair.commitment(seed)}

    def migrate(self, record: GameRecord) -> Envelope:
        """A record saved before envelope version 2: ``{"conex": Game.to_dict() | None, "table", "goal", "host",
        "names", "ai": [ids], "discards_since"?, "locale"}`` (before the game protocol also ``"forfeited"``
        beside a version-1 engine state, handed to the engine's migration with the AI seats)."""
        s = record.state
        try:
            names = [str(n) for n in s.get("names", [])]
            names += [f"P{i + 1}" for i in range(len(names), len(record.players))]
            seats = [Seat.of(names[i], "medium" if uid < 0 else None) for i, uid in enumerate(record.players)]
            engine = s.get("conex")
            if engine is not None and engine.get("version") == 1:
                bots = [i for i, uid in enumerate(record.players) if uid < 0]
                engine = dict(engine, forfeited=s.get("forfeited", []), bots=bots)
            extra = {"discards_since": float(s["discards_since"])} if s.get("discards_since") is not None else {}
            return Envelope(
                engine=engine,
                options={"table": s.get("table", "medium"), "goal": int(s.get("goal", 40))},
                seats=tuple(seats),
                host=s.get("host"),
                locale=s.get("locale"),
                created=record.created_at.timestamp(),
                extra=extra,
            )
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise StateError(f"unreadable CONEX game {record.id}: {err}", field="state") from err


class ConexNarration(Narration):
    """The texts of ``narration.py``."""

    def no_game_here(self) -> BotError:
        return BotError("cn.no_game_here")

    def narrate(self, snap: Snapshot, actions: Sequence[tuple[int, str]], events: Sequence[Event]) -> str:
        return narration.events_text(snap, events)

    def started_text(self, snap: Snapshot) -> str:
        return narration.started(snap)

    def ai_seat_name(self, level: str, index: int, locale: str | None) -> str:
        """``AI 2 (hard)`` / ``IA 2 (difícil)``: the seat's number and its level in words (issue 25)."""
        word = t(f"ai.level_{level}", locale) if level in LEVELS else level
        return t("ai.seat_level", locale, n=index, level=word)

    def board_headline(self, locale: Any) -> str:
        return t("cn.board", locale)

    def last_headline(self, snap: Snapshot, last: ActionRecord | None) -> str:
        return narration.last_headline(snap, last)

    def status_line(self, snap: Snapshot) -> str:
        return narration.status_line(snap)

    def lobby_text(self, snap: Snapshot) -> str:
        return narration.lobby_text(snap)

    def reveal_on_abort(self, snap: Snapshot, locale: Any) -> str:
        """The deal's seed revealed in an abort message (issue 22: every aborted CONEX game reveals its seed)."""
        return abort_reveal(snap, locale)


class ConexPictures(Pictures):
    """The table and the result card (``payload.py``); no new table image after a discard."""

    def board_pictures(self, snap: Snapshot) -> list[Picture]:
        return payload.table_pictures(snap)

    def result_picture(self, snap: Snapshot) -> Picture | None:
        return payload.result_picture(snap)

    def picture_changed(self, committed: Any) -> bool:
        """A discard (chosen, or at random after a timeout) changes no card on the table: no new table image (in a
        channel, where the board above keeps it; a thread of its own keeps one board: the publisher draws it)."""
        events = committed.events
        return not events or not all(isinstance(e, Discarded | TimedOut) for e in events)


class ConexComponents(Components):
    """The table's buttons (``views.py``); the lobby's Leave of a running game offers the forfeit."""

    dynamic_items = DYNAMIC_ITEMS

    def board_view(self, snap: Snapshot) -> Any:
        return payload.table_view(snap)

    def record_items(self, snap: Snapshot, locale: str | None) -> list[Any]:
        """How do I know the deal was fair? beside a finished game's record (the seed is revealed there)."""
        return [FairButton(snap.id, locale=locale)]

    async def leave_running(self, interaction: Any, game_id: int) -> None:
        """Leave clicked on the lobby message of a running game: the private forfeit confirmation."""
        from bot.games.conex import private

        await private.leave(interaction, game_id)


KIND = GameKind(
    name="conex",
    title="CONEX",
    engine=Game,
    prefix="cn",
    start_command="/conex new",
    rules=ConexRules(),
    narration=ConexNarration(),
    pictures=ConexPictures(),
    components=ConexComponents(),
    replay=REPLAY,
    seating=Seating("lobby", 2, 4, ai_ids="negative", ai_levels=LEVELS, default_level=DEFAULT_LEVEL),
    seat_rule="U1",
)
"""CONEX's plug-in (the module docstring)."""
