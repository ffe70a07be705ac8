"""Post-round analysis (issue 16.4): known blunders are marked, exact values agree with the exact solver."""

from __future__ import annotations

import pytest

from engine.constructo import Match, Round
from engine.constructo import core as core_mod
from engine.constructo.ai import choose_move
from engine.constructo.analysis import CODES, OUTCOME_CODES, MoveAnalysis, _classify, _turning_point, analyse_round
from engine.constructo.move import Move
from engine.constructo.search import SCALE, solve
from engine.errors import InvalidInputError

# Found by search and checked below by the pure-Python solver (itself checked against plain minimax in
# test_ai.py): in THROW the second player holds a 2-tower win before action 14 (index 13, "M4") and plays a
# move that only draws; everything after is optimal. In TOWER, action 12 (index 11, "4-1") drops the second
# player's win from 2 towers to 1.
THROW = "rombo: S8 S3 L9 L6 S7 S2 S1 L4 L5 6-8 L6 4-7 5-2 M4 6-3 M6 M5 4-2 M4 6-3 1-2 M6 M1 6-9 5-7 S6"
TOWER = "rombo: S8 S3 L9 L6 S7 S2 S1 L4 L5 6-8 L6 4-1 5-2 L4 M5 3-5 M3 4-7 M4"


def prefix(record: str, n: int, first: int = 0) -> Round:
    head, _, tail = record.partition(":")
    return Round.from_record(f"{head}: " + " ".join(tail.split()[:n]), first)


def reference_value(rnd: Round) -> int:
    """The exact value for the player to move by the pure-Python solver (towers times SCALE)."""
    if rnd.is_over:
        a, b = rnd.score()
        return (a - b) * SCALE * (1 if rnd.current_player == 0 else -1)
    res = solve(rnd, max_nodes=500_000, core=False)
    assert res is not None
    return res.value


def test_a_thrown_away_win_is_the_turning_point() -> None:
    assert reference_value(prefix(THROW, 13)) == 2 * SCALE  # the premise, by the reference solver
    assert reference_value(prefix(THROW, 14)) == 0
    rnd = Round.from_record(THROW)
    before = rnd.to_dict()
    analysis = analyse_round(rnd)
    assert rnd.to_dict() == before  # the round is not changed
    blunder = analysis.moves[13]
    assert str(blunder.move) == "M4" and blunder.player == 1
    assert blunder.exact and blunder.value_before == 2 * SCALE and blunder.value_after == 0
    assert blunder.code == "win_to_draw" and blunder.loss == 2 * SCALE and blunder.loss_towers == 2
    assert (blunder.outcome_before, blunder.outcome_after) == ("win", "draw") and blunder.changed_outcome
    assert blunder.best != blunder.move
    assert analysis.turning_point == 4  # the first change (an estimated one, move 5); see the test below
    for m in analysis.moves[14:]:  # optimal play after the blunder
        assert m.exact and m.code in ("best", "forced") and m.loss == 0
    assert analysis.final_score == rnd.score() and rnd.score()[0] == rnd.score()[1]  # the draw it threw to
    assert analysis.decided_at == 14  # from the blunder on the draw was proven


def test_a_lost_tower_that_keeps_the_win() -> None:
    assert reference_value(prefix(TOWER, 11)) == 2 * SCALE
    assert reference_value(prefix(TOWER, 12)) == -SCALE  # the opponent's view after the move: 1 tower down
    m = analyse_round(Round.from_record(TOWER)).moves[11]
    assert str(m.move) == "4-1" and m.exact
    assert (m.value_before, m.value_after, m.loss) == (2 * SCALE, SCALE, SCALE)
    assert m.code == "lost_tower" and m.outcome_after == "win" and not m.changed_outcome


def hard_vs_easy_round() -> Round:
    match = Match.new("corona", first=1)
    rnd = match.current_round
    i = 0
    while not rnd.is_over:
        level = "hard" if rnd.current_player == 0 else "easy"
        rnd.play(choose_move(rnd, level, seed=i, budget_s=None, max_nodes=2000))
        i += 1
    return rnd


def test_values_flagged_exact_agree_with_the_exact_solver() -> None:
    rnd = hard_vs_easy_round()
    analysis = analyse_round(rnd, max_nodes=60_000)
    assert len(analysis.moves) == len(rnd.history)
    assert any(m.exact for m in analysis.moves)
    positions = [prefix(rnd.record(), i, rnd.first) for i in range(len(rnd.history) + 1)]
    for m in analysis.moves:
        assert m.code in CODES
        assert m.player == positions[m.index].current_player
        assert m.best in positions[m.index].legal_moves()
        if m.exact:
            assert m.value_before == reference_value(positions[m.index])
            assert m.value_after == -reference_value(positions[m.index + 1])
            assert m.loss >= 0 and m.loss % SCALE == 0
            assert m.code in ("forced", "best", "lost_tower", "lost_towers", *OUTCOME_CODES)
            assert (m.code in OUTCOME_CODES) == (m.changed_outcome and m.code != "forced")
    a, b = rnd.score()
    assert analysis.final_score == (a, b)
    assert 0 <= analysis.decided_at <= len(rnd.history)


