"""Plain records returned by ``Storage`` (frozen dataclasses, no discord types: ids are ints)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from .errors import InvalidDataError

Kind = Literal["constructo", "conex"]
Status = Literal["lobby", "active", "finished", "aborted"]
KINDS: tuple[str, ...] = ("constructo", "conex")
STATUSES: tuple[str, ...] = ("lobby", "active", "finished", "aborted")
OPEN_STATUSES: tuple[str, ...] = ("lobby", "active")


@dataclass(frozen=True)
class GameResult:
    """How a finished game ranked its players.

    ``ranking`` is a list of groups of user ids, best first; players tied share a group
    (``[[a], [b, c], [d]]``: a first, b and c tied second, d last). Every seated player appears
    exactly once. ``rated=False`` (e.g. a game against the AI, or a casual game) leaves ratings
    untouched.
    """

    ranking: tuple[tuple[int, ...], ...]
    rated: bool = True

    @classmethod
    def coerce(cls, value: GameResult | Mapping[str, Any] | Sequence[Sequence[int]]) -> GameResult:
        """Accept a ``GameResult``, a mapping ``{"ranking": [[...], ...], "rated": bool}`` or a bare
        ranking (then ``rated=True``). Raises ``InvalidDataError`` (rule ``Input``) on any other shape,
        an empty group, a non-int id or a user listed twice."""
        ranking: Any
        rated: Any
        if isinstance(value, GameResult):
            ranking, rated = value.ranking, value.rated
        elif isinstance(value, Mapping):
            unknown = set(value) - {"ranking", "rated"}
            if "ranking" not in value or unknown:
                raise InvalidDataError(
                    "result must look like {'ranking': [[user ids], ...], 'rated': bool}", field="result"
                )
            ranking, rated = value["ranking"], value.get("rated", True)
        elif isinstance(value, Sequence) and not isinstance(value, str | bytes):
            ranking, rated = value, True
        else:
            raise InvalidDataError(f"result must be a ranking, not {type(value).__name__}", field="result")
        if not isinstance(rated, bool):
            raise InvalidDataError("result 'rated' must be true or false", field="result.rated")
        groups: list[tuple[int, ...]] = []
        seen: set[int] = set()
        if isinstance(ranking, str | bytes) or not isinstance(ranking, Sequence) or not ranking:
            raise InvalidDataError("the ranking must be a non-empty list of groups of user ids", field="result.ranking")
        for group in ranking:
            if isinstance(group, str | bytes) or not isinstance(group, Sequence) or not group:
                raise InvalidDataError(
                    "every ranking group must be a non-empty list of user ids", field="result.ranking"
                )
            ids: list[int] = []
            for uid in group:
                if not isinstance(uid, int) or isinstance(uid, bool):
                    raise InvalidDataError(f"user id {uid!r} in the ranking is not an integer", field="result.ranking")
                if uid in seen:
                    raise InvalidDataError(f"user {uid} appears twice in the ranking", field="result.ranking", user=uid)
                seen.add(uid)
                ids.append(uid)
            groups.append(tuple(ids))
        return cls(tuple(groups), rated)

    @property
    def users(self) -> list[int]:
        """Every ranked user id, best group first."""
        return [uid for group in self.ranking for uid in group]

    def to_json(self) -> dict[str, Any]:
        """``{"ranking": [[...], ...], "rated": bool}``."""
        return {"ranking": [list(g) for g in self.ranking], "rated": self.rated}


@dataclass(frozen=True)
class GameRecord:
    """One game as stored.

    ``state`` is the engine's ``to_dict()`` after ``version`` actions (version 0 = as created);
    ``players`` the user ids by seat (seat 0 first); ``messages`` the message ids the bot edits later,
    by key (e.g. ``"board"``); times are timezone-aware UTC datetimes; ``result`` is set once the game
    finished with a ranking.
    """

    id: int
    kind: str
    guild_id: int
    channel_id: int
    status: str
    state: dict[str, Any]
    version: int
    players: list[int]
    messages: dict[str, int]
    created_at: datetime
    updated_at: datetime
    result: GameResult | None = None

    @property
    def is_open(self) -> bool:
        """True while the game is in ``lobby`` or ``active`` status (it holds its channel)."""
        return self.status in OPEN_STATUSES


@dataclass(frozen=True)
class ActionRecord:
    """One entry of the append-only action log: action ``seq`` took the game from version
    ``seq - 1`` to ``seq``. ``player`` is the acting user id (``None`` = the bot itself, e.g. a
    timeout); ``action`` the text the engine parses (``"M5"``, ``"place 12 c2 at 3.5,-10.0"``...)."""

    game_id: int
    seq: int
    player: int | None
    action: str
    at: datetime


@dataclass(frozen=True)
class RatingRow:
    """A player's rating in one guild and game kind.

    ``mu``/``sigma`` are openskill Plackett-Luce values; ``ordinal = mu - 3 * sigma`` is what the
    leaderboard sorts on (higher first; equal ordinals by lower user id). ``rank`` is 1-based in that
    order. ``games = wins + losses + draws``.
    """

    user_id: int
    mu: float
    sigma: float
    ordinal: float
    games: int
    wins: int
    losses: int
    draws: int
    rank: int


@dataclass(frozen=True)
class RatingChange:
    """What one rated game did to one player: ``place`` (1 = first group), ``outcome``
    (``"win" | "loss" | "draw"``) and mu/sigma before and after. ``delta`` is the change of ordinal."""

    game_id: int
    user_id: int
    place: int
    outcome: str
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float

    @property
    def delta(self) -> float:
        """Change of the displayed rating (ordinal, mu - 3 sigma)."""
        return (self.mu_after - 3 * self.sigma_after) - (self.mu_before - 3 * self.sigma_before)
