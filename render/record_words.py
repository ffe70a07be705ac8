"""English templates of the words shared by every game's after-game pictures (:class:`render.words.Words`
defaults): the leaderboard image and its text twin (``lb.*``), and what any replay's move list says (``rp.*``). Each
game's own after-game words (its result card, replay captions and move list) are in its ``render/<game>_words.py``.
The bot's catalogues translate them under ``img.<key>`` (``bot/locales/<lang>_pictures.py``); a key ending in
``.one`` / ``.other`` is a plural form.
"""

from __future__ import annotations

EN: dict[str, str] = {
    "lb.title": "Leaderboard",
    "lb.empty": "No rated games yet.",
    "lb.player": "player",
    "lb.rating": "rating",
    "lb.col_w": "W",
    "lb.col_l": "L",
    "lb.col_d": "D",
    "lb.t_empty": "{title}: no rated games yet.",
    "lb.t_row": "{rank}. {name} — rating {rating} ({a} {w} / {b} {l} / {c} {d})",
    "rp.unfinished": "Unfinished.",
    "rp.more_lines.one": "… {n} more line: see the full move list",
    "rp.more_lines.other": "… {n} more lines: see the full move list",
}

__all__ = ["EN"]
