"""What players read of a tournament (bot/services/tourney_text.py) and how an ended game scores
(bot/services/tournaments.py ``outcome_of``): within Discord's limits, in both languages, paged."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace

import pytest

from bot.services import pairing, tourney_text
from bot.services.tournaments import Tournaments
from bot.services.tourney_rules import KEY, outcome_of
from bot.storage import GameRecord, GameResult
from bot.storage.tourneys import Entrant, Pairing, Tourney

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def tourney(status: str = "running", fmt: str = "swiss", locale: str | None = "en-US") -> Tourney:
    return Tourney(1, 10, 11, "constructo", fmt, 5, "daily", 7, status, 2, locale, 0.0)


def record(status: str, result: GameResult | None) -> GameRecord:
    return GameRecord(5, "constructo", 10, 11, status, {}, 3, [1, 2], {}, NOW, NOW, result)


@pytest.mark.parametrize(
    ("results", "ranking", "want"),
    [
        ({1: "win", 2: "loss"}, ((1,), (2,)), "a"),
        ({1: "loss", 2: "win"}, ((2,), (1,)), "b"),
        ({1: "draw", 2: "draw"}, ((1, 2),), "draw"),
        (None, ((2,), (1,)), "b"),
        (None, ((1, 2),), "draw"),
    ],
)
def test_outcome_of_a_finished_game(results: dict[int, str] | None, ranking: tuple, want: str) -> None:
    assert outcome_of(record("finished", GameResult(ranking, results=results)), 1, 2) == want


def test_an_aborted_game_scores_nothing() -> None:
    assert outcome_of(record("aborted", None), 1, 2) == "none"


def test_points_are_written_with_halves() -> None:
    assert [tourney_text.pts(v) for v in (0.0, 0.5, 1.0, 2.5, 1.75)] == ["0", "½", "1", "2½", "1.75"]


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
def test_standings_of_64_players_page_within_the_message_limit(locale: str) -> None:
    players = list(range(1, 65))
    entrants = [Entrant(p, f"player-with-a-long-name-{p:02d}"[:32], float(p), 3 if p == 7 else None) for p in players]
    games: list[pairing.Game] = []
    for r in (1, 2, 3):
        games += [pairing.Game(r, g.a, g.b, g.outcome or "a") for g in pairing.swiss_round(players, games, r)]
    tour = tourney(locale=locale)
    first, n = tourney_text.standings_page(tour, "Constructo", entrants, games, 1, locale)
    assert n > 1 and len(first) <= 2000
    seen = []
    for page in range(1, n + 1):
        text, _ = tourney_text.standings_page(tour, "Constructo", entrants, games, page, locale)
        assert len(text) <= 2000 and "Buchholz" in text
        seen += [ln for ln in text.split("\n") if " pts (" in ln]
    assert len(seen) == 64 and seen[0].startswith("1. ") and seen[-1].startswith("64. ")
    assert sum("(withdrew)" in ln or "(retirado)" in ln for ln in seen) == 1
    last, _ = tourney_text.standings_page(tour, "Constructo", entrants, games, 99, locale)
    assert last == tourney_text.standings_page(tour, "Constructo", entrants, games, n, locale)[0], "clamped"


def test_a_round_message_mentions_its_players_and_names_the_bye() -> None:
    rows = [Pairing(1, 2, 1, 11, 12, None, 50, None), Pairing(1, 2, 2, 13, None, "bye", None, None)]
    ((text, mentions),) = tourney_text.round_text(tourney(), "Constructo", rows)
    assert "round 2 of 5" in text and "Board 1: <@11> vs <@12>" in text and "Bye (scores as a win): <@13>" in text
    assert sorted(mentions) == [11, 12, 13]
    ((es, _),) = tourney_text.round_text(tourney(locale="es-ES"), "Constructo", rows)
    assert "ronda 2 de 5" in es and "Descansa" in es


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
def test_a_round_of_64_names_every_board_within_discords_limit_even_after_the_start_line(locale: str) -> None:
    ids = [1323802873036800700 + i for i in range(64)]
    rows = [Pairing(1, 1, i + 1, ids[2 * i], ids[2 * i + 1], None, 100 + i, None) for i in range(32)]
    lead = "The Constructo tournament starts with 64 players (Swiss; rounds: 10).\n3 games could not open yet."
    said = tourney_text.round_text(tourney(locale=locale), "Constructo", rows, lead=lead)
    assert all(len(text) <= 2000 for text, _ in said), [len(text) for text, _ in said]
    text = "\n".join(text for text, _ in said)
    assert all(f"<@{i}>" in text for i in ids) and "…" not in text and text.startswith(lead)
    for page, mentions in said:
        assert sorted(mentions) == sorted(i for i in ids if f"<@{i}>" in page), "each message pings its own boards"


def test_only_an_ended_tournament_game_owes_the_effect() -> None:
    rule = Tournaments.owed

    def snap(status: str, extra: dict) -> SimpleNamespace:
        return SimpleNamespace(status=status, env=SimpleNamespace(extra=extra))

    assert [o.kind for o in rule(None, snap("finished", {KEY: [1, 1, 1]}), None)] == ["tourney"]  # type: ignore[arg-type]
    assert [o.kind for o in rule(None, snap("aborted", {KEY: [1, 1, 1]}), None)] == ["tourney"]  # type: ignore[arg-type]
    assert rule(None, snap("active", {KEY: [1, 1, 1]}), None) == []  # type: ignore[arg-type]
    assert rule(None, snap("finished", {}), None) == []  # type: ignore[arg-type]
