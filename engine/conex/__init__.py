"""CONEX: the pure rules engine (binding rulings: docs/rules/conex.md; rule codes as written there). Units: cm in
actions and messages, mm inside; y down; rotations clockwise as drawn.

Layers, imports pointing down only: :mod:`engine.conex.game` (``Game``, the thin front) → the rules as functions
over a position (``checks``, ``turns``, ``state``, ``finder``/``finder_explain``) → :mod:`engine.conex.position`
(``Position``: the state and its queries) → values and geometry (``table``, ``deck``, ``actions``, ``geometry``).

Public API (docs/interfaces.md, section engine/conex): :class:`Game` (the game protocol's state, also exported as
``GameState``), its actions ``Place``, ``Draw``, ``Pass``, ``Lightning``, ``Discard`` and the shared ``Forfeit``,
``Timeout`` (re-exported from :mod:`engine.protocol`), events in :mod:`engine.conex.events`, ``load_deck``,
``Card``, ``Corner``, ``TableCard``, ``COLORS``; provably fair deals in :mod:`engine.conex.fair`; geometry helpers
in ``engine.conex.geometry`` (``posed_card``, ``BOARD_SQUARES``).
"""

from engine.conex.actions import Action, AnyAction, Discard, Draw, GameAction, Lightning, Pass, Place
from engine.conex.deck import COLOR_NAMES, COLORS, Card, Corner, load_deck
from engine.conex.game import Game
from engine.conex.geometry import BOARD_SQUARES, posed_card
from engine.conex.position import DIE_FACES, Position
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
    "Position",
    "TableCard",
    "Timeout",
    "load_deck",
    "posed_card",
]
