"""Game records through the real bot (issue 16): the result card's Replay / Download record / Analysis buttons,
``/replay`` (GIF drawn once and cached, move list, record JSON the engine replays), ``/history`` paging with
persistent buttons (also after a restart), refusals (running, aborted, another guild's game), and CONEX's deal
commitment (posted before any hand can be seen) and seed reveal (the documented command checks it)."""

from __future__ import annotations

import io
import json
from typing import Any

import discord
from PIL import Image

from bot.app import TableBot
from bot.games.constructo.analysis import CODES_KEYS, META_KEY, jobs
from bot.i18n import MESSAGES
from bot.storage import Storage
from bot.ui.history import PAGE_SIZE
from engine.conex import __main__ as conex_cli
from engine.conex import fair
from engine.record import load_record
from tests.bot.conftest import Driver, all_custom_ids, component, initial, make_bot, refusal, state_of
from tests.bot.fakediscord import EPHEMERAL, GUILD_ID, FakeDiscord
from tests.bot.test_conex_cog import forfeit, put_game, start_game

ALICE, BOB, CAROL = 1, 2, 3


# -- helpers ------------------------------------------------------------------------------------------------------
async def finished_match(driver: Driver, storage: Storage, moves: int = 6) -> int:
    """Alice challenges Bob, they place ``moves`` chips (commands), Bob resigns: the finished game's id."""
    token = await driver.command("constructo challenge", ALICE, opponent=BOB)
    game_id = int(all_custom_ids(driver.fake.messages[driver.fake.originals[token]])[0].split(":")[2])
    await driver.click(driver.fake.originals[token], f"cx:acc:{game_id}", BOB)
    for _ in range(moves):
        record = await storage.get_game(game_id)
        assert record is not None
        match = state_of(record)
        move = next(m for m in match.current_round.legal_moves() if m.is_place)
        uid = record.players[match.current_player]
        await driver.command("constructo place", uid, tile=move.tile, size=move.size.word)
    await driver.resign(BOB)
    record = await storage.get_game(game_id)
    assert record is not None and record.status == "finished"
    return game_id


def answer(fake: FakeDiscord, token: str) -> tuple[dict[str, Any], dict[str, bytes]]:
    """The deferred answer's content (the edit of ``@original``) and its files by name."""
    edits = [c for c in fake.calls_for(token) if c.method == "PATCH" and c.path.endswith("/@original")]
    assert edits, [c.path for c in fake.calls_for(token)]
    return edits[-1].payload, dict(edits[-1].files)  # type: ignore[return-value]


def frames(gif: bytes) -> int:
    with Image.open(io.BytesIO(gif)) as img:
        assert img.format == "GIF"
        n = img.n_frames
        for i in range(n):
            img.seek(i)
            img.load()  # every frame decodes
    return n


async def board(storage: Storage, fake: FakeDiscord, game_id: int) -> dict[str, Any]:
    record = await storage.get_game(game_id)
    assert record is not None
    return fake.messages[record.messages["board"]]


