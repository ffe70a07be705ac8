"""CONEX's table message: the table image (text table if drawing fails), the result card of a finished game,
the buttons under a running table, and the lobby buttons."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.core.kind import Picture
from bot.core.names import shown
from bot.games.conex import views
from bot.games.conex.narration import game_of
from bot.i18n import image_words
from engine.conex import Game

if TYPE_CHECKING:
    from bot.core.kind import Snapshot

TABLE_FILENAME = "conex-{game}-{version}.png"


def _table_text(game: Game, names: list[str], words: object = None) -> str:
    from render.conex import table_text

    return f"```\n{table_text(game, names=names, limit=1500, words=words)}\n```"  # type: ignore[arg-type]


def _result_text(game: Game, names: list[str], words: object = None) -> str:
    from render.results import conex_result_text

    # message text, not a picture: the names Markdown-escaped (as bot.i18n.t does for its templates)
    return conex_result_text(game, names=[shown(n) for n in names], words=words)  # type: ignore[arg-type]


def table_pictures(snap: Snapshot) -> list[Picture]:
    from render.conex import render_table

    game, names = game_of(snap), snap.names
    words = image_words(snap.locale)  # a public table: the server's language
    kwargs: dict[str, Any] = {"names": names, "words": words}
    removed = snap.env.extra.get("removed")
    if removed:  # after a lightning: the removed card outlined, no highlight of the (older) last placement
        card, x, y, rot = removed
        kwargs.update(highlight=None, removed=(int(card), (float(x), float(y), float(rot))))
    return [
        Picture(
            render_table,
            (game,),
            TABLE_FILENAME.format(game=snap.id, version=snap.version),
            lambda: _table_text(game, names, words),
            kwargs,
        )
    ]


def result_picture(snap: Snapshot) -> Picture | None:
    from render.results import render_conex_result

    game, names = game_of(snap), snap.names
    words = image_words(snap.locale)  # a public card: the server's language
    return Picture(
        render_conex_result,
        (game,),
        f"conex-{snap.id}-result.png",
        lambda: _result_text(game, names, words),
        {"names": names, "words": words},
    )


def table_view(snap: Snapshot) -> discord.ui.View | None:
    """My hand, Hints, Draw (or Pass on an empty pile), and Discard while discards are owed."""
    game = game_of(snap)
    if game.is_over:
        return None
    return views.table_view(
        snap.id,
        snap.version,
        pile_empty=not game.draw_pile,
        discards_pending=bool(game.pending_discards),
        locale=snap.locale,
    )
