"""Every refusal the bot shows, turned into the user's language in one place.

Three families reach :func:`describe`:

- :class:`BotError`: refusals of the Discord layer and the game layer (not a player, stale
  button, channel busy...), carrying an i18n key and its arguments;
- ``engine.errors.RuleError`` (engine refusals, rule codes like ``K3``, ``P2``, ``NotYourTurn``);
- ``bot.storage.errors.StorageError`` (``VersionConflict``, ``GameClosed``...).

The rule code always stays visible in the message, so players and maintainers can look it up
in the game's rules.
"""

from __future__ import annotations

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


def describe(err: BaseException, locale: str | discord.Locale | None = None) -> str:
    """A short, specific message for ``err`` in ``locale`` (English fallback), rule code included.

    - ``BotError`` -> its catalogue message, prefixed by its rule code if any.
    - ``RuleError`` -> ``rule.<code>`` from the catalogue when the language has it (formatted with
      ``err.details``), else the engine's own English ``message``; always as ``"**<code>** — ..."``.
    - ``StorageError`` -> ``storage.<code>`` from the catalogue, else its message.
    - anything else -> a generic "something went wrong" (details go to the log, never to users).
    """
    if isinstance(err, BotError):
        text = t(err.key, locale, **_localized(err.kwargs, locale))
        return t("err.with_rule", locale, rule=err.rule, text=text) if err.rule else text
    if isinstance(err, RuleError):
        key = f"rule.{err.rule}"
        if has(key, locale):
            text = t(key, locale, **{**err.details, "message": err.message})
        else:
            text = err.message
        return t("err.with_rule", locale, rule=err.rule, text=text)
    if isinstance(err, StorageError):
        rule = getattr(err, "rule", "Storage")
        key = f"storage.{rule}"
        text = t(key, locale) if has(key, "en") else str(getattr(err, "message", err))
        return t("err.with_rule", locale, rule=rule, text=text)
    return t("err.internal", locale)
