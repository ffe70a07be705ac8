"""Every refusal the bot shows, turned into the user's language in one place.

Three families reach :func:`describe`:

- :class:`BotError`: refusals of the Discord layer and the game layer (not a player, stale
  button, channel busy...), carrying an i18n key and its arguments;
- ``engine.errors.RuleError`` (engine refusals, rule codes like ``K3``, ``P2``, ``NotYourTurn``);
- ``bot.storage.errors.StorageError`` (``VersionConflict``, ``GameClosed``...).

A rulebook code (``K3``, ``P2``, ``X3``: a letter and a number) stays visible in the message, so players can look
it up in the game's rules; the program's own names (``NotYourTurn``, ``Input``, ``VersionConflict``...) never
reach a player (:func:`shown_rule`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import discord

from bot.i18n import has, t
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


def shown_rule(rule: str | None) -> str | None:
    """The code shown to players: a rulebook code (``"P2"``), else ``None`` (internal names stay internal)."""
    return rule if rule is not None and RULEBOOK_CODE.fullmatch(rule) else None


def _with_rule(rule: str | None, text: str, locale: str | discord.Locale | None) -> str:
    code = shown_rule(rule)
    return t("err.with_rule", locale, rule=code, text=text) if code else text[:1].upper() + text[1:]


def describe(err: BaseException, locale: str | discord.Locale | None = None) -> str:
    """A short, specific message for ``err`` in ``locale`` (English fallback), rule code included.

    - ``BotError`` -> its catalogue message, prefixed by its rule code if any.
    - ``RuleError`` -> ``rule.<code>.<details["reason"]>`` or ``rule.<code>`` from the catalogue when the language
      has it (formatted with ``err.details``), else the engine's own English ``message``; a rulebook code as
      ``"**<code>** — ..."``.
    - ``StorageError`` -> ``storage.<code>`` from the catalogue, else its message.
    - anything else -> a generic "something went wrong" (details go to the log, never to users).
    """
    if isinstance(err, BotError):
        text = t(err.key, locale, **_localized(err.kwargs, locale))
        return _with_rule(err.rule, text, locale)
    if isinstance(err, RuleError):
        reason = err.details.get("reason")
        keys = ([f"rule.{err.rule}.{reason}"] if isinstance(reason, str) else []) + [f"rule.{err.rule}"]
        key = next((k for k in keys if has(k, locale)), None)
        text = t(key, locale, **{**err.details, "message": err.message}) if key else err.message
        return _with_rule(err.rule, text, locale)
    if isinstance(err, StorageError):
        rule = getattr(err, "rule", "Storage")
        key = f"storage.{rule}"
        text = t(key, locale) if has(key, "en") else str(getattr(err, "message", err))
        return _with_rule(rule, text, locale)
    return t("err.internal", locale)
