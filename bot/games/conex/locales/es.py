"""Spanish catalogue of CONEX (complete, checked by ``tests/bot/test_spanish.py``; merged into ``es``).
Terms of the Spanish rulebook: carta, esquina CONEX, mazo de robo, tablero (the scoring board), mesa (the table),
estrella 2x, rayo (lightning), dado."""

MESSAGES: dict[str, str] = {
    "ui.cn_hand": "Mi mano",
    "ui.cn_hints": "Pistas",
    "ui.cn_draw": "Robar 2",
    "ui.cn_pass": "Pasar",
    "ui.cn_discard": "Descartar",
    "ui.cn_forfeit": "Sí, me rindo",
    "ui.cn_fair": "¿Cómo sé que el reparto fue limpio?",
    "cn.no_game_here": "No hay ninguna partida de CONEX en este canal: abre una sala con `/conex new`.",
    "cn.already_in": "Ya tienes un asiento en esta partida: espera a que el anfitrión la empiece.",
    "cn.full": "La mesa está completa (como mucho {max} jugadores): abre tu propia sala con `/conex new`.",
    "cn.host_only": "Solo el anfitrión (<@{host}>) puede hacer esto.",
    "cn.too_few": "CONEX necesita de 2 a 4 jugadores: espera a que alguien se una o añade un bot.",
    "cn.forfeited": "Dejaste esta partida; tu asiento ya no juega.",
    "cn.reason_E1": "se alcanzó la meta y la ronda está completa",
    "cn.reason_E2-pass": "todos los jugadores pasaron en una vuelta",
    "cn.reason_E2-empty": "todas las manos y el mazo de robo están vacíos",
    "cn.reason_forfeit": "quedan demasiado pocos jugadores en la partida",
    "cn.ev_turn_timeout": (
        "Se acabó el tiempo de {name}: se salta su turno ({count} de {limit} seguidos; con {limit} deja la partida)."
    ),
    "cn.no_discard": "No tienes ningún descarte pendiente.",
    "cn.must_discard": "Se usó un rayo: elige una carta de tu mano para ponerla debajo del mazo.",
    "ui.cn_discard_placeholder": "Carta que va debajo del mazo de robo…",
    "ui.cn_discard_placeholder_page": "Cartas {span}: una para poner debajo del mazo de robo…",
    "ui.cn_hint": "{n} · +{points}",
    "ui.cn_hint_2x": "{n} · 2x +{points}",
    "cn.lobby": (
        "**Sala de CONEX** abierta por {host} — mesa {table}, meta {goal} puntos. Asientos ({n}/4):\n{seats}\n"
        "Únete, sal o añade un bot abajo; el anfitrión empieza con 2–4 jugadores."
    ),
    "cn.lobby_seat": "{n}. {who}",
    "cn.lobby_closed": "{name} cerró la sala de CONEX.",
    "cn.joined": "{name} ocupa el asiento {n}.",
    "cn.left": "{name} salió de la sala.",
    "cn.started": "Empieza CONEX: {n} jugadores, mesa {table}, meta {goal} puntos.",
    "cn.confirm_forfeit": (
        "¿Rendirte en esta partida en curso? Tu mano va debajo del mazo, tu puntuación pasa a 0, se saltan tus "
        "turnos y quedas último. Pulsa para confirmar o ignora este mensaje."
    ),
    "cn.not_your_turn": "No es tu turno: le toca a {who}.",
    "cn.not_your_turn_timed_out": (
        "No es tu turno: se te acabó el tiempo y se saltó tu turno, así que ahora le toca a {who}."
    ),
    "cn.not_in_hand": "La carta #{card} no está en tu mano: elige una de `/conex hand` (letra o número).",
    "cn.thread_title": "Sala de CONEX de {host}",
    "cn.own_thread": "La sala de CONEX tiene su propio hilo: {thread} (únete allí).",
    "cn.opened_in_thread": "Este canal está ocupado, así que la sala de CONEX está en {thread}.",
    "cn.not_on_table": "La carta #{card} no está en la mesa: elige un número de los que se ven en la mesa.",
    "cn.the_board": "el tablero",
    "cn.ev_placed": "{name} colocó la carta #{card} (esquina {corner}) sobre {target}: **+{points}**.",
    "cn.ev_placed_double": (
        "{name} colocó la carta #{card} (esquina {corner}) sobre {target} con la estrella 2x: **+{points}**."
    ),
    "cn.ev_die": "Dado: **{face}**.",
    "cn.ev_drew.one": "{name} robó {n} carta.",
    "cn.ev_drew.other": "{name} robó {n} cartas.",
    "cn.ev_drew.many": "{name} robó {n} de cartas.",
    "cn.ev_star": "{name} se lleva la estrella **{star}** (la puede usar desde su próximo turno).",
    "cn.ev_star_from": ("{name} le quita la estrella **{star}** a {prev} (la puede usar desde su próximo turno)."),
    "cn.ev_star_kept": "{name} sacó la estrella **{star}** que ya tenía: se la queda.",
    "cn.score_item": "{name}: {score}",
    "cn.ev_passed": "{name} pasó.",
    "cn.ev_lightning": "{name} usó la estrella rayo: la carta #{card} va debajo del mazo de robo.",
    "cn.ev_discarded": "{name} descartó una carta.",
    "cn.ev_discard_timeout": (
        "El descarte de {name} se pasó de tiempo: una carta al azar de su mano fue debajo del mazo."
    ),
    "cn.ev_goal": "{name} alcanzó la meta con {score} puntos: la ronda se juega hasta el final.",
    "cn.ev_forfeit": "{name} dejó la partida: su mano va debajo del mazo y se salta su asiento.",
    "cn.forfeited_mark": "(se fue)",
    "cn.to_play": "Le toca a {who}. Puntos: {scores}. Mazo de robo: {pile}. Meta: {goal}.",
    "cn.pending": "Esperando descartes de: {who} — una carta cada uno (botón Descartar o `/conex discard`).",
    "cn.over_why.one": "**Fin de CONEX** ({why}) — gana: **{winners}**. Puntos: {scores}.",
    "cn.over_why.other": "**Fin de CONEX** ({why}) — ganan: **{winners}**. Puntos: {scores}.",
    "cn.rating_changes": "Cambios de puntuación: {changes}.",
    "cn.not_rated": "Sin puntuar (una partida con asientos de IA).",
    "cn.aborted": "Esta partida se anuló.",
    "cn.hints": "Buenas colocaciones legales, una vista pequeña por pista; pulsa un número para jugarla:",
    "cn.hints_off_turn": (
        "Aún no es tu turno: estas son las colocaciones que tiene tu mano ahora, para planear (solo lectura; la "
        "mesa puede cambiar antes de tu turno)."
    ),
    "cn.hint_line": (
        "{n}. carta **{letter}** (#{card}), esquina {corner} sobre {target} en ({x}, {y}) cm, giro {rot}° — "
        "**+{points}**"
    ),
    "cn.hint_label": "+{points}: {letter} #{card} → {target}",
    "cn.hint_with_2x": " (con tu estrella 2x: **+{points}**, botón {n} · 2x)",
    "cn.no_hints": "Ninguna carta de tu mano tiene ahora una colocación legal: roba (o pasa si el mazo está vacío).",
    "cn.board": "La mesa actual:",
    "cn.last_action": "Última acción — {name}: `{action}`.",
    "cn.zoom": "Zoom en {zoom}:",
    "cn.color_Y": "amarillo",
    "cn.color_R": "rojo",
    "cn.color_T": "turquesa",
    "cn.color_P": "morado",
    "cn.zoom_last": "la última carta colocada",
    "cn.zoom_table": "toda la mesa",
    "cn.help": (
        "**CONEX** (2–4 jugadores): `/conex new` abre una sala (los demás usan `/conex join` o el botón Unirse; el "
        "anfitrión puede usar `/conex addbot` y `/conex start`). En tu turno: `/conex place` (letra o número de "
        "la carta + esquina; da un `target` para el ajuste automático, o `x`/`y` exactos en cm; añade "
        "`double:true` para usar tu estrella 2x), o los botones bajo la mesa: **Mi mano** (privado, con los "
        "sitios legales), **Pistas** (privado, también fuera de turno para planear; pulsa un número para "
        "jugarla), **Robar 2** / **Pasar**. También `/conex lightning`, `/conex discard`, `/conex board` "
        "(`zoom`: un número de carta, `last` o `table`; `text`), `/conex leave`, `/conex rules`.\n"
    ),
    "cn.rules": (
        "**CONEX en breve**\n"
        "• 2–4 jugadores, 5 cartas cada uno. Las cartas tienen un color de fondo y 2–3 *esquinas CONEX* de "
        "colores que valen 1–5.\n"
        "• En tu turno haces una cosa: **colocar** una carta (`/conex place` o una pista), **robar** 2 cartas, o "
        "**pasar** (solo con el mazo de robo vacío).\n"
        "• Al colocar: la esquina elegida debe caer sobre una carta visible de su mismo color, o sobre la "
        "casilla del tablero de ese color; la carta nueva solo puede tocar ese objetivo, ninguna "
        "esquina visible, y debe quedar sobre la mesa.\n"
        "• Sumas el valor de la esquina; +2 más sobre una carta +2. Una carta de dado te hace tirar: 1 o 2 "
        "cartas, o una estrella. La estrella 2x dobla una colocación posterior; la estrella rayo retira una "
        "carta libre al principio o al final de tu turno, y cada otro jugador descarta entonces una carta.\n"
        "• Cuando alguien alcanza la meta, se termina la ronda y gana la puntuación más alta (los empates "
        "comparten).\n"
        "• Las coordenadas van en cm desde el centro del tablero, x a la derecha, y hacia abajo, giro en el "
        "sentido de las agujas del reloj. Quien se rinde en una partida en curso queda último."
    ),
    # rule statements of rules/conex.md (P1 by the engine's reason; the engine's English details are not shown)
    "rule.A2": "el mazo de robo está vacío: coloca una carta o pasa.",
    "rule.A3": "solo se puede pasar cuando el mazo de robo está vacío.",
    "rule.P1": (
        "la esquina elegida debe caer entera sobre la parte visible de una sola carta de su mismo color, o sobre "
        "la casilla del tablero de ese color."
    ),
    "rule.P1.color": (
        "la esquina {corner} de la carta #{card} no es del color de lo que hay debajo: debe caer sobre una carta "
        "o una casilla del tablero de su mismo color."
    ),
    "rule.P1.covered": "el objetivo está tapado por otras cartas: no queda parte visible para la esquina {corner}.",
    "rule.P1.too_small": "la esquina {corner} de la carta #{card} no cabe en la parte visible del objetivo.",
    "rule.P2": (
        "la carta nueva solo puede tocar su objetivo: ninguna otra carta (ni el tablero si el objetivo es una carta)."
    ),
    "rule.P2.blocked": (
        "todas las poses de la esquina {corner} de la carta #{card} ahí tocan otra carta además del objetivo."
    ),
    "rule.P3": "la carta nueva no puede tocar ninguna esquina CONEX visible, tampoco las del objetivo.",
    "rule.P3.blocked": "todas las poses de la esquina {corner} de la carta #{card} ahí tocan una esquina CONEX.",
    "rule.P4": "la carta debe quedar entera sobre la mesa.",
    "rule.P4.off_table": "la carta #{card} se saldría {over_cm} cm de la mesa: debe quedar entera sobre ella.",
    "rule.P4.blocked": "todas las poses de la esquina {corner} de la carta #{card} ahí se salen de la mesa.",
    "rule.P5": "la carta debe estar en tu mano y tiene que ser tu turno.",
    "rule.V3": "la estrella 2x solo se usa si la tenías desde antes de empezar este turno.",
    "rule.X2": "una estrella solo se puede usar a partir del siguiente turno de quien la tiene.",
    "rule.X3": (
        "rayo: al principio o al final de tu turno, quien tiene la estrella rayo puede retirar una carta libre de "
        "la mesa; después cada otro jugador descarta una carta, antes de su siguiente acción."
    ),
}

