"""E2E (QA, exploratory probes): SIGKILL right after a commit, then a restart; old messages clicked late.

Killed right after a CONEX draw, a challenge's Accept and a CONEX start: the action is stored once, the board or
table reaches the players, the game plays on, the log replays to the stored state. A result card's Rematch from
before a restart double-clicked by both players: one game. A lobby's Leave and Start clicked after it started or
closed; an admin's Abort confirmed after the game ended; a game watched from a listing after it ended. The daily
puzzle answered right and wrong at once, and double-clicked: one answer counts, and each answer says which (last: it
restarts the bot a day ahead).
"""

from __future__ import annotations

import asyncio
import copy
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from engine.constructo.move import Move
from engine.constructo.puzzle_set import puzzle_by_id

from .breaker_kit import cid, conex, constructo, no_traceback, probe_env, readable, snapshot
from .helpers import (
    BotEnv,
    answered,
    assert_consistent_constructo,
    assert_refusal,
    check_log_sequence,
    click_raw,
    recorded_board,
    replay_conex,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with probe_env(Path(tmp_path_factory.mktemp("probe-restarts"))) as e:
        yield e


async def test_sigkill_right_after_a_conex_move_then_restart_nothing_lost_or_doubled(env: BotEnv) -> None:
    mark = env.mark()
    game_id, users, _lobby, table = await conex(env, "p10", ("carol", "dave"))
    row = env.game(game_id)
    mover = users[row.conex.current_player]
    version = row.version
    await mover.click(table, "Draw 2")  # not awaited: killed while answering
    await env.server.wait_until(lambda: env.game(game_id).version > version, 10, "the draw committed")
    await env.proc.kill()
    await env.proc.start()
    await env.ready()
    row = env.game(game_id)
    log = env.actions(game_id)
    assert row.version == version + 1, [a for _s, _p, a in log]
    check_log_sequence(log, row.version)
    assert replay_conex(row.state, row.players, log).to_dict() == row.conex.to_dict()
    # the next player plays on from a command; the table is current
    nxt = users[row.conex.current_player]
    res = await answered(await nxt.slash("conex draw"))
    assert not res.ephemeral, res.text
    row = env.game(game_id)
    assert row.version == version + 2
    check_log_sequence(env.actions(game_id), row.version)
    # the old table's Draw 2 clicked again by the first mover: stale, refused
    if env.server.message(table.id).components:
        r = await answered(await mover.click(table, "Draw 2"))
        readable(r.text)
        assert env.game(game_id).version == version + 2 or not r.ephemeral
    env.assert_alive()
    assert env.violations_since(mark) == [], env.log_tail()


async def test_sigkill_right_after_accept_then_restart_one_game_one_board(env: BotEnv) -> None:
    mark = env.mark()
    alice, bob = env.server.as_user("alice", "p20"), env.server.as_user("bob", "p20")
    res = await answered(await alice.slash("constructo challenge", opponent="bob"))
    challenge = copy.deepcopy(res.message)
    game_id = env.latest_game("constructo", env.server.channel("p20").id).id
    await bob.click(res.message, "Accept")  # not awaited: killed while answering
    await env.server.wait_until(lambda: env.game(game_id).status == "active", 10, "the accept committed")
    await env.proc.kill()
    await env.proc.start()
    await env.ready()
    row = env.game(game_id)
    assert [x for _s, _p, x in env.actions(game_id)] == ["accept"] and row.version == 1
    # the players get the board: delivered after the restart if the kill took it
    board = await recorded_board(env, game_id, timeout=30)
    boards = [
        m
        for m in env.server.messages(env.server.channel("p20").id)
        if any(c.get("custom_id", "").endswith(f":{game_id}:1") for c in m.buttons()) or (m.images and m.edits == 0)
    ]
    live = [m for m in boards if m.components]
    assert len(live) <= 1, f"{len(live)} boards with live components for version 1"
    # the pre-kill challenge's Accept clicked again: told it started, nothing changes
    again = await answered(await click_raw(bob, challenge, cid(challenge, "Accept")))
    readable(again.text)
    assert env.game(game_id).version == 1, again.text
    res = await answered(await alice.slash("constructo place", tile=5, size="large"))
    assert not res.ephemeral, res.text
    assert_consistent_constructo(env, game_id)
    assert board.id in {m.id for m in env.server.messages(env.server.channel("p20").id)}
    no_traceback(env)
    assert env.violations_since(mark) == [], env.log_tail()


async def test_sigkill_right_after_a_conex_start_then_restart_the_table_and_hands_are_there(env: BotEnv) -> None:
    mark = env.mark()
    users = [env.server.as_user(n, "p28") for n in ("carol", "dave")]
    lobby = (await answered(await users[0].slash("conex new", table="small", goal=20))).message
    game_id = env.latest_game("conex", env.server.channel("p28").id).id
    await answered(await users[1].click(lobby, "Join"))
    await users[0].click(lobby, "Start")  # not awaited: killed while answering
    await env.server.wait_until(lambda: env.game(game_id).status == "active", 10, "the start committed")
    await env.proc.kill()
    await env.proc.start()
    await env.ready()
    row = env.game(game_id)
    assert [x for _s, _p, x in env.actions(game_id)].count("start") == 1
    table = await recorded_board(env, game_id, timeout=30)
    assert "to play" in table.content, table.content
    mover = users[row.conex.current_player]
    hand = await answered(await mover.click(table, "My hand"))
    assert hand.ephemeral and "Your hand" in hand.text, hand.text
    res = await answered(await mover.slash("conex draw"))
    assert not res.ephemeral, res.text
    row = env.game(game_id)
    check_log_sequence(env.actions(game_id), row.version)
    assert replay_conex(row.state, row.players, env.actions(game_id)).to_dict() == row.conex.to_dict()
    no_traceback(env)
    assert env.violations_since(mark) == [], env.log_tail()


async def test_rematch_double_clicked_on_a_result_card_from_before_a_restart_opens_one_challenge(env: BotEnv) -> None:
    mark = env.mark()
    game_id, alice, bob, _board = await constructo(env, "p14", "carol", "mod")
    await answered(await alice.slash("constructo place", tile=5, size="large"))
    ask = await answered(await bob.slash("constructo resign"))
    await answered(await bob.click(ask.message, "Yes, resign"), followups=1)
    ch = env.server.channel("p14").id
    await env.server.wait_until(
        lambda: any(c.get("label") == "Rematch" for m in env.server.messages(ch) for c in m.buttons()),
        15,
        "a Rematch button",
    )
    card = next(m for m in env.server.messages(ch) if any(c.get("label") == "Rematch" for c in m.buttons()))
    await env.proc.kill()
    await env.proc.start()
    await env.ready()
    r1, r2 = await bob.click(card, "Rematch"), await bob.click(card, "Rematch")
    await asyncio.gather(answered(r1), answered(r2))
    r3, r4 = await alice.click(card, "Rematch"), await alice.click(card, "Rematch")
    await asyncio.gather(answered(r3), answered(r4))
    with env.db() as conn:
        newer = conn.execute("SELECT id, status FROM games WHERE id > ? AND channel_id = ?", (game_id, ch)).fetchall()
    texts = [readable(r.text) for r in (r1, r2, r3, r4)]
    assert len(newer) == 1, f"a double Rematch opened {len(newer)} games: {texts}"
    no_traceback(env)
    assert env.violations_since(mark) == [], env.log_tail()


async def test_a_stale_lobby_leave_after_the_start_does_not_forfeit(env: BotEnv) -> None:
    mark = env.mark()
    game_id, users, lobby_seen, _table = await conex(env, "p3", ("alice", "bob", "carol"))
    before = snapshot(env, game_id)
    assert before[0] == "active"
    res = await answered(await click_raw(users[2], lobby_seen, cid(lobby_seen, "Leave")))
    text = readable(res.text)
    after = snapshot(env, game_id)
    if after != before:  # a forfeit through a lobby button: must be what was said, and public
        assert "forfeit" in text.lower() or "left" in text.lower(), text
    assert after == before, f"a stale lobby Leave changed the running game: {text!r}"
    assert_refusal(res)
    no_traceback(env)
    assert env.violations_since(mark) == [], env.log_tail()


async def test_the_host_leaving_the_lobby_then_a_stale_start_changes_nothing(env: BotEnv) -> None:
    mark = env.mark()
    users = {n: env.server.as_user(n, "p27") for n in ("alice", "bob", "carol")}
    lobby = (await answered(await users["alice"].slash("conex new"))).message
    seen = copy.deepcopy(lobby)
    game_id = env.latest_game("conex", env.server.channel("p27").id).id
    for n in ("bob", "carol"):
        await answered(await users[n].click(lobby, "Join"))
    left = await answered(await users["alice"].click(lobby, "Leave"))
    row = env.game(game_id)
    readable(left.text)
    before = snapshot(env, game_id)
    start = await answered(await click_raw(users["alice"], seen, cid(seen, "Start")))
    readable(start.text)
    assert start.ephemeral and snapshot(env, game_id) == before, start.text
    if row.status == "lobby":  # the lobby goes on without alice: the new host can start it
        assert env.server.user("alice").id not in row.players
        host = env.server.user(row.players[0]).name
        res = await answered(await users[host].click(lobby, "Start"), followups=1)
        assert env.game(game_id).status == "active", res.text
    no_traceback(env)
    assert env.violations_since(mark) == [], env.log_tail()


async def test_an_admin_abort_confirmed_after_the_game_ended_keeps_its_result(env: BotEnv) -> None:
    mark = env.mark()
    game_id, alice, bob, _board = await constructo(env, "p23", "carol", "dave")
    await answered(await alice.slash("constructo place", tile=5, size="large"))
    await answered(await bob.slash("constructo place", tile=4, size="small"))
    mod = env.server.as_user("mod", "p23")
    listing = await answered(await mod.slash("games"))
    ask = await answered(await mod.click(listing.message, f"Abort #{game_id}"))
    ask_seen = copy.deepcopy(ask.message)
    confirm = await answered(await bob.slash("constructo resign"))
    await answered(await bob.click(confirm.message, "Yes, resign"), followups=1)
    finished = snapshot(env, game_id)
    assert finished[0] == "finished"
    res = await answered(await click_raw(mod, ask_seen, cid(ask_seen, "Yes, abort it")))
    readable(res.text)
    assert snapshot(env, game_id) == finished, f"a finished, rated game aborted: {res.text!r}"
    assert "aborted" not in res.text.lower() or "already" in res.text.lower() or "over" in res.text.lower(), res.text
    assert env.ratings("constructo")[alice.id][1] >= 1
    no_traceback(env)
    assert env.violations_since(mark) == [], env.log_tail()


async def test_watching_a_game_that_ended_since_the_listing_says_so(env: BotEnv) -> None:
    mark = env.mark()
    game_id, alice, _bob, _board = await constructo(env, "p21", "carol", "dave")
    watcher = env.server.as_user("bob", "p21")
    listing = await answered(await watcher.slash("games"))
    seen = copy.deepcopy(listing.message)
    watch = next(c for c in seen.buttons() if c.get("type") == 3)
    assert str(game_id) in [o["value"] for o in watch["options"]]
    ask = await answered(await alice.slash("constructo resign"))
    await answered(await alice.click(ask.message, "Yes, resign"), followups=1)
    res = await answered(await click_raw(watcher, seen, watch["custom_id"], [str(game_id)]))
    text = readable(res.text)
    assert res.ephemeral, text
    assert "to move" not in text, f"a finished game shown as running: {text!r}"
    no_traceback(env)
    assert env.violations_since(mark) == [], env.log_tail()


async def test_a_hint_from_before_a_sigkill_plays_once_after_the_restart(env: BotEnv) -> None:
    mark = env.mark()
    game_id, users, _lobby, table = await conex(env, "p11", ("alice", "bob"))
    row = env.game(game_id)
    mover = users[row.conex.current_player]
    hints = await answered(await mover.click(table, "Hints"))
    play = next(c["custom_id"] for c in hints.message.buttons() if c["custom_id"].startswith("cn:hp:"))
    await env.proc.kill()
    await env.proc.start()
    await env.ready()
    a, b = await click_raw(mover, hints.message, play), await click_raw(mover, hints.message, play)
    await asyncio.gather(answered(a), answered(b))
    for r in (a, b):
        readable(r.text)
    after = env.game(game_id)
    assert after.version == row.version + 1, [r.text for r in (a, b)]
    assert sum(1 for r in (a, b) if not r.ephemeral) == 1, [r.text for r in (a, b)]
    check_log_sequence(env.actions(game_id), after.version)
    assert replay_conex(after.state, after.players, env.actions(game_id)).to_dict() == after.conex.to_dict()
    no_traceback(env)
    assert env.violations_since(mark) == [], env.log_tail()


def daily_message(env: BotEnv) -> int | None:
    with env.db() as conn:
        row = conn.execute("SELECT message_id FROM puzzle_daily").fetchone()
    return None if row is None else row[0]


async def test_the_daily_puzzle_answered_right_and_wrong_at_once_counts_one_answer_truthfully(env: BotEnv) -> None:
    mark = env.mark()
    server = env.server
    mod = server.as_user("mod", "games-2")
    hour = (time.gmtime().tm_hour + 2) % 24
    await answered(await mod.slash("puzzle daily_channel", channel="games-2", hour=hour))
    with env.db() as conn:
        next_at = float(conn.execute("SELECT next_at FROM puzzle_daily").fetchone()[0])
    await env.proc.stop()
    env.proc.extra_env["TABLEBOT_CLOCK_OFFSET_S"] = str(next_at - time.time() + 60)
    await env.proc.start()
    await env.ready()
    posted = await server.wait_for_message(lambda m: "Daily puzzle" in m.content, channel="games-2", timeout=30)
    await server.wait_until(lambda: daily_message(env) is not None, 30, "the daily puzzle recorded")
    with env.db() as conn:
        day, pid = conn.execute("SELECT day, puzzle_id FROM puzzle_daily").fetchone()
    puzzle = puzzle_by_id(int(pid))
    assert puzzle is not None
    wrong = min(m for m in puzzle.values if m != puzzle.solution)

    def choice(move: str) -> tuple[str, str]:
        m = Move.parse(move)
        if m.is_place:
            assert m.size is not None
            return f"pz:a:{pid}:{day}:{m.size.letter}", str(m.tile)
        return f"pz:a:{pid}:{day}:X", str(m)

    bob, carol = server.as_user("bob", "games-2"), server.as_user("carol", "games-2")
    (c1, v1), (c2, v2) = choice(puzzle.solution), choice(wrong)
    a, b = await click_raw(bob, posted, c1, [v1]), await click_raw(bob, posted, c2, [v2])
    c, d = await click_raw(carol, posted, c1, [v1]), await click_raw(carol, posted, c1, [v1])
    await asyncio.gather(*(answered(r) for r in (a, b, c, d)))
    with env.db() as conn:
        answers = dict(conn.execute("SELECT user_id, correct FROM puzzle_answers WHERE day = ?", (day,)).fetchall())
        streaks = dict(conn.execute("SELECT user_id, solved FROM puzzle_streaks").fetchall())
    texts = [readable(r.text, moves=True) for r in (a, b, c, d)]
    assert set(answers) == {bob.id, carol.id}, answers
    assert streaks.get(carol.id) == 1, f"a double click counted twice: {streaks}"
    assert streaks.get(bob.id, 0) == answers[bob.id], (answers, streaks)
    counted = [t for t in texts[:2] if "already answered" not in t]
    assert len(counted) == 1, texts
    assert ("Right!" in counted[0]) == bool(answers[bob.id]), (texts, answers)
    no_traceback(env)
    assert env.violations_since(mark) == [], env.log_tail()
