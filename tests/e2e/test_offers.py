"""E2E: draw offers and takebacks on the Constructo board, through the real bot process and the DevServer.

Offer draw -> only the opponent accepts -> the match ends drawn (reason "agreed"), rated as a draw; an offer is voided
by the next move (a stale Accept is refused in words, nothing changes); a takeback accepted in a rated game is in the
log, the record (which re-plays to the stored game), the replay (one frame per action) and /history; the AI accepts
takebacks (games against it are never rated) and answers draw offers by its evaluation; an offer survives a restart.
"""

from __future__ import annotations

import copy
import io
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from PIL import Image

from devserver.models import Message
from engine.constructo import Match
from engine.constructo.verdict import expected_margin
from engine.record import load_record

from .helpers import (
    BotEnv,
    answered,
    assert_consistent_constructo,
    assert_refusal,
    bot_env,
    click_raw,
    recorded_board,
    resign,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with bot_env(Path(tmp_path_factory.mktemp("offers"))) as e:
        yield e


def labels(message: Message) -> list[str]:
    return [c.get("label") or "" for c in message.buttons() if c.get("type") == 2]


def board_of(env: BotEnv, game_id: int) -> Message:
    return env.server.message(env.game(game_id).messages["board"])


def current_board(env: BotEnv, game_id: int) -> bool:
    """True when the stored board message carries the stored version (the latest commit's board is out)."""
    row = env.game(game_id)
    board = env.server.message(row.messages["board"])
    return any(c.get("custom_id", "").endswith(f":{game_id}:{row.version}") for c in board.buttons())


def offer_of(env: BotEnv, game_id: int) -> dict[str, Any] | None:
    offer: dict[str, Any] | None = env.game(game_id).state["extra"].get("offer")
    return offer


async def start(env: BotEnv, channel: str) -> tuple[int, Any, Any]:
    """alice challenges bob in ``channel``, bob accepts, alice places L5 and bob M4 (both have moved: rated)."""
    alice, bob = env.server.as_user("alice", channel), env.server.as_user("bob", channel)
    res = await answered(await alice.slash("constructo challenge", opponent="bob"))
    await answered(await bob.click(res.message, "Accept"), followups=1)
    game = env.latest_game("constructo", env.server.channel(channel).id)
    await answered(await alice.slash("constructo place", tile=5, size="large"))
    await answered(await bob.slash("constructo place", tile=4, size="medium"))
    # the board is recorded after the answer that carries it: until then the stored one is alice's move's (stale)
    await env.server.wait_until(lambda: current_board(env, game.id), 15, "the board of bob's move")
    return game.id, alice, bob


def tidy_lines(text: str) -> bool:
    """No empty line, no line starting or ending in whitespace (a board's content as players read it)."""
    return all(line and line == line.strip() for line in text.split("\n"))


async def test_draw_offer_accepted_by_the_opponent_ends_the_match_drawn_and_rated(env: BotEnv) -> None:
    mark = env.mark()
    log_start = len(env.proc.log())
    game_id, alice, bob = await start(env, "games")
    board = board_of(env, game_id)
    assert labels(board)[-3:] == ["Resign", "Offer draw", "Take back"], labels(board)
    res = await answered(await alice.click(board, "Offer draw"))
    assert not res.ephemeral and "Alice offers a draw. Bob:" in res.text, res.text
    offered = res.message
    assert labels(offered)[-3:] == ["Accept draw", "Decline", "Cancel offer"]
    assert offer_of(env, game_id) == {"what": "draw", "seat": 0, "state": "open"}
    carol = env.server.as_user("carol")
    assert_refusal(await answered(await carol.click(offered, "Accept draw")), "not a player")
    assert_refusal(await answered(await alice.click(offered, "Accept draw")), "your own offer")
    assert env.game(game_id).status == "active"

    res = await answered(await bob.click(offered, "Accept draw"))
    assert not res.ephemeral and "Draw agreed" in res.text, res.text
    assert "missing message key" not in env.proc.log()[log_start:], "a label built from a missing value"
    row = env.game(game_id)
    assert row.status == "finished" and row.result is not None
    assert row.result["reason"] == "agreed" and row.result["rated"] is True
    final = (await recorded_board(env, game_id)).content  # the board answering the accept, recorded just after
    assert tidy_lines(final) and "\nMatch over: a draw" in final, repr(final)
    assert set(row.result["results"].values()) == {"draw"}
    ratings = env.ratings("constructo")
    assert ratings[alice.id][1:] == (1, 0, 0, 1) and ratings[bob.id][1:] == (1, 0, 0, 1)  # games, W, L, D
    assert [a for _s, _p, a in env.actions(game_id)][-2:] == ["offer draw", "agreed draw"]
    assert assert_consistent_constructo(env, game_id).outcome == row.match.outcome
    assert env.violations_since(mark) == [], env.log_tail()


async def test_an_offer_is_voided_by_the_next_move_and_a_stale_button_changes_nothing(env: BotEnv) -> None:
    mark = env.mark()
    game_id, alice, bob = await start(env, "games-2")
    res = await answered(await alice.click(board_of(env, game_id), "Offer draw"))
    offered = copy.deepcopy(res.message)  # what bob's client still shows
    accept = next(c["custom_id"] for c in offered.buttons() if c.get("label") == "Accept draw")
    await answered(await alice.slash("constructo place", tile=1, size="small"))  # the next move
    assert offer_of(env, game_id) is None, "a move voids the offer"
    before, log_before = env.game(game_id), env.actions(game_id)
    late = await answered(await click_raw(bob, offered, accept))
    assert_refusal(late, "no longer open", "Nothing was changed")
    after = env.game(game_id)
    assert after.status == "active" and after.version == before.version and env.actions(game_id) == log_before

    # bob offers, alice declines; bob offers again and cancels it himself (each board is recorded after its answer)
    res = await answered(await bob.click(await recorded_board(env, game_id), "Offer draw"))
    assert_refusal(await answered(await bob.click(res.message, "Decline")), "your own offer")
    res = await answered(await alice.click(res.message, "Decline"))
    assert not res.ephemeral and "Alice declined Bob's draw offer" in res.text, res.text
    assert offer_of(env, game_id) == {"what": "draw", "seat": 1, "state": "declined", "by": 0}
    res = await answered(await bob.click(await recorded_board(env, game_id), "Offer draw"))
    refusal = assert_refusal(await answered(await alice.click(res.message, "Cancel offer")), "Only Bob can withdraw")
    assert "you can **Accept** or **Decline** it" in refusal and "opponent" not in refusal, refusal
    res = await answered(await bob.click(res.message, "Cancel offer"))
    assert "Bob withdrew their draw offer" in res.text and env.game(game_id).status == "active"
    logged = [a for _s, _p, a in env.actions(game_id)]
    assert logged[-4:] == ["offer draw", "decline draw", "offer draw", "cancel draw"]
    assert_consistent_constructo(env, game_id)
    await resign(alice)
    assert env.violations_since(mark) == [], env.log_tail()


async def test_takeback_accepted_in_a_rated_game_is_in_history_replay_and_record(env: BotEnv) -> None:
    mark = env.mark()
    game_id, alice, bob = await start(env, "general")
    await answered(await alice.slash("constructo place", tile=1, size="small"))
    assert labels(await recorded_board(env, game_id))[-1] == "Take back"
    res = await answered(await alice.click(board_of(env, game_id), "Take back"))
    assert "Alice asks to take back their last move" in res.text, res.text
    res = await answered(await bob.click(res.message, "Accept takeback"))
    assert not res.ephemeral and "Alice's move S1 is taken back" in res.text, res.text
    row = env.game(game_id)
    assert [str(m) for m in row.match.current_round.history] == ["L5", "M4"] and row.match.current_player == 0
    assert [a for _s, _p, a in env.actions(game_id)][-3:] == ["S1", "offer takeback", "takeback"]
    assert_consistent_constructo(env, game_id)
    await answered(await alice.slash("constructo place", tile=2, size="small"))
    await resign(bob)
    row = env.game(game_id)
    assert row.status == "finished" and row.result is not None and row.result["rated"] is True

    replay = await answered(await alice.slash("replay", game=game_id), timeout=60)
    files = {a.filename: a.data for m in replay.messages for a in m.attachments}
    record = json.loads(files[f"game-{game_id}.json"])
    assert [t for _s, t in record["history"]] == ["L5", "M4", "S1", "takeback", "S2", "forfeit"]
    assert load_record(record, (Match,)).to_dict() == row.engine, "the record re-plays to the stored game"
    with Image.open(io.BytesIO(files[f"replay-{game_id}.gif"])) as gif:
        assert gif.n_frames == len(record["history"]) + 1  # the move and its takeback are steps of their own
    assert "Takebacks agreed: Alice's S1." in replay.text and "action" not in replay.text, replay.text
    assert "so far" not in replay.text, "the match is over: no round is running"
    history = await answered(await alice.slash("history"))
    assert f"`#{game_id}`" in history.text and "rating" in history.text
    assert env.violations_since(mark) == [], env.log_tail()


async def test_a_takeback_asked_after_the_opponents_reply_says_the_reply_goes_too(env: BotEnv) -> None:
    mark = env.mark()
    game_id, alice, bob = await start(env, "games-2")  # alice L5, bob M4: bob's reply is the last move
    res = await answered(await alice.click(board_of(env, game_id), "Take back"))
    assert "Alice asks to take back their last move, and with it Bob's reply." in res.text, res.text
    res = await answered(await bob.click(res.message, "Accept takeback"))
    assert "Bob's move M4 is taken back" in res.text and "Alice's move L5 is taken back" in res.text, res.text
    row = env.game(game_id)
    assert row.match.current_round.history == [] and row.match.current_player == 0
    await resign(alice)
    assert env.violations_since(mark) == [], env.log_tail()


async def test_the_ai_accepts_a_takeback_and_answers_a_draw_offer(env: BotEnv) -> None:
    mark = env.mark()
    server = env.server
    alice = server.as_user("alice", "games")
    await answered(await alice.slash("constructo challenge", opponent="bot"))
    game_id = env.latest_game("constructo", server.channel("games").id).id
    await answered(await alice.slash("constructo place", tile=5, size="large"))
    await server.wait_until(lambda: len(env.game(game_id).match.current_round.history) == 2, 30, "the AI's reply")
    await server.wait_until(lambda: current_board(env, game_id), 15, "the board of the AI's move")
    res = await answered(await alice.click(board_of(env, game_id), "Take back"))
    assert not res.ephemeral, res.text
    await server.wait_until(lambda: env.game(game_id).match.current_round.history == [], 30, "the AI's acceptance")
    row = env.game(game_id)
    assert row.match.current_player == 0 and offer_of(env, game_id) is None
    ai = row.players[1]
    assert f"and with it {row.state['seats'][1]['name']}'s reply" in res.text, res.text  # the AI had replied
    assert env.actions(game_id)[-3:][1:] == [(row.version - 1, ai, "takeback"), (row.version, alice.id, "takeback")]
    await server.wait_until(lambda: current_board(env, game_id), 15, "the board after it")
    assert "move L5 is taken back" in board_of(env, game_id).content

    # an empty board: the AI's evaluation is even (not winning), so it accepts the draw
    await answered(await alice.click(board_of(env, game_id), "Offer draw"))
    await server.wait_until(lambda: env.game(game_id).status == "finished", 30, "the AI's answer to the draw offer")
    row = env.game(game_id)
    assert row.result is not None and row.result["reason"] == "agreed" and row.result["rated"] is False
    assert_consistent_constructo(env, game_id)
    assert env.violations_since(mark) == [], env.log_tail()


async def test_the_ai_declines_a_draw_when_its_evaluation_says_it_is_winning(env: BotEnv) -> None:
    """alice plays the first legal action each turn against the AI; once the AI's own evaluation (the same pure
    function, the same node budget) says it is winning, her draw offer is declined and the match goes on."""
    mark = env.mark()
    server = env.server
    alice = server.as_user("alice", "games")
    await answered(await alice.slash("constructo challenge", opponent="bot"))
    game_id = env.latest_game("constructo", server.channel("games").id).id
    for _ in range(30):
        await server.wait_until(
            lambda: env.game(game_id).match.current_player == 0 and current_board(env, game_id), 30, "alice's turn"
        )
        match = env.game(game_id).match
        if match.phase == "playing" and expected_margin(match, 1) > 0:
            break
        first = match.legal_actions(0)[0]
        if first.is_place:
            await answered(await alice.slash("constructo place", tile=first.tile, size=first.size.word))
        else:
            await answered(await alice.slash("constructo move", **{"from": first.src, "to": first.dst}))
    else:
        raise AssertionError("the AI never got ahead of alice's first-legal-action play")
    version = env.game(game_id).version
    await answered(await alice.click(board_of(env, game_id), "Offer draw"))
    await server.wait_until(lambda: env.game(game_id).version == version + 2, 30, "the AI's answer")
    row = env.game(game_id)
    assert row.status == "active" and offer_of(env, game_id) == {
        "what": "draw",
        "seat": 0,
        "state": "declined",
        "by": 1,
    }
    assert [a for _s, _p, a in env.actions(game_id)][-2:] == ["offer draw", "decline draw"]
    await server.wait_until(lambda: current_board(env, game_id), 15, "the board of the AI's answer")
    assert "declined Alice's draw offer" in board_of(env, game_id).content
    await resign(alice)
    assert env.violations_since(mark) == [], env.log_tail()


async def test_an_offer_survives_a_restart_of_the_bot(env: BotEnv) -> None:
    mark = env.mark()
    game_id, alice, bob = await start(env, "games-2")
    res = await answered(await alice.click(board_of(env, game_id), "Offer draw"))
    offered = res.message
    await env.proc.restart()
    env.assert_alive()
    assert offer_of(env, game_id) == {"what": "draw", "seat": 0, "state": "open"}
    res = await answered(await bob.click(offered, "Accept draw"))
    assert not res.ephemeral and "Draw agreed" in res.text, res.text
    row = env.game(game_id)
    assert row.status == "finished" and row.result is not None and row.result["reason"] == "agreed"
    assert_consistent_constructo(env, game_id)
    assert env.violations_since(mark) == [], env.log_tail()
