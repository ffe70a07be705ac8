"""Argument checks done before any SQL runs (each raises ``InvalidDataError``, rule ``Input``)."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from typing import Any

from .errors import InvalidDataError
from .records import STATUSES

MAX_ACTION_CHARS = 4000
MAX_KEY_CHARS = 100
_LANGUAGE = re.compile(r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$")
_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")
_KIND = re.compile(r"^[a-z][a-z0-9_]{0,31}$")
_SETTING = re.compile(r"^[a-z_]{1,32}$")
MAX_SETTING_JSON = 4000

PREF_KEYS: tuple[str, ...] = ("language", "palette", "theme", "alerts")
"""Known user preferences: ``language`` (a BCP 47 tag such as ``"en"``, ``"fr"``, ``"pt-BR"``),
``palette`` (a palette name such as ``"default"`` or ``"okabe-ito"``), ``theme`` (``"dark"``,
``"light"``...) and ``alerts`` (turn alerts: ``"dm"`` on, ``"failed"`` turned off by an undeliverable DM).
Names are lowercase ``[a-z0-9_-]``, at most 32 characters."""


def snowflake(value: Any, field: str) -> int:
    """An integer id (guild, channel, user, message). Booleans are refused."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidDataError(f"{field} must be an integer id, not {value!r}", field=field)
    if not -(2**63) <= value < 2**63:
        raise InvalidDataError(f"{field} {value} does not fit in 64 bits", field=field)
    return value


def kind(value: Any) -> str:
    """A game kind name: lowercase ``[a-z][a-z0-9_]{0,31}`` (e.g. ``"conex"``). Storage knows no game by name."""
    if not isinstance(value, str) or not _KIND.match(value):
        raise InvalidDataError(
            f"game kind {value!r} must be a lowercase name such as 'conex' ([a-z][a-z0-9_]{{0,31}})", field="kind"
        )
    return value


def timestamp(value: Any, field: str) -> float | None:
    """A moment in Unix seconds (int or float, finite, not negative), or ``None``."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value < 0:
        raise InvalidDataError(
            f"{field} must be Unix seconds (a finite number >= 0) or None, not {value!r}", field=field
        )
    return float(value)


def reason(value: Any) -> str:
    """An abort reason code: ``[a-z][a-z0-9_]{0,31}`` (e.g. ``"guild_removed"``, ``"mutual"``)."""
    if not isinstance(value, str) or not _KIND.match(value):
        raise InvalidDataError(f"reason {value!r} must be a code such as 'guild_removed'", field="reason")
    return value


def setting_key(value: Any) -> str:
    """A guild setting name: ``[a-z_]{1,32}``."""
    if not isinstance(value, str) or not _SETTING.match(value):
        raise InvalidDataError(f"setting name {value!r} must match [a-z_]{{1,32}}", field="setting")
    return value


def setting_json(name: str, value: Any) -> str:
    """Serialise a guild setting value (any JSON value, at most 4000 characters)."""
    try:
        text = json.dumps(value, separators=(",", ":"), allow_nan=False, ensure_ascii=False)
    except (TypeError, ValueError) as exc:
        raise InvalidDataError(f"setting {name!r} is not a JSON value: {exc}", field=name) from exc
    if len(text) > MAX_SETTING_JSON:
        raise InvalidDataError(f"setting {name!r} is longer than {MAX_SETTING_JSON} characters", field=name)
    return text


def status(value: Any, allowed: Sequence[str] = STATUSES) -> str:
    """A game status among ``allowed``."""
    if value not in allowed:
        raise InvalidDataError(f"status {value!r} is not one of {', '.join(allowed)}", field="status")
    return str(value)


def version(value: Any) -> int:
    """A non-negative version number."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise InvalidDataError(f"expected_version must be a non-negative integer, not {value!r}", field="version")
    return value


def state_json(state: Any) -> str:
    """Serialise an engine state: a dict of JSON values (no NaN or infinity)."""
    if not isinstance(state, dict):
        raise InvalidDataError(f"a game state must be a dict, not {type(state).__name__}", field="state")
    try:
        return json.dumps(state, separators=(",", ":"), allow_nan=False, ensure_ascii=False)
    except (TypeError, ValueError) as exc:
        raise InvalidDataError(f"the game state is not valid JSON: {exc}", field="state") from exc


def players(value: Any) -> list[int]:
    """User ids by seat: a list of distinct integers (AI seats may use negative ids)."""
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        raise InvalidDataError("players must be a list of user ids by seat", field="players")
    ids = [snowflake(uid, "players[]") for uid in value]
    if len(set(ids)) != len(ids):
        raise InvalidDataError("a user can hold only one seat in a game", field="players", players=ids)
    return ids


def action_text(value: Any) -> str:
    """The action's text: a non-empty string of at most 4000 characters."""
    if not isinstance(value, str) or not value.strip():
        raise InvalidDataError("the action must be non-empty text", field="action")
    if len(value) > MAX_ACTION_CHARS:
        raise InvalidDataError(f"the action text is longer than {MAX_ACTION_CHARS} characters", field="action")
    return value


def key(value: Any, field: str) -> str:
    """A short key (message key, meta key): non-empty text up to 100 characters."""
    if not isinstance(value, str) or not value or len(value) > MAX_KEY_CHARS:
        raise InvalidDataError(f"{field} must be text of 1 to {MAX_KEY_CHARS} characters", field=field)
    return value


def pref(name: str, value: Any) -> str | None:
    """One preference value (``None`` resets it to the default)."""
    if name not in PREF_KEYS:
        raise InvalidDataError(f"unknown preference {name!r}: use one of {', '.join(PREF_KEYS)}", field=name)
    if value is None:
        return None
    pattern = _LANGUAGE if name == "language" else _NAME
    if not isinstance(value, str) or not pattern.match(value):
        raise InvalidDataError(f"{value!r} is not a valid {name}", field=name)
    return value
