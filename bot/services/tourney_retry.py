"""Tournament games that could not open (a cap, a refused post, a database failure): tried again, and the channel
told when the tries run out (:func:`bot.services.tourney_forfeit.tell_stuck`). Split from ``tournaments.py`` by job.

- Outside an effect (the start, a withdrawal, a READY): :meth:`Tries.retry`, ``RETRIES`` more tries ``RETRY_S``
  apart, one series per tournament (a newer one replaces the one under way, never doubles it); then the notice.
- In a game's ``tourney`` effect (a new round opens when the last game of the one before ends): the outbox retries
  with its back-off; when that effect has failed ``RETRIES`` + 1 times, :meth:`Tries.tell_once` tells the round's
  stuck boards once (in this process), whichever game's effect runs out first.
- After the notice, either way: the series goes on, one try every ``tourney_rules.slow_s()`` (5 min by default)
  until the boards open, are settled or the tournament ends, so what the notice says ("I try them again every 5
  minutes") is true even when no other game of the tournament is running whose end would try them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot.services import tourney_forfeit
from bot.services import tourney_rules as rules

if TYPE_CHECKING:
    from bot.core.layer import GameLayer
    from bot.storage.tourneys import Pairing


class Tries:
    """The tries of one process's tournaments: ``lock(tid)`` is the tournament's lock, ``advance(tid)`` opens what
    is unopened (returns how many could not open, having stored why in :attr:`stuck`)."""

    def __init__(
        self, layer: GameLayer, lock: Callable[[int], asyncio.Lock], advance: Callable[[int], Awaitable[int]]
    ) -> None:
        self.layer = layer
        self._lock = lock
        self._advance = advance
        self.stuck: dict[int, list[tuple[Pairing, Exception]]] = {}
        """Per tournament, the boards of its last try that could not open, and why."""
        self._series: dict[int, int] = {}
        """Per tournament, its current series of tries (:meth:`retry`): an older series stops at its next wake."""
        self._told: set[tuple[int, int]] = set()
        """The (tournament, round) whose stuck boards the games' effects told (:meth:`tell_once`)."""

    def retry(self, tournament_id: int, failed: int, attempt: int = 0, series: int | None = None) -> None:
        """Games that could not open outside an effect (``failed`` of them): tried again after ``RETRY_S``, up to
        ``RETRIES`` times, then the channel is told (:meth:`tell`) and the tries go on every
        ``tourney_rules.slow_s()`` until none fails (opened, settled, or the tournament is over). One series of
        tries per tournament: a new one (the start, a withdrawal, a READY) replaces the one under way, so the boards
        are not tried twice as often and the channel is not told twice (its players pinged twice) when both run
        out. ``attempt`` past ``RETRIES`` starts a series already told (:meth:`tell_once`)."""
        if series is None:
            series = self._series.get(tournament_id, 0) + 1
            self._series[tournament_id] = series
        elif self._series.get(tournament_id) != series:
            return  # a newer series took over
        if not failed:
            return
        if attempt == rules.RETRIES:
            self.tell(tournament_id)
        wait = rules.RETRY_S if attempt < rules.RETRIES else rules.slow_s()

        async def again() -> None:
            await asyncio.sleep(wait)
            if self._series.get(tournament_id) != series:
                return
            async with self._lock(tournament_id):
                left = await self._advance(tournament_id)
            self.retry(tournament_id, left, attempt + 1, series)

        self.layer.bot.spawn(again(), name=f"tourney-retry-{tournament_id}")

    def tell(self, tournament_id: int) -> None:
        """The channel told which boards of the last try are still not open after ``RETRIES`` + 1 tries."""
        stuck = self.stuck.pop(tournament_id, [])
        self.layer.bot.spawn(
            tourney_forfeit.tell_stuck(self.layer, tournament_id, stuck, rules.RETRIES + 1),
            name=f"tourney-stuck-{tournament_id}",
        )

    def tell_once(self, tournament_id: int) -> None:
        """:meth:`tell` for the games' ``tourney`` effects: each game that ended has an effect of its own, tried
        with the outbox's back-off, so the boards of a round are told once, whichever effect runs out first."""
        rounds = {p.round for p, _ in self.stuck.get(tournament_id, [])}
        if not rounds or (tournament_id, max(rounds)) in self._told:
            return
        self._told.add((tournament_id, max(rounds)))
        self.retry(tournament_id, len(self.stuck[tournament_id]), attempt=rules.RETRIES)  # told, then the slow tries
