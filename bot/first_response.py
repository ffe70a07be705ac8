"""Every interaction gets its first response within Discord's 3 s, whatever storage (or anything else) does.

:class:`FirstResponseGuard` sees every interaction as it is parsed (``TableBot.dispatch("interaction")`` runs
before any handler task starts) and gives it a :class:`GuardedResponse`: discord.py's ``InteractionResponse``
whose responding methods hold a per-interaction lock, so the guard and a handler never send two first responses.
It is the bot's one first-response mechanism, and it is load-aware: if the interaction has no response
:data:`FIRST_RESPONSE_BUDGET_S` after Discord created it (:data:`BUSY_BUDGET_S`, half a second, while more than
:data:`BUSY_INTERACTIONS` interactions wait for theirs or the bot's action slots are busy, ``bot.core.admission``:
a loaded process must not let answers queue behind storage and boards), the guard answers:

- a command: a "thinking" deferral (``interaction.extras["loading"]``), private for a command that always answers
  privately (declared with ``extras=PRIVATE_ANSWER``: hands, hints, lists), else public; the handler's answer fills
  it in later, an answer of the other visibility deletes it first (:func:`bot.ui.common.reply`);
- a component or modal: a deferred update (nothing visible; the handler edits the message or sends followups);
- an autocomplete: no choices (its handler's late choices are dropped by discord.py).

Handlers therefore never call ``interaction.response.*`` unguarded: they use ``bot.ui.common``'s ``reply``,
``defer``, ``fill`` and ``update``, which check whether the first response was already given.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

import discord
from discord.interactions import InteractionResponse

from bot import metrics

log = logging.getLogger(__name__)

PRIVATE_ANSWER: dict[str, Any] = {"private": True}
"""``app_commands.command(..., extras=PRIVATE_ANSWER)``: the command always answers privately, so the guard's early
"thinking" is private too (a hint never flashes a public message, however loaded the bot is)."""


def answers_privately(interaction: discord.Interaction) -> bool:
    """Whether ``interaction``'s command was declared with :data:`PRIVATE_ANSWER`."""
    try:
        command = interaction.command
    except Exception:  # an unknown or forged command: the public default
        return False
    extras = getattr(command, "extras", None)
    return bool(isinstance(extras, dict) and extras.get("private"))


FIRST_RESPONSE_BUDGET_S = 2.2
"""Seconds after the interaction's creation (its snowflake time) when the guard answers for a slow handler."""

BUSY_INTERACTIONS = 16
"""With more interactions than this waiting for their first response, the process counts as loaded."""
BUSY_BUDGET_S = 0.5
"""The guard's budget (from the interaction's creation) while the process is loaded: half a second, so a board
drawn by then is still the first response itself (one request instead of a deferral and its edit, which a loaded
process can least afford), and every other interaction is answered long before Discord's 3 s however the
handler's work queues (an action that must wait for a slot is answered at once, ``bot.core.admission``).
Was 0 (at once) until BENCHMARKS.md "CPU per placement, third round": at 300 games ~70 % of the boards then cost
a deferral and an edit."""
AUTOCOMPLETE_BUSY_BUDGET_S = 0.5
"""An autocomplete's budget while the process is loaded (answering it early can only say "no choices")."""
MAX_TRUSTED_AGE_S = 10.0
"""An interaction older than this by its snowflake means a clock is off: the budget then counts from receipt."""
TOKEN_LIFE_S = 15 * 60.0
"""Discord accepts an interaction's token (followups, edits of its messages) for 15 minutes from its creation."""
TOKEN_MARGIN_S = 60.0
"""The bot stops using a token this long before it expires (a request in flight must not land after it)."""

_METHODS = ("defer", "send_message", "edit_message", "autocomplete", "send_modal")


class InteractionGone(discord.ClientException):
    """The interaction is dead (Discord refused its first response: 10062): nothing more can be sent through it;
    say it with a channel message or not at all."""

    def __init__(self, interaction: discord.Interaction) -> None:
        super().__init__(f"interaction {interaction.id} is dead (10062)")


