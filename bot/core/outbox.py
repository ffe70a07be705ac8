"""The worker side of the outbox: every effect a commit owed is run until it is done, whatever fails meanwhile.

Commits write their effects in the same transaction (``bot/storage/effects.py``). Services **subscribe** here:
``outbox.subscribe(kind, handler, rule=...)``: ``rule(snap, change)`` says which effects a commit owes (the core
asks every rule at every commit and knows no service by name); ``handler(effect)`` does the work. The committing
process usually does the work at once itself (a player's board answers their interaction) and then marks it
:meth:`Outbox.done`; effects are given a short delay so the workers do not race it. Whatever is left (the process
died, Discord refused, the database was away) the workers find, claim and run: one task per game at a time, in the
order they were owed, across every game.

- **Idempotent**: a handler re-reads the game and does only what is still missing (a board already showing a newer
  version is not posted again), so an effect run twice does no harm; done effects are deleted.
- **Failures** push an effect back (:data:`BACKOFF_S`), a database outage pauses the workers (then they resume on
  their own: no restart), a handler that says :class:`Drop` (the channel is gone, the guild left) ends it.
- **Several processes**: claims are row locks (``FOR UPDATE SKIP LOCKED`` on PostgreSQL) with a lease time; the
  process that serves a shard releases that shard's claims when it starts, so the work of a dead process resumes
  at once.
- **Time** is the bot's one clock (``bot/core/clock.py``); due times more than an hour ahead are due now (a host
  clock set back cannot park an effect).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage.effects import MAX_DELAY_S, Effect, Owed

log = logging.getLogger(__name__)

BACKOFF_S: tuple[float, ...] = (2.0, 5.0, 15.0, 30.0, 60.0, 120.0, 300.0, 600.0)
"""Delay before the n-th retry of a failed effect (then :data:`BACKOFF_S`[-1] again)."""
GIVE_UP_AFTER = 40
"""Failed runs after which an effect is dropped with an error in the log (about 6 hours of retries)."""
IDLE_S = 30.0
"""The workers look at the outbox at least this often (effects owed by another process are found then)."""
OUTAGE_S: tuple[float, ...] = (0.5, 1.0, 2.0, 5.0)
"""Pauses while the database does not answer (then the last one, until it answers)."""
CLAIM_LEASE_S = 60.0
"""How long a claim holds: an effect whose runner died with its database connection runs again after it."""
BATCH = 50
WAIT_CAP_ENV = "TABLEBOT_OUTBOX_WAIT_S"
"""Tests only: when set (seconds), no owed effect is left to the committing process longer than this before the
workers may run it, and the workers look at the outbox at least this often, in an outage too (production: each
rule's own grace, e.g. 30 s for an AI move, 10 s for a board; :data:`IDLE_S`; :data:`OUTAGE_S`). The e2e
database-outage tests set it: the work a committing process could not finish in the outage is taken up seconds
after the database is back."""


def wait_cap_from_env() -> float | None:
    """``$TABLEBOT_OUTBOX_WAIT_S`` as seconds (None: unset or empty). Raises ``ValueError`` unless a number > 0."""
    raw = os.environ.get("TABLEBOT_OUTBOX_WAIT_S", "").strip()
    if not raw:
        return None
    cap = float(raw)
    if not cap > 0:
        raise ValueError(f"{WAIT_CAP_ENV} must be a number of seconds > 0, not {raw!r}")
    return cap


Handler = Callable[[Effect], Awaitable[None]]
Rule = Callable[[Any, Any], Sequence[Owed]]


class Drop(Exception):
    """Raised by a handler: the effect can never be done (its channel was deleted...): forget it, logged."""


class Later(Exception):
    """Raised by a handler: not now (e.g. the same work is in flight in this process): try again after
    ``delay_s`` without counting a failure."""

    def __init__(self, delay_s: float = 2.0) -> None:
        super().__init__(f"later ({delay_s} s)")
        self.delay_s = delay_s


@dataclass
class _Stats:
    ran: int = 0
    failed: int = 0
    dropped: int = 0
    claimed: int = 0


class Outbox:
    """See the module docstring. ``storage``/``now``/``shards``/``spawn`` are callables so the outbox can be built
    before the bot's storage is open: ``storage()`` the ``Storage``, ``now()`` the bot's clock, ``shards()`` the
    ``(count, ids)`` this process serves or ``None``, ``spawn(coro, name)`` a task the bot tracks."""

    def __init__(
        self,
        *,
        storage: Callable[[], Any],
        now: Callable[[], float],
        shards: Callable[[], tuple[int, list[int]] | None],
        spawn: Callable[..., asyncio.Task[Any]],
        closed: Callable[[], bool],
    ) -> None:
        self._storage, self._now, self._shards, self._spawn, self._closed = storage, now, shards, spawn, closed
        self.owner = f"{uuid.uuid4().hex[:12]}"
        self.handlers: dict[str, Handler] = {}
        self.rules: list[Rule] = []
        self.prompt: set[str] = set()
        """Kinds no committing process does inline: the workers take them up as soon as their delay has passed
        (:meth:`committed` pokes them), not at their next idle look."""
        self.stats = _Stats()
        self.backoff_s: tuple[float, ...] = BACKOFF_S
        self.give_up_after = GIVE_UP_AFTER
        self.wait_cap_s: float | None = wait_cap_from_env()
        self.idle_s = IDLE_S if self.wait_cap_s is None else min(IDLE_S, self.wait_cap_s)
        self.on_settled: list[Callable[[str, str, float], None]] = []
        """Observers of every settled effect: ``(kind, result, lag_s)`` with ``result`` one of ``done`` (a worker
        ran it), ``inline`` (its committing process did it), ``later``, ``failed``, ``dropped``; ``lag_s``: seconds
        since it was owed (0 for ``inline``). Metrics subscribe here."""
        self._poked = asyncio.Event()
        self._task: asyncio.Task[Any] | None = None
        self._games: dict[int, asyncio.Task[None]] = {}
        self._queues: dict[int, list[Effect]] = {}

    # -- wiring ------------------------------------------------------------------------------------------------
    def subscribe(self, kind: str, handler: Handler, rule: Rule | None = None, *, prompt: bool = False) -> None:
        """Run ``handler`` for effects of ``kind``; ``rule(snap, change)``, if given, names the effects a commit
        owes (any kinds). ``prompt``: nobody does this kind inline, so the workers run it as soon as its delay has
        passed after the commit (see :meth:`committed`)."""
        self.handlers[kind] = handler
        if rule is not None:
            self.rules.append(rule)
        if prompt:
            self.prompt.add(kind)

    def committed(self, owed: Sequence[Owed]) -> None:
        """A commit stored ``owed``: poke the workers when each effect of a :attr:`prompt` kind falls due (at once
        for no delay). Needs a running event loop; other kinds wait for their committing process or the workers'
        next look."""
        for delay in sorted({o.delay_s for o in owed if o.kind in self.prompt}):
            if delay <= 0:
                self.poke()
            else:
                asyncio.get_running_loop().call_later(delay + 0.05, self.poke)

    def owed(self, snap: Any, change: Any) -> list[Owed]:
        """Every effect the subscribers' rules say ``change`` (leading to ``snap``) owes."""
        out: list[Owed] = []
        for rule in self.rules:
            out.extend(rule(snap, change))
        cap = self.wait_cap_s
        if cap is not None:
            out = [dataclasses.replace(o, delay_s=min(o.delay_s, cap)) for o in out]
        return out

    async def done(self, game_id: int, version: int, kind: str, *, up_to: bool = True) -> None:
        """The committing process did the work of ``(game_id, version, kind)`` (and of older versions unless
        ``up_to=False``) itself. A failure here is harmless: the handler finds the work done and forgets it."""
        try:
            if await self._storage().complete_effects(game_id, version, kind, up_to=up_to):
                self._settled(kind, "inline", 0.0)
        except Exception as err:  # the database is away: a worker finds the work done later
            log.info("could not mark effect %s of game %s v%s done: %s", kind, game_id, version, err)

    def settled_inline(self, kind: str, count: int = 1) -> None:
        """``count`` effects of ``kind`` were completed by their committing process inside another write (e.g. the
        board recorded with its ``board`` effect done): tell the observers, as :meth:`done` does."""
        for _ in range(count):
            self._settled(kind, "inline", 0.0)

    def poke(self) -> None:
        """Something was owed or failed: look at the outbox now."""
        self._poked.set()

    # -- the workers -------------------------------------------------------------------------------------------
    def start(self) -> None:
        """Start the worker loop (idempotent: called on every READY)."""
        if self._task is None or self._task.done():
            self._task = self._spawn(self._run(), name="daemon:outbox")

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    async def _run(self) -> None:
        outage = 0
        released = False
        while not self._closed():
            self._poked.clear()
            try:
                storage = self._storage()
                if not released:
                    count = await storage.release_claims(shards=self._shards())
                    released = True
                    if count:
                        log.info("released %d effect claims left by a previous process", count)
                await self.drain_once()
                nxt = await storage.next_effect_due(shards=self._shards())
                outage = 0
            except Exception as err:
                delay = min(OUTAGE_S[min(outage, len(OUTAGE_S) - 1)], self.idle_s)
                outage += 1
                log.warning("the outbox could not be read (%s); trying again in %.1f s", err, delay)
                await self._sleep(delay)
                continue
            now = self._now()
            delay = self.idle_s if nxt is None else min(self.idle_s, max(0.05, nxt - now))
            if nxt is not None and nxt - now > MAX_DELAY_S:
                delay = 0.05
            await self._sleep(delay)

    async def _sleep(self, delay: float) -> None:
        handle = asyncio.get_running_loop().call_later(delay, self._poked.set)
        try:
            await self._poked.wait()
        finally:
            handle.cancel()

    async def drain_once(self) -> int:
        """Claim what is due and hand it to the per-game runners. Returns how many effects were claimed."""
        claimed = await self._storage().claim_effects(
            self.owner, now=self._now(), lease_s=CLAIM_LEASE_S, limit=BATCH, shards=self._shards()
        )
        self.stats.claimed += len(claimed)
        for effect in claimed:
            queue = self._queues.setdefault(effect.game_id, [])
            if any(e.id == effect.id for e in queue):
                continue
            queue.append(effect)
            if effect.game_id not in self._games:
                self._games[effect.game_id] = self._spawn(
                    self._run_game(effect.game_id), name=f"outbox-game-{effect.game_id}"
                )
        return len(claimed)

    async def _run_game(self, game_id: int) -> None:
        try:
            while self._queues.get(game_id):
                effect = self._queues[game_id].pop(0)
                await self._settle_safely(effect)
        finally:
            self._games.pop(game_id, None)
            self._queues.pop(game_id, None)

    async def run(self, effect: Effect) -> None:
        """Run one claimed effect and settle it (done, later, failed or dropped)."""
        storage = self._storage()
        handler = self.handlers.get(effect.kind)
        try:
            if handler is None:
                raise Drop(f"no handler for effect kind {effect.kind!r}")
            await handler(effect)
        except Later as later:
            await storage.defer_effect(effect.id, due_at=self._now() + later.delay_s, error=None)
            self._settled(effect.kind, "later", self._now() - effect.created_at)
            return
        except Drop as drop:
            self.stats.dropped += 1
            self._settled(effect.kind, "dropped", self._now() - effect.created_at)
            log.warning("effect %s of game %s v%s dropped: %s", effect.kind, effect.game_id, effect.version, drop)
        except asyncio.CancelledError:
            raise
        except Exception as err:
            self.stats.failed += 1
            self._settled(effect.kind, "failed", self._now() - effect.created_at)
            if effect.attempts + 1 >= self.give_up_after:
                log.error(
                    "effect %s of game %s v%s failed %d times; given up: %s",
                    effect.kind,
                    effect.game_id,
                    effect.version,
                    effect.attempts + 1,
                    err,
                )
            else:
                delay = self.backoff_s[min(effect.attempts, len(self.backoff_s) - 1)]
                log.warning(
                    "effect %s of game %s v%s failed (%s); again in %.0f s",
                    effect.kind,
                    effect.game_id,
                    effect.version,
                    err,
                    delay,
                    exc_info=not isinstance(err, OSError | TimeoutError),
                )
                await storage.defer_effect(effect.id, due_at=self._now() + delay, error=repr(err))
                return
        else:
            self.stats.ran += 1
            self._settled(effect.kind, "done", self._now() - effect.created_at)
        await storage.complete_effect(effect.id)

    def _settled(self, kind: str, result: str, lag_s: float) -> None:
        for observer in self.on_settled:
            try:
                observer(kind, result, lag_s)
            except Exception:
                log.exception("an observer of settled effects failed")

    async def _settle_safely(self, effect: Effect) -> None:
        try:
            await self.run(effect)
        except asyncio.CancelledError:
            raise
        except Exception as err:  # the database went away while settling: the claim runs out, then it runs again
            log.warning(
                "effect %s of game %s v%s not settled (%s); it runs again after its claim",
                effect.kind,
                effect.game_id,
                effect.version,
                err,
            )

    async def idle(self) -> None:
        """Wait until no per-game runner is busy (tests, benchmarks)."""
        while self._games:
            await asyncio.gather(*list(self._games.values()), return_exceptions=True)

    def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
