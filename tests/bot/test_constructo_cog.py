"""Handler-level tests of /constructo and its components: real Interaction objects from gateway
payloads, real storage (temp SQLite), real engine and render; Discord recorded at the HTTP seams.

Every dispatched interaction is checked for exactly one initial response (``Driver``)."""

from __future__ import annotations

import asyncio
import copy
from pathlib import Path
from typing import Any

import pytest

from bot.app import TableBot
from bot.storage import Storage
from engine.constructo import Match
from tests.bot.conftest import (
    APP_PERMISSIONS,
    Driver,
    all_custom_ids,
    component,
    envelope_of,
    initial,
    make_bot,
    match_of,
    payload_data,
    refusal,
    start,
)
from tests.bot.fakediscord import BOT_ID, CHANNEL_ID, EPHEMERAL, GUILD_ID, OTHER_CHANNEL_ID, FakeDiscord, png_ok

ALICE, BOB, CAROL = 1, 2, 3


async def board_of(storage: Storage, fake: FakeDiscord, game_id: int) -> dict[str, Any]:
    record = await storage.get_game(game_id)
    assert record is not None
    return fake.messages[record.messages["board"]]


async def version(storage: Storage, game_id: int) -> int:
    record = await storage.get_game(game_id)
    assert record is not None
    return record.version


# -- challenge ----------------------------------------------------------------------------------
async def test_challenge_posts_buttons_for_the_opponent(driver: Driver, fake: FakeDiscord, storage: Storage) -> None:
    token = await driver.command("constructo challenge", ALICE, opponent=BOB)
    payload = initial(fake, token)
    assert payload["type"] == 4 and not payload["data"].get("flags", 0) & EPHEMERAL
    assert "<@2>" in payload["data"]["content"] and "rombo" in payload["data"]["content"]
    ids = all_custom_ids(payload["data"])
    assert [i.split(":")[1] for i in ids] == ["acc", "dec"]
    record = await storage.active_game_in_channel(CHANNEL_ID)
    assert record is not None and record.status == "lobby" and record.players == [ALICE, BOB]


async def test_only_the_challenged_player_can_accept(driver: Driver, fake: FakeDiscord, storage: Storage) -> None:
    token = await driver.command("constructo challenge", ALICE, opponent=BOB)
    msg = fake.originals[token]
    game_id = int(all_custom_ids(fake.messages[msg])[0].split(":")[2])
    for intruder in (CAROL, ALICE):
        text = refusal(fake, await driver.click(msg, f"cx:acc:{game_id}", intruder))
        assert "Only <@2>" in text
    record = await storage.get_game(game_id)
    assert record is not None and record.status == "lobby" and record.version == 0


