"""Constructo's board message: the board image (text twin if drawing fails), the result card of a finished
match, and the components under the board (per-size placement selects, the move select, the layout select of
round 2, Resign)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.core.kind import Picture
from bot.core.names import shown
from bot.games.constructo.narration import match_of
from bot.games.constructo.views import board_view as make_board_view
from bot.i18n import image_words
from bot.ui.offers import board_items
from engine.constructo import Match, Move

if TYPE_CHECKING:
    from bot.core.kind import Snapshot

BOARD_FILENAME = "constructo-{game}-{version}.png"


def _board_text(match: Match, names: list[str], words: object = None) -> str:
    from render.constructo import board_text

    return f"```\n{board_text(match, names=names, words=words)}\n```"  # type: ignore[arg-type]


def _result_text(match: Match, names: list[str], words: object = None) -> str:
    from render.results import constructo_result_text

    # message text, not a picture: the names Markdown-escaped (as bot.i18n.t does for its templates)
    return constructo_result_text(match, names=[shown(n) for n in names], words=words)  # type: ignore[arg-type]


def board_pictures(snap: Snapshot) -> list[Picture]:
    from render.constructo import render_board

    match, names = match_of(snap), snap.names
    words = image_words(snap.locale)  # a public board: the server's language
    return [
        Picture(
            render_board,
            (match,),
            BOARD_FILENAME.format(game=snap.id, version=snap.version),
            lambda: _board_text(match, names, words),
            {"names": names, "words": words},
        )
    ]


def result_picture(snap: Snapshot) -> Picture | None:
    from render.results import render_constructo_result

    match, names = match_of(snap), snap.names
    words = image_words(snap.locale)  # a public card: the server's language
    return Picture(
        render_constructo_result,
        (match,),
        f"constructo-{snap.id}-result.png",
        lambda: _result_text(match, names, words),
        {"names": names, "words": words},
    )


def legal_placements(match: Match, seat: int) -> list[Move]:
    """Legal placements for ``seat`` if it is to move (else empty), sizes large first."""
    if match.phase != "playing" or match.current_player != seat:
        return []
    moves = [m for m in match.current_round.legal_moves() if m.is_place]
    return sorted(moves, key=lambda m: (-int(m.size or 0), m.tile or 0))


def legal_steps(match: Match, seat: int) -> list[Move]:
    """Legal moves (chip steps) for ``seat`` if it is to move (else empty), by source tile."""
    if match.phase != "playing" or match.current_player != seat:
        return []
    moves = [m for m in match.current_round.legal_moves() if not m.is_place]
    return sorted(moves, key=lambda m: (m.src, m.dst))


def board_view(snap: Snapshot) -> discord.ui.View | None:
    """The components of a running match's board: the player to act (a human) gets the legal placements, moves
    or the layout select; while the AI is to act only Resign is left."""
    match = match_of(snap)
    seat = match.current_player
    human = seat is not None and not snap.is_ai(seat)
    placements: list[Move] = []
    steps: list[Move] = []
    if human and seat is not None:
        placements = legal_placements(match, seat)
        steps = legal_steps(match, seat)
    return make_board_view(
        snap.id, snap.version, match, placements, steps, human_to_act=human, locale=snap.locale, extra=board_items(snap)
    )
