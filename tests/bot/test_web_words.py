"""the live web table shows refusals as plain text (``bot.web.session.words`` removes only ``**``), but
``bot.i18n.t`` now Markdown-escapes every ``Name``: a seat named ``john_doe`` reads ``john\\_doe`` on the page."""

from __future__ import annotations

from bot.core.names import Name
from bot.errors import BotError
from bot.web.session import words


def test_a_refusal_on_the_web_page_names_the_player_as_typed() -> None:
    said = words(BotError("cn.not_your_turn", rule="NotYourTurn", who=Name("john_doe")), "en")
    assert "john_doe" in said, said
