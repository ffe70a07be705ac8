"""CONEX's persistent components: ``DynamicItem`` classes whose custom ids carry the game (prefix ``cn:``).

Custom ids (all <= 100 characters, unique per message):

- lobby: ``cn:join:<game>``, ``cn:leave:<game>``, ``cn:start:<game>`` (host only), ``cn:bot:<game>[:<version>]`` (host
  adds an AI seat): the layer's seating buttons (``bot/ui/components.py``).
- under the table image: ``cn:hand:<game>`` (My hand, private), ``cn:hints:<game>`` (private placement
  preview), ``cn:draw:<game>:<version>`` / ``cn:pass:<game>:<version>`` (A2 / A3; the version refuses a
  click on an old table), ``cn:disc:<game>`` (while discards are pending, X3: opens a private select).
- ``cn:forfeit:<game>``: the private confirmation of ``/conex leave`` in a running game.
- private: ``cn:dsel:<game>`` (the discard select over hand cards A-Y; ``cn:dsel:<game>:<page>`` for pages 1-3
  of a hand over 25 cards, 25 cards per select; no version: a discard may be made at any time) and
  ``cn:hp:<game>:<version>:<card>:<corner>:<x>:<y>:<rotation>`` (play hint n: the exact placement, x/y in cm;
  a hint from an older version is refused as stale).

Registered with ``bot.add_dynamic_items`` by the game layer (``kind.components.dynamic_items``); every click goes to the
game layer (``interaction.client.games``) or to the private answers of ``private.py``; state is always reloaded.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import has, image_words, t
from bot.ui.common import GameButton, GameSelect, games, report_errors
from engine.conex import COLOR_NAMES, Card, Place
from engine.conex.actions import fmt_num
from engine.conex.handref import hand_letter

if TYPE_CHECKING:
    from bot.games.conex.placing import Hint

SELECT_OPTIONS = 25  # Discord: at most 25 options per select
MAX_SELECTS = 4  # discard selects per message (one row each; a fifth row stays free for buttons)
_NUM = r"-?[0-9]+(?:\.[0-9]+)?"

PRIVATE: dict[str, Callable[[discord.Interaction, int], Awaitable[None]]] = {}
"""The private answers these buttons open (``hand``, ``hints``, ``discard_prompt``, ``forfeit``), registered by
``private.py`` when it loads: it imports this module, so the buttons do not import it back."""


def card_label(card: Card, letter: str | int | None = None, locale: str | None = None) -> str:
    """``"A · #12 red +2 · 1:Y4 2:P3"`` (``letter``: the card's hand letter, or a 0-based hand index; the colour in
    ``locale``'s words), at most 100 characters."""
    act = {"plus2": " +2", "die": " " + image_words(locale)("cn.die")}.get(card.action or "", "")
    corners = " ".join(f"{c.index}:{c.color}{c.value}" for c in card.corners)
    if isinstance(letter, int):
        letter = hand_letter(letter)
    head = f"{letter} · " if letter is not None else ""
    return f"{head}#{card.id} {colour_name(card.color, locale)}{act} · {corners}"[:100]


def colour_name(colour: str, locale: str | None = None) -> str:
    """A card colour (``"R"``) in the reader's words (``red``, ``rojo``)."""
    key = f"cn.color_{colour}"
    return t(key, locale) if has(key, "en") else COLOR_NAMES.get(colour, colour)


class HandButton(GameButton, template=r"cn:hand:(?P<game>[0-9]+)"):
    """My hand: the caller's hand as a private image with legal placement counts."""

    prefix, verb, label_key, style = "cn", "hand", "ui.cn_hand", discord.ButtonStyle.primary

    async def run(self, interaction: discord.Interaction) -> None:
        await PRIVATE["hand"](interaction, self.game_id)


class HintsButton(GameButton, template=r"cn:hints:(?P<game>[0-9]+)"):
    """Hints: a private preview of up to 9 legal placements, with buttons to play them."""

    prefix, verb, label_key, style = "cn", "hints", "ui.cn_hints", discord.ButtonStyle.secondary

    async def run(self, interaction: discord.Interaction) -> None:
        await PRIVATE["hints"](interaction, self.game_id)


class DiscardPromptButton(GameButton, template=r"cn:disc:(?P<game>[0-9]+)"):
    """Shown while discards are pending (X3): opens the caller's private discard select."""

    prefix, verb, label_key, style = "cn", "disc", "ui.cn_discard", discord.ButtonStyle.danger

    async def run(self, interaction: discord.Interaction) -> None:
        await PRIVATE["discard_prompt"](interaction, self.game_id)


class FairButton(GameButton, template=r"cn:fair:(?P<game>[0-9]+)"):
    """How do I know the deal was fair? The proof in words, privately: the fingerprint (commitment) posted at the
    start, and the seed once the game is over (``private.fair``)."""

    prefix, verb, label_key, style = "cn", "fair", "ui.cn_fair", discord.ButtonStyle.secondary

    async def run(self, interaction: discord.Interaction) -> None:
        await PRIVATE["fair"](interaction, self.game_id)


class ForfeitButton(GameButton, template=r"cn:forfeit:(?P<game>[0-9]+)"):
    """Confirms ``/conex leave`` in a running game (the engine's ``Forfeit``); sent privately."""

    prefix, verb, label_key, style = "cn", "forfeit", "ui.cn_forfeit", discord.ButtonStyle.danger

    async def run(self, interaction: discord.Interaction) -> None:
        await PRIVATE["forfeit"](interaction, self.game_id)


class ActionButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"cn:(?P<verb>draw|pass):(?P<game>[0-9]+):(?P<ver>[0-9]+)",
):
    """Draw (A2) or Pass (A3) for the player to move, on the table drawn at ``version``."""

    def __init__(self, verb: str, game_id: int, version: int, *, locale: str | None = None) -> None:
        self.verb = verb
        self.game_id = game_id
        self.version = version
        super().__init__(
            discord.ui.Button(
                label=t(f"ui.cn_{verb}", locale),
                style=discord.ButtonStyle.secondary,
                custom_id=f"cn:{verb}:{game_id}:{version}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActionButton:
        return cls(match["verb"], int(match["game"]), int(match["ver"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await report_errors(
            interaction,
            lambda: games(interaction).play(interaction, self.game_id, self.verb, expected_version=self.version),
        )


class DiscardSelect(GameSelect, template=r"cn:dsel:(?P<game>[0-9]+)(?::(?P<page>[0-9]))?"):
    """X3: choose the card of your hand that goes to the bottom of the draw pile. ``page`` n lists hand cards
    ``25n`` to ``25n + 24`` (``cards`` is the whole hand; labels keep the hand letters). No version: a discard may
    be made at any time."""

    prefix, verb = "cn", "dsel"

    def __init__(
        self,
        game_id: int,
        cards: Sequence[Card] = (),
        *,
        page: int = 0,
        locale: str | None = None,
        letters: Mapping[int, str] | None = None,
    ) -> None:
        self.page = page
        first = page * SELECT_OPTIONS
        chunk = list(cards)[first : first + SELECT_OPTIONS]
        names = {c.id: (letters or {}).get(c.id, hand_letter(first + i)) for i, c in enumerate(chunk)}
        options = [discord.SelectOption(label=card_label(c, names[c.id], locale), value=str(c.id)) for c in chunk]
        placeholder = t("ui.cn_discard_placeholder", locale)
        if len(cards) > SELECT_OPTIONS and chunk:
            span = f"{names[chunk[0].id]}–{names[chunk[-1].id]}"
            placeholder = t("ui.cn_discard_placeholder_page", locale, span=span)
        super().__init__(game_id, None, options, placeholder=placeholder, suffix=str(page) if page else "", row=page)

    @classmethod
    def from_match(cls, match: re.Match[str]) -> DiscardSelect:
        return cls(int(match["game"]), page=int(match["page"] or 0))

    def action(self, value: str) -> str:
        return f"discard {value}"


def hint_custom_id(game_id: int, version: int, place: Place) -> str:
    """``cn:hp:<game>:<version>:<card>:<corner>:<x>:<y>:<rotation>[:d]`` (cm, degrees; ``:d`` = with the 2x star;
    at most 100 characters)."""
    rot = fmt_num(place.rotation if place.rotation is not None else 0.0)
    cid = f"cn:hp:{game_id}:{version}:{place.card}:{place.corner}:{fmt_num(place.x)}:{fmt_num(place.y)}:{rot}"
    cid += ":d" if place.double else ""
    if len(cid) > 100:  # pragma: no cover - ids and 0.1 cm coordinates keep it far shorter
        raise ValueError(f"hint custom id too long: {cid}")
    return cid


class HintButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=(
        rf"cn:hp:(?P<game>[0-9]+):(?P<ver>[0-9]+):(?P<card>[0-9]+):(?P<corner>[0-9]):"
        rf"(?P<x>{_NUM}):(?P<y>{_NUM}):(?P<rot>{_NUM})(?P<dbl>:d)?"
    ),
):
    """Play hint ``n``: the exact placement it shows (with the 2x star for ``:d``), if the game is still at
    ``version``."""

    def __init__(self, game_id: int, version: int, place: Place, *, label: str = "", locale: str | None = None) -> None:
        self.game_id = game_id
        self.version = version
        self.place = place
        super().__init__(
            discord.ui.Button(
                label=label or "▶", style=discord.ButtonStyle.success, custom_id=hint_custom_id(game_id, version, place)
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HintButton:
        place = Place(
            0,
            int(match["card"]),
            int(match["corner"]),
            float(match["x"]),
            float(match["y"]),
            float(match["rot"]),
            bool(match["dbl"]),
        )
        return cls(int(match["game"]), int(match["ver"]), place)

    async def callback(self, interaction: discord.Interaction) -> None:
        await report_errors(
            interaction,
            lambda: games(interaction).play(interaction, self.game_id, self.place, expected_version=self.version),
        )


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    HandButton,
    HintsButton,
    DiscardPromptButton,
    FairButton,
    ForfeitButton,
    ActionButton,
    DiscardSelect,
    HintButton,
)


def table_view(
    game_id: int, version: int, *, pile_empty: bool, discards_pending: bool, locale: str | None = None
) -> discord.ui.View:
    """The buttons under a running game's table: My hand, Hints, Draw (or Pass when the pile is empty),
    Discard while discards are pending, and How do I know the deal was fair? (second row)."""
    view = discord.ui.View(timeout=None)
    view.add_item(HandButton(game_id, locale=locale))
    view.add_item(HintsButton(game_id, locale=locale))
    view.add_item(ActionButton("pass" if pile_empty else "draw", game_id, version, locale=locale))
    if discards_pending:
        view.add_item(DiscardPromptButton(game_id, locale=locale))
    fair = FairButton(game_id, locale=locale)
    fair.row = 1
    view.add_item(fair)
    return view


def forfeit_view(game_id: int, *, locale: str | None = None) -> discord.ui.View:
    """The private confirmation of a forfeit."""
    view = discord.ui.View(timeout=None)
    view.add_item(ForfeitButton(game_id, locale=locale))
    return view


def discard_view(
    game_id: int, cards: Sequence[Card], *, locale: str | None = None, letters: Mapping[int, str] | None = None
) -> discord.ui.View:
    """The private discard select(s) over the caller's hand: one select per 25 cards (hand letters A-Y, Z-AX...),
    at most :data:`MAX_SELECTS` (100 cards, more than the 52-card deck)."""
    view = discord.ui.View(timeout=None)
    pages = max(1, min(MAX_SELECTS, -(-len(cards) // SELECT_OPTIONS)))
    for page in range(pages):
        view.add_item(DiscardSelect(game_id, cards, page=page, locale=locale, letters=letters))
    return view


def hints_view(game_id: int, version: int, hints: Sequence[Hint], *, locale: str | None = None) -> discord.ui.View:
    """One button per hint, labelled ``"n · +points"`` (at most 9), and beside each a ``"n · 2x +points"`` button when
    the seat holds the 2x star (at most 18 buttons, 25 allowed)."""
    view = discord.ui.View(timeout=None)
    for n, hint in enumerate(hints[:9], start=1):
        label = t("ui.cn_hint", locale, n=n, points=hint.points)
        view.add_item(HintButton(game_id, version, hint.place, label=label, locale=locale))
        if hint.double_points is not None:
            p = hint.place
            doubled = Place(p.player, p.card, p.corner, p.x, p.y, p.rotation, True)
            label = t("ui.cn_hint_2x", locale, n=n, points=hint.double_points)
            view.add_item(HintButton(game_id, version, doubled, label=label, locale=locale))
    return view