COMMANDS: dict[str, str] = {
    "Play CONEX: place cards so their corners match colours, score points": (
        "Juega a CONEX: coloca cartas con esquinas del mismo color y suma puntos"
    ),
    "Open a CONEX lobby in this channel (2-4 players)": "Abre una sala de CONEX en este canal (2-4 jugadores)",
    "See your CONEX hand (only you see it)": "Mira tu mano de CONEX (solo la ves tú)",
    "Place a card from your hand (exact pose or auto-fit)": (
        "Coloca una carta de tu mano (pose exacta o ajuste automático)"
    ),
    "Draw two cards from the draw pile (ends your turn)": "Roba dos cartas del mazo (termina tu turno)",
    "The rules of CONEX in short": "Las reglas de CONEX en breve",
    "Join this channel's CONEX lobby": "Únete a la sala de CONEX de este canal",
    "Host: add an AI player to the CONEX lobby": "Anfitrión: añade un jugador IA a la sala de CONEX",
    "Host: start this channel's CONEX game": "Anfitrión: empieza la partida de CONEX de este canal",
    "Leave the lobby, or forfeit the running CONEX game": "Sal de la sala o ríndete en la partida de CONEX en curso",
    "Private preview of good legal placements for your hand": "Vista privada de buenas colocaciones para tu mano",
    "Pass your turn (only when the draw pile is empty)": "Pasa el turno (solo con el mazo de robo vacío)",
    "Use your lightning star: remove a free table card": "Usa tu estrella rayo: retira una carta libre de la mesa",
    "Discard a card after a lightning (to the bottom of the pile)": "Descarta una carta tras un rayo (debajo del mazo)",
    "Show this channel's CONEX table again": "Muestra de nuevo la mesa de CONEX del canal",
    "Table size (small 70x50, medium 100x70, large 140x90 cm)": (
        "Tamaño de la mesa (small 70x50, medium 100x70, large 140x90 cm)"
    ),
    "Points to reach (20-100, default 40)": "Puntos que alcanzar (20-100, 40 por defecto)",
    "Your card: hand letter (A, B...) or card number": "Tu carta: letra de la mano (A, B...) o número de carta",
    "Which CONEX corner of the card (1-3, as printed)": "Qué esquina CONEX de la carta (1-3, como está impresa)",
    "Where the corner lands: x in cm from the board centre (right is +)": (
        "Dónde cae la esquina: x en cm desde el centro del tablero (derecha +)"
    ),
    "Where the corner lands: y in cm from the board centre (down is +)": (
        "Dónde cae la esquina: y en cm desde el centro del tablero (abajo +)"
    ),
    "Card rotation in degrees clockwise (default: the best legal one)": (
        "Giro de la carta en grados, sentido horario (por defecto: el mejor legal)"
    ),
    "Table card number the corner goes on, or 'board' (auto-fit when x/y are omitted)": (
        "Carta de la mesa donde cae la esquina, o 'board' (ajuste automático sin x/y)"
    ),
    "Use your 2x star on this placement": "Usa tu estrella 2x en esta colocación",
    "Number of a free card on the table": "Número de una carta libre de la mesa",
    "Show the table as text (only you will see it)": "Mesa en texto (solo la verás tú)",
    "Zoom on a table card number, 'last' or 'table' (only you will see it)": (
        "Zoom en un número de carta, 'last' o 'table' (solo lo verás tú)"
    ),
}

