"""The devserver's check of every request against Discord's OpenAPI spec (``devserver/conformance.py``): the
vendored spec and its documented exceptions, operation lookup, parameters, bodies (JSON and multipart), the
discriminated-union rewrite, and the answers a real client gets (through the tiny discord.py bot)."""

from __future__ import annotations

import hashlib
import io
import json
from importlib import resources
from typing import Any

import aiohttp
import discord
import pytest

from devserver import DevServer, conformance
from devserver.conformance import Conformance, default_conformance
from devserver.openapi import EXCEPTIONS, SNOWFLAKE, SpecError, SpecException, discriminate, load_spec
from tests.devserver.conftest import TinyBot, png_bytes

SPEC_SHA256 = "8c1d0707ccdf8e380a86dfba04058820a66435c1b69d5ed82e04dd8c0520dd73"
COMMANDS = "/applications/1/guilds/2/commands"


def raw_spec() -> dict[str, Any]:
    return json.loads(resources.files("devserver").joinpath("spec", "openapi.json").read_text("utf-8"))


def command(max_value: int = 10, option_type: int = 4) -> dict[str, Any]:
    return {
        "name": "replay",
        "description": "Replay a game",
        "type": 1,
        "options": [
            {
                "type": option_type,
                "name": "game",
                "description": "Game number",
                "required": True,
                "min_value": 1,
                "max_value": max_value,
            }
        ],
    }


def message() -> dict[str, Any]:
    row = {
        "type": 1,
        "components": [
            {"type": 2, "style": 1, "label": "Go", "custom_id": "go"},
            {"type": 2, "style": 5, "label": "Rules", "url": "https://example.org"},
        ],
    }
    select = {"type": 1, "components": [{"type": 3, "custom_id": "pick", "options": [{"label": "a", "value": "a"}]}]}
    return {
        "content": "board",
        "embeds": [{"title": "t", "image": {"url": "attachment://board.png"}}],
        "components": [row, select],
        "attachments": [{"id": 0, "filename": "board.png"}],
        "allowed_mentions": {"parse": [], "users": ["12345"]},
    }


# ---------------------------------------------------------------------------------------------- the spec itself


def test_the_vendored_spec_ships_unchanged_with_its_licence() -> None:
    folder = resources.files("devserver").joinpath("spec")
    assert hashlib.sha256(folder.joinpath("openapi.json").read_bytes()).hexdigest() == SPEC_SHA256
    licence = folder.joinpath("LICENSE").read_text()
    assert "MIT License" in licence and "Copyright 2023 Discord" in licence
    readme = folder.joinpath("README.md").read_text()
    assert SPEC_SHA256 in readme and "Documented exceptions" in readme


def test_every_exception_still_matches_the_spec_text_it_replaces() -> None:
    spec = load_spec(raw_spec())
    assert spec["components"]["schemas"]["SnowflakeType"] == EXCEPTIONS[0].schema
    assert raw_spec()["components"]["schemas"]["SnowflakeType"] == SNOWFLAKE
    stale = SpecException("/components/schemas/SnowflakeType", {"type": "string"}, {}, "stale")
    with pytest.raises(SpecError, match="no longer matches"):
        load_spec(raw_spec(), (stale,))
    with pytest.raises(SpecError, match="no longer matches"):
        load_spec(raw_spec(), (SpecException("/components/schemas/NoSuchSchema/x", {}, {}, "gone"),))


# ---------------------------------------------------------------------------------------------- operations


def test_unknown_route_and_method_are_answered_like_discord() -> None:
    c = default_conformance()
    unknown = c.check("GET", "/channels/1/no-such-thing")
    assert (unknown.ok, unknown.status, unknown.code, unknown.problems[0].where) == (False, 404, 0, "route")
    wrong = c.check("DELETE", "/channels/1/messages")
    assert (wrong.status, wrong.template, wrong.problems[0].where) == (405, "/channels/{channel_id}/messages", "method")


def test_literal_segments_win_over_parameters() -> None:
    c = default_conformance()
    assert c.check("GET", "/applications/1/guilds/2/commands/permissions").operation_id == (
        "list_guild_application_command_permissions"
    )
    assert c.check("GET", "/applications/1/guilds/2/commands/3").operation_id == "get_guild_application_command"
    assert c.check("GET", "/users/@me").operation_id == "get_my_user"


def test_parameters_are_read_as_discord_coerces_them() -> None:
    c = default_conformance()
    assert c.check("GET", "/channels/123/messages", {"limit": ["50"], "before": ["99"]}).ok
    too_many = c.check("GET", "/channels/123/messages", {"limit": ["500"]})
    assert [(p.where, p.at, p.code) for p in too_many.problems] == [("query", ("limit",), "NUMBER_TYPE_MAX")]
    assert "500 is greater than the maximum of 100" in too_many.problems[0].message
    not_id = c.check("GET", "/channels/abc/messages")
    assert not_id.status == 400 and not_id.problems[0].at == ("channel_id",)
    assert c.check("GET", COMMANDS, {"with_localizations": ["true"]}).ok
    assert not c.check("GET", COMMANDS, {"with_localizations": ["maybe"]}).ok


