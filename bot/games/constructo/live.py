"""Constructo on the live table (``bot/web/``): the page's view (the layout's hex cells, the stacks, the
reserves, the legal moves of the seat to act in the game's own notation) and a tap's action (``"L5"``,
``"3-4"``, a layout name in round 2's choice). Legal targets are the engine's ``legal_moves``: the page only
highlights what the engine lists."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bot.errors import BotError
from bot.games.constructo.narration import match_of
from bot.games.constructo.views import layout_choices
from engine.errors import InvalidInputError

if TYPE_CHECKING:
    from bot.core.kind import Snapshot


def view(snap: Snapshot, seat: int | None, locale: str | None) -> dict[str, Any]:
    """The current round (layout cells ``(q, r)`` by tile 1-9, stacks bottom first as ``[owner, size]``,
    reserves, scores), the match totals, the phase, whose turn, and ``legal``: the seat's legal moves in notation
    (empty unless it is to act)."""
    match = match_of(snap)
    rnd = match.current_round
    data = rnd.to_dict()
    to_act = match.current_player
    legal: list[str] = []
    layouts: list[str] = []
    if seat is not None and to_act == seat and not match.is_over:
        if match.phase == "playing":
            legal = [str(m) for m in rnd.legal_moves()]
        elif match.phase == "choosing_layout":
            layouts = ["keep", *layout_choices()]
    return {
        "round": match.round_no,
        "phase": match.phase,
        "current_player": to_act,
        "cells": [list(c) for c in rnd.layout.cells],
        "layout": rnd.layout.name,
        "tiles": data["tiles"],
        "reserves": data["reserves"],
        "score": data["score"],
        "totals": list(match.totals()),
        "over": match.is_over,
        "legal": legal,
        "layouts": layouts,
    }


def action(snap: Snapshot, seat: int, payload: Mapping[str, Any]) -> tuple[Any, dict[str, Any]]:
    """``{"type": "move", "move": "L5" | "3-4"}`` or ``{"type": "layout", "layout": name}`` -> the action text
    the commands use. Raises ``InvalidInputError`` for anything else (the engine refuses illegal moves)."""
    kind = payload.get("type")
    text = str(payload.get("move") or payload.get("layout") or "").strip()[:60]
    if kind == "move" and text:
        return text, {}
    if kind == "layout" and text:
        return f"layout {text}", {}
    if kind is None:
        raise InvalidInputError("no move given", reason="no_move")
    raise BotError("live.bad_message")


class ConstructoLive:
    """The adapter (``bot.web.adapter.LiveGame``); no pose preview: the legal targets come with the view."""

    view = staticmethod(view)
    action = staticmethod(action)
    check = None


LIVE = ConstructoLive()
