"""English messages of fair play (issue 22): players who leave (rule L1), consent to abort, signed records."""

MESSAGES: dict[str, str] = {
    # rule L1: a player who left
    "leave.left": "{name} left this server, so their seat is forfeited (as a resignation; rated as a forfeit).",
    "leave.hidden": (
        "{name} can no longer see this channel, so their seat is forfeited (as a resignation; rated as a forfeit)."
    ),
    # a seated admin's /abort needs the others' consent
    "abort.seated_admin": (
        "You play in this game, so as an admin too you need the other players' consent to abort it: "
        "your offer to abort is posted below (`/abandon`)."
    ),
    "abort.seated_admin_games": (
        "You play in this game, so as an admin too you need the other players' consent to abort it: propose it "
        "with `/abandon` in the game's channel."
    ),
    "abort.reveal": "The aborted deal is revealed so anyone can check it was fair. {reveal}",
    # signed records
    "rec.signed_by": "Signed with the key `{key}` (check: `{command}`).",
}
