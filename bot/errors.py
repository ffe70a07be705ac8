"""Every refusal the bot shows, turned into the user's language in one place.

Three families reach :func:`describe`:

- :class:`BotError`: refusals of the Discord layer and the game layer (not a player, stale
  button, channel busy...), carrying an i18n key and its arguments;
- ``engine.errors.RuleError`` (engine refusals, rule codes like ``K3``, ``P2``, ``NotYourTurn``);
- ``bot.storage.errors.StorageError`` (``VersionConflict``, ``GameClosed``...);

and the database failures the bot can recognise (:func:`storage_failure`: disk full, read-only data, database gone or
unreachable, locked too long), from SQLite, PostgreSQL or the operating system, get a plain answer naming what
happened and that nothing was applied (``storage.full|readonly|gone|Busy``).

A rulebook code (``K3``, ``P2``, ``X3``: a letter and a number) stays visible in the message, so players can look
it up in the game's rules; the program's own names (``NotYourTurn``, ``Input``, ``VersionConflict``...) never
reach a player (:func:`shown_rule`).
"""

from __future__ import annotations

import errno
import re
import sqlite3
from dataclasses import dataclass
from typing import Any

import discord

from bot.core.names import Name
from bot.core.names import shown as shown_name
from bot.i18n import has, t, tn
from bot.storage.errors import StorageError
from engine.errors import RuleError


@dataclass(frozen=True)
class OneOf:
    """A message argument listing alternatives, joined in the reader's language ("a, b or c")."""

    items: tuple[str, ...]

    def localize(self, locale: str | discord.Locale | None) -> str:
        if len(self.items) <= 1:
            return "".join(self.items)
        return t("list.or", locale, head=", ".join(self.items[:-1]), last=self.items[-1])

    def __str__(self) -> str:
        return self.localize(None)


def _localized(kwargs: dict[str, Any], locale: str | discord.Locale | None) -> dict[str, Any]:
    return {k: v.localize(locale) if hasattr(v, "localize") else v for k, v in kwargs.items()}


class BotError(Exception):
    """A user-facing refusal: ``key`` is an i18n message key, ``kwargs`` fill its placeholders.

    ``rule`` (optional) is the rule code shown with the message (e.g. ``"M1"``, ``"Turn"``).
    """

    def __init__(self, key: str, *, rule: str | None = None, **kwargs: Any) -> None:
        self.key = key
        self.rule = rule
        self.kwargs = kwargs
        super().__init__(f"{rule + ': ' if rule else ''}{t(key, None, **_localized(kwargs, None))}")


RULEBOOK_CODE = re.compile(r"[A-Z][0-9]{1,2}")


def typed(value: str, limit: int = 80) -> str:
    """A text an engine error carries (it may echo what the player typed), at most ``limit`` characters: a
    :class:`~bot.core.names.Name` (escaped where it becomes message text) when it holds a Markdown character."""
    value = value if len(value) <= limit else value[: limit - 1] + "…"
    return Name(value) if _MARKDOWN.search(value) else value  # a number such as "-1" stays as it is


_MARKDOWN = re.compile(r"[*_~`|\[\]\\<@#>]")
"""A character that can make a text inside a sentence Markdown, a mention or a link."""


def shown_rule(rule: str | None) -> str | None:
    """The code shown to players: a rulebook code (``"P2"``), else ``None`` (internal names stay internal)."""
    return rule if rule is not None and RULEBOOK_CODE.fullmatch(rule) else None


def sentence(text: str) -> str:
    """An engine's message as a player reads it: a sentence with its full stop ("It is not your turn: wait for
    your opponent's action.")."""
    text = text.rstrip()
    return text if not text or text[-1] in ".!?…)»”" else text + "."


def _with_rule(rule: str | None, text: str, locale: str | discord.Locale | None) -> str:
    code = shown_rule(rule)
    return t("err.with_rule", locale, rule=code, text=text) if code else text[:1].upper() + text[1:]


STORAGE_FAILURES = ("full", "readonly", "gone", "busy")
_PG_STATES = {
    "53100": "full",
    "53000": "full",
    "25006": "readonly",
    "55P03": "busy",
    "40P01": "busy",
    "57014": "busy",
    "57P01": "gone",
    "57P02": "gone",
    "57P03": "gone",
    "3D000": "gone",
}
_STORAGE_RULES = {"Busy": "busy", "DatabaseLocked": "busy", "Closed": "gone", "DatabaseUnavailable": "gone"}


