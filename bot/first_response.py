"""Every interaction gets its first response within Discord's 3 s, whatever storage (or anything else) does.

:class:`FirstResponseGuard` sees every interaction as it is parsed (``TableBot.dispatch("interaction")`` runs
before any handler task starts) and gives it a :class:`GuardedResponse`: discord.py's ``InteractionResponse``
whose responding methods hold a per-interaction lock, so the guard and a handler never send two first responses.
If the interaction has no response :data:`FIRST_RESPONSE_BUDGET_S` after Discord created it, the guard answers:

- a command: a public "thinking" deferral (``interaction.extras["loading"] = "public"``); the handler's answer
  fills it in later, a private answer deletes it first (:func:`bot.views.common.reply`);
- a component or modal: a deferred update (nothing visible; the handler edits the message or sends followups);
- an autocomplete: no choices (its handler's late choices are dropped by discord.py).

Handlers therefore never call ``interaction.response.*`` unguarded: they use ``bot.views.common``'s ``reply``,
``defer``, ``fill`` and ``update``, which check whether the first response was already given.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import discord
from discord.interactions import InteractionResponse

from bot import metrics

log = logging.getLogger(__name__)

FIRST_RESPONSE_BUDGET_S = 2.2
"""Seconds after the interaction's creation (its snowflake time) when the guard answers for a slow handler."""

MAX_TRUSTED_AGE_S = 10.0
"""An interaction older than this by its snowflake means a clock is off: the budget then counts from receipt."""

_METHODS = ("defer", "send_message", "edit_message", "autocomplete", "send_modal")


class InteractionGone(discord.ClientException):
    """The interaction is dead (Discord refused its first response: 10062): nothing more can be sent through it;
    say it with a channel message or not at all."""

    def __init__(self, interaction: discord.Interaction) -> None:
        super().__init__(f"interaction {interaction.id} is dead (10062)")


def is_dead(interaction: discord.Interaction) -> bool:
    """True once Discord refused the interaction's first response (no followup or second response can work)."""
    return bool(interaction.extras.get("dead"))


class GuardedResponse(InteractionResponse):  # type: ignore[type-arg]
    """An ``InteractionResponse`` whose responding methods are serialised by one lock (see the module)."""

    __slots__ = ("lock", "received", "responded")

    def __init__(self, parent: discord.Interaction) -> None:
        super().__init__(parent)
        self.lock = asyncio.Lock()
        self.responded = asyncio.Event()
        self.received = time.monotonic()


def _guarded(name: str) -> Any:
    original = getattr(InteractionResponse, name)

    async def method(self: GuardedResponse, *args: Any, **kwargs: Any) -> Any:
        async with self.lock:
            if is_dead(self._parent):
                raise InteractionGone(self._parent)
            try:
                return await original(self, *args, **kwargs)
            except discord.NotFound:  # 10062 Unknown interaction: never try a second first response
                self._parent.extras["dead"] = True
                raise
            finally:
                if self.is_done() and not self.responded.is_set():  # metrics: first-response latency
                    metrics.first_response(self._parent.type.name, time.monotonic() - self.received)
                if self.is_done() or is_dead(self._parent):
                    self.responded.set()

    method.__name__ = name
    method.__doc__ = original.__doc__
    return method


for _name in _METHODS:
    setattr(GuardedResponse, _name, _guarded(_name))


class FirstResponseGuard:
    """Answers for handlers that are too slow (see the module docstring). ``answered`` counts its answers."""

    def __init__(self, budget_s: float = FIRST_RESPONSE_BUDGET_S) -> None:
        self.budget_s = budget_s
        self.answered = 0
        self._tasks: set[asyncio.Task[None]] = set()

    def attach(self, interaction: discord.Interaction) -> None:
        """Give ``interaction`` its guarded response and start watching it (call before any handler runs)."""
        if getattr(interaction, "_cs_response", None) is not None:
            return  # already touched: nothing can be guarded safely
        response = GuardedResponse(interaction)
        interaction._cs_response = response  # type: ignore[attr-defined]  # discord.py's cached slot
        age = time.time() - interaction.created_at.timestamp()
        if not 0.0 <= age <= MAX_TRUSTED_AGE_S:  # a clock off (or a made-up id): count from now
            age = 0.0
        delay = max(0.0, self.budget_s - age)
        task = asyncio.get_running_loop().create_task(self._watch(interaction, response, delay),
                                                      name=f"first-response-{interaction.id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _watch(self, interaction: discord.Interaction, response: GuardedResponse, delay: float) -> None:
        try:
            await asyncio.wait_for(response.responded.wait(), delay)
            return  # answered in time
        except TimeoutError:
            pass
        async with response.lock:
            if response.is_done() or is_dead(interaction):
                return
            try:
                if interaction.type == discord.InteractionType.autocomplete:
                    await InteractionResponse.autocomplete(response, [])
                elif interaction.type == discord.InteractionType.application_command:
                    await InteractionResponse.defer(response, thinking=True)
                    interaction.extras["loading"] = "public"
                else:
                    await InteractionResponse.defer(response)
            except discord.HTTPException as err:
                if isinstance(err, discord.NotFound):  # 10062: the handler must not try a first response either
                    interaction.extras["dead"] = True
                log.info("the first-response guard could not answer interaction %s: %s", interaction.id, err)
                return
        self.answered += 1
        metrics.first_response(interaction.type.name, time.monotonic() - response.received, "guard")
        response.responded.set()
        log.info("interaction %s (%s) answered by the first-response guard after %.1f s", interaction.id,
                 interaction.type.name, delay)

    def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
