"""E2E: the after-game pictures speak the reader's language, through the real bot process and the DevServer.

A finished Constructo match -> a Spanish-speaking player's Replay (GIF, move list), ``/constructo layouts`` and
``/leaderboard`` come in Spanish, an English-speaking player's in English; each text twin is written from the same
words object as its picture, and the two languages' GIFs differ (each language drawn and cached on its own).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from devserver.models import Message

from .helpers import BotEnv, answered, bot_env, recorded_board, resign

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with bot_env(Path(tmp_path_factory.mktemp("picture-words"))) as e:
        yield e


def files_of(messages: list[Message]) -> dict[str, bytes]:
    return {a.filename: a.data for m in messages for a in m.attachments}


async def test_replay_layouts_and_leaderboard_in_the_readers_language(env: BotEnv) -> None:
    server = env.server
    mark = env.mark()
    alice, bob, carol = server.as_user("alice"), server.as_user("bob"), server.as_user("carol")
    carol.user.locale = "es-ES"
    users = {alice.id: alice, bob.id: bob}
    res = await answered(await alice.slash("constructo challenge", opponent="bob"))
    game = env.latest_game("constructo", server.channel("games").id)
    await answered(await bob.click(res.message, "Accept"), followups=1)
    for _ in range(4):  # both move: the match is rated
        row = env.game(game.id)
        move = next(m for m in row.match.current_round.legal_moves() if m.is_place)
        user = users[row.players[row.match.current_player]]
        await answered(await user.slash("constructo place", tile=move.tile, size=move.size.word))
    await resign(bob)
    card = await recorded_board(env, game.id)  # the result card, recorded just after its followup

    spanish = await answered(await carol.click(card, "Replay"), timeout=60)
    english = await answered(await alice.click(card, "Replay"), timeout=60)
    assert "Ronda 1 · rombo · empieza" in spanish.text and "se rindió" in spanish.text, spanish.text
    assert "Round 1" not in spanish.text and "resigned" not in spanish.text  # the header's status line too
    assert spanish.text.count("se rindió") == 1, spanish.text  # said once: the move list's last line
    assert "Round 1 · rombo" in english.text and "resigned" in english.text, english.text
    gif = f"replay-{game.id}.gif"
    es_gif, en_gif = files_of(spanish.messages)[gif], files_of(english.messages)[gif]
    assert es_gif.startswith(b"GIF") and en_gif.startswith(b"GIF") and es_gif != en_gif

    sheet = await answered(await carol.slash("constructo layouts"))
    assert "Tableros de Constructo" in sheet.text and "recomendado" in sheet.text, sheet.text
    assert files_of(sheet.messages)["constructo-layouts.png"].startswith(b"\x89PNG")
    sheet_en = await answered(await alice.slash("constructo layouts"))
    assert "Constructo layouts" in sheet_en.text and "recommended" in sheet_en.text, sheet_en.text

    board = await answered(await carol.slash("leaderboard", game="constructo"))
    assert "— puntuación " in board.text and "— rating " not in board.text, board.text
    assert files_of(board.messages)["leaderboard-constructo.png"].startswith(b"\x89PNG")
    assert env.violations_since(mark) == [], env.log_tail()
    env.assert_alive()
