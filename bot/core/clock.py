"""Time controls of every game: the bot's one time source, the presets and the per-turn deadline (pure parts).

The **time source** is :class:`Clock` (``layer.clock``): every deadline, reminder and expiry reads
``clock.now()`` and every duration goes through ``clock.span(seconds)``. Two environment variables make it
injectable without sleeping minutes in tests: ``TABLEBOT_CLOCK_SCALE`` multiplies every duration (``0.005``: a
5-minute move lasts 1.5 s) and ``TABLEBOT_CLOCK_OFFSET_S`` shifts "now" (a restart "later" without waiting);
in-process tests set ``clock.offset`` directly.

A game's clock lives in its envelope (``Envelope.clock``, stored with every commit)::

    {"preset": "live" | "daily", "per_move": <s, scaled>, "seat": <seat whose clock runs> | null,
     "deadline": <epoch s> | null, "remind_at": <epoch s> | null}

The deadline starts anew for the seat named by every ``TurnStarted`` event (a human seat; an AI seat runs no
clock) and stops at ``GameOver``. The game row's ``wake_at`` is when the scheduler (``timers.py``) looks next:
``remind_at``, then ``deadline`` once the reminder is out, ``None`` after a claimable timeout was announced;
for a challenge or lobby it is its expiry.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Sequence
from typing import Any

from bot.core.envelope import Envelope
from bot.errors import BotError
from bot.storage import UNCHANGED
from engine.protocol import Event, GameState, TurnStarted

__all__ = ["PRESETS", "UNCHANGED", "Clock", "after_action", "new_clock", "running", "stamp", "start_turn"]

PRESETS: dict[str, float | None] = {"live": 5 * 60.0, "daily": 24 * 3600.0, "none": None}
"""Seconds per move of each time-control preset (``none``: no clock)."""
DEFAULT_PRESET = "daily"
"""The clock of a new game when neither the command nor the guild's ``/settings`` chose one."""
REMIND_FRACTION = 0.25
"""The one reminder of a turn is posted when this fraction of the move's time is left."""
DEFAULT_EXPIRY_MIN = 15
"""Minutes a challenge or lobby waits before it expires (guild setting ``setup_expiry_min``)."""
EXPIRY_RANGE = (1, 1440)
SETTING_CLOCK = "clock"
CLOCK_HELP = "Time control: live (5 min per move), daily (24 h per move) or none; default: the server's"
"""The description of the ``clock`` option of every command that opens a game."""
SETTING_EXPIRY = "setup_expiry_min"


class Clock:
    """The bot's time source (see the module docstring). ``scale`` multiplies durations, ``offset`` shifts now.

    "Now" is the host's wall clock **read once** when the clock is made, then advanced by the monotonic clock: a
    step of the host's clock while the bot runs (an administrator's ``date -s``, a VM resumed, NTP stepping)
    neither fires a deadline early nor holds one back, and never reorders two of them; only the slow rate
    corrections NTP makes are followed. Stored deadlines are Unix seconds, so a restart re-reads the wall clock
    (a host clock that was wrong is then taken as it is). Storage writes its times with this clock too
    (``Storage.use_clock``), so due times and "now" are always compared on one clock.
    """

    def __init__(self, scale: float | None = None, offset: float | None = None) -> None:
        self.scale = _env_float("TABLEBOT_CLOCK_SCALE", 1.0) if scale is None else scale
        self.offset = _env_float("TABLEBOT_CLOCK_OFFSET_S", 0.0) if offset is None else offset
        if not (math.isfinite(self.scale) and self.scale > 0):
            raise ValueError(f"TABLEBOT_CLOCK_SCALE must be a positive number, not {self.scale!r}")
        self._wall0 = time.time()
        self._mono0 = time.monotonic()

    def now(self) -> float:
        """Unix seconds, as every timer of the bot sees them (see the class docstring)."""
        return self._wall0 + (time.monotonic() - self._mono0) + self.offset

    def host_step(self) -> float:
        """How far the host's wall clock is from :meth:`now` (offset aside), in seconds: a step since the clock was
        made (logged by the timers; 0 on a healthy host, give or take NTP's slewing)."""
        return time.time() - (self.now() - self.offset)

    def span(self, seconds: float) -> float:
        """A duration of the presets and settings in the seconds this clock runs (scaled)."""
        return seconds * self.scale


def _env_float(name: str, default: float) -> float:
    raw = os.environ.get(name, "").strip()
    return float(raw) if raw else default


