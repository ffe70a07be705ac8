"""CONEX actions: small frozen dataclasses whose text form round-trips (``Action.parse(str(a), p) == a``).

Text forms (case-insensitive, extra spaces, commas and brackets tolerated on input)::

    place 12 c2 at 3.5,-10.0 r90 x2     card 12, corner 2, corner centroid at (3.5, -10.0) cm, 90 deg clockwise,
                                        using the 2x star (V3); "r.." omitted = let the engine choose the rotation
    draw                                A2
    pass                                A3
    lightning 7                         X3: remove free table card #7
    discard 31                          X3: put card 31 from hand at the bottom of the draw pile

Numbers: ``x``/``y`` in **cm** (G1), rotation in degrees clockwise, normalised to [0, 360). NaN, infinities and
coordinates beyond 10 m raise ``InvalidInputError`` (rule ``Input``); ``-0.0`` becomes ``0.0``.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import ClassVar, Union

from engine.conex.geometry import normalize_angle
from engine.errors import InvalidInputError, quoted
from engine.protocol import Forfeit, Timeout, parse_shared_action

MAX_COORD_CM = 1000.0


def _num(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInputError(f"{what} must be a number, not {quoted(value)}", reason="not_a_number", what=what)
    v = float(value)
    if not math.isfinite(v):
        raise InvalidInputError(f"{what} must be a finite number, not {v}", reason="not_finite_number", what=what)
    return v + 0.0  # turns -0.0 into 0.0


def _int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInputError(f"{what} must be a whole number, not {quoted(value)}", reason="not_whole", what=what)
    return value


def fmt_num(v: float) -> str:
    """Shortest text that reads back as exactly ``v``, with at least one decimal (``3.5``, ``-10.0``)."""
    if v == round(v, 1):
        return f"{v:.1f}"
    return repr(v)


def _player(player: object) -> int:
    p = _int(player, "player")
    if not 0 <= p <= 3:
        raise InvalidInputError(f"player must be a seat 0..3, not {p}", reason="seat_range", player=p)
    return p


@dataclass(frozen=True)
class Place:
    """A1: place ``card`` from hand with corner ``corner`` whose centroid lands at ``(x, y)`` cm.

    ``rotation`` is degrees clockwise (normalised to [0, 360)) or ``None`` (the engine picks the best legal
    rotation at that point and records the result). ``double=True`` uses the 2x star (V3).

    >>> p = Place(0, 12, 2, 3.5, -10, 450)
    >>> p
    Place(player=0, card=12, corner=2, x=3.5, y=-10.0, rotation=90.0, double=False)
    >>> str(p), p.x_mm
    ('place 12 c2 at 3.5,-10.0 r90', 35.0)
    >>> Action.parse(str(p), 0) == p
    True
    >>> Place(0, 12, 2, float("nan"), 0)
    Traceback (most recent call last):
    engine.errors.InvalidInputError: Input: x must be a finite number, not nan
    """

    player: int
    card: int
    corner: int
    x: float
    y: float
    rotation: float | None = None
    double: bool = False

    kind: ClassVar[str] = "place"

    def __post_init__(self) -> None:
        object.__setattr__(self, "player", _player(self.player))
        object.__setattr__(self, "card", _int(self.card, "card"))
        object.__setattr__(self, "corner", _int(self.corner, "corner"))
        for name in ("x", "y"):
            v = _num(getattr(self, name), name)
            if abs(v) > MAX_COORD_CM:
                raise InvalidInputError(
                    f"{name} = {v} cm is far off any table (max {MAX_COORD_CM:g} cm)",
                    reason="far_off_table",
                    field=name,
                    value=v,
                    limit=f"{MAX_COORD_CM:g}",
                )
            object.__setattr__(self, name, v)
        if self.rotation is not None:
            object.__setattr__(self, "rotation", normalize_angle(_num(self.rotation, "rotation")))
        if not isinstance(self.double, bool):
            raise InvalidInputError("double must be true or false", reason="double_not_bool", double=self.double)

    @property
    def x_mm(self) -> float:
        """``x`` in mm (the engine's unit)."""
        return self.x * 10.0

    @property
    def y_mm(self) -> float:
        """``y`` in mm (the engine's unit)."""
        return self.y * 10.0

    def __str__(self) -> str:
        text = f"place {self.card} c{self.corner} at {fmt_num(self.x)},{fmt_num(self.y)}"
        if self.rotation is not None:
            text += f" r{fmt_num(self.rotation).removesuffix('.0')}"
        if self.double:
            text += " x2"
        return text


@dataclass(frozen=True)
class Draw:
    """A2: draw two cards from the pile (one if only one is left)."""

    player: int
    kind: ClassVar[str] = "draw"

    def __post_init__(self) -> None:
        object.__setattr__(self, "player", _player(self.player))

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True)
class Pass:
    """A3: pass (only with an empty draw pile)."""

    player: int
    kind: ClassVar[str] = "pass"

    def __post_init__(self) -> None:
        object.__setattr__(self, "player", _player(self.player))

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Lightning:
    """X3: the lightning star's holder removes free table card ``card`` (start or end of their turn)."""

    player: int
    card: int
    kind: ClassVar[str] = "lightning"

    def __post_init__(self) -> None:
        object.__setattr__(self, "player", _player(self.player))
        object.__setattr__(self, "card", _int(self.card, "card"))

    def __str__(self) -> str:
        return f"lightning {self.card}"


