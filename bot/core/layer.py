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

CPU work (rendering, placement searches) goes through :meth:`GameLayer.cpu`, analyses and replays through
:meth:`GameLayer.cpu_background`, AI searches through the lane their game names (``Rules.ai_lane``): process pools
(``bot/core/cpu.py``), so give them module-level functions and plain or picklable arguments.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from bot.core import clock as clocks
from bot.core import registry
from bot.core.admission import Admission, hurry_of
from bot.core.changes import COMMITTED, Change, Committed, Partial, committed_anyway
from bot.core.cpu import CpuPools
from bot.core.envelope import Envelope
from bot.core.host import shards_of
from bot.core.kind import GameKind, Snapshot
from bot.core.loading import Loader
from bot.core.outbox import Outbox
from bot.core.results import CASUAL, outcome_result, unmoved_seats
from bot.errors import BotError
from bot.storage import UNCHANGED, Owed
from bot.storage.errors import (
    ChannelBusyError,
    GameClosedError,
    GameNotFoundError,
    InvalidDataError,
    VersionConflictError,
)
from bot.storage.records import GameRecord
from bot.storage.results import GameResult
from engine.errors import RuleError
from engine.protocol import Applied, GameState, Timeout

if TYPE_CHECKING:
    from bot.core.host import Host
    from bot.storage import Storage

log = logging.getLogger(__name__)


Step = Callable[[Snapshot], Change | Sequence[Change]]
Hook = Callable[[Committed], Awaitable[None] | None]
Check = Callable[[Snapshot], None]
Shown = Callable[[Committed, str, Any], Awaitable[None]]
"""A subscriber to shown commits: ``(committed, headline, interaction or None)``."""


