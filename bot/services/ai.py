"""The one AI scheduler of every game: exactly one search per (game, version) awaiting an AI seat.

:meth:`AIScheduler.notify` is given every snapshot whose board is out (a player's action, an AI move, a start, a
recovered board, the resume pass after READY). If an AI seat is in ``state.awaiting()`` and no AI task runs for
that game, one starts; a running task picks up the newest snapshot itself, so a second notify never starts a
second search. The task: search off the loop (``kind.rules.ai_function`` on a copy of the state, in the CPU lane
``kind.rules.ai_lane`` names: a cheap job never queues behind long searches)
-> commit through the same path as a player's action, checked against the version searched -> publish -> repeat
while an AI seat is awaited. A version that moved on meanwhile (another seat acted) is searched again once;
``duplicates`` counts searches of a (game, version) already searched (0 is the target; the bench reads it).

Durability: a commit after which an AI seat is awaited owes an ``ai`` effect (the outbox, ``bot/core/outbox.py``);
the AI's own commit marks it done. If the process dies while the AI thinks (or its move cannot be committed), the
outbox's workers run :meth:`AIScheduler.ai_effect` later, which starts the same task (one search per version).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bot.errors import BotError
from bot.services.publish import board_stale
from bot.storage import Effect, Owed

if TYPE_CHECKING:
    from bot.core.kind import Snapshot
    from bot.core.layer import GameLayer

log = logging.getLogger(__name__)

MAX_STEPS = 400
"""A bound on AI actions in one run (4 AI seats x many turns never runs away)."""
AI_GRACE_S = 30.0
"""An AI move owed by a commit is left to the committing process this long before the outbox's workers start it."""


def ai_seat(snap: Snapshot) -> int | None:
    """The AI seat to act in ``snap``: an awaited AI seat owing something out of turn first (e.g. a discard),
    then the AI seat to play; ``None`` if no AI seat is awaited (or the game is not running)."""
    state = snap.state
    if state is None or snap.status != "active" or state.is_over or snap.kind.rules.ai_function is None:
        return None
    seats = [s for s in state.awaiting() if snap.is_ai(s)]
    if not seats:
        return None
    return sorted(seats, key=lambda s: s == state.current_player)[0]


