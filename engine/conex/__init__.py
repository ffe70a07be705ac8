"""CONEX: the pure rules engine (rules/conex.md). Units: cm in actions and messages, mm inside; y down;
rotations clockwise as drawn.

Public API (docs/interfaces.md, section engine/conex): ``load_deck``, ``Card``, ``Corner``, ``Place``, ``Draw``,
``Pass``, ``Lightning``, ``Discard``, ``Action``, ``Game``, ``TableCard``, ``COLORS``; geometry helpers in
``engine.conex.geometry`` (``posed_card``, ``BOARD_SQUARES``).
"""

from engine.conex.actions import Action, AnyAction, Discard, Draw, Lightning, Pass, Place
from engine.conex.deck import COLOR_NAMES, COLORS, Card, Corner, load_deck
from engine.conex.game import DIE_FACES, Game
from engine.conex.geometry import BOARD_SQUARES, posed_card
from engine.conex.table import TableCard

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
    "Game",
    "Lightning",
    "Pass",
    "Place",
    "TableCard",
    "load_deck",
    "posed_card",
]
