"""Graceful stop: SIGTERM/SIGINT (what ``docker stop`` and Ctrl-C send) drain, then close.

``Drainer(bot, timeout_s)``:

1. ``install()`` wraps the gateway's ``INTERACTION_CREATE`` handler (discord.py's
   ``ConnectionState.parsers`` entry, the one place every interaction kind enters) to remember the
   tasks each interaction starts (command, component, modal, autocomplete), so a stop can wait for them.
2. ``handle_signals()``: on the first SIGTERM/SIGINT the bot starts **draining**: new interactions get
   an immediate private "restarting, try again in a few seconds" (autocomplete: no choices), the
   interactions in flight and the bot's background work (AI moves, board posts; not long-lived loops
   named ``heartbeat`` or ``daemon:*``) run to their end; then the bot closes (gateway, HTTP). A second
   signal stops waiting at once.
3. ``run(client_coro)`` runs discord.py's ``start`` and returns once a stop has closed the bot, **whatever
   the client is doing**: sleeping in its reconnect back-off (minutes during an outage), connecting to an
   unreachable gateway, logging in. discord.py's connect loop only looks at ``is_closed()`` after its sleep,
   so awaiting it would outlive any grace period: the client task is cancelled instead.
4. ``close_storage(storage)``: waits for the write in progress and checkpoints the SQLite ``-wal``; ``python -m
   bot`` then exits at once (``bot.__main__._exit_after_stop``).

The whole stop fits in ``timeout_s`` (``DRAIN_TIMEOUT``, default 8 s, under Docker's 10 s): in-flight work
gets ``timeout_s`` minus :func:`reserve_s` (for closing the gateway and storage); closing the client is
bounded by :data:`CLIENT_CLOSE_S`; storage gets what is left (at least :data:`STORAGE_CLOSE_MIN_S`). A
watchdog ends the process :data:`WATCHDOG_SLACK_S` after the deadline if the interpreter still has not exited
(a thread that will not end), so an orchestrator never needs SIGKILL.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import threading
import time
from collections.abc import Callable, Coroutine
from typing import Any

import discord

from bot.i18n import t

log = logging.getLogger(__name__)
LONG_LIVED = ("heartbeat", "cpu-warm-up")
"""Background task names a drain does not wait for (plus any name starting with ``daemon:``): loops, and warming
the CPU workers (no player waits for it)."""


class Drainer:
    """Tracks in-flight interactions of ``bot`` and stops it gracefully (see the module docstring)."""

    def __init__(self, bot: Any, timeout_s: float, *, watchdog: bool = False) -> None:
        self.bot = bot
        self.timeout_s = timeout_s
        self.watchdog = watchdog
        """With ``watchdog`` (the real process only, never tests), the process exits by the deadline whatever
        runs (see the module docstring)."""
        self.draining = False
        self.inflight: set[asyncio.Task[Any]] = set()
        self.stopped = asyncio.Event()
        self._force = asyncio.Event()
        self._stop_task: asyncio.Task[None] | None = None
        self._installed = False
        self.deadline: float | None = None
        self.on_stop: Callable[[], None] | None = None
        """Called when a stop begins (the health state turns not-ready)."""

    # -- interactions --------------------------------------------------------------------------
    def install(self) -> None:
        """Wrap the ``INTERACTION_CREATE`` parser (idempotent). Call before the bot connects."""
        if self._installed:
            return
        state = self.bot._connection
        original = state.parsers["INTERACTION_CREATE"]

        def parse(data: Any) -> None:
            if self.draining:
                self._track(asyncio.get_running_loop().create_task(self._refuse(data), name="drain-refusal"))
                return
            # the tasks the parser starts, caught as they are created (not two ``all_tasks()`` scans per interaction:
            # O(tasks) each, a measurable share of a loaded loop's CPU)
            loop = asyncio.get_running_loop()
            started: list[asyncio.Task[Any]] = []
            previous = loop.get_task_factory()

            def factory(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> asyncio.Task[Any]:
                task = previous(loop, coro, **kwargs) if previous else asyncio.Task(coro, loop=loop, **kwargs)
                started.append(task)
                return task

            loop.set_task_factory(factory)
            try:
                original(data)
            finally:
                loop.set_task_factory(previous)
            for task in started:
                self._track(task)

        state.parsers["INTERACTION_CREATE"] = parse
        self._installed = True

    def _track(self, task: asyncio.Task[Any]) -> None:
        self.inflight.add(task)
        task.add_done_callback(self.inflight.discard)

    async def _refuse(self, data: Any) -> None:
        interaction = discord.Interaction(data=data, state=self.bot._connection)
        try:
            if interaction.type == discord.InteractionType.autocomplete:
                await interaction.response.autocomplete([])
            else:
                await interaction.response.send_message(t("err.restarting", interaction.locale), ephemeral=True)
        except (discord.HTTPException, discord.InteractionResponded) as err:
            log.info("could not tell a user the bot is restarting: %s", err)

    # -- stopping ------------------------------------------------------------------------------
    def handle_signals(self, signals: tuple[int, ...] = (signal.SIGTERM, signal.SIGINT)) -> None:
        """Make each of ``signals`` start the drain (a second one cuts the wait short)."""
        loop = asyncio.get_running_loop()
        for sig in signals:
            loop.add_signal_handler(sig, self.request_stop, signal.Signals(sig).name)

    def request_stop(self, reason: str = "stop") -> None:
        """Start draining (first call) or stop waiting for the drain (later calls)."""
        if self._stop_task is not None:
            log.warning(
                "%s again: closing now without waiting for the %d interaction(s) in flight", reason, len(self.pending())
            )
            self._force.set()
            return
        self._stop_task = asyncio.get_running_loop().create_task(self.stop(reason), name="drain")

    def pending(self) -> list[asyncio.Task[Any]]:
        """Interactions in flight and background work a stop waits for."""
        background = [
            task
            for task in getattr(self.bot, "background", ())
            if task.get_name() not in LONG_LIVED and not task.get_name().startswith("daemon:")
        ]
        return [task for task in (*self.inflight, *background) if not task.done()]

    def left(self) -> float:
        """Seconds until the stop's deadline (``timeout_s`` after it began; ``timeout_s`` before a stop)."""
        if self.deadline is None:
            return self.timeout_s
        return self.deadline - time.monotonic()

    async def stop(self, reason: str = "stop") -> None:
        """Drain (see the module docstring), then ``bot.close()`` (bounded). Sets ``stopped`` when done."""
        self.draining = True
        started = time.monotonic()
        self.deadline = started + self.timeout_s
        if self.watchdog:
            _start_watchdog(self.timeout_s + WATCHDOG_SLACK_S)
        if self.on_stop is not None:
            self.on_stop()
        waiting = self.pending()
        drain_until = self.deadline - reserve_s(self.timeout_s)
        log.info(
            "%s: draining: refusing new interactions, waiting up to %.1f s for %d in flight",
            reason,
            max(0.0, drain_until - started),
            len(waiting),
        )
        while waiting and not self._force.is_set():
            left = drain_until - time.monotonic()
            if left <= 0:
                break
            force = asyncio.ensure_future(self._force.wait())
            await asyncio.wait([*waiting, force], timeout=left, return_when=asyncio.FIRST_COMPLETED)
            force.cancel()
            waiting = self.pending()
        if waiting:
            log.warning(
                "drain: %d task(s) still running after %.1f s are abandoned: %s",
                len(waiting),
                time.monotonic() - started,
                sorted(t.get_name() for t in waiting)[:10],
            )
        else:
            log.info("drain: everything in flight finished in %.1f s", time.monotonic() - started)
        try:
            await asyncio.wait_for(self.bot.close(), max(0.1, min(CLIENT_CLOSE_S, self.left() - STORAGE_CLOSE_MIN_S)))
        except TimeoutError:
            log.warning("closing the Discord connection took too long; going on with the stop")
        except Exception:
            log.exception("closing the Discord connection failed; going on with the stop")
        self.stopped.set()

    async def run(self, client: Coroutine[Any, Any, None]) -> None:
        """Run ``client`` (``bot.start(token)``) until it ends by itself (its error is raised) or a stop closed the
        bot (returns within ``timeout_s`` of the signal, cancelling a client stuck in discord.py's back-off)."""
        main = asyncio.get_running_loop().create_task(client, name="daemon:discord-client")
        stopped = asyncio.ensure_future(self.stopped.wait())
        try:
            await asyncio.wait([main, stopped], return_when=asyncio.FIRST_COMPLETED)
        finally:
            stopped.cancel()
        if not self.draining:  # the client ended by itself (an error, a fatal close code): no stop began
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.bot.close(), CLIENT_CLOSE_S)
            main.result()
            return
        if not self.stopped.is_set():  # the client noticed the stop's close first: let the stop finish closing
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stopped.wait(), max(0.0, self.left()))
        if not main.done():
            done, _ = await asyncio.wait([main], timeout=max(0.0, min(CLIENT_END_S, self.left())))
            if not done:
                log.info("stop: the Discord client was still connecting or waiting to reconnect; cancelled")
                main.cancel()
                await asyncio.gather(main, return_exceptions=True)
        if not main.cancelled() and main.exception() is not None:
            log.info("stop: the Discord client ended with %s", type(main.exception()).__name__)

    async def close_storage(self, storage: Any) -> bool:
        """Close ``storage`` (SQLite: wait for the write in progress, checkpoint the ``-wal``) within what is left
        of the stop (at least :data:`STORAGE_CLOSE_MIN_S`). True if it closed."""
        budget = max(STORAGE_CLOSE_MIN_S, self.left()) if self.deadline is not None else None
        try:
            await asyncio.wait_for(storage.close(), budget)
        except TimeoutError:
            log.error(
                "storage did not close within %.1f s; committed work is safe (on PostgreSQL in the server; SQLite "
                "keeps it in the -wal and replays it at the next start)",
                budget or 0,
            )
            return False
        return True


