"""Plain records returned by ``Storage`` (frozen dataclasses, no discord types: ids are ints)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from . import ratings as rating_math
from .results import GameResult

Status = Literal["lobby", "active", "finished", "aborted"]
"""The games this bot ships (informative: storage accepts any kind name ``[a-z][a-z0-9_]{0,31}``)."""
STATUSES: tuple[str, ...] = ("lobby", "active", "finished", "aborted")
OPEN_STATUSES: tuple[str, ...] = ("lobby", "active")


@dataclass(frozen=True)
class GameRecord:
    """One game as stored.

    ``state`` is the engine's ``to_dict()`` after ``version`` actions (version 0 = as created);
    ``players`` the user ids by seat (seat 0 first); ``messages`` the message ids the bot edits later,
    by key (e.g. ``"board"``); times are timezone-aware UTC datetimes; ``result`` is set once the game
    finished with a ranking. ``wake_at`` (Unix seconds, or ``None``) is when the game layer must look at
    the game next (reminder, timeout, expiry); ``finished_at`` and ``end_reason`` (the result's reason
    code, or the abort reason) are set once the game is finished or aborted.
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
    wake_at: float | None = None
    finished_at: datetime | None = None
    end_reason: str | None = None

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

    ``mu``/``sigma`` are openskill Plackett-Luce values; ``ordinal = mu - 3 * sigma`` (kept for audits).
    ``rank`` is 1-based in the leaderboard's order (``ratings`` module docstring: established players first,
    then ``mu``, then more games, then who reached it first). ``games = wins + losses + draws``.
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

    @property
    def display(self) -> int:
        """The rating players see (``ratings.display``: 1500 for a newcomer)."""
        return rating_math.display(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        """Fewer than ``ratings.PROVISIONAL_GAMES`` rated games: the rating is shown with ``?``."""
        return rating_math.provisional(self.games)

    @property
    def shown(self) -> str:
        """The rating as players read it: ``"1563"``, or ``"1563?"`` while provisional."""
        return rating_math.shown(self.mu, self.sigma, self.games)


@dataclass(frozen=True)
class RatingChange:
    """What one rated game did to one player: ``place`` (1 = first group), ``outcome``
    (``"win" | "loss" | "draw"``) and mu/sigma before and after. ``delta`` is the change of ordinal. ``games``:
    the player's rated games in this guild and game kind up to and including this one (``shown_after`` marks the
    rating ``?`` below ``ratings.PROVISIONAL_GAMES``)."""

    game_id: int
    user_id: int
    place: int
    outcome: str
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    games: int = rating_math.PROVISIONAL_GAMES

    @property
    def delta(self) -> float:
        """Change of the ordinal (mu - 3 sigma), the leaderboard's sort key."""
        return (self.mu_after - 3 * self.sigma_after) - (self.mu_before - 3 * self.sigma_before)

    @property
    def display_before(self) -> int:
        """The displayed rating before the game (``ratings.display``)."""
        return rating_math.display(self.mu_before, self.sigma_before)

    @property
    def display_after(self) -> int:
        """The displayed rating after the game."""
        return rating_math.display(self.mu_after, self.sigma_after)

    @property
    def shown_after(self) -> str:
        """The rating after the game as players read it: ``"1563"``, or ``"1563?"`` while provisional."""
        return rating_math.shown(self.mu_after, self.sigma_after, self.games)

    @property
    def shown_before(self) -> str:
        """The rating before the game as players read it (``?`` while provisional before it)."""
        return rating_math.shown(self.mu_before, self.sigma_before, self.games - 1)

    @property
    def display_delta(self) -> int:
        """What the game did to the displayed rating (``display_after - display_before``)."""
        return self.display_after - self.display_before


@dataclass(frozen=True)
class WDL:
    """Wins, draws and losses of some set of games; ``games`` is their sum."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses


@dataclass(frozen=True)
class PlayerStats:
    """A player's record in one guild and game kind.

    ``rating``: their ``RatingRow`` (``None`` before their first rated game); ``rated``: W/D/L of rated
    games; ``places``: ``{place: count}`` over rated games (1 = first; tied players share a place, so a
    tie for first counts as 1st for both); ``vs_ai``: W/D/L of games with an AI seat (never rated);
    ``vs_ai_places``: their places, as ``places``; ``casual``: other unrated games. Only games finished with a
    result count (aborted ones do not).
    """

    user_id: int
    rating: RatingRow | None
    rated: WDL
    places: dict[int, int]
    vs_ai: WDL
    casual: WDL
    vs_ai_places: dict[int, int] = field(default_factory=dict)


@dataclass(frozen=True)
class HistoryRow:
    """One finished game from a player's point of view (``Storage.finished_games``).

    ``players`` are user ids by seat; ``ranking``, ``results`` (``{user id: "win" | "draw" | "loss"}``,
    the game's own or the generic default), ``reason``, ``scores`` come from the stored result (``None``
    / empty for a game finished without one); ``outcome`` and ``place`` are this user's;
    ``rating_delta`` is the change of this user's displayed rating (``None`` for an unrated game).
    """

    game_id: int
    kind: str
    guild_id: int
    channel_id: int
    user_id: int
    finished_at: datetime
    players: list[int]
    ranking: tuple[tuple[int, ...], ...]
    results: dict[int, str]
    reason: str | None
    scores: dict[int, int] | None
    rated: bool
    vs_ai: bool
    outcome: str | None
    place: int | None
    rating_delta: int | None = None
    rating_after: int | None = None
    rating_shown: str | None = None
    """``rating_after`` as players read it (``"1563?"`` while provisional after this game)."""
