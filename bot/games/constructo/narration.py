"""Constructo's texts: headlines of committed actions (from the engine's actions and events), the status line,
the challenge message and the headline of a recovered board."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.i18n import t
from engine.constructo import Match
from engine.constructo.events import LayoutChosen, Resigned, TimedOut
from engine.protocol import Event

if TYPE_CHECKING:
    from bot.games.base import Snapshot
    from bot.storage.records import ActionRecord


def match_of(snap: Snapshot) -> Match:
    state = snap.require_state()
    assert isinstance(state, Match)
    return state


def narrate(snap: Snapshot, actions: Sequence[tuple[int, str]], events: Sequence[Event]) -> str:
    """One line per action: a move (``cx.played``: its notation), round 2's layout (M1), a resignation (M3) or
    a timeout."""
    loc, names = snap.locale, snap.names
    lines: list[str] = []
    by_player = {getattr(e, "player", None): e for e in events if isinstance(e, LayoutChosen | Resigned | TimedOut)}
    for seat, text in actions:
        event = by_player.get(seat)
        if isinstance(event, LayoutChosen):
            lines.append(t("cx.layout_chosen", loc, name=names[seat], layout=event.layout.to_text()))
        elif isinstance(event, Resigned):
            lines.append(t("cx.resigned", loc, name=names[seat]))
        elif isinstance(event, TimedOut):
            lines.append(t("cx.timed_out", loc, name=names[seat]))
        else:
            lines.append(t("cx.played", loc, name=names[seat], move=text))
    return "\n".join(lines)


def started(snap: Snapshot) -> str:
    """``Constructo match started on layout ...`` (against the AI: its level, not rated)."""
    layout = snap.env.options.get("layout", "?")
    level = next((s.ai for s in snap.env.seats if s.ai), None)
    if level is not None:
        return t("cx.started_ai", snap.locale, layout=layout, level=level)
    return t("cx.started", snap.locale, layout=layout)


def challenge_text(snap: Snapshot) -> str:
    return t("cx.challenge", snap.locale, opponent=f"<@{snap.env.invited}>", challenger=snap.names[0],
             layout=snap.env.options.get("layout", "?"))


def last_headline(snap: Snapshot, last: ActionRecord | None) -> str:
    """The headline of the game's last logged action (who played what), for a recovered board."""
    loc, names = snap.locale, snap.names
    if last is None:
        return started(snap) if snap.has_ai else t("cx.board", loc)
    who = names[snap.players.index(last.player)] if last.player in snap.players else "?"
    if last.action == "accept":
        return started(snap)
    if last.action.startswith("layout "):
        return t("cx.layout_chosen", loc, name=who, layout=last.action.removeprefix("layout "))
    if last.action in ("forfeit", "resign"):  # "resign": logged by bots before the game protocol
        return t("cx.resigned", loc, name=who)
    if last.action == "timeout":
        return t("cx.timed_out", loc, name=who)
    return t("cx.played", loc, name=who, move=last.action)


def status_line(snap: Snapshot) -> str:
    """Whose turn it is, who chooses round 2's layout, or how the match ended."""
    loc, names = snap.locale, snap.names
    if snap.status == "aborted":
        return t("cx.aborted", loc)
    match = match_of(snap)
    a, b = match.totals()
    if match.is_over:
        if match.resigned is not None:
            loser = match.resigned
            return t("cx.over_resigned", loc, loser=names[loser], winner=names[1 - loser], a=a, b=b)
        if match.winner is None:
            return t("cx.over_draw", loc, a=a, b=b)
        return t("cx.over_win", loc, winner=names[match.winner], a=a, b=b, name0=names[0], name1=names[1])
    seat = match.current_player
    assert seat is not None
    if match.phase == "choosing_layout":
        return t("cx.choose_layout", loc, who=snap.who(seat), a=a, b=b)
    return t("cx.to_move", loc, who=snap.who(seat), round=match.round_no)
