"""The palettes are tested, not trusted (``render/palette.py``):

- contrast: every seat colour against each background it is drawn on (the tile under the chips and tower badges,
  the image background and panel under the swatches and the analysis graph) has a WCAG 2.x contrast ratio of at
  least 3:1 (non-text graphics, success criterion 1.4.11), in both themes and both palettes; cards keep their
  game colours and are told from the table by their black keyline (at least 3:1 there too);
- colour-vision deficiency: seen through the Machado, Oliveira & Fernandes (2009) simulation at full severity
  (protanopia, deuteranopia, tritanopia; ``colour-science``'s published matrices), every pair of seat colours stays
  at a CIEDE2000 distance of at least ``MIN_DELTA_E`` (20), and so does every pair of card colours; the
  colour-blind palette's seats also differ in lightness (at least 1.5:1), so they part even without any hue.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

from render.common import THEMES, theme_of
from render.conex_ink import BOARD_FILL, CARD_EDGE, COLOUR_FILL
from render.conex_patterns import CORNER_PATTERN
from render.palette import COLOUR_BLIND, MIN_DELTA_E, PALETTES, STANDARD, contrast_ratio, hex_rgb, palette_of

with warnings.catch_warnings():  # colour-science notes its missing optional plotting packages on import
    warnings.simplefilter("ignore")
    import colour

DEFICIENCIES = {"protanopia": "Protanomaly", "deuteranopia": "Deuteranomaly", "tritanopia": "Tritanomaly"}
"""Our names -> colour-science's; at severity 1.0 the anomaly is the full dichromacy."""
GRAPHIC_CONTRAST = 3.0


def simulate(hex_colour: str, deficiency: str | None) -> np.ndarray:
    """``hex_colour`` as seen with ``deficiency`` (``None``: normal vision), as sRGB 0..1 (Machado 2009 works on
    linear RGB)."""
    srgb = np.array(hex_rgb(hex_colour), dtype=float) / 255
    if deficiency is None:
        return srgb
    with warnings.catch_warnings():  # the tritanomaly matrices' domain note
        warnings.simplefilter("ignore")
        matrix = colour.blindness.matrix_cvd_Machado2009(DEFICIENCIES[deficiency], 1.0)
    linear = colour.models.eotf_sRGB(srgb)
    return np.asarray(colour.models.eotf_inverse_sRGB(np.clip(matrix @ linear, 0, 1)))


def delta_e(a: str, b: str, deficiency: str | None = None) -> float:
    """CIEDE2000 between two colours as seen with ``deficiency`` (sRGB -> XYZ -> CIELAB, D65)."""
    lab = [colour.XYZ_to_Lab(colour.sRGB_to_XYZ(simulate(c, deficiency))) for c in (a, b)]
    return float(colour.delta_E(lab[0], lab[1], method="CIE 2000"))


VISIONS = [None, *DEFICIENCIES]
CASES = [(p, t) for p in PALETTES for t in THEMES]


# -- the checks themselves can fail ---------------------------------------------------------------------------
def test_the_simulation_merges_a_red_and_an_olive_a_deuteranope_confuses() -> None:
    red, olive = "#D62728", "#8C8C00"
    assert delta_e(red, olive) > 40  # plainly different to normal vision
    assert delta_e(red, olive, "deuteranopia") < MIN_DELTA_E  # the check below would refuse this pair


def test_the_contrast_formula_gives_wcag_s_known_values() -> None:
    assert contrast_ratio("#000000", "#FFFFFF") == pytest.approx(21.0)
    assert contrast_ratio("#777777", "#FFFFFF") == pytest.approx(4.48, abs=0.01)
    assert contrast_ratio("#D55E00", "#3A3D44") < GRAPHIC_CONTRAST  # why the dark vermillion was lifted


# -- contrast -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("palette", "theme"), CASES)
def test_each_seat_colour_stands_out_3_to_1_on_every_background_it_sits_on(palette: str, theme: str) -> None:
    th = theme_of(theme, palette_of(palette))
    low = {
        (seat, where): round(contrast_ratio(fill, getattr(th, where)), 2)
        for seat, fill in enumerate(th.seats)
        for where in ("tile", "bg", "panel")
    }
    bad = {k: v for k, v in low.items() if v < GRAPHIC_CONTRAST}
    assert not bad, f"{palette}/{theme}: contrast below 3:1: {bad}"


@pytest.mark.parametrize(("palette", "theme"), CASES)
def test_seat_1_stripes_show_on_its_fill(palette: str, theme: str) -> None:
    th = theme_of(theme, palette_of(palette))
    assert contrast_ratio(th.stripe, th.seats[1]) >= 2.0, f"{palette}/{theme}: stripes hardly show"


@pytest.mark.parametrize("theme", THEMES)
def test_cards_are_told_from_the_table_and_board_by_their_keyline(theme: str) -> None:
    th = theme_of(theme)
    low = {
        (letter, where): round(max(contrast_ratio(fill, ground), contrast_ratio(CARD_EDGE, ground)), 2)
        for letter, fill in COLOUR_FILL.items()
        for where, ground in (("table", th.table), ("board", BOARD_FILL[theme]))
    }
    bad = {k: v for k, v in low.items() if v < GRAPHIC_CONTRAST}
    assert not bad, f"{theme}: neither the card's fill nor its keyline stands out 3:1: {bad}"


# -- colour-vision deficiency ---------------------------------------------------------------------------------
@pytest.mark.parametrize("vision", VISIONS, ids=lambda v: v or "normal")
@pytest.mark.parametrize(("palette", "theme"), CASES)
def test_the_two_seats_stay_apart_for_every_colour_vision(palette: str, theme: str, vision: str | None) -> None:
    a, b = palette_of(palette).seat_fill(theme)
    d = delta_e(a, b, vision)
    assert d >= MIN_DELTA_E, f"{palette}/{theme}: seats {a} and {b} only {d:.1f} apart ({vision or 'normal'})"


@pytest.mark.parametrize("theme", THEMES)
def test_the_colour_blind_seats_also_differ_in_lightness(theme: str) -> None:
    a, b = COLOUR_BLIND.seat_fill(theme)
    assert contrast_ratio(a, b) >= 1.5, f"{theme}: {a} and {b} are as light as each other"


@pytest.mark.parametrize("vision", VISIONS, ids=lambda v: v or "normal")
def test_every_pair_of_card_colours_stays_apart(vision: str | None) -> None:
    close = {
        (x, y): round(delta_e(COLOUR_FILL[x], COLOUR_FILL[y], vision), 1)
        for x, y in itertools.combinations(sorted(COLOUR_FILL), 2)
        if delta_e(COLOUR_FILL[x], COLOUR_FILL[y], vision) < MIN_DELTA_E
    }
    assert not close, f"card colours too close ({vision or 'normal'}): {close}"


def test_the_colour_blind_palette_gives_each_card_colour_its_own_corner_pattern() -> None:
    assert set(CORNER_PATTERN) == set(COLOUR_FILL)
    assert len(set(CORNER_PATTERN.values())) == len(CORNER_PATTERN)
    assert COLOUR_BLIND.card_patterns and not STANDARD.card_patterns


def test_unknown_names_are_refused() -> None:
    assert palette_of(None) is STANDARD
    with pytest.raises(ValueError, match="unknown palette"):
        palette_of("sepia")
    with pytest.raises(ValueError, match="no theme"):
        STANDARD.seat_fill("solarized")
