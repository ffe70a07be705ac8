"""Plain words (issue "A table players understand at a glance"): what players read says it in words.

- No rule code (``(E1)``, ``rule M3``), module path (``engine.record``) or ``python -m`` in any message of any locale,
  nor in the result texts the renderers write (result card twins, move lists of finished games).
- The rules text says exactly what a tower blocks (rule T4: its chips never move again; chips may still move onto
  it), in English and Spanish.
- Places are named as places (1st/2nd/3rd, 1.º/2.º); a CONEX 2nd of 3 reads "2nd of 3", never "loss".
- ``/history`` says how each game ended (by resignation, on time, goal reached...), and not "0–0" for a
  resignation before any point.
- Rated only when each player has moved: ``unmoved_seats`` / ``outcome_result``; the rating line says why not.
- The CONEX fairness proof: two sentences and the fingerprint while the game runs, the seed and its check after.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import pytest

from bot.core.results import outcome_result, place_name, signed, unmoved_seats
from bot.games.conex.fairness import proof_text
from bot.i18n import MESSAGES, t
from bot.storage.records import HistoryRow
from bot.ui.history import row_text
from engine.conex import Game, fair
from engine.constructo import Match
from engine.protocol import Forfeit, Outcome, Result
from engine.record import export_record
from render.conex_replay import REPLAY as CONEX_REPLAY
from render.constructo_replay import REPLAY as CONSTRUCTO_REPLAY
from render.replay_moves import move_list_pages
from render.results import conex_result_text, constructo_result_text

CODE = re.compile(
    r"\((?:rule |regla )?[A-Z][0-9](?:[-–][A-Za-z0-9]+)?\)"  # "(E1)", "(rule M3)", "(E2-pass)"
    r"|\b(?:rule|regla) [A-Z][0-9]\b"  # "rule M3"
    r"|\b(?:engine|bot|render|devserver)\.[a-z_]+"  # a module path
    r"|python -m|SHA-?256|\bload_record\b"
)


def codes_in(text: str) -> list[str]:
    return [m.group() for m in CODE.finditer(text)]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_no_rule_code_or_module_path_in_any_locale_string(lang: str) -> None:
    """Every message players can read, in both languages: rule codes belong at most to a refusal's bold detail
    (``err.with_rule`` puts the code there), never in the sentence itself."""
    found = {key: codes_in(text) for key, text in MESSAGES[lang].items() if codes_in(text)}
    assert found == {}, found


@pytest.mark.parametrize("lang", ["en", "es"])
def test_no_locale_string_quotes_a_value_with_python_repr(lang: str) -> None:
    """A value the player typed is quoted as typed ("“rombito”", "«rombito»"), never through ``!r`` (which shows
    Python's quotes and escapes such as ``\\u200b``)."""
    found = [key for key, text in MESSAGES[lang].items() if re.search(r"\{[^{}]*![rsa]\}", text)]
    assert found == [], found
    quoted = t("err.bad_level", lang, level="rombo\u00e9", levels="easy")
    assert "rombo\u00e9" in quoted and "\\u" not in quoted and "'" not in quoted, quoted


def _finished_constructo(resign: bool) -> Match:
    match = Match.new("rombo")
    for text in ("L5", "M4", "S9", "4-5"):
        match.apply(match.parse_action(text, match.current_player))  # type: ignore[arg-type]
    if resign:
        match.apply(Forfeit(match.current_player))  # type: ignore[arg-type]
    else:
        while not match.is_over:
            player = match.current_player
            assert player is not None
            match.apply(sorted(match.legal_actions(player), key=str)[0])
    return match


def _finished_conex() -> Game:
    game = Game.new(players=3, seed=11, table="small", goal=20)
    while not game.is_over:
        player = game.current_player
        assert player is not None
        game.apply(Forfeit(player))  # seats leave until one is left
    return game


@pytest.mark.parametrize("resign", [True, False])
def test_constructo_result_texts_say_it_in_words(resign: bool) -> None:
    match = _finished_constructo(resign)
    names = ["Alice", "Bob"]
    texts = [constructo_result_text(match, names=names)]
    texts += move_list_pages(export_record(match, names=names), CONSTRUCTO_REPLAY)
    assert not any(codes_in(x) for x in texts), texts
    if resign:
        assert any("resigned" in x for x in texts)


def test_conex_result_texts_say_it_in_words_with_places() -> None:
    game = _finished_conex()
    names = ["Alice", "Bob", "Carol"]
    texts = [conex_result_text(game, names=names)]
    lines = "\n".join(move_list_pages(export_record(game, names=names), CONEX_REPLAY)).splitlines()
    texts += lines
    assert not any(codes_in(x) for x in texts), texts
    assert lines[-1].startswith("Result (too few players left): 1st "), lines[-1]
    assert "loss" not in lines[-1] and "win" not in lines[-1]


@pytest.mark.parametrize(
    ("lang", "blocked", "onto"),
    [
        ("en", "none of its chips moves again", "may still move onto it"),
        ("es", "ninguna de sus fichas vuelve a moverse", "aún puede moverse encima"),
    ],
)
def test_rules_say_exactly_what_a_tower_blocks_rule_t4(lang: str, blocked: str, onto: str) -> None:
    """Rule T4 blocks the chips *of* a tower (they never move again), not the tile: K1/K2/K4 still move a chip onto
    it. The old text ("blocked for good") read as if nothing could go there."""
    rules = t("cx.rules", lang)
    assert blocked in rules and onto in rules
    assert "blocked for good" not in rules and "bloqueada para siempre" not in rules


@pytest.mark.parametrize(
    ("lang", "names"),
    [("en", ["1st", "2nd", "3rd", "4th"]), ("es", ["1.º", "2.º", "3.º", "4.º"])],
)
def test_places_are_named_as_places(lang: str, names: list[str]) -> None:
    assert [place_name(p, lang) for p in (1, 2, 3, 4)] == names
    assert t("stats.place", lang, place=place_name(2, lang), n=3) == f"{names[1]} ×3"


def test_rating_changes_read_with_a_true_minus_sign() -> None:
    assert (signed(63), signed(-63), signed(0)) == ("+63", "−63", "±0")


def _row(**over: Any) -> HistoryRow:
    base: dict[str, Any] = dict(
        game_id=12,
        kind="constructo",
        guild_id=1,
        channel_id=2,
        user_id=1,
        finished_at=datetime(2026, 1, 1, tzinfo=UTC),
        players=[1, 2],
        ranking=((2,), (1,)),
        results={1: "loss", 2: "win"},
        reason="M3",
        scores={1: 0, 2: 0},
        rated=True,
        vs_ai=False,
        outcome="loss",
        place=2,
        rating_delta=-63,
        rating_after=1437,
        rating_shown="1437?",
    )
    base.update(over)
    return HistoryRow(**base)


TITLES = {"constructo": "Constructo", "conex": "CONEX"}
PREFIXES = {"constructo": "cx", "conex": "cn"}


@pytest.mark.parametrize(
    ("lang", "reason", "ending"),
    [
        ("en", "M3", "**loss** by resignation"),
        ("es", "M3", "**derrota** por rendición"),
        ("en", "timeout", "**loss** on time"),
        ("es", "timeout", "**derrota** por tiempo"),
        ("en", "M2", "**loss** after both rounds"),
        ("es", "M2", "**derrota** tras las dos rondas"),
    ],
)
def test_history_says_how_each_constructo_game_ended(lang: str, reason: str, ending: str) -> None:
    line = row_text(_row(reason=reason), TITLES, None, lang, PREFIXES)
    assert ending in line, line
    assert "0–0" not in line  # a resignation before any tower: said in words, not as a score
    assert "1437?" in line and "−63" in line  # provisional, true minus
    assert not codes_in(line) and f" {reason} " not in line


@pytest.mark.parametrize(
    ("lang", "place", "ending"),
    [("en", "**2nd of 3** goal reached", "loss"), ("es", "**2.º de 3** meta alcanzada", "derrota")],
)
def test_history_names_a_conex_place_as_a_place_not_a_loss(lang: str, place: str, ending: str) -> None:
    row = _row(
        kind="conex",
        players=[1, 2, 3],
        ranking=((2,), (1,), (3,)),
        results={1: "loss", 2: "win", 3: "loss"},
        reason="E1",
        scores={1: 30, 2: 41, 3: 12},
        rating_delta=12,
        rating_after=1512,
        rating_shown="1512?",
    )
    line = row_text(row, TITLES, None, lang, PREFIXES)
    assert place in line and ending not in line and "30–41–12" in line, line


def test_history_marks_a_shared_place() -> None:
    row = _row(kind="conex", players=[1, 2, 3], ranking=((2,), (1, 3)), reason="E2-empty", place=2, scores={1: 5})
    line = row_text(row, TITLES, None, "en", PREFIXES)
    assert "**2nd (shared) of 3** out of cards" in line, line


# -- rated only when each player has moved ------------------------------------------------------------------------
def test_a_seat_that_never_moved_makes_the_game_unrated() -> None:
    """Lichess aborts a game a player never moved in: here it ends with its result, unrated. Forfeits and timeouts
    are no moves; a resignation after three moves is rated."""
    outcome = Outcome(((0,), (1,)), "timeout", (Result.WIN, Result.LOSS), (0, 0), (1,))
    never = [(0, "L5"), (1, "timeout")]
    assert unmoved_seats(never, 2) == [1]
    assert outcome_result(outcome, [10, 20], unmoved=unmoved_seats(never, 2))["rated"] is False
    nobody = [(0, "timeout")]
    assert unmoved_seats(nobody, 2) == [0, 1]
    three = [(0, "L5"), (1, "M4"), (0, "S9"), (1, "forfeit")]
    assert unmoved_seats(three, 2) == []
    assert outcome_result(outcome, [10, 20], unmoved=unmoved_seats(three, 2))["rated"] is True
    assert outcome_result(outcome, [10, -1], ai_seats=[1])["rated"] is False


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_unrated_line_names_who_never_moved(lang: str) -> None:
    text = t("res.not_rated_unmoved", lang, names="Bob")
    assert "Bob" in text and not codes_in(text)


# -- the fairness proof ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_fairness_proof_is_two_sentences_then_the_fingerprint_then_the_seed_after_the_game(lang: str) -> None:
    game = Game.new(players=2, seed=424242, table="small", goal=20)
    running = proof_text(game, lang)
    digest = fair.commitment(424242)
    explain = t("cn.fair_explain", lang)
    assert explain.count(". ") + 1 == 2 and explain.endswith(".")  # two sentences
    assert digest in running and "424242" not in running
    over = proof_text(game, lang, revealed=True)
    assert digest in over and "`424242`" in over and f"python -m engine.conex verify 424242 {digest}" in over
