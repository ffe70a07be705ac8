"""Spanish sentences for the engine's input refusals (see ``en_input.py``). Terms of the rulebooks: ficha, casilla,
tablero (layout), carta, esquina, mesa."""

MESSAGES: dict[str, str] = {
    "rule.Input.internal": "No he podido usar esos datos; no se ha cambiado nada. Inténtalo desde el último tablero.",
    "rule.Input.not_a_number": "{what} debe ser un número.",
    "rule.Input.not_finite_number": "{what} debe ser un número finito.",
    "rule.Input.not_whole": "{what} debe ser un número entero.",
    "rule.Input.seat_range": "No existe el asiento {player}: los asientos van del 0 al 3.",
    "rule.Input.far_off_table": "{field} = {value} cm queda muy lejos de cualquier mesa (como mucho {limit} cm).",
    "rule.Input.double_not_bool": "La opción 2x debe ser verdadero o falso.",
    "rule.Input.unreadable_action": (
        "No entiendo «{text}»: escribe, por ejemplo, 'place 12 c2 at 3.5,-10.0 r90', 'draw', 'pass', "
        "'lightning 7' o 'discard 31'."
    ),
    "rule.Input.unknown_level": "No conozco el nivel de IA «{level}»: usa uno de estos: {levels}.",
    "rule.Input.no_such_corner": "La carta #{card} tiene las esquinas 1-{corners}; no tiene esquina {corner}.",
    "rule.Input.not_on_table": (
        "La carta #{target} no está en la mesa: indica el número de una carta de la mesa o el tablero."
    ),
    "rule.Input.not_a_target": "«{target}» no es un objetivo: indica el número de una carta de la mesa o el tablero.",
    "rule.Input.bad_limit": "El límite debe ser un número entero de al menos 1, no {limit}.",
    "rule.Input.player_count": "Este juego es para 2 a 4 jugadores, no {players}.",
    "rule.Input.bad_seed": "La semilla debe ser un número entero de como mucho {bits} bits.",
    "rule.Input.unknown_table": "El tamaño de la mesa debe ser uno de estos: {sizes}; no «{table}».",
    "rule.Input.goal_range": "La meta debe ser de {low} a {high} puntos, no {goal}.",
    "rule.Input.bad_bots": "Los bots deben ocupar asientos distintos del 0 al {last}, no {bots}.",
    "rule.Input.bad_timeout": (
        "El límite de tiempos agotados debe ser un número entero de al menos 1, no {timeout_forfeit}."
    ),
    "rule.Input.unknown_options": "Opciones de partida desconocidas: {names}.",
    "rule.Input.missing_option": "La configuración de la partida necesita la opción «{option}».",
    "rule.Input.no_seat": "No hay asiento {player} en una partida de {players} jugadores.",
    "rule.Input.no_such_card": "No existe la carta {card}: las cartas van del 1 al 52.",
    "rule.Input.bad_player": "El jugador debe ser 0 o 1, no {player}.",
    "rule.Input.empty_layout": "El tablero está vacío: indica un nombre ({names}) o 9 coordenadas.",
    "rule.Input.unknown_layout": (
        "No conozco el tablero «{token}»: los tableros con nombre son {names}; también puedes dar 9 coordenadas "
        "como (0,0) (1,0) ..."
    ),
    "rule.Input.unreadable_cell": (
        "No entiendo «{token}» en el tablero: las coordenadas se escriben (q,r), por ejemplo (0,0) (1,0)."
    ),
    "rule.Input.no_such_tile": "La casilla {tile} no existe: las casillas van del 1 al 9.",
    "rule.Input.bad_cell": "La celda {cell} del tablero no es un par de números enteros (q, r).",
    "rule.Input.cell_count": "Un tablero necesita exactamente 9 celdas, y has dado {count}.",
    "rule.Input.duplicate_cell": "La celda {where} aparece dos veces: las 9 celdas deben ser distintas.",
    "rule.Input.cell_too_far": "La celda {where} está demasiado lejos: |q| y |r| deben ser como mucho {limit}.",
    "rule.Input.not_connected": (
        "Las celdas no están unidas: a {apart} no se llega desde {start} pasando por lados compartidos."
    ),
    "rule.Input.no_such_size": "El tamaño {token} no existe: usa 1 (pequeña), 2 (mediana) o 3 (grande).",
    "rule.Input.unknown_size": "No conozco el tamaño de ficha «{token}»: usa S, M o L (pequeña, mediana, grande).",
    "rule.Input.token_no_such_tile": "«{token}»: la casilla {tile} no existe; las casillas van del 1 al 9.",
    "rule.Input.same_tile": "Un movimiento necesita dos casillas distintas.",
    "rule.Input.same_tile_token": "«{token}»: un movimiento necesita dos casillas distintas.",
    "rule.Input.tile_not_number": "La casilla {tile} no es un número del 1 al 9.",
    "rule.Input.empty_action": (
        "La acción está vacía: una colocación es una letra de tamaño S, M o L y una casilla del 1 al 9 (por "
        "ejemplo L5); un movimiento es origen-destino (por ejemplo 3-4)."
    ),
    "rule.Input.unreadable_move": (
        "No entiendo «{token}»: una colocación es una letra de tamaño S, M o L y una casilla del 1 al 9 (por "
        "ejemplo L5); un movimiento es origen-destino (por ejemplo 3-4)."
    ),
    "rule.Input.round_over": "La ronda ha terminado: no queda ninguna acción que valorar.",
    "rule.Input.bad_count": "La cantidad debe ser al menos 1, no {count}.",
    "rule.Input.bad_record": "Una ronda se anota así: 'rombo: L5 M4 4-5' (tablero, dos puntos, acciones).",
    "rule.C1.bad_first": "la ronda la empieza el jugador 0 o el 1, no {first}.",
    "rule.C4.cell_order": "las celdas del tablero van en el orden de las casillas (por r y luego por q).",
    "rule.T5.no_pass": "no se puede pasar; cada turno consiste en exactamente una acción.",
    "rule.takeback": (
        "No hay ninguna jugada que deshacer: solo se puede deshacer la última jugada del tablero, y solo la propia."
    ),
}
