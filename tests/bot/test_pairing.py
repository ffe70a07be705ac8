"""Tournament pairings and standings (bot/services/pairing.py): no repeats, byes, seats, the tie-break."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.services.pairing import Game, round_robin_round, round_robin_rounds, standings, swiss_round


def play(round_games: list[Game], rng: random.Random) -> list[Game]:
    return [g if g.outcome else Game(g.round, g.a, g.b, rng.choice(["a", "b", "draw"])) for g in round_games]


def run_swiss(n: int, rounds: int, seed: int) -> list[Game]:
    rng = random.Random(seed)
    players = list(range(101, 101 + n))
    games: list[Game] = []
    for r in range(1, rounds + 1):
        pairs = swiss_round(players, games, r)
        seated = [p for g in pairs for p in (g.a, g.b) if p is not None]
        assert sorted(seated) == players  # everyone plays (or has the bye) exactly once a round
        games += play(pairs, rng)
    return games


def pairs_of(games: list[Game]) -> list[frozenset[int]]:
    return [frozenset((g.a, g.b)) for g in games if g.b is not None]


@given(n=st.integers(3, 14), seed=st.integers(0, 10**6), data=st.data())
@settings(max_examples=60, deadline=None)
def test_swiss_never_repeats_a_pairing_or_a_bye_while_it_can_be_helped(n: int, seed: int, data: st.DataObject) -> None:
    rounds = data.draw(st.integers(1, max(1, n // 2)))  # Dirac: a pairing without repeats always exists then
    games = run_swiss(n, rounds, seed)
    pairs = pairs_of(games)
    assert len(pairs) == len(set(pairs))
    byes = [g.a for g in games if g.b is None]
    assert len(byes) == len(set(byes)) == (rounds if n % 2 else 0)


def test_seven_players_three_rounds_byes_go_to_the_lowest_scores() -> None:
    players = list(range(1, 8))
    games = [*swiss_round(players, [], 1)]
    assert sum(g.b is None for g in games) == 1
    games = [Game(1, g.a, g.b, "bye" if g.b is None else "a") for g in games]  # seat 0 wins every game
    losers = {g.b for g in games if g.b is not None}
    r2 = swiss_round(players, games, 2)
    (bye,) = [g.a for g in r2 if g.b is None]
    assert bye in losers  # a player on 0 points sits out, never one who won or had the bye
    assert not set(pairs_of(r2)) & set(pairs_of(games))


def test_a_repeat_only_when_nothing_else_pairs_everyone() -> None:
    players = [1, 2, 3, 4]
    games: list[Game] = []
    for r in (1, 2, 3):
        games += [Game(r, g.a, g.b, "draw") for g in swiss_round(players, games, r)]
    assert len(set(pairs_of(games))) == 6  # all three rounds without a repeat: everyone met everyone
    r4 = swiss_round(players, games, 4)
    assert sorted(p for g in r4 for p in (g.a, g.b)) == players  # then a repeat, but everyone is paired


def test_seats_alternate() -> None:
    players = list(range(1, 9))
    games: list[Game] = []
    for r in range(1, 5):
        games += [Game(r, g.a, g.b, "draw") for g in swiss_round(players, games, r)]
    firsts = {p: sum(g.a == p for g in games) for p in players}
    assert all(f == 2 for f in firsts.values()), firsts


@pytest.mark.parametrize("n", [3, 4, 5, 7, 8, 10])
def test_round_robin_meets_everyone_once(n: int) -> None:
    players = list(range(10, 10 + n))
    games = [g for r in range(1, round_robin_rounds(n) + 1) for g in round_robin_round(players, r)]
    assert sorted(pairs_of(games), key=sorted) == sorted(
        (frozenset(c) for c in itertools.combinations(players, 2)), key=sorted
    )
    byes = [g.a for g in games if g.b is None]
    assert sorted(byes) == (players if n % 2 else [])
    for r in range(1, round_robin_rounds(n) + 1):
        seated = [p for g in round_robin_round(players, r) for p in (g.a, g.b) if p is not None]
        assert sorted(seated) == players
    with pytest.raises(ValueError):
        round_robin_round(players, round_robin_rounds(n) + 1)


def test_round_robin_withdrawn_games_are_unplayed() -> None:
    out = round_robin_round([1, 2, 3, 4], 2, withdrawn=[3])
    gone = [g for g in out if 3 in (g.a, g.b)]
    assert len(gone) == 1 and gone[0].outcome == "none"
    assert gone[0].points(gone[0].opponent(3) or 0) == 0.0


def test_tie_break_points_buchholz_berger_direct() -> None:
    # 1 beats 2, 3 beats 4; then 1 draws 3, 2 beats 4.  Points: 1: 1.5, 3: 1.5, 2: 1, 4: 0.
    games = [Game(1, 1, 2, "a"), Game(1, 3, 4, "a"), Game(2, 1, 3, "draw"), Game(2, 2, 4, "a")]
    table = standings([1, 2, 3, 4], games)
    assert [s.player for s in table] == [1, 3, 2, 4]  # 1 and 3 tied on points: Buchholz 1+1.5 > 0+1.5
    assert table[0].buchholz == 2.5 and table[1].buchholz == 1.5
    assert table[0].berger == 1 + 0.75  # beat 2 (1 point) + drew 3 (half of 1.5)
    # Sonneborn-Berger decides between equal points and Buchholz: A beats B, C draws D; A draws C, B beats D.
    games = [Game(1, 1, 2, "a"), Game(1, 3, 4, "draw"), Game(2, 1, 3, "draw"), Game(2, 2, 4, "a")]
    table = standings([1, 2, 3, 4], games)
    by = {s.player: s for s in table}
    assert by[2].points == by[3].points == 1.0 and by[2].buchholz == by[3].buchholz == 2.0
    assert (by[2].berger, by[3].berger) == (0.5, 1.0)  # 2 beat 4 (0.5); 3 drew 4 (0.25) and 1 (0.75)
    assert [s.player for s in table] == [1, 3, 2, 4]
    # the direct encounter: 3 and 4 tied on points, Buchholz, Sonneborn-Berger and wins; 3 beat 4 in round 3,
    # so 3 ranks first although 4 is seeded first
    games = [
        Game(1, 6, 3, "b"), Game(1, 2, 5, "b"), Game(1, 1, 4, "b"),
        Game(2, 4, 5, "a"), Game(2, 6, 2, "a"), Game(2, 3, 1, "b"),
        Game(3, 6, 5, "draw"), Game(3, 2, 1, "b"), Game(3, 4, 3, "b"),
    ]  # fmt: skip
    table = standings([4, 3, 1, 5, 6, 2], games)
    assert (table[0].points, table[0].buchholz, table[0].berger) == (table[1].points, table[1].buchholz, 3.5)
    assert [s.player for s in table][:2] == [3, 4]


def test_byes_score_a_win_and_count_as_played() -> None:
    table = standings([1, 2, 3], [Game(1, 1, 2, "a"), Game(1, 3, None, "bye")])
    by = {s.player: s for s in table}
    assert by[3].points == 1.0 and by[3].played == 1 and by[3].buchholz == 0.0
    assert [s.place for s in table] == [1, 2, 3]


def test_swiss_after_a_withdrawal_pairs_the_others_and_counts_the_withdrawn_points() -> None:
    players = [1, 2, 3, 4, 5]
    games = [Game(1, 1, 2, "a"), Game(1, 3, 4, "b"), Game(1, 5, None, "bye")]
    r2 = swiss_round([1, 2, 3, 5], games, 2)  # 4 withdrew
    assert sorted(p for g in r2 for p in (g.a, g.b)) == [1, 2, 3, 5]
    assert not set(pairs_of(r2)) & set(pairs_of(games))
    table = {s.player: s for s in standings([1, 2, 3, 5], games)}
    assert table[3].buchholz == 1.0, "the withdrawn opponent's points still count for Buchholz"
    assert len(table) == 4 and len(standings(players, games)) == 5