async def test_accept_starts_round_one_with_board_image_and_turn_mention(
    driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    token = await driver.command("constructo challenge", ALICE, opponent=BOB)
    msg = fake.originals[token]
    accept = await driver.click(msg, "cx:acc:1", BOB)
    calls = fake.calls_for(accept)
    assert calls[0].payload["type"] == 7  # type: ignore[index]  # the challenge message loses its buttons
    assert fake.messages[msg]["components"] == []
    board = await board_of(storage, fake, 1)
    assert "<@1> to move" in board["content"]
    ((name, data),) = fake.files[int(board["id"])]
    assert name.endswith(".png") and png_ok(data)
    ids = all_custom_ids(board)
    assert ids == ["cx:pl:1:1:L", "cx:pl:1:1:M", "cx:pl:1:1:S", "cx:res:1", "of:dr:1:1"]
    assert len(component(board, "cx:pl:1:1:L")["options"]) == 9


async def test_decline_and_withdraw_abort_the_challenge(driver: Driver, fake: FakeDiscord, storage: Storage) -> None:
    token = await driver.command("constructo challenge", ALICE, opponent=BOB)
    decline = await driver.click(fake.originals[token], "cx:dec:1", BOB)
    assert initial(fake, decline)["type"] == 7
    assert (await storage.get_game(1)).status == "aborted"  # type: ignore[union-attr]
    token = await driver.command("constructo challenge", ALICE, opponent=BOB)
    await driver.click(fake.originals[token], "cx:dec:2", ALICE)
    assert "withdrew" in fake.messages[fake.originals[token]]["content"]
    assert (await storage.get_game(2)).status == "aborted"  # type: ignore[union-attr]


async def test_self_and_other_bot_challenges_are_refused(driver: Driver, fake: FakeDiscord, storage: Storage) -> None:
    assert "yourself" in refusal(fake, await driver.command("constructo challenge", ALICE, opponent=ALICE))
    assert "Bots cannot play" in refusal(fake, await driver.command("constructo challenge", ALICE, opponent=5))
    assert await storage.active_game_in_channel(CHANNEL_ID) is None


async def test_bad_custom_layout_is_refused_with_the_reason(
    driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    token = await driver.command("constructo challenge", ALICE, opponent=BOB, layout="(0,0) (1,0) (2,0)")
    text = refusal(fake, token)
    assert text.startswith("A layout needs exactly 9 cells") and "9" in text
    text = refusal(fake, await driver.command("constructo challenge", ALICE, opponent=BOB, layout="blob"))
    assert "blob" in text
    assert await storage.active_game_in_channel(CHANNEL_ID) is None
    cells = "(0,0) (1,0) (2,0) (3,0) (4,0) (5,0) (6,0) (7,0) (0,1)"
    token = await driver.command("constructo challenge", ALICE, opponent=BOB, layout=cells)
    assert initial(fake, token)["type"] == 4
    record = await storage.active_game_in_channel(CHANNEL_ID)
    assert record is not None and envelope_of(record).options == {"layout": cells}  # round 1's, set at Accept
    await driver.click(record.messages["lobby"], f"cx:acc:{record.id}", BOB)
    record = await storage.get_game(record.id)
    assert record is not None and match_of(record).current_round.layout.name is None


async def test_busy_channel_opens_a_thread_or_says_so(driver: Driver, fake: FakeDiscord, storage: Storage) -> None:
    await driver.command("constructo challenge", ALICE, opponent=BOB)
    token = await driver.command("constructo challenge", CAROL, opponent=ALICE)
    threads = [c for c in fake.calls if c.path == f"/channels/{CHANNEL_ID}/threads"]
    assert len(threads) == 1 and threads[0].payload["type"] == 11  # type: ignore[index]  # public thread
    assert "<#" in initial(fake, token)["data"]["content"]
    games = await storage.list_active_games()
    assert len(games) == 2 and games[1].channel_id != CHANNEL_ID
    challenge = [c for c in fake.calls if c.path == f"/channels/{games[1].channel_id}/messages"]
    assert len(challenge) == 1 and "cx:acc:2" in str(challenge[0].payload)
    # no thread permission: a clear refusal, no thread, no game
    no_threads = str(int(APP_PERMISSIONS) & ~(1 << 35))
    token = await driver.command("constructo challenge", BOB, opponent=CAROL, app_permissions=no_threads)
    assert "may not open a thread" in refusal(fake, token) and "Create Public Threads" in refusal(fake, token)
    assert len([c for c in fake.calls if c.path.endswith("/threads")]) == 1
    assert len(await storage.list_active_games()) == 2


# -- playing --------------------------------------------------------------------------------------
async def test_select_placement_posts_new_board_and_strips_the_old(
    driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    game = await start(driver, fake, storage)
    old = await board_of(storage, fake, game)
    token = await driver.click(int(old["id"]), f"cx:pl:{game}:1:L", ALICE, values=["5"])
    (answer,) = fake.calls_for(token)  # the board is the first response itself: no "thinking" deferral
    assert answer.path.endswith("/callback") and answer.payload["type"] == 4  # type: ignore[index]
    data = payload_data(answer)
    assert not data.get("flags", 0) & EPHEMERAL
    assert len(answer.files) == 1 and png_ok(answer.files[0][1])
    assert data["attachments"] == [{"id": 0, "filename": answer.files[0][0]}]
    assert "alice played **L5** (a large chip on tile 5)." in data["content"] and "<@2> to move" in data["content"]
    new = await board_of(storage, fake, game)
    assert new["id"] != old["id"]
    assert "5" not in [o["value"] for o in component(new, f"cx:pl:{game}:2:L")["options"]]
    # stripped through the webhook of the interaction that posted it (exempt from the global rate limit)
    strip = [c for c in fake.calls if c.method == "PATCH" and c.path.endswith(f"/messages/{old['id']}")]
    assert len(strip) == 1 and strip[0].payload["components"] == []  # type: ignore[index]
    assert strip[0].path.startswith("/webhooks/")
    assert "attachments" not in strip[0].payload  # type: ignore[operator]  # keeps its image
    assert fake.messages[int(old["id"])]["attachments"]
    record = await storage.get_game(game)
    assert record is not None and str(match_of(record).current_round.last_move) == "L5"
    assert [a.action for a in await storage.actions(game)][-1] == "L5"


async def test_stale_board_click_is_refused_and_changes_nothing(
    driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    game = await start(driver, fake, storage)
    old = copy.deepcopy(await board_of(storage, fake, game))  # as a client that missed the update shows it
    await driver.command("constructo place", ALICE, tile=5, size="large")
    await driver.command("constructo place", BOB, tile=4, size="medium")
    before = await version(storage, game)
    token = await driver.click(int(old["id"]), f"cx:pl:{game}:1:S", ALICE, values=["1"], message=old)
    text = refusal(fake, token)
    assert "out of date" in text
    assert await version(storage, game) == before


async def test_non_player_and_out_of_turn_clicks_are_refused(
    driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    game = await start(driver, fake, storage)
    board = await board_of(storage, fake, game)
    assert "not a player" in refusal(
        fake, await driver.click(int(board["id"]), f"cx:pl:{game}:1:L", CAROL, values=["1"])
    )
    text = refusal(fake, await driver.click(int(board["id"]), f"cx:pl:{game}:1:L", BOB, values=["1"]))
    assert text.startswith("It is not your turn")
    assert "not a player" in refusal(fake, await driver.click(int(board["id"]), f"cx:res:{game}", CAROL))
    assert await version(storage, game) == 1


async def test_illegal_moves_are_refused_with_their_rule_code(
    driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    game = await start(driver, fake, storage)
    await driver.command("constructo place", ALICE, tile=5, size="large")
    text = refusal(fake, await driver.command("constructo place", BOB, tile=5, size="small"))
    assert text.startswith("**T2** — ")  # placing on an occupied tile
    await driver.command("constructo place", BOB, tile=4, size="small")
    await driver.command("constructo place", ALICE, tile=1, size="large")
    v = await version(storage, game)
    text = refusal(fake, await driver.command("constructo move", BOB, **{"from": 4, "to": 5}))
    assert text.startswith("**K3** — ")  # a small never goes onto a large
    text = refusal(fake, await driver.command("constructo move", BOB, **{"from": 4, "to": 9}))
    assert text.startswith("**")  # not adjacent / empty destination: a rule code either way
    assert await version(storage, game) == v


async def test_unknown_tile_and_garbage_input_are_refused(driver: Driver, fake: FakeDiscord, storage: Storage) -> None:
    game = await start(driver, fake, storage)
    assert refusal(fake, await driver.command("constructo place", ALICE, tile=12, size="large")).startswith(
        "Tile 12 does not exist: tiles are numbered 1-9."
    )
    text = refusal(fake, await driver.command("constructo place", ALICE, tile=3, size="huge"))
    assert text.startswith("Unknown chip size") and "huge" in text
    assert refusal(fake, await driver.command("constructo move", ALICE, **{"from": 0, "to": -3})).startswith(
        "Tile 0 does not exist"
    )
    board = await board_of(storage, fake, game)
    text = refusal(fake, await driver.click(int(board["id"]), f"cx:pl:{game}:1:L", ALICE, values=["banana"]))
    assert "banana" in text and not text.startswith("**")
    assert await version(storage, game) == 1


async def test_commands_without_a_game_say_so(driver: Driver, fake: FakeDiscord) -> None:
    for token in (
        await driver.command("constructo place", ALICE, tile=1, size="small"),
        await driver.command("constructo resign", ALICE),
        await driver.command("constructo board", ALICE),
    ):
        assert "no Constructo game in this channel" in refusal(fake, token)


async def test_two_simultaneous_clicks_apply_one_action(driver: Driver, fake: FakeDiscord, storage: Storage) -> None:
    game = await start(driver, fake, storage)
    board = await board_of(storage, fake, game)
    tokens = []
    for tile in ("1", "2"):  # both dispatched before either handler runs
        payload, token = driver._base(3, ALICE, CHANNEL_ID)
        payload["data"] = {"custom_id": f"cx:pl:{game}:1:L", "component_type": 3, "values": [tile]}
        payload["message"] = board
        fake.component_message[token] = int(board["id"])
        driver.bot._connection.parse_interaction_create(payload)
        tokens.append(token)
    await driver.settle()
    assert await version(storage, game) == 2
    assert [initial(fake, tok)["type"] for tok in tokens] == [4, 4]
    boards = [tok for tok in tokens if fake.callbacks(tok)[0].files]
    assert len(boards) == 1  # one answered with the new board; the other was refused
    loser = next(tok for tok in tokens if tok not in boards)
    assert "out of date" in refusal(fake, loser) or "same moment" in refusal(fake, loser)


async def test_autocomplete_offers_only_legal_choices(driver: Driver, fake: FakeDiscord, storage: Storage) -> None:
    await start(driver, fake, storage)
    tiles = await driver.autocomplete("constructo place", ALICE, "tile", tile="", size="large")
    assert [c["value"] for c in tiles] == list(range(1, 10))
    await driver.command("constructo place", ALICE, tile=5, size="large")
    assert await driver.autocomplete("constructo place", ALICE, "tile", tile="") == []  # not Alice's turn
    assert await driver.autocomplete("constructo place", CAROL, "tile", tile="") == []  # not a player
    tiles = await driver.autocomplete("constructo place", BOB, "tile", tile="", size="medium")
    assert [c["value"] for c in tiles] == [1, 2, 3, 4, 6, 7, 8, 9]
    sizes = await driver.autocomplete("constructo place", BOB, "size", tile=4, size="")
    assert [c["value"] for c in sizes] == ["large", "medium", "small"]
    await driver.command("constructo place", BOB, tile=4, size="medium")
    await driver.command("constructo place", ALICE, tile=1, size="small")
    srcs = await driver.autocomplete("constructo move", BOB, "from", **{"from": ""})
    assert [c["value"] for c in srcs] == [4]  # medium on 4 may climb onto alice's large on 5 (K1)
    dsts = await driver.autocomplete("constructo move", BOB, "to", **{"from": 4, "to": ""})
    assert [c["value"] for c in dsts] == [5]
    layouts = await driver.autocomplete("constructo challenge", ALICE, "layout", opponent=BOB, layout="c")
    assert {c["value"] for c in layouts} == {"cinta", "corona"}
    for choices in (tiles, sizes, srcs, dsts, layouts):
        assert len(choices) <= 25 and all(1 <= len(c["name"]) <= 100 for c in choices)


async def test_move_select_and_k1_tower(driver: Driver, fake: FakeDiscord, storage: Storage) -> None:
    game = await start(driver, fake, storage)
    await driver.command("constructo place", ALICE, tile=5, size="large")
    await driver.command("constructo place", BOB, tile=4, size="medium")
    await driver.command("constructo place", ALICE, tile=9, size="small")
    board = await board_of(storage, fake, game)
    moves = component(board, f"cx:mv:{game}:")
    assert [o["value"] for o in moves["options"]] == ["4-5"]
    await driver.click(int(board["id"]), moves["custom_id"], BOB, values=["4-5"])
    record = await storage.get_game(game)
    assert record is not None and match_of(record).current_round.tower_owner(5) == 1


async def test_resign_finishes_rated_and_removes_components(
    driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    """A resignation after three moves is rated (each player has moved): equal newcomers, +63 / −63."""
    game = await start(driver, fake, storage)
    await driver.command("constructo place", ALICE, tile=5, size="large")
    await driver.command("constructo place", BOB, tile=4, size="medium")
    await driver.command("constructo place", ALICE, tile=9, size="small")
    board = copy.deepcopy(await board_of(storage, fake, game))
    ask = await driver.click(int(board["id"]), f"cx:res:{game}", BOB)
    prompt = initial(fake, ask)["data"]
    assert prompt["flags"] & EPHEMERAL and all_custom_ids(prompt) == [f"cx:rsy:{game}"]
    assert (await storage.get_game(game)).status == "active"  # type: ignore[union-attr]  # not yet
    token = await driver.click(fake.originals[ask], f"cx:rsy:{game}", BOB)
    assert initial(fake, token)["type"] == 7  # the prompt is closed, then the board is posted
    record = await storage.get_game(game)
    assert record is not None and record.status == "finished"
    assert record.result is not None and record.result.ranking == ((ALICE,), (BOB,)) and record.result.rated
    final_call = fake.calls_for(token)[-1]
    final = final_call.payload
    # The result card keeps only the record buttons (no move, no resign).
    assert all_custom_ids(final) == [f"rm:go:{game}", f"rc:rp:{game}", f"rc:dl:{game}", f"cx:ana:{game}"]  # type: ignore[arg-type]
    assert "alice" in final["content"] and "wins" in final["content"]  # type: ignore[index]
    # lichess conventions: a newcomer is 1500, provisional (?), and equal players exchange equal amounts
    assert "Rating changes: alice 1500? → 1563? (+63), bob 1500? → 1437? (−63)." in final["content"]  # type: ignore[operator]
    assert [name.endswith("-result.png") for name, _ in final_call.files] == [False, True]
    assert all(png_ok(data) for _, data in final_call.files)
    row = await storage.rating_of(GUILD_ID, "constructo", ALICE)
    assert row is not None and row.wins == 1
    late = await driver.click(int(board["id"]), f"cx:res:{game}", ALICE, message=board)  # a client not yet updated
    assert "over" in refusal(fake, late)
    # a move typed just after the game ended is told the game is over, not that the channel has no game
    moved = await driver.command("constructo place", ALICE, tile=1, size="small")
    assert "This game is over" in refusal(fake, moved)
    # someone who did not play in it is told there is no game here (not to rematch a game that was not theirs)
    told = refusal(fake, await driver.command("constructo place", CAROL, tile=1, size="small"))
    assert "no Constructo game" in told and "over" not in told, told
    told = refusal(fake, await driver.command("abandon", CAROL))
    assert "no game in this channel" in told and "over" not in told, told
    # "show the board again" just after the end shows the final board, to anyone (as text privately, or posted)
    token = await driver.command("constructo board", CAROL, text=True)
    shown = initial(fake, token)["data"]
    assert shown["flags"] & EPHEMERAL and shown["content"].startswith("```"), shown
    before = await board_of(storage, fake, game)
    await driver.command("constructo board", BOB)
    again = await board_of(storage, fake, game)
    assert again["id"] != before["id"] and png_ok(fake.files[int(again["id"])][0][1])
    assert all_custom_ids(again) == all_custom_ids(final)  # type: ignore[arg-type]  # the record buttons, no moves
    assert (await storage.get_game(game)).status == "finished"  # type: ignore[union-attr]


async def test_board_text_is_ephemeral_and_board_image_reposts(
    driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    game = await start(driver, fake, storage)
    token = await driver.command("constructo board", CAROL, text=True)
    payload = initial(fake, token)
    assert payload["data"]["flags"] & EPHEMERAL and payload["data"]["content"].startswith("```")
    old = await board_of(storage, fake, game)
    token = await driver.command("constructo board", CAROL)
    new = await board_of(storage, fake, game)
    assert new["id"] != old["id"] and png_ok(fake.files[int(new["id"])][0][1])
    assert fake.messages[int(old["id"])]["components"] == []


async def test_layouts_and_rules(driver: Driver, fake: FakeDiscord) -> None:
    token = await driver.command("constructo layouts", ALICE)
    ((_name, data),) = [f for c in fake.calls_for(token) for f in c.files]
    assert png_ok(data) and "rombo" in fake.visible_text(token)
    token = await driver.command("constructo layouts", BOB)  # cached image, answered directly
    assert initial(fake, token)["type"] == 4 and png_ok(fake.calls_for(token)[0].files[0][1])
    token = await driver.command("constructo rules", ALICE)
    text = refusal(fake, token)  # ephemeral, the only answer
    assert "tower" in text and len(text) <= 2000


# -- round 2 layout (M1) ------------------------------------------------------------------------
async def _round_one_over(storage: Storage, *, ai: bool = False, board_shown: bool = False) -> int:
    match = Match.new("rombo", first=0)
    while not match.current_round.is_over:
        match.play(match.current_round.legal_moves()[0])
    players = [ALICE, BOT_ID if ai else BOB]
    state = {
        "match": match.to_dict(),
        "ai": {"seat": 1, "level": "easy"} if ai else None,
        "layout": "rombo",
        "names": ["alice", "AI" if ai else "bob"],
        "locale": None,
    }
    game = await storage.create_game("constructo", GUILD_ID, CHANNEL_ID, state, players, status="active")
    if board_shown:  # as after a restart: the board of this version was posted before
        await storage.set_message(game, "board", 990)
        await storage.set_message(game, "board.version", 0)
    return game


async def test_round_two_layout_select_for_the_second_player(
    driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    game = await _round_one_over(storage)
    await driver.command("constructo board", ALICE)
    board = await board_of(storage, fake, game)
    select = component(board, f"cx:lay:{game}:0")
    assert [o["value"] for o in select["options"]][:2] == ["keep", "rombo"]
    assert "<@2>" in board["content"] and "round 2" in board["content"]
    assert refusal(fake, await driver.click(int(board["id"]), select["custom_id"], ALICE, values=["flor"])).startswith(
        "The player who did not start round 1 chooses"
    )
    await driver.click(int(board["id"]), select["custom_id"], BOB, values=["flor"])
    record = await storage.get_game(game)
    assert record is not None
    match = match_of(record)
    assert match.round_no == 2 and match.current_round.layout.name == "flor" and match.current_player == 1
    assert "<@2> to move" in (await board_of(storage, fake, game))["content"]


async def test_round_two_layout_by_command_accepts_coordinates(
    driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    game = await _round_one_over(storage)
    bad = refusal(fake, await driver.command("constructo choose", BOB, layout="(0,0) (5,5)"))
    assert bad.startswith("A layout needs exactly 9 cells")
    await driver.command("constructo choose", BOB, layout="(0,0) (1,0) (2,0) (3,0) (4,0) (5,0) (6,0) (7,0) (0,1)")
    record = await storage.get_game(game)
    assert record is not None and match_of(record).round_no == 2


# -- the AI ---------------------------------------------------------------------------------------
async def test_an_ai_game_spends_no_channel_request(driver: Driver, fake: FakeDiscord, storage: Storage) -> None:
    """The AI's board is a followup of the human's fresh interaction and every strip an edit through the
    interaction that posted the board: a move against the AI costs no request outside the interaction endpoints."""
    await driver.command("constructo challenge", CAROL, opponent=BOT_ID, level="easy")
    start = len(fake.calls)
    for tile in (5, 9):
        await driver.command("constructo place", CAROL, tile=tile, size="small")
    record = await storage.get_game(1)
    assert record is not None and record.version == 4  # two moves of carol's, two of the AI's
    spent = fake.calls[start:]
    assert [c for c in spent if not c.path.startswith(("/interactions/", "/webhooks/"))] == []
    ai_posts = [c for c in spent if c.method == "POST" and c.path.startswith("/webhooks/")]
    assert len(ai_posts) == 2 and all("AI (easy) played" in c.payload["content"] for c in ai_posts)  # type: ignore[index]
    live = [mid for mid, msg in fake.messages.items() if any(i.startswith("cx:") for i in all_custom_ids(msg))]
    assert live == [record.messages["board"]]  # one live board: every older one was stripped


@pytest.mark.usefixtures("expired_tokens")
async def test_challenging_the_bot_starts_an_unrated_game_and_the_ai_answers(
    driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    token = await driver.command("constructo challenge", CAROL, opponent=BOT_ID, level="easy")
    record = await storage.active_game_in_channel(CHANNEL_ID)
    assert record is not None and record.status == "active" and record.players == [CAROL, BOT_ID]
    assert initial(fake, token)["type"] == 4 and "Not rated" in fake.visible_text(token)
    await driver.command("constructo place", CAROL, tile=5, size="large")
    record = await storage.get_game(record.id)
    assert record is not None and record.version == 2  # carol's move and the AI's answer
    actions = await storage.actions(record.id)
    assert [a.player for a in actions] == [CAROL, BOT_ID]
    ai_post = [c for c in fake.calls if c.method == "POST" and c.path == f"/channels/{CHANNEL_ID}/messages"]
    assert len(ai_post) == 1 and png_ok(ai_post[0].files[0][1])
    assert f"AI (easy) played **{actions[1].action}**" in ai_post[0].payload["content"]  # type: ignore[index]
    assert "<@3> to move" in ai_post[0].payload["content"]  # type: ignore[index]
    # AI games are not rated
    ask = await driver.command("constructo resign", CAROL)  # asks first, like the Resign button
    assert all_custom_ids(initial(fake, ask)["data"]) == [f"cx:rsy:{record.id}"]
    assert (await storage.get_game(record.id)).status == "active"  # type: ignore[union-attr]
    await driver.click(fake.originals[ask], f"cx:rsy:{record.id}", CAROL)
    record = await storage.get_game(record.id)
    assert record is not None and record.result is not None and not record.result.rated
    assert await storage.rating_of(GUILD_ID, "constructo", CAROL) is None


async def test_resume_plays_a_pending_ai_turn_and_chooses_its_layout(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    game = await _round_one_over(storage, ai=True, board_shown=True)  # round 1 over: the AI chooses round 2
    assert await bot.games.ai.resume_all() == 1  # what every READY runs (after re-posting stale boards)
    assert await bot.games.ai.resume_all() == 0  # a second READY while the AI thinks: no second search
    await driver.settle()
    record = await storage.get_game(game)
    assert record is not None
    match = match_of(record)
    assert match.round_no == 2 and match.current_player == 0  # AI chose and then played its first move
    posts = [c for c in fake.calls if c.method == "POST" and c.path == f"/channels/{CHANNEL_ID}/messages"]
    assert len(posts) == 2 and "round 2" in posts[0].payload["content"]  # type: ignore[index]
    assert await bot.games.ai.resume_all() == 0  # nothing left to do
    assert bot.games.ai.searches == 2 and bot.games.ai.duplicates == 0


async def test_game_in_other_channel_is_independent(driver: Driver, fake: FakeDiscord, storage: Storage) -> None:
    await start(driver, fake, storage)
    token = await driver.command("constructo challenge", CAROL, OTHER_CHANNEL_ID, opponent=ALICE)
    assert initial(fake, token)["type"] == 4
    assert not [c for c in fake.calls if c.path.endswith("/threads")]
    await asyncio.sleep(0)


async def test_lobby_commands_say_not_started_and_resign_withdraws(
    driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    await driver.command("constructo challenge", ALICE, opponent=BOB)
    assert "not started" in refusal(fake, await driver.command("constructo place", ALICE, tile=1, size="small"))
    assert "not started" in refusal(fake, await driver.command("constructo board", BOB))
    token = await driver.command("constructo resign", ALICE)
    assert "withdrew" in initial(fake, token)["data"]["content"]
    assert await storage.active_game_in_channel(CHANNEL_ID) is None


async def test_ai_chooser_board_has_no_layout_select_and_the_ai_plays(
    driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    game = await _round_one_over(storage, ai=True)
    token = await driver.command("constructo board", ALICE)
    edit = fake.calls_for(token)[1].payload
    ids = [c["custom_id"] for row in edit["components"] for c in row["components"]]  # type: ignore[index]
    assert [i for i in ids if not i.startswith("of:")] == [f"cx:res:{game}"]  # the AI chooses: nothing to pick
    record = await storage.get_game(game)
    assert record is not None and match_of(record).round_no == 2  # the AI chose and moved


@pytest.mark.usefixtures("expired_tokens")
async def test_expired_interaction_still_publishes_the_committed_move(
    driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    game = await start(driver, fake, storage)
    board = await board_of(storage, fake, game)
    fake.fail_webhooks.add("/callback")  # Discord answers 10062 Unknown interaction
    await driver.click(int(board["id"]), f"cx:pl:{game}:1:L", ALICE, values=["5"])
    fake.fail_webhooks.clear()
    assert await version(storage, game) == 2
    posts = [c for c in fake.calls if c.method == "POST" and c.path == f"/channels/{CHANNEL_ID}/messages"]
    assert len(posts) == 1 and png_ok(posts[0].files[0][1]) and "L5" in posts[0].payload["content"]  # type: ignore[index]
    assert int((await board_of(storage, fake, game))["id"]) == int(fake.messages[max(fake.messages)]["id"])


async def test_components_keep_working_after_a_restart(fake: FakeDiscord, storage: Storage, tmp_path: Path) -> None:
    """Persistent DynamicItems: a board posted by one process is playable by the next one."""
    first = await make_bot(fake, storage, tmp_path)
    game = await start(Driver(first, fake), fake, storage)
    board = await board_of(storage, fake, game)
    await first.close()
    second = await make_bot(fake, storage, tmp_path)
    try:
        await Driver(second, fake).click(int(board["id"]), f"cx:pl:{game}:1:M", ALICE, values=["3"])
        record = await storage.get_game(game)
        assert record is not None and record.version == 2 and str(match_of(record).current_round.last_move) == "M3"
    finally:
        await second.close()


async def test_ai_challenge_in_a_busy_channel_plays_in_a_thread(
    driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    await start(driver, fake, storage)
    token = await driver.command("constructo challenge", CAROL, opponent=BOT_ID)
    assert "<#" in initial(fake, token)["data"]["content"]
    games = await storage.list_active_games()
    thread_id = games[1].channel_id
    assert thread_id != CHANNEL_ID and games[1].status == "active"
    (board_post,) = [c for c in fake.calls if c.path == f"/channels/{thread_id}/messages"]
    assert png_ok(board_post.files[0][1]) and "<@3> to move" in board_post.payload["content"]  # type: ignore[index]
    await driver.command("constructo place", CAROL, thread_id, tile=5, size="large")
    assert await version(storage, games[1].id) == 2  # carol's move and the AI's answer, in the thread


async def test_render_failure_falls_back_to_the_text_board(
    driver: Driver, fake: FakeDiscord, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    import render.constructo

    game = await start(driver, fake, storage)

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise OSError("font file vanished")

    monkeypatch.setattr(render.constructo, "render_board", broken)
    token = await driver.command("constructo place", ALICE, tile=5, size="large")
    (answer,) = fake.calls_for(token)  # the text board is the first response
    final = payload_data(answer)
    assert not answer.files and "```" in final["content"] and "L5" in final["content"]
    assert await version(storage, game) == 2


async def test_unexpected_error_gets_one_generic_ephemeral_answer(
    driver: Driver, fake: FakeDiscord, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await start(driver, fake, storage)

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(storage, "apply_action", broken)
    text = refusal(fake, await driver.command("constructo place", ALICE, tile=5, size="large"))
    assert "went wrong" in text and "disk" not in text
    board = await board_of(storage, fake, game)
    text = refusal(fake, await driver.click(int(board["id"]), f"cx:pl:{game}:1:L", ALICE, values=["5"]))
    assert "went wrong" in text
    assert await version(storage, game) == 1


async def test_resume_skips_a_game_it_cannot_post_to_and_goes_on(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    first = await _round_one_over(storage, ai=True, board_shown=True)
    record = await storage.get_game(first)
    assert record is not None
    second = await storage.create_game(
        "constructo", GUILD_ID, OTHER_CHANNEL_ID, record.state, record.players, status="active"
    )
    await storage.set_message(second, "board", 991)
    await storage.set_message(second, "board.version", 0)
    fake.fail_paths.add(f"/channels/{CHANNEL_ID}/messages")  # e.g. the bot lost access to that channel
    assert await bot.games.ai.resume_all() == 2
    await driver.settle()
    done = await storage.get_game(second)
    assert done is not None and match_of(done).round_no == 2 and match_of(done).current_player == 0
    stuck = await storage.get_game(first)  # its AI chose the layout; the post failed: recovered later, no AI move
    assert stuck is not None and stuck.version == 1 and stuck.messages["board.version"] == 0


async def test_move_command_k1_medium_onto_large(driver: Driver, fake: FakeDiscord, storage: Storage) -> None:
    game = await start(driver, fake, storage)
    await driver.command("constructo place", ALICE, tile=5, size="large")
    await driver.command("constructo place", BOB, tile=4, size="medium")
    await driver.command("constructo place", ALICE, tile=9, size="small")
    token = await driver.command("constructo move", BOB, **{"from": 4, "to": 5})
    assert "bob played **4-5** (tile 4 → tile 5)." in fake.visible_text(token)
    record = await storage.get_game(game)
    assert record is not None
    rnd = match_of(record).current_round
    assert rnd.tower_owner(5) == 1 and rnd.tile(4) == ()


async def test_resigning_before_moving_ends_the_match_unrated(
    driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    """Rated only when each player has moved (lichess aborts such games): Bob resigns before his first move; Alice
    wins, nobody's rating moves, and the card says why in words."""
    game = await start(driver, fake, storage)
    await driver.command("constructo place", ALICE, tile=5, size="large")
    board = copy.deepcopy(await board_of(storage, fake, game))
    ask = await driver.click(int(board["id"]), f"cx:res:{game}", BOB)
    token = await driver.click(fake.originals[ask], f"cx:rsy:{game}", BOB)
    record = await storage.get_game(game)
    assert record is not None and record.status == "finished" and record.result is not None
    assert record.result.ranking == ((ALICE,), (BOB,)) and not record.result.rated
    final = fake.calls_for(token)[-1].payload
    assert "Not rated: bob never made a move" in final["content"], final["content"]  # type: ignore[index,operator]
    assert await storage.rating_of(GUILD_ID, "constructo", ALICE) is None
    assert await storage.rating_of(GUILD_ID, "constructo", BOB) is None
