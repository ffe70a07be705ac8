"""E2E (issue 22, "Words players can abuse"): text the bot builds from user-controlled strings never notifies anyone
it does not mean to. Players named ``@everyone``, ``<@carol>`` and ``<@&Moderator> @here`` challenge, play and offer
an abort through the real bot process; the devserver applies Discord's ``allowed_mentions`` rules to every message
(``Message.pinged_users/roles/everyone``): only the challenged user, the player to move and the players whose
agreement is awaited are notified; nobody else, no role, never ``@everyone``/``@here``. On a short test clock, the
reminder notifies the late player only, the claim message the players who may claim, the result card no role and
nobody else, and a rematch offer the player whose click is awaited.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from devserver.models import User, fixed_id

from .helpers import BotEnv, answered, bot_env

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    # a short test clock (as tests/e2e/test_clocks.py): a live move lasts 2.4 s, its reminder comes at 1.8 s
    async with bot_env(Path(tmp_path_factory.mktemp("mentions")), extra_env={"TABLEBOT_CLOCK_SCALE": "0.008"}) as e:
        await e.ready()
        yield e


def add_user(env: BotEnv, key: str, name: str, n: int) -> User:
    """A guild member whose username and display name is ``name`` (any text a player may choose)."""
    user = User(id=fixed_id(900 + n), name=name)
    env.server.users[key] = user
    return user


async def test_names_with_mentions_ping_nobody_but_the_intended(env: BotEnv) -> None:
    server = env.server
    mark = env.mark()
    carol = server.user("carol")
    role = server.guild().mod_role_id
    everyone = add_user(env, "m_everyone", "@everyone", 1)
    fake_carol = add_user(env, "m_carol", f"<@{carol.id}>", 2)
    fake_role = add_user(env, "m_role", f"<@&{role}> @here", 3)
    eve, fake, rolly = (server.as_user(k) for k in ("m_everyone", "m_carol", "m_role"))

    # a challenge by "@everyone" of "<@carol>": only the challenged user is notified
    res = await answered(await eve.slash("constructo challenge", opponent=str(fake_carol.id)))
    challenge = res.message
    shown = challenge.content.replace("\u200b", "")  # the name as typed (a zero-width space defuses @everyone)
    assert not challenge.ephemeral and "@everyone" in shown, challenge.content
    assert challenge.pinged_users == [fake_carol.id], challenge.pinged_users
    assert not challenge.pinged_everyone and challenge.pinged_roles == []

    # the board after Accept notifies the player to move, and only them
    res = await answered(await fake.click(challenge, "Accept"), followups=1)
    board = res.followups[-1]
    game = env.latest_game("constructo")
    to_move = game.players[game.match.current_player]
    assert f"<@{to_move}>" in board.content, board.content
    assert board.pinged_users == [to_move], (board.content, board.pinged_users)

    # /abandon by "<@&Moderator> @here": the other player's agreement is awaited, so they (only) are notified
    offer = await answered(await (eve if to_move != everyone.id else fake).slash("abandon"))
    other = fake_carol.id if to_move != everyone.id else everyone.id
    assert not offer.ephemeral and offer.message is not None
    assert offer.message.pinged_users == [other], (offer.message.content, offer.message.pinged_users)

    # a CONEX lobby hosted by the role-named player, joined by "@everyone": the lobby notifies nobody
    lobby = (await answered(await rolly.in_channel("general").slash("conex new", table="small", goal=20))).message
    await answered(await eve.in_channel("general").click(lobby, "Join"))
    start = await answered(await rolly.in_channel("general").click(lobby, "Start"), followups=1)
    table = start.followups[-1]
    xgame = env.latest_game("conex")
    xmove = xgame.players[xgame.conex.current_player]
    assert table.pinged_users == [xmove], (table.content, table.pinged_users)
    assert server.message(lobby.id).pinged_users == []

    # nowhere: @everyone/@here, a role, or carol (who only appears as a name)
    for msg in server.all_messages():
        assert not msg.pinged_everyone, msg.content
        assert msg.pinged_roles == [], msg.content
        assert carol.id not in msg.pinged_users, msg.content
        assert msg.allowed_mentions is not None, f"no allowed_mentions on {msg.content!r}"
    assert fake_role.id not in {u for m in server.all_messages() for u in m.pinged_users if m.id == lobby.id}
    assert env.violations_since(mark) == [], env.log_tail()
    env.assert_alive()


async def test_reminder_and_claim_ping_exactly_whom_they_name(env: BotEnv) -> None:
    server = env.server
    mark = env.mark()
    late = add_user(env, "m_late", "@here", 4)
    waiting = add_user(env, "m_wait", f"<@&{server.guild().mod_role_id}>", 5)
    first, second = server.as_user("m_late", "games-2"), server.as_user("m_wait", "games-2")
    res = await answered(await first.slash("constructo challenge", opponent=str(waiting.id), clock="live"))
    await answered(await second.click(res.message, "Accept"), followups=1)
    game = env.latest_game("constructo", server.channel("games-2").id)
    mover = game.players[game.match.current_player]
    other = waiting.id if mover == late.id else late.id
    channel = server.channel("games-2").id

    def find(mark_: str) -> list[Any]:
        return [m for m in server.messages(channel) if m.content.startswith(mark_)]

    await server.wait_until(lambda: find("⏰"), 20, "the reminder")
    reminder = find("⏰")[0]
    assert reminder.pinged_users == [mover] and not reminder.pinged_everyone and reminder.pinged_roles == []
    await server.wait_until(lambda: [m for m in find("⌛") if "claim" in m.content], 20, "the claim message")
    claim = next(m for m in find("⌛") if "claim" in m.content)
    assert claim.pinged_users == [other], (claim.content, claim.pinged_users)
    assert not claim.pinged_everyone and claim.pinged_roles == []

    # the win claimed: the result card (names: "<@&role>" and "@here" as text, the role's markup made plain by
    # bot/core/names.py so it is not drawn as the role) may notify its players only, no role; a rematch offer
    # notifies only the player whose click is awaited
    users = {late.id: first, waiting.id: second}
    won = await answered(await users[other].click(claim, "Claim the win"))
    card = won.message if won.message is not None and won.message.images else won.followups[-1]
    assert env.game(game.id).status == "finished"
    role = server.guild().mod_role_id
    shown = card.content.replace("\u200b", "")
    assert f"\u2039@&{role}>" in shown and f"<@&{role}>" not in card.content and "@here" in shown
    assert set(card.pinged_users) <= {late.id, waiting.id} and card.pinged_roles == [] and not card.pinged_everyone
    offer = await answered(await users[mover].click(card, "Rematch"))
    assert offer.message is not None and not offer.message.ephemeral
    assert offer.message.pinged_users == [other], (offer.message.content, offer.message.pinged_users)
    assert all(not m.pinged_everyone and not m.pinged_roles for m in server.messages(channel))
    assert env.violations_since(mark) == [], env.log_tail()
    env.assert_alive()
