"""Spanish catalogue of Constructo (complete, checked by ``tests/bot/test_spanish.py``; merged into ``es``).
Terms of the Spanish rulebook: ficha (chip: grande, mediana, pequeña), casilla (tile), torre, tablero (layout)."""

MESSAGES: dict[str, str] = {
    "ui.resign": "Rendirse",
    "ui.confirm_resign": "Sí, me rindo",
    "ui.tile": "Casilla {tile}",
    "ui.move_option": "Casilla {src} → casilla {dst}",
    "cx.to_move": "Ronda {round}: le toca a {who}.",
    "cx.played": "{name} jugó {move}.",
    "rule.K3": "una ficha pequeña nunca va directamente sobre una grande.",
    "cx.no_such_tile": "La casilla {tile} no existe: las casillas van del 1 al 9.",
    "ui.place_large": "Poner una ficha GRANDE en…",
    "ui.place_medium": "Poner una ficha MEDIANA en…",
    "ui.place_small": "Poner una ficha PEQUEÑA en…",
    "ui.move_placeholder": "Mover una ficha sola sobre…",
    "ui.layout_placeholder": "Elige el tablero de la ronda 2…",
    "ui.keep_layout": "Mantener {layout}",
    "ui.keep": "mantener (el mismo tablero que en la ronda 1)",
    "ui.recommended": "recomendado",
    "ui.experimental": "experimental",
    "ui.size_option": "{size} (quedan {left})",
    "cx.size_small": "pequeña",
    "cx.size_medium": "mediana",
    "cx.size_large": "grande",
    "cx.challenge": (
        "{opponent}, **{challenger}** te desafía a una partida de Constructo en el tablero **{layout}**. "
        "Acepta o rechaza abajo."
    ),
    "cx.challenge_open": (
        "**{challenger}** busca rival para una partida de Constructo en el tablero **{layout}**: cualquiera puede "
        "aceptar abajo (o con `/constructo accept`)."
    ),
    "cx.thread_title_open": "Constructo: {a} contra quien sea",
    "cx.ai_name": "IA ({level})",
    "cx.thread_title": "Constructo: {a} contra {b}",
    "cx.opened_in_thread": "Este canal está ocupado, así que la partida está en {thread}.",
    "cx.accepted": "{opponent} aceptó el desafío de {challenger}.",
    "cx.declined": "{name} rechazó el desafío.",
    "cx.withdrawn": "{name} retiró el desafío.",
    "cx.started": "Empieza la partida de Constructo en el tablero **{layout}**.",
    "cx.started_ai": (
        "Empieza la partida de Constructo contra la IA ({level}) en el tablero **{layout}**. Sin puntuar."
    ),
    "cx.layout_chosen": "{name} eligió el tablero **{layout}** para la ronda 2.",
    "cx.resigned": "{name} se rindió.",
    "cx.confirm_resign": (
        "¿Rendirte en esta partida? La pierdes en el acto, sea cual sea el marcador. Pulsa para confirmar o ignora "
        "este mensaje."
    ),
    "cx.board": "El tablero actual:",
    "cx.score": "{name0} {a} – {b} {name1}",
    "cx.round_end": "La ronda {round} ha terminado: a {name} no le quedaba ninguna colocación ni movimiento legal.",
    "cx.choose_layout": "{why} Marcador: {score}. {who}: elige el tablero de la ronda 2 (la empiezas tú).",
    "cx.over_win": "{why} Fin de la partida: gana **{winner}**, {score}.",
    "cx.over_draw": "{why} Fin de la partida: empate, {score}.",
    "cx.over_resigned": "Fin de la partida: {loser} se rindió, gana **{winner}** ({score} en el tablero).",
    "cx.over_timeout": (
        "Fin de la partida: a {loser} se le acabó el tiempo, gana **{winner}** ({score} en el tablero)."
    ),
    "cx.aborted": "Esta partida se anuló.",
    "cx.rules": (
        "**Constructo en breve**\n"
        "• Dos jugadores, 9 fichas cada uno (3 grandes, 3 medianas, 3 pequeñas), sobre 9 casillas hexagonales "
        "(un *tablero*).\n"
        "• En tu turno haces una cosa: **poner** una ficha de tu reserva en una casilla vacía "
        "(`/constructo place`), o **mover** una ficha tuya que esté sola en su casilla a una casilla vecina cuya "
        "ficha de arriba sea del rival (`/constructo move`).\n"
        "• Solo se apila así: mediana sobre grande, pequeña sobre mediana. Una pequeña nunca va directamente "
        "sobre una grande y nada va sobre una pequeña, salvo que una grande puede *tragarse* una pequeña sola "
        "(esa pareja no es torre).\n"
        "• En cuanto una casilla tiene dos o más fichas, ninguna de sus fichas vuelve a moverse; una ficha sola "
        "aún puede moverse encima según las reglas de arriba (solo se coloca en casillas vacías).\n"
        "• La ronda termina en cuanto el jugador al que le toca no puede jugar. Cada torre (2+ fichas, salvo "
        "una pequeña tragada) vale 1 punto para el dueño de su ficha de arriba.\n"
        "• Dos rondas; el segundo jugador elige el tablero de la ronda 2 y la empieza. Gana el total más alto.\n"
        "Tableros: {layouts}. Mira `/constructo layouts`."
    ),
    "cx.timed_out": "A {name} se le acabó el tiempo: pierde la partida.",
    "cx.help": (
        "**Constructo** (2 jugadores): `/constructo challenge`, luego juega con los botones bajo el tablero o "
        "con `/constructo place` / `/constructo move`; también `board`, `resign`, `choose` (tablero de la "
        "ronda 2), `layouts`, `rules`. Desafíame para jugar contra la IA. `/puzzle play`: una posición con una "
        "sola jugada buena, en privado; `/puzzle streaks`; admins: `/puzzle daily_channel` (un problema al día en "
        "un canal).\n"
    ),
    # rule statements of rules/constructo.md (the engine's English details are not translated; the rule is)
    "rule.T1": (
        "en tu turno haces exactamente una acción: poner una ficha de tu reserva en una casilla vacía, o mover una "
        "ficha tuya que esté sola a una casilla vecina ocupada cuya ficha de arriba sea del rival."
    ),
    "rule.T2": "nunca se pone una ficha de la reserva en una casilla ocupada.",
    "rule.T3": "una ficha nunca se mueve a una casilla vacía.",
    "rule.T4": "una casilla con 2 o más fichas está bloqueada: ninguna de sus fichas vuelve a moverse.",
    "rule.T5": "no se puede pasar mientras haya una acción posible.",
    "rule.K4": "una grande solo puede tragarse una pequeña del rival que esté sola en su casilla.",
    "rule.K5": (
        "solo se apila mediana sobre grande, pequeña sobre mediana y grande sobre una pequeña sola; "
        "nunca sobre una ficha de tu color."
    ),
    "rule.C1": "cada ronda la empieza uno de los dos jugadores.",
    "rule.C2": "no te queda ninguna ficha de ese tamaño (cada jugador tiene 3 grandes, 3 medianas y 3 pequeñas).",
    "rule.C4": "las casillas se numeran del 1 al 9 en orden de lectura.",
    "rule.E1": "la partida (o la ronda) ya ha terminado: nadie puede jugar en ella.",
    "rule.M1": "el tablero de la ronda 2 lo elige, al terminar la ronda 1, el jugador que no empezó la ronda 1.",
    "rule.M3": "la partida ya ha terminado; ya no puedes rendirte.",
}

