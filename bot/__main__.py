"""Entry point: ``python -m bot`` runs the bot; ``python -m bot healthcheck`` checks a running one.

Exit codes: 0 normal stop; 2 configuration error (e.g. ``DISCORD_TOKEN`` missing); 3 token
rejected by Discord (``discord.LoginFailure``); 4 Discord (or ``DISCORD_API_BASE``) unreachable at
start-up; 1 healthcheck failed.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time

import aiohttp
import discord

from bot.config import Config, ConfigError, apply_endpoints, configure_logging

log = logging.getLogger("bot")

HEALTHCHECK_MAX_AGE_S = 120.0


async def _run(config: Config) -> None:
    from bot.app import TableBot

    bot = TableBot(config)
    async with bot:
        await bot.start(config.token)


def healthcheck(config: Config, *, now: float | None = None) -> int:
    """0 if the running bot wrote its heartbeat file (``DATA_DIR/heartbeat``) within 120 s, else 1."""
    path = config.data_dir / "heartbeat"
    try:
        age = (time.time() if now is None else now) - path.stat().st_mtime
    except OSError:
        print(f"unhealthy: no heartbeat file at {path}", file=sys.stderr)
        return 1
    if age > HEALTHCHECK_MAX_AGE_S:
        print(f"unhealthy: last heartbeat {age:.0f} s ago", file=sys.stderr)
        return 1
    print(f"healthy: last heartbeat {age:.0f} s ago")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Read the configuration, set up logging and endpoints, run the bot until stopped."""
    args = sys.argv[1:] if argv is None else argv
    try:
        config = Config.from_env()
    except ConfigError as err:
        print(f"Configuration error: {err}", file=sys.stderr)
        return 2
    if args[:1] == ["healthcheck"]:
        return healthcheck(config)
    if args:
        print(f"unknown arguments {args!r}: use `python -m bot` or `python -m bot healthcheck`", file=sys.stderr)
        return 2
    configure_logging(config)
    apply_endpoints(config)
    try:
        asyncio.run(_run(config))
    except discord.LoginFailure:
        log.error("Discord rejected DISCORD_TOKEN: copy the bot token again from the developer portal (Bot tab).")
        print("Discord rejected DISCORD_TOKEN (login failed): check the token and run again.", file=sys.stderr)
        return 3
    except (aiohttp.ClientConnectionError, discord.GatewayNotFound, OSError) as err:
        log.error("Cannot reach Discord at %s: %s", discord.http.Route.BASE, type(err).__name__)
        print(f"Cannot reach Discord at {discord.http.Route.BASE} ({type(err).__name__}): check the network, DNS "
              "and proxy settings (or DISCORD_API_BASE), then run again.", file=sys.stderr)
        return 4
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
