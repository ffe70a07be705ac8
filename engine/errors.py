"""Errors shared by both engines.

Every refusal carries a machine-readable rule code (``rule``) taken from
``docs/rules/constructo.md`` or ``docs/rules/conex.md`` (e.g. ``"K3"``, ``"P2"``), an English
``message`` a player can act on, and ``details`` (a dict of the facts behind it) so the bot
can translate it in one place. All are ``ValueError`` subclasses.
"""

from __future__ import annotations

import unicodedata
from typing import Any


class RuleError(ValueError):
    """Base class: a refused move, action, input or stored state.

    Attributes:
        rule: the rule code (``"K3"``, ``"P2"``, ``"NotYourTurn"``, ``"Input"``, ``"State"``...).
        message: a sentence in English saying what is wrong and, where possible, what to do.
        details: extra facts (tile numbers, card ids, coordinates in cm...).
    """

    default_rule = "Rule"

    def __init__(self, message: str, *, rule: str | None = None, **details: Any) -> None:
        self.rule = rule or self.default_rule
        self.message = message
        self.details = details
        super().__init__(f"{self.rule}: {message}")


class IllegalMoveError(RuleError):
    """A Constructo move that the rules forbid (rule codes T1-T5, K1-K5, E1, M1, M3)."""


class IllegalActionError(RuleError):
    """A CONEX action that the rules forbid (rule codes A1-A3, P1-P5, X1-X4, E1-E3)."""


class NotYourTurnError(IllegalMoveError, IllegalActionError):
    """The acting player is not the one to move (rule code ``NotYourTurn``)."""

    default_rule = "NotYourTurn"


class InvalidInputError(IllegalMoveError, IllegalActionError):
    """Text or numbers that cannot be understood: bad notation, NaN, unknown id (rule ``Input``)."""

    default_rule = "Input"


class StateError(RuleError):
    """A stored state that ``from_dict`` refuses to load (rule ``State``)."""

    default_rule = "State"


QUOTE_LIMIT = 60
""":func:`quoted` shows at most this many characters of what a player typed (then ``…``)."""


def quoted(value: Any) -> str:
    """What a player typed, quoted for a refusal as they would read it: ``'rombito'`` - never ``repr``'s escapes
    (``'rombo\\u200b'``). Invisible characters (Unicode categories ``Cc``, ``Cf``) are left out and long text is cut
    to :data:`QUOTE_LIMIT` characters. A value that is not text (a number) is shown as it prints, unquoted."""
    if not isinstance(value, str):
        value = str(value)
        quote = ""
    else:
        quote = "'"
    text = "".join(ch for ch in str(value) if unicodedata.category(ch) not in ("Cc", "Cf"))
    if len(text) > QUOTE_LIMIT:
        text = text[: QUOTE_LIMIT - 1] + "…"
    return f"{quote}{text}{quote}"