@dataclass(frozen=True)
class Discard:
    """X3: a player with a pending discard puts ``card`` from hand at the bottom of the pile (any time)."""

    player: int
    card: int
    kind: ClassVar[str] = "discard"

    def __post_init__(self) -> None:
        object.__setattr__(self, "player", _player(self.player))
        object.__setattr__(self, "card", _int(self.card, "card"))

    def __str__(self) -> str:
        return f"discard {self.card}"


AnyAction = Union[Place, Draw, Pass, Lightning, Discard]  # noqa: UP007

_NUM = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?|nan|[-+]?inf"
_PLACE_RE = re.compile(
    rf"^place\s+#?(?P<card>\d+)\s+(?:c|corner\s*)(?P<corner>\d+)\s+(?:at\s+)?\(?\s*(?P<x>{_NUM})\s*[,\s]\s*"
    rf"(?P<y>{_NUM})\s*\)?(?:\s+(?:r|rot\s*|rotation\s*)(?P<r>{_NUM}))?(?P<double>\s+x2)?$"
)
_ONE_RE = re.compile(r"^(?P<verb>lightning|discard)\s+#?(?P<card>\d+)$")


class Action:
    """Namespace for ``Action.parse``; the action classes are ``Place``, ``Draw``, ``Pass``, ``Lightning``,
    ``Discard``."""

    @staticmethod
    def parse(text: str, player: int) -> AnyAction:
        """Parse an action's text (see the module docstring) for seat ``player``.

        >>> Action.parse("Lightning #7", 1)
        Lightning(player=1, card=7)
        >>> Action.parse("place 3 c1 at (0, 2.5) x2", 2)
        Place(player=2, card=3, corner=1, x=0.0, y=2.5, rotation=None, double=True)

        Raises:
            InvalidInputError: the text is not an action or holds a bad number (NaN, inf, > 10 m).
        """
        if not isinstance(text, str):
            raise InvalidInputError(f"an action must be text, not {quoted(text)}", reason="internal")
        t = " ".join(text.strip().lower().replace("°", "").split())
        if t in ("draw", "pass"):
            return Draw(player) if t == "draw" else Pass(player)
        m = _PLACE_RE.match(t)
        if m:
            try:
                x, y = float(m["x"]), float(m["y"])
                rot = float(m["r"]) if m["r"] is not None else None
            except ValueError as exc:  # pragma: no cover - the regex only lets numbers through
                raise InvalidInputError(f"bad number in {quoted(text)}", reason="unreadable_action", text=text) from exc
            return Place(player, int(m["card"]), int(m["corner"]), x, y, rot, m["double"] is not None)
        m = _ONE_RE.match(t)
        if m:
            cls = Lightning if m["verb"] == "lightning" else Discard
            return cls(player, int(m["card"]))
        raise InvalidInputError(
            f"cannot read {quoted(text)}: expected e.g. 'place 12 c2 at 3.5,-10.0 r90', 'draw', 'pass', "
            "'lightning 7' or 'discard 31'",
            reason="unreadable_action",
            text=text,
        )


GameAction = AnyAction | Forfeit | Timeout
"""Every action a CONEX ``Game`` accepts: the CONEX actions plus the shared ``Forfeit`` and ``Timeout``."""


def parse_action(text: str, seat: int) -> GameAction:
    """The action for ``text`` by ``seat``: ``"forfeit"``, ``"timeout"`` or a CONEX action's text
    (``Action.parse``). Raises ``InvalidInputError`` quoting the bad text.

    >>> parse_action("draw", 1), parse_action("timeout", 2), parse_action("discard 31", 0)
    (Draw(player=1), Timeout(player=2), Discard(player=0, card=31))
    """
    shared = parse_shared_action(text, seat)
    return shared if shared is not None else Action.parse(text, seat)
