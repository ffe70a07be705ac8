"""E2E (QA, exploratory probes): what players read after bad or odd input, through the real bot.

Finished games poked from their old boards, tables and commands; a lobby's stale buttons after it started or closed;
another player's private hint and hand buttons; a player who left a running CONEX game; look-alike text (zero-width,
full-width, NBSP, Cyrillic) in card and layout options; a 3,000-character layout; Spanish players' refusals beside
English ones; nicknames written as Markdown; autocomplete for non-players, finished games and odd partials.
Invariants: bad input gets a clear private answer and changes nothing; what a player reads is true (no rule code
outside a bold refusal prefix, no hash); no traceback in the bot's log; no devserver violation. Tests marked BUG fail
on purpose: each comment says what the player sees, what is expected and where the cause is believed to be.
"""

from __future__ import annotations

import copy
import re
import unicodedata
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from .breaker_kit import cid, conex, constructo, no_traceback, probe_env, public_ids, readable, snapshot
from .helpers import (
    BotEnv,
    answered,
    assert_refusal,
    click_raw,
    recorded_board,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with probe_env(Path(tmp_path_factory.mktemp("probe"))) as e:
        yield e


async def test_a_finished_match_old_board_and_commands_change_nothing_and_say_it_is_over(env: BotEnv) -> None:
    mark = env.mark()
    game_id, alice, bob, _board = await constructo(env, "p1")
    await answered(await alice.slash("constructo place", tile=5, size="large"))
    await answered(await bob.slash("constructo place", tile=4, size="small"))
    seen = copy.deepcopy(await recorded_board(env, game_id))  # what alice's client still shows
    ask = await answered(await bob.slash("constructo resign"))
    asked = copy.deepcopy(ask.message)
    await answered(await bob.click(ask.message, "Yes, resign"), followups=1)
    assert env.game(game_id).status == "finished"
    before, pub = snapshot(env, game_id), public_ids(env)
    texts = []
    for label in ("Resign", "Offer draw", "Take back"):
        texts.append(assert_refusal(await answered(await click_raw(alice, seen, cid(seen, label)))))
    sel = next(c for c in seen.buttons() if c.get("type") == 3 and c["custom_id"].startswith("cx:pl:"))
    texts.append(assert_refusal(await answered(await click_raw(alice, seen, sel["custom_id"], ["1"]))))
    for cmd, kw in (("constructo place", {"tile": 1, "size": "small"}), ("constructo resign", {})):
        texts.append(assert_refusal(await answered(await alice.slash(cmd, **kw))))
    texts.append(assert_refusal(await answered(await bob.slash("constructo move", **{"from": 5, "to": 4}))))
    for t in texts:
        readable(t)
        assert "not your turn" not in t.lower(), f"a finished game is not someone's turn: {t!r}"
    assert snapshot(env, game_id) == before and public_ids(env) == pub, texts
    # the result card's stale ask: a second "Yes, resign" on the old confirmation
    again = await answered(await click_raw(bob, asked, cid(asked, "Yes, resign")))
    readable(assert_refusal(again))
    assert snapshot(env, game_id) == before
    no_traceback(env)
    assert env.violations_since(mark) == [], env.log_tail()


async def test_another_players_hint_and_hand_buttons_are_refused(env: BotEnv) -> None:
    mark = env.mark()
    game_id, users, _lobby, table = await conex(env, "p5", ("alice", "bob"))
    alice, bob = users
    row = env.game(game_id)
    mover = alice if row.conex.current_player == 0 else bob
    other = bob if mover is alice else alice
    hints = await answered(await mover.click(table, "Hints"))
    plays = [c["custom_id"] for c in hints.message.buttons() if c["custom_id"].startswith("cn:hp:")]
    assert plays, hints.text
    before, pub = snapshot(env, game_id), public_ids(env)
    res = await answered(await click_raw(other, hints.message, plays[0]))
    readable(assert_refusal(res))
    hand = await answered(await mover.click(table, "My hand"))
    for comp in hand.message.buttons():
        if comp.get("custom_id"):
            vals = [comp["options"][0]["value"]] if comp.get("type") == 3 else None
            readable(assert_refusal(await answered(await click_raw(other, hand.message, comp["custom_id"], vals))))
    assert snapshot(env, game_id) == before and public_ids(env) == pub
    # the owner's own hint still plays
    res = await answered(await mover.click(hints.message, plays[0]))
    assert env.game(game_id).version == before[1] + 1, res.text
    no_traceback(env)
    assert env.violations_since(mark) == [], env.log_tail()


async def test_a_finished_conex_table_and_hand_commands_change_nothing(env: BotEnv) -> None:
    mark = env.mark()
    game_id, users, _lobby, table = await conex(env, "p8", ("alice", "bob"))
    alice, bob = users
    seen = copy.deepcopy(table)
    hand = await answered(await alice.click(table, "My hand"))
    hand_seen = copy.deepcopy(hand.message)
    ask = await answered(await bob.slash("conex leave"))
    await answered(await bob.click(ask.message, "Yes, leave the game"))
    await env.server.wait_until(lambda: env.game(game_id).status == "finished", 15, "the game over after a forfeit")
    before, pub = snapshot(env, game_id), public_ids(env)
    texts = []
    for comp in seen.buttons() + hand_seen.buttons():
        c = comp.get("custom_id")
        if not c or comp.get("style") == 5 or (comp.get("label") or "").startswith("How do I know"):
            continue  # links; the fairness proof shows the seed on purpose
        vals = [comp["options"][0]["value"]] if comp.get("type") == 3 else None
        r = await answered(await click_raw(alice, seen if comp in seen.buttons() else hand_seen, c, vals))
        texts.append((comp.get("label"), r.ephemeral, r.text))
    for cmd, kw in (
        ("conex draw", {}),
        ("conex pass", {}),
        ("conex hints", {}),
        ("conex place", {"card": "A", "corner": 1}),
        ("conex leave", {}),
        ("conex start", {}),
    ):
        r = await answered(await alice.slash(cmd, **kw))
        texts.append((cmd, r.ephemeral, r.text))
    for label, _eph, t in texts:
        readable(t)
        assert "not your turn" not in t.lower(), (label, t)
    assert snapshot(env, game_id) == before, texts
    assert public_ids(env) == pub, texts
    no_traceback(env)
    assert env.violations_since(mark) == [], env.log_tail()


async def test_the_hand_of_a_finished_game_claims_no_legal_placements(env: BotEnv) -> None:
    # After a CONEX game is over, "My hand" on its (old) table answers like /conex hand ("This game is over; nothing
    # more can be played in it"), never a hand with "— 9+ legal" placements: every view that offers actions goes
    # through the one still-playing check (bot/core/loading.py:Loader.playing).
    mark = env.mark()
    game_id, users, _lobby, table = await conex(env, "p18", ("alice", "bob"))
    alice, bob = users
    seen = copy.deepcopy(table)  # what alice's client still shows
    ask = await answered(await bob.slash("conex leave"))
    await answered(await bob.click(ask.message, "Yes, leave the game"))
    await env.server.wait_until(lambda: env.game(game_id).status == "finished", 15, "the game over after a forfeit")
    before = snapshot(env, game_id)
    shown = [
        await answered(await click_raw(alice, seen, cid(seen, "My hand"))),
        await answered(await alice.slash("conex hand")),
    ]
    texts = [r.text for r in shown]
    assert snapshot(env, game_id) == before
    for t in texts:
        assert not re.search(r"\d\+? legal", t), f"a finished game's hand offers legal placements: {t!r}"
    no_traceback(env)
    assert env.violations_since(mark) == [], env.log_tail()


async def test_a_player_who_left_a_running_conex_game_cannot_act_in_it(env: BotEnv) -> None:
    # Every command, button and card reference is refused about the seat first: "/conex place card:A corner:1"
    # answers "You left this game" (the seat is checked before the card: bot/games/conex/placing.py:parse_card_ref).
    mark = env.mark()
    game_id, users, _lobby, _table = await conex(env, "p19", ("alice", "bob", "carol"))
    row = env.game(game_id)
    leaver = users[(row.conex.current_player + 1) % 3]
    ask = await answered(await leaver.slash("conex leave"))
    await answered(await leaver.click(ask.message, "Yes, leave the game"))
    await env.server.wait_until(
        lambda: (
            env.game(game_id).status == "active"
            and bool([x for _s, p, x in env.actions(game_id) if p == leaver.id and x == "forfeit"])
        ),
        15,
        "the forfeit",
    )
    board = await recorded_board(env, game_id)
    before, pub = snapshot(env, game_id), public_ids(env)
    texts = []
    for label in ("My hand", "Hints", "Draw 2"):
        if any(c.get("label") == label for c in board.buttons()):
            texts.append((label, await answered(await click_raw(leaver, board, cid(board, label)))))
    for cmd, kw in (
        ("conex draw", {}),
        ("conex hints", {}),
        ("conex place", {"card": "A", "corner": 1}),
        ("conex hand", {}),
        ("conex leave", {}),
    ):
        texts.append((cmd, await answered(await leaver.slash(cmd, **kw))))
    for what, r in texts:
        readable(r.text)
        assert r.ephemeral, (what, r.text)
        if "hand" not in what:
            assert "you left this game" in r.text.lower(), (what, r.text)
    assert snapshot(env, game_id) == before and public_ids(env) == pub
    no_traceback(env)
    assert env.violations_since(mark) == [], env.log_tail()


@pytest.mark.parametrize("card", ["\u200bA", "A\u200d", "Ａ", "A\u00a0", " a ", "\u0410"])  # ZW, full-width, NBSP
async def test_look_alike_card_text_is_read_or_refused_truthfully(env: BotEnv, card: str) -> None:
    # Regression: "\u200bA" / "A\u200d" (a letter pasted with an invisible zero-width character) was refused with
    # "“A” is not a card: give its hand letter (A, B, C, D, E)". Every string option is now normalised before any
    # parser reads it (bot/ui/typed.py: NFKC, no format characters, stripped).
    mark = env.mark()
    channel = "p6"
    try:
        row = env.latest_game("conex", env.server.channel(channel).id)
    except KeyError:
        row = None
    if row is None or row.status != "active":
        game_id, _users, _lobby, _table = await conex(env, channel, ("carol", "dave"))
        row = env.game(game_id)
    mover = env.server.as_user(env.server.user(row.players[row.conex.current_player]).name, channel)
    before = snapshot(env, row.id)
    res = await answered(await mover.slash("conex place", card=card, corner=1))
    text = readable(res.text)
    if res.ephemeral:
        assert snapshot(env, row.id) == before, text
        visible = "".join(ch for ch in text if unicodedata.category(ch) != "Cf")
        m = re.match(r"“(.*)” is not a card: give its hand letter \(([^)]*)\)", visible)
        assert not (m and m.group(1) in m.group(2).split(", ")), f"says a listed letter is not a card: {text!r}"
    else:
        assert env.game(row.id).version == before[1] + 1, text
    no_traceback(env)
    assert env.violations_since(mark) == [], env.log_tail()


@pytest.mark.parametrize("layout", ["rombo\u200b", "ＲＯＭＢＯ", "Rombo ", "rómbo", "flor\u00a0"])
async def test_look_alike_layout_names_start_that_layout_or_are_refused_readably(env: BotEnv, layout: str) -> None:
    # Regression: "rombo\u200b" was refused with "Unknown layout 'rombo\\u200b'" (a Python repr escape); the
    # option is now normalised (it starts a rombo game) and engine refusals quote typed text plainly (quoted()).
    mark = env.mark()
    dave = env.server.as_user("dave", "p7")
    before = public_ids(env)
    res = await answered(await dave.slash("constructo challenge", opponent="mod", layout=layout))
    text = readable(res.text)
    if res.ephemeral:
        assert "layout" in text.lower(), text
        assert "\\u" not in text and "\\x" not in text, f"a Python escape shown to the player: {text!r}"
        assert public_ids(env) == before
    else:
        game = env.latest_game("constructo", env.server.channel("p7").id)
        await answered(await dave.slash("constructo decline"))
        assert env.game(game.id).status != "active"
    no_traceback(env)
    assert env.violations_since(mark) == [], env.log_tail()


async def test_a_layout_name_of_3000_characters_gets_a_short_refusal(env: BotEnv) -> None:
    """Discord's client sends string options of up to 6,000 characters (the option declares no max_length)."""
    mark = env.mark()
    dave = env.server.as_user("dave", "p7")
    before = public_ids(env)
    res = await answered(await dave.slash("constructo challenge", opponent="mod", layout="z" * 3000))
    text = readable(assert_refusal(res, "layout"))
    assert len(text) <= 2000 and public_ids(env) == before
    no_traceback(env)
    assert env.violations_since(mark) == [], env.log_tail()


SPANISH_GENERIC = "No he entendido lo que has escrito"


async def test_a_spanish_player_gets_as_specific_a_refusal_as_an_english_one(env: BotEnv) -> None:
    # Every engine InvalidInputError carries a reason worded in both catalogues (bot/locales/en_input.py,
    # es_input.py; tests/bot/test_engine_input_i18n.py checks each raise site), so a Spanish player reads what was
    # wrong, never only the generic "No he entendido lo que has escrito...".
    mark = env.mark()
    server = env.server
    _game_id, alice, _bob, _board = await constructo(env, "p16", "carol", "dave")
    probes: list[tuple[str, dict[str, Any]]] = [
        ("constructo challenge", {"opponent": "mod", "layout": "rombito"}),
        ("constructo challenge", {"opponent": "mod", "layout": "(0,0) (1,0)"}),
        ("constructo challenge", {"opponent": "mod", "layout": "(0,0) " * 9}),
        ("constructo challenge", {"opponent": "mod", "layout": "(a,b)"}),
        ("constructo move", {"from": 5, "to": 5}),
        ("constructo choose", {"layout": "flor"}),
    ]
    generic: list[tuple[str, str, str]] = []
    user = server.user(alice.name)
    for cmd, kw in probes:
        said = {}
        for loc in ("en-US", "es-ES"):
            user.locale = loc
            try:
                res = await answered(await alice.slash(cmd, **kw))
            finally:
                user.locale = "en-US"
            said[loc] = readable(res.text)
            assert res.ephemeral, (cmd, kw, res.text)
        if SPANISH_GENERIC in said["es-ES"] and "understand" not in said["en-US"]:
            generic.append((f"{cmd} {kw}", said["en-US"], said["es-ES"]))
    assert not generic, "Spanish players get the generic refusal where English ones read what is wrong:\n" + "\n".join(
        f"  {c}: en {e!r} / es {s!r}" for c, e, s in generic
    )
    no_traceback(env)
    assert env.violations_since(mark) == [], env.log_tail()


@pytest.mark.parametrize(("player", "channel"), [("odd1", "p11"), ("odd4", "p15")])
async def test_a_nickname_written_as_markdown_is_shown_as_typed(env: BotEnv, player: str, channel: str) -> None:
    # Regression: a nickname "[Nitro](https://evil.example)" made every board line naming the player a masked link
    # ("[nitro](https://evil.example) played **L5**."), "# big" a heading. Names are now Markdown-escaped where they
    # become message text (bot/core/names.py:shown, applied by bot.i18n.t): the line reads the name as typed.
    mark = env.mark()
    _game_id, odd, _bob, _board = await constructo(env, channel, player, "bob")
    await answered(await odd.slash("constructo place", tile=5, size="large"))
    texts = [m.content for m in env.server.all_messages() if m.channel_id == env.server.channel(channel).id]
    name = env.server.user(player).name
    drawn = [re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", t) for t in texts]  # what Discord draws: escapes dropped
    played = [d for d in drawn if f"{name} played".lower() in d.lower()]
    assert played, f"no line reads the name {name!r} as typed: {texts}"
    links = [t for t in texts if re.search(r"(?<!\\)\[[^\]]*(?<!\\)\]\(https?://", t)]
    assert not links, f"a player's name drawn as a masked link: {links}"
    headings = [line for t in texts for line in t.split("\n") if re.match(r"#{1,3} ", line)]
    assert not headings, f"a player's name drawn as a heading: {headings}"
    no_traceback(env)
    assert env.violations_since(mark) == [], env.log_tail()


async def test_autocomplete_for_non_players_finished_games_and_odd_partials_answers_and_changes_nothing(
    env: BotEnv,
) -> None:
    mark = env.mark()
    game_id, alice, bob, _board = await constructo(env, "p12")
    carol = env.server.as_user("carol", "p12")
    before = snapshot(env, game_id)
    got: dict[str, list[Any]] = {}
    for who, opt, partial, kw in (
        (carol, "tile", "", {"size": "small"}),
        (bob, "tile", "", {"size": "small"}),
        (alice, "tile", "\u0665", {"size": "large"}),  # Arabic-Indic five
        (alice, "tile", "x" * 100, {"size": "large"}),
        (alice, "size", "\u200b", {}),
        (alice, "size", "ＬＡＲＧＥ", {}),
    ):
        got[f"{who.name} place {opt} {partial[:5]!r}"] = await who.autocomplete(
            "constructo place", opt, partial, timeout=10, **kw
        )
    for who in (carol, alice):
        got[f"{who.name} move from"] = await who.autocomplete("constructo move", "from", "-1", timeout=10)
    control = await alice.autocomplete("constructo place", "tile", "", timeout=10, size="large")
    assert len(control) == 9, f"the player to move is offered the 9 tiles: {control}"
    assert got["carol place tile ''"] == [], "a non-player is offered tiles"
    for k, v in got.items():
        for choice in v:
            readable(str(choice.get("name")))
            assert len(str(choice.get("name"))) <= 100, (k, choice)
    assert snapshot(env, game_id) == before
    await answered(await alice.slash("constructo place", tile=5, size="large"))
    await answered(await bob.slash("constructo place", tile=4, size="small"))
    ask = await answered(await alice.slash("constructo resign"))
    await answered(await alice.click(ask.message, "Yes, resign"), followups=1)
    after = await alice.autocomplete("constructo place", "tile", "", timeout=10, size="small")
    assert after == [], f"tiles offered in a finished match: {after}"
    no_traceback(env)
    assert env.violations_since(mark) == [], env.log_tail()


@pytest.mark.parametrize(
    ("who", "locale", "zoom"),
    [("alice", "en-US", "última"), ("bob", "en-US", "ÚLTIMA"), ("carol", "es-ES", "last"), ("dave", "es-ES", "Mesa")],
)  # one reader each: a board zoom has a per-user cooldown
async def test_zoom_words_of_either_language_are_read_or_refused_clearly(
    env: BotEnv, who: str, locale: str, zoom: str
) -> None:
    mark = env.mark()
    try:
        row = env.latest_game("conex", env.server.channel("p22").id)
    except KeyError:
        await conex(env, "p22", ("alice", "bob"))
        row = env.latest_game("conex", env.server.channel("p22").id)
    user = env.server.user(who)
    user.locale = locale
    try:
        res = await answered(await env.server.as_user(who, "p22").slash("conex board", zoom=zoom))
    finally:
        user.locale = "en-US"
    text = readable(res.text)
    assert res.ephemeral and snapshot(env, row.id)[1] == row.version, text
    if not res.message.images:
        assert zoom in text or "zoom" in text.lower(), text
    no_traceback(env)
    assert env.violations_since(mark) == [], env.log_tail()


async def test_a_spanish_player_is_told_which_corners_a_card_has(env: BotEnv) -> None:
    # Corner 3 of a two-corner card (3 is within the option's 1-3, so Discord's own client sends it) is refused
    # naming the card's corners in both languages ("Card #14 has corners 1-2, not 3." / "La carta #14 tiene las
    # esquinas 1-2; ..."), as for every engine input refusal.
    mark = env.mark()
    hands = []
    for channel in ("p23", "p24", "p25", "p26", "p27", "p28", "p29", "p30"):  # deals until one has a two-corner card
        game_id, users, _lobby, _table = await conex(env, channel, ("alice", "bob"))
        row = env.game(game_id)
        mover = users[row.conex.current_player]
        hand = await answered(await mover.slash("conex hand"))
        hands.append(hand.text)
        two = [line[0] for line in hand.text.split("\n") if re.match(r"[A-Z]: #", line) and " 3:" not in line]
        if two:
            break
    assert two, f"no two-corner card in eight deals: {hands}"
    said = {}
    user = env.server.user(mover.name)
    for loc in ("en-US", "es-ES"):
        user.locale = loc
        try:
            res = await answered(await mover.slash("conex place", card=two[0], corner=3))
        finally:
            user.locale = "en-US"
        said[loc] = readable(assert_refusal(res))
    assert env.game(game_id).version == row.version
    assert "1-2" in said["en-US"] or "1 and 2" in said["en-US"], said
    assert SPANISH_GENERIC not in said["es-ES"], f"the generic refusal in Spanish: {said}"
    assert "1-2" in said["es-ES"], said
    no_traceback(env)
    assert env.violations_since(mark) == [], env.log_tail()
