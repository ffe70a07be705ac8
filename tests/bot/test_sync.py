"""Command sync compares the bot's payload with what Discord reports (bot/sync.py)."""

from __future__ import annotations

from bot.sync import same_commands

LOCAL = [
    {
        "name": "help",
        "description": "Help",
        "type": 1,
        "options": [],
        "nsfw": False,
        "dm_permission": True,
        "default_member_permissions": None,
        "description_localizations": {"es-ES": "Ayuda"},
    },
    {
        "name": "abort",
        "description": "Abort",
        "type": 1,
        "default_member_permissions": 32,
        "options": [{"name": "game", "description": "Which", "type": 4, "required": False}],
    },
]


def remote() -> list[dict[str, object]]:
    """What Discord answers for LOCAL: ids, versions, defaults of its own, permissions as strings."""
    return [
        {
            "id": "1",
            "application_id": "9",
            "version": "7",
            "name": "help",
            "description": "Help",
            "type": 1,
            "dm_permission": True,
            "contexts": None,
            "description_localizations": {"es-ES": "Ayuda"},
            "name_localizations": None,
        },
        {
            "id": "2",
            "application_id": "9",
            "version": "8",
            "name": "abort",
            "description": "Abort",
            "type": 1,
            "default_member_permissions": "32",
            "options": [{"name": "game", "description": "Which", "type": 4}],
        },
    ]


def test_same_commands_despite_discord_s_own_fields_and_defaults() -> None:
    assert same_commands(LOCAL, remote())


def test_a_difference_or_a_missing_command_means_sync() -> None:
    changed = remote()
    changed[0]["description_localizations"] = {"es-ES": "Otra"}
    assert not same_commands(LOCAL, changed)
    assert not same_commands(LOCAL, remote()[:1])
    assert not same_commands(LOCAL, [])
    assert not same_commands(LOCAL, [*remote(), {"name": "old", "description": "x", "type": 1}])
