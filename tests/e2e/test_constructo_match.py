"""E2E: a full 2-round Constructo match, alice vs bob, through the real bot process and the DevServer.

Slash commands (``/constructo challenge``, ``place``, ``move``) with the bot's own autocomplete suggestions,
the board's select menus, round 2's layout select (M1); every image is a valid PNG; the final score equals an
independent ``engine.constructo`` replay of the action log read from SQLite; ``/leaderboard`` shows the result.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from devserver.models import Message

from .helpers import (
    BotEnv,
    answered,
    assert_png,
    assert_stripped,
    bot_env,
    check_log_sequence,
    replay_constructo,
    select_with_prefix,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")

MAX_TURNS = 80  # a round has at most 18 placements + a few moves; two rounds stay far below this


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with bot_env(Path(tmp_path_factory.mktemp("constructo"))) as e:
        yield e


async def test_full_match_two_rounds_autocomplete_selects_layout_replay_leaderboard(env: BotEnv) -> None:
    server = env.server
    mark = env.mark()
    users = {server.user("alice").id: server.as_user("alice"), server.user("bob").id: server.as_user("bob")}
    alice, bob = server.as_user("alice"), server.as_user("bob")

    res = await answered(await alice.slash("constructo challenge", opponent="bob"))
    assert not res.ephemeral and "Accept" in {c.get("label") for c in res.message.buttons()}
    game = env.latest_game("constructo", server.channel("games").id)
    assert game.status == "lobby" and game.players == [alice.id, bob.id]

    res = await answered(await bob.click(res.message, "Accept"), followups=1)
    board: Message = res.followups[-1]
    assert_png(board.images[0])
    images = 1
    used = {"slash_place": 0, "slash_move": 0, "select_place": 0, "select_move": 0, "layout_select": 0}

    for turn in range(MAX_TURNS):
        row = env.game(game.id)
        if row.status != "active":
            break
        match = row.match
        seat = match.current_player
        user = users[row.players[seat]]
        await server.wait_until(
            lambda b=board: env.game(game.id).messages.get("board") == b.id,
            10,
            "the stored board message to be the last one posted",
        )
        version = row.version
        if match.phase == "choosing_layout":
            assert seat == 1 - match.first, "M1: the player who did not start round 1 chooses round 2's layout"
            sel = select_with_prefix(board, "cx:lay:")
            assert sel is not None, f"no layout select on {board.components}"
            res = await answered(await user.select(board, "flor", custom_id=sel["custom_id"]))
            used["layout_select"] += 1
        else:
            legal = {str(m) for m in match.current_round.legal_moves()}
            steps = sorted(m for m in legal if "-" in m)
            mode = turn % 3
            if mode == 2 and steps:
                srcs = await user.autocomplete("constructo move", "from", "")
                assert srcs, "autocomplete offers the sources of the legal moves"
                assert {int(c["value"]) for c in srcs} == {int(s.split("-")[0]) for s in steps}
                src = int(srcs[0]["value"])
                dsts = await user.autocomplete("constructo move", "to", "", **{"from": src})
                assert {int(c["value"]) for c in dsts} == {
                    int(s.split("-")[1]) for s in steps if int(s.split("-")[0]) == src
                }
                dst = int(dsts[0]["value"])
                res = await answered(await user.slash("constructo move", **{"from": src, "to": dst}))
                expected = f"{src}-{dst}"
                used["slash_move"] += 1
            elif mode == 0:
                sizes = await user.autocomplete("constructo place", "size", "")
                assert sizes, "autocomplete offers the sizes left in the reserve"
                size = sizes[-1]["value"]  # smallest offered (sizes come large first)
                tiles = await user.autocomplete("constructo place", "tile", "", size=size)
                letter = size[0].upper()
                assert {int(c["value"]) for c in tiles} == {int(m[1:]) for m in legal if m[0] == letter}
                tile = int(tiles[len(tiles) // 2]["value"])
                res = await answered(await user.slash("constructo place", tile=tile, size=size))
                expected = f"{letter}{tile}"
                used["slash_place"] += 1
            else:
                move_sel = select_with_prefix(board, "cx:mv:")
                place_sels = [c for c in board.buttons() if c.get("type") == 3 and c["custom_id"].startswith("cx:pl:")]
                offered = {f"{c['custom_id'][-1]}{o['value']}" for c in place_sels for o in c["options"]}
                offered |= {o["value"] for o in (move_sel or {}).get("options", [])}
                assert offered == legal, "the board's selects offer exactly the legal actions"
                if move_sel is not None and turn % 2:
                    expected = move_sel["options"][0]["value"]
                    res = await answered(await user.select(board, expected, custom_id=move_sel["custom_id"]))
                    used["select_move"] += 1
                else:
                    sel = place_sels[turn % len(place_sels)]
                    value = sel["options"][-1]["value"]
                    expected = f"{sel['custom_id'][-1]}{value}"
                    res = await answered(await user.select(board, value, custom_id=sel["custom_id"]))
                    used["select_place"] += 1
            log = env.actions(game.id)
            assert log[-1][2] == expected and log[-1][1] == user.id, f"logged {log[-1]}, wanted {expected}"
        assert not res.ephemeral, f"the move was refused: {res.text}"
        new_board = res.message
        assert new_board is not None and new_board.id != board.id
        for img in new_board.images:
            assert_png(img)
            images += 1
        await assert_stripped(server, board.id)
        board = new_board
        assert env.game(game.id).version == version + 1
    else:
        pytest.fail(f"the match did not end within {MAX_TURNS} turns")

    row = env.game(game.id)
    assert row.status == "finished"
    assert used["layout_select"] == 1 and all(used.values()), f"every way of playing was exercised: {used}"
    log = env.actions(game.id)
    check_log_sequence(log, row.version)
    replayed = replay_constructo(row.state, row.players, log)
    stored = row.match
    assert replayed.is_over and stored.is_over
    assert replayed.totals() == stored.totals() == tuple(row.engine["totals"])
    assert replayed.round_scores() == stored.round_scores()
    assert replayed.rounds[1].layout.name == "flor"
    a, b = replayed.totals()
    assert f"{a}" in board.content and f"{b}" in board.content, board.content
    assert len(board.images) == 2, "the last board also carries the result image"
    assert images >= 2 * 9

    ranking = row.result["ranking"]
    if replayed.winner is None:
        assert ranking == [[alice.id, bob.id]]
    else:
        assert ranking == [[row.players[replayed.winner]], [row.players[1 - replayed.winner]]]
    ratings = env.ratings("constructo")
    assert set(ratings) == {alice.id, bob.id}
    if replayed.winner is not None:
        w, loser = row.players[replayed.winner], row.players[1 - replayed.winner]
        assert ratings[w][2:4] == (1, 0) and ratings[loser][2:4] == (0, 1)
        assert ratings[w][0] > ratings[loser][0]
    else:
        assert ratings[alice.id][4] == ratings[bob.id][4] == 1

    res = await answered(await server.as_user("carol").slash("leaderboard", game="constructo"))
    assert_png(res.images[0], min_long_side=400)
    text = res.text
    assert "Alice" in text and "Bob" in text, text
    if replayed.winner is not None:
        winner_name = "Alice" if row.players[replayed.winner] == alice.id else "Bob"
        loser_name = "Bob" if winner_name == "Alice" else "Alice"
        assert text.index(winner_name) < text.index(loser_name), "the winner ranks first"
    assert env.violations_since(mark) == [], env.log_tail()
    env.assert_alive()
