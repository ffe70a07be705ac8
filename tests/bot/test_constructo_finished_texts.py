"""Constructo's player-facing texts of offers and finished matches, over the real builders (no Discord).

- every narration/status builder gives tidy content: no empty line, no line starting or ending in a space (an
  agreed draw's status once read `` Match over: a draw…``: an empty ``{why}``), in English and Spanish;
- a takeback request says the opponent's reply goes too when it does (lichess's rule);
- the move list names each move taken back (its notation), never an action number;
- once the match is over no round reads "so far", and a round with no move reads as not played.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from bot.games.constructo import narration
from bot.i18n import image_words
from engine.constructo import AgreeDraw, Match, Takeback
from engine.protocol import Forfeit
from engine.record import export_record, parse_record, replay_steps
from render.constructo import _rounds_line, board_text
from render.constructo_replay import move_lines
from render.constructo_words import EN
from render.words import resolve

NAMES = ["Alice", "Bob"]


def snap_of(match: Match, locale: str | None = None, offer: dict[str, Any] | None = None) -> Any:
    """The parts of a ``Snapshot`` the narration reads."""
    env = SimpleNamespace(extra={"offer": offer} if offer else {}, options={"layout": "rombo"}, seats=(), invited=None)
    return SimpleNamespace(
        state=match,
        require_state=lambda: match,
        locale=locale,
        names=NAMES,
        status="finished" if match.is_over else "active",
        env=env,
        has_ai=False,
        players=[10, 11],
        who=lambda seat: NAMES[seat],
    )


def first_legal(match: Match, plies: int) -> Match:
    for _ in range(plies):
        if match.is_over:
            break
        seat = match.current_player
        assert seat is not None
        match.apply(match.legal_actions(seat)[0])
    return match


def finished_matches() -> dict[str, Match]:
    agreed_at_start = Match.new("rombo")
    agreed_at_start.apply(AgreeDraw(0))
    agreed_later = first_legal(Match.new("rombo"), 3)
    agreed_later.apply(AgreeDraw(1))
    resigned = first_legal(Match.new("rombo"), 2)
    resigned.apply(Forfeit(1))
    played_out = first_legal(Match.new("rombo"), 400)
    assert played_out.is_over and len(played_out.rounds) == 2
    return {
        "agreed_at_start": agreed_at_start,
        "agreed_later": agreed_later,
        "resigned": resigned,
        "played_out": played_out,
    }


def assert_tidy(text: str) -> None:
    assert text, "some text"
    for line in text.split("\n"):
        assert line and line == line.strip(), f"untidy line {line!r} in {text!r}"


@pytest.mark.parametrize("locale", [None, "es-ES"])
def test_narration_and_status_of_every_end_are_tidy(locale: str | None) -> None:
    for name, match in finished_matches().items():
        snap = snap_of(match, locale)
        status = narration.status_line(snap)
        assert_tidy(status)
        last = match.history[-1]
        assert_tidy(narration.narrate(snap, [last], []) or "-")
        assert_tidy(narration.last_headline(snap, SimpleNamespace(player=10 + last[0], action=last[1])))
        if name.startswith("agreed"):
            assert status.startswith("Match over" if locale is None else "Fin de la partida"), status


def test_a_takeback_request_says_when_the_opponents_reply_goes_too() -> None:
    match = first_legal(Match.new("rombo"), 1)  # Alice's L-something; Bob to move
    own = narration.offer_line(snap_of(match), {"what": "takeback", "seat": 0, "state": "open"})
    assert "asks to take back their last move" in own and "reply" not in own, own
    first_legal(match, 1)  # Bob replied
    both = narration.offer_line(snap_of(match), {"what": "takeback", "seat": 0, "state": "open"})
    assert "and with it Bob's reply" in both, both
    es = narration.offer_line(snap_of(match, "es-ES"), {"what": "takeback", "seat": 0, "state": "open"})
    assert "la respuesta de Bob" in es, es


def test_the_move_list_names_the_moves_taken_back() -> None:
    match = Match.new("rombo")
    match.play("L5")
    match.play("M4")
    match.apply(Takeback(1))
    match.apply(Takeback(0))
    match.play("L3")
    match.apply(Forfeit(1))
    rec = parse_record(export_record(match, names=NAMES), (Match,))
    steps = list(replay_steps(rec.state_cls, rec.setup, rec.history))
    text = "\n".join(move_lines(rec, steps, NAMES))
    assert "Takebacks agreed: Bob's M4, Alice's L5." in text, text
    assert "action" not in text
    es = "\n".join(
        move_lines(rec, list(replay_steps(rec.state_cls, rec.setup, rec.history)), NAMES, words=image_words("es"))
    )
    assert "M4 de Bob, L5 de Alice" in es, es


def test_no_round_reads_so_far_once_the_match_is_over() -> None:
    w = resolve(None, EN)
    matches = finished_matches()
    for match in matches.values():
        rec = parse_record(export_record(match, names=NAMES), (Match,))
        steps = list(replay_steps(rec.state_cls, rec.setup, rec.history))
        for text in (
            _rounds_line(match, "AB", w),
            board_text(match, names=NAMES),
            "\n".join(move_lines(rec, steps, NAMES)),
        ):
            assert "so far" not in text, text
    assert _rounds_line(matches["agreed_at_start"], "AB", w).startswith("round 1: — · round 2: —")
    assert _rounds_line(matches["resigned"], "AB", w).startswith("round 1: A 0–0 B · round 2: —")
    start = parse_record(export_record(matches["agreed_at_start"], names=NAMES), (Match,))
    lines = move_lines(start, list(replay_steps(start.state_cls, start.setup, start.history)), NAMES)
    assert "not played" in lines[1], lines
    running = first_legal(Match.new("rombo"), 2)
    assert "(so far)" in _rounds_line(running, "AB", w)  # while the match runs it still says so


def test_the_result_card_text_reads_a_round_without_a_move_as_not_played() -> None:
    from render.results import constructo_result_text, render_constructo_result

    matches = finished_matches()
    start = constructo_result_text(matches["agreed_at_start"], names=NAMES)
    assert "Round 1 (rombo): not played" in start and "0 – 0" not in start.split("\n")[1], start
    assert_tidy(start)
    played = constructo_result_text(matches["played_out"], names=NAMES)
    assert "not played" not in played, played
    es = constructo_result_text(matches["agreed_at_start"], names=NAMES, words=image_words("es"))
    assert "Ronda 1 (rombo): no se jugó" in es, es
    assert render_constructo_result(matches["agreed_at_start"], names=NAMES).width == 800
