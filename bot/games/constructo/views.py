"""Constructo's persistent components: ``DynamicItem`` classes whose custom ids carry the game.

Custom ids (all <= 100 characters, unique per message):

- ``cx:acc:<game>`` / ``cx:dec:<game>``: Accept / Decline a challenge (the layer's seating buttons,
  ``bot/ui/components.py``).
- ``cx:pl:<game>:<version>:<S|M|L>``: a select of tiles where a chip of that size can be placed.
  Placements are grouped **one select per size** (at most 9 tiles each, never over 25) because
  3 sizes x 9 tiles = 27 placements exceed a select's 25 options.
- ``cx:mv:<game>:<version>``: a select of legal moves ``from-to`` (at most 25 listed, in tile
  order; if ever more are legal the rest are played with ``/constructo move``).
- ``cx:lay:<game>:<version>``: round 2's layout (M1): keep, or a named layout.
- ``cx:res:<game>``: Resign (M3), answered by an ephemeral ``cx:rsy:<game>`` confirmation button.

``<version>`` is the stored game version the board was drawn at: a click on an older board is
refused ("this board is out of date") instead of playing on a position the player did not see.
The classes are registered with ``bot.add_dynamic_items`` by the game layer (``kind.components.dynamic_items``), so they
work across restarts; every click goes to the game layer (``interaction.client.games``), which reloads the game.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections.abc import Sequence
from typing import Any

import discord

from bot.errors import BotError
from bot.i18n import t
from bot.ui.common import GameButton, GameSelect, games, reply, update
from engine.constructo import EXPERIMENTAL, LAYOUTS, RECOMMENDED, Match, Move, Size
from engine.errors import InvalidInputError

log = logging.getLogger(__name__)


async def resign_request(interaction: discord.Interaction, game_id: int) -> None:
    """The board's Resign button: a player of the running game gets an ephemeral confirmation."""
    snap = await games(interaction).playing(game_id)
    snap.seat_of(interaction.user.id)
    await reply(
        interaction,
        t("cx.confirm_resign", interaction.locale),
        ephemeral=True,
        view=confirm_resign_view(game_id, locale=interaction.locale.value),
    )


async def resign(interaction: discord.Interaction, game_id: int) -> None:
    """Resign (M3, the engine's ``Forfeit``) now; from the confirmation button the ephemeral prompt is closed (its
    buttons dropped, then the prompt removed) and the board answers as a followup ("Match over: … resigned, …
    wins"): the resignation is said once, on the board, not again privately."""
    layer = games(interaction)
    committed = await layer.act(game_id, interaction.user.id, "forfeit")
    if interaction.type is discord.InteractionType.component:
        await update(interaction, view=None)
        try:
            await interaction.delete_original_response()
        except discord.HTTPException as err:  # the prompt stays, without its buttons
            log.info("could not remove the resign prompt of interaction %s: %s", interaction.id, err)
    await layer.after_commit(committed, layer.headline(committed), interaction)


def check_tile(tile: object) -> int:
    """A tile number 1-9 as typed in a command or sent by a select; anything else is refused in the player's
    words (``cx.no_such_tile``, ``err.bad_option``), never in move notation."""
    if isinstance(tile, str):
        if not tile.strip().isdigit() or len(tile.strip()) > 6:
            raise BotError("err.bad_option", value=tile[:40])
        tile = int(tile.strip())
    if isinstance(tile, bool) or not isinstance(tile, int) or not 1 <= tile <= 9:
        raise BotError("cx.no_such_tile", tile=tile)
    return tile


SIZE_LETTERS_ES = {"p": Size.SMALL, "g": Size.LARGE}
"""Spanish initials (pequeña, grande) that are not the notation's S/M/L; M is medium in both languages."""


def typed_size(text: str) -> Size:
    """A chip size as a player types it, in English or Spanish: the notation letter (S/M/L), a word of either
    language ("large", "grande"; accents and case ignored) or a Spanish initial (P/G). Raises the engine's
    ``InvalidInputError`` (reason ``unknown_size``) for anything else."""
    try:
        return Size.parse(text)
    except InvalidInputError:
        key = _folded(text)
        for size in Size:
            if key in {_folded(t(f"cx.size_{size.word}", lang)) for lang in ("en", "es")}:
                return size
        if key in SIZE_LETTERS_ES:
            return SIZE_LETTERS_ES[key]
        raise


