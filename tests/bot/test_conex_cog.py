"""Handler-level tests of /conex and its components: real Interaction objects from gateway payloads, real
storage (temp SQLite), real engine and render; Discord recorded at the HTTP seams (``tests/bot/conftest.py``).

Every dispatched interaction is checked for exactly one initial response (``Driver``)."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from bot.app import TableBot
from bot.games.conex.payload import table_pictures
from bot.services.publish import board_stale
from bot.storage import Storage
from engine.conex import Game, Lightning, Place
from tests.bot.conftest import (
    Driver,
    all_custom_ids,
    board_call,
    component,
    envelope_of,
    game_of,
    initial,
    payload_data,
    refusal,
)
from tests.bot.fakediscord import CHANNEL_ID, EPHEMERAL, GUILD_ID, FakeDiscord, png_ok

ALICE, BOB, CAROL = 1, 2, 3
SEED = 7


async def record_of(storage: Storage, game_id: int = 1) -> Any:
    record = await storage.get_game(game_id)
    assert record is not None
    return record


async def table_msg(storage: Storage, fake: FakeDiscord, game_id: int = 1) -> dict[str, Any]:
    record = await record_of(storage, game_id)
    return fake.messages[record.messages["board"]]


def lobby_id(fake: FakeDiscord, token: str) -> int:
    return fake.originals[token]


async def start_game(
    driver: Driver,
    fake: FakeDiscord,
    storage: Storage,
    bot: TableBot,
    seats: tuple[int, ...] = (ALICE, BOB),
    bots: int = 0,
    seed: int = SEED,
) -> int:
    """Alice opens a lobby, the others join by button, Alice starts (seeded deal through the service)."""
    token = await driver.command("conex new", ALICE)
    lobby = lobby_id(fake, token)
    for uid in seats[1:]:
        await driver.click(lobby, "cn:join:1", uid)
    for _ in range(bots):
        await driver.click(lobby, add_bot_id(fake, lobby), ALICE)
    kind: Any = bot.games.kinds["conex"]
    original = kind.rules.new_seed
    kind.rules.new_seed = lambda: seed  # a known deal instead of 128 random bits
    try:
        await driver.click(lobby, "cn:start:1", ALICE)
    finally:
        kind.rules.new_seed = original
    record = await record_of(storage)
    assert record.status == "active"
    return record.id


def expected_game(players: int = 2, seed: int = SEED) -> Game:
    return Game.new(players=players, seed=seed, table="medium", goal=40)


def add_bot_id(fake: FakeDiscord, lobby: int) -> str:
    """The custom id of the Add bot button the lobby message shows now (``cn:bot:<game>:<version>``)."""
    return next(c for c in all_custom_ids(fake.messages[lobby]) if c.startswith("cn:bot:"))


# -- lobby --------------------------------------------------------------------------------------
async def test_new_lobby_has_join_leave_start_addbot(driver: Driver, fake: FakeDiscord, storage: Storage) -> None:
    token = await driver.command("conex new", ALICE, table="small", goal=30)
    payload = initial(fake, token)
    assert payload["type"] == 4 and not payload["data"].get("flags", 0) & EPHEMERAL
    # Add bot carries the lobby's version as drawn (0: just opened): a double click adds one seat
    assert all_custom_ids(payload["data"]) == ["cn:join:1", "cn:leave:1", "cn:start:1", "cn:bot:1:0"]
    assert "table small" in payload["data"]["content"] and "goal 30" in payload["data"]["content"]
    record = await record_of(storage)
    assert record.status == "lobby" and record.players == [ALICE] and envelope_of(record).options["goal"] == 30
    assert record.messages["lobby"] == lobby_id(fake, token)


async def test_join_leave_and_host_only_start(driver: Driver, fake: FakeDiscord, storage: Storage) -> None:
    lobby = lobby_id(fake, await driver.command("conex new", ALICE))
    text = refusal(fake, await driver.click(lobby, "cn:start:1", ALICE))
    assert text.startswith("**U1** — ")  # one player is too few
    join = await driver.click(lobby, "cn:join:1", BOB)
    assert initial(fake, join)["type"] == 7 and "<@2>" in fake.messages[lobby]["content"]
    assert "already" in refusal(fake, await driver.click(lobby, "cn:join:1", BOB))
    assert "Only the host" in refusal(fake, await driver.click(lobby, "cn:start:1", BOB))
    assert "Only the host" in refusal(fake, await driver.click(lobby, add_bot_id(fake, lobby), BOB))
    assert "not a player" in refusal(fake, await driver.click(lobby, "cn:start:1", CAROL))
    await driver.command("conex join", CAROL)  # the command does the same as the button
    assert (await record_of(storage)).players == [ALICE, BOB, CAROL]
    assert "<@3>" in fake.messages[lobby]["content"]  # the lobby message was refreshed
    await driver.click(lobby, "cn:leave:1", BOB)
    record = await record_of(storage)
    assert record.players == [ALICE, CAROL] and envelope_of(record).names == ["alice", "carol"]
    assert record.status == "lobby"
    start = await driver.click(lobby, "cn:start:1", ALICE)
    record = await record_of(storage)
    assert record.status == "active" and game_of(record).players == 2
    assert fake.messages[lobby]["components"] == []  # the lobby lost its buttons
    calls = fake.calls_for(start)
    assert calls[0].payload["type"] == 7 and len(calls) == 2  # type: ignore[index]  # edit + table followup
    table = await table_msg(storage, fake)
    assert "<@1> to play" in table["content"]
    ((name, data),) = fake.files[int(table["id"])]
    assert record.version == 4  # join, join, leave, start
    assert name == "conex-1-4.png" and png_ok(data)
    assert all_custom_ids(table) == ["cn:hand:1", "cn:hints:1", "cn:draw:1:4", "cn:fair:1"]


async def test_full_table_and_host_leaving_closes_the_lobby(
    driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    lobby = lobby_id(fake, await driver.command("conex new", ALICE))
    for uid in (BOB, CAROL):
        await driver.click(lobby, "cn:join:1", uid)
    await driver.click(lobby, add_bot_id(fake, lobby), ALICE)
    record = await record_of(storage)
    assert record.players == [ALICE, BOB, CAROL, -1]
    assert [s.ai for s in envelope_of(record).seats] == [None, None, None, "medium"]
    assert refusal(fake, await driver.click(lobby, "cn:join:1", 4)).startswith("**U1** — ")
    await driver.command("conex leave", ALICE)
    assert (await record_of(storage)).status == "aborted"
    assert fake.messages[lobby]["components"] == []
    assert await storage.active_game_in_channel(CHANNEL_ID) is None


async def test_lobby_commands_refused_before_start(driver: Driver, fake: FakeDiscord, storage: Storage) -> None:
    await driver.command("conex new", ALICE)
    assert "not started" in refusal(fake, await driver.command("conex hand", ALICE))
    assert "not started" in refusal(fake, await driver.command("conex draw", ALICE))
    assert "no CONEX game" in refusal(fake, await driver.command("conex draw", ALICE, channel_id=CHANNEL_ID + 5))


# -- hand ---------------------------------------------------------------------------------------
async def test_hand_is_ephemeral_with_legal_counts(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    await start_game(driver, fake, storage, bot)
    token = await driver.command("conex hand", BOB)
    calls = fake.calls_for(token)
    assert calls[0].payload["type"] == 5 and calls[0].payload["data"]["flags"] & EPHEMERAL  # type: ignore[index]
    edit = calls[1]
    assert png_ok(edit.files[0][1])
    game = expected_game()
    for i, card in enumerate(game.hand(1)):
        assert f"{'ABCDE'[i]}: #{card.id} " in edit.payload["content"]  # type: ignore[index]
    assert "legal" in edit.payload["content"]  # type: ignore[index]
    # the My hand button does the same for whoever clicks it; strangers are refused
    table = await table_msg(storage, fake)
    click = await driver.click(int(table["id"]), "cn:hand:1", ALICE)
    assert fake.calls_for(click)[0].payload["data"]["flags"] & EPHEMERAL  # type: ignore[index]
    assert f"#{game.hand(0)[0].id}" in fake.visible_text(click)
    assert "not a player" in refusal(fake, await driver.click(int(table["id"]), "cn:hand:1", CAROL))


async def put_game(
    storage: Storage, game: Game, players: list[int], *, ai: list[int] | None = None, board_shown: bool = False
) -> int:
    """Store a running game built with the engine (for positions that take many turns to reach), in the envelope
    main saved before version 2 (so every such test also runs the migration). ``board_shown``: as after a
    restart, a board of this version was posted before."""
    names = [{ALICE: "alice", BOB: "bob", CAROL: "carol"}.get(uid, f"AI {-uid}") for uid in players]
    state = {
        "conex": game.to_dict(),
        "table": game.table_size,
        "goal": game.goal,
        "host": players[0],
        "names": names,
        "ai": ai or [],
        "locale": None,
    }
    gid = await storage.create_game("conex", GUILD_ID, CHANNEL_ID, state, players, status="active")
    if board_shown:
        await storage.set_message(gid, "board", 990 + gid)
        await storage.set_message(gid, "board.version", 0)
    return gid


async def forfeit(driver: Driver, fake: FakeDiscord, uid: int, game_id: int = 1) -> str:
    """``/conex leave`` in a running game asks privately; the confirm button forfeits. Returns the click's token."""
    token = await driver.command("conex leave", uid)
    payload = initial(fake, token)
    assert payload["data"]["flags"] & EPHEMERAL and "rank last" in payload["data"]["content"]
    assert all_custom_ids(payload["data"]) == [f"cn:forfeit:{game_id}"]
    return await driver.click(fake.originals[token], f"cn:forfeit:{game_id}", uid)


