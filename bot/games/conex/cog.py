"""``/conex ...``: new, join, addbot, start, hand, place, hints, draw, pass, lightning, discard, board, leave, rules.

Commands only: seats go to the layer's lobby, actions to ``layer.play`` (a public action whose commit takes
longer than ``bot.services.delivery.DEFER_AFTER_S`` is deferred meanwhile), private answers to ``private.py``.
Every accepted action posts a **new** table message (image + buttons); the previous table only loses its
components. Hands are never posted publicly; a finished game's last table also carries the result card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands

from bot.core.clock import CLOCK_HELP
from bot.core.envelope import Seat
from bot.core.kind import Snapshot
from bot.core.names import plain
from bot.core.results import RATED_HELP, casual_extra
from bot.errors import BotError
from bot.first_response import PRIVATE_ANSWER
from bot.games.conex import private
from bot.games.conex.kind import KIND
from bot.games.conex.letters import letters_of
from bot.games.conex.narration import game_of
from bot.games.conex.placing import parse_card_ref, parse_target, resolve_place, targets
from bot.games.conex.views import card_label, colour_name
from bot.i18n import image_words, t
from bot.services.looks import look_of
from bot.services.publish import render_png
from bot.ui.common import GameCog, defer, fill, guild_locale, png_file, reply
from engine.conex import Discard, Game
from engine.errors import RuleError

if TYPE_CHECKING:
    from bot.app import TableBot
    from bot.core.changes import Committed

StrChoices = list[app_commands.Choice[str]]
Coord = app_commands.Range[float, -100.0, 100.0]
Degrees = app_commands.Range[float, -360.0, 360.0]


ZOOM_WORDS = {"última": "last", "ultima": "last", "mesa": "table"}
"""The Spanish words for ``/conex board zoom:`` (the autocomplete sends ``last`` / ``table``)."""


def table_choices(game: Game, current: str, locale: discord.Locale, *, board: bool, free_only: bool) -> StrChoices:
    """Autocomplete choices over visible table cards (newest first) and the board; at most 25."""
    text = str(current).strip().lower().lstrip("#")
    out: StrChoices = []
    if board and (not text or "board".startswith(text)):
        out.append(app_commands.Choice(name=t("cn.the_board", locale), value="board"))
    for tc in reversed(game.table):
        if free_only and not game.board.is_free(tc.card.id):
            continue
        plus = " +2" if tc.card.action == "plus2" else ""
        label = f"#{tc.card.id} {colour_name(tc.card.color, locale.value)}{plus}"
        if not text or str(tc.card.id).startswith(text) or text in label.lower():
            out.append(app_commands.Choice(name=label[:100], value=str(tc.card.id)))
    return out[:25]


@app_commands.guild_only()
class ConexCog(
    GameCog,
    name="conex",
    group_name="conex",
    group_description="Play CONEX: place cards so their corners match colours, score points",
):
    """The CONEX commands."""

    kind = KIND

    async def _mine(self, interaction: discord.Interaction) -> tuple[Game, int, dict[str, Any]] | None:
        """For autocomplete: the caller's running game here, seat and the envelope's ``extra`` (the start commit fixed
        the deal and its commitment; :meth:`GameCog.mine`: never raises)."""
        found = await self.mine(interaction)
        if found is None:
            return None
        snap, seat = found
        return game_of(snap), seat, snap.env.extra

    # -- lobby -----------------------------------------------------------------------------------------------
    @app_commands.command(name="new", description="Open a CONEX lobby in this channel (2-4 players)")
    @app_commands.describe(
        table="Table size (small 70x50, medium 100x70, large 140x90 cm)",
        goal="Points to reach (20-100, default 40)",
        clock=CLOCK_HELP,
        rated=RATED_HELP,
    )
    async def new(
        self,
        interaction: discord.Interaction,
        table: Literal["small", "medium", "large"] = "medium",
        goal: app_commands.Range[int, 20, 100] = 40,
        clock: Literal["live", "daily", "none"] | None = None,
        rated: bool | None = None,
    ) -> None:
        """Open a lobby here (in a new thread when the channel is busy); the lobby message is stored."""
        loc = guild_locale(interaction)
        me = interaction.user
        options = KIND.rules.validate_options({"table": table, "goal": goal})
        await self.games.lobby.open(
            interaction,
            KIND,
            options=options,
            seats=[Seat.of(me.display_name)],
            players=[me.id],
            title=t("cn.thread_title", loc, host=plain(me.display_name)),
            clock=clock,
            extra=casual_extra(rated),
        )

    @app_commands.command(name="join", description="Join this channel's CONEX lobby")
    async def join(self, interaction: discord.Interaction) -> None:
        await self.games.lobby.join(interaction, (await self.here(interaction)).id)

    @app_commands.command(name="addbot", description="Host: add an AI player to the CONEX lobby")
    @app_commands.describe(level="AI strength: easy (for beginners), medium or hard")
    async def addbot(
        self, interaction: discord.Interaction, level: Literal["easy", "medium", "hard"] | None = None
    ) -> None:
        if level is not None and level not in KIND.seating.ai_levels:
            raise BotError("err.bad_level", level=level, levels=", ".join(KIND.seating.ai_levels))
        await self.games.lobby.add_ai(interaction, (await self.here(interaction)).id, level)

    @app_commands.command(name="start", description="Host: start this channel's CONEX game")
    async def start(self, interaction: discord.Interaction) -> None:
        await self.games.lobby.start(interaction, (await self.here(interaction)).id)

    @app_commands.command(name="leave", description="Leave the lobby, or forfeit the running CONEX game")
    async def leave(self, interaction: discord.Interaction) -> None:
        await private.leave(interaction, (await self.here(interaction)).id)

    # -- play ------------------------------------------------------------------------------------------------
    @app_commands.command(name="hand", description="See your CONEX hand (only you see it)", extras=PRIVATE_ANSWER)
    async def hand(self, interaction: discord.Interaction) -> None:
        await private.hand(interaction, (await self.running(interaction)).id)

    @app_commands.command(name="place", description="Place a card from your hand (exact pose or auto-fit)")
    @app_commands.describe(
        card="Your card: hand letter (A, B...) or card number",
        corner="Which CONEX corner of the card (1-3, as printed)",
        x="Where the corner lands: x in cm from the board centre (right is +)",
        y="Where the corner lands: y in cm from the board centre (down is +)",
        rotation="Card rotation in degrees clockwise (default: the best legal one)",
        target="Table card number the corner goes on, or 'board' (auto-fit when x/y are omitted)",
        double="Use your 2x star on this placement",
    )
    async def place(
        self,
        interaction: discord.Interaction,
        card: str,
        corner: app_commands.Range[int, 1, 3],
        x: Coord | None = None,
        y: Coord | None = None,
        rotation: Degrees | None = None,
        target: str | None = None,
        double: bool = False,
    ) -> None:
        snap = await self.running_game(interaction)
        await self.games.perform(
            interaction,
            self._place(
                snap,
                interaction.user.id,
                card=card,
                corner=corner,
                x=x,
                y=y,
                rotation=rotation,
                target=target,
                double=double,
            ),
        )

    async def _place(self, snap: Snapshot, user_id: int, **kwargs: Any) -> Committed:
        """Resolve the pose on the loaded game (the finder, off the loop), then commit it on that same state when
        the game has not moved meanwhile (re-checked in the lock otherwise). A slash command carries no version:
        another seat's discard committing meanwhile does not refuse it."""
        seat = snap.seat_of(user_id)
        game = game_of(snap)
        try:
            place, target = await self.games.cpu(
                resolve_place, game, seat, **kwargs, letters=letters_of(snap.env.extra, game, seat)
            )
        except RuleError as err:
            raise KIND.rules.refine(snap, game, err) from err
        return await self.games.act(snap.id, user_id, place, request={"target": target}, base=snap)

    @place.autocomplete("card")
    async def _card_autocomplete(self, interaction: discord.Interaction, current: str) -> StrChoices:
        return await self._hand_choices(interaction, current)

    async def _hand_choices(self, interaction: discord.Interaction, current: str) -> StrChoices:
        """The caller's hand as choices ``"A · #12 red +2 · 1:Y4 2:P3"`` -> card number (at most 25)."""
        found = await self._mine(interaction)
        if found is None:
            return []
        game, seat, extra = found
        letters = letters_of(extra, game, seat)
        text = str(current).strip().lower().lstrip("#")
        out = []
        for c in game.hand(seat):
            label = card_label(c, letters[c.id], interaction.locale.value)
            if not text or text in label.lower() or str(c.id).startswith(text):
                out.append(app_commands.Choice(name=label, value=str(c.id)))
        return out[:25]

    @place.autocomplete("target")
    async def _target_autocomplete(self, interaction: discord.Interaction, current: str) -> StrChoices:
        """Once the card and corner are chosen, only the targets where that corner has a legal pose (the finder,
        off the loop); before that, the board and every table card."""
        found = await self._mine(interaction)
        if found is None:
            return []
        game, seat, extra = found
        choices = table_choices(game, current, interaction.locale, board=True, free_only=False)
        ns = interaction.namespace
        try:
            ref = getattr(ns, "card", None) or ""
            card = parse_card_ref(game, seat, ref, letters_of(extra, game, seat), acting=None)
            corner = int(getattr(ns, "corner", 0) or 0)
            if card not in game.hands[seat] or corner not in [c.index for c in game.deck[card].corners]:
                return choices
            fits = {str(t) for t in await self.games.cpu(targets, game, seat, card, corner)}
        except (RuleError, ValueError, TypeError):
            return choices
        return [c for c in choices if c.value in fits]

    @app_commands.command(
        name="hints", description="Private preview of good legal placements for your hand", extras=PRIVATE_ANSWER
    )
    async def hints(self, interaction: discord.Interaction) -> None:
        await private.hints(interaction, (await self.running(interaction)).id)

    @app_commands.command(name="draw", description="Draw two cards from the draw pile (ends your turn)")
    async def draw(self, interaction: discord.Interaction) -> None:
        await self.games.play(interaction, (await self.running(interaction)).id, "draw")

    @app_commands.command(name="pass", description="Pass your turn (only when the draw pile is empty)")
    async def pass_(self, interaction: discord.Interaction) -> None:
        await self.games.play(interaction, (await self.running(interaction)).id, "pass")

    @app_commands.command(name="lightning", description="Use your lightning star: remove a free table card")
    @app_commands.describe(card="Number of a free card on the table")
    async def lightning(self, interaction: discord.Interaction, card: app_commands.Range[int, 1, 52]) -> None:
        await self.games.play(interaction, (await self.running(interaction)).id, f"lightning {card}")

    @lightning.autocomplete("card")
    async def _lightning_autocomplete(self, interaction: discord.Interaction, current: str | int) -> list[Any]:
        found = await self._mine(interaction)
        if found is None:
            return []
        return [
            app_commands.Choice(name=c.name, value=int(c.value))
            for c in table_choices(found[0], str(current or ""), interaction.locale, board=False, free_only=True)
        ]

    @app_commands.command(name="discard", description="Discard a card after a lightning (to the bottom of the pile)")
    @app_commands.describe(card="Your card: hand letter (A, B...) or card number")
    async def discard(self, interaction: discord.Interaction, card: str) -> None:
        snap = await self.running_game(interaction)
        game, seat = game_of(snap), snap.seat_of(interaction.user.id)
        try:
            card_id = parse_card_ref(game, seat, card, letters_of(snap.env.extra, game, seat), acting=Discard)
        except RuleError as err:
            raise KIND.rules.refine(snap, game, err) from err
        await self.games.play(interaction, snap.id, f"discard {card_id}", base=snap)

    @discard.autocomplete("card")
    async def _discard_autocomplete(self, interaction: discord.Interaction, current: str) -> StrChoices:
        return await self._hand_choices(interaction, current)

    @app_commands.command(name="board", description="Show this channel's CONEX table again")
    @app_commands.describe(
        text="Show the table as text (only you will see it)",
        zoom="Zoom on a table card number, 'last' or 'table' (only you will see it)",
    )
    async def board(self, interaction: discord.Interaction, text: bool = False, zoom: str | None = None) -> None:
        from render.conex import render_table, table_text, zoom_words

        snap = await self.games.shown_game(interaction.channel_id or 0, self.kind, user_id=interaction.user.id)
        game = game_of(snap)
        if text:
            words = image_words(interaction.locale)
            shown = table_text(game, names=snap.names, limit=1900, words=words)
            await reply(interaction, f"```\n{shown}\n```", ephemeral=True)
            return
        if zoom is not None:
            word = ZOOM_WORDS.get(zoom.strip().lower(), zoom.strip().lower())
            focus: int | str = (word if word in ("last", "table") else parse_target(zoom)) or "table"
            if isinstance(focus, int) and focus not in [tc.card.id for tc in game.table]:
                raise BotError("cn.not_on_table", rule="Input", card=focus)
            self.games.fair.check(interaction, "zoom")
            await defer(interaction, ephemeral=True)
            words = image_words(interaction.locale)  # a private view: the clicker's language
            look = await look_of(self.games.storage, interaction.user.id)  # private: the player's own look
            png = await self.games.cpu(
                render_png, render_table, game, names=snap.names, zoom=focus, words=words, **look.kwargs()
            )
            await fill(
                interaction,
                t("cn.zoom", interaction.locale, zoom=zoom_words(focus, words)),
                ephemeral=True,
                files=[png_file(png, f"conex-{snap.id}-zoom.png")],
            )
            return
        await self.games.publisher.show_board(interaction, snap)

    @board.autocomplete("zoom")
    async def _zoom_autocomplete(self, interaction: discord.Interaction, current: str) -> StrChoices:
        found = await self._mine(interaction)
        if found is None:
            return []
        choices = [
            app_commands.Choice(name=t("cn.zoom_last", interaction.locale), value="last"),
            app_commands.Choice(name=t("cn.zoom_table", interaction.locale), value="table"),
        ]
        return (choices + table_choices(found[0], current, interaction.locale, board=True, free_only=False))[:25]

    @app_commands.command(name="rules", description="The rules of CONEX in short")
    async def rules(self, interaction: discord.Interaction) -> None:
        await reply(interaction, t("cn.rules", interaction.locale), ephemeral=True)


async def setup(bot: TableBot) -> None:
    """Extension entry point (loaded by the game layer from ``bot.games.GAMES``)."""
    await bot.add_cog(ConexCog(bot))
