"""The game layer's core: load once, lock, check/apply through ``engine.protocol``, commit version-checked.

The walk of one action (a command, a button, the AI, later a clock)::

    layer.act(game_id, user_id, action)                       # or layer.transact(game_id, step) for seats
      -> under the game's lock: one storage read, one engine load (GameState.from_dict)  -> Snapshot
      -> the kind's pre-actions (e.g. overdue timeouts), then state.apply(action)         (RuleError: refused)
      -> storage.apply_action(expected_version=...) per engine action; a finished game's result from its Outcome
      -> Committed(snap=<the same in-memory state, never reloaded>, ...)
      -> on_committed hooks (clocks and reminders plug in here)
    layer.play(...) = act + publish the board (publish.py) + hand the snapshot to the AI scheduler (ai.py)

Two simultaneous actions on one game never both apply: the per-game ``asyncio.Lock`` serialises them in this
process and storage's version check refuses the loser across processes (``err.conflict``). A button carries the
version it was drawn at; a click on an older one is ``err.stale``. Nothing is written when anything refuses.

CPU work (rendering, placement searches) goes through :meth:`GameLayer.cpu`, AI searches, analyses and replays through
:meth:`GameLayer.cpu_background`: process pools (``bot/games/cpu.py``), so give them module-level functions and
plain or picklable arguments.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from bot.errors import BotError
from bot.games import clock as clocks
from bot.games import registry
from bot.games.base import GameKind, Snapshot
from bot.games.envelope import Envelope, is_current
from bot.games.results import outcome_result
from bot.storage import UNCHANGED
from bot.storage.errors import ChannelBusyError, GameClosedError, GameNotFoundError, VersionConflictError
from bot.storage.records import GameRecord, GameResult
from engine.errors import RuleError
from engine.protocol import Applied, Event, GameState, Timeout

if TYPE_CHECKING:
    from bot.app import TableBot
    from bot.storage import Storage

log = logging.getLogger(__name__)

COMMITTED: ContextVar[str | None] = ContextVar("committed", default=None)
"""The last action committed by the current task (an interaction's handler): set by :meth:`GameLayer.transact`, so
an error after it is never answered "nothing was changed" (``bot.views.common.refuse``)."""

LOBBY_ACTIONS = frozenset({"join", "leave", "add bot", "close", "accept", "decline", "withdraw", "start", "abort",
                           "expire"})
"""Logged actions that are no engine action (seats, start, abort); everything else in the log replays."""


@dataclass(frozen=True)
class Change:
    """One commit a step decided: the new envelope, the action text for the log, who acted (``None``: the bot),
    and optionally a new status, seat list, result; ``seat``/``events`` of an engine action (for narration)."""

    env: Envelope
    action: str
    actor: int | None
    status: str | None = None
    players: list[int] | None = None
    result: dict[str, Any] | None = None
    seat: int | None = None
    events: tuple[Event, ...] = ()
    wake_at: Any = UNCHANGED
    """When the scheduler looks at the game next (Unix s; ``None`` clears it; default: unchanged)."""


@dataclass(frozen=True)
class Committed:
    """What :meth:`GameLayer.transact` committed: ``snap`` (the game as now stored, with the in-memory engine
    state), the record ``before``, and the ``changes`` in order (several when the kind applied actions first)."""

    snap: Snapshot
    before: GameRecord
    changes: tuple[Change, ...]
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def action(self) -> str:
        return self.changes[-1].action

    @property
    def events(self) -> list[Event]:
        return [e for c in self.changes for e in c.events]

    @property
    def actions(self) -> list[tuple[int, str]]:
        """Engine actions committed, ``(seat, text)`` in order."""
        return [(c.seat, c.action) for c in self.changes if c.seat is not None]

    @property
    def finished(self) -> bool:
        return self.snap.status in ("finished", "aborted")


class _Partial(Exception):
    """Some changes of a step were committed, then one was refused (``error``)."""

    def __init__(self, record: GameRecord, done: tuple[Change, ...], error: BotError) -> None:
        super().__init__(str(error))
        self.record, self.done, self.error = record, done, error


Step = Callable[[Snapshot], Change | Sequence[Change]]
Hook = Callable[[Committed], Awaitable[None] | None]


class GameLayer:
    """The one game layer of a bot (``bot.games``). Attributes: ``kinds`` (registered games by name),
    ``publisher``, ``ai``, ``lobby``, ``on_committed`` (hooks run after every commit, outside the lock),
    ``loads`` (engine states built from storage) and ``copies`` (states copied from a snapshot already loaded): the
    bench counts them per action."""

    def __init__(self, bot: TableBot) -> None:
        from bot.games.ai import AIScheduler
        from bot.games.cpu import CpuPools
        from bot.games.fairshare import FairShare
        from bot.games.lobby import Lobby
        from bot.games.publish import Publisher
        from bot.games.records import Records
        from bot.games.timers import Timers

        self.bot = bot
        self.kinds: dict[str, GameKind] = registry.kinds()
        self._locks: dict[int, asyncio.Lock] = {}
        self.on_committed: list[Hook] = []
        self.loads = 0
        self.copies = 0
        config = getattr(bot, "config", None)
        self.pools = CpuPools(getattr(config, "cpu_workers", 0), getattr(config, "ai_workers", None))
        self.fair = FairShare()
        self.publisher = Publisher(self)
        self.ai = AIScheduler(self)
        self.lobby = Lobby(self)
        self.records = Records(self)
        self.clock = clocks.Clock()
        self.timers = Timers(self)

    @property
    def storage(self) -> Storage:
        return self.bot.storage

    @property
    def bot_user_id(self) -> int | None:
        return self.bot.user.id if self.bot.user else None

    # -- the CPU seam ----------------------------------------------------------------------------------------
    async def cpu(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        """Run ``fn(*args, **kwargs)`` in the interactive lane of the process pool (``CPU_WORKERS``; threads when 0):
        what a person waits for. ``fn`` must be a module-level function and its arguments plain or picklable."""
        return await self.pools.run("interactive", fn, *args, **kwargs)

    async def cpu_background(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        """As :meth:`cpu`, in the background lane (``AI_WORKERS``, lower OS priority): AI searches, analyses,
        replays. However many of these run, the interactive lane keeps its own workers."""
        return await self.pools.run("background", fn, *args, **kwargs)

    def owns(self, record: GameRecord) -> bool:
        """True if this process runs the shard of the game's guild (background work is done for those only)."""
        return bool(getattr(self.bot, "owns", lambda _guild: True)(record.guild_id))

    # -- loading ---------------------------------------------------------------------------------------------
    def lock(self, game_id: int) -> asyncio.Lock:
        """The per-game lock (one per game id in this process)."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    def kind_of(self, record: GameRecord) -> GameKind:
        kind = self.kinds.get(record.kind)
        if kind is None:
            raise BotError("err.no_such_game", game_id=record.id)
        return kind

    async def record(self, game_id: int) -> GameRecord:
        """The stored game. Raises ``BotError("err.no_such_game")``."""
        record = await self.storage.get_game(game_id)
        if record is None or record.kind not in self.kinds:
            raise BotError("err.no_such_game", game_id=game_id)
        return record

    def envelope(self, record: GameRecord) -> Envelope:
        """The envelope of ``record`` (migrated if saved before version 2; cheap: no engine load)."""
        return Envelope.from_dict(record.state) if is_current(record.state) else self.kind_of(record).migrate(record)

    def snapshot(self, record: GameRecord) -> Snapshot:
        """The game of ``record`` with its envelope (migrated if saved before version 2) and engine state (the
        one ``GameState.from_dict`` of an action). Raises ``StateError`` for a corrupt state."""
        kind = self.kind_of(record)
        env = self.envelope(record)
        state = None
        if env.engine is not None:
            state = kind.state_cls.from_dict(env.engine)
            self.loads += 1
        return Snapshot(kind, record, env, state)

    async def load(self, game_id: int) -> Snapshot:
        """:meth:`record` then :meth:`snapshot` (read-only: autocomplete, private views, the AI)."""
        return self.snapshot(await self.record(game_id))

    async def channel_record(self, channel_id: int, kind: GameKind | None = None) -> GameRecord:
        """The open game in the channel (of ``kind`` if given), not loaded: for commands that only need its id
        and status. Raises the kind's "no game here" refusal."""
        record = await self.storage.active_game_in_channel(channel_id)
        if record is None or record.kind not in self.kinds or (kind is not None and record.kind != kind.name):
            if kind is not None:
                raise kind.no_game_here()
            raise BotError("err.no_game_in_channel")
        return record

    async def channel_game(self, channel_id: int, kind: GameKind | None = None) -> Snapshot:
        """:meth:`channel_record` loaded (for commands that read the state; pass it on as ``base=``)."""
        return self.snapshot(await self.channel_record(channel_id, kind))

    async def channel_busy(self, channel_id: int) -> bool:
        """True if an open game (of any kind) holds the channel."""
        return await self.storage.active_game_in_channel(channel_id) is not None

    # -- writing ---------------------------------------------------------------------------------------------
    async def create(
        self, kind: GameKind, *, guild_id: int, channel_id: int, env: Envelope, players: list[int], status: str,
        wake_at: float | None = None,
    ) -> Snapshot:
        """Create a game (``wake_at``: the scheduler's first look: a set-up's expiry, a first deadline). Raises
        ``BotError("err.channel_busy")`` when the channel holds an open game."""
        try:
            game_id = await self.storage.create_game(
                kind.name, guild_id, channel_id, env.to_dict(), players, status=status, wake_at=wake_at
            )
        except ChannelBusyError as err:
            raise BotError("err.channel_busy", game_id=err.details.get("game_id", "?")) from err
        return await self.load(game_id)

    async def transact(
        self,
        game_id: int,
        step: Step,
        *,
        expected_version: int | None = None,
        statuses: tuple[str, ...] = ("active",),
        base: Snapshot | None = None,
    ) -> Committed:
        """Run ``step`` on the game loaded once under its lock and commit what it returns, one storage commit per
        :class:`Change`, each checked against the version before it.

        ``step(snap)`` is synchronous (engine work, fast) and may apply actions to ``snap.state`` (it is the
        step's own copy); it raises ``RuleError``/``BotError`` to refuse, and then nothing is written. ``base``: a
        snapshot the caller already loaded (e.g. to run the finder on it): when the stored version is still
        ``base``'s, a copy of its state is used instead of loading the game again.

        Raises:
            BotError: ``err.no_such_game``, ``err.not_started`` (a lobby), ``err.game_closed``,
                ``err.wrong_phase``, ``err.stale`` (``expected_version`` is not the stored one), ``err.conflict``.
            RuleError: the engine's refusal.
        """
        async with self.lock(game_id):
            before = await self.record(game_id)
            if before.status not in statuses:
                if before.status == "lobby":
                    raise BotError("err.not_started")
                raise BotError("err.game_closed" if not before.is_open else "err.wrong_phase", status=before.status)
            if expected_version is not None and before.version != expected_version:
                raise BotError("err.stale")
            snap = self._reuse(base, before) or self.snapshot(before)
            decided = step(snap)
            changes = (decided,) if isinstance(decided, Change) else tuple(decided)
            try:
                record = await self._commit(before, changes)
            except _Partial as partial:  # the first commits stand: show them, then refuse the rest
                done = Committed(self.snapshot(partial.record), before, partial.done)
                self.bot.spawn(self._show_partial(done), name=f"partial-{game_id}")
                raise partial.error from None
        COMMITTED.set(changes[-1].action)
        after = Snapshot(snap.kind, record, changes[-1].env, snap.state)
        committed = Committed(after, before, changes)
        if log.isEnabledFor(logging.INFO):
            log.info("game %s (%s) v%s: %s", game_id, record.kind, record.version,
                     "; ".join(f"{c.action} by {c.actor}" for c in changes))
        await self._run_hooks(committed)
        return committed

    def _reuse(self, base: Snapshot | None, record: GameRecord) -> Snapshot | None:
        if base is None or base.state is None or base.version != record.version or base.status != record.status:
            return None
        self.copies += 1
        return Snapshot(base.kind, record, base.env, base.state.copy())

    async def _commit(self, before: GameRecord, changes: Sequence[Change]) -> GameRecord:
        """Commit ``changes`` in order, each checked against the version before it. Raises ``BotError``
        (``err.conflict``, ``err.game_closed``), or :class:`_Partial` when some changes were committed."""
        version = before.version
        record = before
        for n, change in enumerate(changes):
            state = change.env.to_dict()
            try:
                version = await self.storage.apply_action(
                    before.id, version, state, player=change.actor, action=change.action, status=change.status,
                    players=change.players, result=change.result, wake_at=change.wake_at,
                )
            except (VersionConflictError, GameClosedError, GameNotFoundError) as err:
                closed = not isinstance(err, VersionConflictError) or await self._closed_meanwhile(before.id)
                refusal = BotError("err.game_closed", status="closed") if closed else BotError("err.conflict")
                refusal.__cause__ = err
                if n:
                    raise _Partial(record, tuple(changes[:n]), refusal) from err
                raise refusal from err
            status = change.status or ("finished" if change.result is not None else record.status)
            record = replace(
                record, state=state, version=version, status=status,
                players=list(change.players) if change.players is not None else record.players,
                result=GameResult.coerce(change.result) if change.result is not None else record.result,
                updated_at=datetime.now(UTC),
                wake_at=None if status in ("finished", "aborted") else (
                    record.wake_at if change.wake_at is UNCHANGED else change.wake_at),
            )
        return record

    async def _closed_meanwhile(self, game_id: int) -> bool:
        """After a lost race: True when the winner closed the game (an abort, the bot removed from the guild), so
        the loser is told the game is over, not "look at the new board" (there is none)."""
        fresh = await self.storage.get_game(game_id)
        return fresh is None or not fresh.is_open

    async def _show_partial(self, committed: Committed) -> None:
        await self._run_hooks(committed)
        await self.after_commit(committed, self.headline(committed))

    async def _run_hooks(self, committed: Committed) -> None:
        for hook in list(self.on_committed):
            try:
                out = hook(committed)
                if out is not None:
                    await out
            except Exception:
                log.exception("on_committed hook %r failed for game %s", hook, committed.snap.id)

    # -- engine actions ----------------------------------------------------------------------------------------
    def engine_change(self, snap: Snapshot, env: Envelope, state: GameState, applied: Applied, seat: int) -> Change:
        """The :class:`Change` of one applied engine action: the envelope with the state now, the action text,
        the acting seat's user id, and the result once the game is over."""
        now = self.clock.now()
        env = snap.kind.after(env, state, applied.events, now).with_(engine=state.to_dict())
        timed_out = applied.action.player if isinstance(applied.action, Timeout) else None
        env, wake = clocks.after_action(env, state, applied.events, now, snap.is_ai, timed_out)
        players = snap.players
        actor = players[seat] if 0 <= seat < len(players) else None
        result = None
        outcome = state.outcome
        if outcome is not None:
            ai_seats = [s for s in range(len(players)) if snap.is_ai(s)]
            result = outcome_result(outcome, players, ai_seats=ai_seats)
        return Change(env, str(applied.action), actor, status="finished" if result else None, result=result,
                      seat=seat, events=tuple(applied.events), wake_at=wake)

    async def act(
        self, game_id: int, user_id: int, action: Any, *, expected_version: int | None = None,
        request: dict[str, Any] | None = None, base: Snapshot | None = None,
    ) -> Committed:
        """Apply ``action`` (its text, or an action object whose ``player`` is replaced) for ``user_id``'s seat.

        The kind's pre-actions (:meth:`GameKind.before`) are applied and committed first, in the same lock, when
        the action is legal after them; a refusal writes nothing. ``request`` carries the caller's extras for
        :meth:`GameKind.check_applied` (e.g. the target a placement must land on); ``base`` as in :meth:`transact`.

        Raises what :meth:`transact` raises, ``BotError("err.not_player")``, and the kind's refusals.
        """

        def step(snap: Snapshot) -> list[Change]:
            state = snap.require_state()
            seat = snap.seat_of(user_id)
            kind = snap.kind
            try:
                parsed = kind.parse(snap, seat, action)
                now = self.clock.now()
                changes: list[Change] = []
                env = snap.env
                for pre in kind.before(snap, state, seat, parsed, now):
                    applied = state.apply(pre)
                    changes.append(self.engine_change(snap, env, state, applied, pre.player))
                    env = changes[-1].env
                applied = state.apply(parsed)
            except RuleError as err:
                raise kind.refine(snap, state, err) from err
            kind.check_applied(snap, applied.action, applied.events, request or {})
            changes.append(self.engine_change(snap, env, state, applied, seat))
            return changes

        return await self.transact(game_id, step, expected_version=expected_version, base=base)

    async def abort(self, game_id: int, *, by: int, guild_id: int) -> Committed:
        """End an open game without a result (an admin's decision), only a game of ``guild_id``."""

        def step(snap: Snapshot) -> Change:
            if snap.record.guild_id != guild_id:
                raise BotError("err.no_game_in_channel")
            return Change(snap.env, "abort", by, status="aborted")

        return await self.transact(game_id, step, statuses=("lobby", "active"))

    # -- the whole walk ----------------------------------------------------------------------------------------
    @staticmethod
    def headline(committed: Committed) -> str:
        """The kind's narration of what ``committed`` did."""
        snap = committed.snap
        return snap.kind.narrate(snap, committed.actions, committed.events)

    async def after_commit(self, committed: Committed, headline: str, interaction: Any = None) -> None:
        """Publish the board of a commit (answering ``interaction`` when given), then let the AI act on it."""
        pictures = committed.finished or committed.snap.kind.picture_changed(committed)
        await self.publisher.publish(committed.snap, headline=headline, interaction=interaction, pictures=pictures)
        self.ai.notify(committed.snap)

    async def play(
        self, interaction: Any, game_id: int, action: Any, *, expected_version: int | None = None,
        request: dict[str, Any] | None = None, base: Snapshot | None = None,
    ) -> Committed:
        """A player's engine action from a command or a button: :meth:`act` (the interaction is deferred if that
        takes long), then the new board answers the interaction and the AI seats act."""
        from bot.games.delivery import within

        committed = await within(interaction, self.act(
            game_id, interaction.user.id, action, expected_version=expected_version, request=request, base=base
        ))
        COMMITTED.set(committed.action)  # within() ran the commit in its own task
        await self.after_commit(committed, self.headline(committed), interaction)
        return committed

    async def show_board(self, interaction: Any, snap: Snapshot) -> None:
        """Post the game's current board again as the answer to ``interaction`` (``/<game> board``); an AI turn
        left pending is played then (a safety net). Refused past the ``board`` cooldown (``fairshare.py``)."""
        self.fair.check(interaction, "board")
        await self.publisher.publish(snap, headline=snap.kind.board_headline(interaction.locale),
                                     interaction=interaction)
        self.ai.notify(snap)

    async def on_ready(self) -> None:
        """After every READY: start the timers (once), re-post stale boards, then let every AI seat that is awaited
        act (no duplicate search: a game whose AI is already thinking is left alone)."""
        self.timers.start()
        await self.publisher.recover_all()
        await self.ai.resume_all()
