"""Rating updates with openskill (Plackett-Luce), and what counts as a win, loss or draw.

Definitions (documented in README design notes):

- Constructo is 1v1; one match (two rounds) is one result. The player ranked first alone wins,
  the other loses; if both share first place (equal totals, rule E1 of rules/constructo.md) it
  is a **draw** for both.
- CONEX is a free-for-all rated by final rank (ties allowed: tied players share a rank group).
  Everybody in the first group **wins** (a shared first place is a win for each of them);
  everybody else **loses**. CONEX has no draws.

The update is one ``PlackettLuce().rate`` call with one single-player team per user and
``ranks`` = the index of each user's group, so ties are given to openskill as equal ranks.
"""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

from .errors import InvalidDataError
from .records import GameResult

MODEL = PlackettLuce()
"""The one rating model (openskill defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300)."""


@dataclass(frozen=True)
class Update:
    """A user's rating before and after one game, with place (1-based group) and outcome."""

    user_id: int
    place: int
    outcome: str
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float

    @property
    def ordinal_after(self) -> float:
        """mu - 3 sigma after the game (the leaderboard value)."""
        return self.mu_after - 3.0 * self.sigma_after


def default_rating() -> tuple[float, float]:
    """(mu, sigma) of a player with no rated game yet."""
    r = MODEL.rating()
    return float(r.mu), float(r.sigma)


def ordinal(mu: float, sigma: float) -> float:
    """The displayed, sorted rating: openskill's ordinal ``mu - 3 sigma``."""
    return float(MODEL.rating(mu=mu, sigma=sigma).ordinal())


def outcomes(kind: str, result: GameResult) -> dict[int, str]:
    """Map each ranked user to ``"win"``, ``"loss"`` or ``"draw"`` (see module docstring).

    Raises ``InvalidDataError`` (rule ``Input``) if a Constructo result does not rank exactly two
    players, or a rated result has fewer than two."""
    users = result.users
    if kind == "constructo" and len(users) != 2:
        raise InvalidDataError(f"a Constructo result ranks exactly 2 players, not {len(users)}", field="result.ranking")
    if len(users) < 2:
        raise InvalidDataError("a result needs at least 2 players", field="result.ranking")
    first = result.ranking[0]
    out: dict[int, str] = {}
    for place, group in enumerate(result.ranking, start=1):
        for uid in group:
            if place > 1:
                out[uid] = "loss"
            elif kind == "constructo" and len(first) > 1:
                out[uid] = "draw"
            else:
                out[uid] = "win"
    return out


def rate(kind: str, result: GameResult, current: dict[int, tuple[float, float]]) -> list[Update]:
    """Compute every ranked user's new rating.

    Args:
        kind: ``"constructo"`` or ``"conex"``.
        result: the ranking (groups best first, ties share a group).
        current: (mu, sigma) of users who already have a rating; others start at the default.

    Returns:
        One ``Update`` per user, in ranking order.
    """
    labels = outcomes(kind, result)
    users: list[int] = []
    ranks: list[float] = []
    places: dict[int, int] = {}
    for place, group in enumerate(result.ranking, start=1):
        for uid in group:
            users.append(uid)
            ranks.append(place)
            places[uid] = place
    default = default_rating()
    before = [current.get(uid, default) for uid in users]
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    rated = MODEL.rate(teams, ranks=ranks)
    return [
        Update(uid, places[uid], labels[uid], mb, sb, float(team[0].mu), float(team[0].sigma))
        for uid, (mb, sb), team in zip(users, before, rated, strict=True)
    ]
