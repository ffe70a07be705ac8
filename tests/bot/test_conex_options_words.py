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


@pytest.mark.parametrize("rotation", [1e308, -361.0, float("nan"), float("inf"), "90"])
def test_a_rotation_out_of_range_is_said_in_degrees(rotation: object) -> None:
    """``/conex place rotation:`` (a forged payload past Discord's ±360 range): degrees, not "cm off every table"."""
    from bot.games.conex.placing import resolve_place
    from engine.conex import Game

    game = Game.new(players=2, seed=5)
    card = game.hands[game.current_player][0]
    with pytest.raises(InvalidInputError) as caught:  # the command's own path, an exact pose with that rotation
        resolve_place(game, game.current_player, card=str(card), corner=1, x=0.0, y=0.0, rotation=rotation)  # type: ignore[arg-type]
    words = (("en-US", "finite number of degrees from -360 to 360"), ("es-ES", "finito de grados entre -360 y 360"))
    for locale, needle in words:
        text = describe(caught.value, locale)
        assert needle in text and "cm" not in text and "table" not in text and "mesa" not in text, text
        assert not CODE.search(text), text


def test_a_rotation_in_range_is_kept() -> None:
    from bot.games.conex.placing import check_rotation

    assert [check_rotation(v) for v in (None, 0, -360, 359.5)] == [None, 0.0, -360.0, 359.5]
