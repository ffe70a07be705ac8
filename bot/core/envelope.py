"""The stored game envelope (``GameRecord.state``): one shape for every game, version 2.

::

    {"v": 2,
     "engine": <GameState.to_dict()> | null,   # null while seats are being taken (challenge, lobby)
     "options": {...},                         # the game's options as chosen at creation (validated by the kind)
     "seats": [{"name": str, "ai": <level> | null}, ...],   # by seat, parallel to GameRecord.players
     "host": <user id> | null,                 # who opened the game (challenger, lobby host)
     "invited": <user id> | null,              # the one user a challenge waits for
     "locale": str | null,                     # the guild's locale: public messages are written in it
     "created": <epoch s>,                     # when the game was opened (lobby expiry plugs in here)
     "extra": {...},                           # the kind's own bookkeeping (timers of a pending rule...)
     "clock": {...}}                           # the layer's time control and deadline (bot/core/clock.py)

The engine owns only its ``to_dict()`` inside ``engine`` (``docs/interfaces.md``). Envelopes saved before
version 2 (no ``"v"`` key: one layout per game) are converted on load by the game's ``GameKind.migrate``
and written back as version 2 by the next commit.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Any

from bot.core.names import Name, plain
from engine.errors import StateError

ENVELOPE_VERSION = 2
NAME_LIMIT = 32
"""Display names are kept at most this long (images and messages)."""


@dataclass(frozen=True)
class Seat:
    """One seat: the display name kept for images and messages, and the AI level (``None`` for a human)."""

    name: str
    ai: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, Name):  # a name as typed: message text shows it escaped (bot.core.names)
            object.__setattr__(self, "name", Name(self.name))

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "ai": self.ai}

    @classmethod
    def of(cls, name: str, ai: str | None = None) -> Seat:
        """A seat with ``name`` made :func:`~bot.core.names.plain` and cut to :data:`NAME_LIMIT` characters."""
        return cls(plain(str(name))[:NAME_LIMIT], ai)


@dataclass(frozen=True)
class Envelope:
    """The game layer's stored state of one game (see the module docstring). Immutable: steps build a new one
    with :meth:`with_` and commit its :meth:`to_dict`."""

    engine: dict[str, Any] | None
    options: dict[str, Any] = field(default_factory=dict)
    seats: tuple[Seat, ...] = ()
    host: int | None = None
    invited: int | None = None
    locale: str | None = None
    created: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)
    clock: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def new(
        cls,
        *,
        options: dict[str, Any],
        seats: list[Seat],
        host: int | None,
        invited: int | None = None,
        locale: str | None = None,
        engine: dict[str, Any] | None = None,
        now: float | None = None,
        clock: dict[str, Any] | None = None,
    ) -> Envelope:
        """A fresh envelope stamped with the creation time (``clock``: see ``bot/core/clock.py``)."""
        return cls(
            engine,
            dict(options),
            tuple(seats),
            host,
            invited,
            locale,
            time.time() if now is None else now,
            clock=dict(clock or {}),
        )

    def with_(self, **changes: Any) -> Envelope:
        """A copy with ``changes`` (``seats`` may be given as a list)."""
        if "seats" in changes:
            changes["seats"] = tuple(changes["seats"])
        return replace(self, **changes)

    @property
    def names(self) -> list[str]:
        """Display names by seat."""
        return [s.name for s in self.seats]

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready stored form (version 2)."""
        return {
            "v": ENVELOPE_VERSION,
            "engine": self.engine,
            "options": self.options,
            "seats": [s.to_dict() for s in self.seats],
            "host": self.host,
            "invited": self.invited,
            "locale": self.locale,
            "created": self.created,
            "extra": self.extra,
            "clock": self.clock,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Envelope:
        """Read a version-2 envelope. Raises ``StateError`` (rule ``State``) for another version or a bad shape."""
        if not isinstance(d, dict) or d.get("v") != ENVELOPE_VERSION:
            raise StateError(f"not a version-{ENVELOPE_VERSION} game envelope", field="v")
        try:
            seats = tuple(
                Seat(plain(str(s["name"])), None if s.get("ai") is None else str(s["ai"])) for s in d["seats"]
            )
            engine = d.get("engine")
            return cls(
                engine=dict(engine) if engine is not None else None,
                options=dict(d.get("options") or {}),
                seats=seats,
                host=_opt_int(d.get("host")),
                invited=_opt_int(d.get("invited")),
                locale=d.get("locale"),
                created=float(d.get("created") or 0.0),
                extra=dict(d.get("extra") or {}),
                clock=dict(d.get("clock") or {}),
            )
        except (KeyError, TypeError, ValueError) as err:
            raise StateError(f"malformed game envelope: {err}", field="envelope") from err


def is_current(d: Any) -> bool:
    """True for a version-2 envelope (anything else needs the kind's migration)."""
    return isinstance(d, dict) and d.get("v") == ENVELOPE_VERSION


def _opt_int(value: Any) -> int | None:
    return None if value is None else int(value)
