"""E2E (issue 20, evidence 5, the small version of ``bench/bench_chaos.py``): six Constructo games at once (four
between humans, two against the AI), a quarter of the moves clicked twice, the real bot SIGKILLed or SIGTERMed
every 7-9 s (in turn) and started again; games are resigned after a few moves (final moves) and challenged again. Then,
once nothing is owed: 0 lost, 0 doubled, 0 finished games without a result card, 0 stored actions without a
board, and no player told "nothing was changed" about a saved move (``chaos_play.verdict``). SQLite; the bench
runs PostgreSQL too."""

from __future__ import annotations

from pathlib import Path

from devserver import DevServer
from devserver.process import BotProcess

from .chaos_play import Chaos, verdict
from .conftest import E2E_TOKEN
from .outage_kit import Stored


async def test_chaos_of_kills_and_double_clicks_loses_and_doubles_nothing(devserver: DevServer,
                                                                          tmp_path: Path) -> None:
    proc = BotProcess(devserver, tmp_path / "data", tmp_path / "bot.log", token=E2E_TOKEN)
    try:
        await proc.start()
        chaos = Chaos(devserver, proc, Stored(db=tmp_path / "data" / "tablebot.sqlite3"), seed=20)
        await chaos.open_games(humans=4, ai=2)
        await chaos.run(24.0, kill_every=(7.0, 9.0), moves_before_resign=6, think=0.5, sigterm_p=None)
        await chaos.settle(timeout=40)
        v = await verdict(chaos)
    finally:
        await proc.stop()
    tally = chaos.tally
    summary = (f"kills {dict(tally.kills)}, intents {len(tally.intents)}, duplicates {tally.duplicates}, answers "
               f"{dict(tally.answers)}, games {v.games}, finished {v.finished}, actions {v.actions}")
    assert tally.kills["SIGKILL"] >= 1 and tally.kills["SIGTERM"] >= 1, summary
    assert tally.answers["saved"] >= 6 and v.actions >= 12, f"too little play to judge: {summary}"
    assert v.lost == [], f"lost: {v.lost} ({summary})"
    assert v.doubled == [], f"doubled: {v.doubled} ({summary})"
    assert v.finished_without_card == [], f"finished without a result card: {v.finished_without_card}"
    assert v.without_board == [], f"stored actions without a board: {v.without_board}"
    assert v.lied == [], f"told 'nothing was changed' about saved moves: {v.lied}"
