"""Constructo's texts: headlines of committed actions (from the engine's actions and events), the status line,
the challenge message and the headline of a recovered board."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot.i18n import has, t
from bot.services.offers import OFFER_ACTIONS, current
from engine.constructo import Match
from engine.constructo.events import DrawAgreed, LayoutChosen, Resigned, TakenBack, TimedOut
from engine.constructo.move import Move
from engine.errors import InvalidInputError
from engine.protocol import Event

if TYPE_CHECKING:
    from bot.core.kind import Snapshot
    from bot.storage.records import ActionRecord


def tidy(text: str) -> str:
    """``text`` with each line stripped and empty lines dropped: a template whose optional part (``{why}``) is
    empty must not leave a leading space (`` Match over: ...``) nor a blank line in a board's content."""
    return "\n".join(line.strip() for line in text.splitlines() if line.strip())


def match_of(snap: Snapshot) -> Match:
    state = snap.require_state()
    assert isinstance(state, Match)
    return state


def narrate(snap: Snapshot, actions: Sequence[tuple[int, str]], events: Sequence[Event]) -> str:
    """The headline of a commit (:func:`tidy`: no blank line, no line starting or ending in a space)."""
    return tidy(_narrate(snap, actions, events))


def _narrate(snap: Snapshot, actions: Sequence[tuple[int, str]], events: Sequence[Event]) -> str:
    """One line per action: a move (``cx.played``: its notation), round 2's layout (M1), a resignation (M3), a
    timeout, a takeback or an agreed draw; a commit without engine action (an offer made, declined or withdrawn)
    is told from the game's offer (:func:`offer_line`). A resignation or timeout that ended the match is left out:
    the status line under this headline says it, with the winner (said once)."""
    loc, names = snap.locale, snap.names
    if not actions:
        return offer_line(snap)
    over = snap.state is not None and match_of(snap).is_over
    lines: list[str] = []
    taken = [e for e in events if isinstance(e, TakenBack)]
    by_player = {
        getattr(e, "player", None): e for e in events if isinstance(e, LayoutChosen | Resigned | TimedOut | DrawAgreed)
    }
    for seat, text in actions:
        event = by_player.get(seat)
        if text == "takeback" and taken:
            back = taken.pop(0)
            lines.append(t("offer.taken_back", loc, name=names[back.player], move=back.move))
        elif isinstance(event, DrawAgreed):
            lines.append(t("offer.draw_agreed", loc))
        elif isinstance(event, LayoutChosen):
            lines.append(t("cx.layout_chosen", loc, name=names[seat], layout=event.layout.to_text()))
        elif isinstance(event, Resigned | TimedOut) and over:
            continue
        elif isinstance(event, Resigned):
            lines.append(t("cx.resigned", loc, name=names[seat]))
        elif isinstance(event, TimedOut):
            lines.append(t("cx.timed_out", loc, name=names[seat]))
        else:
            lines.append(t("cx.played", loc, name=names[seat], move=move_words(text, loc)))
    return "\n".join(lines)


def offer_line(snap: Snapshot, offer: dict | None = None) -> str:
    """The game's latest offer in words: made (naming who answers), declined or withdrawn; ``""`` if none."""
    offer = current(snap.env) if offer is None else offer
    if offer is None:
        return ""
    loc, names = snap.locale, snap.names
    seat, what = int(offer["seat"]), offer["what"]
    if offer.get("state") == "open":
        state = snap.state
        if what == "takeback" and state is not None and state.takeback_plies(seat) == 2:
            what = "takeback_reply"  # the opponent already replied: accepting takes that reply back too
        return t(f"offer.made_{what}", loc, name=names[seat], opponent=names[1 - seat])
    if offer.get("state") == "declined":
        return t(f"offer.declined_{what}", loc, name=names[1 - seat], offerer=names[seat])
    return t(f"offer.cancelled_{what}", loc, name=names[seat])


def started(snap: Snapshot) -> str:
    """``Constructo match started on layout ...`` (against the AI: its level, not rated)."""
    layout = snap.env.options.get("layout", "?")
    level = next((s.ai for s in snap.env.seats if s.ai), None)
    if level is not None:
        word = t(f"ai.level_{level}", snap.locale) if has(f"ai.level_{level}", "en") else level
        return t("cx.started_ai", snap.locale, layout=layout, level=word)
    return t("cx.started", snap.locale, layout=layout)


