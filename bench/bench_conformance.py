"""Cost of the devserver's check of a request against Discord's OpenAPI spec (``devserver/conformance.py``).

Usage: .venv/bin/python bench/bench_conformance.py [--repeat 20]
Times, per request kind, ``Conformance.check`` on the event loop's thread: the bot's whole command tree (the bulk
overwrite every start sends; translated, as synced), a board message (multipart, embed, two component rows), an
interaction callback with components, and a GET with query parameters. Three validators: the published spec in
``jsonschema`` only, the rewritten (type-discriminated) spec in ``jsonschema`` only, and the default (jsonschema-rs
first when installed). Median ms of ``--repeat`` runs, memo cleared each time; the load average is printed with
them (the machine is shared: compare figures taken at similar load).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.storage import Storage
from devserver.conformance import Conformance
from devserver.openapi import load_spec
from tests.bot.conftest import make_bot
from tests.bot.fakediscord import FakeDiscord
from tests.devserver.test_conformance import message


async def command_tree() -> list[dict[str, Any]]:
    """The bot's translated command tree, exactly as ``tree.sync`` sends it (a real TableBot, faked HTTP)."""
    tmp = Path(tempfile.mkdtemp(prefix="bench-conformance-"))
    storage = await Storage.open(str(tmp / "db.sqlite3"))
    bot = await make_bot(FakeDiscord(), storage, tmp)
    try:
        return await bot.command_payload(None)
    finally:
        await bot.close()
        await storage.close()


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def check_once(c: Conformance, method: str, path: str, query: dict[str, list[str]] | None, kw: dict[str, Any]) -> None:
    c._memo.clear()  # time the validation, not the memo
    assert c.check(method, path, query, **kw).ok


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    tree = asyncio.run(command_tree())
    board = message()
    callback = {"type": 4, "data": {"content": "board", "flags": 64, "components": board["components"]}}
    requests: list[tuple[str, str, str, dict[str, list[str]] | None, Any, str, list[int]]] = [
        (
            "command tree (bulk overwrite)",
            "PUT",
            "/applications/1/guilds/2/commands",
            None,
            tree,
            "application/json",
            [],
        ),
        ("board message (multipart)", "POST", "/channels/1/messages", None, board, "multipart/form-data", [0]),
        ("interaction callback", "POST", "/interactions/1/tok/callback", None, callback, "application/json", []),
        ("GET messages ?limit=50", "GET", "/channels/1/messages", {"limit": ["50"]}, None, "application/json", []),
    ]
    validators = {
        "published, jsonschema": Conformance(load_spec(fast=False), compiled=False),
        "rewritten, jsonschema": Conformance(load_spec(), compiled=False),
        "default (jsonschema-rs first)": Conformance(load_spec()),
    }
    print(f"load average before: {os.getloadavg()[0]:.2f}; tree: {len(tree)} commands")
    for label, method, path, query, body, ctype, files in requests:
        kw: dict[str, Any] = {"content_type": ctype, "files": files}
        if body is not None:
            kw["body"] = body
        row = []
        for name, c in validators.items():
            run = functools.partial(check_once, c, method, path, query, kw)
            run()  # warm: validators built, references resolved
            row.append(f"{name} {median_ms(run, args.repeat):.2f} ms")
        print(f"{label}: " + "; ".join(row))
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
