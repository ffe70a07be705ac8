"""Discord's documented limits (design/discord-limits.md) as the DevServer validates them."""

from __future__ import annotations

from typing import Any

import pytest

from devserver.limits import MAX_FILE_BYTES, form_error_body, validate_commands, validate_message


def cmd(**over: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"name": "constructo", "description": "Play Constructo", "type": 1, "options": []}
    base.update(over)
    return base


def opt(name: str = "tile", typ: int = 3, **over: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"name": name, "description": "A tile", "type": typ}
    base.update(over)
    return base


def codes(problems: list[Any]) -> set[str]:
    return {p.code for p in problems}


def test_a_valid_tree_passes() -> None:
    sub = opt(
        "place",
        1,
        options=[
            opt("tile", 4, required=True, autocomplete=True),
            opt("size", 4, choices=[{"name": "small", "value": 1}]),
        ],
    )
    assert validate_commands([cmd(options=[sub]), cmd(name="help", description="Help")]) == []


@pytest.mark.parametrize("name", ["Constructo", "two words", "x" * 33, "", "bad!", "dé.fi"])
def test_command_name_regex_and_lowercase(name: str) -> None:
    assert "APPLICATION_COMMAND_INVALID_NAME" in codes(validate_commands([cmd(name=name)]))


@pytest.mark.parametrize("name", ["défi", "x" * 32, "tile_1", "it's", "नमस्ते", "ทดสอบ", "東京"])
def test_unicode_lowercase_names_are_accepted(name: str) -> None:
    assert validate_commands([cmd(name=name)]) == []


@pytest.mark.parametrize("desc", ["", "x" * 101])
def test_description_length_1_to_100(desc: str) -> None:
    assert "BASE_TYPE_BAD_LENGTH" in codes(validate_commands([cmd(description=desc)]))
    assert "BASE_TYPE_BAD_LENGTH" in codes(validate_commands([cmd(options=[opt(description=desc)])]))


def test_at_most_25_options_subcommands_and_choices() -> None:
    assert validate_commands([cmd(options=[opt(f"o{i}") for i in range(25)])]) == []
    assert "BASE_TYPE_MAX_LENGTH" in codes(validate_commands([cmd(options=[opt(f"o{i}") for i in range(26)])]))
    subs = [opt(f"s{i}", 1) for i in range(26)]
    assert "BASE_TYPE_MAX_LENGTH" in codes(validate_commands([cmd(options=subs)]))
    choices = [{"name": f"c{i}", "value": str(i)} for i in range(26)]
    assert "BASE_TYPE_MAX_LENGTH" in codes(validate_commands([cmd(options=[opt(choices=choices)])]))


def test_choice_name_and_value_lengths() -> None:
    long_value = [{"name": "ok", "value": "v" * 101}]
    empty_name = [{"name": "", "value": "v"}]
    assert "BASE_TYPE_BAD_LENGTH" in codes(validate_commands([cmd(options=[opt(choices=long_value)])]))
    assert "BASE_TYPE_BAD_LENGTH" in codes(validate_commands([cmd(options=[opt(choices=empty_name)])]))


def test_autocomplete_cannot_be_combined_with_choices() -> None:
    bad = opt(autocomplete=True, choices=[{"name": "a", "value": "a"}])
    assert "APPLICATION_COMMAND_OPTION_CHOICES_AUTOCOMPLETE" in codes(validate_commands([cmd(options=[bad])]))


def test_required_options_come_first_and_names_are_unique() -> None:
    problems = validate_commands([cmd(options=[opt("a"), opt("b", required=True), opt("a")])])
    assert {"APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID", "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS"} <= codes(
        problems
    )
    assert "APPLICATION_COMMANDS_DUPLICATE_NAME" in codes(validate_commands([cmd(), cmd()]))


def test_whole_command_at_most_8000_characters() -> None:
    choices = [{"name": "n" * 100, "value": "v" * 100} for _ in range(25)]  # 5000 characters per option
    assert validate_commands([cmd(options=[opt("a", choices=choices)])]) == []
    problems = validate_commands([cmd(options=[opt("a", choices=choices), opt("b", choices=choices)])])
    assert "APPLICATION_COMMAND_TOO_LARGE" in codes(problems)


def test_subcommand_groups_hold_only_subcommands_and_do_not_nest() -> None:
    group = opt("game", 2, options=[opt("tile", 3)])
    assert "APPLICATION_COMMAND_OPTION_TYPE_INVALID" in codes(validate_commands([cmd(options=[group])]))
    nested = opt("g", 2, options=[opt("s", 1, options=[opt("x", 1)])])
    assert "APPLICATION_COMMAND_OPTION_TYPE_INVALID" in codes(validate_commands([cmd(options=[nested])]))
    mixed = [opt("s", 1), opt("tile", 3)]
    assert "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID" in codes(validate_commands([cmd(options=mixed)]))


