"""E2E (QA, exploratory probes): two interactions at the same moment, through the real bot.

The resign confirmation, a hint's play button and the leave confirmation double-clicked; Join and Leave at once; a
lobby's Start against a Leave and a Join; Add bot twice for the last seat; an open challenge accepted by two; both
players offering a draw; a draw accepted as its offerer withdraws it; a takeback request against the opponent's move;
the last two agreements to abandon; an agreement to abandon against a move. Exactly one of two conflicting actions
applies (the log has no gap and no duplicate), the other is told privately, and what each reads is what is stored.
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from .breaker_kit import cid, conex, constructo, no_traceback, probe_env, readable
from .helpers import (
    BotEnv,
    answered,
    assert_consistent_constructo,
    check_log_sequence,
    click_raw,
    recorded_board,
    replay_conex,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with probe_env(Path(tmp_path_factory.mktemp("probe-races"))) as e:
        yield e


async def test_yes_resign_double_clicked_resigns_once_and_rates_once(env: BotEnv) -> None:
    mark = env.mark()
    game_id, alice, bob, _board = await constructo(env, "p2", "carol", "dave")
    await answered(await alice.slash("constructo place", tile=5, size="large"))
    await answered(await bob.slash("constructo place", tile=4, size="small"))
    ask = await answered(await alice.slash("constructo resign"))
    yes = cid(ask.message, "Yes, resign")
    a, b = await click_raw(alice, ask.message, yes), await click_raw(alice, ask.message, yes)
    await asyncio.gather(answered(a), answered(b))
    log = [x for _s, _p, x in env.actions(game_id)]
    assert log.count("resign") + log.count("forfeit") == 1, log
    row = env.game(game_id)
    assert row.status == "finished"
    check_log_sequence(env.actions(game_id), row.version)
    ratings = env.ratings("constructo")
    assert ratings[alice.id][1] == 1 and ratings[bob.id][1] == 1, ratings
    for r in (a, b):
        readable(r.text)
    assert_consistent_constructo(env, game_id)
    no_traceback(env)
    assert env.violations_since(mark) == [], env.log_tail()


async def test_join_and_leave_at_once_the_lobby_message_tells_the_stored_seats(env: BotEnv) -> None:
    mark = env.mark()
    users = {n: env.server.as_user(n, "p4") for n in ("alice", "bob", "carol")}
    lobby = (await answered(await users["alice"].slash("conex new"))).message
    game_id = env.latest_game("conex", env.server.channel("p4").id).id
    a, b = await users["bob"].click(lobby, "Join"), await users["bob"].click(lobby, "Leave")
    await asyncio.gather(answered(a), answered(b))
    c, d = await users["carol"].click(lobby, "Join"), await users["carol"].click(lobby, "Join")
    await asyncio.gather(answered(c), answered(d))
    row = env.game(game_id)
    assert len(set(row.players)) == len(row.players), row.players
    assert env.server.user("carol").id in row.players
    await env.server.wait_until(
        lambda: all(
            (f"<@{env.server.user(n).id}>" in env.server.message(lobby.id).content)
            == (env.server.user(n).id in env.game(game_id).players)
            for n in ("bob", "carol")
        ),
        10,
        f"the lobby message to list exactly the stored players {env.game(game_id).players}: "
        f"{env.server.message(lobby.id).content!r} {[r.text for r in (a, b, c, d)]}",
    )
    # the host double-clicks Start: one game, one start
    s1, s2 = await users["alice"].click(lobby, "Start"), await users["alice"].click(lobby, "Start")
    await asyncio.gather(answered(s1), answered(s2))
    log = [x for _s, _p, x in env.actions(game_id)]
    assert log.count("start") <= 1, log
    check_log_sequence(env.actions(game_id), env.game(game_id).version)
    for r in (a, b, c, d, s1, s2):
        readable(r.text)
    no_traceback(env)
    assert env.violations_since(mark) == [], env.log_tail()


async def test_both_players_offer_a_draw_at_once_the_board_tells_the_stored_offer(env: BotEnv) -> None:
    mark = env.mark()
    game_id, alice, bob, _board = await constructo(env, "p9")
    await answered(await alice.slash("constructo place", tile=5, size="large"))
    await answered(await bob.slash("constructo place", tile=4, size="small"))
    board = copy.deepcopy(await recorded_board(env, game_id))
    offer = cid(board, "Offer draw")
    a, b = await click_raw(alice, board, offer), await click_raw(bob, board, offer)
    await asyncio.gather(answered(a), answered(b))
    row = env.game(game_id)
    for r in (a, b):
        readable(r.text)
    log = [x for _s, _p, x in env.actions(game_id)]
    check_log_sequence(env.actions(game_id), row.version)
    if row.status == "finished":
        assert row.result is not None and row.result["reason"] == "agreed", row.result
    else:
        assert log.count("offer draw") == 1, log
        offer_state = row.state["extra"].get("offer")
        assert offer_state and offer_state["state"] == "open", offer_state
    assert_consistent_constructo(env, game_id)
    no_traceback(env)
    assert env.violations_since(mark) == [], env.log_tail()


async def test_a_takeback_request_and_the_opponents_move_at_once_stay_consistent(env: BotEnv) -> None:
    mark = env.mark()
    game_id, alice, bob, _board = await constructo(env, "p13")
    await answered(await alice.slash("constructo place", tile=5, size="large"))
    board = copy.deepcopy(await recorded_board(env, game_id))
    take = cid(board, "Take back")
    a = await click_raw(alice, board, take)
    b = await bob.slash("constructo place", tile=4, size="small")
    await asyncio.gather(answered(a), answered(b))
    row = env.game(game_id)
    log = [x for _s, _p, x in env.actions(game_id)]
    for r in (a, b):
        readable(r.text)
    check_log_sequence(env.actions(game_id), row.version)
    offer = row.state["extra"].get("offer")
    if log[-1] == "M4":  # the move came last: it voids an open request
        assert not (offer and offer.get("state") == "open" and offer.get("seat") == 0 and "offer takeback" in log[-1:])
    assert_consistent_constructo(env, game_id)
    # what the players read is what is stored: the newest board says whose turn it is
    newest = await recorded_board(env, game_id)
    to_move = row.players[row.match.current_round.to_move] if hasattr(row.match.current_round, "to_move") else None
    if to_move is not None:
        assert f"<@{to_move}> to move" in newest.content, newest.content
    no_traceback(env)
    assert env.violations_since(mark) == [], env.log_tail()


async def test_a_hint_play_double_clicked_and_a_forfeit_confirmed_twice_apply_once(env: BotEnv) -> None:
    mark = env.mark()
    game_id, users, _lobby, table = await conex(env, "p17", ("alice", "bob", "carol"))
    row = env.game(game_id)
    mover = users[row.conex.current_player]
    hints = await answered(await mover.click(table, "Hints"))
    play = next(c["custom_id"] for c in hints.message.buttons() if c["custom_id"].startswith("cn:hp:"))
    version = row.version
    a, b = await click_raw(mover, hints.message, play), await click_raw(mover, hints.message, play)
    await asyncio.gather(answered(a), answered(b))
    assert env.game(game_id).version == version + 1, [r.text for r in (a, b)]
    for r in (a, b):
        readable(r.text)
    # a player leaves (confirmation double-clicked): one forfeit, the game goes on with two
    row = env.game(game_id)
    leaver = users[(row.conex.current_player + 1) % 3]
    ask = await answered(await leaver.slash("conex leave"))
    yes = cid(ask.message, "Yes, leave the game")
    c, d = await click_raw(leaver, ask.message, yes), await click_raw(leaver, ask.message, yes)
    await asyncio.gather(answered(c), answered(d))
    log = [x for _s, p, x in env.actions(game_id) if p == leaver.id]
    assert log.count("forfeit") == 1, log
    row = env.game(game_id)
    assert row.status == "active", row.status
    check_log_sequence(env.actions(game_id), row.version)
    assert replay_conex(row.state, row.players, env.actions(game_id)).to_dict() == row.conex.to_dict()
    for r in (c, d):
        readable(r.text)
    no_traceback(env)
    assert env.violations_since(mark) == [], env.log_tail()


async def test_start_and_a_leave_or_a_join_at_once_seat_who_the_table_names(env: BotEnv) -> None:
    mark = env.mark()
    users = {n: env.server.as_user(n, "p21") for n in ("alice", "bob", "carol", "dave")}
    lobby = (await answered(await users["alice"].slash("conex new", table="small", goal=20))).message
    game_id = env.latest_game("conex", env.server.channel("p21").id).id
    for n in ("bob", "carol"):
        await answered(await users[n].click(lobby, "Join"))
    start, leave, join = (
        await users["alice"].click(lobby, "Start"),
        await users["carol"].click(lobby, "Leave"),
        await users["dave"].click(lobby, "Join"),
    )
    await asyncio.gather(answered(start, followups=0), answered(leave), answered(join))
    await env.server.wait_until(lambda: env.game(game_id).status == "active", 15, "the start")
    row = env.game(game_id)
    said = {n: readable(r.text) for n, r in (("start", start), ("leave", leave), ("join", join))}
    carol, dave = env.server.user("carol").id, env.server.user("dave").id
    assert len(row.players) == len(set(row.players)) >= 2
    assert row.conex is not None and len(row.conex.hands) == len(row.players)
    if carol in row.players:  # her leave came after the start: she was told, and not forfeited by a lobby button
        assert leave.ephemeral, said
        assert [x for _s, p, x in env.actions(game_id) if p == carol] == ["join"], "a lobby Leave forfeited her"
    if dave not in row.players:
        assert join.ephemeral, said
    else:
        assert not join.ephemeral or "seat" in said["join"].lower(), said
    table = await recorded_board(env, game_id)
    for uid in row.players:
        assert f"<@{uid}>" in table.content or env.server.user(uid).name.title() in table.content, table.content
    for uid in {carol, dave} - set(row.players):
        assert env.server.user(uid).name.title() not in table.content, table.content
    no_traceback(env)
    assert env.violations_since(mark) == [], env.log_tail()


async def test_add_bot_twice_at_once_for_the_last_seat_seats_one(env: BotEnv) -> None:
    mark = env.mark()
    users = {n: env.server.as_user(n, "p22") for n in ("alice", "bob", "carol")}
    lobby = (await answered(await users["alice"].slash("conex new"))).message
    game_id = env.latest_game("conex", env.server.channel("p22").id).id
    for n in ("bob", "carol"):
        await answered(await users[n].click(lobby, "Join"))
    a, b = await users["alice"].click(lobby, "Add bot"), await users["alice"].slash("conex addbot", level="hard")
    await asyncio.gather(answered(a), answered(b))
    row = env.game(game_id)
    texts = [readable(r.text) for r in (a, b)]
    seats = row.state.get("seats") or []
    assert len(seats) <= 4, seats
    assert sum(1 for r in (a, b) if r.ephemeral) == 1, texts
    check_log_sequence(env.actions(game_id), row.version)
    no_traceback(env)
    assert env.violations_since(mark) == [], env.log_tail()


async def test_an_open_challenge_accepted_by_two_at_once_starts_one_game_for_one_of_them(env: BotEnv) -> None:
    # The one who lost the race (not a player) is told the game started without them, never to play on its board
    # (bot/services/seating.py: SeatingService._transact answers a non-player "lobby.gone_started_without").
    mark = env.mark()
    alice = env.server.as_user("alice", "p23")
    bob, carol = env.server.as_user("bob", "p23"), env.server.as_user("carol", "p23")
    res = await answered(await alice.slash("constructo challenge"))
    game_id = env.latest_game("constructo", env.server.channel("p23").id).id
    a, b = await bob.click(res.message, "Accept"), await carol.click(res.message, "Accept")
    await asyncio.gather(answered(a), answered(b))
    row = env.game(game_id)
    texts = [readable(r.text) for r in (a, b)]
    assert row.status == "active" and len(row.players) == 2 and row.players[0] == alice.id
    winner = row.players[1]
    refused = b if winner == bob.id else a
    assert refused.ephemeral, texts
    assert [x for _s, _p, x in env.actions(game_id)] == ["accept"]
    with env.db() as conn:
        started = conn.execute("SELECT count(*) FROM games WHERE channel_id = ?", (env.server.channel("p23").id,))
        assert started.fetchone()[0] == 1
    assert "play on its board" not in refused.text, f"a non-player told to play: {refused.text!r}"
    assert "its seats are taken" in refused.text, refused.text
    no_traceback(env)
    assert env.violations_since(mark) == [], env.log_tail()


async def test_a_draw_accepted_while_its_offerer_withdraws_it_is_one_or_the_other(env: BotEnv) -> None:
    mark = env.mark()
    game_id, alice, bob, _board = await constructo(env, "p24")
    await answered(await alice.slash("constructo place", tile=5, size="large"))
    await answered(await bob.slash("constructo place", tile=4, size="small"))
    offered = await answered(await alice.click(await recorded_board(env, game_id), "Offer draw"))
    seen = copy.deepcopy(offered.message)
    a = await click_raw(bob, seen, cid(seen, "Accept draw"))
    b = await click_raw(alice, seen, cid(seen, "Cancel offer"))
    await asyncio.gather(answered(a), answered(b))
    row = env.game(game_id)
    log = [x for _s, _p, x in env.actions(game_id)]
    texts = [readable(r.text) for r in (a, b)]
    check_log_sequence(env.actions(game_id), row.version)
    if row.status == "finished":
        assert log[-1] == "agreed draw" and b.ephemeral, (log, texts)
    else:
        assert log[-1] == "cancel draw" and a.ephemeral, (log, texts)
    assert sum(1 for r in (a, b) if r.ephemeral) == 1, texts
    assert_consistent_constructo(env, game_id)
    no_traceback(env)
    assert env.violations_since(mark) == [], env.log_tail()


async def test_the_last_two_agreements_to_abandon_at_once_abort_once(env: BotEnv) -> None:
    mark = env.mark()
    game_id, users, _lobby, _table = await conex(env, "p25", ("alice", "bob", "carol"))
    alice, bob, carol = users
    offer = (await answered(await alice.slash("abandon"))).message
    a, b = await bob.click(offer, "Agree to abort"), await carol.click(offer, "Agree to abort")
    await asyncio.gather(answered(a), answered(b))
    row = env.game(game_id)
    log = [x for _s, _p, x in env.actions(game_id)]
    for r in (a, b):
        readable(r.text)
    assert row.status == "aborted" and log.count("abort") == 1, (row.status, log)
    await env.server.wait_until(
        lambda: "Every player agreed" in env.server.message(offer.id).content, 10, "the offer says it is done"
    )
    check_log_sequence(env.actions(game_id), row.version)
    no_traceback(env)
    assert env.violations_since(mark) == [], env.log_tail()


async def test_an_abandon_agreement_and_a_move_at_once_are_one_or_the_other(env: BotEnv) -> None:
    # alice /abandon, then bob clicks "Agree to abort" and plays S4 at the same moment (tried in 5 games). A move
    # voids an abort offer (bot/ui/mutual.py's docstring): exactly one of the two applies, the abort only at the
    # version the agreement was decided on; when S4 wins, the click is told privately the offer no longer stands.
    mark = env.mark()
    outcomes = []
    for channel in ("p26", "p27", "p28", "p29", "p30"):
        game_id, alice, bob, _board = await constructo(env, channel)
        await answered(await alice.slash("constructo place", tile=5, size="large"))
        offer = (await answered(await alice.slash("abandon"))).message
        seen = copy.deepcopy(offer)
        a = await click_raw(bob, seen, cid(seen, "Agree to abort"))
        b = await bob.slash("constructo place", tile=4, size="small")
        await asyncio.gather(answered(a), answered(b))
        row = env.game(game_id)
        log = [x for _s, _p, x in env.actions(game_id)]
        texts = [readable(r.text) for r in (a, b)]
        check_log_sequence(env.actions(game_id), row.version)
        assert_consistent_constructo(env, game_id)
        outcomes.append((row.status, log[2:], texts, a.ephemeral))
    for status, log, texts, click_refused in outcomes:
        assert status in ("aborted", "active"), outcomes
        if status == "aborted":
            assert log == ["abort"], f"aborted after the move that voids the agreement: {outcomes}"
        else:
            assert log == ["S4"], outcomes
            assert click_refused and "no longer stands" in texts[0], outcomes
    no_traceback(env)
    assert env.violations_since(mark) == [], env.log_tail()


async def test_the_last_agreement_to_abandon_and_a_forfeit_at_once_never_abort_after_the_forfeit(env: BotEnv) -> None:
    # alice /abandon, carol agrees (2 of 3), then carol confirms leaving (a forfeit) while bob gives the last
    # agreement. The forfeit voids the offer ("The game went on after this offer to abort it, so it no longer stands:
    # propose again with /abandon."): the abort commits only at the version bob's agreement was decided on, so the
    # game is never aborted after the forfeit (and bob is told the offer no longer stands).
    mark = env.mark()
    outcomes = []
    for channel in ("p1", "p3", "p5"):
        game_id, users, _lobby, _table = await conex(env, channel, ("alice", "bob", "carol"))
        alice, bob, carol = users
        offer = (await answered(await alice.slash("abandon"))).message
        await answered(await carol.click(offer, "Agree to abort"))  # 2 of 3: bob's is the last
        ask = await answered(await carol.slash("conex leave"))
        seen = copy.deepcopy(offer)
        a = await click_raw(bob, seen, cid(seen, "Agree to abort"))
        b = await click_raw(carol, ask.message, cid(ask.message, "Yes, leave the game"))
        await asyncio.gather(answered(a), answered(b))
        row = env.game(game_id)
        log = [x for _s, _p, x in env.actions(game_id)]
        check_log_sequence(env.actions(game_id), row.version)
        outcomes.append((row.status, log[3:], [readable(r.text) for r in (a, b)]))
    for status, log, texts in outcomes:
        assert not ("forfeit" in log and status == "aborted"), f"a forfeit erased by an abort: {outcomes}"
        if "forfeit" in log:
            assert "no longer" in texts[0], outcomes  # the offer no longer stands (or: can no longer be aborted)
    no_traceback(env)
    assert env.violations_since(mark) == [], env.log_tail()
