"""What the tournament e2e tests read of the stored tournaments (``tests/e2e/test_tournament*.py``)."""

from __future__ import annotations

from .helpers import BotEnv


def pairings(env: BotEnv, round_no: int) -> list[tuple[int, int | None, str | None, int | None]]:
    """``(a, b, outcome, game_id)`` of each board of ``round_no`` of the latest tournament."""
    with env.db() as conn:
        return [
            tuple(r)
            for r in conn.execute(
                "SELECT a, b, outcome, game_id FROM tournament_games WHERE round = ?"
                " AND tournament_id = (SELECT max(id) FROM tournaments) ORDER BY board",
                (round_no,),
            )
        ]


def status(env: BotEnv) -> tuple[str, int]:
    with env.db() as conn:
        row = conn.execute("SELECT status, round FROM tournaments ORDER BY id DESC LIMIT 1").fetchone()
        return str(row[0]), int(row[1])
