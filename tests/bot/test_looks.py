"""A player's stored look (``bot/services/looks.py``): what ``user_prefs`` holds becomes the drawing keywords;
anything this version does not know reads as the default, never an error."""

from __future__ import annotations

import pickle

from bot.services.looks import DEFAULT, Look, look_from
from render.palette import COLOUR_BLIND


def test_a_player_who_chose_nothing_gets_the_default_look() -> None:
    assert look_from({"theme": None, "palette": None, "language": None, "alerts": None}) == DEFAULT
    assert DEFAULT.kwargs() == {"theme": "dark", "palette": None}


def test_a_stored_choice_becomes_the_drawing_keywords() -> None:
    look = look_from({"theme": "light", "palette": "colour-blind"})
    assert look == Look("light", "colour-blind")
    assert look.kwargs() == {"theme": "light", "palette": COLOUR_BLIND}
    assert pickle.loads(pickle.dumps(look.kwargs())) == look.kwargs()  # it crosses into the CPU workers


def test_values_this_version_does_not_know_read_as_the_default() -> None:
    assert look_from({"theme": "solarized", "palette": "okabe-ito"}) == DEFAULT
