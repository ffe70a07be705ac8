"""CONEX placements as players type them: card references (hand letter or number), targets, coordinates in cm,
the exact pose or auto-fit of ``/conex place`` (the finder), and the hints preview. Pure functions of the engine
state; the CPU-heavy ones (:func:`resolve_place`, :func:`hints`, :func:`legal_counts`) run through the layer's CPU
seam (module-level, picklable arguments)."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass

from bot.core.names import plain
from bot.games.conex.letters import card_of, span
from engine.conex import Discard, Draw, Game, Pass, Place, finder, turns
from engine.conex.handref import hand_index, hand_letter
from engine.errors import IllegalActionError, InvalidInputError, NotYourTurnError

MAX_HINTS = 9
HINT_SPACING_CM = 3.0
COORD_LIMIT_CM = 100.0  # |x|, |y| accepted by /conex place (the large table is 140 x 90 cm)


# A card number alone ("12"), or followed by the rest of one of the bot's own labels ("12 red +2 · 1:Y4"), so a
# pasted suggestion still works; "12.9" or "3 or 4" are refused rather than read as 12 or 3.
CARD_NUMBER = re.compile(
    r"^(\d{1,3})(?:\s+(?:yellow|red|turquoise|purple|amarillo|rojo|turquesa|morado)\b.*)?$", re.IGNORECASE
)


def parse_card_ref(
    game: Game,
    seat: int,
    ref: str | int,
    letters: Mapping[int, str] | None = None,
    *,
    acting: type[Place] | type[Discard] | None,
) -> int:
    """A hand card from a reference: the hand letter (``"C"``: the card lettered C for the whole game, see
    :mod:`bot.games.conex.letters`; ``letters`` is card id -> letter, default the hand order), the card number
    (``"12"``, ``"#12"``) or an autocomplete value. Returns the card id.

    ``acting``: the action the card is for. The seat's own checks come first (``Game.check_actor``: the game is
    over, the seat left, not its turn, no discard owed), so a player who may not act is told that, never that
    their (empty) hand has no such card. ``None`` only where nothing is refused to the player (autocomplete).

    Raises ``InvalidInputError`` (rule ``Input``) for text that is neither, or a letter no hand card has.
    A number not in the hand is returned as is (the engine then refuses it with P5).
    """
    if acting is not None:
        game.check_actor(seat, acting)
    text = str(ref).strip().lstrip("#").strip()
    hand = game.hands[seat]
    if letters is None:
        letters = {c: hand_letter(i) for i, c in enumerate(hand)}
    if hand_index(text) is not None:
        card = card_of(letters, text)
        if card is None:
            raise InvalidInputError(
                f"no card of your hand has the letter {text.upper()}: your cards are {span(letters)}",
                reason="no_letter",
                card=plain(text.upper()),
                letters=span(letters),
            )
        return card
    m = CARD_NUMBER.match(text)
    if not m:
        raise InvalidInputError(
            f"'{text[:40]}' is not a card: give its hand letter ({span(letters)}) or its number",
            reason="not_card",
            text=plain(text[:40]),
            letters=span(letters),
        )
    return int(m.group(1))


def parse_target(ref: str | int | None) -> int | str | None:
    """``"board"`` (or ``"b"``), a table card number (``"7"``, ``"#7"``) or ``None``.

    Raises ``InvalidInputError`` for anything else.
    """
    if ref is None:
        return None
    text = str(ref).strip().lower().lstrip("#").strip()
    if text in ("", "none"):
        return None
    if text in ("board", "b", "the board"):
        return "board"
    m = CARD_NUMBER.match(text)
    if not m:
        raise InvalidInputError(
            f"{str(ref)[:40]!r} is not a target: give a table card number or 'board'",
            reason="not_target",
            text=str(ref)[:40],
        )
    return int(m.group(1))


ROTATION_LIMIT_DEG = 360.0
"""A rotation is given in degrees within ±this (``/conex place rotation:``)."""


def check_coord(value: float | None, what: str, limit: float = COORD_LIMIT_CM) -> float | None:
    """A finite coordinate within ``±limit`` cm, or ``None``. Raises ``InvalidInputError`` (rule ``Input``) for
    NaN, infinities and huge values (G1: commands speak cm)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInputError(f"{what} must be a number, not {value!r}", reason="not_number", what=what)
    v = float(value)
    if not math.isfinite(v):
        raise InvalidInputError(f"{what} must be a finite number of cm, not {v}", reason="not_finite", what=what)
    if abs(v) > limit:
        raise InvalidInputError(
            f"{what} = {v:g} cm is off every table (at most {limit:g} cm from the centre)",
            reason="off_tables",
            what=what,
            value=f"{v:g}",
            limit=f"{limit:g}",
        )
    return v


def check_rotation(value: float | None) -> float | None:
    """A finite rotation within ±360 degrees, or ``None``. Raises ``InvalidInputError`` (rule ``Input``, reason
    ``bad_rotation``: said in degrees, not as a coordinate in cm) for anything else (a forged payload: Discord's
    client keeps to the command's range)."""
    if value is None:
        return None
    v = float(value) if isinstance(value, int | float) and not isinstance(value, bool) else math.nan
    if not math.isfinite(v) or abs(v) > ROTATION_LIMIT_DEG:
        shown = f"{v:g}" if not math.isnan(v) else str(value)[:20]
        raise InvalidInputError(
            f"rotation must be a number of degrees within ±360, not {shown}", reason="bad_rotation", value=shown
        )
    return v