class AIScheduler:
    """Plays the AI seats of every game of ``layer`` (see the module docstring)."""

    def __init__(self, layer: GameLayer) -> None:
        self.layer = layer
        self._latest: dict[int, Snapshot] = {}
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._searched: dict[int, int] = {}
        self.searches = 0
        self.duplicates = 0
        self.steers: list[Callable[[Snapshot, int], str | None]] = []
        """``steer(snap, seat) -> action text | None``: an action an AI seat plays instead of searching (a
        tutorial's gentle opening, ``bot/services/tutorial.py``); cheap and synchronous (it runs on the loop)."""
        layer.outbox.subscribe("ai", self.ai_effect, rule=self.owed)
        layer.on_shown.append(self.shown)
        layer.on_ready_hooks.append(self.resume_all)

    async def shown(self, committed: Any, _headline: str, _interaction: Any) -> None:
        """A commit was shown (the layer's ``on_shown``, after its board): an awaited AI seat acts on it."""
        self.notify(committed.snap)

    @staticmethod
    def owed(snap: Snapshot, _change: object) -> list[Owed]:
        """The rule of the outbox: a commit after which an AI seat must act owes that AI action."""
        return [Owed("ai", delay_s=AI_GRACE_S)] if ai_seat(snap) is not None else []

    async def ai_effect(self, effect: Effect) -> None:
        """The ``ai`` effect: if the game still waits at ``effect.version`` for an AI seat, make sure its board is
        out (board first), then run the AI task and wait for it. Raises when the AI did not act (tried again)."""
        record = await self.layer.storage.get_game(effect.game_id)
        if record is None or record.version != effect.version or record.status != "active":
            return  # someone acted since, or the game is over: nothing owed
        if board_stale(record):
            await self.layer.publisher.recovery.recover(record.id)  # hands the game to notify() itself
        else:
            self.notify(self.layer.snapshot(record))
        task = self._tasks.get(record.id)
        if task is not None:
            await asyncio.shield(task)
        fresh = await self.layer.storage.get_game(record.id)
        if fresh is not None and fresh.version == record.version and fresh.status == "active":
            if ai_seat(self.layer.snapshot(fresh)) is not None:
                raise RuntimeError(f"the AI of game {record.id} did not act at v{record.version}")

    def notify(self, snap: Snapshot) -> None:
        """A snapshot whose board is out: start the game's AI task if an AI seat is awaited and none runs."""
        known = self._latest.get(snap.id)
        if known is None or known.version <= snap.version:
            self._latest[snap.id] = snap
        if snap.id in self._tasks:
            return
        if ai_seat(self._latest[snap.id]) is None:
            self._latest.pop(snap.id, None)
            return
        self._tasks[snap.id] = self.layer.bot.spawn(self._run(snap.id), name=f"ai-{snap.id}")

    def running(self, game_id: int) -> bool:
        """True while an AI task runs for the game."""
        return game_id in self._tasks

    async def _run(self, game_id: int) -> None:
        try:
            for _ in range(MAX_STEPS):
                snap = self._latest[game_id]
                seat = ai_seat(snap)
                if seat is None:
                    return
                text = await self._search(snap, seat)
                if self._latest[game_id].version != snap.version:
                    continue  # another seat acted while the AI thought: think again on the new position
                try:
                    committed = await self.layer.act(
                        game_id, snap.players[seat], text, expected_version=snap.version, base=snap
                    )
                except BotError as err:
                    if err.key in ("err.stale", "err.conflict"):
                        log.info("AI move of game %s computed on an old version; thinking again", game_id)
                        self._latest[game_id] = await self.layer.load(game_id)
                        continue
                    log.info("AI move of game %s skipped: %s", game_id, err)  # the game closed meanwhile
                    return
                await self.layer.outbox.done(game_id, snap.version, "ai")
                if self._latest[game_id].version < committed.snap.version:
                    self._latest[game_id] = committed.snap
                kind = committed.snap.kind
                headline = kind.narration.narrate(committed.snap, committed.actions, committed.events)
                await self.layer.publisher.publish(committed.snap, headline=headline)
        finally:
            self._tasks.pop(game_id, None)
            self._latest.pop(game_id, None)
            self._searched.pop(game_id, None)

    async def _search(self, snap: Snapshot, seat: int) -> str:
        if self._searched.get(snap.id) == snap.version:
            self.duplicates += 1
            log.warning("a second AI search of game %s v%s", snap.id, snap.version)
        self._searched[snap.id] = snap.version
        self.searches += 1
        state = snap.require_state()
        for steer in self.steers:
            steered = steer(snap, seat)
            if steered is not None:  # committed through the same path as a searched action
                return steered
        level = snap.env.seats[seat].ai or snap.kind.seating.default_level
        seed = snap.id * 1000 + snap.version
        fn = snap.kind.rules.ai_function
        assert fn is not None
        lane = snap.kind.rules.ai_lane(state, seat, level)
        text: str = await self.layer.pools.run(lane, fn, state.copy(), seat, level, seed)
        return text

    async def resume_all(self) -> int:
        """Hand every running game awaiting an AI seat to :meth:`notify` (after a restart or a reconnect).
        Games whose board is stale are left to their board recovery, games whose AI already thinks are left
        alone. Returns how many AI tasks this call started."""
        count = 0
        for record in await self.layer.storage.list_active_games():
            kind = self.layer.kinds.get(record.kind)
            if (
                kind is None
                or kind.rules.ai_function is None
                or record.status != "active"
                or board_stale(record)
                or record.id in self._tasks
                or not self.layer.owns(record)
            ):
                continue
            try:
                if not any(seat.ai for seat in self.layer.envelope(record).seats):
                    continue
                self.notify(self.layer.snapshot(record))
            except Exception:  # one broken game (a corrupt state) must not stop the others
                log.exception("could not resume the AI of game %s", record.id)
                continue
            count += record.id in self._tasks
        return count

    async def idle(self) -> None:
        """Wait until no AI task runs (tests and benchmarks)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)
