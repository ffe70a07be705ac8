"""What finishing a game with a result writes, inside the finishing transaction: the rating update
(rated results), ``rating_changes`` and one ``game_outcomes`` row per human seat. Generic: no rule of
any game here (see ``results.GameResult``)."""

from __future__ import annotations

from . import ratings as rating_math
from .backend import Tx
from .errors import InvalidDataError
from .results import GameResult


async def check_ranking(tx: Tx, game_id: int, outcome: GameResult) -> None:
    """Raise ``InvalidDataError`` unless the ranking lists every seated player exactly once."""
    seated = {r[0] for r in await tx.fetch("SELECT user_id FROM game_players WHERE game_id = ?", (game_id,))}
    ranked = set(outcome.users)
    if ranked != seated:
        raise InvalidDataError(
            "the ranking must list every seated player exactly once",
            field="result.ranking",
            missing=sorted(seated - ranked),
            unknown=sorted(ranked - seated),
        )


async def record(
    tx: Tx, game_id: int, guild_id: int, kind: str, outcome: GameResult, now: float, *, for_update: str
) -> None:
    """Write the outcome rows and, for a rated result, the rating update of every ranked user.

    ``for_update`` is the dialect's row-lock suffix (``" FOR UPDATE"`` on PostgreSQL): the ratings read
    are locked until the commit, so two games finishing at once in two processes cannot lose an update."""
    ai = outcome.ai_seats
    labels = outcome.outcomes()
    places = outcome.places()
    await tx.executemany(
        "INSERT INTO game_outcomes (game_id, user_id, guild_id, kind, place, outcome, rated, vs_ai)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (game_id, uid, guild_id, kind, places[uid], labels[uid], int(outcome.rated), int(bool(ai)))
            for uid in outcome.users
            if uid not in ai
        ],
    )
    if outcome.rated:
        await _rate(tx, game_id, guild_id, kind, outcome, now, for_update)


async def _rate(
    tx: Tx, game_id: int, guild_id: int, kind: str, outcome: GameResult, now: float, for_update: str
) -> None:
    users = sorted(outcome.users)
    mu0, sigma0 = rating_math.default_rating()
    # Rows first (a newcomer has none to lock), in user order so concurrent games lock in one order.
    await tx.executemany(
        "INSERT INTO ratings (guild_id, kind, user_id, mu, sigma, ordinal, games, wins, losses, draws, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, 0, 0, 0, 0, ?) ON CONFLICT (guild_id, kind, user_id) DO NOTHING",
        [(guild_id, kind, uid, mu0, sigma0, rating_math.ordinal(mu0, sigma0), now) for uid in users],
    )
    marks = ",".join("?" * len(users))
    rows = await tx.fetch(
        f"SELECT user_id, mu, sigma FROM ratings WHERE guild_id = ? AND kind = ? AND user_id IN ({marks})"
        f" ORDER BY user_id{for_update}",
        (guild_id, kind, *users),
    )
    current = {r[0]: (float(r[1]), float(r[2])) for r in rows}
    updates = rating_math.rate(outcome, current)
    await tx.executemany(
        "UPDATE ratings SET mu = ?, sigma = ?, ordinal = ?, games = games + 1, wins = wins + ?,"
        " losses = losses + ?, draws = draws + ?, updated_at = ? WHERE guild_id = ? AND kind = ? AND user_id = ?",
        [
            (
                u.mu_after,
                u.sigma_after,
                u.ordinal_after,
                int(u.outcome == "win"),
                int(u.outcome == "loss"),
                int(u.outcome == "draw"),
                now,
                guild_id,
                kind,
                u.user_id,
            )
            for u in updates
        ],
    )
    await tx.executemany(
        "INSERT INTO rating_changes (game_id, user_id, place, outcome, mu_before, sigma_before, mu_after,"
        " sigma_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (game_id, u.user_id, u.place, u.outcome, u.mu_before, u.sigma_before, u.mu_after, u.sigma_after)
            for u in updates
        ],
    )
