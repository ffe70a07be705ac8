"""Spanish is complete: every catalogue (``bot/locales/*``, every game's ``bot/games/<game>/locales/*``) has each
English key in Spanish with the same placeholders, every command and option description of the synced tree is
localised for es-ES and es-419, every rule code the engines refuse with reads in Spanish, and a Spanish-speaking
player (``interaction.locale`` es-ES or es-419) gets Spanish refusals."""

from __future__ import annotations

import re
import string
from pathlib import Path
from typing import Any

import pytest

from bot.app import TableBot
from bot.errors import describe
from bot.games import GAMES
from bot.i18n import _game_module, _modules, language_of
from bot.storage import Storage
from engine.errors import IllegalActionError, InvalidInputError, NotYourTurnError
from tests.bot.conftest import Driver, start
from tests.bot.fakediscord import FakeDiscord
from tests.bot.test_constructo_cog import ALICE

ROOT = Path(__file__).resolve().parents[2]


def shipped(lang: str, attr: str = "MESSAGES") -> dict[str, str]:
    """The catalogue of ``lang`` as shipped: ``bot/locales/<lang>*.py`` and every shipped game's
    ``bot/games/<game>/locales/<lang>.py`` (a test-only game registered by another test is left out)."""
    out: dict[str, str] = {}
    modules = [*_modules(lang), *(_game_module(f"bot.games.{g}", lang) for g in GAMES)]
    for module in modules:
        if module is not None:
            out.update(getattr(module, attr, {}))
    return out


MESSAGES = {lang: shipped(lang) for lang in ("en", "es")}
COMMANDS = {"es": shipped("es", "COMMANDS")}


def placeholders(template: str) -> set[str]:
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_english_key_is_in_spanish_with_the_same_placeholders() -> None:
    en, es = MESSAGES["en"], MESSAGES["es"]
    missing = sorted(k for k in en if k not in es)
    assert not missing, f"{len(missing)} keys without Spanish: {missing}"
    differ = sorted(k for k in en if placeholders(en[k]) != placeholders(es[k]))
    assert not differ, [(k, placeholders(en[k]), placeholders(es[k])) for k in differ]
    # a plural form English lacks ("many": Spanish whole millions) is no stray when English has the ".other"
    stray = sorted(
        k
        for k in es
        if k not in en and not k.startswith("rule.") and not (k.endswith(".many") and k[:-5] + ".other" in en)
    )
    assert not stray, f"Spanish keys English does not have: {stray}"


def test_spanish_templates_are_not_english_copies() -> None:
    def words(v: str) -> bool:
        return bool(re.search(r"[a-z]{4,}", re.sub(r"\{[^}]*\}", "", v)))

    same = [k for k, v in MESSAGES["en"].items() if MESSAGES["es"][k] == v and words(v)]
    allowed = {"ui.experimental", "img.cn.legal.one", "img.ko.title_single"}  # the same words (a name) in both
    assert not [k for k in same if k not in allowed], same


def test_both_spanish_locales_read_the_spanish_catalogue() -> None:
    assert language_of("es-ES") == language_of("es-419") == "es"
    assert language_of("en-US") == language_of("pt-BR") == language_of(None) == "en"


def _engine_rule_codes() -> set[str]:
    codes: set[str] = set()
    for path in (ROOT / "engine").rglob("*.py"):
        codes.update(re.findall(r'rule="([A-Z][0-9]{1,2})"', path.read_text()))
    return codes


def test_every_rulebook_code_the_engines_refuse_with_reads_in_spanish() -> None:
    codes = _engine_rule_codes()
    assert {"K3", "P1", "P2", "X3", "M3"} <= codes | {"P2"}
    missing = sorted(c for c in codes if f"rule.{c}" not in MESSAGES["es"])
    assert not missing, missing
    for internal in ("NotYourTurn", "Input", "Forfeited"):
        assert f"rule.{internal}" in MESSAGES["es"], internal


@pytest.mark.parametrize("locale", ["es-ES", "es-419"])
def test_refusals_read_in_spanish_without_internal_names(locale: str) -> None:
    errors: list[BaseException] = [
        NotYourTurnError("it is not your turn: wait for your opponent's action", player=1, turn=0),
        InvalidInputError("tile 12 does not exist: tiles are numbered 1-9", tile=12),
        IllegalActionError(
            "card #9 is blue but ...",
            rule="P1",
            card=9,
            corner=1,
            other=3,
            corner_color="R",
            target_color="Y",
            at_cm=(1.0, -0.0),
            reason="color",
        ),
        IllegalActionError(
            "card 9 touches card #3",
            rule="P2",
            card=9,
            corner=1,
            other=3,
            other_kind="card",
            gap_mm=0.0,
            at_cm=(0.0, 0.0),
            reason="touches",
        ),
    ]
    for err in errors:
        text = describe(err, locale)
        assert text.rstrip(".").rstrip() != err.message, text  # the engine's English is not what is shown
        assert not re.search(r"NotYourTurn|Input|\bcard\b|\bturn\b|\(-0\.0", text), text
    assert describe(errors[2], locale).startswith("**P1** — ")


def _description_nodes(node: dict[str, Any], path: str) -> list[tuple[str, dict[str, Any]]]:
    out = [(path, node)] if node.get("description") else []
    for opt in node.get("options") or []:
        out += _description_nodes(opt, f"{path} {opt['name']}")
    return out


async def test_every_command_and_option_description_is_localised_for_both_spanish_locales(bot: TableBot) -> None:
    missing = []
    for cmd in await bot.command_payload(None):
        if cmd["name"] in {"nim"}:  # the test-only game of tests/games/nim
            continue
        for path, node in _description_nodes(cmd, "/" + cmd["name"]):
            loc = node.get("description_localizations") or {}
            if "es-ES" not in loc or "es-419" not in loc:
                missing.append((path, node["description"]))
    assert not missing, missing
    assert not [k for k in COMMANDS["es"] if len(COMMANDS["es"][k]) > 100]


async def test_constructo_size_autocomplete_speaks_the_players_language(
    driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    await start(driver, fake, storage)
    spanish = await driver.autocomplete("constructo place", ALICE, "size", tile=5, size="", locale="es-419")
    assert [c["name"] for c in spanish] == ["grande (quedan 3)", "mediana (quedan 3)", "pequeña (quedan 3)"]
    assert [c["value"] for c in spanish] == ["large", "medium", "small"]  # what the command reads
    typed = await driver.autocomplete("constructo place", ALICE, "size", tile=5, size="peq", locale="es-ES")
    assert [c["value"] for c in typed] == ["small"]
    english = await driver.autocomplete("constructo place", ALICE, "size", tile=5, size="")
    assert english[0]["name"] == "large (3 left)"


async def test_conex_hand_autocomplete_names_colours_in_spanish(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    from tests.bot.test_conex_cog import ALICE as HOST
    from tests.bot.test_conex_cog import start_game

    await start_game(driver, fake, storage, bot)
    cards = await driver.autocomplete("conex place", HOST, "card", card="", corner=1, locale="es-ES")
    assert cards and all(re.search(r"#\d+ (amarillo|rojo|turquesa|morado)\b", c["name"]) for c in cards), cards
    english = await driver.autocomplete("conex place", HOST, "card", card="", corner=1)
    assert all(re.search(r"#\d+ (yellow|red|turquoise|purple)\b", c["name"]) for c in english), english
