"""Tournaments' fixed terms (:mod:`bot.services.tournaments`): formats, sizes, rounds, how games that cannot open
are tried again (``TOURNEY_RETRY_S``), and the outcome a tournament scores for an ended game. Split from
``tournaments.py`` by job."""

from __future__ import annotations

import logging
import math
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.storage import GameRecord

log = logging.getLogger(__name__)

KEY = "tourney"
"""``Envelope.extra`` key of a tournament game: ``[tournament id, round, board]``."""
EFFECT = "tourney"
FORMATS = ("swiss", "roundrobin")
MIN_PLAYERS = 3
MAX_PLAYERS = 64
MAX_ROUND_ROBIN = 10
DEFAULT_ROUNDS = 3
MIN_ROUNDS, MAX_ROUNDS = 1, 10
DEFAULT_RETRY_S = 30.0


def retry_seconds(raw: str | None) -> float:
    """``TOURNEY_RETRY_S`` read: a positive, finite number of seconds; anything else (unset, empty, a typo, 0,
    negative, ``nan``, ``inf``) is :data:`DEFAULT_RETRY_S` (a bad value logged), never a bot that cannot start."""
    if raw is None or not raw.strip():
        return DEFAULT_RETRY_S
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not math.isfinite(value) or value <= 0:
        log.warning("TOURNEY_RETRY_S=%r is not a positive number of seconds: %s s used", raw, DEFAULT_RETRY_S)
        return DEFAULT_RETRY_S
    return value


RETRY_S = retry_seconds(os.environ.get("TOURNEY_RETRY_S"))
"""Seconds between two tries of games that could not open (``TOURNEY_RETRY_S``: the tests shorten it)."""
RETRIES = 10
SLOW_FACTOR = 10
"""After its ``RETRIES`` tries (and the notice), a board that still cannot open is tried every ``SLOW_FACTOR`` x
``RETRY_S`` (5 minutes by default) for as long as it waits: the notice's promise holds even when no other game of
the tournament is running (whose end would try it too)."""


def slow_s() -> float:
    """Seconds between two tries after the notice (read at each wait: the tests shorten ``RETRY_S``)."""
    return RETRY_S * SLOW_FACTOR


PAIR_ATTEMPTS = 3
"""How many times ``/tournament start`` pairs again when entries change while it pairs."""


def outcome_of(record: GameRecord, a: int, b: int) -> str:
    """The tournament outcome of an ended game between seat 0 ``a`` and seat 1 ``b``: ``"a"``, ``"b"``, ``"draw"``,
    or ``"none"`` (aborted, or no result: nobody scores)."""
    result = record.result
    if record.status != "finished" or result is None:
        return "none"
    said = result.results or {}
    if said.get(a) == "win" or said.get(b) == "loss":
        return "a"
    if said.get(b) == "win" or said.get(a) == "loss":
        return "b"
    if said.get(a) == "draw":
        return "draw"
    first = result.ranking[0] if result.ranking else ()
    if a in first and b in first:
        return "draw"
    return "a" if a in first else "b" if b in first else "none"
