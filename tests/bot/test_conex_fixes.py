"""Handler-level regression tests of the CONEX bot fixes (issue 6 follow-up), with the real bot, storage, engine
and render of ``test_conex_cog.py`` and Discord recorded at the HTTP seams.

1. a table never posted (AI move saved, process killed) is re-posted on restart; 2. ``/conex place`` is not
refused as out of date when another seat's discard commits meanwhile (buttons still refuse stale clicks:
``test_conex_cog.test_draw_button_and_command_then_stale_click``);
3. hands over 26 cards (letters AA, AB..., paginated discard selects, hand text split under 2000 characters,
"9+ legal"); 4. X3's lightning window survives a skipped (forfeited) seat; 5. NotYourTurn names the player,
``/conex new`` opens a thread in a busy channel, ``/help`` lists the CONEX commands; AI recomputes after a race.
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

from bot.app import TableBot
from bot.errors import BotError
from bot.games.conex.placing import parse_card_ref
from bot.services.publish import BOARD_VERSION_KEY
from bot.storage import Storage
from bot.storage.errors import VersionConflictError
from engine.conex import Discard, Game, Lightning, Timeout
from engine.conex.handref import hand_letter
from tests.bot.conftest import APP_PERMISSIONS, Driver, all_custom_ids, component, envelope_of, game_of, make_bot
from tests.bot.fakediscord import CHANNEL_ID, EPHEMERAL, FakeDiscord
from tests.bot.test_conex_cog import (
    ALICE,
    BOB,
    CAROL,
    SEED,
    first_placements,
    forfeit,
    initial,
    lightning_position,
    put_game,
    record_of,
    refusal,
    start_game,
    table_msg,
)

CHANNEL_POSTS = f"/channels/{CHANNEL_ID}/messages"


def live_tables(fake: FakeDiscord, game_id: int) -> list[int]:
    """Ids of messages that still carry the Draw/Pass button of game ``game_id``."""
    return [
        mid
        for mid, msg in fake.messages.items()
        if any(i.startswith((f"cn:draw:{game_id}:", f"cn:pass:{game_id}:")) for i in all_custom_ids(msg))
    ]


# -- 1. board recovery -----------------------------------------------------------------------------
@pytest.mark.usefixtures("expired_tokens")
async def test_ai_table_saved_but_never_posted_is_reposted_after_a_restart(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage, tmp_path: Path
) -> None:
    gid = await put_game(storage, Game.new(players=2, seed=SEED, table="medium", goal=40), [ALICE, -1], ai=[-1])
    fake.fail_paths.add(CHANNEL_POSTS)  # the AI's table (a channel message) never reaches Discord
    await driver.command("conex draw", ALICE)
    fake.fail_paths.clear()
    record = await record_of(storage, gid)
    assert record.version == 2 and game_of(record).current_player == 0  # Alice's draw and the AI's move saved
    assert record.messages[BOARD_VERSION_KEY] == 1
    alice_table = dict(fake.messages[record.messages["board"]])  # as Alice's client still shows it
    await bot.close()
    second = await make_bot(fake, storage, tmp_path)
    try:
        assert await second.games.publisher.recovery.recover_all() == 1  # what READY runs
        record = await record_of(storage, gid)
        assert record.messages[BOARD_VERSION_KEY] == 2
        table = fake.messages[record.messages["board"]]
        last = (await storage.actions(gid))[-1].action
        assert f"AI 1: `{last}`" in table["content"] and "<@1> to play" in table["content"]
        assert live_tables(fake, gid) == [record.messages["board"]]  # Alice's old table was stripped
        # the old Draw button is refused as out of date, and there IS a newer table to use
        token = await Driver(second, fake).click(int(alice_table["id"]), f"cn:draw:{gid}:1", ALICE, message=alice_table)
        assert "out of date" in refusal(fake, token)
        assert await second.games.publisher.recovery.recover_all() == 0
    finally:
        await second.close()


async def test_ai_recomputes_when_another_seat_commits_first(
    bot: TableBot, fake: FakeDiscord, storage: Storage
) -> None:
    gid = await put_game(
        storage, Game.new(players=2, seed=SEED, table="medium", goal=40), [-1, ALICE], ai=[-1], board_shown=True
    )
    original = bot.games.act
    lost: list[Any] = []

    async def racing_act(game_id: int, user_id: int, action: Any, **kw: Any) -> Any:
        if user_id == -1 and not lost:  # the first AI commit loses a race (e.g. to a human's discard)
            lost.append(action)
            raise BotError("err.stale")
        return await original(game_id, user_id, action, **kw)

    bot.games.act = racing_act  # type: ignore[method-assign]
    try:
        assert await bot.games.ai.resume_all() == 1
        await bot.games.ai.idle()
    finally:
        bot.games.act = original  # type: ignore[method-assign]
    record = await record_of(storage, gid)
    assert lost and record.version == 1 and game_of(record).current_player == 1  # the AI played after all
    assert record.messages[BOARD_VERSION_KEY] == 1


# -- 2. /conex place vs a concurrent discard ---------------------------------------------------------
async def test_slash_place_is_not_refused_when_a_discard_commits_meanwhile(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    game = lightning_position()
    game.play(Lightning(0, game.table[-1].card.id))  # Bob and Carol owe a discard; Alice still to play
    place = first_placements(game, 0)[0]
    gid = await put_game(storage, game, [ALICE, BOB, CAROL])
    cog_module = bot.extensions["bot.games.conex.cog"]  # the module this bot loaded (an `import` may give an older one)
    original = cog_module.resolve_place
    entered, release = threading.Event(), threading.Event()

    def slow_resolve(*args: Any, **kwargs: Any) -> Any:
        entered.set()
        release.wait(10)
        return original(*args, **kwargs)

    cog_module.resolve_place = slow_resolve  # type: ignore[assignment]
    try:
        payload, token = driver._base(2, ALICE, CHANNEL_ID)
        payload["data"], _ = driver._command_data(
            "conex place",
            {"card": str(place.card), "corner": place.corner, "x": place.x, "y": place.y, "rotation": place.rotation},
            None,
        )
        bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        assert await asyncio.to_thread(entered.wait, 10)
        await bot.games.act(gid, BOB, f"discard {game.hands[1][0]}")  # Bob's discard commits at that moment
        release.set()
        await driver.settle()
    finally:
        cog_module.resolve_place = original
    driver.assert_one_response(token)
    record = await record_of(storage, gid)
    stored = game_of(record)
    assert record.version == 2 and place.card in [tc.card.id for tc in stored.table], fake.visible_text(token)
    assert stored.pending_discards == {2} and stored.current_player == 1
    assert "out of date" not in fake.visible_text(token)


# -- 3. hands over 26 cards ----------------------------------------------------------------------------
def big_hand_game(cards: int = 30) -> Game:
    game = Game.new(players=2, seed=SEED, table="medium", goal=40)
    extra = cards - len(game.hands[0])
    game.hands[0].extend(game.pile[:extra])
    del game.pile[:extra]
    return game


async def test_big_hand_letters_text_and_paginated_discard(driver: Driver, fake: FakeDiscord, storage: Storage) -> None:
    game = big_hand_game(30)
    game.pending_discards.add(0)
    hand = list(game.hands[0])
    gid = await put_game(storage, game, [ALICE, BOB], board_shown=True)  # hands only after the table (commitment)
    assert parse_card_ref(game, 0, "AA", acting=Discard) == hand[26]
    assert parse_card_ref(game, 0, "ad", acting=Discard) == hand[29]
    token = await driver.command("conex hand", ALICE)
    calls = fake.calls_for(token)
    texts = [str(c.payload.get("content", "")) for c in calls[1:] if isinstance(c.payload, dict)]
    assert all(len(x) <= 2000 for x in texts) and len(texts) >= 2, [len(x) for x in texts]
    joined = "\n".join(texts)
    for i, cid in enumerate(hand):
        assert f"\n{hand_letter(i)}: #{cid} " in joined  # every card, lettered A..Z, AA..AD, none cut off
    selects = [c for c in calls[1:] if "cn:dsel" in str(c.payload)]
    assert selects
    data: dict[str, Any] = selects[0].payload  # type: ignore[assignment]
    first, second = component(data, f"cn:dsel:{gid}"), component(data, f"cn:dsel:{gid}:1")
    assert [int(o["value"]) for o in first["options"]] == hand[:25]
    assert [int(o["value"]) for o in second["options"]] == hand[25:]
    assert second["options"][1]["label"].startswith("AA · ")
    # autocomplete labels use the same letters; discarding from the second select works
    choices = await driver.autocomplete("conex discard", ALICE, "card", card="AB")
    assert choices and choices[0]["name"].startswith("AB · ") and choices[0]["value"] == str(hand[27])
    await driver.click(fake.originals[token], f"cn:dsel:{gid}:1", ALICE, values=[str(hand[28])])
    stored = game_of(await record_of(storage, gid))
    assert stored.pile[-1] == hand[28] and not stored.pending_discards


async def test_discard_command_by_double_letter(driver: Driver, fake: FakeDiscord, storage: Storage) -> None:
    game = big_hand_game(28)
    game.pending_discards.add(0)
    hand = list(game.hands[0])
    gid = await put_game(storage, game, [ALICE, BOB])
    text = refusal(fake, await driver.command("conex discard", ALICE, card="AC"))
    assert text.startswith("No card of your hand has the letter AC")
    await driver.command("conex discard", ALICE, card="AB")
    assert game_of(await record_of(storage, gid)).pile[-1] == hand[27]


async def test_hand_shows_nine_plus_at_the_cap(driver: Driver, fake: FakeDiscord, storage: Storage) -> None:
    game = Game.new(players=2, seed=SEED, table="medium", goal=40)
    counts = game.legal_counts(0)
    assert 9 in counts.values()  # the empty board leaves many spots: the finder stops counting at 9
    await put_game(storage, game, [ALICE, BOB], board_shown=True)
    token = await driver.command("conex hand", ALICE)
    text = fake.visible_text(token)
    assert "9+ legal" in text and "9 legal" not in text


# -- 4. X3 lightning window over a skipped seat -------------------------------------------------------------
async def test_lightning_at_turn_end_survives_a_skipped_forfeited_seat(
    driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    game = lightning_position()
    gid = await put_game(storage, game, [ALICE, BOB, CAROL])
    await forfeit(driver, fake, BOB, gid)  # Bob's turns are skipped from now on
    place = first_placements(game, 0)[0]
    await driver.command(
        "conex place", ALICE, card=str(place.card), corner=place.corner, x=place.x, y=place.y, rotation=place.rotation
    )
    stored = game_of(await record_of(storage, gid))
    assert stored.current_player == 2  # Bob skipped, Carol has not acted yet: Alice's turn end is still open
    free = [tc.card.id for tc in stored.table if stored.board.is_free(tc.card.id)]
    token = await driver.command("conex lightning", ALICE, card=free[-1])
    assert "lightning star" in fake.visible_text(token)
    stored = game_of(await record_of(storage, gid))
    assert free[-1] not in stored.board and stored.pending_discards == {2}


# -- 5. messages for people ---------------------------------------------------------------------------
async def test_not_your_turn_names_the_player_not_seats(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    await start_game(driver, fake, storage, bot)
    version = (await record_of(storage)).version
    tries: list[tuple[str, dict[str, Any]]] = [("conex draw", {}), ("conex place", {"card": "A", "corner": 1})]
    for command, options in tries:
        text = refusal(fake, await driver.command(command, BOB, **options))
        assert text.startswith("Not your turn") and "alice's turn" in text and "seat" not in text, text
    assert (await record_of(storage)).version == version


async def test_a_move_just_after_ones_own_timeout_is_told_the_time_ran_out(
    driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    """Alice's turn was skipped by the clock (a ``Timeout``): her late draw is told why it is Bob's turn, not only
    that it is; once she has acted again, a move out of turn reads as before."""
    game = Game.new(players=2, seed=SEED, table="medium", goal=40)
    game.apply(Timeout(player=0))
    gid = await put_game(storage, game, [ALICE, BOB])
    version = (await record_of(storage, gid)).version
    text = refusal(fake, await driver.command("conex draw", ALICE))
    assert "your time ran out" in text and "bob's turn" in text, text
    assert (await record_of(storage, gid)).version == version
    text = refusal(fake, await driver.command("conex draw", CAROL))  # not seated: no word of anyone's clock
    assert "time ran out" not in text, text


async def test_new_in_a_busy_channel_opens_a_thread(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    await driver.command("conex new", ALICE)
    token = await driver.command("conex new", BOB)
    assert "<#" in initial(fake, token)["data"]["content"]
    threads = [c for c in fake.calls if c.path == f"/channels/{CHANNEL_ID}/threads"]
    assert len(threads) == 1 and threads[0].payload["type"] == 11  # type: ignore[index,call-overload]  # public thread
    lobby = await record_of(storage, 2)
    assert lobby.channel_id != CHANNEL_ID and lobby.status == "lobby"
    assert "cn:join:2" in all_custom_ids(fake.messages[lobby.messages["lobby"]])  # stored: /abort strips it
    # no thread permission: a clear refusal, no thread, no lobby
    no_threads = str(int(APP_PERMISSIONS) & ~(1 << 35))
    assert "may not open a thread" in refusal(
        fake, await driver.command("conex new", CAROL, app_permissions=no_threads)
    )
    assert len(await storage.list_active_games()) == 2
    # the channel is taken between the check and the create: a thread as well
    original = bot.games.channel_busy

    async def looks_free(channel_id: int) -> bool:
        return False

    bot.games.channel_busy = looks_free  # type: ignore[method-assign]
    try:
        token = await driver.command("conex new", CAROL)
    finally:
        bot.games.channel_busy = original  # type: ignore[method-assign]
    assert "<#" in initial(fake, token)["data"]["content"]
    assert len([c for c in fake.calls if c.path.endswith("/threads")]) == 2
    assert (await record_of(storage, 3)).channel_id not in (CHANNEL_ID, lobby.channel_id)


async def test_help_describes_the_conex_commands(driver: Driver, fake: FakeDiscord) -> None:
    token = await driver.command("help", ALICE)
    payload = initial(fake, token)
    text = payload["data"]["content"]
    assert payload["data"]["flags"] & EPHEMERAL
    for words in ("/conex new", "/conex place", "/conex join", "Hints", "/conex discard", "/conex lightning"):
        assert words in text, words


# -- 6. X3: an overdue discard is made at random ----------------------------------------------------------
async def lightning_used(driver: Driver, storage: Storage) -> tuple[int, Game]:
    """Alice uses the lightning: Bob and Carol owe a discard (Alice still to play)."""
    game = lightning_position()
    gid = await put_game(storage, game, [ALICE, BOB, CAROL])
    free = [tc.card.id for tc in game.table if game.board.is_free(tc.card.id)]
    await driver.command("conex lightning", ALICE, card=free[-1])
    stored = game_of(await record_of(storage, gid))
    assert stored.pending_discards == {1, 2}
    return gid, stored


async def test_overdue_discards_are_made_at_random_before_the_next_action(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid, before = await lightning_used(driver, storage)
    table = await table_msg(storage, fake, gid)
    v = (await record_of(storage, gid)).version
    await driver.command("conex draw", ALICE)  # not overdue yet: nothing is discarded for them
    assert game_of(await record_of(storage, gid)).pending_discards == {1, 2}
    monkeypatch.setattr(bot.games.kinds["conex"].rules, "discard_timeout_s", 0.0)  # every owed discard is overdue now
    # a refused action expires nothing (Alice may not draw again: it is Bob's turn)
    assert refusal(fake, await driver.command("conex draw", ALICE)).startswith("Not your turn")
    assert game_of(await record_of(storage, gid)).pending_discards == {1, 2}
    # Bob (who owes a discard) draws with the table's button: the overdue discards are made first, at random
    snapshot = await table_msg(storage, fake, gid)
    (draw,) = [i for i in all_custom_ids(snapshot) if i.startswith("cn:draw:")]
    token = await driver.click(int(snapshot["id"]), draw, BOB)  # the button's version is from before them
    record = await record_of(storage, gid)
    stored = game_of(record)
    assert not stored.pending_discards and len(stored.hands[1]) == len(before.hands[1]) - 1 + 2
    assert len(stored.hands[2]) == len(before.hands[2]) - 1
    text = fake.visible_text(token)
    assert "bob's discard was overdue" in text and "carol's discard was overdue" in text and "bob drew 2" in text
    log = [(a.player, a.action) for a in await storage.actions(gid)]
    assert log[-3:] == [(BOB, "timeout"), (CAROL, "timeout"), (BOB, "draw")]  # the engine's Timeout (X3)
    assert stored.history[-3:] == [(1, "timeout"), (2, "timeout"), (1, "draw")]
    assert "discards_since" not in envelope_of(record).extra
    assert int(table["id"]) not in live_tables(fake, gid) and v < record.version


async def test_an_overdue_player_choosing_their_discard_is_not_preempted(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid, before = await lightning_used(driver, storage)
    monkeypatch.setattr(bot.games.kinds["conex"].rules, "discard_timeout_s", 0.0)
    await driver.command("conex discard", CAROL, card="B")
    stored = game_of(await record_of(storage, gid))
    assert stored.pile[-1] == before.hands[2][1]  # Carol's own choice went last, after Bob's random one
    assert stored.pile[-2] in before.hands[1] and not stored.pending_discards


@pytest.mark.usefixtures("expired_tokens")
async def test_action_refused_after_overdue_discards_still_shows_them(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid, _before = await lightning_used(driver, storage)
    monkeypatch.setattr(bot.games.kinds["conex"].rules, "discard_timeout_s", 0.0)
    original = storage.apply_action

    async def racing(game_id: int, expected: int, state: Any, **kw: Any) -> Any:
        if kw.get("player") == ALICE:  # Alice's draw loses a race (another process) just after the discards
            raise VersionConflictError("moved on", game_id=game_id, expected=expected, actual=expected + 1)
        return await original(game_id, expected, state, **kw)

    monkeypatch.setattr(storage, "apply_action", racing)
    before = len(fake.calls)
    token = await driver.command("conex draw", ALICE)
    monkeypatch.setattr(storage, "apply_action", original)
    refusal(fake, token)  # Alice is told privately
    record = await record_of(storage, gid)
    assert not game_of(record).pending_discards and record.messages[BOARD_VERSION_KEY] == record.version
    posts = [c for c in fake.calls[before:] if c.method == "POST" and c.path == CHANNEL_POSTS]
    assert len(posts) == 1 and "discard was overdue" in posts[0].payload["content"]  # type: ignore[index,call-overload]
    assert live_tables(fake, gid) == [record.messages["board"]]


async def test_a_stale_click_expires_nothing(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid, _before = await lightning_used(driver, storage)
    old = dict(await table_msg(storage, fake, gid))  # as a client still shows it
    (draw,) = [i for i in all_custom_ids(old) if i.startswith("cn:draw:")]
    await driver.command("conex draw", ALICE)  # not overdue yet; Bob (who owes a discard) is to play
    monkeypatch.setattr(bot.games.kinds["conex"].rules, "discard_timeout_s", 0.0)
    version = (await record_of(storage, gid)).version
    assert "out of date" in refusal(fake, await driver.click(int(old["id"]), draw, BOB, message=old))
    record = await record_of(storage, gid)
    assert record.version == version and game_of(record).pending_discards == {1, 2}
