"""E2E (issue 25, item 4): ``/learn constructo`` in English and ``/learn conex`` in Spanish, played through to the end
against the real bot process and the DevServer.

Each game in both languages. The tutorial is a real game against the easy AI in a thread of its own (the command's
answer is private; nothing is posted in the channel, not even the result card); the learner plays with the game's
own commands in that thread; the boards teach each rule in a sentence of the learner's language, each once, on the
boards where the learner is to act; the bot is restarted mid-tutorial (CONEX) and carries on; the closing message
offers a real game, and each of its buttons does what it says: the AI at a level, an open challenge, the quick
match.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.i18n import t
from devserver.models import Message

from .helpers import BotEnv, answered, assert_png, bot_env, queued, recorded_board, resign

pytestmark = pytest.mark.asyncio(loop_scope="module")

CHANNEL = "general"
MAX_TURNS = 80
CX_STEPS = ("layout", "place", "stack", "swallow", "tower", "round_end", "match")
CN_STEPS = ("hand", "corners", "no_touch", "score", "die", "stars", "draw", "goal")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    extra = {"THREAD_PER_GAME": "1"}  # the operator's default (the e2e bot's is off, as in the local console)
    async with bot_env(Path(tmp_path_factory.mktemp("learn")), extra_env=extra) as e:
        yield e


def taught(env: BotEnv, game_id: int) -> dict[str, int]:
    """The tutorial's stored progress: step -> the game version whose board first taught it."""
    with env.db() as conn:
        row = conn.execute("SELECT value FROM meta WHERE key = ?", (f"learn:{game_id}",)).fetchone()
    return dict(json.loads(row[0])["taught"]) if row else {}


async def board_for_learner(env: BotEnv, game_id: int, learner: int) -> tuple[Any, Message | None]:
    """Wait until the game waits for the learner (the AI answered) or is over, and its board of that version is
    out; returns the stored row and that board (``None`` once the game is over)."""
    server = env.server

    def ready() -> bool:
        row = env.game(game_id)
        shown = row.messages.get("board.version")
        if shown != row.version:
            return False
        return row.status != "active" or 0 in _awaiting(row)

    await server.wait_until(ready, 60, "the learner's board (after the AI's answer)")
    row = env.game(game_id)
    return row, server.message(row.messages["board"]) if row.status == "active" else None


def _awaiting(row: Any) -> tuple[int, ...]:
    return tuple(row.match.awaiting() if row.kind == "constructo" else row.conex.awaiting())


def said(env: BotEnv, channel_id: int) -> list[str]:
    """The contents of every message the bot posted in ``channel_id``, deleted boards included."""
    return [m.content for m in env.server.messages(channel_id, include_deleted=True) if m.author.bot]


def assert_taught_once(env: BotEnv, game_id: int, channel_id: int, prefix: str, locale: str, **words: Any) -> None:
    """Each step taught appears in exactly one board of the thread, in the learner's language."""
    steps = taught(env, game_id)
    boards = said(env, channel_id)
    for step in steps:
        sentence = t(f"{prefix}.learn.{step}", locale, **words)
        assert sum(sentence in b for b in boards) == 1, f"step {step} said {sum(sentence in b for b in boards)}x"


async def closing(env: BotEnv, game_id: int) -> Message:
    await env.server.wait_until(lambda: "learn_end" in env.game(game_id).messages, 60, "the closing message")
    return env.server.message(env.game(game_id).messages["learn_end"])


async def start(env: BotEnv, name: str, game: str, locale: str) -> tuple[Any, Any, Any]:
    """``name`` (whose Discord speaks ``locale``) types ``/learn <game>`` in the channel: the private answer links the
    tutorial's own thread; returns (the user acting in that thread, the stored game, the answer)."""
    server = env.server
    server.user(name).locale = locale
    user = server.as_user(name, CHANNEL)
    before = len(server.messages(CHANNEL, visible_to="all"))
    res = await answered(await user.slash(f"learn {game}"))
    assert res.ephemeral, "the answer is private"
    row = env.latest_game(game)
    assert row.players[0] == user.id and row.state["options"].get("tutorial") is True
    assert [s["ai"] for s in row.state["seats"]] == [None, "easy"] and row.state["locale"] == locale
    thread = server.channel(row.channel_id)
    assert thread.id != server.channel(CHANNEL).id and f"<#{thread.id}>" in res.text, "a thread of its own"
    assert len(server.messages(CHANNEL, visible_to="all")) - before <= 1, "nothing but the private answer"
    return user.in_channel(thread), row, res


async def play_constructo(env: BotEnv, me: Any, row: Any, locale: str) -> Any:
    """The learner plays a move onto a chip when there is one, else places their biggest chip, with the game's own
    commands in the thread, until the match ends; returns the finished row."""
    for turn in range(MAX_TURNS):
        row, board = await board_for_learner(env, row.id, me.id)
        if board is None:
            break
        if turn == 0:
            assert_png(board.images[0])
            assert t("cx.learn.layout", locale) in board.content and t("cx.learn.place", locale) in board.content
        moves = row.match.current_round.legal_moves()
        steps = [m for m in moves if not m.is_place]
        move = steps[0] if steps else max(moves, key=lambda m: m.size or 0)  # a move, else the biggest chip
        if move.is_place:
            await answered(await me.slash("constructo place", tile=move.tile, size=move.size.word))
        else:
            await answered(await me.slash("constructo move", **{"from": move.src, "to": move.dst}))
    row = env.game(row.id)
    assert row.status == "finished" and len(row.match.rounds) == 2, "both rounds of the match were played"
    assert_taught_once(env, row.id, row.channel_id, "cx", locale)
    assert set(taught(env, row.id)) == set(CX_STEPS), "the AI's gentle steer brought stacking and swallowing up"
    assert "result" not in row.messages, "a tutorial's result card stays in its thread"
    return row


