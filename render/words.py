"""The words drawn in images and written in their text twins, in the viewer's language.

Render never decides the language: every renderer that writes words takes ``words`` (a :class:`Words`) whose
templates the bot fills from its catalogues for the viewer's locale (a private image: the clicking player's; a
public one: the server's). ``words=None`` means English, from the renderer's own defaults (each image's module
keeps its English templates as data, in one dict, so a scan can tell data from drawing code).

A template is a ``str.format`` string. A count takes plural forms: the key with ``.one`` / ``.other`` (CLDR
cardinal categories) picked by :func:`plural_category` for the language. Pure and picklable (the images are drawn
in CPU worker processes).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)


def plural_category(lang: str, count: int | float) -> str:
    """The CLDR cardinal plural category of ``count`` in ``lang``: ``"one"`` or ``"other"`` (or ``"many"``).

    English: ``one`` for exactly 1 (an integer), else ``other`` ("1 card", "0 cards", "2 cards"). Spanish: ``one``
    for 1, ``many`` for whole millions (1,000,000 -> "de cartas"), else ``other``. Unknown languages follow English.

    >>> [plural_category("en", n) for n in (0, 1, 2)]
    ['other', 'one', 'other']
    >>> plural_category("es", 1), plural_category("es", 1_000_000)
    ('one', 'many')
    """
    whole = float(count).is_integer()
    n = abs(int(count)) if whole else None
    if lang == "es":
        if count == 1:
            return "one"
        if n is not None and n != 0 and n % 1_000_000 == 0:
            return "many"
        return "other"
    return "one" if n == 1 else "other"


@dataclass(frozen=True)
class Words:
    """Templates of one language: ``lang`` (``"en"``, ``"es"``...) and ``templates`` (key -> ``str.format``
    template). Keys missing from ``templates`` fall back to ``defaults`` (the renderer's English)."""

    lang: str = "en"
    templates: Mapping[str, str] = field(default_factory=dict)
    defaults: Mapping[str, str] = field(default_factory=dict)

    def template(self, key: str) -> str:
        """The raw template of ``key``; raises ``KeyError`` for a key neither mapping has (a renderer's bug)."""
        found = self.templates.get(key)
        return found if found is not None else self.defaults[key]

    def __call__(self, key: str, /, **fields: Any) -> str:
        """The template of ``key`` filled with ``fields`` (a template missing a field is returned as is, logged)."""
        template = self.template(key)
        try:
            return template.format(**fields)
        except (KeyError, IndexError, ValueError):
            log.warning("image words %r (%s) could not be formatted with %s", key, self.lang, sorted(fields))
            return template

    def count(self, key: str, n: int, /, **fields: Any) -> str:
        """``key.one`` / ``key.other`` (``key.many`` when the language has it, else ``.other``) by
        :func:`plural_category`, filled with ``n`` and ``fields``."""
        form = f"{key}.{plural_category(self.lang, n)}"
        if form not in self.templates and form not in self.defaults:
            form = f"{key}.other"
        return self(form, n=n, **fields)

    def with_defaults(self, defaults: Mapping[str, str]) -> Words:
        """These words, falling back to ``defaults`` (a renderer's English) for keys they lack."""
        return Words(self.lang, self.templates, {**defaults, **self.defaults})


def resolve(words: Words | None, defaults: Mapping[str, str]) -> Words:
    """``words`` backed by a renderer's English ``defaults``; ``None`` -> English."""
    return Words("en", {}, defaults) if words is None else words.with_defaults(defaults)


__all__ = ["Words", "plural_category", "resolve"]
