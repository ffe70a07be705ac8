"""Constructo match actions besides :class:`~engine.constructo.move.Move`: :class:`ChooseLayout` (M1), and the
reading of any action's text (:func:`parse_action`). The shared ``Forfeit`` (= resignation, M3) and ``Timeout``
come from :mod:`engine.protocol`.

Texts (case-insensitive): ``"L5"``, ``"3-4"`` (section 8 notation), ``"layout rombo"`` or
``"layout (0,0) (1,0) ..."`` (round 2's layout), ``"forfeit"`` (``"resign"`` is read as ``"forfeit"``),
``"timeout"``, ``"takeback"`` (the last move taken back, with the opponent's consent) and ``"agreed draw"`` (a draw
agreed by both players). The engine does not see the consent: the bot asks for it before it applies either.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.constructo.layout import Layout
from engine.constructo.move import Move
from engine.errors import InvalidInputError
from engine.protocol import Forfeit, Timeout, parse_shared_action

__all__ = ["AgreeDraw", "ChooseLayout", "MatchAction", "Takeback", "parse_action"]


@dataclass(frozen=True)
class ChooseLayout:
    """M1: ``player`` (the one who did not start round 1) chooses round 2's ``layout`` and starts it.

    ``layout`` may be given as text (a name or 9 coordinates, :meth:`Layout.parse`); it is stored as a
    :class:`Layout`. Text form ``"layout rombo"`` / ``"layout (0,0) (1,0) ..."``. Raises InvalidInputError.

    >>> choice = ChooseLayout(1, "rombo")
    >>> choice.layout.name, choice.player
    ('rombo', 1)
    """

    player: int
    layout: Layout
    kind: ClassVar[str] = "layout"

    def __post_init__(self) -> None:
        if self.player not in (0, 1) or isinstance(self.player, bool):
            raise InvalidInputError(
                f"player must be 0 or 1, not {self.player!r}", reason="bad_player", player=self.player
            )
        layout: object = self.layout
        if isinstance(layout, str):
            object.__setattr__(self, "layout", Layout.parse(layout))
        elif not isinstance(layout, Layout):
            raise InvalidInputError(
                f"a layout must be a Layout or text, not {type(layout).__name__}", reason="internal"
            )

    def __str__(self) -> str:
        return f"layout {self.layout.to_text()}"


@dataclass(frozen=True)
class Takeback:
    """``player``'s last move is taken back (the opponent agreed): legal only while the match runs and the last
    move still on the board of the current round (placement or chip move) is ``player``'s; the position is
    then the one before it (a second takeback undoes the move before). Text ``"takeback"``.

    >>> str(Takeback(0)), parse_action("takeback", 1)
    ('takeback', Takeback(player=1))
    """

    player: int
    kind: ClassVar[str] = "takeback"

    def __str__(self) -> str:
        return "takeback"


@dataclass(frozen=True)
class AgreeDraw:
    """A draw agreed by both players, offered by ``player``: the match ends at once as a draw, whatever the
    score (the project's ruling, README design notes). Text ``"agreed draw"`` (not ``"draw"``: other games draw cards).

    >>> str(AgreeDraw(1)), parse_action("Agreed draw", 0)
    ('agreed draw', AgreeDraw(player=0))
    """

    player: int
    kind: ClassVar[str] = "draw"

    def __str__(self) -> str:
        return "agreed draw"


MatchAction = Move | ChooseLayout | Forfeit | Timeout | Takeback | AgreeDraw
"""Every action a :class:`~engine.constructo.match.Match` accepts."""


def parse_action(text: str, player: int) -> MatchAction:
    """The action for ``text`` (see the module docstring) made by ``player``.

    Raises InvalidInputError (rule ``Input``, or ``T5`` for ``"pass"``) quoting the bad text.

    >>> parse_action("M5", 0)
    Move('M5', player=0)
    >>> parse_action("resign", 1)
    Forfeit(player=1)
    >>> str(parse_action("layout rombo", 1))
    'layout rombo'
    """
    shared = parse_shared_action(text, player)
    if shared is not None:
        return shared
    word = text.strip()
    if word.lower() == "resign":
        return Forfeit(player)
    if word.lower() == "takeback":
        return Takeback(player)
    if " ".join(word.lower().split()) == "agreed draw":
        return AgreeDraw(player)
    head, _, rest = word.partition(" ")
    if head.lower() == "layout":
        return ChooseLayout(player, Layout.parse(rest))
    return Move.parse(word).by(player)
