"""E2E: players whose Discord client speaks Spanish (``interaction.locale`` es-ES and es-419) in a server whose
language is Spanish play through the real bot process: every answer they read is Spanish, refusals name no internal
code, and the public board of a Spanish server is Spanish too. One bot process for every scenario."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from .helpers import BotEnv, answered, assert_refusal, bot_env, recorded_board

pytestmark = pytest.mark.asyncio(loop_scope="module")

INTERNAL = re.compile(r"NotYourTurn|\*\*Input\*\*|VersionConflict|GameClosed|card\(s\)|\(-0\.0")
ENGLISH = re.compile(r"\b(the|your|turn|tile|card|is not|does not)\b", re.IGNORECASE)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with bot_env(Path(tmp_path_factory.mktemp("spanish")), start=False) as e:
        e.server.guild(None).locale = "es-ES"
        e.server.user("alice").locale = "es-ES"
        e.server.user("bob").locale = "es-419"
        e.server.add_channel("ofertas")
        await e.proc.start()
        yield e


def spanish(text: str) -> str:
    assert text, "an empty answer"
    assert not INTERNAL.search(text), f"an internal name reached a player: {text!r}"
    assert not ENGLISH.search(text.replace("`", "")), f"English in a Spanish answer: {text!r}"
    return text


async def test_constructo_in_spanish_refusals_rules_resign_confirmation_and_result(env: BotEnv) -> None:
    server = env.server
    alice, bob = server.as_user("alice"), server.as_user("bob")
    res = await answered(await alice.slash("constructo challenge", opponent="bob"))
    assert "te desafía" in spanish(res.text)
    res = await answered(await bob.click(res.message, "Aceptar"), followups=1)
    assert "aceptó" in res.followups[-1].content or "Ronda 1" in res.followups[-1].content

    text = assert_refusal(await answered(await bob.slash("constructo place", tile=5, size="large")))
    assert spanish(text).startswith("No es tu turno")
    text = assert_refusal(await answered(await alice.slash("constructo place", tile=12, size="large")))
    assert spanish(text) == "La casilla 12 no existe: las casillas van del 1 al 9."
    await answered(await alice.slash("constructo place", tile=5, size="large"))
    await answered(await bob.slash("constructo place", tile=4, size="small"))
    text = assert_refusal(await answered(await bob.slash("constructo move", **{"from": 4, "to": 5})))
    assert text.startswith("No es tu turno")  # alice to move
    await answered(await alice.slash("constructo place", tile=1, size="large"))
    text = assert_refusal(await answered(await bob.slash("constructo move", **{"from": 4, "to": 5})))
    assert spanish(text).startswith("**K3** — una ficha pequeña nunca va directamente sobre una grande")

    rules = await answered(await bob.slash("constructo rules"))
    assert rules.ephemeral and "Constructo en breve" in rules.text

    ask = await answered(await bob.slash("constructo resign"))
    assert ask.ephemeral and "¿Rendirte en esta partida?" in spanish(ask.text)
    game = env.latest_game("constructo", server.channel("games").id)
    assert env.game(game.id).status == "active", "the command only asks, like the Resign button"
    done = await answered(await bob.click(ask.message, "Sí, me rindo"), followups=1)
    board = done.followups[-1].content
    assert "Fin de la partida: Bob se rindió, gana **Alice** (Alice 0 – 0 Bob en el tablero)." in board, board
    assert (
        "Cambios de puntuación: Alice 1500? → 1563? (+63)" in spanish(board) and env.game(game.id).status == "finished"
    )


async def test_conex_in_spanish_lobby_hints_and_refusals(env: BotEnv) -> None:
    server = env.server
    alice, bob, carol = (server.as_user(n, server.channel("games")) for n in ("alice", "bob", "carol"))
    lobby = await answered(await alice.slash("conex new"))
    assert "Sala de CONEX" in lobby.text
    labels = {c.get("label") for c in lobby.message.buttons()}
    assert {"Unirse", "Salir", "Añadir bot", "Empezar"} <= labels, labels
    await answered(await bob.click(lobby.message, "Unirse"))
    started = await answered(await alice.click(lobby.message, "Empezar"), followups=1)
    table = started.followups[-1]
    assert "Empieza CONEX: 2 jugadores" in table.content and "Le toca a" in table.content, table.content

    text = assert_refusal(await answered(await bob.slash("conex draw")))
    assert spanish(text).startswith("No es tu turno: le toca a")
    text = assert_refusal(await answered(await carol.slash("conex draw")))  # carol's client speaks English
    assert text.startswith("You are not a player of this game"), text
    text = assert_refusal(await answered(await alice.slash("conex place", card="Z", corner=1)))
    assert spanish(text)

    hints = await answered(await alice.slash("conex hints"), timeout=60)
    assert hints.ephemeral
    first = hints.text.splitlines()[0]
    assert first.startswith(("Buenas colocaciones", "Ninguna carta")), hints.text
    assert "esquina" in hints.text or "Ninguna carta" in hints.text

    drew = await answered(await alice.slash("conex draw"))
    assert "Alice robó 2 cartas." in drew.text and "Puntos: Alice: 0 · Bob: 0" in drew.text, drew.text
    hand = await answered(await alice.slash("conex hand"), timeout=60)  # the hand speaks Spanish too, text and image
    await env.server.wait_until(lambda: bool(hand.images), 30, "the hand's picture")
    assert "Tu mano (7 cartas)" in spanish(hand.text) and "esquinas" in hand.text, hand.text
    help_ = await answered(await bob.slash("help"))
    assert "double:true" in help_.text and "Juegos de mesa en Discord" in help_.text


async def test_constructo_against_the_ai_in_spanish(env: BotEnv) -> None:
    alice = env.server.as_user("alice", env.server.channel("games-2"))
    res = await answered(await alice.slash("constructo challenge", opponent="bot", level="easy"))
    text = "\n".join(m.content for m in res.messages)
    assert "contra la IA (fácil)" in text and "Sin puntuar" in text, text
    game = env.latest_game("constructo", env.server.channel("games-2").id)
    assert game.state["seats"][1]["name"] == "IA (fácil)"
    ask = await answered(await alice.slash("constructo resign"))
    await answered(await alice.click(ask.message, "Sí, me rindo"), followups=1)


async def test_draw_offer_in_spanish(env: BotEnv) -> None:
    """A draw offered and accepted from the board's buttons: the buttons, the offer and the agreed draw in Spanish."""
    server = env.server
    here = server.channel("ofertas")
    alice, bob = server.as_user("alice", here), server.as_user("bob", here)
    res = await answered(await alice.slash("constructo challenge", opponent="bob"))
    await answered(await bob.click(res.message, "Aceptar"), followups=1)
    game = env.latest_game("constructo", here.id)
    await answered(await alice.slash("constructo place", tile=5, size="large"))
    await answered(await bob.slash("constructo place", tile=4, size="medium"))
    board = await recorded_board(env, game.id)  # each board is recorded just after the answer that carries it
    assert {"Ofrecer tablas", "Deshacer jugada"} <= {c.get("label") for c in board.buttons()}
    offered = await answered(await alice.click(board, "Ofrecer tablas"))
    assert "ofrece tablas" in spanish(offered.message.content), offered.message.content
    board = await recorded_board(env, game.id)
    done = await answered(await bob.click(board, "Aceptar tablas"))
    await server.wait_until(lambda: env.game(game.id).status == "finished", 20, "the agreed draw")
    last = await recorded_board(env, game.id)
    assert "Tablas acordadas" in spanish(last.content), last.content
    assert not done.ephemeral, done.text
