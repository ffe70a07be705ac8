"""Helpers of the live-table tests and bench: Debian's chromium through Playwright (never a downloaded browser),
the bot started with ``WEB_PORT``, pages opened as a devserver user (the Activity "launched" for them), and a
CONEX game set up through the real commands.

Without chromium (or Playwright) the browser tests are skipped with the reason, and fail when ``CI=true`` (as the
PostgreSQL and libfaketime tests do).
"""

from __future__ import annotations

import json
import math
import os
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from devserver.oauth import CLIENT_SECRET
from engine.conex import Game, Place
from engine.conex.geometry import centre_for_corner

from .helpers import BotEnv, answered, bot_env

CHROMIUM_PATHS = ("/usr/bin/chromium", "/usr/bin/chromium-browser")

PAGE_TIMEOUT_MS = 60_000
"""Playwright's waits on a page (30 s by default): the suite runs beside other work on 2 cores, and a wait that
passes only on a quiet machine proves nothing more."""


def chromium() -> str:
    """Debian's chromium, or skip (fail when ``CI=true``) naming what is missing."""
    found = next((p for p in (os.environ.get("CHROMIUM", ""), *CHROMIUM_PATHS) if p and Path(p).exists()), None)
    reason = None
    if found is None:
        reason = "chromium is not installed (apt-get install chromium): the live table's browser tests need it"
    else:
        try:
            import playwright.async_api  # noqa: F401
        except ImportError:
            reason = "playwright is not installed (pip install -e '.[test]')"
    if reason is not None:
        if os.environ.get("CI", "").strip().lower() == "true":
            pytest.fail(f"CI=true but {reason}")
        pytest.skip(reason)
    assert found is not None
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@asynccontextmanager
async def live_env(tmp: Path) -> AsyncIterator[tuple[BotEnv, str]]:
    """The devserver and the real bot serving the live table; yields ``(env, base URL of the live table)``."""
    port = free_port()
    extra = {"WEB_PORT": str(port), "WEB_HOST": "127.0.0.1", "DISCORD_CLIENT_SECRET": CLIENT_SECRET}
    async with bot_env(tmp, extra_env=extra) as env:
        yield env, f"http://127.0.0.1:{port}"


@asynccontextmanager
async def browser() -> AsyncIterator[Any]:
    """A headless chromium (Debian's) driven by Playwright."""
    from playwright.async_api import async_playwright

    path = chromium()
    async with async_playwright() as pw:
        b = await pw.chromium.launch(executable_path=path, args=["--no-sandbox", "--disable-gpu"])
        try:
            yield b
        finally:
            await b.close()


async def open_page(b: Any, env: BotEnv, base: str, user: str, channel_id: int, width: int = 1280) -> Any:
    """A page of ``user``: the Activity launched for them in ``channel_id`` (a one-time code), the state shown."""
    code = env.server.oauth.launch(user, channel_id).code
    page = await b.new_page(viewport={"width": width, "height": 800 if width > 600 else 820})
    page.set_default_timeout(PAGE_TIMEOUT_MS)
    await page.goto(f"{base}/?code={code}&channel={channel_id}&locale=en")
    await page.wait_for_function("document.body.dataset.version !== undefined", timeout=20000)
    return page


async def version_of(page: Any) -> int:
    return int(await page.evaluate("document.body.dataset.version"))


async def wait_version(page: Any, version: int, wait_ms: float = 20000) -> None:
    await page.wait_for_function(f"Number(document.body.dataset.version) >= {version}", timeout=wait_ms)


async def start_conex(env: BotEnv, channel: str, players: tuple[str, ...] = ("alice", "bob")) -> int:
    """A running CONEX game of ``players`` (the first hosts) in ``channel`` through the lobby buttons; its id."""
    server = env.server
    host = server.as_user(players[0], channel)
    res = await answered(await host.slash("conex new", table="small", goal=60))
    lobby = res.message
    for name in players[1:]:
        await answered(await server.as_user(name, channel).click(lobby, "Join"))
    await answered(await host.click(lobby, "Start"), followups=1)
    row = env.latest_game("conex", server.channel(channel).id)
    assert row.status == "active"
    return row.id