# Repartos verificables (``bot/games/conex/fairness.py``, issue 16).
MESSAGES.update(
    {
        "cn.commitment": (
            "🔒 El reparto queda sellado antes de que nadie vea una carta (huella `{hash}`): "
            "**¿Cómo sé que el reparto fue limpio?** lo explica."
        ),
        "cn.reveal": "🔓 Ya se puede comprobar el reparto: **¿Cómo sé que el reparto fue limpio?**",
        "cn.reveal_seed": (
            "Semilla del reparto: `{seed}` (huella `{hash}`). Compruébalo con el código de este bot: `{command}`"
        ),
        "cn.fair_explain": (
            "Antes de que nadie viera una carta publiqué una huella de la semilla secreta del barajado: "
            "esa semilla decide el reparto, cada tirada del dado y cada descarte al azar, y ninguna otra "
            "semilla da la misma huella. Al terminar la partida revelo la semilla, así cualquiera puede recalcular "
            "la huella y todo el reparto y ver que no se cambió nada."
        ),
        "cn.fair_hash": "Huella publicada al empezar: `{hash}`",
        "cn.fair_pending": "La semilla se revela cuando termine la partida.",
    }
)

# How a game ended (``/history``): ``cn.end_<outcome reason>``.
MESSAGES.update(
    {
        "cn.end_E1": "meta alcanzada",
        "cn.end_E2-pass": "todos pasaron",
        "cn.end_E2-empty": "sin cartas",
        "cn.end_forfeit": "quedaban muy pocos jugadores",
    }
)