WATCHDOG_SLACK_S = 1.5
CLIENT_CLOSE_S = 2.0
"""At most this long for ``bot.close()`` (a websocket close handshake with a gateway that does not answer)."""
CLIENT_END_S = 0.5
"""After ``bot.close()``, how long the client task may take to notice before it is cancelled."""
STORAGE_CLOSE_MIN_S = 1.0


def reserve_s(timeout_s: float) -> float:
    """Seconds of ``timeout_s`` kept for closing the gateway and storage after the drain (0.3 of it, at most
    3 s)."""
    return min(3.0, 0.3 * timeout_s)


_watchdog: threading.Timer | None = None


def _start_watchdog(after_s: float) -> None:
    """End the process (``os._exit(0)``) ``after_s`` seconds from now if it is still alive: the stop has
    closed what matters by then; only a stuck thread (a worker's job, a library's) could keep the interpreter."""
    global _watchdog
    if _watchdog is not None:
        return

    def fire() -> None:
        log.error("stop: still not exited %.1f s after the signal; exiting now", after_s)
        for handler in logging.getLogger().handlers:
            with contextlib.suppress(Exception):
                handler.flush()
        os._exit(0)

    _watchdog = threading.Timer(after_s, fire)
    _watchdog.daemon = True
    _watchdog.start()