@dataclass(frozen=True)
class Hint:
    """A suggested legal placement for the hints preview: ``place`` (exact pose), its ``points``, the ``target`` its
    corner lands on (a table card id or ``"board"``) and, when the seat holds the 2x star, ``double_points`` (the
    points with ``double:true``; ``None`` otherwise)."""

    place: Place
    points: int
    target: int | str = "board"
    double_points: int | None = None


def _scored(game: Game, place: Place, double: bool) -> Hint:
    """``place`` with its points and target (the placement check only: no turn check, so a seat may plan)."""
    resolved, verdict = game.check_place(place)
    points = turns.points(game, resolved, verdict)
    return Hint(resolved, points, verdict.target, points * 2 if double else None)


def can_double(game: Game, seat: int) -> bool:
    """The seat holds the 2x star and may use it on its (next) turn (X2: not won during the current turn)."""
    if game.stars.get("2x") != seat:
        return False
    return game.current_player != seat or game.star_usable(seat, "2x")


def resolve_place(
    game: Game,
    seat: int,
    *,
    card: str | int,
    corner: int,
    x: float | None = None,
    y: float | None = None,
    rotation: float | None = None,
    target: str | int | None = None,
    double: bool = False,
    letters: Mapping[int, str] | None = None,
) -> tuple[Place, int | str | None]:
    """Build the ``Place`` of ``/conex place``: the exact pose when ``x``/``y`` are given (``rotation``
    optional: the engine picks the best legal one), else the best auto-fit pose on ``target`` (or anywhere).
    Returns ``(place, target)``; the target is checked at commit time for exact poses.

    Raises ``InvalidInputError`` (NaN/inf/huge numbers, only one of x/y, unknown card or target text),
    ``IllegalActionError`` (``P5`` not in hand, ``P1`` no legal pose), ``NotYourTurnError``.
    """
    card_id = parse_card_ref(game, seat, card, letters, acting=Place)
    tgt = parse_target(target)
    cx = check_coord(x, "x")
    cy = check_coord(y, "y")
    rot = check_rotation(rotation)
    if (cx is None) != (cy is None):
        raise InvalidInputError(
            "give both x and y (in cm), or neither to let me fit the card on the target", reason="one_coordinate"
        )
    if cx is not None and cy is not None:
        return Place(seat, card_id, corner, cx, cy, rot, double), tgt
    if tgt is None:
        failed: list[Exception] = []
        found = game.find_placements(seat, card_id, corner, None, limit=1, failed=failed)
        if not found and failed:  # a target could not be searched: "no legal pose anywhere" is not known
            raise finder.unchecked(game.card(card_id), corner, failed[0])
        if not found:
            raise IllegalActionError(
                f"corner {corner} of card {card_id} has no legal pose anywhere on the table",
                rule="P1",
                card=card_id,
                corner=corner,
            )
        place = found[0]
    else:
        place = game.auto_fit(seat, card_id, corner, tgt)
    if double:
        place = Place(seat, place.card, place.corner, place.x, place.y, place.rotation, True)
    return place, tgt


def hints(game: Game, seat: int, limit: int = MAX_HINTS, *, plan: bool = False) -> list[Hint]:
    """Up to ``limit`` good legal placements over the whole hand of ``seat``, best points first, each with its
    target and (holding the 2x star) its doubled points. Spread out for a readable preview: up to 4 finder poses
    per card are gathered, then picked best first while keeping their corner points at least
    :data:`HINT_SPACING_CM` apart (closer ones only fill the list when too few remain, cards shown least first,
    never a mere re-rotation of a chosen one). ``plan``: the seat need not be to play (hints off-turn, to plan
    ahead: the placements its hand has on the table as it is now). CPU work: call in a worker thread.

    Raises ``NotYourTurnError`` (unless ``plan``) / ``IllegalActionError`` (``X3`` pending discard, ``E1``).
    """
    try:
        game.check(Draw(seat) if game.draw_pile else Pass(seat))
    except NotYourTurnError:
        if not plan or game.is_over:
            raise
    double = can_double(game, seat)
    pool: list[Hint] = []
    for cid in game.hands[seat]:
        for place in game.find_placements(seat, cid, limit=4):
            pool.append(_scored(game, place, double))
    pool.sort(key=lambda h: -h.points)
    chosen: list[Hint] = []
    for h in pool:
        if len(chosen) < limit and all(
            math.hypot(h.place.x - c.place.x, h.place.y - c.place.y) >= HINT_SPACING_CM for c in chosen
        ):
            chosen.append(h)

    def repeats(h: Hint) -> bool:  # the same card and corner at (nearly) the same point: a mere rotation
        return any(
            c.place.card == h.place.card
            and c.place.corner == h.place.corner
            and math.hypot(h.place.x - c.place.x, h.place.y - c.place.y) < HINT_SPACING_CM
            for c in chosen
        )

    rest = [h for h in pool if h not in chosen]
    while rest and len(chosen) < limit:  # fill: cards shown least so far first, then points
        h = min(rest, key=lambda r: (sum(c.place.card == r.place.card for c in chosen), -r.points))
        rest.remove(h)
        if not repeats(h):
            chosen.append(h)
    chosen.sort(key=lambda h: -h.points)
    return chosen


def cm(value: float) -> str:
    """A coordinate in cm for messages: one decimal, never ``-0.0``."""
    return f"{round(float(value), 1) + 0.0:.1f}"


def targets(game: Game, seat: int, card: int, corner: int) -> list[int | str]:
    """The targets where ``corner`` of hand card ``card`` has a legal pose now (``Game.targets_for``). CPU work."""
    return list(game.targets_for(seat, card, corner))


def legal_counts(game: Game, seat: int) -> dict[int, int]:
    """Legal placement counts per hand card of ``seat`` (capped; the finder). CPU work."""
    return game.legal_counts(seat)