COMMANDS: dict[str, str] = {
    "Play Constructo: stack chips on 9 hex tiles, build towers": "Juega a Constructo: apila fichas y construye torres",
    "Challenge someone (or me, the AI) to a Constructo match": "Desafía a alguien (o a mí, la IA) a Constructo",
    "Who you play against (pick the bot to play the AI; leave empty: anyone may accept)": (
        "Contra quién juegas (el bot: contra la IA; vacío: cualquiera puede aceptar)"
    ),
    "Round 1 layout: a name (default rombo) or 9 coordinates like (0,0) (1,0) ...": (
        "Tablero de la ronda 1: un nombre (rombo por defecto) o 9 coordenadas (0,0) (1,0) ..."
    ),
    "AI strength when you challenge the bot": "Nivel de la IA si desafías al bot",
    "Place a chip from your reserve on an empty tile": "Pon una ficha de tu reserva en una casilla vacía",
    "Empty tile number (1-9)": "Número de casilla vacía (1-9)",
    "Chip size: small, medium or large": "Tamaño: small, medium o large",
    "Move your lone chip onto an adjacent opponent's stack": "Mueve tu ficha sola sobre una pila vecina del rival",
    "Tile of your lone chip": "Casilla de tu ficha sola",
    "Adjacent tile topped by an opponent's chip": "Casilla vecina con una ficha del rival encima",
    "Show this channel's Constructo board again": "Muestra de nuevo el tablero de Constructo del canal",
    "Show the board as text (only you will see it)": "Tablero en texto (solo lo verás tú)",
    "Resign your Constructo match in this channel (you lose it)": "Ríndete en tu partida de Constructo (la pierdes)",
    "Show every named layout": "Muestra todos los tableros con nombre",
    "Round 2: choose its layout (if you did not start round 1)": (
        "Ronda 2: elige su tablero (si no empezaste la ronda 1)"
    ),
    "A layout name, 'keep', or 9 coordinates like (0,0) (1,0) ...": (
        "Un nombre de tablero, 'keep' o 9 coordenadas como (0,0) (1,0) ..."
    ),
    "The rules of Constructo in short": "Las reglas de Constructo en breve",
    "Accept a Constructo challenge (also when its message is gone)": (
        "Acepta un desafío de Constructo (aunque su mensaje ya no esté)"
    ),
    "Who challenged you (needed only when several challenges wait)": (
        "Quién te desafió (solo si tienes varios desafíos pendientes)"
    ),
    "Decline a Constructo challenge, or withdraw yours": "Rechaza un desafío de Constructo, o retira el tuyo",
    "The other player (needed only when several challenges wait)": (
        "El otro jugador (solo si hay varios desafíos pendientes)"
    ),
}

