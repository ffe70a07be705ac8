"""E2E (issue 12 tried the way real players race each other): one bot process on a short test clock
(``TABLEBOT_CLOCK_SCALE=0.008``: a ``live`` move lasts 2.4 s, a one-minute set-up expiry 0.48 s).

- **Claim the win** clicked at the same moment as the late player's move: exactly one applies (one entry in the
  log), the other is told what happened ("moved in time" / the game is over), the claim message loses its button;
- both players click **Rematch** at the same moment: exactly one new game (the other player starts, same clock), and the
  earlier click's public note does not stay behind with a live button saying the other is awaited;
- an abort offer followed by a move: the move voids it (edited to say so, no button left); `/abandon` starts anew;
- **Accept** clicked right around a challenge's expiry (just before, at, just after): either it started (the board
  answers) or it expired (the message says so, without buttons; an Accept still sent is told it expired, never
  "This game is over").
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from devserver.client import CommandUsageError
from devserver.models import Message
from devserver.result import InteractionResult

from .helpers import BotEnv, answered, assert_refusal, bot_env

pytestmark = pytest.mark.asyncio(loop_scope="module")

SCALE = 0.008


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with bot_env(Path(tmp_path_factory.mktemp("unstuck")), extra_env={"TABLEBOT_CLOCK_SCALE": str(SCALE)}) as e:
        await e.ready()
        yield e


def claims(env: BotEnv, channel: str) -> list[Message]:
    return [m for m in env.server.messages(channel) if m.content.startswith("⌛") and "claim" in m.content]


async def live_game_with_a_claim(env: BotEnv, ch: str) -> int:
    """Alice challenges Bob (clock live), Bob accepts; returns the game once Alice's time ran out (claimable)."""
    server = env.server
    env.server.add_channel(ch)
    alice, bob = server.as_user("alice", ch), server.as_user("bob", ch)
    res = await answered(await alice.slash("constructo challenge", opponent="bob", clock="live"))
    await answered(await bob.click(res.message, "Accept"), followups=1)
    game = env.latest_game("constructo", server.channel(ch).id)
    await server.wait_until(lambda: bool(claims(env, ch)), 20, "the claim message")
    return game.id


@pytest.mark.parametrize("claim_first", [True, False])
async def test_claim_and_the_late_move_at_the_same_moment_exactly_one_applies(env: BotEnv, claim_first: bool) -> None:
    server = env.server
    mark = env.mark()
    ch = f"claim-race-{int(claim_first)}"
    game_id = await live_game_with_a_claim(env, ch)
    alice, bob = server.as_user("alice", ch), server.as_user("bob", ch)
    tiles = await alice.autocomplete("constructo place", "tile", "", size="small")
    claim = claims(env, ch)[-1]
    version = env.game(game_id).version
    sends = [
        bob.click(claim, "Claim the win"),
        alice.slash("constructo place", tile=int(tiles[0]["value"]), size="small"),
    ]
    claimed, moved = await asyncio.gather(*(sends if claim_first else sends[::-1]))
    if not claim_first:
        claimed, moved = moved, claimed
    await asyncio.gather(answered(claimed), answered(moved))
    row = env.game(game_id)
    log = env.actions(game_id)
    assert row.version == version + 1 and len(log) == row.version, "exactly one action applied"
    if log[-1][2] == "timeout":
        assert row.status == "finished" and row.result["ranking"][0] == [bob.id]
        assert not claimed.ephemeral
        assert_refusal(moved, "over")
    else:
        assert row.status == "active" and log[-1][1] == alice.id
        assert not moved.ephemeral
        text = assert_refusal(claimed)
        assert "in time" in text or "nothing to claim" in text, text
    await server.wait_until(lambda: not server.message(claim.id).buttons(), 10, "the claim button removed")
    assert env.violations_since(mark) == [], env.log_tail()


async def test_both_players_click_rematch_at_the_same_moment_one_game(env: BotEnv) -> None:
    server = env.server
    mark = env.mark()
    ch = "rematch-race"
    game_id = await live_game_with_a_claim(env, ch)
    alice, bob = server.as_user("alice", ch), server.as_user("bob", ch)
    await answered(await bob.click(claims(env, ch)[-1], "Claim the win"))
    await server.wait_until(
        lambda: env.game(game_id).messages.get("board.version") == env.game(game_id).version, 10, "the result card"
    )
    card = server.message(env.game(game_id).messages["board"])
    a, b = await asyncio.gather(alice.click(card, "Rematch"), bob.click(card, "Rematch"))
    await asyncio.gather(answered(a), answered(b))
    new = env.latest_game("constructo")
    assert new.id == game_id + 1 and new.status == "active", "exactly one rematch"
    assert sorted(new.players) == sorted([alice.id, bob.id]) and new.state["clock"]["preset"] == "live"
    assert (
        new.state["options"].get("first", 0) != env.game(game_id).state["options"].get("first", 0)
        or new.players != env.game(game_id).players
    ), "the other player starts"
    boards = [r for r in (a, b) if r.message is not None and r.message.images]
    assert len(boards) == 1, [r.text for r in (a, b)]
    notes = [r.message for r in (a, b) if r.message is not None and not r.message.images and not r.ephemeral]
    for note in notes:  # the earlier click's public note: not left saying the other player is awaited
        await server.wait_until(lambda n=note: not server.message(n.id).buttons(), 10, "the note's button removed")
        assert f"{new.id}" in server.message(note.id).content, server.message(note.id).content
    assert env.violations_since(mark) == [], env.log_tail()


