"""English messages of draw offers and takebacks (``bot/services/offers.py``, ``bot/ui/offers.py``)."""

MESSAGES: dict[str, str] = {
    "offer.ui_dr": "Offer draw",
    "offer.ui_tb": "Take back",
    "offer.ui_accept_draw": "Accept draw",
    "offer.ui_accept_takeback": "Accept takeback",
    "offer.ui_no": "Decline",
    "offer.ui_cx": "Cancel offer",
    "offer.ui_cx_draw": "Cancel offer",
    "offer.ui_cx_takeback": "Cancel request",
    "offer.ui_ok": "Accept",
    "offer.made_draw": (
        "🤝 {name} offers a draw. {opponent}: **Accept draw** or **Decline** below ({name} may cancel). "
        "The next move withdraws the offer."
    ),
    "offer.made_takeback": (
        "↩️ {name} asks to take back their last move. {opponent}: **Accept takeback** or **Decline** below "
        "({name} may cancel). The next move withdraws the request."
    ),
    "offer.made_takeback_reply": (
        "↩️ {name} asks to take back their last move, and with it {opponent}'s reply. {opponent}: "
        "**Accept takeback** or **Decline** below ({name} may cancel). The next move withdraws the request."
    ),
    "offer.declined_draw": "{name} declined {offerer}'s draw offer. Play on.",
    "offer.declined_takeback": "{name} declined {offerer}'s takeback request. Play on.",
    "offer.cancelled_draw": "{name} withdrew their draw offer.",
    "offer.cancelled_takeback": "{name} withdrew their takeback request.",
    "offer.taken_back": "↩️ Takeback: {name}'s move {move} is taken back.",
    "offer.taken_back_plain": "↩️ Takeback: {name}'s last move is taken back.",
    "offer.draw_agreed": "🤝 Draw agreed: the match ends drawn.",
    "offer.self": "You cannot make an offer to yourself.",
    "offer.pending_draw": "{name}'s draw offer is still open: it must be answered or cancelled first.",
    "offer.pending_takeback": "{name}'s takeback request is still open: it must be answered or cancelled first.",
    "offer.nothing_to_take_back": "You have no move on the board to take back.",
    "offer.nothing_to_take_back_theirs": (
        "You have no move on the board to take back yet: the Take back button is there for {name}, whose move it "
        "would undo."
    ),
    "offer.gone": "There is no open offer in this game any more. Nothing was changed.",
    "offer.stale": "This offer is no longer open: the game moved on (a move withdraws an offer). Nothing was changed.",
    "offer.not_yours": "Only {name}'s opponent may answer this offer, and only {name} may cancel it.",
    "offer.cancel_answer_instead": "Only {name} can withdraw this offer; you can **Accept** or **Decline** it.",
    "offer.own": "This is your own offer: your opponent answers it (you may cancel it).",
    "offer.unsupported": "This game has no draw offers or takebacks.",
    "cx.end_agreed": "by agreement",
}
