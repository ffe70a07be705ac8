"""Mensajes en español de las ofertas de tablas y de deshacer jugadas (``bot/services/offers.py``)."""

MESSAGES: dict[str, str] = {
    "offer.ui_dr": "Ofrecer tablas",
    "offer.ui_tb": "Deshacer jugada",
    "offer.ui_accept_draw": "Aceptar tablas",
    "offer.ui_accept_takeback": "Aceptar deshacer",
    "offer.ui_no": "Rechazar",
    "offer.ui_cx": "Retirar oferta",
    "offer.ui_cx_draw": "Retirar oferta",
    "offer.ui_cx_takeback": "Retirar petición",
    "offer.ui_ok": "Aceptar",
    "offer.made_draw": (
        "🤝 {name} ofrece tablas. {opponent}: **Aceptar tablas** o **Rechazar** abajo ({name} puede retirarla). "
        "La próxima jugada retira la oferta."
    ),
    "offer.made_takeback": (
        "↩️ {name} pide deshacer su última jugada. {opponent}: **Aceptar deshacer** o **Rechazar** abajo "
        "({name} puede retirarla). La próxima jugada retira la petición."
    ),
    "offer.made_takeback_reply": (
        "↩️ {name} pide deshacer su última jugada y, con ella, la respuesta de {opponent}. {opponent}: "
        "**Aceptar deshacer** o **Rechazar** abajo ({name} puede retirarla). La próxima jugada retira la petición."
    ),
    "offer.declined_draw": "{name} rechazó la oferta de tablas de {offerer}. Se sigue jugando.",
    "offer.declined_takeback": "{name} rechazó la petición de deshacer de {offerer}. Se sigue jugando.",
    "offer.cancelled_draw": "{name} retiró su oferta de tablas.",
    "offer.cancelled_takeback": "{name} retiró su petición de deshacer.",
    "offer.taken_back": "↩️ Jugada deshecha: la jugada {move} de {name} se retira del tablero.",
    "offer.taken_back_plain": "↩️ Jugada deshecha: la última jugada de {name} se retira del tablero.",
    "offer.draw_agreed": "🤝 Tablas acordadas: la partida termina en empate.",
    "offer.self": "No puedes hacerte una oferta a ti mismo.",
    "offer.pending_draw": "La oferta de tablas de {name} sigue abierta: primero hay que responderla o retirarla.",
    "offer.pending_takeback": (
        "La petición de deshacer de {name} sigue abierta: primero hay que responderla o retirarla."
    ),
    "offer.nothing_to_take_back": "No tienes ninguna jugada en el tablero que deshacer.",
    "offer.nothing_to_take_back_theirs": (
        "Aún no tienes ninguna jugada en el tablero que deshacer: el botón Deshacer jugada está para {name}, cuya "
        "jugada desharía."
    ),
    "offer.gone": "Ya no hay ninguna oferta abierta en esta partida. No se cambió nada.",
    "offer.stale": (
        "Esta oferta ya no está abierta: la partida siguió (una jugada retira la oferta). No se cambió nada."
    ),
    "offer.not_yours": "Solo el rival de {name} puede responder esta oferta, y solo {name} puede retirarla.",
    "offer.cancel_answer_instead": "Solo {name} puede retirar esta oferta; tú puedes **Aceptarla** o **Rechazarla**.",
    "offer.own": "Esta oferta es tuya: la responde tu rival (puedes retirarla).",
    "offer.unsupported": "Este juego no tiene ofertas de tablas ni deshacer jugadas.",
    "cx.end_agreed": "por acuerdo",
}