def born(interaction: discord.Interaction) -> float:
    """When ``interaction`` was created, on this process's monotonic clock: its snowflake age when it arrived
    (trusted up to :data:`MAX_TRUSTED_AGE_S`) subtracted from its arrival, so later host clock steps change
    nothing. Stamped once (``interaction.extras["born"]``) by :class:`FirstResponseGuard` on arrival."""
    stamp = interaction.extras.get("born")
    if stamp is None:
        age = time.time() - interaction.created_at.timestamp()
        stamp = time.monotonic() - (age if 0.0 <= age <= MAX_TRUSTED_AGE_S else 0.0)
        interaction.extras["born"] = stamp
    return float(stamp)


def token_age(interaction: discord.Interaction) -> float:
    """Seconds since ``interaction`` was created (counted from its creation, never from the token's last use)."""
    return time.monotonic() - born(interaction)


def token_fresh(interaction: discord.Interaction) -> bool:
    """True while ``interaction``'s token may still be used: younger than 15 minutes less
    :data:`TOKEN_MARGIN_S`, counted from the interaction's creation."""
    return token_age(interaction) < TOKEN_LIFE_S - TOKEN_MARGIN_S


def is_dead(interaction: discord.Interaction) -> bool:
    """True once Discord refused the interaction's first response (no followup or second response can work)."""
    return bool(interaction.extras.get("dead"))


class GuardedResponse(InteractionResponse):
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
        self.busy_budget_s = BUSY_BUDGET_S
        self.busy_after = BUSY_INTERACTIONS
        self.pressure: Callable[[], bool] = lambda: False
        """Also loaded while this says so (the bot wires its action admission: ``Admission.busy``)."""
        self.answered = 0
        self._tasks: set[asyncio.Task[None]] = set()

    def attach(self, interaction: discord.Interaction) -> None:
        """Give ``interaction`` its guarded response and start watching it (call before any handler runs)."""
        if getattr(interaction, "_cs_response", None) is not None:
            return  # already touched: nothing can be guarded safely
        response = GuardedResponse(interaction)
        interaction._cs_response = response  # type: ignore[attr-defined]  # discord.py's cached slot
        age = token_age(interaction)  # stamps its creation; a clock off (or a made-up id) counts from now
        loaded = len(self._tasks) >= self.busy_after or self.pressure()
        budget = self.budget_s
        if loaded:  # an autocomplete's only possible early answer is "no choices": it keeps a moment for its own
            budget = AUTOCOMPLETE_BUSY_BUDGET_S if interaction.type == discord.InteractionType.autocomplete else 0.0
            budget = max(budget, self.busy_budget_s)
        delay = max(0.0, budget - age)
        job = self._answer(interaction, response, 0.0) if delay <= 0 else self._watch(interaction, response, delay)
        task = asyncio.get_running_loop().create_task(job, name=f"first-response-{interaction.id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def now(self, interaction: discord.Interaction) -> None:
        """Answer ``interaction`` at once (same answers as after the budget), not waiting for its handler: the
        process is about to queue the handler's work (:mod:`bot.core.admission`), so its first response must not
        queue with it. Nothing happens for an interaction answered already, dead, or not guarded."""
        response = getattr(interaction, "_cs_response", None)
        if not isinstance(response, GuardedResponse) or response.is_done() or is_dead(interaction):
            return
        task = asyncio.get_running_loop().create_task(
            self._answer(interaction, response, 0.0), name=f"first-response-now-{interaction.id}"
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _watch(self, interaction: discord.Interaction, response: GuardedResponse, delay: float) -> None:
        try:
            await asyncio.wait_for(response.responded.wait(), delay)
            return  # answered in time
        except TimeoutError:
            pass
        await self._answer(interaction, response, delay)

    async def _answer(self, interaction: discord.Interaction, response: GuardedResponse, delay: float) -> None:
        """The guard's own first response (see the module docstring), unless one was given meanwhile."""
        async with response.lock:
            if response.is_done() or is_dead(interaction):
                return
            try:
                if interaction.type == discord.InteractionType.autocomplete:
                    await InteractionResponse.autocomplete(response, [])
                elif interaction.type == discord.InteractionType.application_command:
                    private = answers_privately(interaction)
                    await InteractionResponse.defer(response, ephemeral=private, thinking=True)
                    interaction.extras["loading"] = "private" if private else "public"
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
        log.info(
            "interaction %s (%s) answered by the first-response guard after %.1f s",
            interaction.id,
            interaction.type.name,
            delay,
        )

    def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
