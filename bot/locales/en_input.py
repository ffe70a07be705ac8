"""English sentences for the engine's input refusals (``rule.Input.<reason>``, and ``rule.<code>.<reason>`` for the
few that carry a rulebook code): every ``InvalidInputError`` the engine raises names its ``reason`` and the facts
behind it, so :func:`bot.errors.describe` words it in the reader's language (``tests/bot/test_engine_input_i18n.py``
fails on a raise without a reason or a reason without both sentences). ``internal``: a program error, never a
player's typing."""

MESSAGES: dict[str, str] = {
    "rule.Input.internal": "I could not use that input; nothing was changed. Try again from the latest board.",
    "rule.Input.not_a_number": "{what} must be a number.",
    "rule.Input.not_finite_number": "{what} must be a finite number.",
    "rule.Input.not_whole": "{what} must be a whole number.",
    "rule.Input.seat_range": "There is no seat {player}: seats are 0-3.",
    "rule.Input.far_off_table": "{field} = {value} cm is far off any table (at most {limit} cm).",
    "rule.Input.double_not_bool": "The 2x option must be true or false.",
    "rule.Input.unreadable_action": (
        "I cannot read “{text}”: write e.g. 'place 12 c2 at 3.5,-10.0 r90', 'draw', 'pass', 'lightning 7' or "
        "'discard 31'."
    ),
    "rule.Input.unknown_level": "Unknown AI level “{level}”: use one of {levels}.",
    "rule.Input.no_such_corner": "Card #{card} has corners 1-{corners}, not {corner}.",
    "rule.Input.not_on_table": "Card #{target} is not on the table: give a table card number or the board.",
    "rule.Input.not_a_target": "“{target}” is not a target: give a table card number or the board.",
    "rule.Input.bad_limit": "The limit must be a whole number of at least 1, not {limit}.",
    "rule.Input.player_count": "This game is for 2 to 4 players, not {players}.",
    "rule.Input.bad_seed": "The seed must be a whole number of at most {bits} bits.",
    "rule.Input.unknown_table": "The table size must be one of {sizes}, not “{table}”.",
    "rule.Input.goal_range": "The goal must be {low}-{high} points, not {goal}.",
    "rule.Input.bad_bots": "Bots must sit in distinct seats 0-{last}, not {bots}.",
    "rule.Input.bad_timeout": "The timeout limit must be a whole number of at least 1, not {timeout_forfeit}.",
    "rule.Input.unknown_options": "Unknown game options: {names}.",
    "rule.Input.missing_option": "The game setup needs the option “{option}”.",
    "rule.Input.no_seat": "There is no seat {player} in a {players}-player game.",
    "rule.Input.no_such_card": "There is no card {card}: cards are numbered 1-52.",
    "rule.Input.bad_player": "Player must be 0 or 1, not {player}.",
    "rule.Input.empty_layout": "The layout is empty: give a name ({names}) or 9 coordinates.",
    "rule.Input.unknown_layout": (
        "Unknown layout “{token}”: known layouts are {names}, or give 9 coordinates like (0,0) (1,0) ..."
    ),
    "rule.Input.unreadable_cell": (
        "I cannot read “{token}” in the layout: coordinates are written (q,r), e.g. (0,0) (1,0)."
    ),
    "rule.Input.no_such_tile": "Tile {tile} does not exist: tiles are numbered 1-9.",
    "rule.Input.bad_cell": "The layout cell {cell} is not a pair of whole numbers (q, r).",
    "rule.Input.cell_count": "A layout needs exactly 9 cells, got {count}.",
    "rule.Input.duplicate_cell": "Cell {where} appears twice: the 9 cells must be distinct.",
    "rule.Input.cell_too_far": "Cell {where} is too far out: |q| and |r| must be at most {limit}.",
    "rule.Input.not_connected": (
        "The cells are not connected: {apart} cannot be reached from {start} through shared edges."
    ),
    "rule.Input.no_such_size": "Size {token} does not exist: use 1 (small), 2 (medium) or 3 (large).",
    "rule.Input.unknown_size": "Unknown chip size “{token}”: use S, M or L (small, medium, large).",
    "rule.Input.token_no_such_tile": "“{token}”: tile {tile} does not exist, tiles are numbered 1-9.",
    "rule.Input.same_tile": "A move needs two different tiles.",
    "rule.Input.same_tile_token": "“{token}”: a move needs two different tiles.",
    "rule.Input.tile_not_number": "Tile {tile} is not a number 1-9.",
    "rule.Input.empty_action": (
        "The action is empty: a placement is a size letter S, M or L and a tile 1-9 (e.g. L5); a move is from-to "
        "(e.g. 3-4)."
    ),
    "rule.Input.unreadable_move": (
        "I cannot read “{token}”: a placement is a size letter S, M or L and a tile 1-9 (e.g. L5); a move is "
        "from-to (e.g. 3-4)."
    ),
    "rule.Input.round_over": "The round is over: there is no action to value.",
    "rule.Input.bad_count": "The count must be at least 1, not {count}.",
    "rule.Input.bad_record": "A round record looks like 'rombo: L5 M4 4-5' (layout, colon, actions).",
    "rule.C1.bad_first": "the first player must be player 0 or 1, not {first}.",
    "rule.C4.cell_order": "layout cells must be given in tile order (sorted by r, then q).",
    "rule.T5.no_pass": "passing is not allowed; every turn takes exactly one action.",
    "rule.takeback": (
        "There is no move to take back: only the last move on the board can be, and only its own player's."
    ),
}