def test_error_body_is_nested_like_discord() -> None:
    body = form_error_body(validate_commands([cmd(options=[opt("Tile")])]))
    assert body["code"] == 50035 and body["message"] == "Invalid Form Body"
    assert body["errors"]["0"]["options"]["0"]["name"]["_errors"][0]["code"] == "APPLICATION_COMMAND_INVALID_NAME"


def button(i: int, **over: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": f"b{i}", "custom_id": f"id{i}", **over}


def row(*comps: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(comps)}


def select(n: int, **over: Any) -> dict[str, Any]:
    options = [{"label": f"o{i}", "value": f"v{i}"} for i in range(n)]
    return {"type": 3, "custom_id": "sel", "options": options, **over}


def test_message_content_2000() -> None:
    assert validate_message({"content": "x" * 2000}, []) == []
    assert "BASE_TYPE_MAX_LENGTH" in codes(validate_message({"content": "x" * 2001}, []))


def test_empty_message_is_refused_but_an_empty_edit_is_not() -> None:
    assert "EMPTY" in codes(validate_message({}, []))
    assert validate_message({}, [], edit=True) == []
    assert validate_message({}, [("a.png", b"x")]) == []


def test_embed_limits() -> None:
    assert "BASE_TYPE_MAX_LENGTH" in codes(validate_message({"embeds": [{"title": "t"}] * 11}, []))
    assert "BASE_TYPE_MAX_LENGTH" in codes(validate_message({"embeds": [{"title": "t" * 257}]}, []))
    assert "BASE_TYPE_MAX_LENGTH" in codes(validate_message({"embeds": [{"footer": {"text": "f" * 2049}}]}, []))
    fields = [{"name": "n", "value": "v"}] * 26
    assert "BASE_TYPE_MAX_LENGTH" in codes(validate_message({"embeds": [{"fields": fields}]}, []))
    assert "BASE_TYPE_BAD_LENGTH" in codes(
        validate_message({"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]}, [])
    )
    big = [{"description": "d" * 4000}, {"description": "d" * 2001}]
    assert "MESSAGE_EMBEDS_TOO_LARGE" in codes(validate_message({"embeds": big}, []))


def test_component_limits() -> None:
    ok = {"components": [row(*[button(i) for i in range(5)]), row(select(25))]}
    assert validate_message(ok, []) == []
    six_rows = {"components": [row(button(i)) for i in range(6)]}
    assert "BASE_TYPE_MAX_LENGTH" in codes(validate_message(six_rows, []))
    assert "COMPONENT_LAYOUT_WIDTH_EXCEEDED" in codes(validate_message({"components": [row(button(1), select(2))]}, []))
    assert "BASE_TYPE_BAD_LENGTH" in codes(validate_message({"components": [row(select(26))]}, []))
    assert "COMPONENT_CUSTOM_ID_DUPLICATED" in codes(
        validate_message({"components": [row(button(1)), row(button(1))]}, [])
    )
    assert "BASE_TYPE_BAD_LENGTH" in codes(validate_message({"components": [row(button(1, custom_id="c" * 101))]}, []))
    assert "BASE_TYPE_MAX_LENGTH" in codes(validate_message({"components": [row(button(1, label="l" * 81))]}, []))
    long_opt = select(1)
    long_opt["options"][0]["description"] = "d" * 101
    assert "BASE_TYPE_BAD_LENGTH" in codes(validate_message({"components": [row(long_opt)]}, []))
    link = {"type": 2, "style": 5, "label": "rules", "url": "https://example.org"}
    assert validate_message({"components": [row(link)]}, []) == []


def test_upload_limits_and_attachment_urls() -> None:
    assert validate_message({}, [("a.png", b"x" * MAX_FILE_BYTES)]) == []
    assert "FILE_TOO_LARGE" in codes(validate_message({}, [("a.png", b"x" * (MAX_FILE_BYTES + 1))]))
    assert "BASE_TYPE_MAX_LENGTH" in codes(validate_message({}, [(f"{i}.png", b"x") for i in range(11)]))
    embed = {"embeds": [{"image": {"url": "attachment://board.png"}}]}
    assert validate_message(embed, [("board.png", b"x")]) == []
    assert "ATTACHMENT_NOT_FOUND" in codes(validate_message(embed, [("other.png", b"x")]))
    txt = {"embeds": [{"image": {"url": "attachment://notes.txt"}}]}
    assert "ATTACHMENT_URL_TYPE" in codes(validate_message(txt, [("notes.txt", b"x")]))