async def play_conex(env: BotEnv, me: Any, row: Any, locale: str, *, restart_at: int | None = None) -> Any:
    """The learner draws (passes once the pile is empty) until the game ends, restarting the bot before its turn
    ``restart_at``; returns the finished row."""
    for turn in range(MAX_TURNS):
        row, board = await board_for_learner(env, row.id, me.id)
        if board is None:
            break
        if turn == 0:
            assert t("cn.learn.hand", locale) in board.content, board.content
            labels = {c.get("label") for r in board.components for c in r.get("components", [])}
            assert t("ui.cn_hand", locale) in labels, labels
        if turn == restart_at:  # mid-tutorial: the progress and the game are in the database
            before = taught(env, row.id)
            await env.proc.restart()
            row, board = await board_for_learner(env, row.id, me.id)
            assert taught(env, row.id) == before, "the stored progress is carried on"
            if board is None:
                break
        await answered(await me.slash("conex draw" if row.conex.draw_pile else "conex pass"))
    row = env.game(row.id)
    assert row.status == "finished"
    assert_taught_once(env, row.id, row.channel_id, "cn", locale, goal=20)
    assert {"hand", "corners", "draw", "goal"} <= set(taught(env, row.id))
    return row


async def offer(env: BotEnv, row: Any, locale: str, steps: tuple[str, ...]) -> Message:
    """The closing message: in the tutorial's thread and language, recapping the rules not met."""
    end = await closing(env, row.id)
    assert end.channel_id == row.channel_id and t("learn.offer", locale) in end.content
    assert (t("learn.recap", locale) in end.content) == (set(taught(env, row.id)) != set(steps))
    return end


async def test_learn_constructo_in_english_to_the_end_then_play_the_ai(env: BotEnv) -> None:
    me, row, res = await start(env, "alice", "constructo", "en-US")
    assert "tutorial" in res.text
    row = await play_constructo(env, me, row, "en-US")
    end = await offer(env, row, "en-US", CX_STEPS)
    labels = {c.get("label") for r in end.components for c in r.get("components", [])}
    assert {"Play the AI (easy)", "Play the AI (hard)", "Open a challenge", "Quick match"} <= labels, labels
    res = await answered(await me.click(end, "Play the AI (hard)"))
    assert res.message is not None and res.message.images, "the new game's board answers the click"
    real = env.latest_game("constructo")
    assert real.id != row.id and real.status == "active" and real.channel_id == row.channel_id
    assert "tutorial" not in real.state["options"] and [s["ai"] for s in real.state["seats"]] == [None, "hard"]
    await resign(me)
    # Rematch on the tutorial's last board: a real game against the same AI, not a second tutorial
    last = await recorded_board(env, row.id)
    res = await answered(await me.click(last, "Rematch"))
    again = env.latest_game("constructo")
    assert again.id not in (row.id, real.id) and again.status == "active", res.text
    assert "tutorial" not in again.state["options"] and [s["ai"] for s in again.state["seats"]] == [None, "easy"]
    assert t("cx.learn.layout", "en-US") not in res.text, "no lesson sentences on a real game's board"
    await answered(await me.slash("constructo resign"))


async def test_learn_constructo_in_spanish_then_open_a_challenge(env: BotEnv) -> None:
    me, row, res = await start(env, "carol", "constructo", "es-ES")
    assert "tutorial de Constructo" in res.text, res.text
    row = await play_constructo(env, me, row, "es-ES")
    end = await offer(env, row, "es-ES", CX_STEPS)
    await answered(await me.click(end, "Abrir un desafío"))
    challenge = env.latest_game("constructo")
    assert challenge.id != row.id and challenge.status == "lobby" and challenge.players == [me.id]
    assert challenge.state["options"].get("open") is True, "an open challenge anyone may accept"


async def test_learn_conex_in_spanish_survives_a_restart_and_offers_the_quick_match(env: BotEnv) -> None:
    me, row, res = await start(env, "bob", "conex", "es-ES")
    assert "tutorial de CONEX" in res.text and row.state["options"]["goal"] == 20, res.text
    row = await play_conex(env, me, row, "es-ES", restart_at=3)
    end = await offer(env, row, "es-ES", CN_STEPS)
    await answered(await me.click(end, "Partida rápida"))
    assert queued(env).get(me.id, ("", 0))[0] == "conex", "the quick match button queues the learner"
    await answered(await me.slash("play leave"))


async def test_learn_conex_in_english_then_play_the_easy_ai(env: BotEnv) -> None:
    me, row, _res = await start(env, "dave", "conex", "en-US")
    row = await play_conex(env, me, row, "en-US")
    end = await offer(env, row, "en-US", CN_STEPS)
    res = await answered(await me.click(end, "Play the AI (easy)"))
    assert res.message is not None
    real = env.latest_game("conex")
    assert real.id != row.id and real.status == "active" and real.channel_id == row.channel_id
    assert "tutorial" not in real.state["options"] and [s["ai"] for s in real.state["seats"]] == [None, "easy"]