# Análisis de la partida (``bot/games/constructo/analysis.py``, issue 16).
MESSAGES.update(
    {
        "cx.analysis_button": "Análisis",
        "cx.an_head": "**Análisis de la partida #{game_id}** (solo lo ves tú)",
        "cx.an_nothing": "No se jugó ningún movimiento: no hay nada que analizar.",
        "cx.an_round": "__**Ronda {round}** · {layout}__",
        "cx.an_start": "Al empezar: {verdict} ({certainty}).",
        "cx.an_even": "empate",
        "cx.an_ahead_one": "gana {name} por una torre",
        "cx.an_ahead": "gana {name} por {towers} torres",
        "cx.an_exact": "exacto",
        "cx.an_estimate": "estimación",
        "cx.an_turning": (
            "**Momento decisivo:** jugada {n} de {name}: {move} {what}; lo mejor era {best} ({certainty})."
        ),
        "cx.an_no_turning": "Ninguna jugada perdió una torre.",
        "cx.an_decided": "Decidida tras la jugada {n}: desde ahí el resultado está demostrado.",
        "cx.an_decided_start": "Decidida desde el principio: el resultado está demostrado antes de la primera jugada.",
        "cx.an_best_was": "(mejor: {best})",
        "cx.an_forced": "forzada",
        "cx.an_best": "la mejor",
        "cx.an_good": "buena (−{towers})",
        "cx.an_inaccuracy": "imprecisión (−{towers})",
        "cx.an_lost_tower": "perdió una torre",
        "cx.an_lost_towers": "perdió {towers} torres",
        "cx.an_threw": "({before} → {after})",
        "cx.an_graph": "Ronda {round} · {layout} · valor con juego perfecto (torres)",
        "cx.an_pictures": (
            "Imágenes: el valor tras cada jugada (una marca +n = ese jugador va n torres por delante; continua = "
            "demostrado, discontinua = estimación; un punto = un cambio de resultado; amarillo = el momento "
            "decisivo) y el tablero justo después de cada momento decisivo."
        ),
        "cx.an_win_to_draw": "dejó escapar la victoria (victoria → empate, −{towers})",
        "cx.an_draw_to_loss": "convirtió un empate en derrota (−{towers})",
        "cx.an_win_to_loss": "convirtió una victoria en derrota (−{towers})",
        "cx.an_legend": (
            "Los valores son la diferencia final de torres con juego perfecto: exactos donde el resolvedor lo "
            "demostró; ≈ marca una estimación de la búsqueda difícil (el resto de la ronda era demasiado grande "
            "para resolverlo)."
        ),
    }
)