# ---------------------------------------------------------------------------------------------- bodies


def test_command_tree_integer_range_is_the_spec_int53() -> None:
    c = default_conformance()
    assert c.check("PUT", COMMANDS, body=[command(2**53 - 1)]).ok
    over = c.check("PUT", COMMANDS, body=[command(2**53)])
    (problem,) = over.problems
    assert (over.status, over.code, over.operation_id) == (400, 50035, "bulk_set_guild_application_commands")
    assert problem.at == (0, "options", 0, "max_value") and problem.code == "NUMBER_TYPE_MAX"
    assert over.form_errors() == {
        "0": {
            "options": {
                "0": {
                    "max_value": {
                        "_errors": [
                            {
                                "code": "NUMBER_TYPE_MAX",
                                "message": "9007199254740992 is greater than the maximum of 9007199254740991",
                            }
                        ]
                    }
                }
            }
        }
    }
    assert problem.schema_path.startswith("/paths/~1applications~1{application_id}~1guilds~1{guild_id}~1commands/put")


def test_a_wrong_union_member_names_the_field() -> None:
    """Options and components are unions over ``type``: the error is the field of the member meant."""
    c = default_conformance()
    bad_type = c.check("PUT", COMMANDS, body=[command(option_type=99)])
    assert [(p.at, p.code) for p in bad_type.problems] == [((0, "options", 0, "type"), "BASE_TYPE_CHOICES")]
    body = message()
    body["components"][0]["components"][0]["label"] = "x" * 81
    long_label = c.check("POST", "/channels/1/messages", body=body)
    assert [p.at for p in long_label.problems] == [("components", 0, "components", 0, "label")]
    assert long_label.problems[0].message == "81 characters, at most 80 allowed"


def verdict_cases() -> list[tuple[str, str, Any, bool]]:
    """(method, path, body, valid per the published spec) for the verdict comparisons below."""
    cases: list[tuple[str, str, Any, bool]] = [
        ("PUT", COMMANDS, [command()], True),
        ("PUT", COMMANDS, [command(2**53)], False),
        ("PUT", COMMANDS, [command(option_type=99)], False),
        ("POST", "/channels/1/messages", message(), True),
    ]
    for key, value in (("type", 42), ("style", 9), ("custom_id", "z" * 101), ("label", "y" * 81)):
        broken = message()
        broken["components"][0]["components"][0][key] = value
        cases.append(("POST", "/channels/1/messages", broken, False))
    choices = {"type": 8, "data": {"choices": [{"name": str(i), "value": i} for i in range(26)]}}
    cases += [
        ("POST", "/interactions/1/tok/callback", choices, False),
        ("POST", "/interactions/1/tok/callback", {"type": 4, "data": {"content": "hi", "flags": 64}}, True),
    ]
    return cases


def test_the_union_rewrite_keeps_every_verdict() -> None:
    """``discriminate`` only skips branches that cannot match: valid and invalid bodies get the same verdict
    from the spec as published (exceptions applied) and from the rewritten one."""
    published = Conformance(load_spec(raw_spec(), fast=False), compiled=False)
    rewritten = Conformance(load_spec(raw_spec()), compiled=False)
    spec = load_spec(raw_spec(), fast=False)
    assert discriminate(spec) > 30 and discriminate(spec) == 0  # idempotent: nothing left to rewrite
    for method, path, body, valid in verdict_cases():
        assert published.check(method, path, body=body).ok is valid, (path, body)
        assert rewritten.check(method, path, body=body).ok is valid, (path, body)


def test_the_compiled_validator_agrees_with_jsonschema() -> None:
    """jsonschema-rs (the fast path for valid bodies) gives jsonschema's verdict on every case."""
    if conformance.jsonschema_rs is None:
        pytest.skip("jsonschema-rs is not installed")
    c = default_conformance()
    for method, path, body, valid in verdict_cases():
        _, _, ops = c.match(method, path)
        assert c.fast_valid(ops[method].body["application/json"], body) is valid, (path, body)
        assert c.check(method, path, body=body).ok is valid


def test_body_presence_and_content_type_are_checked() -> None:
    c = default_conformance()
    assert c.check("PUT", "/applications/1/commands").problems[0].code == "BASE_TYPE_REQUIRED"
    assert c.check("POST", "/channels/1/typing", body={"x": 1}).problems[0].where == "body"
    assert c.check("POST", "/channels/1/typing").ok
    plain = c.check("POST", "/channels/1/messages", body={"content": "x"}, content_type="text/plain")
    assert plain.problems[0].where == "content_type"


def test_multipart_payload_json_is_checked_with_its_files() -> None:
    c = default_conformance()
    good = c.check("POST", "/channels/1/messages", body=message(), content_type="multipart/form-data", files=[0])
    assert good.ok, good.summary()
    body = message()
    body["embeds"] = [{"title": "t"}] * 11
    too_many = c.check("POST", "/channels/1/messages", body=body, content_type="multipart/form-data", files=[0])
    assert [p.at for p in too_many.problems] == [("embeds",)]