def check_preset(value: str | None) -> str | None:
    """``value`` if it names a preset (or is ``None``: not chosen). Raises ``BotError("clk.bad_preset")``: Discord
    offers only the choices, but a request that skips its client is refused here, nothing changed."""
    if value is not None and value not in PRESETS:
        raise BotError("clk.bad_preset", value=str(value)[:40], presets=", ".join(PRESETS))
    return value


def check_expiry(value: int | None) -> int | None:
    """``value`` if it is a whole number of minutes in :data:`EXPIRY_RANGE` (or ``None``). Raises
    ``BotError("settings.bad_expiry")``."""
    if value is None:
        return None
    low, high = EXPIRY_RANGE
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BotError("settings.bad_expiry", value=str(value)[:40], min=low, max=high)
    return value


def preset_of(chosen: str | None, settings: dict[str, Any]) -> str:
    """The preset of a new game: the command's choice (checked: :func:`check_preset`), else the guild's setting,
    else :data:`DEFAULT_PRESET`."""
    check_preset(chosen)
    for value in (chosen, settings.get(SETTING_CLOCK)):
        if isinstance(value, str) and value in PRESETS:
            return value
    return DEFAULT_PRESET


def expiry_minutes(settings: dict[str, Any]) -> int:
    """Minutes before an unanswered challenge or lobby expires (the guild's setting, else the default)."""
    value = settings.get(SETTING_EXPIRY)
    if isinstance(value, int) and not isinstance(value, bool) and EXPIRY_RANGE[0] <= value <= EXPIRY_RANGE[1]:
        return value
    return DEFAULT_EXPIRY_MIN


def new_clock(preset: str, clock: Clock) -> dict[str, Any]:
    """The envelope's clock of a new game with ``preset`` (empty for ``none``: no deadline ever)."""
    seconds = PRESETS.get(preset)
    if seconds is None:
        return {}
    return {"preset": preset, "per_move": clock.span(seconds), "seat": None, "deadline": None, "remind_at": None}


def start_turn(env: Envelope, state: GameState, now: float, is_ai: Callable[[int], bool]) -> tuple[Envelope, Any]:
    """The clock of ``env`` restarted for the seat to move: ``(envelope, wake_at)``. No clock: ``UNCHANGED``; a
    finished game or an AI seat to move: no deadline (``wake_at`` ``None``)."""
    c = env.clock
    per_move = c.get("per_move")
    if not per_move:
        return env, UNCHANGED
    seat = None if state.is_over else state.current_player
    if seat is None or is_ai(seat):
        return env.with_(clock={**c, "seat": seat, "deadline": None, "remind_at": None}), None
    deadline = now + float(per_move)
    remind_at = deadline - float(per_move) * REMIND_FRACTION
    return env.with_(clock={**c, "seat": seat, "deadline": deadline, "remind_at": remind_at}), remind_at


def after_action(
    env: Envelope,
    state: GameState,
    events: Sequence[Event],
    now: float,
    is_ai: Callable[[int], bool],
    timed_out: int | None = None,
) -> tuple[Envelope, Any]:
    """The clock after an engine action: restarted when a turn started (``TurnStarted``) or the game ended,
    or when ``timed_out`` (the seat of a ``Timeout`` just applied) is the seat whose clock ran out and is still to
    move (a seat owing a side action, e.g. a discard: the timeout made it, the turn itself gets a fresh deadline: one
    missed deadline is one timeout; a discard overdue before the seat's own deadline leaves its clock running);
    else unchanged (``(env, UNCHANGED)``)."""
    if not env.clock.get("per_move"):
        return env, UNCHANGED
    deadline = env.clock.get("deadline")
    again = (
        timed_out is not None
        and timed_out == env.clock.get("seat") == state.current_player
        and deadline is not None
        and now >= float(deadline)
    )
    if state.is_over or again or any(isinstance(e, TurnStarted) for e in events):
        return start_turn(env, state, now, is_ai)
    return env, UNCHANGED


def running(env: Envelope) -> tuple[int, float] | None:
    """``(seat, deadline)`` of the clock that runs now, or ``None``."""
    c = env.clock
    if c.get("seat") is None or c.get("deadline") is None:
        return None
    return int(c["seat"]), float(c["deadline"])


def stamp(epoch: float) -> str:
    """A Discord timestamp shown relative to each reader (``<t:EPOCH:R>``)."""
    return f"<t:{int(epoch)}:R>"
