"""CONEX's texts: what happened (from the engine's typed events; hidden cards never named), the status line, the
lobby message, the start line and the headline of a recovered table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot.core.names import listed
from bot.games.conex.fairness import commitment_line, deal_public, reveal_line
from bot.i18n import t, tn
from engine.conex import Game
from engine.conex import events as ev
from engine.protocol import Event

if TYPE_CHECKING:
    from bot.core.kind import Snapshot
    from bot.storage.records import ActionRecord


def game_of(snap: Snapshot) -> Game:
    """The engine ``Game`` of a started game (``BotError("err.not_started")`` in the lobby)."""
    state = snap.require_state()
    assert isinstance(state, Game)
    return state


_WORD_KEYS = {
    "card": "img.rp.cn_face_card",
    "two cards": "img.rp.cn_face_two",
    "lightning": "img.rp.cn_face_lightning",
    "2x": "img.rp.cn_face_2x",
    "small": "img.rp.cn_size_small",
    "medium": "img.rp.cn_size_medium",
    "large": "img.rp.cn_size_large",
}
"""The engine's die faces, star names and table sizes (English data) -> their words in the catalogues."""


_TAKEN = {"supply": "cn.ev_star", "kept": "cn.ev_star_kept", "from": "cn.ev_star_from"}
"""A die's star (``StarTaken.how``) -> its line (a record's move list: ``rp.cn_takes*``, ``rp.cn_keeps``)."""


def word(value: object, loc: Any) -> str:
    """A die face (``"two cards"``), star (``"lightning"``) or table size (``"medium"``) in ``loc``'s words."""
    key = _WORD_KEYS.get(str(value))
    return t(key, loc) if key is not None else str(value)


def events_text(snap: Snapshot, events: Sequence[Event]) -> str:
    """One line per event worth telling (``engine/conex/events.py``), in order."""
    loc, names = snap.locale, snap.names
    lines: list[str] = []
    for e in events:
        if isinstance(e, ev.Placed):
            on = t("cn.the_board", loc) if e.target == "board" else f"#{e.target}"
            key = "cn.ev_placed_double" if e.doubled else "cn.ev_placed"
            lines.append(t(key, loc, name=names[e.player], card=e.card, corner=e.corner, target=on, points=e.points))
        elif isinstance(e, ev.DieRolled):
            lines.append(t("cn.ev_die", loc, name=names[e.player], face=word(e.face, loc)))
        elif isinstance(e, ev.Drew):
            lines.append(tn("cn.ev_drew", e.count, loc, name=names[e.player], count=e.count))
        elif isinstance(e, ev.StarTaken):  # the record's move list tells the same ``how`` (render/conex_replay.py)
            prev = names[e.from_] if e.from_ is not None else ""
            lines.append(t(_TAKEN[e.how], loc, name=names[e.player], star=word(e.star, loc), prev=prev))
        elif isinstance(e, ev.Passed):
            lines.append(t("cn.ev_passed", loc, name=names[e.player]))
        elif isinstance(e, ev.CardRemoved):
            lines.append(t("cn.ev_lightning", loc, name=names[e.player], card=e.card))
        # DiscardsPending: not told here; the status line's "waiting for discards" says who and how, once
        elif isinstance(e, ev.Discarded):
            key = "cn.ev_discard_timeout" if e.random else "cn.ev_discarded"
            lines.append(t(key, loc, name=names[e.player]))
        elif isinstance(e, ev.TimedOut) and e.what == "turn":
            lines.append(t("cn.ev_turn_timeout", loc, name=names[e.player], count=e.count, limit=e.limit))
        elif isinstance(e, ev.GoalReached):
            lines.append(t("cn.ev_goal", loc, name=names[e.player], score=e.score))
        elif isinstance(e, ev.Forfeited):
            lines.append(t("cn.ev_forfeit", loc, name=names[e.player]))
        # TurnSkipped: not told; a seat that left is said once, by its Forfeited line ("their seat is skipped")
        # GameOver: not told here; the status line under this headline says it once, with why and who won
    return "\n".join(lines)


def status_line(snap: Snapshot) -> str:
    """Whose turn it is, the scores and pending discards; or the final result."""
    loc, names = snap.locale, snap.names
    if snap.status == "aborted":
        return t("cn.aborted", loc)
    game = game_of(snap)
    gone = game.forfeited
    scores = " · ".join(
        t("cn.score_item", loc, name=names[s], score=game.scores[s])
        + (" " + t("cn.forfeited_mark", loc) if s in gone else "")
        for s in range(game.players)
    )
    if game.outcome is not None:
        winners = listed((names[w] for w in game.outcome.winners), " & ")
        why = t(f"cn.reason_{game.outcome.reason}", loc)
        won = len(game.outcome.winners)
        return tn("cn.over_why", won, loc, why=why, winners=winners, scores=scores) + "\n" + reveal_line(game, loc)
    assert game.current_player is not None
    text = t(
        "cn.to_play", loc, who=snap.who(game.current_player), scores=scores, pile=len(game.draw_pile), goal=game.goal
    )
    if game.pending_discards:
        waiting = ", ".join(snap.who(s) for s in sorted(game.pending_discards))
        text += "\n" + t("cn.pending", loc, who=waiting)
    return text


def lobby_text(snap: Snapshot) -> str:
    loc, names = snap.locale, snap.names
    seats = "\n".join(t("cn.lobby_seat", loc, n=i + 1, who=snap.who(i)) for i in range(len(snap.players)))
    return t(
        "cn.lobby",
        loc,
        host=names[0] if names else "?",
        table=word(snap.env.options.get("table", "medium"), loc),
        goal=snap.env.options.get("goal", 40),
        seats=seats,
        n=len(snap.players),
    )


def started(snap: Snapshot) -> str:
    """The start line and the deal's commitment (posted before anyone can see a card, ``fairness.py``)."""
    text = t(
        "cn.started",
        snap.locale,
        n=len(snap.players),
        table=word(snap.env.options.get("table", "medium"), snap.locale),
        goal=snap.env.options.get("goal", 40),
    )
    return f"{text}\n{commitment_line(game_of(snap), snap.locale)}"


def last_headline(snap: Snapshot, last: ActionRecord | None) -> str:
    """The last logged action (``"alice: place 12 c2 at 3.5,-10.0 r90"``), for a recovered table; with the deal's
    commitment when no table of the game was recorded yet."""
    if last is not None and last.action == "start":
        return started(snap)
    if last is None:
        headline = t("cn.board", snap.locale)
    else:
        who = snap.names[snap.players.index(last.player)] if last.player in snap.players else "?"
        text = "discard" if last.action.startswith("discard") else last.action  # a discarded card stays private
        headline = t("cn.last_action", snap.locale, name=who, action=text)
    if snap.state is not None and not deal_public(snap.record):  # the first table recorded carries the commitment
        headline += "\n" + commitment_line(game_of(snap), snap.locale)
    return headline