def test_snowflakes_as_integers_are_the_documented_exception() -> None:
    c = default_conformance()
    kept = {"attachments": [{"id": 1577351257897566234}, {"id": 0, "filename": "new.png"}]}
    assert c.check("PATCH", "/channels/1/messages/2", body=kept).ok
    assert c.check("POST", "/users/@me/channels", body={"recipient_id": 1323802873036800011}).ok
    assert not c.check("POST", "/users/@me/channels", body={"recipient_id": -1}).ok
    assert not c.check("POST", "/users/@me/channels", body={"recipient_id": "01"}).ok
    strict = Conformance(load_spec(raw_spec(), ()))
    assert not strict.check("POST", "/users/@me/channels", body={"recipient_id": 1323802873036800011}).ok


# ---------------------------------------------------------------------------------------------- through the server


async def test_a_breaking_request_is_answered_like_discord_and_recorded(server: DevServer, bot: TinyBot) -> None:
    channel_id = server.channel("general").id
    route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=channel_id)
    checked = server.spec_stats.checked
    with pytest.raises(discord.HTTPException) as info:
        await bot.http.request(route, json={"content": "x", "embeds": [{"title": "t" * 300}]})
    assert info.value.status == 400 and info.value.code == 50035
    assert "embeds.0.title" in str(info.value) and "300 characters, at most 256 allowed" in str(info.value)
    (v,) = server.violations
    assert v.kind == "spec" and v.route == f"POST /channels/{channel_id}/messages" and v.status == 400
    assert v.details.operation_id == "create_message" and v.details.problems[0].at == ("embeds", 0, "title")
    assert server.messages("general") == []
    assert server.spec_stats.checked == checked + 1 and server.spec_stats.failed == 1
    assert server.errors[-1].note == "breaks Discord's spec"


async def test_record_mode_serves_the_request_and_off_checks_nothing(server: DevServer, bot: TinyBot) -> None:
    channel = bot.get_channel(server.channel("general").id)
    assert isinstance(channel, discord.TextChannel)
    route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=channel.id)
    server.conformance = "record"
    await bot.http.request(route, json={"content": "x", "allowed_mentions": {"parse": ["nobody"]}})
    assert [v.kind for v in server.violations] == ["spec"] and len(server.messages("general")) == 1
    server.conformance = "off"
    checked = server.spec_stats.checked
    await channel.send("fine", file=discord.File(io.BytesIO(png_bytes()), "board.png"))
    assert server.spec_stats.checked == checked and len(server.violations) == 1


async def test_a_whole_discord_py_session_conforms(server: DevServer, bot: TinyBot) -> None:
    """Login, command sync, a message with a file and components, an edit keeping the file, a DM: every request
    the unmodified discord.py client sends is checked, and none breaks the spec (exceptions included)."""
    channel = bot.get_channel(server.channel("general").id)
    assert isinstance(channel, discord.TextChannel)
    msg = await channel.send("board", file=discord.File(io.BytesIO(png_bytes()), "board.png"))
    await msg.edit(content="board 2", attachments=msg.attachments)
    user = await bot.fetch_user(server.users["bob"].id)
    await user.send("hello")
    assert server.violations == []
    ops = server.spec_stats.by_operation
    assert {"create_message", "update_message", "create_dm"} <= set(ops), ops
    assert server.spec_stats.checked >= 6 and server.spec_stats.failed == 0


def test_a_bad_conformance_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="conformance"):
        DevServer(conformance="strict")


async def test_a_multipart_payload_json_that_is_not_json_is_refused(server: DevServer) -> None:
    form = aiohttp.FormData()
    form.add_field("payload_json", "{not json", content_type="application/json")
    form.add_field("files[0]", png_bytes(), filename="a.png", content_type="image/png")
    url = f"{server.api_base}/channels/{server.channel('general').id}/messages"
    async with (
        aiohttp.ClientSession() as session,
        session.post(url, data=form, headers={"Authorization": "Bot test-token"}) as resp,
    ):
        assert resp.status == 400 and (await resp.json())["code"] == 50109
    assert server.messages("general") == [] and server.spec_stats.checked == 0


async def test_the_e2e_teardown_report_names_each_breaking_request(server: DevServer, bot: TinyBot) -> None:
    """What fails an end-to-end test (``tests/e2e/conftest.py``): nothing without a spec violation, then each
    breaking request's route and problem."""
    from tests.e2e.conftest import spec_violations_report

    assert spec_violations_report(server) is None
    route = discord.http.Route(
        "PUT", "/applications/{app}/guilds/{guild}/commands", app=server.application_id, guild=server.guild_id
    )
    with pytest.raises(discord.HTTPException):
        await bot.http.request(route, json=[command(2**53)])
    report = spec_violations_report(server)
    assert report is not None and "1 request(s)" in report
    assert f"PUT /applications/{server.application_id}/guilds/{server.guild_id}/commands -> 400" in report
    assert "0.options.0.max_value: 9007199254740992 is greater than the maximum of 9007199254740991" in report
