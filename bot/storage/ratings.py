"""Rating updates with openskill (Plackett-Luce) and the displayed rating scale. No per-game rule here.

- The update is one ``PlackettLuce().rate`` call per rated game, one single-player team per user,
  ``ranks`` = the index of each user's group in the result's ranking (ties are equal ranks).
- Win/draw/loss come from the result (``GameResult.outcomes()``: the game's own ``results``, else the
  generic default: a lone first group wins, a shared first group draws, everyone else loses).
- Players are shown ``display(mu, sigma)`` (lichess conventions): the rating itself, not a
  conservative estimate: openskill's own ``ordinal(z=0, alpha=DISPLAY_ALPHA, target=DISPLAY_TARGET)``,
  i.e. ``1500 + 24 (mu - 25)``, rounded. A newcomer shows 1500; two equal players exchange equal
  amounts (two newcomers: +63 / -63; two players with 20+ games: about +/-15), since the shown
  number no longer rises with the shrinking uncertainty. A player with fewer than
  ``PROVISIONAL_GAMES`` rated games is **provisional**: the rating is shown with a ``?``.
- The leaderboard order (``leaderboard_order``): established players before provisional ones, then
  the rating (``mu``) high to low; equal ratings: more rated games first, then whoever reached it first
  (the older last rated game), then the lower user id. The column ``ordinal`` (``mu - 3 sigma``) is
  still written, for audits.
"""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

from .results import GameResult

MODEL = PlackettLuce()
"""The one rating model (openskill defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300)."""
DISPLAY_ALPHA = 24.0
"""Display points per openskill ``mu`` point."""
DISPLAY_TARGET = 900.0
"""``DISPLAY_ALPHA * 25 + DISPLAY_TARGET`` = 1500, a newcomer's shown rating (``mu`` 25)."""
PROVISIONAL_GAMES = 5
"""A rating from fewer rated games than this is provisional: shown with ``?`` (as lichess marks a rating it is not
yet sure of)."""


@dataclass(frozen=True)
class Update:
    """A user's rating before and after one game, with place (1-based group index) and outcome."""

    user_id: int
    place: int
    outcome: str
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float

    @property
    def ordinal_after(self) -> float:
        """mu - 3 sigma after the game (the leaderboard's sort key)."""
        return ordinal(self.mu_after, self.sigma_after)


def default_rating() -> tuple[float, float]:
    """(mu, sigma) of a player with no rated game yet."""
    r = MODEL.rating()
    return float(r.mu), float(r.sigma)


def ordinal(mu: float, sigma: float) -> float:
    """The sort key: openskill's ordinal ``mu - 3 sigma``."""
    return float(MODEL.rating(mu=mu, sigma=sigma).ordinal())


def display(mu: float, sigma: float) -> int:
    """The rating players see: openskill's ``ordinal(z=0, alpha=24, target=900)`` rounded, i.e.
    ``1500 + 24 (mu - 25)`` (1500 for a newcomer). ``sigma`` does not move it (it only decides the ``?``)."""
    return round(MODEL.rating(mu=mu, sigma=sigma).ordinal(z=0.0, alpha=DISPLAY_ALPHA, target=DISPLAY_TARGET))


def provisional(games: int) -> bool:
    """True for a rating from fewer than :data:`PROVISIONAL_GAMES` rated games (shown with ``?``)."""
    return games < PROVISIONAL_GAMES


def shown(mu: float, sigma: float, games: int) -> str:
    """The rating as text: ``"1563"``, or ``"1563?"`` while provisional (``games`` rated games so far)."""
    return f"{display(mu, sigma)}{'?' if provisional(games) else ''}"


def rate(result: GameResult, current: dict[int, tuple[float, float]]) -> list[Update]:
    """Every ranked user's new rating after ``result``.

    Args:
        result: the ranking (groups best first, ties share a group) and, optionally, the game's W/D/L.
        current: (mu, sigma) of users who already have a rating; others start at the default.

    Returns:
        One ``Update`` per user, in ranking order.
    """
    labels = result.outcomes()
    users: list[int] = []
    ranks: list[float] = []
    groups: dict[int, int] = {}
    for index, group in enumerate(result.ranking, start=1):
        for uid in group:
            users.append(uid)
            ranks.append(index)
            groups[uid] = index
    default = default_rating()
    before = [current.get(uid, default) for uid in users]
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    rated = MODEL.rate(teams, ranks=ranks)
    return [
        Update(uid, groups[uid], labels[uid], mb, sb, float(team[0].mu), float(team[0].sigma))
        for uid, (mb, sb), team in zip(users, before, rated, strict=True)
    ]
