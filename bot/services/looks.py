"""How a player's pictures look: their ``/mysettings`` theme (dark or light) and palette (standard or colour-blind).

The rule: a picture only its player sees (a private answer: their hand and hints, a private zoom on the table,
their match analysis, a replay answered privately, a game watched with **Watch a game…**) is drawn in that player's
look; a picture posted in the
channel (boards, result cards, the leaderboard, the layouts sheet, a public replay) is seen by everyone and keeps
the default look, :data:`DEFAULT` (dark, standard palette). A player who wants the table in their own look asks
for a private zoom on it.

Stored in the ``user_prefs`` table (``theme`` and ``palette`` columns, since migration 0001); a value this version
does not know reads as the default.
"""

from __future__ import annotations

import dataclasses
import inspect
from dataclasses import dataclass
from typing import Any

from bot.core.kind import Picture
from render.palette import PALETTES, Palette, palette_of

DEFAULT_PALETTE = "standard"
THEMES: tuple[str, ...] = ("dark", "light")
"""The themes a player may choose (``render.common.THEMES``)."""
PALETTE_NAMES: tuple[str, ...] = tuple(PALETTES)
"""The palettes a player may choose (``render.palette.PALETTES``): ``"standard"``, ``"colour-blind"``."""


@dataclass(frozen=True)
class Look:
    """A theme name and a palette name, as stored; :meth:`kwargs` gives a drawing function's ``theme=`` and
    ``palette=`` keywords."""

    theme: str = "dark"
    palette: str = DEFAULT_PALETTE

    @property
    def drawn(self) -> Palette:
        """The :class:`render.palette.Palette` to draw with."""
        return palette_of(self.palette)

    def kwargs(self) -> dict[str, Any]:
        """``{"theme": ..., "palette": Palette | None}`` for ``render_*`` functions (picklable, for the CPU
        workers); the standard palette is ``None`` (every drawing function's default)."""
        return {"theme": self.theme, "palette": None if self.palette == DEFAULT_PALETTE else self.drawn}


DEFAULT = Look()
"""The look of every public picture, and of a player who chose nothing."""


def look_from(prefs: dict[str, str | None]) -> Look:
    """The :class:`Look` of stored preferences (``Storage.get_prefs``); unknown or missing values = default."""
    theme = prefs.get("theme")
    palette = prefs.get("palette")
    return Look(
        theme=theme if theme in THEMES else DEFAULT.theme,
        palette=palette if palette in PALETTE_NAMES else DEFAULT.palette,
    )


async def look_of(storage: Any, user_id: int) -> Look:
    """The :class:`Look` user ``user_id`` chose (``storage``: anything with ``get_prefs(user_id)``)."""
    return look_from(await storage.get_prefs(user_id))


def in_look(picture: Picture, look: Look) -> Picture:
    """``picture`` drawn in ``look`` (a private answer: the reader's): its drawing function gets the look's
    ``theme=``/``palette=`` keywords it declares (a game's drawing that declares neither stays as it is)."""
    if look == DEFAULT:
        return picture
    try:
        params = inspect.signature(picture.draw).parameters
    except (TypeError, ValueError):
        return picture
    anything = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    extra = {k: v for k, v in look.kwargs().items() if anything or k in params}
    return dataclasses.replace(picture, kwargs={**picture.kwargs, **extra}) if extra else picture
