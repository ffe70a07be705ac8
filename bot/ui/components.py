"""The seating buttons every game gets from the layer (persistent ``DynamicItem`` classes made per game prefix).

- challenge: ``<prefix>:acc:<game>`` Accept (only the invited user), ``<prefix>:dec:<game>`` Decline (the invited
  user) or withdraw (the opener);
- lobby: ``<prefix>:join:<game>``, ``<prefix>:leave:<game>``, ``<prefix>:start:<game>`` (host),
  ``<prefix>:bot:<game>[:<version>]`` (host adds an AI seat; the version as drawn: a double click adds one).

Clicks go to the layer's lobby (``interaction.client.games.lobby``); labels are the shared ``ui.*`` keys.
"""

from __future__ import annotations

import re
import types
from typing import TYPE_CHECKING, Any

import discord

from bot.ui.common import GameButton, games

if TYPE_CHECKING:
    from bot.core.kind import GameKind

SEAT_VERBS: dict[str, tuple[tuple[str, str, str, discord.ButtonStyle], ...]] = {
    "challenge": (
        ("acc", "accept", "ui.accept", discord.ButtonStyle.success),
        ("dec", "decline", "ui.decline", discord.ButtonStyle.secondary),
    ),
    "lobby": (
        ("join", "join", "ui.join", discord.ButtonStyle.success),
        ("leave", "leave", "ui.leave", discord.ButtonStyle.secondary),
        ("start", "start", "ui.start", discord.ButtonStyle.primary),
        ("bot", "add_ai", "ui.add_bot", discord.ButtonStyle.secondary),
    ),
}
"""Per seating mode: (custom-id verb, ``Lobby`` method, label key, style), in the order they are shown."""


class SeatButton(GameButton, template=r"(?!x)x"):
    """A seating button: hands the click to ``Lobby.<method>``. **Add bot** also carries the lobby's version as
    drawn (``<prefix>:bot:<game>:<version>``; without it, as on a lobby drawn before: any version): a double click
    adds one seat, the second click is refused as out of date (``lobby.stale``)."""

    method: str = ""
    version: int | None = None

    def __init__(self, game_id: int, *, locale: str | None = None, version: int | None = None) -> None:
        super().__init__(game_id, locale=locale)
        self.version = version
        if version is not None and self.verb == "bot":
            self.item.custom_id = f"{self.prefix}:{self.verb}:{game_id}:{version}"

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> SeatButton:
        ver = match.groupdict().get("ver")
        return cls(int(match["game"]), version=int(ver) if ver is not None else None)

    async def run(self, interaction: discord.Interaction) -> None:
        lobby = games(interaction).lobby
        if self.verb == "bot":
            await lobby.add_ai(interaction, self.game_id, expected_version=self.version)
            return
        await getattr(lobby, self.method)(interaction, self.game_id)


_MADE: dict[tuple[str, str], tuple[type[SeatButton], ...]] = {}


def seating_items(kind: GameKind) -> tuple[type[SeatButton], ...]:
    """The seating button classes of ``kind`` (made once per prefix and mode)."""
    key = (kind.prefix, kind.seating.mode)
    if key not in _MADE:
        made = []
        for verb, method, label, style in SEAT_VERBS[kind.seating.mode]:
            attrs: dict[str, Any] = {
                "prefix": kind.prefix,
                "verb": verb,
                "method": method,
                "label_key": label,
                "style": style,
                "__doc__": f"``{kind.prefix}:{verb}:<game>``: Lobby.{method}.",
            }

            def body(namespace: dict[str, Any], attrs: dict[str, Any] = attrs) -> None:
                namespace.update(attrs)

            made.append(
                types.new_class(
                    f"{kind.prefix.title()}{verb.title()}Button",
                    (SeatButton,),
                    {
                        "template": rf"{kind.prefix}:{verb}:(?P<game>[0-9]+)"
                        + (r"(?::(?P<ver>[0-9]+))?" if verb == "bot" else "")
                    },
                    body,
                )
            )
        _MADE[key] = tuple(made)
    return _MADE[key]


def seating_view(
    kind: GameKind, game_id: int, *, locale: str | None = None, version: int | None = None
) -> discord.ui.View:
    """The seating buttons under a challenge or lobby message (``version``: the game's stored version it shows)."""
    view = discord.ui.View(timeout=None)
    for cls in seating_items(kind):
        view.add_item(cls(game_id, locale=locale, version=version))
    return view
