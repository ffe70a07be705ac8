"""Tournaments (``tournaments``, ``tournament_players``, ``tournament_games``, migration 0008; part of ``Storage``).

At most one tournament per guild is ``open`` (taking entries) or ``running``; finished ones stay for their
standings. Entrants keep the order they joined in (the seeding); ``withdrawn`` is the round at which a player
withdrew. Pairings are rows ``(round, board)`` with seat 0 ``a`` and seat 1 ``b`` (``None``: a bye), the
tournament ``outcome`` (``a``/``b``/``draw``/``none``/``bye``, ``None`` while played) and the ``game_id`` opened for
it. Nothing here pairs or ranks (``bot/services/pairing.py``) or knows a game (``bot/services/tournaments.py``).
Times are Unix seconds on the caller's clock.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from .backend import Tx
from .connection import Connection

_T = "id, guild_id, channel_id, kind, format, rounds, clock, organiser_id, status, round, locale, created_at"
_G = "tournament_id, round, board, a, b, outcome, game_id, opening_at"


class TourneyExistsError(Exception):
    """:meth:`TourneyMixin.tourney_create` while the guild already has an open or running tournament."""


@dataclass(frozen=True)
class Tourney:
    """One tournament: where it was created (``channel_id``: its games open there), the ``kind`` of game, its
    ``format`` (``swiss``/``roundrobin``), ``rounds``, ``clock`` preset, ``organiser_id``, ``status``
    (``open``/``running``/``finished``/``cancelled``), the ``round`` being played (0 before the start)."""

    id: int
    guild_id: int
    channel_id: int
    kind: str
    format: str
    rounds: int
    clock: str
    organiser_id: int
    status: str
    round: int
    locale: str | None
    created_at: float


@dataclass(frozen=True)
class Entrant:
    """A player of a tournament: ``withdrawn`` is the round at which they withdrew (``None``: still in)."""

    user_id: int
    name: str
    joined_at: float
    withdrawn: int | None


@dataclass(frozen=True)
class Pairing:
    """One board of one round (see the module docstring)."""

    tournament_id: int
    round: int
    board: int
    a: int
    b: int | None
    outcome: str | None
    game_id: int | None
    opening_at: float | None


def _tourney(r: Sequence[Any]) -> Tourney:
    return Tourney(
        int(r[0]), int(r[1]), int(r[2]), str(r[3]), str(r[4]), int(r[5]), str(r[6]), int(r[7]), str(r[8]),
        int(r[9]), r[10], float(r[11]),
    )  # fmt: skip


def _pairing(r: Sequence[Any]) -> Pairing:
    return Pairing(
        int(r[0]), int(r[1]), int(r[2]), int(r[3]), None if r[4] is None else int(r[4]), r[5],
        None if r[6] is None else int(r[6]), None if r[7] is None else float(r[7]),
    )  # fmt: skip


class TourneyMixin(Connection):
    """Tournaments (see the module docstring)."""

    async def tourney_create(
        self, guild_id: int, channel_id: int, kind: str, fmt: str, rounds: int, clock: str, organiser: int,
        locale: str | None, now: float,
    ) -> Tourney:  # fmt: skip
        """A new ``open`` tournament. Raises :class:`TourneyExistsError` (nothing written) when the guild has an
        open or running one."""

        async def body(tx: Tx) -> Tourney:
            live = await tx.fetchrow(
                "SELECT id FROM tournaments WHERE guild_id = ? AND status IN ('open', 'running')", (int(guild_id),)
            )
            if live is not None:
                raise TourneyExistsError(int(live[0]))
            row = await tx.fetchrow(
                "INSERT INTO tournaments (guild_id, channel_id, kind, format, rounds, clock, organiser_id, status,"
                f" round, locale, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'open', 0, ?, ?) RETURNING {_T}",
                (int(guild_id), int(channel_id), kind, fmt, int(rounds), clock, int(organiser), locale, float(now)),
            )
            assert row is not None  # INSERT ... RETURNING gives the row
            return _tourney(row)

        return await self._write(body)

    async def tourney_current(self, guild_id: int) -> Tourney | None:
        """The guild's open or running tournament, else its latest one, else ``None``."""
        row = await self._one(
            f"SELECT {_T} FROM tournaments WHERE guild_id = ?"
            " ORDER BY CASE WHEN status IN ('open', 'running') THEN 0 ELSE 1 END, id DESC LIMIT 1",
            (int(guild_id),),
        )
        return None if row is None else _tourney(row)

    async def tourney_get(self, tournament_id: int) -> Tourney | None:
        """One tournament by id, or ``None``."""
        row = await self._one(f"SELECT {_T} FROM tournaments WHERE id = ?", (int(tournament_id),))
        return None if row is None else _tourney(row)

    async def tourney_running(self) -> list[Tourney]:
        """Every running tournament (start-up looks for pairings whose game never opened)."""
        return [_tourney(r) for r in await self._all(f"SELECT {_T} FROM tournaments WHERE status = 'running'")]

    async def tourney_join(
        self, tournament_id: int, user_id: int, name: str, now: float, *, limit: int | None = None
    ) -> str:
        """Enter ``user_id``: ``"joined"``, ``"already"``, ``"full"`` (``limit`` players are in already) or
        ``"closed"`` (it no longer takes entries); nothing changed but for ``"joined"``. The count is read in the
        same transaction as the insert (under the tournament's row lock), so two joins at once cannot pass it."""

        async def body(tx: Tx) -> str:
            row = await tx.fetchrow(
                f"SELECT status FROM tournaments WHERE id = ?{self.backend.sql.for_update}", (int(tournament_id),)
            )
            if row is None or row[0] != "open":
                return "closed"
            had = await tx.fetchrow(
                "SELECT 1 FROM tournament_players WHERE tournament_id = ? AND user_id = ?",
                (int(tournament_id), int(user_id)),
            )
            if had is not None:
                return "already"
            if limit is not None:
                n = await tx.fetchrow(
                    "SELECT count(*) FROM tournament_players WHERE tournament_id = ?", (int(tournament_id),)
                )
                if n is not None and int(n[0]) >= int(limit):
                    return "full"
            await tx.execute(
                "INSERT INTO tournament_players (tournament_id, user_id, name, joined_at) VALUES (?, ?, ?, ?)",
                (int(tournament_id), int(user_id), name[:100], float(now)),
            )
            return "joined"

        return await self._write(body)

    async def tourney_leave(self, tournament_id: int, user_id: int) -> str:
        """Take back an entry before the start: ``"left"``, ``"not_in"`` or ``"closed"`` (it started: withdraw)."""

        async def body(tx: Tx) -> str:
            row = await tx.fetchrow(
                f"SELECT status FROM tournaments WHERE id = ?{self.backend.sql.for_update}", (int(tournament_id),)
            )
            if row is None or row[0] != "open":
                return "closed"
            gone = await tx.fetchrow(
                "DELETE FROM tournament_players WHERE tournament_id = ? AND user_id = ? RETURNING user_id",
                (int(tournament_id), int(user_id)),
            )
            return "not_in" if gone is None else "left"

        return await self._write(body)

    async def tourney_withdraw(self, tournament_id: int, user_id: int) -> str:
        """Withdraw a player of a running tournament from the next pairings: ``"withdrawn"``, ``"already"``,
        ``"not_in"`` or ``"closed"`` (not running)."""

        async def body(tx: Tx) -> str:
            row = await tx.fetchrow(
                f"SELECT status, round FROM tournaments WHERE id = ?{self.backend.sql.for_update}",
                (int(tournament_id),),
            )
            if row is None or row[0] != "running":
                return "closed"
            me = await tx.fetchrow(
                "SELECT withdrawn FROM tournament_players WHERE tournament_id = ? AND user_id = ?",
                (int(tournament_id), int(user_id)),
            )
            if me is None:
                return "not_in"
            if me[0] is not None:
                return "already"
            await tx.execute(
                "UPDATE tournament_players SET withdrawn = ? WHERE tournament_id = ? AND user_id = ?",
                (int(row[1]), int(tournament_id), int(user_id)),
            )
            return "withdrawn"

        return await self._write(body)

    async def tourney_cancel(self, tournament_id: int, now: float) -> bool:
        """Cancel an ``open`` tournament (no game was played). True when it was open."""

        async def body(tx: Tx) -> bool:
            row = await tx.fetchrow(
                "UPDATE tournaments SET status = 'cancelled', finished_at = ? WHERE id = ? AND status = 'open'"
                " RETURNING id",
                (float(now), int(tournament_id)),
            )
            return row is not None

        return await self._write(body)

    async def tourney_players(self, tournament_id: int) -> list[Entrant]:
        """The entrants, in the order they joined."""
        rows = await self._all(
            "SELECT user_id, name, joined_at, withdrawn FROM tournament_players WHERE tournament_id = ?"
            " ORDER BY joined_at, user_id",
            (int(tournament_id),),
        )
        return [Entrant(int(r[0]), str(r[1]), float(r[2]), None if r[3] is None else int(r[3])) for r in rows]

    async def tourney_games(self, tournament_id: int) -> list[Pairing]:
        """Every pairing of the tournament, by round and board."""
        rows = await self._all(
            f"SELECT {_G} FROM tournament_games WHERE tournament_id = ? ORDER BY round, board", (int(tournament_id),)
        )
        return [_pairing(r) for r in rows]

    async def tourney_pairing_of(self, game_id: int) -> Pairing | None:
        """The pairing a game was opened for, or ``None``."""
        row = await self._one(f"SELECT {_G} FROM tournament_games WHERE game_id = ?", (int(game_id),))
        return None if row is None else _pairing(row)

    async def tourney_begin_round(
        self, tournament_id: int, round_no: int, games: Sequence[tuple[int, int | None, str | None]],
        *, start: bool = False, rounds: int | None = None, entrants: Collection[int] | None = None,
    ) -> bool:  # fmt: skip
        """Store round ``round_no``'s pairings ``[(a, b, outcome)]`` (boards 1, 2, ...) and make it the round
        being played, only when the tournament is in the state that leads there: ``open`` with ``start`` (round 1),
        else ``running`` at round ``round_no - 1`` with every game of it finished. False (nothing written)
        otherwise: someone else already did it, or the round is not over. ``rounds``: how many rounds it plays from now
        on (a round robin knows it at the start). ``entrants``: the players the pairings were made for; False
        (nothing written) when the tournament's entrants are no longer exactly those (someone joined or left
        meanwhile: pair again)."""

        async def body(tx: Tx) -> bool:
            row = await tx.fetchrow(
                f"SELECT status, round FROM tournaments WHERE id = ?{self.backend.sql.for_update}",
                (int(tournament_id),),
            )
            if row is None or (row[0], int(row[1])) != (("open", 0) if start else ("running", round_no - 1)):
                return False
            if not start and await self._unfinished(tx, tournament_id, round_no - 1):
                return False
            if entrants is not None:
                now_in = await tx.fetch(
                    "SELECT user_id FROM tournament_players WHERE tournament_id = ?", (int(tournament_id),)
                )
                if {int(r[0]) for r in now_in} != {int(u) for u in entrants}:
                    return False
            for board, (a, b, outcome) in enumerate(games, start=1):
                await tx.execute(
                    "INSERT INTO tournament_games (tournament_id, round, board, a, b, outcome)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (int(tournament_id), int(round_no), board, int(a), None if b is None else int(b), outcome),
                )
            await tx.execute(
                "UPDATE tournaments SET status = 'running', round = ?, rounds = coalesce(?, rounds) WHERE id = ?",
                (int(round_no), rounds, int(tournament_id)),
            )
            return True

        return await self._write(body)

    async def _unfinished(self, tx: Tx, tournament_id: int, round_no: int) -> bool:
        row = await tx.fetchrow(
            "SELECT count(*) FROM tournament_games WHERE tournament_id = ? AND round = ? AND outcome IS NULL",
            (int(tournament_id), int(round_no)),
        )
        return bool(row and int(row[0]))

    async def tourney_finish(self, tournament_id: int, round_no: int, now: float) -> bool:
        """Mark the tournament finished after its last round ``round_no`` (every game of it finished). False when
        it was not running at that round, or the round is not over (nothing written)."""

        async def body(tx: Tx) -> bool:
            row = await tx.fetchrow(
                f"SELECT status, round FROM tournaments WHERE id = ?{self.backend.sql.for_update}",
                (int(tournament_id),),
            )
            if row is None or (row[0], int(row[1])) != ("running", round_no):
                return False
            if await self._unfinished(tx, tournament_id, round_no):
                return False
            await tx.execute(
                "UPDATE tournaments SET status = 'finished', finished_at = ? WHERE id = ?",
                (float(now), int(tournament_id)),
            )
            return True

        return await self._write(body)

    async def tourney_opening(self, p: Pairing) -> float | None:
        """Mark ``p``'s game as being opened now (the storage clock, as games' ``created_at``; when no game is
        linked yet and it was not marked before). Returns the earlier ``opening_at`` (a crash left it: look for the
        game created since, :meth:`queue_game_since`), or ``None``."""
        now = float(self._clock())

        async def body(tx: Tx) -> float | None:
            row = await tx.fetchrow(
                "SELECT opening_at FROM tournament_games WHERE tournament_id = ? AND round = ? AND board = ?"
                f" AND game_id IS NULL{self.backend.sql.for_update}",
                (p.tournament_id, p.round, p.board),
            )
            if row is None:
                return None
            await tx.execute(
                "UPDATE tournament_games SET opening_at = ? WHERE tournament_id = ? AND round = ? AND board = ?",
                (float(now) if row[0] is None else float(row[0]), p.tournament_id, p.round, p.board),
            )
            return None if row[0] is None else float(row[0])

        return await self._write(body)

    async def tourney_link(self, p: Pairing, game_id: int) -> bool:
        """Record the game opened for ``p``. True when it had none."""

        async def body(tx: Tx) -> bool:
            row = await tx.fetchrow(
                "UPDATE tournament_games SET game_id = ? WHERE tournament_id = ? AND round = ? AND board = ?"
                " AND game_id IS NULL RETURNING board",
                (int(game_id), p.tournament_id, p.round, p.board),
            )
            return row is not None

        return await self._write(body)

    async def tourney_settle(self, p: Pairing, outcome: str) -> bool:
        """Score ``p`` without a game (``outcome`` ``a``/``b``: a forfeit; ``none``: unplayed) while it has no game
        linked and no outcome (the caller looked for a game opened since ``opening_at`` first). True when settled."""

        async def body(tx: Tx) -> bool:
            row = await tx.fetchrow(
                "UPDATE tournament_games SET outcome = ? WHERE tournament_id = ? AND round = ? AND board = ?"
                " AND game_id IS NULL AND outcome IS NULL RETURNING board",
                (outcome, p.tournament_id, p.round, p.board),
            )
            return row is not None

        return await self._write(body)

    async def tourney_record(self, game_id: int, outcome: str) -> bool:
        """Record the tournament outcome of a finished game. True when it was still unrecorded."""

        async def body(tx: Tx) -> bool:
            row = await tx.fetchrow(
                "UPDATE tournament_games SET outcome = ? WHERE game_id = ? AND outcome IS NULL RETURNING board",
                (outcome, int(game_id)),
            )
            return row is not None

        return await self._write(body)
