"""CONEX's private answers and the forfeit: My hand, Hints (one preview per hint; off-turn too, read only), the
discard select (X3),
and ``/conex leave`` (the lobby: leave; a running game: a private confirmation, then the engine's ``Forfeit``).
Hands are never posted publicly. Finder and drawing work run through the layer's CPU seam."""

from __future__ import annotations

from typing import Any

import discord

from bot.errors import BotError
from bot.games.conex.fairness import commitment_first, proof_text
from bot.games.conex.letters import letters_of
from bot.games.conex.narration import game_of
from bot.games.conex.placing import cm, legal_counts
from bot.games.conex.placing import hints as find_hints
from bot.games.conex.views import PRIVATE, discard_view, forfeit_view, hints_view
from bot.i18n import image_words, t
from bot.services.looks import look_of
from bot.services.publish import render_png
from bot.services.refusals import fill_fitting
from bot.ui.common import defer, fill, games, png_file, reply
from engine.conex import Draw, Pass
from engine.errors import NotYourTurnError, RuleError

BOARD_ZOOM_CM = (14.0, 9.0)  # hints whose corner points all lie within this of the centre: zoom on the board


def split_text(text: str, limit: int = 2000) -> list[str]:
    """``text`` in pieces of at most ``limit`` characters (Discord's message content limit), cut between lines
    (a single over-long line is cut hard). Always at least one piece."""
    parts: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:
            if current:
                parts.append(current)
                current = ""
            parts.append(line[:limit])
            line = line[limit:]
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            parts.append(current)
            current = line
        else:
            current = candidate
    parts.append(current)
    return parts


async def hand(interaction: discord.Interaction, game_id: int) -> None:
    """The caller's hand, privately: image with legal placement counts (computed off the loop), the text twin,
    and the discard select when a discard is owed (X3)."""
    layer = games(interaction)
    ticket = layer.fair.admit(interaction, "hand")  # refused at once past the cooldown (fairshare.py)
    async with ticket:
        await _hand(interaction, layer, ticket, game_id)


async def _hand(interaction: discord.Interaction, layer: Any, ticket: Any, game_id: int) -> None:
    from render.conex import hand_text, render_hand

    snap = await layer.playing(game_id)  # a finished game's hand offers no placements
    seat = snap.seat_of(interaction.user.id)
    game = game_of(snap)
    await defer(interaction, ephemeral=True)
    await ticket.turn()
    counts = await layer.cpu(legal_counts, game, seat)
    letters = letters_of(snap.env.extra, game, seat)
    words = image_words(interaction.locale)  # the hand speaks the clicker's language, text and picture
    text = commitment_first(snap, interaction.locale) + hand_text(
        game, seat, legal_counts=counts, letters=letters, words=words
    )
    if not game.hands[seat]:  # an empty hand: its text, no blank picture
        await fill(interaction, text, ephemeral=True)
        return
    look = await look_of(layer.storage, interaction.user.id)  # a private picture: the player's own look
    png = await layer.cpu(
        render_png, render_hand, game, seat, legal_counts=counts, letters=letters, words=words, **look.kwargs()
    )
    kwargs: dict[str, Any] = {}
    if seat in game.pending_discards and game.hands[seat]:
        kwargs["view"] = discard_view(snap.id, game.hand(seat), locale=interaction.locale.value, letters=letters)
        text += "\n" + t("cn.must_discard", interaction.locale)
    first, *more = split_text(text)  # a big hand (27+ cards) does not fit one message: never cut it
    hand_file = png_file(png, f"conex-hand-{snap.id}.png")  # smaller, or left out, past the upload limit
    await fill_fitting(interaction, first, ephemeral=True, files=[hand_file], cpu=layer.cpu, **kwargs)
    for part in more:
        await reply(interaction, part, ephemeral=True)


def hint_texts(
    game: Any, seat: int, found: list[Any], letters: dict[int, str], loc: Any
) -> tuple[list[str], list[str]]:
    """``(labels, lines)`` of the hints: the image caption of each tile (hand letter, card, corner, target, points)
    and the message line of each (the same, with the pose and the 2x option)."""
    labels, lines = [], []
    for n, h in enumerate(found, start=1):
        target = t("cn.the_board", loc) if h.target == "board" else f"#{h.target}"
        short = image_words(loc)("cn.hint_board") if h.target == "board" else target  # a narrow caption
        letter = letters.get(h.place.card, "?")
        labels.append(
            t(
                "cn.hint_label",
                loc,
                letter=letter,
                card=h.place.card,
                corner=h.place.corner,
                target=short,
                points=h.points,
            )
        )
        line = t(
            "cn.hint_line",
            loc,
            n=n,
            letter=letter,
            card=h.place.card,
            corner=h.place.corner,
            target=target,
            x=cm(h.place.x),
            y=cm(h.place.y),
            rot=f"{(h.place.rotation or 0.0) % 360:.0f}",
            points=h.points,
        )
        if h.double_points is not None:
            line += t("cn.hint_with_2x", loc, points=h.double_points, n=n)
        lines.append(line)
    return labels, lines


