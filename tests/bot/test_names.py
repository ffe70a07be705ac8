"""``bot/core/names.py``: a display name written as Discord markup stays text (seats made and seats read back)."""

from __future__ import annotations

from bot.core.envelope import Envelope, Seat
from bot.core.names import plain


def test_markup_openers_become_a_lookalike_and_the_rest_stays() -> None:
    assert plain("<@123>") == "\u2039@123>"
    assert plain("<@!123> <@&4> <#5> </play join:6>") == "\u2039@!123> \u2039@&4> \u2039#5> \u2039/play join:6>"
    for name in ("Alice", "a<b", "<3", "@everyone", "x > y", ""):
        assert plain(name) == name
    assert plain(plain("<@1>")) == plain("<@1>"), "idempotent"


def test_a_seat_made_or_read_back_holds_no_markup() -> None:
    assert Seat.of("<@123>").name == "\u2039@123>"
    env = Envelope.new(options={}, seats=[Seat.of("Bob")], host=1)
    stored = env.to_dict()
    stored["seats"] = [{"name": "<@&42> boss", "ai": None}, {"name": "Bob", "ai": None}]  # saved before the fix
    assert Envelope.from_dict(stored).names == ["\u2039@&42> boss", "Bob"]
