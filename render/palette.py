"""Player palettes: the colours that tell the players apart (the seats' pieces), chosen per theme, and the
cues drawn besides colour. A render-level value object: ``bot/`` picks one (the player's ``/mysettings
palette``) and passes it to a drawing function; nothing here knows about players or storage.

Two palettes, each defined for the dark and the light theme (a colour that stands out on a dark tile sinks
into a light one):

- ``standard``: the Okabe & Ito (2008) pair, vermillion (seat 0, solid) and sky blue (seat 1, striped), darkened
  on the light theme.
- ``colour-blind``: a pair that also differs in lightness (yellow and sky blue on dark, dark orange and navy on
  light), so that the seats stay apart under protanopia, deuteranopia and tritanopia and even without any hue;
  card colours are part of their game (its rules name them): they keep them and get a pattern on every corner
  triangle instead.

Tested (``tests/render/test_palette.py``): every seat colour against the backgrounds it sits on has a WCAG 2.x
contrast ratio of at least 3:1 (non-text graphics, success criterion 1.4.11), and every pair of seat colours,
seen through the Machado et al. (2009) simulations of the three dichromacies, stays at a CIEDE2000 distance of
at least :data:`MIN_DELTA_E`.
"""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]

__all__ = [
    "COLOUR_BLIND",
    "MIN_DELTA_E",
    "PALETTES",
    "STANDARD",
    "Palette",
    "contrast_ratio",
    "hex_rgb",
    "luminance",
    "palette_of",
]

MIN_DELTA_E = 20.0
"""The least CIEDE2000 difference between two seat colours under each simulated dichromacy (and normal vision).
About 2 is a just-noticeable difference; 20 reads as two different colours at a glance, on a phone."""


def hex_rgb(colour: str) -> RGB:
    """``"#RRGGBB"`` -> ``(r, g, b)`` ints 0..255."""
    c = colour.lstrip("#")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


def luminance(colour: str | RGB) -> float:
    """Relative luminance 0..1 (WCAG 2.x formula) of a colour given as ``"#RRGGBB"`` or an RGB tuple."""
    rgb = hex_rgb(colour) if isinstance(colour, str) else colour

    def lin(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: str | RGB, b: str | RGB) -> float:
    """WCAG 2.x contrast ratio ``(L1 + 0.05) / (L2 + 0.05)`` of two colours, 1.0 (same) to 21.0 (black/white)."""
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@dataclass(frozen=True)
class Palette:
    """One palette: per theme name (``"dark"``, ``"light"``) the two seat fills, the stripe colour of seat 1's
    pattern, and whether cards' corner triangles carry a pattern per colour (``card_patterns``).

    ``seats[theme][p]`` is seat ``p``'s fill (``"#RRGGBB"``); ``stripes[theme]`` the stripes drawn over seat 1.
    """

    name: str
    seats: dict[str, tuple[str, str]]
    stripes: dict[str, str]
    card_patterns: bool = False

    def seat_fill(self, theme: str) -> tuple[str, str]:
        """The two seat fills on ``theme``; raises ``ValueError`` for an unknown theme."""
        try:
            return self.seats[theme]
        except KeyError:
            raise ValueError(f"palette {self.name!r} has no theme {theme!r}") from None

    def stripe(self, theme: str) -> str:
        """The colour of seat 1's stripes on ``theme``; raises ``ValueError`` for an unknown theme."""
        try:
            return self.stripes[theme]
        except KeyError:
            raise ValueError(f"palette {self.name!r} has no theme {theme!r}") from None

    def colours(self) -> tuple[str, ...]:
        """Every colour this palette draws with (for the PNG encoder's fixed palette)."""
        return (*(c for pair in self.seats.values() for c in pair), *self.stripes.values())


STANDARD = Palette(
    name="standard",
    # dark: Okabe-Ito vermillion lifted a little (#D55E00 is 2.8:1 on the dark tile) and sky blue.
    seats={"dark": ("#E2690A", "#56B4E9"), "light": ("#C05000", "#0072B2")},
    stripes={"dark": "#08306B", "light": "#FFFFFF"},
)

COLOUR_BLIND = Palette(
    name="colour-blind",
    seats={"dark": ("#F0E442", "#56B4E9"), "light": ("#C05000", "#08306B")},
    stripes={"dark": "#08306B", "light": "#56B4E9"},
    card_patterns=True,
)

PALETTES: dict[str, Palette] = {p.name: p for p in (STANDARD, COLOUR_BLIND)}


def palette_of(name: str | None) -> Palette:
    """The :class:`Palette` called ``name`` (``None`` = :data:`STANDARD`); raises ``ValueError`` for another
    name."""
    if name is None:
        return STANDARD
    try:
        return PALETTES[name]
    except KeyError:
        raise ValueError(f"unknown palette {name!r}: use {' or '.join(map(repr, PALETTES))}") from None