def test_analysis_is_deterministic_and_json_ready() -> None:
    rnd = Round.from_record(TOWER)
    one, two = analyse_round(rnd, max_nodes=20_000), analyse_round(rnd, max_nodes=20_000)
    assert one.to_dict() == two.to_dict()
    d = one.to_dict()
    assert d["record"] == TOWER and d["scale"] == SCALE and len(d["moves"]) == 19
    assert set(d["moves"][0]) == {
        "index",
        "player",
        "move",
        "value_before",
        "value_after",
        "exact",
        "best",
        "loss",
        "code",
        "outcome_before",
        "outcome_after",
    }


def test_unfinished_round_and_bad_input() -> None:
    partial = prefix(THROW, 15)
    analysis = analyse_round(partial, max_nodes=20_000)
    assert len(analysis.moves) == 15 and analysis.moves[13].code == "win_to_draw"
    assert analysis.turning_point == min(m.index for m in analysis.moves if m.code in OUTCOME_CODES)
    with pytest.raises(InvalidInputError):
        analyse_round("rombo: L5")  # type: ignore[arg-type]


def test_pure_python_analysis_marks_the_same_blunder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(core_mod, "_csearch", None)
    assert not core_mod.core_available()
    analysis = analyse_round(prefix(THROW, 16), max_nodes=20_000)
    blunder = analysis.moves[13]
    assert blunder.exact and blunder.code == "win_to_draw"
    assert analysis.turning_point == min(m.index for m in analysis.moves if m.code in OUTCOME_CODES)


# -- classification by change of outcome first (S2, E2), the turning point is the first change ---------------------
def fake_move(index: int, before: int, after: int, *, exact: bool = True, player: int | None = None) -> MoveAnalysis:
    """An analysed action with the given values (towers times SCALE, mover's view), classified by the engine."""

    def outcome(v: int) -> str:
        t = round(v / SCALE)
        return "win" if t > 0 else "loss" if t < 0 else "draw"

    ob, oa = outcome(before), outcome(after)
    loss = before - after
    return MoveAnalysis(
        index=index,
        player=index % 2 if player is None else player,
        move=Move.parse("L5"),
        value_before=before,
        value_after=after,
        exact=exact,
        best=Move.parse("M5"),
        loss=loss,
        code=_classify(loss, False, ob, oa, exact),  # type: ignore[arg-type]
        outcome_before=ob,  # type: ignore[arg-type]
        outcome_after=oa,  # type: ignore[arg-type]
    )


@pytest.mark.parametrize(
    ("before", "after", "exact", "code"),
    [
        (0, -SCALE, True, "draw_to_loss"),  # a draw turned into a loss is never an "inaccuracy"
        (30, -60, False, "draw_to_loss"),  # an estimate: 0.9 tower lost across the line
        (SCALE, 0, True, "win_to_draw"),  # lost the win
        (SCALE, -SCALE, True, "win_to_loss"),
        (3 * SCALE, SCALE, True, "lost_towers"),  # still a win: counted in towers
        (2 * SCALE, SCALE, True, "lost_tower"),
        (45, 40, False, "good"),
        (55, 45, False, "good"),  # an estimate crossing the rounding line by a hair is no change of result
        (40, -20, False, "inaccuracy"),  # 0.6 tower but no result change (both round to a draw)
        (0, 0, True, "best"),
    ],
)
def test_S2_actions_are_classified_by_change_of_outcome_first(before: int, after: int, exact: bool, code: str) -> None:
    assert fake_move(0, before, after, exact=exact).code == code


def test_every_outcome_code_is_a_code() -> None:
    assert set(OUTCOME_CODES) <= set(CODES)


def test_turning_point_is_the_first_change_of_result_not_the_costliest() -> None:
    moves = [fake_move(i, 0, 0) for i in range(12)]
    moves[4] = fake_move(4, SCALE, 0)  # move 5: the win let go to a draw
    moves[10] = fake_move(10, 0, -3 * SCALE)  # move 11: a bigger loss, a draw turned into a loss
    assert (moves[4].code, moves[10].code) == ("win_to_draw", "draw_to_loss")
    assert _turning_point(moves) == 4
    estimated_first = [*moves]
    estimated_first[2] = fake_move(2, 2 * SCALE, -SCALE, exact=False)
    assert _turning_point(estimated_first) == 2  # an estimated change counts too (the text marks it ≈)
    no_change = [
        fake_move(0, 3 * SCALE, 2 * SCALE),
        fake_move(1, -2 * SCALE, -2 * SCALE),
        fake_move(2, 3 * SCALE, SCALE),
    ]
    assert _turning_point(no_change) == 2  # no change of result: the costliest loss of a tower or more
    assert _turning_point([fake_move(0, 40, 30, exact=False)]) is None


def test_real_round_first_change_is_the_turning_point() -> None:
    # THROW: move 5 (S7) is estimated to turn player 0's draw into a loss (proven lost from move 7 on); move 14
    # (M4) throws player 1's proven win to a draw. The turning point is the first change: move 5, not move 14.
    analysis = analyse_round(Round.from_record(THROW))
    changes = [m.index for m in analysis.moves if m.code in OUTCOME_CODES]
    assert changes[0] == 4 and 13 in changes
    assert analysis.moves[4].code == "draw_to_loss" and not analysis.moves[4].exact
    assert analysis.turning_point == 4
