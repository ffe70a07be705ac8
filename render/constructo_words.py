"""English templates of every word the Constructo board image writes (:class:`render.words.Words` defaults).
The bot's catalogues translate them under ``img.<key>`` (``bot/games/constructo/locales/<lang>.py``).

Size letters (S M L), player tags, tile numbers and move notation (``L5``, ``4-5``) are symbols, the same in
every language.
"""

from __future__ import annotations

EN: dict[str, str] = {
    "ko.title": "Constructo · round {round} of 2 · {layout}",
    "ko.title_single": "Constructo · {layout}",
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
    # the board's text twin
    "ko.t_players": (
        "Players: {ta} = {a}, solid chips; {tb} = {b}, striped chips. Chips bottom to top, e.g. L{ta} = large of {ta}."
    ),
    "ko.t_tiles": "Tiles: {tiles}",
    "ko.t_empty": "empty",
    "ko.t_swallowed": "({chip} swallowed)",
    "ko.t_tower": "tower {tag}",
    "ko.t_reserve": "{name} ({tag}): reserve L{l} M{m} S{s}, towers {towers}",
    "ko.t_layout": "Layout: {layout}",
    # after the match (render/results.py, the layouts sheet, render/constructo_replay.py): the result card and its
    # text twin (rs.), the layouts sheet (ly.), replay captions and the move list (rp.)
    "rs.ko_title": "Constructo — match result",
    "rs.ko_resigned": "{loser} resigned — {winner} wins",
    "rs.ko_timed_out": "{loser} ran out of time — {winner} wins",
    "rs.ko_in_progress": "Match in progress: {a}–{b}",
    "rs.ko_draw": "Draw, {a}–{b}",
    "rs.ko_agreed": "Draw agreed, {a}–{b}",
    "rs.ko_won": "{winner} wins {a}–{b}",
    "rs.ko_key": "{name} ({pattern})",
    "rs.ko_round": "Round {n}",
    "rs.ko_custom": "custom",
    "rs.ko_total": "Total",
    "rs.ko_layout": "layout",
    "rs.ko_t_head": "Constructo — match result: {headline}",
    "rs.ko_t_round": "Round {n} ({layout}): {a} {x} – {y} {b}",
    "rs.ko_t_unplayed": "Round {n} ({layout}): not played",
    "rs.ko_t_total": "Total: {a} {x} – {y} {b}",
    "ly.title": "Constructo layouts — pick one by name",
    "ly.recommended": "recommended",
    "ly.experimental": "experimental",
    "ly.t_head": "Constructo layouts (tile n = n-th cell, axial (q,r), pointy-top hexagons):",
    "ly.t_line": "{name} ({group}): {cells}",
    "rp.ko_start": "start · {layout} · {name} moves first",
    "rp.ko_custom": "a custom layout",
    "rp.ko_place": "{chip} · {size} on {tile}",
    "rp.ko_size_1": "small",
    "rp.ko_size_2": "medium",
    "rp.ko_size_3": "large",
    "rp.ko_swallows": "swallows the small",
    "rp.ko_tower": "tower {tag}",
    "rp.ko_chooses": "chooses {layout} for round {n}",
    "rp.ko_round_over": "round {n} over: {a} {x}–{y} {b}",
    "rp.ko_resigns": "resigns",
    "rp.ko_times_out": "runs out of time",
    "rp.ko_takes_back": "takes back {move} (agreed)",
    "rp.ko_draw_agreed": "draw agreed",
    "rp.ko_agreed_result": "Draw agreed at {a}–{b}.",
    "rp.ko_takeback_item": "{name}'s {move}",
    "rp.ko_takebacks": "Takebacks agreed: {list}.",
    "rp.ko_lost_resigned": "{loser} resigned: {winner} wins.",
    "rp.ko_lost_time": "{loser} ran out of time: {winner} wins.",
    "rp.ko_draw": "Draw {a}–{b} over both rounds.",
    "rp.ko_wins": "{winner} wins {a}–{b} over both rounds.",
    "rp.ko_list_head": "Constructo · {a} vs {b}",
    "rp.ko_round_first": "Round {n} · {layout} · {name} starts · towers {a}–{b}",
    "rp.ko_round_chose": "Round {n} · {name} chose {layout} and starts · towers {a}–{b}",
    "rp.ko_so_far": "(so far)",
    "rp.ko_not_played": "(not played: the match ended before its first move)",
}

__all__ = ["EN"]
