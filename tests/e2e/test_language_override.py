"""E2E: a player's own language (``/mysettings language:auto|en|es``, ``bot/services/language.py``) through the real
bot. An English Discord client that chose Spanish reads every private text in Spanish (the answer, refusals, the
CONEX hand, the turn-alert DM) while public messages stay in the server's language (English here); a Spanish client
that chose English reads English; ``auto`` follows the client again; the choice survives a restart."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from .helpers import BotEnv, answered, assert_refusal, bot_env

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with bot_env(Path(tmp_path_factory.mktemp("language")), extra_env={"ALERT_DELAY": "1"}) as e:
        e.server.user("carol").locale = "es-419"  # carol's Discord speaks Spanish; everyone else's English
        yield e


async def test_english_client_choosing_spanish_reads_spanish_privately_and_english_publicly(env: BotEnv) -> None:
    server = env.server
    alice, bob = server.as_user("alice", "general"), server.as_user("bob", "general")
    res = await answered(await alice.slash("mysettings", language="es"))
    assert res.ephemeral and res.text.startswith("Guardado.") and "Idioma: **español**" in res.text, res.text
    assert "Avisos de turno por MD" in res.text, res.text
    assert_refusal(
        await answered(await alice.slash("constructo place", tile=5, size="large")), "No hay ninguna partida"
    )
    assert_refusal(
        await answered(await bob.slash("constructo place", tile=5, size="large")), "There is no Constructo game"
    )

    lobby = await answered(await alice.slash("conex new", table="small", goal=20))
    assert not lobby.ephemeral and {"Join", "Start"} <= {c.get("label") for c in lobby.message.buttons()}
    await answered(await bob.click(lobby.message, "Join"))
    started = await answered(await alice.click(lobby.message, "Start"), followups=1)
    table = started.followups[-1]
    assert not table.ephemeral and "My hand" in {c.get("label") for c in table.buttons()}, "public: English"
    mine = await answered(await alice.slash("conex hand"))
    assert mine.ephemeral and "Tu mano (5 cartas)" in mine.text, mine.text
    theirs = await answered(await bob.slash("conex hand"))
    assert theirs.ephemeral and "Your hand (5 cards)" in theirs.text, theirs.text
    await answered(await server.as_user("mod", "general").slash("abort"))


async def test_turn_alert_dm_follows_the_chosen_language(env: BotEnv) -> None:
    server = env.server
    alice, bob = server.as_user("alice", "games"), server.as_user("bob", "games")
    res = await answered(await alice.slash("mysettings", alerts="on"))
    assert "**activados**" in res.text, res.text
    assert [m.content.startswith("Avisos de turno activados") for m in server.dm_messages("alice")] == [True]
    await answered(await bob.slash("constructo challenge", opponent="alice"))
    await answered(await alice.slash("constructo accept"))
    await answered(await bob.slash("constructo place", tile=5, size="large"))  # alice's turn: her alert
    await server.wait_until(lambda: len(server.dm_messages("alice")) == 2, 15, "alice's turn alert")
    assert server.dm_messages("alice")[-1].content.startswith("Te toca en Constructo"), "the DM in her language"
    await answered(await alice.slash("mysettings", alerts="off"))
    await answered(await server.as_user("mod", "games").slash("abort"))


async def test_spanish_client_choosing_english_then_auto(env: BotEnv) -> None:
    carol = env.server.as_user("carol", "games-2")
    assert "Idioma: el de tu Discord" in (await answered(await carol.slash("mysettings"))).text
    res = await answered(await carol.slash("mysettings", language="en"))
    assert res.text.startswith("Saved.") and "Language: **English**" in res.text, res.text
    assert_refusal(await answered(await carol.slash("conex hand")), "There is no CONEX game")
    res = await answered(await carol.slash("mysettings", language="auto"))
    assert res.text.startswith("Guardado.") and "Idioma: el de tu Discord" in res.text, res.text
    assert_refusal(await answered(await carol.slash("conex hand")), "No hay ninguna partida de CONEX")


async def test_the_choice_survives_a_restart(env: BotEnv) -> None:
    await env.proc.restart()
    alice = env.server.as_user("alice", "general")
    assert_refusal(
        await answered(await alice.slash("constructo place", tile=5, size="large")), "No hay ninguna partida"
    )
    res = await answered(await alice.slash("mysettings", language="auto"))
    assert "Language: your Discord's" in res.text and res.text.startswith("Saved."), res.text
    assert_refusal(
        await answered(await alice.slash("constructo place", tile=5, size="large")), "There is no Constructo game"
    )
    log = env.proc.log()
    assert "Traceback" not in log and "unexpected error" not in log, env.log_tail(4000)
    env.assert_alive()