def legal_pose(game: Game, seat: int, *, turned: bool = False) -> tuple[Place, tuple[float, float]]:
    """A legal placement of ``seat`` (the finder's best over its hand; ``turned``: preferably one at least 30
    degrees from upright, so a test must rotate the card) and its card centre in mm."""
    found = [p for card in game.hands[seat] for p in game.find_placements(seat, card, limit=4 if turned else 1)]
    if not found:
        raise AssertionError("no legal placement in the hand")
    if turned:
        found.sort(key=lambda p: abs(turn_steps(0.0, p.rotation or 0.0)) < 2)
    place = found[0]
    corner = game.card(place.card).corner(place.corner)
    return place, centre_for_corner(corner, place.x * 10, place.y * 10, place.rotation or 0.0)


async def screen_point(page: Any, x_mm: float, y_mm: float) -> tuple[float, float]:
    """Where table point ``(x_mm, y_mm)`` is on the screen (CSS pixels)."""
    got = await page.evaluate(
        """([x, y]) => { const svg = document.getElementById('board'); const p = svg.createSVGPoint();
        p.x = x; p.y = y; const q = p.matrixTransform(svg.getScreenCTM()); return [q.x, q.y]; }""",
        [x_mm, y_mm],
    )
    return float(got[0]), float(got[1])


def turn_steps(start: float, goal: float, step: float = 15.0) -> int:
    """Signed number of ``step``-degree clicks from ``start`` to nearest ``goal`` (clockwise positive)."""
    delta = (goal - start + 180.0) % 360.0 - 180.0
    return math.floor(delta / step + 0.5)


def sent_hands(messages: list[str]) -> list[Any]:
    """The ``hands`` of every state message a page received (JSON texts)."""
    out = []
    for text in messages:
        msg = json.loads(text)
        if msg.get("op") == "state" and "hands" in msg.get("view", {}):
            out.append(msg["view"]["hands"])
    return out


def scripted_action(game: Game, seat: int) -> dict[str, Any]:
    """A plain player's next action for the page (the finder's best placement as a centre pose, else draw or
    pass): for scripted games (the bench, the screenshots)."""
    try:
        place, (cx, cy) = legal_pose(game, seat)
    except AssertionError:
        return {"type": "draw" if game.draw_pile else "pass"}
    return {"type": "place", "card": place.card, "corner": place.corner, "x": cx, "y": cy, "rotation": place.rotation}


async def play_scripted(env: BotEnv, game_id: int, pages: dict[int, Any], moves: int) -> list[float]:
    """Play up to ``moves`` actions of the running CONEX game ``game_id`` from the pages of its seats
    (``pages[seat]``), each through ``Live.act`` (what the page's Play button sends). Returns, per action, the ms
    from sending it to the **other** seats' pages having drawn the new state (the slowest of them), on the
    browser's one clock (``Date.now()``)."""
    latencies: list[float] = []
    for page in pages.values():
        await page.evaluate(
            "() => { window.seen = {}; window.onLiveState = (m) => { window.seen[m.version] = Date.now(); }; }"
        )
    for _ in range(moves):
        row = env.game(game_id)
        if row.status != "active":
            break
        game = row.conex
        seat = game.current_player
        action = scripted_action(game, seat)
        sent = await pages[seat].evaluate(
            "async (a) => { const t0 = Date.now(); const done = await Live.act(a); return [t0, done]; }", action
        )
        t0, done = sent
        assert done["ok"], done
        version = row.version + 1
        arrivals = []
        for other, page in pages.items():
            if other == seat:
                continue
            await page.wait_for_function(f"window.seen[{version}] !== undefined || Live.state.version > {version}")
            arrivals.append(await page.evaluate(f"window.seen[{version}] || Date.now()"))
        latencies.append(max(arrivals) - t0)
    return latencies
