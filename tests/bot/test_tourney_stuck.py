"""Tournament boards whose tries run out (bot/services/tourney_retry.py ``Tries.retry``, bot/services/tourney_forfeit.py
``tell_stuck``): one series of tries per tournament, one notice when it runs out, each notice a post of its own;
the notice pages within Discord's limit and pings exactly the players it names and the organiser, in both
languages. The e2e side is at the end of tests/e2e/test_tournament_unplayable.py."""

from __future__ import annotations

import asyncio
import os
import re
import sqlite3
import subprocess
import sys
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest

from bot.errors import BotError
from bot.services import tourney_forfeit, tourney_rules
from bot.services.tournaments import Tournaments
from bot.services.tourney_rules import RETRIES
from bot.storage.effects import Effect
from bot.storage.errors import StorageError
from bot.storage.tourneys import Pairing, Tourney

BIG = 10**17  # Discord ids are 18 digits: the longest lines
ORGANISER = BIG + 999


def tourney(locale: str | None = "en-US", status: str = "running") -> Tourney:
    return Tourney(5, 1, 2, "constructo", "swiss", 3, "rapid", ORGANISER, status, 1, locale, 0.0)


def boards(n: int) -> list[Pairing]:
    return [Pairing(5, 1, i + 1, BIG + 2 * i, BIG + 2 * i + 1, None, None, None) for i in range(n)]


class Channel:
    def __init__(self, sent: list[dict[str, Any]], refuse: bool = False) -> None:
        self.sent = sent
        self.refuse = refuse

    async def send(self, text: str, **kw: Any) -> None:
        if self.refuse:
            raise RuntimeError("403 Missing Access")
        self.sent.append({"text": text, **kw})


class Bot:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.tasks: list[asyncio.Task[Any]] = []
        self.refuse = False

    def spawn(self, coro: Any, *, name: str) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        task.set_name(name)
        self.tasks.append(task)
        return task

    def get_partial_messageable(self, channel_id: int, *, guild_id: int) -> Channel:
        return Channel(self.sent, self.refuse)

    async def settle(self, skip: str | None = None) -> None:
        """Until every task spawned (and every task those spawned) has ended, but those named ``skip...``."""
        while not all(t.done() for t in self.waited(skip)):
            await asyncio.gather(*self.waited(skip))

    def waited(self, skip: str | None) -> list[asyncio.Task[Any]]:
        return [t for t in self.tasks if skip is None or not t.get_name().startswith(skip)]


class Storage:
    def __init__(self, tour: Tourney, rows: list[Pairing]) -> None:
        self.tour, self.rows = tour, rows

    async def tourney_get(self, tournament_id: int) -> Tourney:
        return self.tour

    async def tourney_games(self, tournament_id: int) -> list[Pairing]:
        return self.rows


def layer(tour: Tourney, rows: list[Pairing]) -> Any:
    return SimpleNamespace(
        bot=Bot(),
        storage=Storage(tour, rows),
        outbox=SimpleNamespace(subscribe=lambda *a, **kw: None),
        on_ready_hooks=[],
    )


async def test_two_series_of_tries_at_once_make_one_series_and_one_notice(monkeypatch: pytest.MonkeyPatch) -> None:
    """The start's tries are under way when a player withdraws (or a READY comes): the newer series replaces the
    older one. Two series would try each board twice as often and tell the channel twice, pinging everyone twice."""
    rows = boards(2)
    lay = layer(tourney(), rows)
    tours = Tournaments(lay)
    monkeypatch.setattr(tourney_rules, "RETRY_S", 0.0)
    tries: list[int] = []

    async def advance(tournament_id: int, record: Any) -> int:
        tries.append(tournament_id)
        if len(tries) > RETRIES + 3:  # three slow tries after the notice, then the cap allows it
            tours.tries.stuck[tournament_id] = []
            return 0
        tours.tries.stuck[tournament_id] = [(rows[1], BotError("cap.server", count=1, limit=1))]
        return 1

    monkeypatch.setattr(tours, "_advance", advance)
    tours.tries.retry(5, 1)  # the start: board 2 could not open
    await asyncio.sleep(0)
    tours.tries.retry(5, 1)  # a withdrawal meanwhile: its own try failed too
    await lay.bot.settle()
    assert len(lay.bot.sent) == 1, [m["text"] for m in lay.bot.sent]
    assert len(tries) == RETRIES + 4, f"{len(tries)} tries: one series goes on after its notice until none fails"


