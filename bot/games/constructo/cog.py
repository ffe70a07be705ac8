"""``/constructo ...``: challenge, place, move, choose, board, resign, layouts, rules (and their autocomplete).

Commands only: every action goes to the game layer (``bot.games``): ``lobby.open`` for a challenge, ``play`` for
a move, a layout or a resignation. Refusals become one ephemeral answer with the rule code (the tree's error
handler). Board messages: every accepted action posts a **new** board (image + components, whose turn it is);
the previous board only loses its components; old boards stay readable as the game's history.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands

from bot.core.clock import CLOCK_HELP
from bot.core.envelope import Seat
from bot.core.names import plain
from bot.core.results import RATED_HELP, casual_extra
from bot.errors import BotError
from bot.games.constructo import puzzle_cog
from bot.games.constructo.kind import KIND, check_level
from bot.games.constructo.narration import match_of
from bot.games.constructo.payload import legal_placements, legal_steps
from bot.games.constructo.views import check_tile, layout_choices, resign_request, typed_size
from bot.i18n import image_words, t
from bot.services import challenges
from bot.ui.common import GameCog, defer, guild_locale, png_file, reply
from bot.ui.installs import anywhere
from engine.constructo import LAYOUTS, RECOMMENDED, Match, Size

if TYPE_CHECKING:
    from bot.app import TableBot

IntChoices = list[app_commands.Choice[int]]
StrChoices = list[app_commands.Choice[str]]


def placement_text(size: str, tile: int) -> str:
    """``"L5"`` from a size word/letter and a tile number (raises ``BotError`` / ``InvalidInputError``)."""
    return f"{typed_size(size).letter}{check_tile(tile)}"


def layout_name_choices(locale: discord.Locale, current: str) -> StrChoices:
    """Named layouts starting with what was typed, labelled recommended/experimental."""
    text = str(current).strip().lower()
    out = []
    for name in layout_choices():
        if text and not name.startswith(text):
            continue
        label = "ui.recommended" if name in RECOMMENDED else "ui.experimental"
        out.append(app_commands.Choice(name=f"{name} ({t(label, locale)})", value=name))
    return out[:25]


def _numbers(locale: discord.Locale, values: set[int], current: str) -> IntChoices:
    return [
        app_commands.Choice(name=t("ui.tile", locale, tile=n), value=n)
        for n in sorted(values)
        if str(n).startswith(str(current).strip())
    ][:25]


@anywhere  # also in DMs and group DMs through a user install (bot/ui/installs.py)
class ConstructoCog(
    GameCog,
    name="constructo",
    group_name="constructo",
    group_description="Play Constructo: stack chips on 9 hex tiles, build towers",
):
    """The Constructo commands."""

    kind = KIND

    def __init__(self, bot: TableBot) -> None:
        self._layouts_png: dict[str, bytes] = {}  # by language: the sheet is drawn once per language
        super().__init__(bot)

    async def _mine(self, interaction: discord.Interaction) -> tuple[Match, int] | None:
        """For autocomplete: the caller's running match here and seat (:meth:`GameCog.mine`; never raises)."""
        found = await self.mine(interaction)
        return None if found is None else (match_of(found[0]), found[1])

    # -- challenge -------------------------------------------------------------------------------------------
    @app_commands.command(name="challenge", description="Challenge someone (or me, the AI) to a Constructo match")
    @app_commands.describe(
        opponent="Who you play against (pick the bot to play the AI; leave empty: anyone may accept)",
        layout="Round 1 layout: a name (default rombo) or 9 coordinates like (0,0) (1,0) ...",
        level="AI strength when you challenge the bot",
        clock=CLOCK_HELP,
        rated=RATED_HELP,
    )
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.User | None = None,
        layout: str | None = None,
        level: Literal["easy", "medium", "hard", "perfect"] | None = None,
        clock: Literal["live", "daily", "none"] | None = None,
        rated: bool | None = None,
    ) -> None:
        loc = guild_locale(interaction)
        me = interaction.user
        options = KIND.rules.validate_options({"layout": layout})
        lvl = check_level(level)
        if opponent is None and level is not None:  # the level alone: a challenge of the AI (in a DM, the bot
            opponent = self.bot.user  # is no member to pick)
        if opponent is None:  # an open challenge: anyone but the challenger may accept it
            await self.games.lobby.open(
                interaction,
                KIND,
                options={**options, "open": True},
                seats=[Seat.of(me.display_name)],
                players=[me.id],
                title=t("cx.thread_title_open", loc, a=plain(me.display_name)),
                clock=clock,
                extra=casual_extra(rated),
            )
            return
        vs_ai = self.vs_ai(interaction, opponent)
        if level is not None and not vs_ai:  # a level is the AI's strength: for a person it would be ignored
            raise BotError("err.level_needs_ai", name=plain(opponent.display_name))
        if vs_ai:
            seats = [Seat.of(me.display_name), Seat.of(KIND.narration.ai_seat_name(lvl, 1, loc), lvl)]
        else:
            seats = [Seat.of(me.display_name), Seat.of(opponent.display_name)]
        title = t("cx.thread_title", loc, a=plain(me.display_name), b=seats[1].name)
        await self.games.lobby.open(
            interaction,
            KIND,
            options=options,
            seats=seats,
            players=[me.id, opponent.id],
            invited=None if vs_ai else opponent.id,
            title=title,
            clock=clock,
            extra=casual_extra(rated),
        )

    @challenge.autocomplete("layout")
    async def _layout_autocomplete(self, interaction: discord.Interaction, current: str) -> StrChoices:
        return layout_name_choices(interaction.locale, current)

    @app_commands.command(name="accept", description="Accept a Constructo challenge (also when its message is gone)")
    @app_commands.describe(opponent="Who challenged you (needed only when several challenges wait)")
    async def accept(self, interaction: discord.Interaction, opponent: discord.User | None = None) -> None:
        await challenges.accept(self.games, KIND, interaction, opponent.id if opponent else None)

    @app_commands.command(name="decline", description="Decline a Constructo challenge, or withdraw yours")
    @app_commands.describe(opponent="The other player (needed only when several challenges wait)")
    async def decline(self, interaction: discord.Interaction, opponent: discord.User | None = None) -> None:
        await challenges.decline(self.games, KIND, interaction, opponent.id if opponent else None)

    # -- play ------------------------------------------------------------------------------------------------
    @app_commands.command(name="place", description="Place a chip from your reserve on an empty tile")
    @app_commands.describe(tile="Empty tile number (1-9)", size="Chip size: small, medium or large")
    async def place(self, interaction: discord.Interaction, tile: int, size: str) -> None:
        record = await self.here(interaction)
        await self.games.play(interaction, record.id, placement_text(size, tile))

    @place.autocomplete("tile")
    async def _place_tile_autocomplete(self, interaction: discord.Interaction, current: str) -> IntChoices:
        found = await self._mine(interaction)
        if found is None:
            return []
        match, seat = found
        size: Size | None = None
        raw = getattr(interaction.namespace, "size", None)
        if raw:
            try:
                size = typed_size(str(raw))
            except ValueError:
                size = None
        tiles = {m.tile for m in legal_placements(match, seat) if m.tile and (size is None or m.size == size)}
        return _numbers(interaction.locale, tiles, current)

    @place.autocomplete("size")
    async def _place_size_autocomplete(self, interaction: discord.Interaction, current: str) -> StrChoices:
        found = await self._mine(interaction)
        if found is None:
            return []
        match, seat = found
        tile = getattr(interaction.namespace, "tile", None)
        moves = legal_placements(match, seat)
        sizes = sorted(
            {m.size for m in moves if m.size and (not isinstance(tile, int) or m.tile == tile)}, reverse=True
        )
        reserve = match.current_round.reserve(seat)
        text = str(current).strip().lower()
        loc = interaction.locale
        words = {s: t(f"cx.size_{s.word}", loc) for s in sizes}  # in the player's language; the value stays English
        return [
            app_commands.Choice(name=t("ui.size_option", loc, size=words[s], left=reserve[s]), value=s.word)
            for s in sizes
            if s.word.startswith(text) or words[s].lower().startswith(text) or s.letter.lower() == text
        ][:25]

    @app_commands.command(name="move", description="Move your lone chip onto an adjacent opponent's stack")
    @app_commands.rename(from_="from")
    @app_commands.describe(from_="Tile of your lone chip", to="Adjacent tile topped by an opponent's chip")
    async def move(self, interaction: discord.Interaction, from_: int, to: int) -> None:
        record = await self.here(interaction)
        await self.games.play(interaction, record.id, f"{check_tile(from_)}-{check_tile(to)}")

    @move.autocomplete("from_")
    async def _move_from_autocomplete(self, interaction: discord.Interaction, current: str) -> IntChoices:
        found = await self._mine(interaction)
        if found is None:
            return []
        match, seat = found
        return _numbers(interaction.locale, {m.src for m in legal_steps(match, seat) if m.src}, current)

    @move.autocomplete("to")
    async def _move_to_autocomplete(self, interaction: discord.Interaction, current: str) -> IntChoices:
        found = await self._mine(interaction)
        if found is None:
            return []
        match, seat = found
        src = getattr(interaction.namespace, "from", None)
        dsts = {m.dst for m in legal_steps(match, seat) if m.dst and (not isinstance(src, int) or m.src == src)}
        return _numbers(interaction.locale, dsts, current)

    @app_commands.command(name="choose", description="Round 2: choose its layout (if you did not start round 1)")
    @app_commands.describe(layout="A layout name, 'keep', or 9 coordinates like (0,0) (1,0) ...")
    async def choose(self, interaction: discord.Interaction, layout: str) -> None:
        record = await self.here(interaction)
        await self.games.play(interaction, record.id, f"layout {layout.strip() or 'keep'}")

    @choose.autocomplete("layout")
    async def _choose_autocomplete(self, interaction: discord.Interaction, current: str) -> StrChoices:
        choices = layout_name_choices(interaction.locale, current)
        if "keep".startswith(str(current).strip().lower()):
            choices.insert(0, app_commands.Choice(name=t("ui.keep", interaction.locale), value="keep"))
        return choices[:25]

    @app_commands.command(name="board", description="Show this channel's Constructo board again")
    @app_commands.describe(text="Show the board as text (only you will see it)")
    async def board(self, interaction: discord.Interaction, text: bool = False) -> None:
        from render.constructo import board_text

        snap = await self.games.shown_game(interaction.channel_id or 0, KIND, user_id=interaction.user.id)
        if text:
            body = board_text(match_of(snap), names=snap.names, words=image_words(interaction.locale))
            await reply(interaction, f"```\n{body[:1950]}\n```", ephemeral=True)
            return
        await self.games.publisher.show_board(interaction, snap)

    @app_commands.command(name="resign", description="Resign your Constructo match in this channel (you lose it)")
    async def resign(self, interaction: discord.Interaction) -> None:
        record = await self.here(interaction)
        if record.status == "lobby":  # a challenge not accepted yet: withdraw / decline it
            await self.games.lobby.decline(interaction, record.id)
            return
        await resign_request(interaction, record.id)  # the same private confirmation as the Resign button

    # -- reference -------------------------------------------------------------------------------------------
    @app_commands.command(name="layouts", description="Show every named layout")
    async def layouts(self, interaction: discord.Interaction) -> None:
        from bot.services.publish import render_png
        from render.constructo_layouts import layouts_text, render_layouts_sheet

        words = image_words(interaction.locale)  # the asker's language, as the leaderboard
        png = self._layouts_png.get(words.lang)
        if png is None:
            await defer(interaction)
            png = self._layouts_png[words.lang] = await self.games.cpu(render_png, render_layouts_sheet, words=words)
        body = layouts_text(words=words)
        await reply(interaction, f"```\n{body[:1950]}\n```", files=[png_file(png, "constructo-layouts.png")])

    @app_commands.command(name="rules", description="The rules of Constructo in short")
    async def rules(self, interaction: discord.Interaction) -> None:
        await reply(interaction, t("cx.rules", interaction.locale, layouts=", ".join(LAYOUTS)), ephemeral=True)


async def setup(bot: TableBot) -> None:
    """Extension entry point (loaded by the game layer from ``bot.games.GAMES``); also ``/puzzle``."""
    await bot.add_cog(ConstructoCog(bot))
    await puzzle_cog.setup(bot)
