"""A finished game's result: the engine's ``Outcome`` -> what storage records, and the rating line players read.

The same for every game: storage ranks by ``ranking`` (openskill) and needs no per-game branch.

**Rated only when each player has moved** (lichess aborts a game a player never moved in): a game with a seat that
never played a move of its own (forfeits and timeouts are not moves) ends with its result, but unrated
(:func:`unmoved_seats`), so a player who never moved neither loses nor gains rating, whoever claimed the win.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot.core.names import listed, shown
from bot.i18n import t
from engine.protocol import Outcome

if TYPE_CHECKING:
    from bot.core.kind import Snapshot
    from bot.storage.records import RatingChange


CASUAL = "casual"
"""Key of ``Envelope.extra``: ``True`` on a game opened while its server plays unrated games (``/settings rated``,
``bot/services/house.py``), :data:`CHOSEN` on one its opener asked to be unrated (``rated: False`` of a challenge or
a lobby); either ends with its result but unrated."""
CHOSEN = "chosen"
"""``Envelope.extra[CASUAL]`` of a game unrated by its opener's choice (not by the server's setting)."""


RATED_HELP = "Rated game (default: the server's setting); False: a casual game that moves no rating"
"""The description of the ``rated`` option of the commands that open a game between people."""


def casual_extra(rated: bool | None) -> dict[str, Any]:
    """The ``Envelope.extra`` keys of a game opened with the command option ``rated`` (``None``: the server's
    setting decides; ``False``: a casual game whatever the server plays; ``True``: rated where the server rates)."""
    return {CASUAL: CHOSEN} if rated is False else {}


NOT_MOVES: frozenset[str] = frozenset({"forfeit", "timeout", "takeback", "agreed draw"})
"""Logged action texts that are no move of the seat's own (the engine protocol's shared ``Forfeit``/``Timeout``, an
agreed draw, a takeback)."""


def unmoved_seats(history: Sequence[tuple[int, str]], seats: int) -> list[int]:
    """Seats ``0..seats-1`` that never played a move of their own in ``history`` (``[(seat, action text)]``, the
    engine's log): a forfeit, a timeout or an agreed draw is not a move, and a ``takeback`` by a seat cancels that
    seat's latest move still standing."""
    standing: list[int] = []
    for seat, text in history:
        word = text.strip().lower()
        if word == "takeback" and seat in standing:
            del standing[len(standing) - 1 - standing[::-1].index(seat)]
        elif word not in NOT_MOVES:
            standing.append(seat)
    return [s for s in range(seats) if s not in standing]


def outcome_result(
    outcome: Outcome,
    players: Sequence[int],
    *,
    ai_seats: Sequence[int] = (),
    unmoved: Sequence[int] = (),
    casual: bool = False,
) -> dict[str, Any]:
    """The result handed to ``Storage.apply_action(result=...)`` for a finished game (the shared result dict).

    ``{"ranking": [[uid, ...], ...]`` (the engine's seat groups as user ids, best first), ``"rated"`` (no AI
    seat and no seat in ``unmoved``: rated only when each player has moved), ``"results": {uid: "win" | "draw" |
    "loss"}`` (as the game counts it), ``"reason"`` (the outcome's code), ``"scores": {uid: int} | None``, ``"ai":
    [uid, ...]`` (the AI seats' user ids)``}``.
    """
    result: dict[str, Any] = {
        "ranking": [[players[s] for s in group] for group in outcome.ranking],
        "rated": not ai_seats and not unmoved and not casual,
        "results": {players[s]: r.value for s, r in enumerate(outcome.results)},
        "reason": outcome.reason,
        "scores": None if outcome.scores is None else {players[s]: int(v) for s, v in enumerate(outcome.scores)},
    }
    if ai_seats:
        result["ai"] = [players[s] for s in ai_seats]
    return result


def rating_line(snap: Snapshot, changes: Sequence[RatingChange]) -> str:
    """``"Rating changes: alice 1500? → 1563? (+63), bob 1500? → 1437? (−63)."`` (the displayed scale,
    ``ratings.display``; ``?`` marks a provisional rating, ``ratings.PROVISIONAL_GAMES``) for a rated finished
    game; for an unrated one why: ``"Not rated (a game against the AI)."`` or ``"Not rated: bob never moved
    (...)."``; else ``""``."""
    if changes:
        seat = {uid: i for i, uid in enumerate(snap.players)}
        names = snap.names
        parts = [
            f"{shown(names[seat[c.user_id]])} {c.shown_before} → {c.shown_after} ({signed(c.display_delta)})"
            for c in changes
            if c.user_id in seat
        ]
        return t("res.rating_changes", snap.locale, changes=", ".join(parts))
    result = snap.record.result
    if result is None or result.rated:
        return ""
    if not result.ai_seats and snap.env.extra.get(CASUAL) == CHOSEN:
        return t("res.not_rated_chosen", snap.locale)
    if not result.ai_seats and snap.env.extra.get(CASUAL):
        return t("res.not_rated_casual", snap.locale)
    if not result.ai_seats and snap.state is not None:
        idle = unmoved_seats(snap.state.history, len(snap.players))
        if idle:
            who = listed(snap.names[s] for s in idle)
            return t("res.not_rated_unmoved", snap.locale, names=who)
    return t("res.not_rated", snap.locale)


def place_name(place: int, locale: Any) -> str:
    """A 1-based place named as a place in the reader's language: ``1st``, ``2nd``, ``3rd``, ``4th`` (``1.º``,
    ``2.º`` in Spanish)."""
    key = f"place.{place}" if place in (1, 2, 3) else "place.n"
    return t(key, locale, n=place)


def signed(delta: int) -> str:
    """A rating change as players read it: ``+63``, ``−44`` (a true minus sign), ``±0``."""
    return f"+{delta}" if delta > 0 else f"−{-delta}" if delta < 0 else "±0"