async def test_a_second_notice_after_a_new_series_is_posted_not_swallowed_by_its_nonce(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """After a READY the boards get a new series of tries; when it runs out too the channel is told again. Each
    notice is its own post: Discord (with the ``enforce_nonce`` discord.py sends) returns the earlier message for a
    nonce used in the past few minutes and posts nothing, so two notices must not share one."""
    rows = boards(1)
    lay = layer(tourney(), rows)
    stuck = [(rows[0], BotError("cap.server", count=1, limit=1))]
    await tourney_forfeit.tell_stuck(lay, 5, stuck, RETRIES + 1)
    await tourney_forfeit.tell_stuck(lay, 5, stuck, RETRIES + 1)
    nonces = [m["nonce"] for m in lay.bot.sent]
    assert len(nonces) == 2 and len(set(nonces)) == 2, nonces
    assert all(len(n) <= 25 for n in nonces), nonces


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
async def test_the_notice_of_64_players_pages_and_pings_exactly_whom_each_page_names(locale: str) -> None:
    rows = boards(32)
    lay = layer(tourney(locale), rows)
    errors: list[Exception] = [
        BotError("cap.server", count=50, limit=50),
        BotError("cap.member", count=5, limit=5),
        BotError("cap.threads", count=20, limit=20),
        RuntimeError("403 Forbidden"),
    ]
    await tourney_forfeit.tell_stuck(lay, 5, [(p, errors[i % 4]) for i, p in enumerate(rows)], RETRIES + 1)
    sent = lay.bot.sent
    assert len(sent) > 1, "32 boards do not fit in one message"
    named_everywhere: set[int] = set()
    for m in sent:
        assert len(m["text"]) <= 2000
        named = {int(x) for x in re.findall(r"<@(\d+)>", m["text"])}
        pinged = {u.id for u in m["allowed_mentions"].users}
        assert pinged == named and ORGANISER in pinged, (pinged ^ named, m["text"][:200])
        assert m["allowed_mentions"].everyone is False and m["allowed_mentions"].roles is False
        named_everywhere |= named
    assert named_everywhere == {ORGANISER} | {u for p in rows for u in (p.a, p.b or 0)}
    assert len({m["nonce"] for m in sent}) == len(sent)


async def test_no_notice_for_a_board_opened_meanwhile_or_a_tournament_over() -> None:
    rows = boards(2)
    opened = [rows[0], Pairing(5, 1, 2, rows[1].a, rows[1].b, None, 77, None)]
    lay = layer(tourney(), opened)
    stuck: list[tuple[Pairing, Exception]] = [(p, RuntimeError("x")) for p in rows]
    await tourney_forfeit.tell_stuck(lay, 5, stuck, RETRIES + 1)
    assert len(lay.bot.sent) == 1 and "Board 2" not in lay.bot.sent[0]["text"], lay.bot.sent
    for status in ("finished", "cancelled"):
        over = layer(tourney(status=status), rows)
        await tourney_forfeit.tell_stuck(over, 5, stuck, RETRIES + 1)
        assert over.bot.sent == []
    refused = layer(tourney(), rows)
    refused.bot.refuse = True
    await tourney_forfeit.tell_stuck(refused, 5, stuck, RETRIES + 1)  # logged, not raised


@pytest.mark.parametrize(
    ("raw", "want"), [("0.3", "0.3"), ("", "30.0"), ("abc", "30.0"), ("-5", "30.0"), ("0", "30.0"), ("nan", "30.0")]
)
def test_a_bad_tourney_retry_s_falls_back_to_30_s_instead_of_stopping_the_bot(raw: str, want: str) -> None:
    """``TOURNEY_RETRY_S`` is read when the module is imported, i.e. when the bot starts: a typo must not make the
    bot unable to start (``ValueError: could not convert string to float``), nor 0 or a negative value retry in a
    tight loop."""
    done = subprocess.run(
        [sys.executable, "-c", "import bot.services.tourney_rules as t; print(t.RETRY_S)"],
        env={**os.environ, "TOURNEY_RETRY_S": raw},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-500:]
    assert done.stdout.strip() == want


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
@pytest.mark.parametrize(
    ("err", "words"),
    [
        (sqlite3.OperationalError("database or disk is full"), {"en-US": "disk is full", "es-ES": "está lleno"}),
        (sqlite3.OperationalError("attempt to write a readonly database"), {"en-US": "read-only", "es-ES": "lectura"}),
        (StorageError("the database stayed busy", rule="Busy"), {"en-US": "stayed busy", "es-ES": "ocupada"}),
    ],
)
async def test_a_board_stuck_on_the_database_is_not_blamed_on_the_channels_permissions(
    locale: str, err: Exception, words: dict[str, str]
) -> None:
    """The game could not be saved: nothing was posted, so "I could not post the game here ... check my
    permissions" would send the organiser after the wrong thing."""
    rows = boards(1)
    lay = layer(tourney(locale), rows)
    await tourney_forfeit.tell_stuck(lay, 5, [(rows[0], err)], RETRIES + 1)
    text = lay.bot.sent[0]["text"]
    assert words[locale] in text, text
    assert "permis" not in text and "publicar" not in text and "post the game" not in text, text


async def test_a_new_rounds_boards_stuck_in_the_games_effects_are_told_once_when_their_tries_run_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Round 2 onwards opens in the ``tourney`` effect of the game that ended round 1; a board that cannot open
    fails that effect, which the outbox tries again with its back-off (about 6 hours, then gives up). Its players
    were never told: the channel is told when the effect has failed as many times as the start's series tries,
    once per round even when two games' effects run out."""
    rows = [Pairing(5, 2, 1, BIG, BIG + 1, None, None, None)]
    lay = layer(replace(tourney(), round=2), rows)
    tours = Tournaments(lay)
    ended = SimpleNamespace(id=41, status="finished")

    async def get_game(game_id: int) -> Any:
        return ended

    async def pairing_of(game_id: int) -> Pairing:
        return Pairing(5, 1, 1, BIG + 5, None, None, game_id, None)  # a bye's row: nothing to record

    async def advance(tournament_id: int, record: Any) -> int:
        tours.tries.stuck[tournament_id] = [(rows[0], BotError("cap.member", count=5, limit=5))]
        return 1

    monkeypatch.setattr(lay.storage, "get_game", get_game, raising=False)
    monkeypatch.setattr(lay.storage, "tourney_pairing_of", pairing_of, raising=False)
    monkeypatch.setattr(tours, "_advance", advance)
    for game_id in (41, 42):  # the effects of two games that ended
        for attempts in range(RETRIES + 3):
            effect = Effect(1, game_id, 1, 3, "tourney", {}, 0.0, 0.0, attempts, None)
            with pytest.raises(RuntimeError):
                await tours.effect(effect)
            await lay.bot.settle(skip="tourney-retry")  # the slow tries after the notice sleep 5 minutes
            if game_id == 41:
                assert len(lay.bot.sent) == (1 if attempts >= RETRIES else 0), (attempts, lay.bot.sent)
    assert len(lay.bot.sent) == 1
    text = lay.bot.sent[0]["text"]
    assert text.startswith("**Round 2:"), text
    assert f"<@{BIG}> vs <@{BIG + 1}>" in text and "the limit per member is 5" in text, text
    assert "I keep trying them every 5 minutes" in text, text
    slow = [t for t in lay.bot.tasks if t.get_name() == "tourney-retry-5" and not t.done()]
    assert len(slow) == 1, "the notice's promise: one series of slow tries goes on (no game of round 2 may end)"
    slow[0].cancel()


@pytest.mark.parametrize(
    ("seconds", "locale", "words"),
    [
        (300.0, "en-US", "5 minutes"),
        (300.0, "es-ES", "5 minutos"),
        (0.3 * 10, "en-US", "3 seconds"),
        (90.0, "en-US", "90 seconds"),
        (450.0, "es-ES", "450 segundos"),
        (0.01, "en-US", "1 second"),
        (0.01, "es-ES", "1 segundo"),
    ],
)
def test_the_notice_names_the_span_of_its_slow_tries_as_it_is(seconds: float, locale: str, words: str) -> None:
    """What the notice promises ("every 5 minutes") is ``tourney_rules.slow_s()`` said exactly: whole minutes only
    when the span is some, never 7.5 minutes rounded to 8."""
    assert tourney_forfeit.every(seconds, locale) == words
    assert tourney_rules.slow_s() == tourney_rules.RETRY_S * tourney_rules.SLOW_FACTOR