# Words drawn in the CONEX images and written in their text twins (``render/conex_words.py`` holds the English;
# ``bot.i18n.image_words`` hands these to the renderers). Colour letters (Y R T P) stay as symbols.
MESSAGES.update(
    {
        "img.cn.title": "CONEX · meta {goal} · mazo {pile}",
        "img.cn.zoom": "ampliación: {zoom}",
        "img.cn.to_play": "▶ juega {name}",
        "img.cn.game_over": "Fin de la partida",
        "img.cn.game_over_wins.one": "Fin de la partida — gana {names}",
        "img.cn.game_over_wins.other": "Fin de la partida — ganan {names}",
        "img.cn.points.one": "{n} pto",
        "img.cn.points.other": "{n} ptos",
        "img.cn.star_2x": "estrella 2x",
        "img.cn.star_lightning": "estrella rayo",
        "img.cn.seat_left": "se fue",
        "img.cn.seat_must_discard": "debe descartar",
        "img.cn.in_supply": "En la reserva: {stars}",
        "img.cn.lightning_removed": "⚡ El rayo quitó la #{card} (guiones rojos)",
        "img.cn.last": (
            "Última: #{card} de {name} · esquina {corner} en ({x}, {y}) cm r{rot} sobre {target} · +{points}"
        ),
        "img.cn.the_board": "el tablero",
        "img.cn.no_card_placed": "No se colocó ninguna carta.",
        "img.cn.no_cards_yet": "Aún no hay cartas: empieza en la casilla del tablero del color de tu esquina.",
        "img.cn.corner_note": "Algunos valores de esquina: amplía (/conex board zoom:<carta>)",
        "img.cn.corner_note_text": "Algunos valores de esquina: /conex board text:true los lista",
        "img.cn.board_word": "tablero",
        "img.cn.die": "dado",
        "img.cn.cm": "cm",
        "img.cn.t_head": "CONEX · meta {goal} · mazo {pile} · {turn}",
        "img.cn.t_to_play": "juega {name}",
        "img.cn.t_game_over": "fin de la partida",
        "img.cn.t_game_over_wins.one": "fin de la partida — gana {names}",
        "img.cn.t_game_over_wins.other": "fin de la partida — ganan {names}",
        "img.cn.t_scores": "Puntos: {scores}",
        "img.cn.t_supply": "en la reserva: {stars}",
        "img.cn.t_must_discard": "deben descartar: {names}",
        "img.cn.t_removed": "Rayo: la #{card} salió de la mesa.",
        "img.cn.t_no_cards": "Aún no hay cartas en la mesa: empieza en la casilla del tablero del color de tu esquina.",
        "img.cn.t_ghost": "Fantasma {n}: {place}",
        "img.cn.t_legend": (
            "Colores: Y amarillo, R rojo, T turquesa, P morado. Casillas del tablero: Y arriba a la izquierda, "
            "R arriba a la derecha, T abajo a la derecha, P abajo a la izquierda; coordenadas en cm, origen = centro "
            "del tablero, y hacia abajo; cada carta se da por la esquina con que se colocó (c2 en x,y = su esquina 2 "
            "allí, como lo pide /conex place)."
        ),
        "img.cn.t_table": "Mesa ({n} cartas, de abajo arriba):",
        "img.cn.t_table_medium": (
            "Mesa ({n} cartas, de abajo arriba; esquina colocada en x,y cm, rotación, esquinas visibles):"
        ),
        "img.cn.t_table_compact": "Mesa ({n} cartas, de abajo arriba, esquina colocada en x,y cm):",
        "img.cn.t_card": "#{card}{colour}{action} c{corner} en ({x},{y}) r{rot} esquinas {corners}",
        "img.cn.t_none_visible": "ninguna visible",
        "img.cn.t_free": "libre",
        "img.cn.t_more": "… (+{n} más)",
        "img.cn.hand_title.one": "Tu mano · {n} carta",
        "img.cn.hand_title.other": "Tu mano · {n} cartas",
        "img.cn.hand_title.many": "Tu mano · {n} de cartas",
        "img.cn.hand_stars": "Estrellas: {stars} · puntos {score}",
        "img.cn.none": "ninguna",
        "img.cn.you_must_discard": "debes descartar una carta",
        "img.cn.hand_empty": "No tienes cartas en la mano.",
        "img.cn.legal_none": "ningún sitio legal",
        "img.cn.legal_capped": "{n}+ legales",
        "img.cn.legal.one": "{n} legal",
        "img.cn.legal.other": "{n} legales",
        "img.cn.hand_text_head.one": "Tu mano ({n} carta); estrellas: {stars}",
        "img.cn.hand_text_head.other": "Tu mano ({n} cartas); estrellas: {stars}",
        "img.cn.hand_text_card": "{letter}: #{card} {colour}{action} — esquinas {corners}",
        "img.cn.colour_Y": "amarilla",
        "img.cn.colour_R": "roja",
        "img.cn.colour_T": "turquesa",
        "img.cn.colour_P": "morada",
        "img.cn.r_title": "CONEX — resultado de la partida (meta {goal})",
        "img.cn.r_over": "Fin de la partida",
        "img.cn.r_in_progress": "Partida en curso",
        "img.cn.r_wins": "¡Gana {name}!",
        "img.cn.r_shared": "Victoria compartida: {names}",
        "img.cn.r_place": "puesto",
        "img.cn.r_player": "jugador",
        "img.cn.r_points": "puntos",
        "img.cn.no_hints": "No hay ninguna colocación legal que sugerir.",
        "img.cn.hint_label": "#{card} esquina {corner} → {target}",
        "img.cn.hint_points": "+{points}: {label}",
        "img.cn.hint_text": "{n}. {label} — esquina en ({x}, {y}) cm{rot}",
    }
)