# Words drawn in the Constructo board image (``render/constructo_words.py`` holds the English). Size letters
# (S M L), tags and move notation stay as symbols.
MESSAGES.update(
    {
        "img.ko.title": "Constructo · ronda {round} de 2 · {layout}",
        "img.ko.title_single": "Constructo · {layout}",
        "img.ko.custom_layout": "tablero propio",
        "img.ko.over_resigned": "Fin de la partida: {loser} se rindió, gana {winner} ({tag})",
        "img.ko.over_draw": "Fin de la partida: empate {a}–{b}",
        "img.ko.over_won": "Fin de la partida: gana {winner} ({tag}) {a}–{b}",
        "img.ko.choosing": "Fin de la ronda 1 · {name} ({tag}) elige el tablero de la ronda 2",
        "img.ko.to_move": "▶ mueve {name} ({tag}, {pattern})",
        "img.ko.pattern_0": "lisas",
        "img.ko.pattern_1": "rayadas",
        "img.ko.last_move": "última jugada: {move} de {tag}",
        "img.ko.match_score": "partida {n}",
        "img.ko.towers": "torres {n}",
        "img.ko.legend": (
            "L{tag} = grande de {tag} · fichas de abajo → arriba · pequeña en un anillo = tragada · "
            "insignia = dueño de la torre"
        ),
        "img.ko.size_1": "pequeña",
        "img.ko.size_2": "mediana",
        "img.ko.size_3": "grande (anillo)",
        "img.ko.round": "ronda {n}: {a} {x}–{y} {b}",
        "img.ko.so_far": "(por ahora)",
        "img.ko.round_unplayed": "ronda {n}: —",
        "img.ko.match": "partida: {a} {x}–{y} {b}",
        "img.ko.t_players": (
            "Jugadores: {ta} = {a}, fichas lisas; {tb} = {b}, fichas rayadas. Fichas de abajo arriba, p. ej. "
            "L{ta} = grande de {ta}."
        ),
        "img.ko.t_tiles": "Casillas: {tiles}",
        "img.ko.t_empty": "vacía",
        "img.ko.t_swallowed": "({chip} tragada)",
        "img.ko.t_tower": "torre {tag}",
        "img.ko.t_reserve": "{name} ({tag}): reserva L{l} M{m} S{s}, torres {towers}",
        "img.ko.t_layout": "Tablero: {layout}",
    }
)