def first_placements(game: Game, seat: int) -> list[Any]:
    out = []
    for cid in game.hands[seat]:
        out += game.find_placements(seat, cid, limit=1)
    return out


# -- place --------------------------------------------------------------------------------------
async def test_place_exact_pose_by_hand_letter(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    await start_game(driver, fake, storage, bot)
    game = expected_game()
    card = game.hand(0)[1]
    place = game.find_placements(0, card.id, limit=1)[0]
    points = game.points_for(place)
    token = await driver.command(
        "conex place", ALICE, card="B", corner=place.corner, x=place.x, y=place.y, rotation=place.rotation
    )
    record = await record_of(storage)
    stored = game_of(record)
    assert stored.scores == [points, 0] and card.id not in stored.hands[0]
    (tc,) = stored.table
    assert tc.card.id == card.id and tc.pose[2] == place.rotation
    calls = fake.calls_for(token)
    assert calls[0].payload["type"] == 4 and not payload_data(calls[0]).get("flags", 0) & EPHEMERAL  # type: ignore[index]
    text = fake.visible_text(token)
    assert f"placed card #{card.id} (corner {place.corner})" in text and f"+{points}" in text
    assert "<@2> to play" in text
    assert png_ok(board_call(fake, token).files[0][1])
    actions = await storage.actions(record.id)
    assert actions[-1].action == str(place) and actions[-1].player == ALICE
    # rotation omitted: the engine picks the best legal rotation at the point
    game.play(place)
    nxt = first_placements(game, 1)[0]
    await driver.command("conex place", BOB, card=str(nxt.card), corner=nxt.corner, x=nxt.x, y=nxt.y)
    assert len(game_of(await record_of(storage)).table) == 2


async def test_place_auto_fit_on_target_and_anywhere(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    await start_game(driver, fake, storage, bot)
    game = expected_game()
    card = game.hand(0)[0]
    best = game.auto_fit(0, card.id, 1, "board") if game.find_placements(0, card.id, 1, "board", 1) else None
    corner = 1 if best is not None else 2
    best = best or game.auto_fit(0, card.id, corner, "board")
    await driver.command("conex place", ALICE, card=f"#{card.id}", corner=corner, target="board")
    stored = game_of(await record_of(storage))
    assert stored.history[-1] == (0, str(best))
    game.play(best)
    # Bob, no target: the best pose of that corner anywhere
    bcard = game.hand(1)[0]
    want = game.find_placements(1, bcard.id, None, None, limit=20)
    corner = want[0].corner
    expect = game.find_placements(1, bcard.id, corner, None, limit=1)[0]
    await driver.command("conex place", BOB, card="A", corner=corner)
    assert game_of(await record_of(storage)).history[-1] == (1, str(expect))


async def test_place_refusals_change_nothing(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    await start_game(driver, fake, storage, bot)
    before = await record_of(storage)
    game = expected_game()
    mine = game.hand(0)[0].id
    bobs = game.hand(1)[0].id
    cases: list[tuple[int, dict[str, Any], str]] = [
        (BOB, {"card": "A", "corner": 1, "target": "board"}, "Not your turn"),
        (CAROL, {"card": "A", "corner": 1}, "not a player"),
        (ALICE, {"card": "zebra", "corner": 1}, "is not a card"),
        (ALICE, {"card": "G", "corner": 1}, "No card of your hand has the letter G"),
        (ALICE, {"card": str(bobs), "corner": 1, "x": 0.0, "y": 0.0}, "**P5** — "),
        (ALICE, {"card": "A", "corner": 1, "x": float("nan"), "y": 1.0}, "finite number"),
        (ALICE, {"card": "A", "corner": 1, "x": 2.0, "y": float("inf")}, "finite number"),
        (ALICE, {"card": "A", "corner": 1, "x": 1e9, "y": 2.0}, "off every table"),
        (ALICE, {"card": "A", "corner": 1, "x": 2.0}, "Give both x and y"),
        (ALICE, {"card": "A", "corner": 1, "target": "12 and more"}, "is not a target"),
        (ALICE, {"card": "A", "corner": 1, "target": "31"}, "not on the table"),  # not on the table
        (ALICE, {"card": "A", "corner": 1, "x": 20.0, "y": 20.0, "rotation": 0.0}, "**P1** — "),
        # off the table too, but its corner lies on the bare table: P1 fails first in the ruling's order (issue 22)
        (ALICE, {"card": "A", "corner": 1, "x": 49.0, "y": 34.0, "rotation": 0.0}, "**P1** — "),
        (ALICE, {"card": "A", "corner": 1, "x": 0.0, "y": 0.0, "double": True}, "**V3** — "),
    ]
    for uid, options, expected in cases:
        text = refusal(fake, await driver.command("conex place", uid, **options))
        assert text.startswith(expected) or expected in text, (options, text)
        assert not re.search(r"\*\*[A-Za-z]{3,}\*\*", text), f"an internal name reached the player: {text}"
    # a card on the table can't be placed again; and a pose landing on another target than the one named
    assert mine in game.hands[0]
    after = await record_of(storage)
    assert after.version == before.version and after.state == before.state


async def test_exact_pose_on_a_different_target_is_refused_p1(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    await start_game(driver, fake, storage, bot)
    game = expected_game()
    place = first_placements(game, 0)[0]
    game.play(place)
    nxt = first_placements(game, 1)[0]
    await driver.command(
        "conex place", ALICE, card=str(place.card), corner=place.corner, x=place.x, y=place.y, rotation=place.rotation
    )
    probe = Game.from_dict(game.to_dict())
    landed_on = probe.apply(nxt).events[0].target  # type: ignore[attr-defined]
    wrong = "board" if landed_on != "board" else str(place.card)
    text = refusal(
        fake,
        await driver.command(
            "conex place",
            BOB,
            card=str(nxt.card),
            corner=nxt.corner,
            x=nxt.x,
            y=nxt.y,
            rotation=nxt.rotation,
            target=wrong,
        ),
    )
    assert text.startswith("**P1** — ")
    assert len(game_of(await record_of(storage)).table) == 1


# -- draw / pass ---------------------------------------------------------------------------------
async def test_draw_button_and_command_then_stale_click(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    await start_game(driver, fake, storage, bot)
    table = await table_msg(storage, fake)
    v = (await record_of(storage)).version
    snapshot = dict(table)
    token = await driver.click(int(table["id"]), f"cn:draw:1:{v}", ALICE)
    assert "alice drew 2 cards" in fake.visible_text(token)
    stored = game_of(await record_of(storage))
    assert len(stored.hands[0]) == 7 and stored.current_player == 1
    assert fake.messages[int(table["id"])]["components"] == []  # the old table lost its buttons
    # a second click on the old table is refused as stale, nothing changes
    assert "out of date" in refusal(fake, await driver.click(int(table["id"]), f"cn:draw:1:{v}", BOB, message=snapshot))
    assert refusal(fake, await driver.command("conex draw", ALICE)).startswith("Not your turn")
    assert "**A3** — " in refusal(fake, await driver.command("conex pass", BOB))
    await driver.command("conex draw", BOB)
    assert game_of(await record_of(storage)).current_player == 0


async def test_pass_with_empty_pile_and_draw_refused_a2(driver: Driver, fake: FakeDiscord, storage: Storage) -> None:
    game = expected_game()
    game.hands[0] += game.pile[:20]
    game.hands[1] += game.pile[20:]
    game.pile = []
    gid = await put_game(storage, game, [ALICE, BOB])
    assert "**A2** — " in refusal(fake, await driver.command("conex draw", ALICE))
    await driver.command("conex board", ALICE)
    table = await table_msg(storage, fake, gid)
    v = (await record_of(storage, gid)).version
    assert f"cn:pass:{gid}:{v}" in all_custom_ids(table)
    token = await driver.click(int(table["id"]), f"cn:pass:{gid}:{v}", ALICE)
    assert "alice passed" in fake.visible_text(token)
    await driver.command("conex pass", BOB)  # E2: everyone passed in one go-round
    record = await record_of(storage, gid)
    assert record.status == "finished" and record.result is not None
    assert [list(g) for g in record.result.ranking] == [[ALICE, BOB]] and record.result.rated


# -- hints ----------------------------------------------------------------------------------------
async def test_hints_preview_buttons_play_and_stale_hint_refused(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    await start_game(driver, fake, storage, bot)
    version = (await record_of(storage)).version
    plan = await driver.command("conex hints", BOB)  # off-turn: the same preview to plan ahead, read only
    calls = fake.calls_for(plan)
    assert calls[0].payload["data"]["flags"] & EPHEMERAL  # type: ignore[index]
    assert calls[1].payload["content"].startswith("Not your turn yet")  # type: ignore[index]
    assert not calls[1].payload.get("components") and png_ok(calls[1].files[0][1])  # type: ignore[union-attr]
    assert (await record_of(storage)).version == version
    token = await driver.command("conex hints", ALICE)
    calls = fake.calls_for(token)
    assert calls[0].payload["data"]["flags"] & EPHEMERAL  # type: ignore[index]
    edit = calls[1].payload
    ids = [c["custom_id"] for row in edit["components"] for c in row["components"]]  # type: ignore[index]
    assert 1 <= len(ids) <= 9 and all(i.startswith("cn:hp:1:") and len(i) <= 100 for i in ids)
    assert png_ok(calls[1].files[0][1])
    lines = edit["content"].splitlines()[1:]  # type: ignore[index]
    line = re.compile(r"\d\. card \*\*[A-E]\*\* \(#\d+\), corner \d on (the board|#\d+) ")
    assert len(lines) == len(ids) and all(line.match(ln) for ln in lines), lines
    assert "-0.0" not in edit["content"]  # type: ignore[operator]
    labels = [c["label"] for row in edit["components"] for c in row["components"]]  # type: ignore[index]
    points = [int(label.split("+")[1]) for label in labels]
    assert points == sorted(points, reverse=True)
    hints_msg = fake.originals[token]
    click = await driver.click(hints_msg, ids[0], ALICE)
    record = await record_of(storage)
    game = game_of(record)
    assert len(game.table) == 1 and game.scores[0] == points[0] and game.current_player == 1
    _, _, _, _, card, corner, x, y, rot = ids[0].split(":")
    assert game.history[-1] == (0, f"place {card} c{corner} at {x},{y} r{rot.removesuffix('.0')}")
    assert "placed card" in fake.visible_text(click)
    # the second hint of that (now old) preview is stale
    assert "out of date" in refusal(fake, await driver.click(hints_msg, ids[1], ALICE))
    assert len(game_of(await record_of(storage)).table) == 1


# -- lightning and discards ---------------------------------------------------------------------------
def lightning_position() -> Game:
    """3 seats, three cards on the table, Alice (seat 0) to play holding the lightning star since turn 1."""
    game = Game.new(players=3, seed=SEED, table="medium", goal=40)
    for seat in range(3):
        game.play(first_placements(game, seat)[0])
    game.star_holder["lightning"] = 0
    game.star_since["lightning"] = 1
    return game


async def test_lightning_then_discards_by_button_select_and_command(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    game = lightning_position()
    gid = await put_game(storage, game, [ALICE, BOB, CAROL])
    free = [tc.card.id for tc in game.table if game.board.is_free(tc.card.id)]
    covered = [tc.card.id for tc in game.table if tc.card.id not in free]
    assert "**X3** — " in refusal(fake, await driver.command("conex lightning", BOB, card=free[0]))
    if covered:
        assert "**X3** — " in refusal(fake, await driver.command("conex lightning", ALICE, card=covered[0]))
    assert "**X3** — " in refusal(fake, await driver.command("conex discard", BOB, card="A"))
    token = await driver.command("conex lightning", ALICE, card=free[-1])
    text = fake.visible_text(token)
    assert f"card #{free[-1]} goes to the bottom" in text and "discards from: <@2>, <@3> — one card each" in text
    assert text.count("<@2>") == 1, text  # who owes a discard is said once (the status line), not twice
    stored = game_of(await record_of(storage, gid))
    assert stored.pending_discards == {1, 2} and stored.pile[-1] == free[-1] and stored.current_player == 0
    # the new table shows the removed card and highlights no older placement
    record = await record_of(storage, gid)
    (picture,) = table_pictures(bot.games.snapshot(record))
    assert picture.kwargs["highlight"] is None and picture.kwargs["removed"][0] == free[-1]
    pose = next(tc.pose for tc in game.table if tc.card.id == free[-1])
    assert picture.kwargs["removed"][1] == pytest.approx(pose)
    table = await table_msg(storage, fake, gid)
    assert f"cn:disc:{gid}" in all_custom_ids(table)
    # Bob: the Discard button opens his private select; choosing puts the card at the bottom of the pile
    prompt = await driver.click(int(table["id"]), f"cn:disc:{gid}", BOB)
    payload = initial(fake, prompt)
    assert payload["data"]["flags"] & EPHEMERAL
    select = component(payload["data"], f"cn:dsel:{gid}")
    bob_hand = game.hands[1]
    assert [int(o["value"]) for o in select["options"]] == bob_hand
    assert "**X3** — " in refusal(fake, await driver.click(int(table["id"]), f"cn:disc:{gid}", ALICE))
    done = await driver.click(fake.originals[prompt], f"cn:dsel:{gid}", BOB, values=[str(bob_hand[2])])
    board = fake.calls_for(done)[-1]  # the new board: its text and buttons, no second identical table image
    assert "bob discarded a card" in str(board.payload) and board.files == [], board
    assert f"cn:disc:{gid}" in str(board.payload)  # carol still owes hers
    stored = game_of(await record_of(storage, gid))
    assert stored.pile[-1] == bob_hand[2] and bob_hand[2] not in stored.hands[1] and stored.pending_discards == {2}
    # Carol's hand shows the select too; she discards with the command by hand letter
    hand = await driver.command("conex hand", CAROL)
    assert f"cn:dsel:{gid}" in str(fake.calls_for(hand)[1].payload)
    await driver.command("conex discard", CAROL, card="B")
    stored = game_of(await record_of(storage, gid))
    assert stored.pile[-1] == game.hands[2][1] and not stored.pending_discards
    assert "**X3** — " in refusal(fake, await driver.command("conex discard", CAROL, card="A"))
    assert "removed" in envelope_of(await record_of(storage, gid)).extra  # discards keep it shown
    await driver.command("conex draw", ALICE)
    record = await record_of(storage, gid)
    assert "removed" not in envelope_of(record).extra
    assert "highlight" not in table_pictures(bot.games.snapshot(record))[0].kwargs


async def test_pending_discard_blocks_the_main_action_x3(driver: Driver, fake: FakeDiscord, storage: Storage) -> None:
    game = lightning_position()
    removed = game.table[-1].card.id
    game.play(Lightning(0, removed))
    assert removed not in game.board
    game.play(first_placements(game, 0)[0])  # Alice ends her turn; Bob (pending discard) is to play
    gid = await put_game(storage, game, [ALICE, BOB, CAROL], board_shown=True)
    assert "**X3** — " in refusal(fake, await driver.command("conex draw", BOB))
    assert "**X3** — " in refusal(fake, await driver.command("conex hints", BOB))
    assert (await record_of(storage, gid)).version == 0


# -- AI seats -------------------------------------------------------------------------------------------
@pytest.mark.usefixtures("expired_tokens")
async def test_ai_seats_play_after_the_human_and_the_game_is_unrated(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    gid = await start_game(driver, fake, storage, bot, seats=(ALICE,), bots=2)
    record = await record_of(storage, gid)
    assert record.players == [ALICE, -1, -2] and envelope_of(record).names == [
        "alice",
        "AI 1 (medium)",
        "AI 2 (medium)",
    ]
    v0 = record.version
    await driver.command("conex draw", ALICE)
    record = await record_of(storage, gid)
    assert record.version == v0 + 3  # Alice's draw, then both AI seats
    actions = await storage.actions(gid)
    assert [a.player for a in actions[-3:]] == [ALICE, -1, -2]
    game = game_of(record)
    assert game.current_player == 0
    posts = [c for c in fake.calls if c.method == "POST" and c.path == f"/channels/{CHANNEL_ID}/messages"]
    assert len(posts) == 2 and all(png_ok(p.files[0][1]) for p in posts)
    assert "AI 1" in posts[0].payload["content"] and "<@1> to play" in posts[1].payload["content"]  # type: ignore[index]
    assert "cn:hand" in str(posts[1].payload)
    await forfeit(driver, fake, ALICE, gid)  # no human left: the game ends at once, unrated
    record = await record_of(storage, gid)
    assert record.status == "finished" and record.result is not None and not record.result.rated
    assert list(record.result.ranking[-1]) == [ALICE]
    assert await storage.rating_of(GUILD_ID, "conex", ALICE) is None
    last = await table_msg(storage, fake, gid)
    assert "Not rated" in last["content"] and len(fake.files[int(last["id"])]) == 2
    # "show the table again" just after the end shows the final table (privately as text, or posted again)
    token = await driver.command("conex board", BOB, text=True)
    assert initial(fake, token)["data"]["flags"] & EPHEMERAL and "```" in fake.visible_text(token)
    await driver.command("conex board", ALICE)
    again = await table_msg(storage, fake, gid)
    assert again["id"] != last["id"] and png_ok(fake.files[int(again["id"])][0][1])
    assert (await record_of(storage, gid)).status == "finished"


async def test_restart_resumes_a_pending_ai_turn(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    game = Game.new(players=2, seed=SEED, table="medium", goal=40)
    gid = await put_game(storage, game, [-1, ALICE], ai=[-1], board_shown=True)  # the AI seat starts: pending
    assert await bot.games.ai.resume_all() == 1
    await driver.settle()
    record = await record_of(storage, gid)
    assert record.version == 1 and game_of(record).current_player == 1
    assert [a.player for a in await storage.actions(gid)] == [-1]
    posts = [c for c in fake.calls if c.method == "POST" and c.path == f"/channels/{CHANNEL_ID}/messages"]
    assert len(posts) == 1 and "<@1> to play" in posts[0].payload["content"]  # type: ignore[index]
    assert await bot.games.ai.resume_all() == 0


async def test_every_ready_resumes_ai_turns_without_a_second_search(
    bot: TableBot, fake: FakeDiscord, storage: Storage
) -> None:
    game = Game.new(players=2, seed=SEED, table="medium", goal=40)
    gid = await put_game(storage, game, [-1, ALICE], ai=[-1], board_shown=True)
    await bot.games.on_ready()  # what a (re)start's READY runs
    await bot.games.on_ready()  # a reconnect's READY while the AI still thinks: no second search
    await bot.games.ai.idle()
    assert (await record_of(storage, gid)).version == 1
    assert bot.games.ai.searches == 1 and bot.games.ai.duplicates == 0
    first = await record_of(storage, gid)
    back = dict(first.state, engine=game.to_dict())  # the AI to play again (written by hand)
    await storage.apply_action(gid, 1, back, player=None, action="test: rewind")
    await storage.set_message(gid, "board.version", 2)
    await bot.games.on_ready()  # a later reconnect resumes the AI turn left pending
    await bot.games.ai.idle()
    assert (await record_of(storage, gid)).version == 3


async def test_ai_discards_after_a_lightning(driver: Driver, fake: FakeDiscord, storage: Storage) -> None:
    game = lightning_position()
    gid = await put_game(storage, game, [ALICE, -1, BOB], ai=[-1])
    free = [tc.card.id for tc in game.table if game.board.is_free(tc.card.id)]
    await driver.command("conex lightning", ALICE, card=free[-1])
    stored = game_of(await record_of(storage, gid))
    assert stored.pending_discards == {2} and len(stored.hands[1]) == len(game.hands[1]) - 1
    acts = await storage.actions(gid)
    assert [(a.player, a.action.split()[0]) for a in acts] == [(ALICE, "lightning"), (-1, "discard")]


# -- forfeit and the end ------------------------------------------------------------------------------
async def test_forfeit_skips_the_seat_and_the_last_player_wins_rated(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    gid = await start_game(driver, fake, storage, bot, seats=(ALICE, BOB, CAROL))
    game = expected_game(3)
    place = first_placements(game, 0)[0]
    await driver.command(
        "conex place", ALICE, card=str(place.card), corner=place.corner, x=place.x, y=place.y, rotation=place.rotation
    )
    for who in (BOB, CAROL, ALICE):  # every player moves once: the game will be rated
        await driver.command("conex draw", who)
    pile_before = len(game_of(await record_of(storage, gid)).pile)
    token = await forfeit(driver, fake, BOB, gid)  # Bob is to play: his turn is skipped at once
    assert "bob left the game" in fake.visible_text(token)
    record = await record_of(storage, gid)
    stored = game_of(record)
    assert stored.forfeited == {1} and stored.hands[1] == [] and stored.scores[1] == 0
    assert len(stored.pile) == pile_before + 7 and stored.current_player == 2  # his 5 cards and the 2 he drew
    assert "no longer plays" in refusal(fake, await driver.command("conex leave", BOB))
    assert "no longer plays" in refusal(fake, await driver.command("conex draw", BOB))
    await driver.command("conex draw", CAROL)  # Alice next (Bob skipped on the way round)
    assert game_of(await record_of(storage, gid)).current_player == 0
    await driver.command("conex draw", ALICE)
    assert game_of(await record_of(storage, gid)).current_player == 2  # seat 1 skipped
    token = await forfeit(driver, fake, CAROL, gid)  # only Alice is left: she wins
    record = await record_of(storage, gid)
    assert record.status == "finished" and record.result is not None and record.result.rated
    assert [list(g) for g in record.result.ranking] == [[ALICE], [BOB, CAROL]]
    edit = board_call(fake, token)
    assert [name for name, _ in edit.files] == [f"conex-{gid}-{record.version}.png", f"conex-{gid}-result.png"]
    assert "CONEX over" in fake.visible_text(token) and "alice" in fake.visible_text(token)
    assert re.search(r"Rating changes: alice 1500\? → 1\d{3}\? \(\+\d+\)", fake.visible_text(token))
    assert (await storage.rating_of(GUILD_ID, "conex", ALICE)).wins == 1  # type: ignore[union-attr]
    assert (await storage.rating_of(GUILD_ID, "conex", BOB)).losses == 1  # type: ignore[union-attr]
    # a command just after the game ended is told it is over, not that there is no game
    assert "This game is over" in refusal(fake, await driver.command("conex draw", ALICE))
    # CONEX results are places named as places (a shared 2nd is no loss); one rated game: provisional "?"
    stats = fake.visible_text(await driver.command("stats", BOB))  # /stats defers, then answers
    assert re.search(r"\*\*CONEX\*\*: rank [23], rating 1\d{3}\?, rated games: 1 \(places: 2nd ×1\)", stats), stats
    board = await driver.command("leaderboard", BOB, game="conex")
    text = fake.calls_for(board)[-1].payload["content"]  # type: ignore[index]
    assert re.search(r"1\. alice — rating 1\d{3}\? \(1st 1 / 2nd 0 / 3rd\+ 0\)", text), text
    assert "(1st 0 / 2nd 1 / 3rd+ 0)" in text


async def test_goal_reached_ends_after_the_round_with_result_and_ratings(
    driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    game = Game.new(players=2, seed=SEED, table="medium", goal=20)
    game.scores = [19, 25]
    gid = await put_game(storage, game, [ALICE, BOB])
    place = first_placements(game, 0)[0]
    token = await driver.command(
        "conex place", ALICE, card=str(place.card), corner=place.corner, x=place.x, y=place.y, rotation=place.rotation
    )
    assert "reached the goal" in fake.visible_text(token)
    assert (await record_of(storage, gid)).status == "active"  # E1: the round is completed first
    token = await driver.command("conex draw", BOB)
    record = await record_of(storage, gid)
    stored = game_of(record)
    assert record.status == "finished" and stored.is_over
    best = max(stored.scores)
    winners = [uid for uid, s in zip([ALICE, BOB], stored.scores, strict=True) if s == best]
    assert list(record.result.ranking[0]) == winners  # type: ignore[union-attr]
    files = board_call(fake, token).files
    assert len(files) == 2 and all(png_ok(data) for _, data in files)
    final = payload_data(board_call(fake, token))
    assert all_custom_ids(final) == [f"rm:go:{gid}", f"rc:rp:{gid}", f"rc:dl:{gid}", f"cn:fair:{gid}"]  # type: ignore[arg-type]  # no play buttons
    assert "The deal can be checked now" in final["content"]  # type: ignore[operator]  # the proof: behind the button
    assert "Deal seed" not in final["content"] and "python -m" not in final["content"]  # type: ignore[operator]
    changes = await storage.rating_changes(gid)
    assert {c.user_id for c in changes} == {ALICE, BOB}


# -- board, autocomplete, rules -----------------------------------------------------------------------
async def test_board_text_zoom_and_autocomplete(driver: Driver, fake: FakeDiscord, storage: Storage) -> None:
    game = lightning_position()
    gid = await put_game(storage, game, [ALICE, BOB, CAROL])
    token = await driver.command("conex board", BOB, text=True)
    payload = initial(fake, token)
    assert payload["data"]["flags"] & EPHEMERAL and f"#{game.table[0].card.id}" in payload["data"]["content"]
    token = await driver.command("conex board", BOB, zoom="last")
    assert fake.calls_for(token)[0].payload["data"]["flags"] & EPHEMERAL  # type: ignore[index]
    assert png_ok(fake.calls_for(token)[1].files[0][1])
    assert "#51 is not on the table" in refusal(fake, await driver.command("conex board", BOB, zoom="51"))
    token = await driver.command("conex board", CAROL)
    assert int((await table_msg(storage, fake, gid))["id"]) == fake.originals[token]
    # autocomplete: the caller's hand (letter, number, colours), targets (board + table cards), free cards
    cards = await driver.autocomplete("conex place", ALICE, "card", card="", corner=1)
    assert [c["value"] for c in cards] == [str(cid) for cid in game.hands[0]]
    assert cards[0]["name"].startswith(f"A · #{game.hands[0][0]} ")
    everything = await driver.autocomplete("conex place", ALICE, "target", target="")  # no card/corner yet
    assert everything[0]["value"] == "board"
    assert {t["value"] for t in everything[1:]} == {str(tc.card.id) for tc in game.table}
    for corner in (1, 2):  # with the card and corner: only where that corner has a legal pose
        targets = await driver.autocomplete("conex place", ALICE, "target", card="A", corner=corner, target="")
        fits = {str(t) for t in game.targets_for(0, game.hands[0][0], corner)}
        assert {t["value"] for t in targets} == fits
    token = await driver.command("conex board", BOB, zoom="table")
    assert png_ok(fake.calls_for(token)[1].files[0][1]) and "Zoom on the whole table" in fake.visible_text(token)
    free = await driver.autocomplete("conex lightning", ALICE, "card", card=0)
    assert {c["value"] for c in free} == {tc.card.id for tc in game.table if game.board.is_free(tc.card.id)}
    assert await driver.autocomplete("conex place", 4, "card", card="", corner=1) == []  # not a player
    mine = await driver.autocomplete("conex discard", BOB, "card", card="")
    assert [c["value"] for c in mine] == [str(cid) for cid in game.hands[1]]
    token = await driver.command("conex rules", 4)
    rules = initial(fake, token)["data"]["content"]
    assert initial(fake, token)["data"]["flags"] & EPHEMERAL and "of that colour" in rules and "(P1)" not in rules


# -- the 3 s rule and one response -----------------------------------------------------------------------
async def test_slow_action_is_deferred_then_answered_once(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncio

    await start_game(driver, fake, storage, bot)
    real_act = bot.games.act

    async def slow_act(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.2)
        return await real_act(*args, **kwargs)

    monkeypatch.setattr(bot.first_response, "budget_s", 0.05)  # the one first-response mechanism
    monkeypatch.setattr(bot.games, "act", slow_act)
    token = await driver.command("conex draw", ALICE)
    calls = fake.calls_for(token)
    assert calls[0].payload["type"] == 5  # type: ignore[index]  # deferred while the service worked
    assert calls[0].at < calls[-1].at and "alice drew" in fake.visible_text(token)
    # a refusal after such a defer is still a single followup, never a second initial response
    token = await driver.command("conex draw", ALICE)
    calls = fake.calls_for(token)
    assert calls[0].payload["type"] == 5  # type: ignore[index]
    assert [c.method for c in calls[1:]] == ["DELETE", "POST"]  # the thinking message goes, then the refusal
    assert calls[2].flags & EPHEMERAL and fake.visible_text(token).startswith("Not your turn")


@pytest.mark.usefixtures("expired_tokens")
async def test_expired_interaction_still_posts_the_committed_table(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    await start_game(driver, fake, storage, bot)
    before = len([c for c in fake.calls if c.method == "POST" and c.path == f"/channels/{CHANNEL_ID}/messages"])
    fake.fail_webhooks.add("/callback")  # Discord answers 10062 Unknown interaction
    payload, _token = driver._base(2, ALICE, CHANNEL_ID)
    payload["data"], _ = driver._command_data("conex draw", {}, None)
    bot._connection.parse_interaction_create(payload)
    await driver.settle()
    fake.fail_webhooks.clear()
    assert game_of(await record_of(storage)).current_player == 1
    posts = [c for c in fake.calls if c.method == "POST" and c.path == f"/channels/{CHANNEL_ID}/messages"]
    assert len(posts) == before + 1 and png_ok(posts[-1].files[0][1]) and "alice drew" in posts[-1].payload["content"]  # type: ignore[index]


async def test_two_simultaneous_draw_clicks_apply_once(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    await start_game(driver, fake, storage, bot)
    table = await table_msg(storage, fake)
    v = (await record_of(storage)).version
    tokens = []
    for _ in range(2):
        payload, token = driver._base(3, ALICE, CHANNEL_ID)
        payload["data"] = {"custom_id": f"cn:draw:1:{v}", "component_type": 2}
        payload["message"] = table
        fake.component_message[token] = int(table["id"])
        bot._connection.parse_interaction_create(payload)
        tokens.append(token)
    await driver.settle()
    for token in tokens:
        driver.assert_one_response(token)
    record = await record_of(storage)
    assert record.version == v + 1 and len(game_of(record).hands[0]) == 7
    texts = [fake.visible_text(tok) for tok in tokens]
    assert sum("out of date" in x or "came first" in x for x in texts) == 1


async def test_p2_and_p3_refusals_reach_the_player(driver: Driver, fake: FakeDiscord, storage: Storage) -> None:
    """Exact poses the engine refuses with P2 (touches something besides its target) and P3 (touches a visible
    CONEX corner), found by scanning whole-cm points: the bot relays the rule and changes nothing."""
    from bot.games.conex.ai import fallback_action
    from engine.errors import RuleError

    game = Game.new(players=2, seed=SEED, table="medium", goal=40)
    for _ in range(6):
        game.play(fallback_action(game, game.current_player))
    seat = game.current_player
    found: dict[str, Place] = {}
    for cid in game.hands[seat]:
        for corner in game.deck[cid].corners:
            for x in range(-20, 21):
                for y in range(-20, 21):
                    for rot in (0.0, 90.0):
                        place = Place(seat, cid, corner.index, float(x), float(y), rot)
                        try:
                            game.check(place)
                        except RuleError as err:
                            found.setdefault(err.rule, place)
            if {"P2", "P3"} <= set(found):
                break
        if {"P2", "P3"} <= set(found):
            break
    assert {"P2", "P3"} <= set(found)
    players = [ALICE, BOB] if seat == 0 else [BOB, ALICE]
    gid = await put_game(storage, game, players)
    for rule in ("P2", "P3"):
        p = found[rule]
        token = await driver.command(
            "conex place", players[seat], card=str(p.card), corner=p.corner, x=p.x, y=p.y, rotation=p.rotation
        )
        assert refusal(fake, token).startswith(f"**{rule}** — ")
    assert (await record_of(storage, gid)).version == 0


async def test_failed_table_post_is_recovered_with_the_last_action(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    game = Game.new(players=2, seed=SEED, table="medium", goal=40)
    gid = await put_game(storage, game, [-1, ALICE], ai=[-1], board_shown=True)
    fake.fail_paths.add(f"/channels/{CHANNEL_ID}/messages")  # the AI's table cannot be posted
    assert await bot.games.ai.resume_all() == 1
    await bot.games.ai.idle()  # the post failed: logged, the others would go on
    record = await record_of(storage, gid)
    assert record.version == 1 and board_stale(record)  # committed, but no table shows it
    fake.fail_paths.clear()
    assert await bot.games.publisher.recovery.recover_all() == 1
    record = await record_of(storage, gid)
    assert not board_stale(record) and record.messages["board.version"] == 1
    table = fake.messages[record.messages["board"]]
    last = (await storage.actions(gid))[-1].action
    assert f"AI 1: `{last}`" in table["content"] and "<@1> to play" in table["content"]
    assert all_custom_ids(table) == [f"cn:hand:{gid}", f"cn:hints:{gid}", f"cn:draw:{gid}:1", f"cn:fair:{gid}"]
    assert await bot.games.publisher.recovery.recover_all() == 0


async def test_a_double_click_on_add_bot_adds_one_seat(driver: Driver, fake: FakeDiscord, storage: Storage) -> None:
    """Two clicks on the same Add bot button (a double click: the second comes from the lobby as first drawn) add
    one AI seat; the second is refused in words and changes nothing. The refreshed lobby's button adds the next."""
    lobby = lobby_id(fake, await driver.command("conex new", ALICE))
    seen = add_bot_id(fake, lobby)
    message = copy.deepcopy(fake.messages[lobby])
    await driver.click(lobby, seen, ALICE)
    again = await driver.click(lobby, seen, ALICE, message=message)  # the lobby as the second click saw it
    assert "lobby changed" in refusal(fake, again)
    assert (await record_of(storage)).players == [ALICE, -1]
    assert add_bot_id(fake, lobby) != seen
    await driver.click(lobby, add_bot_id(fake, lobby), ALICE)  # a second click on the refreshed lobby: one more
    assert (await record_of(storage)).players == [ALICE, -1, -2]
