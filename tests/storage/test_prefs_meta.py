"""User preferences (language, colour-blind palette, theme) and the meta key/value table."""

from __future__ import annotations

import pytest

from bot.storage import PREF_KEYS, InvalidDataError, Storage


async def test_prefs_default_to_unset_and_update_only_given_keys(storage: Storage) -> None:
    assert await storage.get_prefs(5) == dict.fromkeys(PREF_KEYS)
    assert await storage.set_prefs(5, language="pt-BR", palette="okabe-ito") == {
        "language": "pt-BR",
        "palette": "okabe-ito",
        "theme": None,
        "alerts": None,
    }
    await storage.set_prefs(5, theme="light", alerts="dm")
    assert await storage.get_prefs(5) == {"language": "pt-BR", "palette": "okabe-ito", "theme": "light", "alerts": "dm"}
    await storage.set_prefs(5, palette=None)  # back to the default
    assert (await storage.get_prefs(5))["palette"] is None
    assert await storage.get_prefs(6) == dict.fromkeys(PREF_KEYS)


@pytest.mark.parametrize(
    "prefs",
    [{"colour": "red"}, {"language": "English please"}, {"palette": "Okabe Ito"}, {"theme": 3}, {"language": ""}],
)
async def test_bad_prefs_are_refused_and_change_nothing(storage: Storage, prefs: dict[str, object]) -> None:
    await storage.set_prefs(9, language="fr")
    with pytest.raises(InvalidDataError) as info:
        await storage.set_prefs(9, **{"theme": "dark", **prefs})  # type: ignore[arg-type]
    assert info.value.rule == "Input"
    assert await storage.get_prefs(9) == {"language": "fr", "palette": None, "theme": None, "alerts": None}


async def test_meta_set_replace_delete(storage: Storage) -> None:
    assert await storage.get_meta("command_tree_hash") is None
    await storage.set_meta("command_tree_hash", "abc123")
    await storage.set_meta("command_tree_hash", "def456")
    assert await storage.get_meta("command_tree_hash") == "def456"
    await storage.set_meta("command_tree_hash", None)
    assert await storage.get_meta("command_tree_hash") is None
    with pytest.raises(InvalidDataError):
        await storage.set_meta("", "x")
    with pytest.raises(InvalidDataError):
        await storage.set_meta("k", 5)  # type: ignore[arg-type]
