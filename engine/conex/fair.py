"""Provably fair CONEX deals: the shuffle, its SHA-256 commitment and the check (U2; issue 16).

How a game's chance is made (all from the setup's ``seed``, which the bot draws from ``secrets.randbits(128)``;
the engine never makes one up):

- **Shuffle** (U2): the card ids ``1..52`` sorted, then ``random.Random(seed).shuffle(ids)``; seat ``k`` gets
  ``ids[5k : 5k + 5]``, the rest is the draw pile, top first (:func:`deal`).
- **Die roll** number ``n`` (0-based, counted over the game, X1): ``random.Random(f"conex-die:{seed}:{n}")``
  picks one of ``DIE_FACES`` with ``randrange(6)``.
- **Random discard** of a timed-out seat (X3): ``random.Random(f"conex-discard:{seed}:{h}")`` with ``h`` = the
  number of actions in the history before it, ``randrange`` over the seat's hand sorted by card id.

Python's ``random.Random`` seeds from an int exactly and from a ``str`` through SHA-512 (seeding version 2), so
every value above is the same on every machine and Python version that keeps the Mersenne Twister.

**Commitment** (shown at the start, before any card is dealt to anyone; the seed is revealed at the end):
``SHA-256`` (lower-case hex) of the UTF-8 text ``"conex-deal:v1:deck=<deck_version>:seed=<seed in decimal>"``
where ``deck_version`` is :func:`deck_version` (the first 16 hex digits of the SHA-256 of the deck file
``engine/data/conex_deck.json`` in canonical JSON: keys sorted, no spaces, UTF-8). A changed deck changes every
commitment. Check one with ``python -m engine.conex verify <seed> <hash>``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
from functools import cache

from engine.conex.deck import DECK_SIZE
from engine.data import DATA_DIR

__all__ = [
    "COMMITMENT_SCHEME",
    "HAND_SIZE",
    "canonical_text",
    "commitment",
    "deal",
    "deck_version",
    "shuffled",
    "verify",
]

COMMITMENT_SCHEME = "conex-deal:v1"
"""Prefix of the committed text; a new scheme would get a new prefix."""
HAND_SIZE = 5  # U2


@cache
def deck_version() -> str:
    """16 hex digits naming the deck: the start of the SHA-256 of ``engine/data/conex_deck.json`` in canonical JSON."""
    with (DATA_DIR / "conex_deck.json").open(encoding="utf-8") as fh:
        data = json.load(fh)
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _check_seed(seed: int) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"a seed is a whole number, not {seed!r}")
    return seed


def canonical_text(seed: int, deck: str | None = None) -> str:
    """The committed text for ``seed`` and deck version ``deck`` (default: this deck's :func:`deck_version`)."""
    return f"{COMMITMENT_SCHEME}:deck={deck or deck_version()}:seed={_check_seed(seed)}"


def commitment(seed: int, deck: str | None = None) -> str:
    """SHA-256 hex (64 lower-case digits) of :func:`canonical_text`: a pure function of (seed, deck version)."""
    return hashlib.sha256(canonical_text(seed, deck).encode("utf-8")).hexdigest()


def verify(seed: int, claimed: str, deck: str | None = None) -> bool:
    """True when ``claimed`` (hex, any case, surrounding spaces ignored) is the commitment of ``seed`` for deck
    version ``deck`` (default: this deck). Compared in constant time."""
    return hmac.compare_digest(commitment(seed, deck), claimed.strip().lower())


def shuffled(seed: int) -> list[int]:
    """The deck order of ``seed``: ids ``1..52`` sorted, then ``random.Random(seed).shuffle`` (U2)."""
    ids = list(range(1, DECK_SIZE + 1))
    random.Random(_check_seed(seed)).shuffle(ids)
    return ids


def deal(seed: int, players: int) -> tuple[list[list[int]], list[int]]:
    """``(hands, pile)`` of a ``players``-seat game with ``seed``: 5 cards per seat in seat order from the top of
    :func:`shuffled`, the rest the draw pile (top first)."""
    ids = shuffled(seed)
    hands = [ids[p * HAND_SIZE : (p + 1) * HAND_SIZE] for p in range(players)]
    return hands, ids[players * HAND_SIZE :]
