"""Hand letters that stay with a card for the whole game (issue 14): each seat's cards are lettered in the order
they reached its hand (the deal, then every draw): ``A``..``Z``, ``AA``... (:func:`engine.conex.handref.hand_letter`).
Playing or discarding a card never re-letters the others, so ``/conex place card:C`` names the same card from the
hand image until it is played.

Kept in the envelope's ``extra["letters"]``: per seat, the card ids in arrival order (index = letter). Updated by
the kind's ``after`` on every commit (and at the start); a game saved before letters were kept gets them in hand
order on its next commit. A card that comes back to a hand (redrawn from the pile bottom) keeps its first letter.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.conex.handref import hand_index, hand_letter

KEY = "letters"


def _arrivals(extra: Mapping[str, Any], seat: int) -> list[int]:
    stored = extra.get(KEY) or []
    return [int(c) for c in stored[seat]] if seat < len(stored) else []


def track(extra: Mapping[str, Any], game: Any) -> dict[str, Any]:
    """``extra`` with every card now in a hand given a letter (new cards appended in hand order)."""
    out = dict(extra)
    seats = []
    for seat in range(game.players):
        arrivals = _arrivals(extra, seat)
        seen = set(arrivals)
        arrivals += [c for c in game.hands[seat] if c not in seen]
        seats.append(arrivals)
    out[KEY] = seats
    return out


def letters_of(extra: Mapping[str, Any], game: Any, seat: int) -> dict[int, str]:
    """Card id -> letter for the cards of ``seat``'s hand (cards not tracked yet: the next letters, hand order)."""
    arrivals = track(extra, game)[KEY][seat]
    index = {c: i for i, c in enumerate(arrivals)}
    return {c: hand_letter(index[c]) for c in game.hands[seat]}


def card_of(letters: Mapping[int, str], text: str) -> int | None:
    """The card of the hand lettered ``text`` (case-insensitive), ``None`` when no hand card has that letter."""
    if hand_index(text) is None:
        return None
    wanted = text.strip().upper()
    return next((c for c, letter in letters.items() if letter == wanted), None)


def span(letters: Mapping[int, str]) -> str:
    """The letters of a hand for a message: ``"A, C, F"`` (``"none"`` for an empty hand)."""
    return ", ".join(letters.values()) if letters else "none"
