"""English templates of every word the CONEX images and their text twins write (:class:`render.words.Words`
defaults). The bot's catalogues translate them under ``img.<key>`` (``bot/games/conex/locales/<lang>.py``); a key
ending in ``.one`` / ``.other`` is a plural form (:meth:`render.words.Words.count`).

Colour letters (Y R T P), rule codes, card numbers and hand letters are symbols, the same in every language.
"""

from __future__ import annotations

EN: dict[str, str] = {
    # the table image
    "cn.title": "CONEX · goal {goal} · draw pile {pile}",
    "cn.zoom": "zoom: {zoom}",
    "cn.to_play": "▶ {name} to play",
    "cn.game_over": "Game over",
    "cn.game_over_wins.one": "Game over — {names} wins",
    "cn.game_over_wins.other": "Game over — {names} win",
    "cn.points.one": "{n} pt",
    "cn.points.other": "{n} pts",
    "cn.star_2x": "2x star",
    "cn.star_lightning": "lightning star",
    "cn.seat_left": "left",
    "cn.seat_must_discard": "must discard",
    "cn.in_supply": "In supply: {stars}",
    "cn.lightning_removed": "⚡ Lightning removed #{card} (red dashes)",
    "cn.last": "Last: #{card} by {name} · corner {corner} at ({x}, {y}) cm r{rot} on {target} · +{points}",
    "cn.the_board": "the board",
    "cn.no_card_placed": "No card was placed.",
    "cn.no_cards_yet": "No cards yet: start on the board square of your corner's colour.",
    "cn.corner_note": "Some corner values: zoom in (/conex board zoom:<card>)",
    "cn.corner_note_text": "Some corner values: /conex board text:true lists them",
    "cn.board_word": "board",
    "cn.die": "die",
    "cn.cm": "cm",
    # the table's text twin
    "cn.t_head": "CONEX · goal {goal} · draw pile {pile} · {turn}",
    "cn.t_to_play": "{name} to play",
    "cn.t_game_over": "game over",
    "cn.t_game_over_wins.one": "game over — {names} wins",
    "cn.t_game_over_wins.other": "game over — {names} win",
    "cn.t_scores": "Scores: {scores}",
    "cn.t_supply": "in supply: {stars}",
    "cn.t_must_discard": "must discard: {names}",
    "cn.t_removed": "Lightning: #{card} was removed from the table.",
    "cn.t_no_cards": "No cards on the table yet: start on the board square of your corner's colour.",
    "cn.t_ghost": "Ghost {n}: {place}",
    "cn.t_legend": (
        "Colours: Y yellow, R red, T turquoise, P purple. Board squares: Y top-left, R top-right, T bottom-right, "
        "P bottom-left; coordinates in cm, origin = board centre, y down; a card is given by the corner it was "
        "placed with (c2 at x,y = corner 2 there, as /conex place takes it)."
    ),
    "cn.t_table": "Table ({n} cards, bottom to top):",
    "cn.t_table_medium": "Table ({n} cards, bottom to top; placed corner at x,y cm, rotation, visible corners):",
    "cn.t_table_compact": "Table ({n} cards, bottom to top, placed corner at x,y cm):",
    "cn.t_card": "#{card}{colour}{action} c{corner} at ({x},{y}) r{rot} corners {corners}",
    "cn.t_none_visible": "none visible",
    "cn.t_free": "free",
    "cn.t_more": "… (+{n} more)",
    # the hand
    "cn.hand_title.one": "Your hand · {n} card",
    "cn.hand_title.other": "Your hand · {n} cards",
    "cn.hand_stars": "Stars: {stars} · score {score}",
    "cn.none": "none",
    "cn.you_must_discard": "you must discard one card",
    "cn.hand_empty": "No cards in hand.",
    "cn.legal_none": "no legal spot",
    "cn.legal_capped": "{n}+ legal",
    "cn.legal.one": "{n} legal",
    "cn.legal.other": "{n} legal",
    "cn.hand_text_head.one": "Your hand ({n} card); stars held: {stars}",
    "cn.hand_text_head.other": "Your hand ({n} cards); stars held: {stars}",
    "cn.hand_text_card": "{letter}: #{card} {colour}{action} — corners {corners}",
    "cn.colour_Y": "yellow",
    "cn.colour_R": "red",
    "cn.colour_T": "turquoise",
    "cn.colour_P": "purple",
    # the result card
    "cn.r_title": "CONEX — game result (goal {goal})",
    "cn.r_over": "Game over",
    "cn.r_in_progress": "Game in progress",
    "cn.r_wins": "{name} wins!",
    "cn.r_shared": "Shared win: {names}",
    "cn.r_place": "place",
    "cn.r_player": "player",
    "cn.r_points": "points",
    # the hints
    "cn.no_hints": "No legal placement to suggest.",
    "cn.hint_label": "#{card} corner {corner} → {target}",
    "cn.hint_points": "{label} · +{points}",
    "cn.hint_text": "{n}. {label} — corner at ({x}, {y}) cm{rot}",
}

__all__ = ["EN"]
