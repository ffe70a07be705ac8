"""The translation function, the command translator and the single error-to-message mapping."""

from __future__ import annotations

import re
import string
from pathlib import Path

import discord
from discord import app_commands

from bot.errors import BotError, describe
from bot.i18n import COMMANDS, MESSAGES, CatalogueTranslator, language_of, t
from bot.storage.errors import GameClosedError, VersionConflictError
from engine.constructo import Match
from engine.errors import IllegalMoveError, InvalidInputError

BOT_DIR = Path(__file__).resolve().parents[2] / "bot"
KEY_RE = re.compile(r"""(?:\bt|BotError|has)\(\s*"([a-z_]+\.[A-Za-z_.]+)\"""")


def _fields(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


def test_every_key_used_in_the_bot_exists_in_english() -> None:
    used: set[str] = set()
    for path in BOT_DIR.rglob("*.py"):
        if "storage" in path.relative_to(BOT_DIR).parts:
            continue
        used |= set(KEY_RE.findall(path.read_text()))
    assert len(used) > 30  # the scan really found the keys
    missing = sorted(k for k in used if k not in MESSAGES["en"])
    assert not missing


def test_other_languages_are_subsets_with_the_same_placeholders() -> None:
    for lang, catalogue in MESSAGES.items():
        for key, template in catalogue.items():
            if key.startswith("rule."):
                continue
            if key.endswith(".many") and f"{key[:-5]}.other" in MESSAGES["en"]:  # a plural form English lacks
                key = f"{key[:-5]}.other"
            assert key in MESSAGES["en"], (lang, key)
            assert _fields(template) <= _fields(MESSAGES["en"][key]), (lang, key)


def test_t_translates_falls_back_and_never_raises() -> None:
    assert t("ui.accept", "es-ES") == "Aceptar"
    assert t("ui.accept", "es-419") == "Aceptar"
    assert t("ui.accept", discord.Locale.american_english) == "Accept"
    assert t("ui.size_option", "es-ES", size="small", left=2) == "small (quedan 2)"
    MESSAGES["en"]["test.only_english"] = "only {what}"
    try:
        assert t("test.only_english", "es-ES", what="English") == "only English"  # missing in Spanish: English
    finally:
        del MESSAGES["en"]["test.only_english"]
    assert t("ui.tile", "fr", tile=4) == "Tile 4"  # unknown language: English
    assert t("no.such.key", "en") == "no.such.key"
    assert t("ui.tile", "en") == "Tile {tile}"  # a missing placeholder does not raise
    assert language_of(None) == "en" and language_of("es-ES") == "es"


async def test_command_translator_uses_gettext_style_catalogue() -> None:
    tr = CatalogueTranslator()
    msgid = next(iter(COMMANDS["es"]))
    ctx = app_commands.TranslationContext(app_commands.TranslationContextLocation.group_description, None)
    spanish = await tr.translate(app_commands.locale_str(msgid), discord.Locale.spain_spanish, ctx)
    assert spanish == COMMANDS["es"][msgid]
    assert await tr.translate(app_commands.locale_str(msgid), discord.Locale.british_english, ctx) is None
    assert await tr.translate(app_commands.locale_str("unknown text"), discord.Locale.spain_spanish, ctx) is None


def test_engine_errors_keep_their_rule_code_and_message() -> None:
    match = Match.new("rombo")
    match.play("L5", player=0)
    try:
        match.play("M5", player=1)
    except IllegalMoveError as err:
        text = describe(err, "en-US")
    assert text.startswith("**T2** — ")
    assert "tile 5" in text


def test_spanish_rule_message_comes_from_the_catalogue() -> None:
    err = IllegalMoveError("a small chip may never go directly onto a large one", rule="K3", tile=4)
    assert describe(err, "es-ES") == "**K3** — " + MESSAGES["es"]["rule.K3"]
    assert describe(err, "en-US") == "**K3** — a small chip may never go directly onto a large one."


def test_input_errors_bot_errors_storage_errors_and_unknown_errors() -> None:
    assert describe(InvalidInputError("unknown chip size 'huge'"), "en") == "Unknown chip size 'huge'."
    assert describe(BotError("err.not_player"), "en") == MESSAGES["en"]["err.not_player"]
    assert describe(BotError("err.stale", rule="Stale"), "en") == MESSAGES["en"]["err.stale"]
    assert describe(BotError("cn.no_discard", rule="X3"), "en") == "**X3** — " + MESSAGES["en"]["cn.no_discard"]
    conflict = VersionConflictError("moved on", game_id=1, expected=1, actual=2)
    assert describe(conflict, "en") == MESSAGES["en"]["storage.VersionConflict"]
    closed = GameClosedError("game 1 is already finished", game_id=1, status="finished")
    assert describe(closed, "en") == MESSAGES["en"]["storage.GameClosed"]
    internal = describe(RuntimeError("secret internals"), "en")
    assert internal == MESSAGES["en"]["err.internal"] and "secret" not in internal
