"""English templates of every word the Constructo board image writes (:class:`render.words.Words` defaults).
The bot's catalogues translate them under ``img.<key>`` (``bot/games/constructo/locales/<lang>.py``).

Size letters (S M L), player tags, tile numbers and move notation (``L5``, ``4-5``) are symbols, the same in
every language.
"""

from __future__ import annotations

EN: dict[str, str] = {
    "ko.title": "Constructo · round {round} of 2 · {layout}",
    "ko.custom_layout": "custom layout",
    "ko.over_resigned": "Match over: {loser} resigned, {winner} ({tag}) wins",
    "ko.over_draw": "Match over: draw {a}–{b}",
    "ko.over_won": "Match over: {winner} ({tag}) wins {a}–{b}",
    "ko.choosing": "Round 1 over · {name} ({tag}) chooses the layout for round 2",
    "ko.to_move": "▶ {name} ({tag}, {pattern}) to move",
    "ko.pattern_0": "solid",
    "ko.pattern_1": "striped",
    "ko.last_move": "last move: {move} by {tag}",
    "ko.match_score": "match {n}",
    "ko.towers": "towers {n}",
    "ko.legend": ("L{tag} = {tag}'s large · chips bottom → top · small in a ring = swallowed · badge = tower owner"),
    "ko.size_1": "small",
    "ko.size_2": "medium",
    "ko.size_3": "large (ring)",
    "ko.round": "round {n}: {a} {x}–{y} {b}",
    "ko.so_far": "(so far)",
    "ko.round_unplayed": "round {n}: —",
    "ko.match": "match: {a} {x}–{y} {b}",
}

__all__ = ["EN"]