@pytest.mark.parametrize("early_s", [0.15, 0.0, -0.15])
async def test_accept_right_at_the_expiry_either_starts_or_expires(env: BotEnv, early_s: float) -> None:
    server = env.server
    mark = env.mark()
    ch = f"expiry-race-{early_s}"
    server.add_channel(ch)
    mod = server.as_user("mod", ch)
    await answered(await mod.slash("settings", expiry=1))
    alice, bob = server.as_user("alice", ch), server.as_user("bob", ch)
    res = await answered(await alice.slash("constructo challenge", opponent="bob"))
    challenge = res.message
    game = env.latest_game("constructo", server.channel(ch).id)
    with env.db() as conn:
        wake = conn.execute("SELECT wake_at FROM games WHERE id = ?", (game.id,)).fetchone()[0]
    assert wake is not None
    await asyncio.sleep(max(0.0, wake - early_s - time.time()))
    try:
        accept: InteractionResult | None = await answered(await bob.click(challenge, "Accept"))
    except CommandUsageError:  # the expiry came first and its edit reached the client: no button left
        accept = None
    await asyncio.sleep(1.0)  # the scheduler's look at the expiry, if it comes second
    row = env.game(game.id)
    content = server.message(challenge.id).content
    if row.status == "active":
        assert accept is not None and not accept.ephemeral, accept
        assert "expired" not in content
    else:
        assert row.status == "aborted"
        if accept is not None:
            assert "over;" not in assert_refusal(accept, "expired")
        # the expiry edits the challenge just after its commit: the status may be read before the edit is made
        await server.wait_until(
            lambda: "expired" in server.message(challenge.id).content and not server.message(challenge.id).buttons(),
            10,
            "the expired challenge rewritten without its buttons",
        )
    await answered(await mod.slash("settings", expiry=60))
    assert env.violations_since(mark) == [], env.log_tail()


async def test_every_discord_timestamp_the_bot_wrote_is_in_epoch_seconds(env: BotEnv) -> None:
    """Boards (the clock line), reminders, claims, ``/games`` rows: ``<t:N:R>`` with N in seconds around now (a
    value in milliseconds would show a date thousands of years away)."""
    server = env.server
    await answered(await server.as_user("mod", "games").slash("games"))
    stamps = [
        int(n)
        for ch in list(server.channels.values())
        for m in server.messages(ch)
        for n in re.findall(r"<t:(-?\d+)(?::[a-zA-Z])?>", m.content)
    ]
    assert len(stamps) >= 5, "boards, reminders and claims of this module carry timestamps"
    now = time.time()
    assert all(now - 2 * 86400 < n < now + 2 * 86400 for n in stamps), [n for n in stamps if abs(n - now) > 86400]


async def test_an_abort_offer_made_stale_by_a_move_aborts_nothing(env: BotEnv) -> None:
    server = env.server
    mark = env.mark()
    ch = "stale-offer"
    server.add_channel(ch)
    alice, bob = server.as_user("alice", ch), server.as_user("bob", ch)
    res = await answered(await alice.slash("constructo challenge", opponent="bob", clock="none"))
    await answered(await bob.click(res.message, "Accept"), followups=1)
    game = env.latest_game("constructo", server.channel(ch).id)
    offer = (await answered(await alice.slash("abandon"))).message
    assert offer is not None and offer.buttons()
    tiles = await alice.autocomplete("constructo place", "tile", "", size="small")
    moved = await answered(await alice.slash("constructo place", tile=int(tiles[0]["value"]), size="small"))
    assert not moved.ephemeral
    await server.wait_until(lambda: not server.message(offer.id).buttons(), 10, "the offer voided by the move")
    assert "no longer stands" in server.message(offer.id).content and "/abandon" in server.message(offer.id).content
    assert env.game(game.id).status == "active"
    again = await answered(await bob.slash("abandon"))
    assert "1/2" in again.text and f"<@{alice.id}>" in again.text
    await answered(await alice.click(again.message, "Agree to abort"))
    assert env.game(game.id).status == "aborted"
    assert env.violations_since(mark) == [], env.log_tail()


async def test_games_abort_of_a_pending_challenge_rewrites_it(env: BotEnv) -> None:
    server = env.server
    mark = env.mark()
    ch = "admin-clears"
    server.add_channel(ch)
    mod, alice = server.as_user("mod", ch), server.as_user("alice", ch)
    challenge = (await answered(await alice.slash("constructo challenge", opponent="carol"))).message
    game = env.latest_game("constructo", server.channel(ch).id)
    listing = await answered(await mod.slash("games"))
    ask = await answered(await mod.click(listing.message, f"Abort #{game.id}"))
    await answered(await mod.click(ask.message, "Yes, abort it"))
    assert env.game(game.id).status == "aborted"
    await server.wait_until(
        lambda: "closed this Constructo game" in server.message(challenge.id).content, 10, "the challenge rewritten"
    )
    shown = server.message(challenge.id)
    assert not shown.buttons() and "Accept or decline" not in shown.content and "mod" in shown.content.lower()
    assert env.violations_since(mark) == [], env.log_tail()
