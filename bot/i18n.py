"""One translation function for every user-facing string, plus the command-name translator.

Catalogues are plain dicts, one per language, in ``bot/locales/<lang>.py``:

- ``MESSAGES``: message key -> template (``str.format`` placeholders), e.g.
  ``"err.not_your_turn": "It is not your turn: {name} is to move."``. English (``en``) is complete;
  other languages may be partial and fall back to English key by key.
- ``COMMANDS``: gettext-style, English command/option name or description -> translation, used by
  :class:`CatalogueTranslator` (discord.py's ``app_commands.Translator``) when the tree is synced.

Adding Spanish = adding ``bot/locales/es.py`` and listing it in ``LANGUAGES``; no cog changes.
Every ``bot/locales/<lang>_<part>.py`` module is merged into that language's catalogues, and so is every game's
own ``<game package>/locales/<lang>.py`` (the packages of :func:`bot.games.game_packages`; a game registered later,
e.g. by a test, is merged by :func:`add_game_catalogues`). A key defined twice keeps its first definition (logged).
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
import os
import pkgutil
import re
import string
from collections.abc import Sequence
from types import ModuleType
from typing import Any

import discord
from discord import app_commands

from bot.core.names import Name, shown

log = logging.getLogger(__name__)

LANGUAGES: tuple[str, ...] = ("en", "es")
DEFAULT_LANGUAGE = "en"


def _modules(lang: str) -> list[ModuleType]:
    """``bot.locales.<lang>`` then every ``bot.locales.<lang>_<part>`` (shared catalogues split by job), in name
    order."""
    import bot.locales

    names = sorted(m.name for m in pkgutil.iter_modules(bot.locales.__path__) if m.name.startswith(f"{lang}_"))
    return [importlib.import_module(f"bot.locales.{n}") for n in [lang, *names]]


def _game_module(package: str, lang: str) -> ModuleType | None:
    """``<package>.locales.<lang>`` if the game has one."""
    name = f"{package}.locales.{lang}"
    try:
        if importlib.util.find_spec(f"{package}.locales") is None or importlib.util.find_spec(name) is None:
            return None
    except ModuleNotFoundError:
        return None
    return importlib.import_module(name)


def _merge_into(target: dict[str, str], module: ModuleType, attr: str) -> None:
    for key, value in getattr(module, attr, {}).items():
        if key in target and target[key] != value:
            log.warning("message key %r of %s is defined twice; keeping the first", key, module.__name__)
            continue
        target[key] = value


MESSAGES: dict[str, dict[str, str]] = {lang: {} for lang in LANGUAGES}
COMMANDS: dict[str, dict[str, str]] = {lang: {} for lang in LANGUAGES}
_MERGED: set[str] = set()


def add_game_catalogues(package: str) -> None:
    """Merge the game package's ``locales/<lang>.py`` catalogues (``MESSAGES``, ``COMMANDS``) into every
    language (idempotent; a game without ``locales`` adds nothing)."""
    if package in _MERGED:
        return
    _MERGED.add(package)
    for lang in LANGUAGES:
        module = _game_module(package, lang)
        if module is not None:
            _merge_into(MESSAGES[lang], module, "MESSAGES")
            _merge_into(COMMANDS[lang], module, "COMMANDS")


def _load() -> None:
    from bot.games import game_packages

    for lang in LANGUAGES:
        for module in _modules(lang):
            _merge_into(MESSAGES[lang], module, "MESSAGES")
            _merge_into(COMMANDS[lang], module, "COMMANDS")
    for package in game_packages():
        add_game_catalogues(package)


_load()


def language_of(locale: str | discord.Locale | None) -> str:
    """The catalogue language for a Discord locale: ``"es-ES"``/``"es-419"`` -> ``"es"``;
    unknown or ``None`` -> ``"en"``."""
    if locale is None:
        return DEFAULT_LANGUAGE
    text = locale.value if isinstance(locale, discord.Locale) else str(locale)
    lang = text.split("-")[0].lower()
    return lang if lang in MESSAGES else DEFAULT_LANGUAGE


def has(key: str, locale: str | discord.Locale | None = None) -> bool:
    """True if ``key`` has a template in the locale's own catalogue (no English fallback)."""
    return key in MESSAGES[language_of(locale)]


PLAIN_TEXT: frozenset[str] = frozenset(
    {
        "cn.thread_title",
        "cx.thread_title",
        "cx.thread_title_open",
        "foot.thread_title",
        "learn.thread_open",
        "learn.thread_title",
        "learn.thread_vs",
        "lg.vs",
        "queue.thread_title",
        "rematch.thread_title",
        "tourney.thread",
    }
)
"""Templates Discord shows without Markdown (thread names; ``lg.vs`` builds names for both kinds of text, see
:func:`versus`): a :class:`~bot.core.names.Name` goes in as typed. Every other template is message text."""


