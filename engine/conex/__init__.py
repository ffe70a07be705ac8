"""CONEX: the pure rules engine (rules/conex.md). Units: cm in actions and messages, mm inside; y down;
rotations clockwise as drawn.

Public API (docs/interfaces.md, section engine/conex): :class:`Game` (the game protocol's state, also exported as
``GameState``), its actions ``Place``, ``Draw``, ``Pass``, ``Lightning``, ``Discard`` and the shared ``Forfeit``,
``Timeout`` (re-exported from :mod:`engine.protocol`), events in :mod:`engine.conex.events`, ``load_deck``,
``Card``, ``Corner``, ``TableCard``, ``COLORS``; provably fair deals in :mod:`engine.conex.fair`; geometry helpers
in ``engine.conex.geometry`` (``posed_card``, ``BOARD_SQUARES``).
"""

from engine.conex.actions import Action, AnyAction, Discard, Draw, Lightning, Pass, Place
from engine.conex.deck import COLOR_NAMES, COLORS, Card, Corner, load_deck
from engine.conex.game import DIE_FACES, Game, GameAction
from engine.conex.geometry import BOARD_SQUARES, posed_card
from engine.conex.table import TableCard
from engine.protocol import Forfeit, Timeout

GameState = Game
"""The protocol's state class of this game (``engine.protocol.GameState``)."""

__all__ = [
    "BOARD_SQUARES",
    "COLORS",
    "COLOR_NAMES",
    "DIE_FACES",
    "Action",
    "AnyAction",
    "Card",
    "Corner",
    "Discard",
    "Draw",
    "Forfeit",
    "Game",
    "GameAction",
    "GameState",
    "Lightning",
    "Pass",
    "Place",
    "TableCard",
    "Timeout",
    "load_deck",
    "posed_card",
]
