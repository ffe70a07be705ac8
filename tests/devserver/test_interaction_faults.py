"""Late or failed first responses (issue 13.5): ``inject_interaction_failure`` makes Discord answer 10062 to the
first response of matching interactions, or delivers them late; a second try is a recorded violation."""

from __future__ import annotations

from devserver import DevServer

from .conftest import TinyBot


async def test_10062_on_the_first_response_kills_the_interaction(server: DevServer, bot: TinyBot) -> None:
    fault = server.inject_interaction_failure("retry")
    res = await server.as_user("alice").slash("retry")
    said = await server.wait_for_message(lambda m: "said in the channel" in m.content, channel="games", timeout=5)
    assert bot.events == ["retry:10062", "again:10062"]
    assert fault.hits == 1 and res.interaction.dead and res.failed and res.response_type is None
    assert [(e.status, e.body["code"], e.injected) for e in server.errors[:1]] == [(404, 10062, True)]
    assert [v.kind for v in server.violations] == ["dead_interaction_response"]  # Discord refuses a second try
    assert res.later_messages == [said]  # what the bot still could do: post in the channel
    again = await (await server.as_user("alice").slash("retry")).wait(5)
    assert again.content == "first try" and not again.failed  # count=1: only the next one failed


async def test_a_component_matches_by_custom_id_and_a_command_by_its_leading_words(
    server: DevServer, bot: TinyBot
) -> None:
    group = server.inject_interaction_failure("game", count=2)
    res = await (await server.as_user("alice").slash("game challenge", opponent="bob", rounds=1)).wait(5)
    assert res.failed and group.hits == 1 and res.interaction.key == "game challenge"
    group.count = group.hits  # stop failing "game ..."
    challenge = await (await server.as_user("alice").slash("game challenge", opponent="bob", rounds=1)).wait(5)
    accept = server.inject_interaction_failure("tiny:acc*")
    res = await (await server.as_user("bob").click(challenge.message, "Accept")).wait(5)  # type: ignore[arg-type]
    assert accept.hits == 1 and res.failed
    assert "challenges bob" in challenge.content  # the update response never applied
    assert server.violations == []  # the bot answered once, in time: Discord's fault, not the bot's


async def test_autocomplete_is_matched_only_when_asked(server: DevServer, bot: TinyBot) -> None:
    fault = server.inject_interaction_failure("game place")
    assert [c["value"] for c in await server.as_user("alice").autocomplete("game place", "tile", "3")] == ["3"]
    assert fault.hits == 0
    res = await (await server.as_user("alice").slash("game place", tile="3", size="small")).wait(5)
    assert res.failed and fault.hits == 1
    typed = server.inject_interaction_failure("game place", autocomplete=True)
    assert await server.as_user("alice").autocomplete("game place", "tile", "3") == []
    assert typed.hits == 1


async def test_a_delay_shortens_the_bots_three_seconds(server: DevServer, bot: TinyBot) -> None:
    server.inject_interaction_failure("png", code=None, delay=3.5)
    res = await (await server.as_user("alice").slash("png")).wait(5)
    assert res.failed and [v.kind for v in server.violations] == ["late_response"]
    assert res.interaction.created_at < server.clock.now() - 3.5  # backdated, nothing slept
    on_time = await (await server.as_user("alice").slash("png")).wait(5)
    assert on_time.content == "board"
    quick = server.inject_interaction_failure("png", code=None, delay=1.0)
    res = await (await server.as_user("alice").slash("png")).wait(5)
    assert quick.hits == 1 and res.content == "board" and res.interaction.responded_at is not None
    assert res.interaction.responded_at - res.interaction.created_at >= 1.0
