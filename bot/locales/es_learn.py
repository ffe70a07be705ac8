"""Spanish messages of the tutorials (``/learn <game>``, ``bot/services/tutorial.py``); ``COMMANDS`` translates
the command's descriptions."""

MESSAGES: dict[str, str] = {
    "learn.help": "**¿Eres nuevo?** {commands}: una primera partida guiada contra una IA amable, regla a regla.",
    "learn.step": "**Tutorial, paso {n} de {of}:** {text}",
    "learn.none": "{game} todavía no tiene tutorial: `/help` explica sus reglas.",
    "learn.no_channel": "No puedo abrir un tutorial en este tipo de canal: prueba en un canal de texto del servidor.",
    "learn.started": (
        "Tu tutorial de {game} empieza en {where}: una primera partida de verdad contra una IA amable, con "
        "una regla explicada cada vez bajo el tablero. Allí solo queda el tablero del momento; tómate tu "
        "tiempo (24 horas por jugada)."
    ),
    "learn.running": "Tu tutorial de {game} sigue en {where}: continúa allí (`/abandon` lo termina).",
    "learn.thread_title": "Tutorial de {game}: {name}",
    "learn.thread_vs": "{game}: {a} contra {b}",
    "learn.thread_open": "{game}: {name} contra cualquiera",
    "learn.done": "**¡Fin del tutorial!** Por el camino has visto {met} de las {total} reglas de {game}.",
    "learn.recap": "Reglas que esta partida no llegó a mostrar:",
    "learn.offer": (
        "¿Listo para una partida de verdad? Juega contra la IA al nivel que elijas, abre un desafío que cualquiera "
        "de aquí puede aceptar o entra en la partida rápida para jugar con otras personas."
    ),
    "learn.btn_ai": "Jugar contra la IA ({level})",
    "learn.btn_challenge": "Abrir un desafío",
    "learn.btn_queue": "Partida rápida",
    # -- el juego de fichas y torres (prefijo cx) ---------------------------------------------------------------
    "cx.learn.layout": (
        "El tablero es una disposición de 9 casillas hexagonales numeradas del 1 al 9 en orden de lectura; tú y la "
        "IA tenéis 3 fichas grandes, 3 medianas y 3 pequeñas cada uno."
    ),
    "cx.learn.place": (
        "En tu turno, pon una ficha de tu reserva en cualquier casilla vacía: elígela en los menús bajo el tablero."
    ),
    "cx.learn.stack": (
        "En lugar de colocar, puedes mover una ficha tuya que esté sola a una casilla vecina cuya ficha de arriba "
        "sea de la IA y un tamaño mayor: una mediana sobre una grande, una pequeña sobre una mediana (nunca una "
        "pequeña sobre una grande)."
    ),
    "cx.learn.swallow": (
        "Una ficha grande tuya que esté sola puede tragarse una ficha pequeña sola de la IA en una casilla vecina "
        "subiéndose encima: esa casilla no es torre y no puntúa, pero más tarde una mediana puede subirse a ella."
    ),
    "cx.learn.tower": (
        "Una casilla con dos o más fichas queda bloqueada (ninguna de sus fichas vuelve a moverse) y, salvo que sea "
        "solo una grande sobre una pequeña tragada, es una torre: al acabar la ronda da 1 punto a quien tenga la ficha "
        "de arriba, sea cual sea su altura."
    ),
    "cx.learn.round_end": (
        "Una ronda acaba en cuanto el jugador al que le toca no puede hacer nada (ni casilla vacía ni ficha que "
        "colocar, ni movimiento), aunque el otro todavía pudiera; entonces se cuentan las torres."
    ),
    "cx.learn.match": (
        "Una partida son dos rondas: el otro jugador empieza la ronda 2 y elige su disposición, y gana el mayor "
        "total de torres de las dos rondas (con el mismo total, empate)."
    ),
    # -- el juego de cartas (prefijo cn) ------------------------------------------------------------------------
    "cn.learn.hand": (
        "Tienes 5 cartas que solo tú ves: pulsa **Mi mano** bajo el tablero para mirarlas (y **Pistas** para ver "
        "colocaciones que encajan)."
    ),
    "cn.learn.corners": (
        "Para colocar una carta, elige una de sus esquinas de color: esa esquina debe quedar sobre una zona del "
        "mismo color, en el primer turno el cuadrado de ese color en una esquina del tablero de puntuación, después "
        "el fondo de una carta."
    ),
    "cn.learn.no_touch": (
        "La carta nueva no puede tocar nada más que aquello sobre lo que está su esquina: ninguna otra carta, nada "
        "del tablero de puntuación si está sobre una carta, ninguna esquina de color (ni siquiera las de su "
        "destino), y debe quedar entera dentro de la mesa."
    ),
    "cn.learn.score": (
        "Una colocación da los puntos de la esquina que usaste, 2 más si esa esquina está sobre una carta +2; los "
        "puntos se suman turno a turno."
    ),
    "cn.learn.die": (
        "Después de colocar una carta de dado se tira el dado: te da una o dos cartas del mazo, o una de las dos "
        "estrellas."
    ),
    "cn.learn.stars": (
        "Una estrella que sacas con el dado puedes usarla desde tu siguiente turno hasta que la uses o "
        "alguien más la saque: la estrella 2x duplica los puntos de una colocación, la estrella rayo quita de"
        " la mesa una carta libre (al empezar o al acabar tu turno) y obliga a los demás a poner una carta de"
        " su mano bajo el mazo."
    ),
    "cn.learn.draw": (
        "En lugar de colocar siempre puedes robar dos cartas del mazo; solo cuando el mazo está vacío puedes pasar."
    ),
    "cn.learn.goal": (
        "Cuando alguien llega a la meta (aquí {goal} puntos), se termina la vuelta y acaba la partida (también "
        "acaba si todos pasan seguidos o se agotan las cartas); gana la puntuación más alta."
    ),
}

COMMANDS: dict[str, str] = {
    "Learn a game: a guided first game against a gentle AI, one rule at a time": (
        "Aprende un juego: una primera partida guiada contra una IA amable, regla a regla"
    ),
    "A guided first game of this game against a gentle AI, one rule at a time": (
        "Una primera partida guiada de este juego contra una IA amable, regla a regla"
    ),
}
