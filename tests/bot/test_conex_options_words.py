"""A CONEX table size or goal no client offers (a forged payload: Discord's client keeps to the choices and the
20-100 range) is refused in words with "nothing was changed", without the rulebook's code in the sentence
(``ConexRules.validate_options``: ``rule.Input.bad_table`` / ``bad_goal``)."""

from __future__ import annotations

import re

import pytest

from bot.errors import describe
from bot.games.conex.kind import KIND
from engine.errors import InvalidInputError

CODE = re.compile(r"\b[A-Z][0-9]{1,2}\b")


@pytest.mark.parametrize(
    ("options", "en", "es"),
    [
        ({"goal": -1}, "The goal is 20 to 100 points, not -1.", "La meta es de 20 a 100 puntos, no -1."),
        ({"goal": 10**9}, "not 1000000000", "no 1000000000"),
        ({"table": "huge"}, "The table is one of small, medium, large.", "La mesa es una de estas: small, medium"),
    ],
)
def test_an_option_out_of_range_is_refused_in_words(options: dict[str, object], en: str, es: str) -> None:
    with pytest.raises(InvalidInputError) as caught:
        KIND.rules.validate_options(options)
    for locale, needle, unchanged in (("en-US", en, "Nothing was changed"), ("es-ES", es, "No se ha cambiado nada")):
        text = describe(caught.value, locale)
        assert needle in text and unchanged in text, text
        assert not CODE.search(text), f"a rule code shown: {text!r}"