def _failure_of(err: BaseException) -> str | None:
    if isinstance(err, StorageError):
        return _STORAGE_RULES.get(str(getattr(err, "rule", "")))
    if isinstance(err, sqlite3.Error):
        text = str(err).lower()
        if "disk is full" in text or "database or disk is full" in text:
            return "full"
        if "readonly" in text or "read-only" in text:
            return "readonly"
        if "locked" in text or "busy" in text:
            return "busy"
        if "unable to open" in text or "disk i/o error" in text or "is not a database" in text:
            return "gone"
        return None
    if type(err).__module__.split(".")[0] == "asyncpg":
        state = str(getattr(err, "sqlstate", "") or "")
        if state in _PG_STATES:
            return _PG_STATES[state]
        if state.startswith("08") or "Connection" in type(err).__name__ or type(err).__name__ == "InterfaceError":
            return "gone"
        return None
    if isinstance(err, OSError) and err.errno in (errno.ENOSPC, errno.EDQUOT):
        return "full"
    if isinstance(err, OSError) and err.errno == errno.EROFS:
        return "readonly"
    return None


def storage_failure(err: BaseException) -> str | None:
    """What went wrong with the database, if ``err`` (or an exception it was raised from) is a failure the bot can
    name: ``"full"`` (disk full: SQLite ``SQLITE_FULL``, PostgreSQL 53100, ``ENOSPC``), ``"readonly"`` (read-only
    file or server: ``SQLITE_READONLY``, 25006, ``EROFS``), ``"gone"`` (the file cannot be opened, I/O error, the
    server unreachable or shut down: class 08, 57P0x, asyncpg's connection errors, a closed storage) or ``"busy"``
    (locked too long: ``SQLITE_BUSY``, the backend's ``Busy``, 55P03 / 40P01 / 57014); else ``None``."""
    seen: set[int] = set()
    current: BaseException | None = err
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        found = _failure_of(current)
        if found is not None:
            return found
        current = current.__cause__ or current.__context__
    return None


def describe(err: BaseException, locale: str | discord.Locale | None = None) -> str:
    """A short, specific message for ``err`` in ``locale`` (English fallback), rule code included.

    - ``BotError`` -> its catalogue message, prefixed by its rule code if any (``err.game_closed`` of an aborted
      game, ``status="aborted"``: ``err.game_aborted``, which names no result card nor rematch; a ``count`` with
      plural forms in the catalogue, ``<key>.one``/``.other``: :func:`bot.i18n.tn`, e.g. "1 open game").
    - ``RuleError`` -> ``rule.<code>.<details["reason"]>`` or ``rule.<code>`` from the catalogue when the language
      has it (formatted with ``err.details``), else the engine's own English ``message``; a rulebook code as
      ``"**<code>** — ..."``.
    - a recognised database failure (:func:`storage_failure`) -> ``storage.full|readonly|gone|Busy``: what
      happened and that nothing was applied.
    - ``StorageError`` -> ``storage.<code>`` from the catalogue, else its message.
    - anything else -> a generic "something went wrong" (details go to the log, never to users).
    """
    if isinstance(err, BotError):
        aborted = err.key == "err.game_closed" and err.kwargs.get("status") == "aborted"
        shown = "err.game_aborted" if aborted else err.key  # an aborted game: no result card, no rematch to point to
        kwargs = _localized(err.kwargs, locale)
        count = err.kwargs.get("count")
        if isinstance(count, int) and has(f"{shown}.other", "en"):  # a number of things: its plural form
            text = tn(shown, count, locale, **kwargs)
        else:
            text = t(shown, locale, **kwargs)
        return _with_rule(err.rule, text, locale)
    if isinstance(err, RuleError):
        reason = err.details.get("reason")
        keys = ([f"rule.{err.rule}.{reason}"] if isinstance(reason, str) else []) + [f"rule.{err.rule}"]
        key = next((k for k in keys if has(k, locale)), None)
        details = {k: typed(v) if isinstance(v, str) else v for k, v in err.details.items()}  # may echo typed text
        message = typed(err.message, limit=600)
        text = t(key, locale, **{**details, "message": message}) if key else sentence(shown_name(message))
        return _with_rule(err.rule, text, locale)
    failure = storage_failure(err)
    if failure is not None:
        return t("storage.Busy" if failure == "busy" else f"storage.{failure}", locale)
    if isinstance(err, StorageError):
        rule = getattr(err, "rule", "Storage")
        key = f"storage.{rule}"
        text = t(key, locale) if has(key, "en") else str(getattr(err, "message", err))
        return _with_rule(rule, text, locale)
    return t("err.internal", locale)