# Words of the result card, the layouts sheet and the replay (captions, move list): ``render/constructo_words.py``
# holds the English. Layout names and move notation stay as symbols.
MESSAGES.update(
    {
        "img.rs.ko_title": "Constructo — resultado de la partida",
        "img.rs.ko_resigned": "{loser} se rindió — gana {winner}",
        "img.rs.ko_timed_out": "A {loser} se le acabó el tiempo — gana {winner}",
        "img.rs.ko_in_progress": "Partida en curso: {a}–{b}",
        "img.rs.ko_draw": "Empate, {a}–{b}",
        "img.rs.ko_agreed": "Tablas acordadas, {a}–{b}",
        "img.rs.ko_won": "Gana {winner} {a}–{b}",
        "img.rs.ko_key": "{name} ({pattern})",
        "img.rs.ko_round": "Ronda {n}",
        "img.rs.ko_custom": "propio",
        "img.rs.ko_total": "En total",
        "img.rs.ko_layout": "tablero",
        "img.rs.ko_t_head": "Constructo — resultado de la partida: {headline}",
        "img.rs.ko_t_round": "Ronda {n} ({layout}): {a} {x} – {y} {b}",
        "img.rs.ko_t_unplayed": "Ronda {n} ({layout}): no se jugó",
        "img.rs.ko_t_total": "En total: {a} {x} – {y} {b}",
        "img.ly.title": "Tableros de Constructo — elige uno por su nombre",
        "img.ly.recommended": "recomendado",
        "img.ly.experimental": "de prueba",
        "img.ly.t_head": (
            "Tableros de Constructo (casilla n = n-ésima celda, coordenadas axiales (q,r), hexágonos en punta):"
        ),
        "img.ly.t_line": "{name} ({group}): {cells}",
        "img.rp.ko_start": "inicio · {layout} · empieza {name}",
        "img.rp.ko_custom": "un tablero propio",
        "img.rp.ko_place": "{chip} · {size} en {tile}",
        "img.rp.ko_size_1": "pequeña",
        "img.rp.ko_size_2": "mediana",
        "img.rp.ko_size_3": "grande",
        "img.rp.ko_swallows": "se traga la pequeña",
        "img.rp.ko_tower": "torre {tag}",
        "img.rp.ko_chooses": "elige {layout} para la ronda {n}",
        "img.rp.ko_round_over": "fin de la ronda {n}: {a} {x}–{y} {b}",
        "img.rp.ko_resigns": "se rinde",
        "img.rp.ko_times_out": "se queda sin tiempo",
        "img.rp.ko_takes_back": "deshace {move} (de acuerdo)",
        "img.rp.ko_draw_agreed": "tablas acordadas",
        "img.rp.ko_agreed_result": "Tablas acordadas con {a}–{b}.",
        "img.rp.ko_takeback_item": "{move} de {name}",
        "img.rp.ko_takebacks": "Jugadas deshechas de acuerdo: {list}.",
        "img.rp.ko_lost_resigned": "{loser} se rindió: gana {winner}.",
        "img.rp.ko_lost_time": "A {loser} se le acabó el tiempo: gana {winner}.",
        "img.rp.ko_draw": "Empate {a}–{b} en las dos rondas.",
        "img.rp.ko_wins": "Gana {winner} {a}–{b} en las dos rondas.",
        "img.rp.ko_list_head": "Constructo · {a} contra {b}",
        "img.rp.ko_round_first": "Ronda {n} · {layout} · empieza {name} · torres {a}–{b}",
        "img.rp.ko_round_chose": "Ronda {n} · {name} eligió {layout} y empieza · torres {a}–{b}",
        "img.rp.ko_so_far": "(por ahora)",
        "img.rp.ko_not_played": "(no se jugó: la partida terminó antes de su primera jugada)",
    }
)

# How a match ended (``/history``): ``cx.end_<outcome reason>``.
MESSAGES.update(
    {
        "cx.end_M2": "tras las dos rondas",
        "cx.end_M3": "por rendición",
        "cx.end_timeout": "por tiempo",
    }
)
