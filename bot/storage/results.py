"""``GameResult``: how a finished game ended, in the one shape every game hands to storage.

Storage has no per-game branch: the game layer builds the result from the engine's ``Outcome``
(``engine/protocol.py``) and storage only applies generic rules to it:

- ``ranking`` (groups of user ids, best first, ties share a group) drives the openskill update;
- ``results`` (``{user id: "win" | "draw" | "loss"}``, as the game counts it) fills the W/D/L
  columns. Without it (older callers) the generic default applies: a lone first group wins, a
  shared first group draws, everyone else loses;
- ``place`` of a user = 1 + the number of users ranked strictly ahead (1, 1, 3 for a tie for first);
- ``reason`` (a code naming the rule that ended the game) and ``scores`` are kept for history;
- ``ai``: user ids of AI seats. Without it, negative ids are AI seats (the CONEX convention); the
  game layer lists its own AI seat (e.g. Constructo's, which is the bot's user id).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import InvalidDataError

OUTCOMES: tuple[str, ...] = ("win", "draw", "loss")
_REASON = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$")
_KEYS = frozenset({"ranking", "rated", "results", "reason", "scores", "ai"})


def _uid(value: Any, field: str) -> int:
    """A user id from the result: an int, or its decimal text (JSON object keys are text)."""
    if isinstance(value, str) and re.fullmatch(r"-?\d{1,20}", value):
        return int(value)
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidDataError(f"user id {value!r} in the result is not an integer", field=field)
    return value


def _ranking(value: Any) -> tuple[tuple[int, ...], ...]:
    if isinstance(value, str | bytes) or not isinstance(value, Sequence) or not value:
        raise InvalidDataError("the ranking must be a non-empty list of groups of user ids", field="result.ranking")
    groups: list[tuple[int, ...]] = []
    seen: set[int] = set()
    for group in value:
        if isinstance(group, str | bytes) or not isinstance(group, Sequence) or not group:
            raise InvalidDataError("every ranking group must be a non-empty list of user ids", field="result.ranking")
        ids: list[int] = []
        for raw in group:
            if not isinstance(raw, int) or isinstance(raw, bool):
                raise InvalidDataError(f"user id {raw!r} in the ranking is not an integer", field="result.ranking")
            if raw in seen:
                raise InvalidDataError(f"user {raw} appears twice in the ranking", field="result.ranking", user=raw)
            seen.add(raw)
            ids.append(raw)
        groups.append(tuple(ids))
    return tuple(groups)


@dataclass(frozen=True, eq=True)
class GameResult:
    """How a finished game ranked its players (see the module docstring).

    ``ranking``: groups of user ids, best first (``[[a], [b, c], [d]]``: a first, b and c tied, d last);
    every seated player exactly once. ``rated=False`` (a game against the AI, a casual game) leaves
    ratings untouched. ``results``, ``reason``, ``scores``, ``ai`` are optional (``None``/empty when the
    caller gave none).
    """

    ranking: tuple[tuple[int, ...], ...]
    rated: bool = True
    results: dict[int, str] | None = None
    reason: str | None = None
    scores: dict[int, int] | None = None
    ai: tuple[int, ...] = ()

    __hash__ = None  # type: ignore[assignment]  # holds dicts

    @classmethod
    def coerce(cls, value: GameResult | Mapping[str, Any] | Sequence[Sequence[int]]) -> GameResult:
        """Accept a ``GameResult``, a mapping ``{"ranking": [[...]], "rated": bool, "results": {uid: "win"},
        "reason": "E3", "scores": {uid: 12}, "ai": [uid]}`` (only ``ranking`` required; user-id keys may be
        decimal text, as JSON gives them back) or a bare ranking (then rated). Raises ``InvalidDataError``
        (rule ``Input``, ``field`` naming the part) on any other shape, an empty group, a non-int id, a user
        listed twice, an unknown outcome word, a results/scores/ai entry for someone not ranked."""
        if isinstance(value, GameResult):
            return value
        if isinstance(value, Mapping):
            unknown = set(value) - _KEYS
            if "ranking" not in value or unknown:
                raise InvalidDataError(
                    "result must look like {'ranking': [[user ids], ...], 'rated': bool, 'results': {...}, "
                    "'reason': str, 'scores': {...}}" + (f"; unknown keys {sorted(unknown)}" if unknown else ""),
                    field="result",
                )
            data: Mapping[str, Any] = value
        elif isinstance(value, Sequence) and not isinstance(value, str | bytes):
            data = {"ranking": value}
        else:
            raise InvalidDataError(f"result must be a ranking, not {type(value).__name__}", field="result")
        ranking = _ranking(data["ranking"])
        users = {u for g in ranking for u in g}
        rated = data.get("rated", True)
        if not isinstance(rated, bool):
            raise InvalidDataError("result 'rated' must be true or false", field="result.rated")
        results = None
        if data.get("results") is not None:
            raw = data["results"]
            if not isinstance(raw, Mapping):
                raise InvalidDataError("result 'results' must map user ids to win/draw/loss", field="result.results")
            results = {_uid(k, "result.results"): v for k, v in raw.items()}
            bad = {u: o for u, o in results.items() if o not in OUTCOMES}
            if bad or set(results) != users:
                raise InvalidDataError(
                    "result 'results' must give every ranked player one of win, draw, loss",
                    field="result.results",
                    missing=sorted(users - set(results)),
                    unknown=sorted(set(results) - users),
                    bad=sorted(bad),
                )
        reason = data.get("reason")
        if reason is not None and (not isinstance(reason, str) or not _REASON.match(reason)):
            raise InvalidDataError(
                f"result 'reason' must be a short code such as 'E3' or 'timeout', not {reason!r}", field="result.reason"
            )
        scores = None
        if data.get("scores") is not None:
            raw = data["scores"]
            if not isinstance(raw, Mapping):
                raise InvalidDataError("result 'scores' must map user ids to integers", field="result.scores")
            scores = {_uid(k, "result.scores"): v for k, v in raw.items()}
            if any(not isinstance(v, int) or isinstance(v, bool) for v in scores.values()) or not set(scores) <= users:
                raise InvalidDataError("result 'scores' must give ranked players integer scores", field="result.scores")
        ai_raw = data.get("ai") or ()
        if isinstance(ai_raw, str | bytes) or not isinstance(ai_raw, Sequence):
            raise InvalidDataError("result 'ai' must list the AI seats' user ids", field="result.ai")
        ai = tuple(_uid(u, "result.ai") for u in ai_raw)
        if not set(ai) <= users:
            raise InvalidDataError("result 'ai' lists a user who is not ranked", field="result.ai")
        if rated and len(users) < 2:
            raise InvalidDataError("a rated result needs at least 2 players", field="result.ranking")
        result = cls(ranking, rated, results, reason, scores, ai)
        if rated and result.ai_seats:
            raise InvalidDataError("a game with an AI seat is never rated: pass 'rated': false", field="result.rated")
        return result

    @property
    def users(self) -> list[int]:
        """Every ranked user id, best group first."""
        return [uid for group in self.ranking for uid in group]

    @property
    def ai_seats(self) -> set[int]:
        """User ids of AI seats: ``ai`` if given, else the negative ids."""
        return set(self.ai) if self.ai else {u for u in self.users if u < 0}

    def outcomes(self) -> dict[int, str]:
        """``{user id: "win" | "draw" | "loss"}``: ``results`` if given, else the generic default (a lone
        first group wins, a shared first group draws, everyone else loses)."""
        if self.results is not None:
            return dict(self.results)
        first = self.ranking[0]
        out = {u: "loss" for u in self.users}
        for u in first:
            out[u] = "win" if len(first) == 1 else "draw"
        return out

    def places(self) -> dict[int, int]:
        """``{user id: place}``: 1 + the number of users ranked strictly ahead (1, 1, 3 for a tie)."""
        out: dict[int, int] = {}
        ahead = 0
        for group in self.ranking:
            for u in group:
                out[u] = ahead + 1
            ahead += len(group)
        return out

    def to_json(self) -> dict[str, Any]:
        """The stored form: ``{"ranking", "rated"}`` plus ``results``/``reason``/``scores``/``ai`` when given
        (user-id keys as text, as JSON requires)."""
        out: dict[str, Any] = {"ranking": [list(g) for g in self.ranking], "rated": self.rated}
        if self.results is not None:
            out["results"] = {str(k): v for k, v in self.results.items()}
        if self.reason is not None:
            out["reason"] = self.reason
        if self.scores is not None:
            out["scores"] = {str(k): v for k, v in self.scores.items()}
        if self.ai:
            out["ai"] = list(self.ai)
        return out
