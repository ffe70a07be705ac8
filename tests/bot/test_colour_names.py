"""The CONEX colours drawn are the colours named (rules G3: yellow, red, turquoise, purple): the hue of each card
fill falls in the range a reader calls by that name, and the words drawn and said use those names."""

from __future__ import annotations

import colorsys

import pytest

from bot.i18n import t
from render.conex_ink import COLOUR_FILL
from render.conex_words import EN

HUE_DEGREES = {"Y": (45, 65), "R": (345, 375), "T": (165, 190), "P": (260, 290)}
"""Hue ranges (degrees, wrapping past 360) that English readers name yellow, red, turquoise and purple."""
NAMES = {"Y": "yellow", "R": "red", "T": "turquoise", "P": "purple"}


@pytest.mark.parametrize("letter", sorted(COLOUR_FILL))
def test_each_card_colour_is_drawn_in_the_hue_of_its_name(letter: str) -> None:
    rgb = [int(COLOUR_FILL[letter][i : i + 2], 16) / 255 for i in (1, 3, 5)]
    hue, _light, saturation = colorsys.rgb_to_hls(*rgb)
    degrees = hue * 360
    low, high = HUE_DEGREES[letter]
    assert low <= degrees <= high or low <= degrees + 360 <= high, (
        f"{letter}: hue {degrees:.0f}° is not {NAMES[letter]}"
    )
    assert saturation >= 0.5, f"{letter}: too grey to be called {NAMES[letter]}"


@pytest.mark.parametrize("letter", sorted(COLOUR_FILL))
def test_the_name_drawn_and_said_is_that_colour(letter: str) -> None:
    assert EN[f"cn.colour_{letter}"] == NAMES[letter]
    assert t(f"cn.color_{letter}", "en") == NAMES[letter]
