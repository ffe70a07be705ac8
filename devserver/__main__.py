"""``python -m devserver``: the dev server, the real bot as a subprocess, and a prompt to play locally.

Options: ``--port`` (default 0 = any free port), ``--out`` (images and the bot log; ``./devserver-out``),
``--data-dir`` (the bot's DATA_DIR, kept between runs with the synced commands in ``OUT/commands.json``;
default a fresh temporary directory), ``--user`` (who acts first),
``--no-bot`` (only serve: prints the environment to start a bot yourself).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from pathlib import Path

from devserver.console import Console
from devserver.oauth import CLIENT_SECRET
from devserver.openapi import SpecError
from devserver.process import BotExited, BotProcess
from devserver.server import DevServer


async def _amain(args: argparse.Namespace) -> int:
    try:
        server = await DevServer(port=args.port).start()
    except SpecError as exc:  # installed without the test extra: play on, unchecked
        print(f"note: requests are not checked against Discord's spec ({exc})", file=sys.stderr)
        server = await DevServer(port=args.port, conformance="off").start()
    out = Path(args.out)
    commands_file = out / "commands.json"
    print(f"devserver on {server.base_url} (guild {server.guild_id}); images go to {out}/")
    bot: BotProcess | None = None
    tmp: tempfile.TemporaryDirectory[str] | None = None
    try:
        if args.no_bot:
            env = " ".join(f"{k}={v}" for k, v in server.env().items())
            print(f"start your bot with:\n  {env} DATA_DIR=... python -m bot")
            await server.wait_for_bot(timeout=3600, synced=True)
        else:
            if args.data_dir:
                data_dir = Path(args.data_dir)
                if commands_file.exists():  # the bot will not re-sync an unchanged tree: restore it
                    server.import_commands(json.loads(commands_file.read_text()))
            else:
                tmp = tempfile.TemporaryDirectory(prefix="devserver-data-")
                data_dir = Path(tmp.name)
            live: dict[str, str] = {}
            if args.web_port:  # the live table (bot/web/): the bot serves it, the devserver models Discord's OAuth2
                live = {"WEB_PORT": str(args.web_port), "WEB_HOST": "127.0.0.1", "DISCORD_CLIENT_SECRET": CLIENT_SECRET}
            bot = BotProcess(server, data_dir, out / "bot.log", extra_env=live)
            print(f"starting `python -m bot` (DATA_DIR={data_dir}, log {out / 'bot.log'}) ...")
            try:
                await bot.start()
            except BotExited as exc:
                print(exc, file=sys.stderr)
                return 1
        print(f"bot ready; commands: {', '.join('/' + n for n in sorted(server.all_commands()))}")
        live_url = f"http://127.0.0.1:{args.web_port}" if args.web_port and bot is not None else None
        console = Console(server, out, user=args.user, bot=bot, live_url=live_url)
        print("type `help` for the console commands, `quit` to leave")
        loop = asyncio.get_running_loop()
        while True:
            try:
                line = await loop.run_in_executor(None, input, console.prompt)
            except (EOFError, KeyboardInterrupt):
                print()
                break
            if line.strip() in ("quit", "exit"):
                break
            text = await console.run_line(line)
            if text:
                print(text)
            if bot is not None and not bot.running:
                print(f"!! the bot process exited:\n{bot.log(2000)}")
                break
    finally:
        if bot is not None:
            await bot.stop()
        if args.data_dir and server.all_commands():
            commands_file.write_text(json.dumps(server.export_commands()))
        await server.stop()
        if tmp is not None:
            tmp.cleanup()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m devserver",
        description="The dev server, the real bot as a subprocess, and a prompt to play locally.",
    )
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default: any free port)")
    parser.add_argument("--out", default="devserver-out", help="folder for images and bot.log")
    parser.add_argument("--data-dir", default=None, help="the bot's DATA_DIR, kept between runs (default: temporary)")
    parser.add_argument("--user", default="alice", help="who acts first (alice, bob, carol, dave, mod)")
    parser.add_argument("--web-port", type=int, default=0, help="serve the live table on this port (`live` opens it)")
    parser.add_argument("--no-bot", action="store_true", help="only serve; print the environment to start a bot")
    args = parser.parse_args(argv)
    args.out = str(Path(args.out).resolve())
    Path(args.out).mkdir(parents=True, exist_ok=True)
    try:
        return asyncio.run(_amain(args))
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