def t(key: str, locale: str | discord.Locale | None = None, /, **kwargs: Any) -> str:
    """Translate message ``key`` for ``locale`` and fill its placeholders.

    A placeholder given a :class:`~bot.core.names.Name` (a display, server or channel name as typed) is filled
    with it Markdown-escaped (:func:`~bot.core.names.shown`: the name reads as typed, never as a link, heading or
    emphasis), except in the :data:`PLAIN_TEXT` templates. This is the one place names become message text.

    Falls back to English when the language lacks the key, and to the key itself (logged) when
    English lacks it too. A template whose placeholder is missing from ``kwargs`` is returned
    unformatted rather than raising, so a translation slip never breaks a reply.
    """
    lang = language_of(locale)
    template = MESSAGES[lang].get(key)
    if template is None:
        template = MESSAGES[DEFAULT_LANGUAGE].get(key)
    if template is None:
        log.warning("missing message key %r", key)
        return key
    if key not in PLAIN_TEXT:
        kwargs = {k: shown(v) if isinstance(v, Name) else v for k, v in kwargs.items()}
    empty = _nones(template, kwargs) if any(v is None for v in kwargs.values()) else []
    try:
        text = template.format(**kwargs)
    except (KeyError, IndexError, ValueError, TypeError):
        log.warning("message %r (%s) could not be formatted with %s", key, lang, sorted(kwargs))
        text = template
    if empty or _NONE_MENTION.search(text):
        _none_shown(key, text, empty)
    return text


STRICT_ENV = "TABLEBOT_STRICT_TEXT"
"""Set to ``1`` (the test suite sets it, for its own process and every bot it starts) and a player text filled with
``None`` raises :class:`NoneInText` instead of being logged: the suite fails wherever one is made."""

_NONE_MENTION = re.compile(r"<(?:@[!&]?|#)None>")


class NoneInText(ValueError):
    """A player text was filled with ``None`` (e.g. ``"Only <@None> can answer"``): a bug at the caller."""


def _nones(template: str, kwargs: dict[str, Any]) -> list[str]:
    """The placeholders ``template`` uses that ``kwargs`` fills with ``None``."""
    try:
        used = {name.split(".")[0].split("[")[0] for _l, name, _s, _c in string.Formatter().parse(template) if name}
    except ValueError:  # a malformed template: t() says so
        return []
    return sorted(name for name in used if name in kwargs and kwargs[name] is None)


def _none_shown(key: str, text: str, empty: list[str]) -> None:
    """No text a player reads may show ``None``: a placeholder filled with ``None``, or a mention of ``None``
    (``<@None>``) passed in already formatted. Logged as an error; raised under :data:`STRICT_ENV`."""
    what = ", ".join(empty) or "a mention"
    log.error("message %r filled with None (%s): %r", key, what, text)
    if os.environ.get(STRICT_ENV) == "1":
        raise NoneInText(f"message {key!r} shows None ({what}): {text!r}")


class CatalogueTranslator(app_commands.Translator):
    """Translates command names, descriptions and choice names from ``COMMANDS`` catalogues.

    The English text is the msgid; a language without an entry returns ``None`` (Discord then
    shows English).
    """

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        lang = language_of(locale)
        if lang == DEFAULT_LANGUAGE:
            return None
        return COMMANDS[lang].get(string.message)


def tn(key: str, count: int, locale: str | discord.Locale | None = None, /, **kwargs: Any) -> str:
    """:func:`t` of the plural form of ``key`` for ``count``: ``key.one`` / ``key.other`` (``key.many`` where the
    language has it) by the language's CLDR rule (``render.words.plural_category``), with ``n=count`` filled in.
    A language lacking the form falls back to English's, as :func:`t` does.

    ``tn("cn.cards", 1, "en") == "1 card"``; ``tn("cn.cards", 0, "es") == "0 cartas"``.
    """
    from render.words import plural_category

    form = f"{key}.{plural_category(language_of(locale), count)}"
    if form not in MESSAGES[language_of(locale)] and form not in MESSAGES[DEFAULT_LANGUAGE]:
        form = f"{key}.other"
    return t(form, locale, n=count, **kwargs)


def image_words(locale: str | discord.Locale | None = None) -> Any:
    """The :class:`render.words.Words` of ``locale`` for the images and their text twins: every ``img.<key>``
    template of the language (the renderers' own English fills what it lacks). Picklable (images are drawn in CPU
    worker processes)."""
    from render.words import Words

    lang = language_of(locale)
    catalogue = MESSAGES[lang]
    key = (lang, len(catalogue))  # a game's catalogue merged later (add_game_catalogues) makes a new entry
    words = _IMAGE_WORDS.get(key)
    if words is None:  # built once per language, not per board (a scan of the whole catalogue)
        words = _IMAGE_WORDS[key] = Words(lang, {k[4:]: v for k, v in catalogue.items() if k.startswith("img.")})
    return words


_IMAGE_WORDS: dict[tuple[str, int], Any] = {}
""":func:`image_words` by (language, catalogue size): the words are read-only (``Words`` is frozen)."""


def versus(names: Sequence[str], locale: str | discord.Locale | None = None) -> str:
    """Player names joined in ``locale``'s words: ``"Alice vs Bob"``, ``"Alice contra Bob"`` (three or more:
    ``"A vs B vs C"``); one name alone as is, none as ``""``. The result is a :class:`~bot.core.names.Name`: as
    typed in a thread name or a select label, Markdown-escaped as a whole when it fills a message's placeholder
    (the joining words hold no Markdown)."""
    out = ""
    for i, name in enumerate(names):
        out = str(name) if i == 0 else t("lg.vs", locale, a=out, b=str(name))
    return Name(out)