# -- result card, replay, record ----------------------------------------------------------------------------------
async def test_result_card_replay_is_drawn_once_and_the_record_replays_to_the_same_state(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    gid = await finished_match(driver, storage)
    card = await board(storage, fake, gid)
    assert all_custom_ids(card) == [f"rm:go:{gid}", f"rc:rp:{gid}", f"rc:dl:{gid}", f"cx:ana:{gid}"]
    record = await storage.get_game(gid)
    assert record is not None
    stored = state_of(record)

    token = await driver.click(int(card["id"]), f"rc:rp:{gid}", CAROL)  # anyone may watch it
    first = initial(fake, token)
    assert first["type"] == 5 and first["data"]["flags"] & EPHEMERAL  # thinking, privately
    payload, files = answer(fake, token)
    gif, raw = files[f"replay-{gid}.gif"], files[f"game-{gid}.json"]
    assert frames(gif) == len(stored.history) + 1 == 8  # the start + 6 chips + the resignation
    assert f"**Game #{gid}**" in payload["content"] and "rombo:" in payload["content"]  # header + notation
    # Replay and Download are attached already; Step through steps the replay privately (bot/ui/stepper.py)
    assert all_custom_ids(payload) == [f"rc:sv:{gid}:0:s", f"cx:ana:{gid}"]
    replayed = load_record(json.loads(raw))
    assert replayed.to_dict() == stored.to_dict()
    assert bot.games.records.renders == 1

    again = await driver.click(int(card["id"]), f"rc:rp:{gid}", ALICE)
    assert answer(fake, again)[1][f"replay-{gid}.gif"] == gif
    assert bot.games.records.renders == 1  # the cache answered

    token = await driver.command("replay", ALICE, game=gid)  # /replay: public by default
    first = initial(fake, token)
    assert first["type"] == 5 and not first.get("data", {}).get("flags", 0) & EPHEMERAL
    assert answer(fake, token)[1][f"replay-{gid}.gif"] == gif and bot.games.records.renders == 1
    token = await driver.command("replay", ALICE, game=gid, private=True)
    assert initial(fake, token)["data"]["flags"] & EPHEMERAL

    token = await driver.click(int(card["id"]), f"rc:dl:{gid}", BOB)
    payload = initial(fake, token)
    assert payload["type"] == 4 and payload["data"]["flags"] & EPHEMERAL
    ((name, data),) = fake.callbacks(token)[0].files
    assert name == f"game-{gid}.json" and load_record(json.loads(data)).to_dict() == stored.to_dict()


async def test_replay_after_a_restart_is_drawn_again_identically(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage, tmp_path: Any
) -> None:
    gid = await finished_match(driver, storage, moves=2)
    card = await board(storage, fake, gid)
    gif = answer(fake, await driver.click(int(card["id"]), f"rc:rp:{gid}", ALICE))[1][f"replay-{gid}.gif"]
    await bot.close()
    restarted = await make_bot(fake, storage, tmp_path)
    try:
        token = await Driver(restarted, fake).click(int(card["id"]), f"rc:rp:{gid}", ALICE)  # the old card's button
        assert answer(fake, token)[1][f"replay-{gid}.gif"] == gif  # deterministic: same bytes
        assert restarted.games.records.renders == 1
    finally:
        await restarted.close()


async def test_analysis_is_computed_once_stored_with_the_game_and_says_what_is_exact(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    gid = await finished_match(driver, storage, moves=6)
    card = await board(storage, fake, gid)
    token = await driver.click(int(card["id"]), f"cx:ana:{gid}", CAROL)
    assert initial(fake, token)["data"]["flags"] & EPHEMERAL
    text = answer(fake, token)[0]["content"]
    assert f"Analysis of match #{gid}" in text and "Round 1" in text and "At the start:" in text
    assert ("Turning point:" in text) or ("No move lost a tower." in text)
    assert "exact" in text and "≈ marks an estimate" in text
    stored = json.loads(await storage.get_meta(META_KEY.format(game=gid)) or "{}")
    (rnd,) = stored["rounds"]
    assert len(rnd["moves"]) == 6 and rnd["over"] is False  # Bob resigned mid-round
    for i, move in enumerate(rnd["moves"], start=1):  # one mark per move, estimates flagged
        line = next(x for x in text.splitlines() if x.startswith(f"`{i:>2}.`"))
        assert f"**{move['move']}**" in line and (line.endswith("≈") != move["exact"])
    files = answer(fake, token)[1]  # the value graph, and the board after each turning point
    assert files[f"analysis-{gid}-values.png"].startswith(b"\x89PNG")
    assert (f"analysis-{gid}-round1-turning.png" in files) == (rnd["turning_point"] is not None)
    assert jobs(bot.games).computed == 1
    again = await driver.click(int(card["id"]), f"cx:ana:{gid}", ALICE)
    assert answer(fake, again)[0]["content"] == text and jobs(bot.games).computed == 1


def test_every_analysis_code_and_outcome_has_english_and_spanish_words() -> None:
    for key in CODES_KEYS:
        assert key in MESSAGES["en"] and key in MESSAGES["es"], key


# -- refusals -----------------------------------------------------------------------------------------------------
async def click_button(driver: Driver, message_id: int, custom_id: str, uid: int) -> str:
    """Click a record button as if message ``message_id`` carried it (e.g. a forged or long-lived component)."""
    message = dict(driver.fake.messages[message_id])
    message["components"] = [{"type": 1, "components": [{"type": 2, "style": 2, "label": "x", "custom_id": custom_id}]}]
    return await driver.click(message_id, custom_id, uid, message=message)


async def test_running_aborted_unknown_and_other_guilds_games_are_refused(
    driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    token = await driver.command("constructo challenge", ALICE, opponent=BOB)
    gid = int(all_custom_ids(fake.messages[fake.originals[token]])[0].split(":")[2])
    assert "still being played" in refusal(fake, await driver.command("replay", ALICE, game=gid))  # a challenge
    await driver.click(fake.originals[token], f"cx:acc:{gid}", BOB)
    assert "still being played" in refusal(fake, await driver.command("replay", BOB, game=gid))
    assert "still being played" in refusal(fake, await click_button(driver, fake.originals[token], f"rc:dl:{gid}", BOB))
    await driver.command("abort", 4, admin=True)
    assert "aborted" in refusal(fake, await driver.command("replay", ALICE, game=gid))
    other = await storage.create_game("constructo", GUILD_ID + 1, 999, {}, [ALICE, BOB], status="active")
    await storage.apply_action(
        other, 0, {}, player=ALICE, action="forfeit", result={"ranking": [[BOB], [ALICE]], "rated": False}
    )
    for game in (other, 987654):  # another guild's finished game reads exactly like a missing one
        assert refusal(fake, await driver.command("replay", ALICE, game=game)) == (
            f"There is no finished game #{game} in this server."
        )
        assert "There is no finished game" in refusal(
            fake, await click_button(driver, fake.originals[token], f"rc:rp:{game}", ALICE)
        )


# -- history ------------------------------------------------------------------------------------------------------
async def stored_games(storage: Storage, n: int) -> list[int]:
    """``n`` finished games Alice won against Bob (storage only: rows for the list, not playable records)."""
    ids = []
    for i in range(n):
        gid = await storage.create_game("constructo", GUILD_ID, 500 + i, {}, [ALICE, BOB], status="active")
        await storage.apply_action(
            gid,
            0,
            {},
            player=BOB,
            action="forfeit",
            result={"ranking": [[ALICE], [BOB]], "rated": True, "scores": {ALICE: 3, BOB: 1}},
        )
        ids.append(gid)
    return ids


def buttons_of(message: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["label"]: c for row in message["components"] for c in row["components"] if c.get("type") == 2}


async def test_history_pages_with_persistent_buttons_even_after_a_restart(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage, tmp_path: Any
) -> None:
    ids = await stored_games(storage, PAGE_SIZE + 2)
    token = await driver.command("history", BOB)
    payload = initial(fake, token)
    assert payload["type"] == 4 and payload["data"]["flags"] & EPHEMERAL
    msg = fake.messages[fake.originals[token]]
    lines = msg["content"].splitlines()
    assert "<@2>" in lines[0] and "page 1" in lines[0] and len(lines) == 1 + PAGE_SIZE
    newest = ids[-1]
    assert lines[1].startswith(f"`#{newest}` **Constructo** · <t:") and ":R>)" in lines[1]
    assert "**loss**" in lines[1] and "1–3" in lines[1] and "rating −" in lines[1] and "vs <@1>" in lines[1]
    select = component(msg, "rc:ho:2")
    assert [o["value"] for o in select["options"]] == [str(g) for g in ids[::-1][:PAGE_SIZE]]
    page = buttons_of(msg)
    assert page["◀ Newer"]["disabled"] and not page["Older ▶"]["disabled"]

    await bot.close()  # the buttons live in their custom ids: a restarted bot pages on
    restarted = await make_bot(fake, storage, tmp_path)
    try:
        drive = Driver(restarted, fake)
        mid = int(msg["id"])
        click = await drive.click(mid, page["Older ▶"]["custom_id"], BOB)
        assert initial(fake, click)["type"] == 7  # the same message is edited
        msg = fake.messages[mid]
        assert "page 2" in msg["content"] and [f"`#{g}`" in msg["content"] for g in ids[:2]] == [True, True]
        assert len(msg["content"].splitlines()) == 1 + 2
        page = buttons_of(msg)
        assert not page["◀ Newer"]["disabled"] and page["Older ▶"]["disabled"]
        await drive.click(mid, page["◀ Newer"]["custom_id"], BOB)
        msg = fake.messages[mid]
        assert "page 1" in msg["content"] and f"`#{newest}`" in msg["content"]
        assert buttons_of(msg)["◀ Newer"]["disabled"]
    finally:
        await restarted.close()


async def test_history_filters_names_another_user_and_opens_a_record(
    driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    gid = await finished_match(driver, storage, moves=2)
    token = await driver.command("history", CAROL, user=ALICE, game="conex")
    assert "No finished games here yet." in fake.messages[fake.originals[token]]["content"]
    token = await driver.command("history", CAROL, user=ALICE, game="constructo", locale="es-ES")
    msg = fake.messages[fake.originals[token]]
    assert "Partidas recientes de <@1>" in msg["content"] and "**victoria**" in msg["content"]
    opened = await driver.click(int(msg["id"]), "rc:ho:1", CAROL, values=[str(gid)])
    assert initial(fake, opened)["data"]["flags"] & EPHEMERAL
    content = answer(fake, opened)[0]
    assert f"**Game #{gid}**" in content["content"] and "rombo:" in content["content"]
    assert all_custom_ids(content) == [f"rc:rp:{gid}", f"rc:dl:{gid}", f"cx:ana:{gid}"]
    choices = await driver.autocomplete("replay", ALICE, "game", game="")
    assert [c["value"] for c in choices] == [gid] and choices[0]["name"].startswith(f"#{gid} · Constructo · win")


# -- CONEX: commitment before any hand, seed revealed at the end ---------------------------------------------------
async def test_conex_commitment_is_posted_before_any_hand_and_the_revealed_seed_verifies(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage, capsys: Any
) -> None:
    seed = 2**127 + 12345  # 128-bit seeds (secrets.randbits(128))
    gid = await start_game(driver, fake, storage, bot, seed=seed)
    digest = fair.commitment(seed)
    table = await board(storage, fake, gid)
    assert digest in table["content"] and "How do I know the deal was fair?" in table["content"]
    assert "SHA-256" not in table["content"] and "engine." not in table["content"]  # said in words
    assert str(seed) not in table["content"]
    lobby = (await storage.get_game(gid)).messages["lobby"]  # type: ignore[union-attr]
    assert digest in fake.messages[lobby]["content"]
    first_commitment = next(i for i, c in enumerate(fake.calls) if digest in json.dumps(c.payload))
    hand = await driver.command("conex hand", BOB)
    first_hand = next(i for i, c in enumerate(fake.calls) if c in fake.calls_for(hand))
    assert first_commitment < first_hand
    assert all(str(seed) not in json.dumps(c.payload) for c in fake.calls)  # hidden while the game runs
    assert "still being played" in refusal(fake, await driver.command("replay", ALICE, game=gid))

    confirm = await forfeit(driver, fake, BOB, gid)  # Bob forfeits: Alice wins
    card = await board(storage, fake, gid)
    command = f"python -m engine.conex verify {seed} {digest} --players 2"
    assert str(seed) not in card["content"] and "python -m" not in card["content"], card["content"]  # plain words
    assert "The deal can be checked now" in card["content"]
    proof = await driver.click(int(card["id"]), f"cn:fair:{gid}", CAROL)  # anyone may ask, privately
    text = fake.visible_text(proof)
    assert initial(fake, proof)["data"]["flags"] & EPHEMERAL
    assert f"Deal seed: `{seed}`" in text and command in text and digest in text, text
    assert fake.calls_for(confirm)
    assert conex_cli.main(command.split()[3:]) == 0 and "OK" in capsys.readouterr().out
    tampered = ["verify", str(seed + 1), digest, "--players", "2"]
    assert conex_cli.main(tampered) == 1 and "MISMATCH" in capsys.readouterr().out


async def test_conex_hand_before_the_table_is_answered_with_the_commitment_first(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    """Issue 22: no window where a true request is refused; no card is ever shown before the commitment."""
    from engine.conex import Game

    game = Game.new(players=2, seed=99, table="medium", goal=40)
    gid = await put_game(storage, game, [ALICE, BOB])  # committed, but its table never posted (a crash between)
    token = await driver.command("conex hand", ALICE)
    text = fake.visible_text(token)
    assert f"#{game.hand(0)[0].id}" in text and fair.commitment(99) in text
    assert text.index(fair.commitment(99)) < text.index(f"#{game.hand(0)[0].id}"), "the commitment comes first"
    assert await driver.autocomplete("conex place", ALICE, "card", card="") != []
    await bot.games.on_ready()  # the recovery posts the table: with the commitment, since none was recorded
    table = await board(storage, fake, gid)
    assert fair.commitment(99) in table["content"]
    token = await driver.command("conex hand", ALICE)
    assert f"#{game.hand(0)[0].id}" in fake.visible_text(token)
    assert fair.commitment(99) not in fake.visible_text(token), "once the table is posted, the hand is the hand"


# -- any game, the seed's source ----------------------------------------------------------------------------------
async def test_a_game_the_layer_never_heard_of_gets_the_replay_its_kind_names_or_its_record_only(
    fake: FakeDiscord, storage: Storage, tmp_path: Any, monkeypatch: Any
) -> None:
    monkeypatch.setenv("TABLEBOT_EXTRA_GAMES", "tests.games.nim")  # the test-only game: its replay in its own folder
    nim_bot = await make_bot(fake, storage, tmp_path)
    try:
        driver = Driver(nim_bot, fake)
        token = await driver.command("nim challenge", ALICE, opponent=BOB, heaps="1")
        gid = int(all_custom_ids(fake.messages[fake.originals[token]])[0].split(":")[2])
        await driver.click(fake.originals[token], f"nm:acc:{gid}", BOB)
        await driver.command("nim take", ALICE, heap=1, count=1)  # the last stone: Alice wins
        card = await board(storage, fake, gid)
        assert all_custom_ids(card) == [f"rm:go:{gid}", f"rc:rp:{gid}", f"rc:dl:{gid}"]
        token = await driver.click(int(card["id"]), f"rc:rp:{gid}", BOB)
        payload, files = answer(fake, token)
        assert sorted(files) == [f"game-{gid}.json", f"replay-{gid}.gif"]
        assert files[f"replay-{gid}.gif"][:6] == b"GIF89a"
        assert "1. alice: take 1 from heap 1 (take 1 1)" in payload["content"]  # Nim's own move list
        record = json.loads(files[f"game-{gid}.json"])
        assert record["game"] == "nim" and record["history"] == [[0, "take 1 1"]]

        kind = nim_bot.games.kinds["nim"]
        monkeypatch.setattr(kind, "replay", None)  # a kind naming no replay renderer: its record only
        token = await driver.click(int(card["id"]), f"rc:rp:{gid}", BOB)
        payload, files = answer(fake, token)
        assert "no animated replay" in payload["content"] and list(files) == [f"game-{gid}.json"]
        replayed = load_record(json.loads(files[f"game-{gid}.json"]), [kind.engine])
        assert replayed.is_over and replayed.heaps == [0] and replayed.outcome.winners == (0,)
        token = await driver.command("history", ALICE)
        assert f"`#{gid}` **Nim**" in fake.messages[fake.originals[token]]["content"]
    finally:
        await nim_bot.close()


def test_conex_seeds_are_128_bits_from_secrets(monkeypatch: Any) -> None:
    import bot.games.conex.kind as conex_kind
    from bot.core.envelope import Envelope

    asked: list[int] = []
    monkeypatch.setattr(conex_kind.secrets, "randbits", lambda k: asked.append(k) or 2**127 + 5)
    setup = conex_kind.ConexRules().engine_setup(Envelope(engine=None), [ALICE, BOB])
    assert asked == [128] and setup["seed"] == 2**127 + 5


def test_analysis_text_names_a_change_of_result_and_the_first_change_as_turning_point() -> None:
    from bot.games.constructo.analysis import round_lines

    def mv(i: int, player: int, before: int, after: int, code: str, ob: str, oa: str) -> dict[str, Any]:
        return {
            "index": i,
            "player": player,
            "move": f"L{i + 1}",
            "value_before": before,
            "value_after": after,
            "exact": True,
            "best": "M1",
            "loss": before - after,
            "code": code,
            "outcome_before": ob,
            "outcome_after": oa,
        }

    moves = [mv(i, i % 2, 0, 0, "best", "draw", "draw") for i in range(6)]
    moves[2] = mv(2, 0, 0, -100, "draw_to_loss", "draw", "loss")
    moves[4] = mv(4, 0, 100, -200, "win_to_loss", "win", "loss")
    rnd = {
        "round": 1,
        "layout": "rombo",
        "scale": 100,
        "start_value": 0,
        "start_exact": True,
        "first": 0,
        "turning_point": 2,
        "decided_at": 3,
        "over": True,
        "moves": moves,
    }
    en = "\n".join(round_lines(rnd, ["Alice", "Bob"], discord.Locale.american_english))
    es = "\n".join(round_lines(rnd, ["Alice", "Bob"], discord.Locale.spain_spanish))
    assert "**Turning point:** move 3 by Alice: L3 turned a draw into a loss (−1)" in en
    assert "inaccuracy" not in en and "L5** — turned a win into a loss (−3)" in en
    assert "**Momento decisivo:** jugada 3 de Alice: L3 convirtió un empate en derrota (−1)" in es
    assert "convirtió una victoria en derrota (−3)" in es
