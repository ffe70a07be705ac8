"""The board's offer buttons (:mod:`bot.services.offers`): **Offer draw** and **Take back** while no offer is open;
**Accept** / **Decline** (the opponent) and **Cancel offer** (the offerer) while one is.

Custom ids (persistent, <= 100 characters): ``of:<dr|tb>:<game>:<version>`` (offer a draw / ask to take back) and
``of:<ok|no|cx>:<game>:<version>`` (accept / decline / cancel). ``<version>`` is the board's: a click on a board
the game has moved past (a move voids an offer) is refused in words and changes nothing.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Self

import discord

from bot.errors import BotError
from bot.i18n import t
from bot.services import offers
from bot.ui.common import games, report_errors

if TYPE_CHECKING:
    from bot.core.kind import Snapshot

_ASK = {"dr": "draw", "tb": "takeback"}
_ANSWER = {"ok": "accept", "no": "decline", "cx": "cancel"}
_STYLE = {
    "dr": discord.ButtonStyle.secondary,
    "tb": discord.ButtonStyle.secondary,
    "ok": discord.ButtonStyle.success,
    "no": discord.ButtonStyle.danger,
    "cx": discord.ButtonStyle.secondary,
}


def _label(code: str, what: str | None, locale: str | None) -> str:
    """The button's label. A button rebuilt from its custom id (``from_custom_id``: a click) does not know what
    the offer is: its label is never shown, so it gets the plain ``Accept`` (never a key built from ``None``)."""
    if code == "ok" and what in offers.WHATS:
        return t(f"offer.ui_accept_{what}", locale)
    if code == "cx" and what in offers.WHATS:  # "Cancel offer" (a draw), "Cancel request" (a takeback)
        return t(f"offer.ui_cx_{what}", locale)
    return t(f"offer.ui_{code}", locale)


class OfferButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"of:(?P<code>dr|tb|ok|no|cx):(?P<game>[0-9]+):(?P<ver>[0-9]+)",
):
    """One offer button (module docstring); every refusal is an ephemeral answer."""

    def __init__(
        self, code: str, game_id: int, version: int, *, what: str | None = None, locale: str | None = None
    ) -> None:
        self.code, self.game_id, self.version = code, game_id, version
        super().__init__(
            discord.ui.Button(
                label=_label(code, what, locale), style=_STYLE[code], custom_id=f"of:{code}:{game_id}:{version}", row=4
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(match["code"], int(match["game"]), int(match["ver"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await report_errors(interaction, lambda: self.run(interaction))

    async def run(self, interaction: discord.Interaction) -> None:
        layer = games(interaction)
        user = interaction.user.id
        if self.code in _ASK:
            step = offers.ask(user, _ASK[self.code])
        else:
            step = offers.answer(layer, user, _ANSWER[self.code])
        try:
            await layer.perform(interaction, layer.transact(self.game_id, step, expected_version=self.version))
        except BotError as err:
            if err.key == "err.stale" and self.code in _ANSWER:
                raise BotError("offer.stale") from err
            raise


def board_items(snap: Snapshot) -> list[discord.ui.Item[Any]]:
    """The offer buttons under a running game's board (row 4, beside Resign): Accept / Decline / Cancel offer (Cancel
    request, for a takeback) while an offer is open, else Offer draw, and Take back once a human seat has a move
    on the board it could take back; none once the game is over or when its seats are not two humans or one human
    and the AI. Both players see the one board: after a round's first move the button is the mover's, and the
    other is told so if they click it (``offer.nothing_to_take_back_theirs``)."""
    state = snap.state
    if snap.status != "active" or state is None or state.is_over or not hasattr(state, "takeback_plies"):
        return []
    locale = snap.locale
    pending = offers.open_offer(snap.env)
    if pending is not None:
        what = str(pending["what"])
        return [
            OfferButton("ok", snap.id, snap.version, what=what, locale=locale),
            OfferButton("no", snap.id, snap.version, locale=locale),
            OfferButton("cx", snap.id, snap.version, what=what, locale=locale),
        ]
    items: list[discord.ui.Item[Any]] = [OfferButton("dr", snap.id, snap.version, locale=locale)]
    humans = [s for s in range(len(snap.players)) if not snap.is_ai(s)]
    if any(state.takeback_plies(s) for s in humans):
        items.append(OfferButton("tb", snap.id, snap.version, locale=locale))
    return items


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (OfferButton,)
