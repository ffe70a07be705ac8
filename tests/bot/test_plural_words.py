"""Plurals and grammar in player text (trial: "1 players so far", "(1 pts)", "1 server(s)", "winner(s):", "grant
them to me" for one permission, "It is not your turn: …" without its full stop): a count picks its form through
``bot.i18n.tn`` (``.one`` / ``.other`` keys), never a fixed plural or ``(s)``; an engine's English message ends
as a sentence. English and Spanish."""

from __future__ import annotations

import re

import pytest

from bot.errors import BotError, describe
from bot.i18n import MESSAGES, tn
from bot.services.access import Perms
from engine.errors import NotYourTurnError

HEDGED = re.compile(r"\w\((?:s|es|n|as|os)\)")
"""A hedged plural: "game(s)", "servidor(es)", "gana(n)"."""


@pytest.mark.parametrize("lang", ["en", "es"])
def test_no_catalogue_text_hedges_a_plural(lang: str) -> None:
    found = {key: text for key, text in MESSAGES[lang].items() if HEDGED.search(text)}
    assert found == {}, found


def test_the_hedge_scan_can_fail() -> None:
    assert all(HEDGED.search(s) for s in ("1 server(s)", "2 partida(s)", "servidor(es)", "gana(n):"))
    assert not HEDGED.search("rank (shared) · (shards)")


@pytest.mark.parametrize(
    ("key", "kw", "one", "two"),
    [
        ("tourney.joined", {"game": "CONEX"}, "(1 player so far)", "(2 players so far)"),
        ("tourney.podium_line", {"place": 1, "player": "A", "points": "1"}, "(1 point)", "(1 points)"),
        ("tourney.not_opened", {}, "1 game could not open yet; it is", "2 games could not open yet; they are"),
        ("about.servers", {}, "1 server", "2 servers"),
        ("tq.every_s", {}, "1 second", "2 seconds"),
        ("about.shards_all", {}, "1 shard", "2 shards"),
        ("about.shards_some", {"ids": "0", "count": 4}, "runs shard 0 of 4", "runs shards 0 of 4"),
        ("cn.over_why", {"why": "w", "winners": "A", "scores": "s"}, "winner: **A**", "winners: **A**"),
        ("err.missing_perms", {"perms": "P"}, "can grant it to me", "can grant them to me"),
        ("pz.daily_missing_perms", {"perms": "P", "channel": 5}, "can grant it to me", "can grant them to me"),
    ],
)
def test_english_counts_pick_their_form(key: str, kw: dict[str, object], one: str, two: str) -> None:
    assert one in tn(key, 1, "en", **kw) and two in tn(key, 2, "en", **kw)
    assert one not in tn(key, 2, "en", **kw)


@pytest.mark.parametrize(
    ("key", "kw", "one", "two"),
    [
        ("tourney.joined", {"game": "CONEX"}, "(1 jugador por ahora)", "(2 jugadores por ahora)"),
        ("tourney.not_opened", {}, "1 partida aún no se ha", "2 partidas aún no se han"),
        ("about.servers", {}, "1 servidor", "2 servidores"),
        ("cn.over_why", {"why": "w", "winners": "A", "scores": "s"}, "gana: **A**", "ganan: **A**"),
        (
            "err.missing_perms",
            {"perms": "P"},
            "me falta P. Un administrador del servidor puede concedérmelo ",
            "me faltan P",
        ),
    ],
)
def test_spanish_counts_pick_their_form(key: str, kw: dict[str, object], one: str, two: str) -> None:
    assert one in tn(key, 1, "es", **kw) and two in tn(key, 2, "es", **kw)


@pytest.mark.parametrize(
    ("flags", "said"), [(("attach_files",), "grant it to me"), (("attach_files", "view_channel"), "grant them to me")]
)
def test_a_missing_permission_refusal_counts_the_permissions(flags: tuple[str, ...], said: str) -> None:
    text = describe(BotError("err.missing_perms", rule="Permissions", perms=Perms(flags), count=len(flags)), "en")
    assert said in text, text


@pytest.mark.parametrize("locale", ["en", "es"])
def test_an_engine_refusal_ends_as_a_sentence(locale: str) -> None:
    text = describe(NotYourTurnError("it is not your turn: wait for your opponent's action"), locale)
    assert text[0].isupper() and text.endswith("."), text
