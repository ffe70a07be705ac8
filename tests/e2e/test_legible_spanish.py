"""E2E (legibility pass): an English server, alice chose Spanish (``/mysettings language:es``), bob reads English.
What alice reads privately names things in Spanish words: ``/conex board zoom:`` values, the specific refusal of
an unknown hand letter, the **Watch a game…** answer of ``/games`` (status line and picture) and the players
joined by "contra"; bob meanwhile reads English."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from .helpers import BotEnv, answered, assert_png, assert_refusal, bot_env

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with bot_env(Path(tmp_path_factory.mktemp("legible"))) as e:
        yield e


async def test_spanish_reader_of_an_english_server_reads_spanish_words(env: BotEnv) -> None:
    server = env.server
    alice, bob = server.as_user("alice", "general"), server.as_user("bob", "general")
    res = await answered(await alice.slash("mysettings", language="es"))
    assert res.text.startswith("Guardado."), res.text
    lobby = await answered(await alice.slash("conex new", table="small", goal=20))
    await answered(await bob.click(lobby.message, "Join"))
    await answered(await alice.click(lobby.message, "Start"), followups=1)
    game = env.latest_game("conex", server.channel("general").id)

    # 1. zoom values in words, in the reader's language
    zoom = await answered(await alice.slash("conex board", zoom="table"))
    assert zoom.ephemeral and zoom.text.startswith("Zoom en toda la mesa"), zoom.text
    assert_png(zoom.message.images[0])
    zoom = await answered(await alice.slash("conex board", zoom="last"))
    assert "última carta colocada" in zoom.text and "last" not in zoom.text, zoom.text
    zoom = await answered(await alice.slash("conex board", zoom="mesa"))  # the Spanish word is accepted too
    assert zoom.text.startswith("Zoom en toda la mesa"), zoom.text
    zoom = await answered(await bob.slash("conex board", zoom="table"))
    assert zoom.text.startswith("Zoom on the whole table"), zoom.text

    # 4. the specific refusal of a letter no hand card has, in Spanish as in English
    text = assert_refusal(await answered(await alice.slash("conex place", card="Z", corner=1)))
    assert text.startswith("Ninguna carta de tu mano tiene la letra Z: tus cartas son A"), text
    text = assert_refusal(await answered(await bob.slash("conex place", card="Z", corner=1)))
    assert text.startswith("Not your turn: it is Alice's turn."), text  # the turn is checked before the letter

    # 5. + 6. /games → Watch a game…: a private answer in the viewer's language; names joined in her words
    seen: dict[str, bytes] = {}
    for user, name in ((alice, "alice"), (bob, "bob")):
        listing = await answered(await user.slash("games"))
        assert listing.ephemeral
        watch = next(c for c in listing.message.buttons() if c.get("type") == 3)
        label = next(o["label"] for o in watch["options"] if o["value"] == str(game.id))
        assert ("Alice contra Bob" if name == "alice" else "Alice vs Bob") in label, label
        shown = await answered(await user.select(listing.message, str(game.id)))
        assert shown.ephemeral and shown.message is not None and shown.message.images, "the board, privately"
        seen[name] = shown.message.images[0]
        if name == "alice":
            assert "Le toca a" in shown.text and "Mazo de robo" in shown.text, shown.text
            assert "to play" not in shown.text and "Draw pile" not in shown.text, shown.text
        else:
            assert "to play" in shown.text and "Draw pile" in shown.text, shown.text
    assert seen["alice"] != seen["bob"], "the picture follows the viewer's language too"
    public = [m for m in server.messages("general") if not m.ephemeral and m.images]
    assert public and "Scores" in public[-1].content, "public messages stay in the server's language"

    # 6. the replay header joins the players in the reader's words, like the move list
    leave = await answered(await bob.slash("conex leave"))
    await answered(await bob.click(leave.message, "Yes, leave the game"))
    assert env.game(game.id).status == "finished"
    replay = await answered(await alice.slash("replay", game=game.id), timeout=60)
    assert "Alice contra Bob" in replay.text and " vs " not in replay.text, replay.text
    replay = await answered(await bob.slash("replay", game=game.id), timeout=60)
    assert "Alice vs Bob" in replay.text, replay.text
    log = env.proc.log()
    assert "Traceback" not in log and "unexpected error" not in log, env.log_tail(4000)
