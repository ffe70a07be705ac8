"""Graceful stop: SIGTERM/SIGINT (what ``docker stop`` and Ctrl-C send) drain, then close.

``Drainer(bot, timeout_s)``:

1. ``install()`` wraps the gateway's ``INTERACTION_CREATE`` handler (discord.py's
   ``ConnectionState.parsers`` entry, the one place every interaction kind enters) to remember the
   tasks each interaction starts (command, component, modal, autocomplete), so a stop can wait for them.
2. ``handle_signals()``: on the first SIGTERM/SIGINT the bot starts **draining**: new interactions get
   an immediate private "restarting, try again in a few seconds" (autocomplete: no choices), the
   interactions in flight and the bot's background work (AI moves, board posts; not long-lived loops
   named ``heartbeat`` or ``daemon:*``) run to their end, at most ``timeout_s`` seconds; then the bot
   closes (gateway, HTTP). A second signal stops waiting at once. The caller then closes storage, which
   waits for the write in progress and checkpoints the SQLite ``-wal`` into the main file.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import time
from typing import Any

import discord

from bot.i18n import t

log = logging.getLogger(__name__)
LONG_LIVED = ("heartbeat",)
"""Background task names a drain does not wait for (plus any name starting with ``daemon:``)."""


class Drainer:
    """Tracks in-flight interactions of ``bot`` and stops it gracefully (see the module docstring)."""

    def __init__(self, bot: Any, timeout_s: float) -> None:
        self.bot = bot
        self.timeout_s = timeout_s
        self.draining = False
        self.inflight: set[asyncio.Task[Any]] = set()
        self.stopped = asyncio.Event()
        self._force = asyncio.Event()
        self._stop_task: asyncio.Task[None] | None = None
        self._installed = False

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
            before = asyncio.all_tasks()
            original(data)
            for task in asyncio.all_tasks() - before:
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
            log.warning("%s again: closing now without waiting for the %d interaction(s) in flight",
                        reason, len(self.pending()))
            self._force.set()
            return
        self._stop_task = asyncio.get_running_loop().create_task(self.stop(reason), name="drain")

    def pending(self) -> list[asyncio.Task[Any]]:
        """Interactions in flight and background work a stop waits for."""
        background = [
            task for task in getattr(self.bot, "background", ())
            if task.get_name() not in LONG_LIVED and not task.get_name().startswith("daemon:")
        ]
        return [task for task in (*self.inflight, *background) if not task.done()]

    async def stop(self, reason: str = "stop") -> None:
        """Drain (see the module docstring), then ``bot.close()``. Sets ``stopped`` when done."""
        self.draining = True
        started = time.monotonic()
        waiting = self.pending()
        log.info("%s: draining: refusing new interactions, waiting up to %.0f s for %d in flight",
                 reason, self.timeout_s, len(waiting))
        while waiting and not self._force.is_set():
            left = self.timeout_s - (time.monotonic() - started)
            if left <= 0:
                break
            force = asyncio.ensure_future(self._force.wait())
            await asyncio.wait([*waiting, force], timeout=left, return_when=asyncio.FIRST_COMPLETED)
            force.cancel()
            waiting = self.pending()
        if waiting:
            log.warning("drain: %d task(s) still running after %.1f s are abandoned: %s", len(waiting),
                        time.monotonic() - started, sorted(t.get_name() for t in waiting)[:10])
        else:
            log.info("drain: everything in flight finished in %.1f s", time.monotonic() - started)
        await self.bot.close()
        self.stopped.set()