def _folded(text: str) -> str:
    """``text`` stripped, case-folded, without accents ("Pequeña" -> "pequena")."""
    decomposed = unicodedata.normalize("NFKD", text.strip().casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


class PlaceSelect(GameSelect, template=r"cx:pl:(?P<game>[0-9]+):(?P<ver>[0-9]+):(?P<size>[SML])"):
    """Place a chip of one size: the options are the empty tiles (rule T1/T2)."""

    prefix, verb = "cx", "pl"

    def __init__(
        self, game_id: int, version: int, size: Size, tiles: Sequence[int] = (), *, locale: str | None = None
    ) -> None:
        self.size = size
        options = [discord.SelectOption(label=t("ui.tile", locale, tile=n), value=str(n)) for n in tiles[:25]]
        super().__init__(game_id, version, options, placeholder=t(f"ui.place_{size.word}", locale), suffix=size.letter)

    @classmethod
    def from_match(cls, match: re.Match[str]) -> PlaceSelect:
        return cls(int(match["game"]), int(match["ver"]), Size.parse(match["size"]))

    def action(self, value: str) -> str:
        return f"{self.size.letter}{check_tile(value)}"


class MoveSelect(GameSelect, template=r"cx:mv:(?P<game>[0-9]+):(?P<ver>[0-9]+)"):
    """Move a lone chip onto an adjacent opponent's stack (T1, K1-K4)."""

    prefix, verb, placeholder_key = "cx", "mv", "ui.move_placeholder"

    def __init__(self, game_id: int, version: int, moves: Sequence[Move] = (), *, locale: str | None = None) -> None:
        options = [
            discord.SelectOption(label=t("ui.move_option", locale, src=m.src, dst=m.dst), value=str(m))
            for m in list(moves)[:25]
        ]
        super().__init__(game_id, version, options, locale=locale)


def layout_choices() -> list[str]:
    """Named layouts offered for round 2, recommended first (at most 24, plus "keep")."""
    names = [n for n in (*RECOMMENDED, *EXPERIMENTAL) if n in LAYOUTS]
    names += [n for n in LAYOUTS if n not in names]
    return names[:24]


class LayoutSelect(GameSelect, template=r"cx:lay:(?P<game>[0-9]+):(?P<ver>[0-9]+)"):
    """Round 2's layout, for the player who did not start round 1 (M1): keep or a named layout."""

    prefix, verb, placeholder_key = "cx", "lay", "ui.layout_placeholder"

    def __init__(self, game_id: int, version: int, current: str | None = None, *, locale: str | None = None) -> None:
        options = []
        if current is not None:
            options.append(discord.SelectOption(label=t("ui.keep_layout", locale, layout=current)[:100], value="keep"))
            options += [
                discord.SelectOption(
                    label=name,
                    value=name,
                    description=t("ui.recommended" if name in RECOMMENDED else "ui.experimental", locale),
                )
                for name in layout_choices()
            ]
        super().__init__(game_id, version, options, locale=locale)

    def action(self, value: str) -> str:
        return f"layout {value}"


class ResignButton(GameButton, template=r"cx:res:(?P<game>[0-9]+)"):
    """Resign the match (M3): only a player of this game."""

    prefix, verb, label_key, style = "cx", "res", "ui.resign", discord.ButtonStyle.danger

    async def run(self, interaction: discord.Interaction) -> None:
        await resign_request(interaction, self.game_id)


class ConfirmResignButton(GameButton, template=r"cx:rsy:(?P<game>[0-9]+)"):
    """The ephemeral confirmation of Resign (a mis-click must not lose a match)."""

    prefix, verb, label_key, style = "cx", "rsy", "ui.confirm_resign", discord.ButtonStyle.danger

    async def run(self, interaction: discord.Interaction) -> None:
        await resign(interaction, self.game_id)


def confirm_resign_view(game_id: int, *, locale: str | None = None) -> discord.ui.View:
    """The single confirmation button sent ephemerally after Resign."""
    view = discord.ui.View(timeout=None)
    view.add_item(ConfirmResignButton(game_id, locale=locale))
    return view


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    PlaceSelect,
    MoveSelect,
    LayoutSelect,
    ResignButton,
    ConfirmResignButton,
)


def board_view(
    game_id: int,
    version: int,
    match: Match,
    placements: Sequence[Move],
    steps: Sequence[Move],
    *,
    human_to_act: bool = True,
    locale: str | None = None,
    extra: Sequence[discord.ui.Item[Any]] = (),
) -> discord.ui.View | None:
    """The components under a board: per-size placement selects, the move select and Resign while
    playing; the layout select and Resign while round 2's layout is chosen; ``None`` once over.

    ``placements``/``steps`` are the legal actions of the player to move (from the service);
    ``human_to_act=False`` (the AI is to act) leaves only Resign. ``extra``: more buttons for Resign's row (the
    offer buttons, ``bot/ui/offers.py``).
    """
    if match.is_over:
        return None
    view = discord.ui.View(timeout=None)
    if match.phase == "choosing_layout" and human_to_act:
        current = match.rounds[0].layout
        view.add_item(LayoutSelect(game_id, version, current.name or current.to_text()[:60], locale=locale))
    elif match.phase == "playing":
        for row, size in enumerate((Size.LARGE, Size.MEDIUM, Size.SMALL)):
            tiles = [m.tile for m in placements if m.size == size and m.tile is not None]
            if tiles:
                place = PlaceSelect(game_id, version, size, tiles, locale=locale)
                place.row = row
                view.add_item(place)
        if steps:
            move = MoveSelect(game_id, version, steps, locale=locale)
            move.row = 3
            view.add_item(move)
    resign = ResignButton(game_id, locale=locale)
    resign.row = 4
    view.add_item(resign)
    for item in extra:
        view.add_item(item)
    return view
