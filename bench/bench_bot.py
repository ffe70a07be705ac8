"""Bot cost per action, before/after the game layer: CPU per placement, engine state loads and storage reads per
action, and AI searches per position; with the real bot, storage (temp SQLite), engine and render, Discord faked
at discord.py's HTTP seams (tests/bot/fakediscord.py).

The script only drives slash commands and components and counts calls into the engine and storage from outside,
so it runs unchanged against any checkout of the bot (``--root``): run it on the main you branched from and on
your branch in one session and compare.

- **CPU per placement**: ``time.process_time()`` (every thread of the process: handlers, rendering, storage) from
  the dispatch of a human's placement to the moment every task it started is done; Constructo human vs human
  (the board select) and CONEX ``/conex place`` with an exact pose (3 seats, no AI, ``--cards`` on the table).
- **State loads per action**: top-level calls of ``Match/Game.from_dict`` and ``Match/Game.replay`` (a load
  inside another counts once), ``copy()`` calls apart; **storage reads**: ``get_game`` + ``active_game_in_channel``.
- **AI searches**: a Constructo match against the hard AI in which Alice answers the moment the AI's board
  appears, Discord taking ``--latency`` seconds per REST call (the AI's task is still stripping the previous
  board); every call of the engine's AI on a position already searched is a duplicate (target 0).

Run: ``.venv/bin/python bench/bench_bot.py [--root PATH] [--games N]``; figures go to BENCHMARKS.md with ``uptime``.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

PARSER = argparse.ArgumentParser(description=__doc__.splitlines()[0])
PARSER.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1], help="the checkout to measure")
PARSER.add_argument("--games", type=int, default=3, help="games per scenario")
PARSER.add_argument("--cards", type=int, default=20, help="table cards of the CONEX positions")
PARSER.add_argument("--latency", type=float, default=0.1, help="seconds per Discord REST call in the AI match")
ARGS = PARSER.parse_args()
ROOT = ARGS.root.resolve()
sys.path.insert(0, str(ROOT))

import logging  # noqa: E402

from discord.webhook.async_ import async_context  # noqa: E402

import bot  # noqa: E402
from bot.storage import Storage  # noqa: E402
from engine.conex import Game  # noqa: E402
from engine.constructo import Match  # noqa: E402
from tests.bot.conftest import Driver, make_bot  # noqa: E402
from tests.bot.fakediscord import BOT_ID, GUILD_ID, FakeDiscord, FakeWebhookAdapter  # noqa: E402

logging.basicConfig(level=logging.ERROR)
ALICE, BOB, CAROL = 1, 2, 3


class Counts:
    """Counts engine state loads (top level only), copies and storage reads."""

    def __init__(self) -> None:
        self.loads = 0
        self.copies = 0
        self.reads = 0
        self._depth = 0

    def wrap_loads(self, cls: Any, name: str) -> None:
        original = getattr(cls, name).__func__
        counts = self

        def load(klass: Any, *args: Any, **kwargs: Any) -> Any:
            if counts._depth == 0:
                counts.loads += 1
            counts._depth += 1
            try:
                return original(klass, *args, **kwargs)
            finally:
                counts._depth -= 1

        setattr(cls, name, classmethod(load))

    def wrap_copy(self, cls: Any) -> None:
        original = cls.copy
        counts = self

        def copy(state: Any) -> Any:
            counts.copies += 1
            counts._depth += 1
            try:
                return original(state)
            finally:
                counts._depth -= 1

        cls.copy = copy

    def wrap_reads(self, storage: Storage) -> None:
        for name in ("get_game", "active_game_in_channel"):
            original = getattr(storage, name)

            async def read(*args: Any, _original: Any = original, **kwargs: Any) -> Any:
                self.reads += 1
                return await _original(*args, **kwargs)

            setattr(storage, name, read)

    def snap(self) -> tuple[int, int, int]:
        return self.loads, self.copies, self.reads


COUNTS = Counts()
for _cls in (Match, Game):
    COUNTS.wrap_loads(_cls, "from_dict")
    COUNTS.wrap_loads(_cls, "replay")
    COUNTS.wrap_copy(_cls)


class Action:
    """CPU seconds and counter deltas of one dispatched action."""

    def __init__(self, cpu: float, before: tuple[int, int, int], after: tuple[int, int, int]) -> None:
        self.cpu = cpu
        self.loads, self.copies, self.reads = (a - b for a, b in zip(after, before, strict=True))


async def measured(work: Any) -> Action:
    before = COUNTS.snap()
    t0 = time.process_time()
    await work
    return Action(time.process_time() - t0, before, COUNTS.snap())


def board_of(fake: FakeDiscord, record: Any) -> dict[str, Any]:
    return fake.messages[record.messages["board"]]


async def constructo_placements(driver: Driver, fake: FakeDiscord, storage: Storage, games: int) -> list[Action]:
    """Human vs human: each game is challenged and accepted, then the player named on the board places through
    the board's select (8 placements per game: round 1's 9 tiles are not all filled)."""
    out: list[Action] = []
    for n in range(games):
        channel = 500 + n
        token = await driver.command("constructo challenge", ALICE, channel_id=channel, opponent=BOB)
        record = await storage.active_game_in_channel(channel)
        await driver.click(fake.originals[token], f"cx:acc:{record.id}", BOB)
        for _ in range(8):
            record = await storage.get_game(record.id)
            if record.status != "active":
                break
            board = board_of(fake, record)
            uid = int(re.search(r"<@(\d+)> to move", board["content"]).group(1))  # type: ignore[union-attr]
            select = next(
                c
                for row in board["components"]
                for c in row["components"]
                if c.get("custom_id", "").startswith("cx:pl:")
            )
            value = select["options"][0]["value"]
            out.append(await measured(driver.click(int(board["id"]), select["custom_id"], uid, values=[value])))
            assert (await storage.get_game(record.id)).version == record.version + 1, "the placement was refused"
    return out


async def conex_places(driver: Driver, fake: FakeDiscord, storage: Storage, games: int) -> list[Action]:
    """``/conex place`` with an exact pose, on stored 3-seat positions of about ``--cards`` table cards (no AI)."""
    out: list[Action] = []
    for n in range(games):
        game = Game.new(players=3, seed=100 + n, table="medium", goal=100)
        while not game.is_over:  # place while a hand keeps 3+ cards, else draw; stop at --cards, a seat able to place
            seat = game.current_player
            places = [p for cid in game.hands[seat] for p in game.find_placements(seat, cid, limit=1)]
            if len(game.table) >= ARGS.cards and len(places) >= 1 and len(game.hands[seat]) >= 3:
                break
            if places and len(game.hands[seat]) >= 3:
                game.play(places[0])
            else:
                game.play_text("draw" if game.pile else "pass", seat)
        players = [ALICE, BOB, CAROL]
        state = {
            "conex": game.to_dict(),
            "table": "medium",
            "goal": 100,
            "host": ALICE,
            "names": ["alice", "bob", "carol"],
            "ai": [],
            "locale": None,
        }
        channel = 700 + n
        gid = await storage.create_game("conex", GUILD_ID, channel, state, players, status="active")
        for _ in range(3):
            record = await storage.get_game(gid)
            state_dict = record.state.get("engine") or record.state["conex"]
            live = Game.from_dict(dict(state_dict))
            seat = live.current_player
            places = [p for cid in live.hands[seat] for p in live.find_placements(seat, cid, limit=1)]
            if not places:
                break
            p = places[0]
            action = await measured(
                driver.command(
                    "conex place",
                    players[seat],
                    channel_id=channel,
                    card=str(p.card),
                    corner=p.corner,
                    x=p.x,
                    y=p.y,
                    rotation=p.rotation,
                )
            )
            assert (await storage.get_game(gid)).version == record.version + 1, "the placement was refused"
            out.append(action)
    return out


def click_now(driver: Driver, fake: FakeDiscord, message: dict[str, Any], custom_id: str, uid: int, value: str) -> None:
    """Dispatch a select choice without waiting for anything it starts (a player answering at once)."""
    payload, token = driver._base(3, uid, int(message["channel_id"]))
    payload["data"] = {"custom_id": custom_id, "component_type": 3, "values": [value]}
    payload["message"] = message
    fake.component_message[token] = int(message["id"])
    driver.bot._connection.parse_interaction_create(payload)


async def ai_match(driver: Driver, fake: FakeDiscord, storage: Storage, latency_s: float) -> tuple[int, int, int]:
    """Alice against the hard AI until the match ends, answering the moment the AI's board appears while Discord
    takes ``latency_s`` per REST call: (AI searches, duplicate searches, AI positions)."""
    from engine.constructo import ai

    searched: Counter[tuple[tuple[int, str], ...]] = Counter()
    originals = (ai.choose_move, ai.choose_layout, fake.http_request)

    def choose_move(match: Any, *args: Any, **kwargs: Any) -> Any:
        searched[tuple(match.history)] += 1
        return originals[0](match, *args, **kwargs)

    def choose_layout(match: Any, *args: Any, **kwargs: Any) -> Any:
        searched[tuple(match.history)] += 1
        return originals[1](match, *args, **kwargs)

    async def slow_request(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(latency_s)
        return await originals[2](*args, **kwargs)

    ai.choose_move, ai.choose_layout = choose_move, choose_layout
    driver.bot.http.request = slow_request  # type: ignore[method-assign]
    channel = 900
    try:
        await driver.command("constructo challenge", ALICE, channel_id=channel, opponent=BOT_ID, level="hard")
        record = await storage.active_game_in_channel(channel)
        answered: set[int] = set()
        for _ in range(20000):
            record = await storage.get_game(record.id)
            if record.status != "active":
                break
            board_id = record.messages.get("board")
            board = fake.messages.get(board_id) if board_id else None
            ids = [
                c
                for row in (board or {}).get("components", [])
                for c in row["components"]
                if c.get("custom_id", "").startswith(("cx:pl:", "cx:mv:", "cx:lay:"))
            ]
            if board is None or board_id in answered or not ids or f"<@{ALICE}>" not in board["content"]:
                await asyncio.sleep(0.002)
                continue
            answered.add(board_id)
            click_now(driver, fake, board, ids[0]["custom_id"], ALICE, ids[0]["options"][0]["value"])
        await driver.settle()
    finally:
        ai.choose_move, ai.choose_layout = originals[:2]
        driver.bot.http.request = originals[2]  # type: ignore[method-assign]
    searches = sum(searched.values())
    return searches, searches - len(searched), len(searched)


def summary(name: str, actions: list[Action]) -> str:
    cpu = [a.cpu * 1000 for a in actions]
    loads = Counter(a.loads for a in actions)
    return (
        f"| {name} | {len(actions)} | {statistics.median(cpu):.1f} | {statistics.mean(cpu):.1f} | "
        f"{statistics.mean(a.loads for a in actions):.2f} ({dict(sorted(loads.items()))}) | "
        f"{statistics.mean(a.copies for a in actions):.2f} | {statistics.mean(a.reads for a in actions):.2f} |"
    )


async def main(games: int) -> None:
    import render.conex  # imported before measuring: no first-use import in an action's CPU
    import render.constructo
    import render.results  # noqa: F401

    fake = FakeDiscord()
    async_context.set(FakeWebhookAdapter(fake))
    with tempfile.TemporaryDirectory() as tmp:
        storage = await Storage.open(Path(tmp) / "bench.sqlite3")
        COUNTS.wrap_reads(storage)
        bot_ = await make_bot(fake, storage, Path(tmp))
        driver = Driver(bot_, fake)
        constructo = await constructo_placements(driver, fake, storage, games)
        conex = await conex_places(driver, fake, storage, games)
        searches, duplicates, turns = await ai_match(driver, fake, storage, ARGS.latency)
        await bot_.close()
        await storage.close()
    print(f"code: {ROOT} (bot package {Path(bot.__file__).parent})")
    print("| action | n | CPU ms p50 | CPU ms mean | state loads / action (histogram) | copies | storage reads |")
    print("|---|---|---|---|---|---|---|")
    print(summary("Constructo placement (select)", constructo))
    print(summary(f"CONEX /conex place (exact pose, {ARGS.cards} cards)", conex))
    print(
        f"Constructo vs hard AI, answering at once, {1000 * ARGS.latency:.0f} ms per REST call: {turns} AI "
        f"positions, {searches} searches, {duplicates} duplicate searches"
    )


if __name__ == "__main__":
    asyncio.run(main(ARGS.games))
