"""English messages of time controls: clocks, reminders, timeouts, set-up expiry and ``/settings``."""

MESSAGES: dict[str, str] = {
    "clk.line": "⏱️ {name}'s clock is running ({preset}): time runs out {when}.",
    "clk.preset_live": "live, 5 minutes per move",
    "clk.preset_daily": "daily, 24 hours per move",
    "clk.preset_none": "no clock",
    "clk.remind": "⏰ {who}, it is your move in {game}: your time runs out {when}.",
    "clk.claimable": (
        "⌛ {name}'s time ran out ({when}). {others}: you may claim the win with the button, or keep waiting: "
        "{name} can still move until someone claims."
    ),
    "clk.claim_closed": "⌛ This claim is closed: the game moved on after the time ran out.",
    "clk.claim_closed_of": "⌛ {name}'s time ran out ({when}), and the game moved on since: this claim is closed.",
    "clk.not_late": "Nobody's time has run out in this game: there is nothing to claim.",
    "clk.moved_in_time": "{name} moved in time, just before your claim: there is nothing to claim.",
    "clk.bad_preset": "Unknown clock “{value}”: use one of {presets}.",
    "settings.bad_expiry": "The expiry must be {min}-{max} minutes, not {value}. Nothing was changed.",
    "clk.own_clock": "It is your own time that ran out: make your move instead.",
    "ui.claim": "Claim the win",
    "lobby.expired_of": (
        "⌛ {players}: this {game} game expired before it started (nobody started it in time); the channel is "
        "free again."
    ),
    "lobby.closed_by": "{name} closed this {game} game before it started ({players}). Nothing was rated.",
    "lobby.gone_expired": "This challenge or lobby expired: nobody started it in time. Open a new one.",
    "lobby.gone": "This challenge or lobby is closed (declined, withdrawn or aborted): open a new one.",
    "lobby.gone_started": "This game has already started: play on its board.",
    "settings.show": (
        "**Game settings of this server**\n"
        "Clock of new games (unless the command chooses one): {clock}.\n"
        "Unanswered challenges and lobbies expire after {minutes} minutes."
    ),
    "settings.saved": "Saved.",
}
