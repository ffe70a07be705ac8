"""E2E (issue 20, evidence 5, the small version of ``bench/bench_chaos.py``): six Constructo games at once (four
between humans, two against the AI), a quarter of the moves clicked twice, the real bot SIGKILLed or SIGTERMed
every 7-9 s (in turn) and started again; games are resigned after a few moves (final moves) and challenged again. Then,
once nothing is owed: 0 lost, 0 doubled, 0 finished games without a result card, 0 stored actions without a
board, and no player told "nothing was changed" about a saved move (``chaos_play.verdict``). SQLite; the bench
runs PostgreSQL too."""

from __future__ import annotations

import os
import signal
from pathlib import Path

from devserver import DevServer
from devserver.process import BotProcess

from .chaos_play import Chaos, verdict
from .conftest import E2E_TOKEN
from .outage_kit import Stored, check_gap_free, eventually


async def test_chaos_of_kills_and_double_clicks_loses_and_doubles_nothing(devserver: DevServer, tmp_path: Path) -> None:
    proc = BotProcess(devserver, tmp_path / "data", tmp_path / "bot.log", token=E2E_TOKEN)
    try:
        await proc.start()
        chaos = Chaos(devserver, proc, Stored(db=tmp_path / "data" / "tablebot.sqlite3"), seed=20)
        await chaos.open_games(humans=4, ai=2)
        await chaos.run(24.0, kill_every=(7.0, 9.0), moves_before_resign=6, think=0.5, sigterm_p=None, min_kills=2)
        await chaos.settle(timeout=40)
        v = await verdict(chaos)
    finally:
        await proc.stop()
    tally = chaos.tally
    summary = (
        f"kills {dict(tally.kills)}, intents {len(tally.intents)}, duplicates {tally.duplicates}, answers "
        f"{dict(tally.answers)}, games {v.games}, finished {v.finished}, actions {v.actions}"
    )
    assert tally.kills["SIGKILL"] >= 1 and tally.kills["SIGTERM"] >= 1, summary
    assert tally.answers["saved"] >= 6 and v.actions >= 12, f"too little play to judge: {summary}"
    assert v.lost == [], f"lost: {v.lost} ({summary})"
    assert v.doubled == [], f"doubled: {v.doubled} ({summary})"
    assert v.finished_without_card == [], f"finished without a result card: {v.finished_without_card}"
    assert v.without_board == [], f"stored actions without a board: {v.without_board}"
    assert v.lied == [], f"told 'nothing was changed' about saved moves: {v.lied}"


async def test_sigkill_between_posting_a_board_and_recording_it_posts_it_once(
    devserver: DevServer, tmp_path: Path
) -> None:
    """The chaos bench's one double post, made exact: the bot is SIGKILLed at the very moment Discord receives a
    move's board (``DevServer.on_request``), so the board is out but not recorded. Started again, the bot must not
    post that board a second time (it finds its own message instead), and the game goes on."""
    proc = BotProcess(devserver, tmp_path / "data", tmp_path / "bot.log", token=E2E_TOKEN)
    stored = Stored(db=tmp_path / "data" / "tablebot.sqlite3")
    try:
        await proc.start()
        alice, bob = devserver.as_user("alice"), devserver.as_user("bob")
        res = await (await alice.slash("constructo challenge", opponent="bob")).wait(20)
        await (await bob.click(res.message, "Accept")).wait(20, followups=1)

        def kill(_method: str, _path: str) -> None:
            assert proc.proc is not None
            os.kill(proc.proc.pid, signal.SIGKILL)

        for pattern in ("PATCH /webhooks/*/*/messages/@original", "POST /interactions/*/*/callback"):
            devserver.on_request(pattern, kill, files_only=True)
        await alice.slash("constructo place", tile=5, size="large")
        await devserver.wait_until(lambda: not proc.running, 20, "the bot killed as its board arrived")
        boards = [m for m in devserver.messages("games") if "L5" in m.content and m.images]
        assert len(boards) == 1, "the board reached Discord before the kill"
        await proc.kill()
        await proc.start()
        game = await stored.game(devserver.channel("games").id)

        async def recorded() -> None:
            g = await stored.game(devserver.channel("games").id)
            assert g.messages.get("board.version") == g.version == 2, g.messages
            assert await stored.effects(g.id) == []

        await eventually("the board recorded after the restart", recorded, timeout=40)
        boards = [m for m in devserver.messages("games") if "L5" in m.content and m.images]
        assert len(boards) == 1, f"the board of v2 was posted {len(boards)} times"
        await (await bob.slash("constructo place", tile=4, size="medium")).wait(20)
        check_gap_free(await stored.actions(game.id), (await stored.game(devserver.channel("games").id)).version)
    finally:
        await proc.stop()