# Words of the result card's text twin and of the replay (frames, captions, move list): ``render/conex_words.py``
# holds the English. Card numbers and the compact move tokens' symbols stay as they are.
MESSAGES.update(
    {
        "img.rs.cn_t_head": "CONEX — resultado de la partida: {headline}",
        "img.rs.cn_t_row.one": "{place}. {name} — {n} punto",
        "img.rs.cn_t_row.other": "{place}. {name} — {n} puntos",
        "img.rs.cn_t_winner": "gana",
        "img.rp.cn_head": "meta {goal} · mazo {pile}",
        "img.rp.cn_start": "inicio · {n} jugadores · empieza {name}",
        "img.rp.cn_place": "pone #{card} en {target} · +{points}",
        "img.rp.cn_place_corner": "pone #{card} esquina {corner} en {target} · +{points}",
        "img.rp.cn_uses_2x": "usa la estrella 2x",
        "img.rp.cn_die": "dado: {face}",
        "img.rp.cn_face_card": "una carta",
        "img.rp.cn_face_two": "dos cartas",
        "img.rp.cn_face_lightning": "rayo",
        "img.rp.cn_face_2x": "2x",
        "img.rp.cn_keeps": "sacó la {star} que ya tenía: se la queda",
        "img.rp.cn_takes_supply": "toma la {star} de la reserva",
        "img.rp.cn_takes_from": "toma la {star} de {name}",
        "img.rp.cn_draw": "roba",
        "img.rp.cn_draws": "roba",
        "img.rp.cn_removes": "⚡ el rayo quita #{card}",
        "img.rp.cn_removes_owner": "⚡ el rayo quita #{card} (de {name})",
        "img.rp.cn_discards_owed": "descartes pendientes: {names}",
        "img.rp.cn_discard": "descarta #{card}",
        "img.rp.cn_discard_hidden": "descarta",
        "img.rp.cn_random_discard": "descarte al azar #{card}",
        "img.rp.cn_random_discard_hidden": "descarte al azar",
        "img.rp.cn_pass": "pasa",
        "img.rp.cn_passes": "pasa",
        "img.rp.cn_time_out": "sin tiempo",
        "img.rp.cn_time_out_n": "sin tiempo {count}/{limit}",
        "img.rp.cn_leaves": "deja la partida",
        "img.rp.cn_leaves_n.one": "deja la partida ({n} carta vuelve al mazo)",
        "img.rp.cn_leaves_n.other": "deja la partida ({n} cartas vuelven al mazo)",
        "img.rp.cn_goal": "alcanza la meta con {score}",
        "img.rp.cn_over": "fin de la partida",
        "img.rp.cn_end_E1": "meta alcanzada",
        "img.rp.cn_end_E2-pass": "todos pasaron",
        "img.rp.cn_end_E2-empty": "sin cartas",
        "img.rp.cn_end_forfeit": "quedan muy pocos jugadores",
        "img.rp.cn_place_1": "1.º",
        "img.rp.cn_place_2": "2.º",
        "img.rp.cn_place_3": "3.º",
        "img.rp.cn_place_n": "{n}.º",
        "img.rp.cn_result": "Resultado ({how}): {parts}",
        "img.rp.cn_list_head": "CONEX · {n} jugadores: {names} · meta {goal} · mesa {size}",
        "img.rp.cn_size_small": "pequeña",
        "img.rp.cn_size_medium": "mediana",
        "img.rp.cn_size_large": "grande",
        "img.rp.cn_compact_head": "CONEX · {legend} · meta {goal} · carta>destino+puntos, ⚡ rayo, x descarte",
        "img.rp.cn_tok_time": "tiempo",
        "img.rp.cn_tok_left": "fuera",
        "img.rp.cn_tok_pass": "pasa",
        "img.rp.cn_tok_draw": "roba",
    }
)