def challenge_text(snap: Snapshot) -> str:
    if snap.env.invited is None and len(snap.players) == 1:  # an open challenge
        return t("cx.challenge_open", snap.locale, challenger=snap.names[0], layout=snap.env.options.get("layout", "?"))
    return t(
        "cx.challenge",
        snap.locale,
        opponent=f"<@{snap.env.invited}>",
        challenger=snap.names[0],
        layout=snap.env.options.get("layout", "?"),
    )


def last_headline(snap: Snapshot, last: ActionRecord | None) -> str:
    """:func:`_last_headline`, :func:`tidy`."""
    return tidy(_last_headline(snap, last))


def _last_headline(snap: Snapshot, last: ActionRecord | None) -> str:
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
    if last.action in OFFER_ACTIONS:
        return offer_line(snap) or t("cx.board", loc)
    if last.action == "takeback":
        return t("offer.taken_back_plain", loc, name=who)
    if last.action == "agreed draw":
        return t("offer.draw_agreed", loc)
    return t("cx.played", loc, name=who, move=move_words(last.action, loc))


def score_line(snap: Snapshot, a: int, b: int) -> str:
    """``Ana 2 – 1 Bob``: both players named with their totals (seat 0 first)."""
    return t("cx.score", snap.locale, name0=snap.names[0], a=a, b=b, name1=snap.names[1])


def stuck_player(match: Match, round_index: int) -> int | None:
    """The seat that could not act when round ``round_index`` ended (E1), ``None`` if it has not ended."""
    if round_index >= len(match.rounds):
        return None
    rnd = match.rounds[round_index]
    return rnd.current_player if rnd.is_over else None


def status_line(snap: Snapshot) -> str:
    """The line under every board (:func:`tidy`: no blank line, no line starting or ending in a space)."""
    return tidy(_status_line(snap))


def _status_line(snap: Snapshot) -> str:
    """Whose turn it is, who chooses round 2's layout, or how the match ended: why (who could not act, who
    resigned or ran out of time) and both players named with their scores."""
    loc, names = snap.locale, snap.names
    if snap.status == "aborted":
        return t("cx.aborted", loc)
    match = match_of(snap)
    a, b = match.totals()
    score = score_line(snap, a, b)
    if match.is_over:
        if match.resigned is not None:
            loser = match.resigned
            return t("cx.over_resigned", loc, loser=names[loser], winner=names[1 - loser], score=score)
        if match.timed_out is not None:
            loser = match.timed_out
            return t("cx.over_timeout", loc, loser=names[loser], winner=names[1 - loser], score=score)
        stuck = stuck_player(match, len(match.rounds) - 1)
        why = t("cx.round_end", loc, round=len(match.rounds), name=names[stuck]) if stuck is not None else ""
        if match.winner is None:
            return t("cx.over_draw", loc, why=why, score=score)
        return t("cx.over_win", loc, why=why, winner=names[match.winner], score=score)
    seat = match.current_player
    assert seat is not None
    if match.phase == "choosing_layout":
        stuck = stuck_player(match, 0)
        why = t("cx.round_end", loc, round=1, name=names[stuck] if stuck is not None else "?")
        return t("cx.choose_layout", loc, why=why, who=snap.who(seat), score=score)
    return t("cx.to_move", loc, who=snap.who(seat), round=match.round_no)


def move_words(move: str, loc: Any) -> str:
    """An action in the words of the board's selects, with its notation: "**L7** (a large chip on tile 7)",
    "**4-5** (tile 4 → tile 5)"; a text that is no move stays as it is, in bold."""
    try:
        m = Move.parse(move)
    except InvalidInputError:
        return f"**{move}**"
    if m.is_place:
        assert m.size is not None and m.tile is not None
        said = t("pz.place_words", loc, size=t(f"pz.size_{m.size.word}", loc), tile=m.tile)
    else:
        said = t("pz.move_words", loc, src=m.src, dst=m.dst)
    return f"**{m}** ({said})"
