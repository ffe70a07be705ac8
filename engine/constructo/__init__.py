"""Constructo: the pure rules engine (``rules/constructo.md``).

Public surface (see ``docs/interfaces.md``): :class:`Layout`, :data:`LAYOUTS`, :data:`RECOMMENDED`,
:data:`EXPERIMENTAL`, :class:`Size`, :class:`Move`, :class:`Round`, :class:`Match`, and the shared
errors re-exported for convenience. The AI lives in :mod:`engine.constructo.ai`.
"""

from engine.constructo.layout import EXPERIMENTAL, LAYOUTS, RECOMMENDED, Layout
from engine.constructo.match import Match
from engine.constructo.move import Move, Size
from engine.constructo.round import Round, stack_is_possible
from engine.errors import IllegalMoveError, InvalidInputError, NotYourTurnError, RuleError, StateError

__all__ = [
    "EXPERIMENTAL",
    "LAYOUTS",
    "RECOMMENDED",
    "IllegalMoveError",
    "InvalidInputError",
    "Layout",
    "Match",
    "Move",
    "NotYourTurnError",
    "Round",
    "RuleError",
    "Size",
    "StateError",
    "stack_is_possible",
]
