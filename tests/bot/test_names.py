"""``bot/core/names.py``: a display name written as Discord markup stays text (seats made and seats read back)."""

from __future__ import annotations

import re
import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core.envelope import Envelope, Seat
from bot.core.names import Name, listed, plain, shown
from bot.i18n import t, versus


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


# Markdown: a name is shown as typed in message text (bot.core.names.shown, applied by bot.i18n.t), drawn as is.

MARKDOWN_NAMES = ["[Nitro](https://evil.example)", "# big", "## h", "- item", "> quote", "1. one", "**b** _i_ ~~s~~"]


def _read(text: str) -> tuple[str, str]:
    """What Discord draws for ``text`` (a backslash before ASCII punctuation is dropped, zero-width spaces unseen)
    and the Markdown characters it would read as markup (unescaped ``*_~`|[]``)."""
    drawn, markup, i = [], [], 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text) and text[i + 1] in string.punctuation:
            drawn.append(text[i + 1])
            i += 2
            continue
        if ch in "*_~`|[]":
            markup.append(ch)
        if ch != "\u200b":
            drawn.append(ch)
        i += 1
    return "".join(drawn), "".join(markup)


def _opens_a_block(text: str) -> bool:
    """A heading, quote or list at the start of ``text``."""
    return bool(re.match(r"\s*(#{1,3} |#|>|[-+*] |\d+[.)])", text))


@pytest.mark.parametrize("name", MARKDOWN_NAMES)
def test_a_markdown_name_reads_as_typed_in_a_message(name: str) -> None:
    said = t("cx.played", "en", name=plain(name), move="**L5**")
    drawn, markup = _read(said.removesuffix(" played **L5**."))
    assert drawn == name and not markup and not _opens_a_block(said), said


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40))
def test_shown_text_draws_the_name_and_no_markup(name: str) -> None:
    out = shown(name)
    drawn, markup = _read(out)
    assert drawn == plain(name) and not markup, out
    assert not _opens_a_block(out) and not re.search("@(everyone|here)", out), out


def test_names_stay_as_typed_in_stored_data_thread_names_and_versus() -> None:
    seat = Seat.of("[Nitro](https://evil.example)")
    assert isinstance(seat.name, Name) and seat.to_dict()["name"] == "[Nitro](https://evil.example)"
    assert (
        t("cx.thread_title", "en", a=plain("# big"), b=seat.name)
        == "Constructo: # big vs [Nitro](https://evil.example)"
    )
    both = versus([plain("a_b"), seat.name], "en")
    assert both == "a_b vs [Nitro](https://evil.example)"  # a select label / thread name: as typed
    assert t("rematch.thread_title", "en", players=both) == "Rematch: a_b vs [Nitro](https://evil.example)"
    msg = t("res.not_rated_unmoved", "en", names=listed([plain("*x*"), plain("y")]))
    assert "\\*x\\*, y" in msg, msg


def test_every_plain_text_template_exists_and_holds_no_markdown() -> None:
    from bot.i18n import MESSAGES, PLAIN_TEXT

    for key in PLAIN_TEXT:
        for lang in ("en", "es"):
            template = MESSAGES[lang].get(key) or MESSAGES["en"][key]
            assert not any(ch in template for ch in "*_`|"), (key, lang, template)
