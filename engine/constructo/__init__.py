"""Constructo: the pure rules engine (``docs/rules/constructo.md``).

Public surface (see ``docs/interfaces.md``): :class:`Match` (the game protocol's state, also exported as
``GameState``), its actions :class:`Move`, :class:`ChooseLayout`, :class:`Takeback`, :class:`AgreeDraw` and the shared
``Forfeit``/``Timeout``
(re-exported from :mod:`engine.protocol`), events in :mod:`engine.constructo.events`, :class:`Layout`,
:data:`LAYOUTS`, :data:`RECOMMENDED`, :data:`EXPERIMENTAL`, :class:`Size`, :class:`Round`, and the shared errors.
The AI lives in :mod:`engine.constructo.ai`.
"""

from engine.constructo.actions import AgreeDraw, ChooseLayout, MatchAction, Takeback, parse_action
from engine.constructo.layout import EXPERIMENTAL, LAYOUTS, RECOMMENDED, Layout
from engine.constructo.match import Match
from engine.constructo.move import Move, Size
from engine.constructo.round import Round, stack_is_possible
from engine.errors import IllegalMoveError, InvalidInputError, NotYourTurnError, RuleError, StateError
from engine.protocol import Forfeit, Timeout

GameState = Match
"""The protocol's state class of this game (``engine.protocol.GameState``)."""

__all__ = [
    "EXPERIMENTAL",
    "LAYOUTS",
    "RECOMMENDED",
    "AgreeDraw",
    "ChooseLayout",
    "Forfeit",
    "GameState",
    "IllegalMoveError",
    "InvalidInputError",
    "Layout",
    "Match",
    "MatchAction",
    "Move",
    "NotYourTurnError",
    "Round",
    "RuleError",
    "Size",
    "StateError",
    "Takeback",
    "Timeout",
    "parse_action",
    "stack_is_possible",
]
