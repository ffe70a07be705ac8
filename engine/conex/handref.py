"""Hand letters and legal-count labels shared by the hand image, its text twin and the bot (pure helpers).

A hand's cards are lettered in hand order like spreadsheet columns: ``A``..``Z``, then ``AA``, ``AB``...
``AZ``, ``BA``... so a hand of any size has one distinct letter per card and the letters read back
(:func:`hand_index`) to the same card.
"""

from __future__ import annotations

import re

LEGAL_CAP = 9
"""``Game.legal_counts`` caps each card's count here by default; a count at the cap means "this many or more"."""
_LETTER_RE = re.compile(r"^[A-Za-z]{1,3}$")


def hand_letter(index: int) -> str:
    """The letter of the card at 0-based ``index`` in a hand: 0 -> ``"A"``, 25 -> ``"Z"``, 26 -> ``"AA"``,
    27 -> ``"AB"``, 52 -> ``"BA"``. Raises ``ValueError`` for a negative index.

    >>> [hand_letter(i) for i in (0, 25, 26, 52)]
    ['A', 'Z', 'AA', 'BA']
    """
    if index < 0:
        raise ValueError(f"a hand index is >= 0, not {index}")
    out = ""
    n = index + 1
    while n:
        n, r = divmod(n - 1, 26)
        out = chr(ord("A") + r) + out
    return out


def hand_index(text: str) -> int | None:
    """The 0-based hand index of a letter reference (``"A"`` -> 0, ``"ab"`` -> 27, case-insensitive), or
    ``None`` when ``text`` is not 1-3 letters. The inverse of :func:`hand_letter`.

    >>> hand_index("ab"), hand_index(hand_letter(40)), hand_index("7")
    (27, 40, None)
    """
    text = text.strip()
    if not _LETTER_RE.match(text):
        return None
    n = 0
    for ch in text.upper():
        n = n * 26 + (ord(ch) - ord("A") + 1)
    return n - 1


def legal_label(count: int, cap: int = LEGAL_CAP) -> str:
    """``"9+ legal"`` at or above ``cap`` (the finder stopped counting), ``"3 legal"``, ``"no legal spot"``.

    >>> legal_label(12), legal_label(3), legal_label(0)
    ('9+ legal', '3 legal', 'no legal spot')
    """
    if count <= 0:
        return "no legal spot"
    return f"{cap}+ legal" if count >= cap else f"{count} legal"


__all__ = ["LEGAL_CAP", "hand_index", "hand_letter", "legal_label"]
