"""Screenshots of the live table (README "The live table"): both games at 400 px (a phone) and 1280 px wide,
taken in Debian's chromium from the real bot and the devserver after a few scripted moves.

Usage: .venv/bin/python -m tools.live_screenshots [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path

from tests.e2e.helpers import answered
from tests.e2e.live_kit import browser, live_env, open_page, play_scripted, start_conex, wait_version

WIDTHS = (400, 1280)


async def run(out: Path) -> list[Path]:
    await asyncio.to_thread(out.mkdir, parents=True, exist_ok=True)
    written: list[Path] = []
    with tempfile.TemporaryDirectory() as tmp:
        async with live_env(Path(tmp)) as (env, base), browser() as b:
            server = env.server
            game_id = await start_conex(env, "general")
            row = env.game(game_id)
            names = [server.user(u).name for u in row.players]
            pages = {seat: await open_page(b, env, base, name, row.channel_id) for seat, name in enumerate(names)}
            await play_scripted(env, game_id, pages, 6)
            for page in pages.values():
                await page.close()
            row = env.game(game_id)
            mover = names[row.conex.current_player]
            for width in WIDTHS:
                page = await open_page(b, env, base, mover, row.channel_id, width=width)
                await page.locator(".hand-card").first.focus()
                await page.keyboard.press("Enter")  # the keyboard path: the card goes to the view, snapped
                await page.wait_for_function("['legal', 'illegal'].includes(document.body.dataset.ghost)")
                written.append(out / f"live-conex-{width}.png")
                await page.screenshot(path=str(written[-1]))
                await page.close()

            alice = server.as_user("alice", "games-2")
            res = await answered(await alice.slash("constructo challenge", opponent=f"<@{server.user('bob').id}>"))
            await answered(await server.as_user("bob", "games-2").click(res.message, "Accept"))
            row = env.latest_game("constructo", server.channel("games-2").id)
            for move in ("L5", "M4", "S1"):
                who = server.user(row.players[env.game(row.id).match.current_player]).name
                size, tile = {"L": "large", "M": "medium", "S": "small"}[move[0]], int(move[1])
                await answered(
                    await server.as_user(who, row.channel_id).slash("constructo place", tile=tile, size=size)
                )
            row = env.game(row.id)
            mover = server.user(row.players[row.match.current_player]).name
            for width in WIDTHS:
                page = await open_page(b, env, base, mover, row.channel_id, width=width)
                await wait_version(page, row.version)
                await page.click('#hand button[data-size="M"]')  # a chip picked: its legal tiles light up
                written.append(out / f"live-constructo-{width}.png")
                await page.screenshot(path=str(written[-1]))
                await page.close()
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=Path("docs/screenshots"))
    for path in asyncio.run(run(parser.parse_args().out)):
        print(path)


if __name__ == "__main__":
    main()