async def hints(interaction: discord.Interaction, game_id: int) -> None:
    """Up to 9 legal placements, one small preview tile per hint (``render.conex_hints``), privately, with buttons to
    play them (and to play them with the 2x star when the seat holds it). Off-turn the same list, read only, to plan
    ahead."""
    layer = games(interaction)
    ticket = layer.fair.admit(interaction, "hints")  # refused at once past the cooldown (fairshare.py)
    async with ticket:
        await _hints(interaction, layer, ticket, game_id)


async def _hints(interaction: discord.Interaction, layer: Any, ticket: Any, game_id: int) -> None:
    from render.conex import render_hints

    snap = await layer.playing(game_id)
    seat = snap.seat_of(interaction.user.id)
    game = game_of(snap)
    plan = False
    try:  # pending discard / over / left: refused before any work; not your turn: hints to plan, read only
        game.check(Draw(seat) if game.draw_pile else Pass(seat))
    except NotYourTurnError as err:
        if seat in game.forfeited or game.is_over:
            raise snap.kind.rules.refine(snap, game, err) from err
        plan = True
    except RuleError as err:
        raise snap.kind.rules.refine(snap, game, err) from err
    await defer(interaction, ephemeral=True)
    await ticket.turn()
    found = await layer.cpu(find_hints, game, seat, plan=plan)
    loc = interaction.locale
    if not found:
        await fill(interaction, t("cn.no_hints", loc), ephemeral=True)
        return
    letters = letters_of(snap.env.extra, game, seat)
    labels, lines = hint_texts(game, seat, found, letters, loc)
    marks = [letters.get(h.place.card, "") for h in found]  # each ghost carries its hand letter
    look = await look_of(layer.storage, interaction.user.id)  # a private picture: the player's own look
    png = await layer.cpu(
        render_png, render_hints, game, found, labels=labels, marks=marks, words=image_words(loc), **look.kwargs()
    )
    head = commitment_first(snap, loc) + t("cn.hints_off_turn" if plan else "cn.hints", loc)
    content = head + "\n" + "\n".join(lines)
    kwargs: dict[str, Any] = {} if plan else {"view": hints_view(snap.id, snap.version, found, locale=loc.value)}
    first, *more = split_text(content)
    hints_file = png_file(png, f"conex-hints-{snap.id}.png")  # smaller, or left out, past the upload limit
    await fill_fitting(interaction, first, ephemeral=True, files=[hints_file], cpu=layer.cpu, **kwargs)
    for part in more:
        await reply(interaction, part, ephemeral=True)


async def discard_prompt(interaction: discord.Interaction, game_id: int) -> None:
    """The Discard button: the caller's private discard select, if they owe one (X3)."""
    snap = await games(interaction).playing(game_id)
    seat = snap.seat_of(interaction.user.id)
    game = game_of(snap)
    if seat not in game.pending_discards or not game.hands[seat]:
        raise BotError("cn.no_discard", rule="X3")
    await reply(
        interaction,
        t("cn.must_discard", interaction.locale),
        ephemeral=True,
        view=discard_view(
            snap.id, game.hand(seat), locale=interaction.locale.value, letters=letters_of(snap.env.extra, game, seat)
        ),
    )


async def leave(interaction: discord.Interaction, game_id: int) -> None:
    """Leave the lobby (the host closes it); in a running game, a private confirmation of the forfeit first."""
    layer = games(interaction)
    record = await layer.record(game_id)
    if record.status != "active":
        await layer.lobby.leave(interaction, game_id)
        return
    snap = layer.snapshot(record)  # a running game: confirm the forfeit privately first
    seat = snap.seat_of(interaction.user.id)
    if seat in game_of(snap).forfeited:
        raise BotError("cn.forfeited")
    await reply(
        interaction,
        t("cn.confirm_forfeit", interaction.locale),
        ephemeral=True,
        view=forfeit_view(game_id, locale=interaction.locale.value),
    )


async def forfeit(interaction: discord.Interaction, game_id: int) -> None:
    """The confirmed forfeit (the engine's ``Forfeit``: hand to the pile bottom, turns skipped, ranked last)."""
    await games(interaction).play(interaction, game_id, "forfeit")


async def fair(interaction: discord.Interaction, game_id: int) -> None:
    """How do I know the deal was fair? (anyone who sees the table may ask): the proof in words, privately, with
    the fingerprint, and the seed once the game is over (``fairness.proof_text``). Changes nothing."""
    snap = await games(interaction).load(game_id)
    await reply(
        interaction, proof_text(game_of(snap), interaction.locale, revealed=snap.status != "active"), ephemeral=True
    )


PRIVATE.update(hand=hand, hints=hints, discard_prompt=discard_prompt, forfeit=forfeit, fair=fair)