# The specific refusals of typed input (``rule.Input.<reason>``, raised by ``placing.py``) and the image words of
# the legibility pass (zoom names, corner positions, the hint caption's board word).
MESSAGES.update(
    {
        "rule.Input.bad_table": "La mesa es una de estas: {sizes}. No se ha cambiado nada.",
        "rule.Input.bad_goal": "La meta es de 20 a 100 puntos, no {goal}. No se ha cambiado nada.",
        "rule.Input.bad_rotation": "La rotación es un número finito de grados entre -360 y 360, no {value}.",
        "rule.Input.no_letter": "Ninguna carta de tu mano tiene la letra {card}: tus cartas son {letters}.",
        "rule.Input.not_card": "«{text}» no es una carta: indica su letra de la mano ({letters}) o su número.",
        "rule.Input.not_target": "«{text}» no es un objetivo: indica el número de una carta de la mesa o el tablero.",
        "rule.Input.not_number": "{what} debe ser un número de cm.",
        "rule.Input.not_finite": "{what} debe ser un número finito de cm.",
        "rule.Input.off_tables": "{what} = {value} cm queda fuera de toda mesa (como mucho {limit} cm del centro).",
        "rule.Input.one_coordinate": (
            "Indica x e y (en cm), o ninguna de las dos para que coloque yo la carta sobre el objetivo."
        ),
        "img.cn.zoom_card": "carta #{card}",
        "img.cn.zoom_last": "la última carta colocada",
        "img.cn.zoom_table": "toda la mesa",
        "img.cn.pos_tl": "arriba a la izquierda",
        "img.cn.pos_tr": "arriba a la derecha",
        "img.cn.pos_br": "abajo a la derecha",
        "img.cn.pos_bl": "abajo a la izquierda",
        "img.cn.hint_board": "tablero",
    }
)

# Una pose que la biblioteca de geometría no pudo juzgar (``Table.check_pose``, regla ``Geometry``).
MESSAGES["rule.Geometry.unchecked"] = (
    "No pude comprobar esta pose de la carta #{card} (esquina {corner}): mi biblioteca de geometría falló con ella, "
    "así que no la coloqué y no cambió nada. Muévela un milímetro o gírala un grado, o deja x e y sin poner para "
    "que la encaje yo."
)
