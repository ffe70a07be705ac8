"""A finished game's result: the engine's ``Outcome`` -> what storage records, and the rating line players read.

The same for every game: storage ranks by ``ranking`` (openskill) and needs no per-game branch.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot.i18n import t
from engine.protocol import Outcome

if TYPE_CHECKING:
    from bot.core.kind import Snapshot
    from bot.storage.records import RatingChange


def outcome_result(outcome: Outcome, players: Sequence[int], *, ai_seats: Sequence[int] = ()) -> dict[str, Any]:
    """The result handed to ``Storage.apply_action(result=...)`` for a finished game (the shared result dict).

    ``{"ranking": [[uid, ...], ...]`` (the engine's seat groups as user ids, best first), ``"rated"`` (no AI
    seat), ``"results": {uid: "win" | "draw" | "loss"}`` (as the game counts it), ``"reason"`` (the outcome's
    code), ``"scores": {uid: int} | None``, ``"ai": [uid, ...]`` (the AI seats' user ids)``}``.
    """
    result: dict[str, Any] = {
        "ranking": [[players[s] for s in group] for group in outcome.ranking],
        "rated": not ai_seats,
        "results": {players[s]: r.value for s, r in enumerate(outcome.results)},
        "reason": outcome.reason,
        "scores": None if outcome.scores is None else {players[s]: int(v) for s, v in enumerate(outcome.scores)},
    }
    if ai_seats:
        result["ai"] = [players[s] for s in ai_seats]
    return result


def rating_line(snap: Snapshot, changes: Sequence[RatingChange]) -> str:
    """``"Rating changes: alice 1000 → 1024 (+24), bob 1000 → 986 (-14)."`` (the displayed scale,
    ``ratings.display``) for a rated finished game, ``"Not rated (...)."`` for a game with an AI seat, else
    ``""``."""
    if changes:
        seat = {uid: i for i, uid in enumerate(snap.players)}
        names = snap.names
        parts = [
            f"{names[seat[c.user_id]]} {c.display_before} → {c.display_after} ({c.display_delta:+d})"
            for c in changes
            if c.user_id in seat
        ]
        return t("res.rating_changes", snap.locale, changes=", ".join(parts))
    result = snap.record.result
    if result is not None and not result.rated:
        return t("res.not_rated", snap.locale)
    return ""