class GameLayer(Loader):
    """The one game layer of a bot (``bot.games``), its core: it knows no service by name.

    Attributes: ``kinds`` (registered games by name), ``outbox`` (effects owed by commits; services subscribe
    there), ``on_committed`` (hooks run after every commit, outside the lock), ``on_shown`` (subscribers run in order
    after a commit is to be shown: the publisher posts its board, then the AI scheduler looks at it),
    ``on_ready_hooks`` (run after every READY), ``loads`` (engine states built from storage) and ``copies`` (states
    copied from a snapshot already loaded): the bench counts them per action. The services themselves
    (``publisher``, ``ai``, ``lobby``, ``records``, ``timers``, ``fair``, ``alerts``, ``queue``) are attached by the
    wiring root (:mod:`bot.wiring`) for the UI and the games to reach."""

    publisher: Any
    ai: Any
    lobby: Any
    records: Any
    timers: Any
    fair: Any
    alerts: Any
    queue: Any
    offers: Any
    languages: Any
    first_answers: Any

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self.kinds: dict[str, GameKind] = registry.kinds()
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self.clock = clocks.Clock()
        self.outbox = Outbox(
            storage=lambda: self.bot.storage,
            now=self.clock.now,
            shards=self.shards,
            spawn=bot.spawn,
            closed=bot.is_closed,
        )
        self.on_committed: list[Hook] = []
        self.on_shown: list[Shown] = []
        self.on_ready_hooks: list[Callable[[], Awaitable[Any] | Any]] = []
        self.loads = 0
        self.copies = 0
        config = getattr(bot, "config", None)
        self.pools = CpuPools(getattr(config, "cpu_workers", 0), getattr(config, "ai_workers", None))
        self.admission = Admission(hurry=hurry_of(bot))

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
        """As :meth:`cpu`, in the background lane (``AI_WORKERS``, lower priority): AI searches, analyses, replays."""
        return await self.pools.run("background", fn, *args, **kwargs)

    def shards(self) -> tuple[int, list[int]] | None:
        """``(shard_count, shard ids of this process)``, or ``None`` when it serves every guild (:func:`shards_of`)."""
        return shards_of(getattr(self.bot, "config", None))

    def owns(self, record: GameRecord) -> bool:
        """True if this process runs the shard of the game's guild (background work is done for those only)."""
        return bool(getattr(self.bot, "owns", lambda _guild: True)(record.guild_id))

    # -- writing ---------------------------------------------------------------------------------------------
    async def create(
        self,
        kind: GameKind,
        *,
        guild_id: int,
        channel_id: int,
        env: Envelope,
        players: list[int],
        status: str,
        wake_at: float | None = None,
        owed: Sequence[Owed] = (),
    ) -> Snapshot:
        """Create a game (``wake_at``: the scheduler's first look: a set-up's expiry, a first deadline) with the
        effects the subscribers' rules say it owes (a started game's first board...) and ``owed``. Raises
        ``BotError("err.channel_busy")`` when the channel holds an open game."""
        now = datetime.now(UTC)
        draft = GameRecord(
            0, kind.name, guild_id, channel_id, status, env.to_dict(), 0, list(players), {}, now, now, wake_at=wake_at
        )
        state = kind.engine.from_dict(env.engine) if env.engine is not None else None
        owed = [*self.outbox.owed(Snapshot(kind, draft, env, state), None), *owed]
        try:
            game_id = await self.storage.create_game(
                kind.name, guild_id, channel_id, env.to_dict(), players, status=status, wake_at=wake_at, owed=owed
            )
        except ChannelBusyError as err:
            raise BotError("err.channel_busy", game_id=err.details.get("game_id", "?")) from err
        self.outbox.committed(owed)
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
            owed = self.outbox.owed(self._after(snap, before, changes), changes[-1]) if changes else []
            try:
                record = await self._commit(before, changes, owed)
            except Partial as partial:  # the first commits stand: show them, then refuse the rest
                done = Committed(self.snapshot(partial.record), before, partial.done)
                self.bot.spawn(self._show_partial(done), name=f"partial-{game_id}")
                raise partial.error from None
        COMMITTED.set(changes[-1].action)
        self.outbox.committed(owed)
        after = Snapshot(snap.kind, record, changes[-1].env, snap.state)
        committed = Committed(after, before, changes)
        if log.isEnabledFor(logging.INFO):
            log.info(
                "game %s (%s) v%s: %s",
                game_id,
                record.kind,
                record.version,
                "; ".join(f"{c.action} by {c.actor}" for c in changes),
            )
        await self._run_hooks(committed)
        return committed

    @staticmethod
    def _after(snap: Snapshot, before: GameRecord, changes: Sequence[Change]) -> Snapshot:
        """The game as it will be once ``changes`` are committed (for the rules of owed effects)."""
        last = changes[-1]
        status = before.status
        for change in changes:
            status = change.status or ("finished" if change.result is not None else status)
        record = replace(
            before,
            status=status,
            version=before.version + len(changes),
            players=list(last.players) if last.players is not None else before.players,
        )
        return Snapshot(snap.kind, record, last.env, snap.state)

    def _reuse(self, base: Snapshot | None, record: GameRecord) -> Snapshot | None:
        if base is None or base.state is None or base.version != record.version or base.status != record.status:
            return None
        self.copies += 1
        return Snapshot(base.kind, record, base.env, base.state.copy())

    async def _commit(self, before: GameRecord, changes: Sequence[Change], owed: Sequence[Owed] = ()) -> GameRecord:
        """Commit ``changes`` in order, each checked against the version before it, each with the effects ``owed``
        (the outbox: handlers are idempotent, so a board owed by an intermediate version is the latest board).
        Raises ``BotError`` (``err.conflict``, ``err.game_closed``), or :class:`Partial` when some changes were
        committed."""
        version = before.version
        record = before
        for n, change in enumerate(changes):
            state = change.env.to_dict()
            try:
                version = await self.storage.apply_action(
                    before.id,
                    version,
                    state,
                    player=change.actor,
                    action=change.action,
                    status=change.status,
                    players=change.players,
                    result=change.result,
                    wake_at=change.wake_at,
                    owed=owed,
                )
            except (VersionConflictError, GameClosedError, GameNotFoundError) as err:
                closed = not isinstance(err, VersionConflictError) or await self._closed_meanwhile(before.id)
                refusal = BotError("err.game_closed", status="closed") if closed else BotError("err.conflict")
                refusal.__cause__ = err
                if n:
                    raise Partial(record, tuple(changes[:n]), refusal) from err
                raise refusal from err
            except (InvalidDataError, ChannelBusyError):
                raise
            except Exception as err:  # the database went away: was the commit made before it did?
                if not await committed_anyway(self.storage, before.id, version, change, err):
                    raise  # not saved (earlier changes of the step were: their boards are owed to the outbox)
                version += 1
            status = change.status or ("finished" if change.result is not None else record.status)
            record = replace(
                record,
                state=state,
                version=version,
                status=status,
                players=list(change.players) if change.players is not None else record.players,
                result=GameResult.coerce(change.result) if change.result is not None else record.result,
                updated_at=datetime.now(UTC),
                wake_at=None
                if status in ("finished", "aborted")
                else (record.wake_at if change.wake_at is UNCHANGED else change.wake_at),
            )
        return record

    async def _closed_meanwhile(self, game_id: int) -> bool:
        """After a lost race: True when the winner closed the game (the loser is told so, not "see the new board")."""
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
        env = snap.kind.rules.after(env, state, applied.events, now).with_(engine=state.to_dict())
        timed_out = applied.action.player if isinstance(applied.action, Timeout) else None
        env, wake = clocks.after_action(env, state, applied.events, now, snap.is_ai, timed_out)
        players = snap.players
        actor = players[seat] if 0 <= seat < len(players) else None
        result = None
        outcome = state.outcome
        if outcome is not None:
            ai_seats = [s for s in range(len(players)) if snap.is_ai(s)]
            unmoved = unmoved_seats(state.history, len(players))  # rated only when each player has moved
            casual = bool(env.extra.get(CASUAL))  # opened while the server played unrated games (/settings)
            result = outcome_result(outcome, players, ai_seats=ai_seats, unmoved=unmoved, casual=casual)
        return Change(
            env,
            str(applied.action),
            actor,
            status="finished" if result else None,
            result=result,
            seat=seat,
            events=tuple(applied.events),
            wake_at=wake,
        )

    async def act(
        self,
        game_id: int,
        user_id: int,
        action: Any,
        *,
        expected_version: int | None = None,
        request: dict[str, Any] | None = None,
        base: Snapshot | None = None,
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
                parsed = kind.rules.parse(snap, seat, action)
                now = self.clock.now()
                changes: list[Change] = []
                env = snap.env
                for pre in kind.rules.before(snap, state, seat, parsed, now):
                    applied = state.apply(pre)
                    changes.append(self.engine_change(snap, env, state, applied, pre.player))
                    env = changes[-1].env
                applied = state.apply(parsed)
            except RuleError as err:
                raise kind.rules.refine(snap, state, err) from err
            kind.rules.check_applied(snap, applied.action, applied.events, request or {})
            changes.append(self.engine_change(snap, env, state, applied, seat))
            return changes

        return await self.transact(game_id, step, expected_version=expected_version, base=base)

    async def abort(self, game_id: int, *, by: int, guild_id: int, check: Check | None = None) -> Committed:
        """End an open game of ``guild_id`` without a result (an admin's); ``check(snap)`` may refuse it, locked."""

        def step(snap: Snapshot) -> Change:
            if snap.record.guild_id != guild_id:
                raise BotError("err.no_game_in_channel")
            if check is not None:
                check(snap)
            return Change(snap.env, "abort", by, status="aborted")

        return await self.transact(game_id, step, statuses=("lobby", "active"))

    # -- the whole walk ----------------------------------------------------------------------------------------
    @staticmethod
    def headline(committed: Committed) -> str:
        """The kind's narration of what ``committed`` did."""
        snap = committed.snap
        return snap.kind.narration.narrate(snap, committed.actions, committed.events)

    async def after_commit(self, committed: Committed, headline: str, interaction: Any = None) -> None:
        """Show a commit: every ``on_shown`` subscriber in order (the publisher posts its board, answering
        ``interaction`` when given; then the AI scheduler lets an AI seat act on it)."""
        for shown in list(self.on_shown):
            await shown(committed, headline, interaction)

    async def perform(self, interaction: Any, work: Awaitable[Committed]) -> Committed:
        """The one path of an action asked for through an interaction (a command, a button, a claim, later a web
        client): ``work`` loads, applies and commits (with the effects it owes: :meth:`transact`); then the new
        board answers ``interaction`` and the AI seats act. The first response, if the work is slow, is the
        first-response guard's (``bot/first_response.py``); anything that fails after the commit is answered
        "your action was saved" (``COMMITTED``), and what the commit owes is still done by the outbox. At most
        ``admission.slots`` actions work at once; one that waits is answered first (:mod:`bot.core.admission`)."""
        try:
            async with self.admission.admit(interaction):
                committed = await work
                await self.after_commit(committed, self.headline(committed), interaction)
        finally:
            getattr(work, "close", lambda: None)()  # a no-op once awaited; else (cancelled while waiting) never started
        return committed

    async def play(
        self,
        interaction: Any,
        game_id: int,
        action: Any,
        *,
        expected_version: int | None = None,
        request: dict[str, Any] | None = None,
        base: Snapshot | None = None,
    ) -> Committed:
        """A player's engine action from a command or a button: :meth:`act` through :meth:`perform`."""
        return await self.perform(
            interaction,
            self.act(
                game_id, interaction.user.id, action, expected_version=expected_version, request=request, base=base
            ),
        )

    async def on_ready(self) -> None:
        """After every READY: start the outbox's workers, then every ``on_ready_hooks`` subscriber in order (the
        timers start, stale boards are re-posted, awaited AI seats act)."""
        self.outbox.start()
        for hook in list(self.on_ready_hooks):
            out = hook()
            if out is not None and hasattr(out, "__await__"):
                await out
