"""Entry point: ``python -m bot [COMMAND]``.

Commands:

- (none): run the bot until SIGTERM/SIGINT, which drain in-flight interactions, close storage and
  checkpoint (``bot.lifecycle``). Storage is opened and checked **before** connecting to Discord.
- ``healthcheck``: 0 if the running bot touched ``DATA_DIR/heartbeat`` within 120 s, else 1.
- ``check-db``: open the database as the bot would (lock, integrity, migrations), print what it holds.
- ``backup PATH [--force]``: consistent copy of the SQLite database while the bot runs.
- ``restore PATH``: put a backup in place (the bot must be stopped; the replaced file is kept aside).
- ``migrate-db --from URL --to URL``: copy an installation into an empty database (e.g. to PostgreSQL).

Exit codes: ``bot.exitcodes.ExitCode`` (0 ok, 1 unhealthy, 2 configuration, 3 token rejected,
4 Discord unreachable, 5 database corrupt/unreadable, 6 database mismatch, 7 database locked,
8 PostgreSQL unavailable, 9 database incompatible, 10 refused). Every failure prints one line on stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import time
from pathlib import Path

import aiohttp
import discord

from bot.config import Config, ConfigError, apply_endpoints, configure_logging
from bot.exitcodes import ExitCode, for_storage_error
from bot.storage.errors import StorageError

log = logging.getLogger("bot")

HEALTHCHECK_MAX_AGE_S = 120.0


class _StorageOpenFailed(Exception):
    """Storage could not be opened at start-up (wraps the ``StorageError`` or ``OSError``)."""

    def __init__(self, err: BaseException) -> None:
        super().__init__(str(err))
        self.err = err


async def _run(config: Config) -> None:
    from bot.app import make_bot
    from bot.lifecycle import Drainer
    from bot.storage import Storage

    try:
        storage = await Storage.open(config.storage_target, pool_size=config.database_pool_size)
    except (StorageError, OSError) as err:
        raise _StorageOpenFailed(err) from err
    log.info("storage: %s (%s, schema %d)", storage.backend.description, storage.dialect, storage.schema_version)
    try:
        bot = make_bot(config, storage=storage)
        if config.shard_ids is not None:
            log.info("shards %s of %d", ",".join(map(str, config.shard_ids)), config.shard_count)
        drainer = Drainer(bot, config.drain_timeout_s)
        drainer.install()
        drainer.handle_signals()
        async with bot:
            await bot.start(config.token)
    finally:
        await storage.close()
        log.info("storage closed")


def healthcheck(config: Config, *, now: float | None = None) -> int:
    """0 if the running bot wrote its heartbeat file (``DATA_DIR/heartbeat``) within 120 s, else 1."""
    path = config.data_dir / "heartbeat"
    try:
        age = (time.time() if now is None else now) - path.stat().st_mtime
    except OSError:
        print(f"unhealthy: no heartbeat file at {path}", file=sys.stderr)
        return ExitCode.UNHEALTHY
    if age > HEALTHCHECK_MAX_AGE_S:
        print(f"unhealthy: last heartbeat {age:.0f} s ago", file=sys.stderr)
        return ExitCode.UNHEALTHY
    print(f"healthy: last heartbeat {age:.0f} s ago")
    return ExitCode.OK


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Board games for Discord.")
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("run", help="run the bot (the default)")
    sub.add_parser("healthcheck", help="exit 0 if the running bot is connected, 1 if not")
    sub.add_parser("check-db", help="open and check the database as the bot would, print what it holds")
    backup = sub.add_parser("backup", help="consistent copy of the SQLite database, while the bot runs")
    backup.add_argument("path", type=Path)
    backup.add_argument("--force", action="store_true", help="replace PATH if it exists")
    restore = sub.add_parser("restore", help="put a backup in place (stop the bot first)")
    restore.add_argument("path", type=Path)
    migrate = sub.add_parser("migrate-db", help="copy an installation into an empty database")
    migrate.add_argument("--from", dest="source", required=True, help="sqlite:///path or postgresql://...")
    migrate.add_argument("--to", dest="target", required=True, help="sqlite:///path or postgresql://...")
    sub.add_parser("record-key", help="print the public key that signs downloaded records (to publish)")
    verify = sub.add_parser("verify-record", help="check a downloaded record: signature, deal commitment, replay")
    verify.add_argument("path", type=Path)
    verify.add_argument("--public-key", help="the operator's published key (default: this installation's key)")
    return parser


def _record_command(args: argparse.Namespace, config: Config) -> int:
    """``record-key`` and ``verify-record`` (``bot/signing.py``): exit 0, 1 for a refused record, 2 (configuration)
    for a key that cannot be used."""
    from bot import signing

    try:
        if args.command == "record-key":
            print(signing.public_text(signing.load_key(config.data_dir, config.record_signing_key)))
            return ExitCode.OK
        verified = signing.verify_file(args.path, args.public_key, config.data_dir, config.record_signing_key)
    except signing.SigningKeyError as err:
        return _fail(ExitCode.CONFIG, f"{args.command}: {err}")
    except signing.RecordRefused as err:
        print(f"REFUSED ({err})")
        return 1
    state = verified.state
    print(f"signature: OK ({verified.key})")
    if verified.commitment:
        print(f"commitment: OK ({verified.commitment} = SHA-256 of the revealed seed)")
    print(f"replay: OK ({len(state.history)} actions through the rules, outcome "
          f"{state.outcome.reason if state.outcome else 'none (unfinished)'})")
    print("OK")
    return ExitCode.OK


def _fail(code: ExitCode, text: str) -> int:
    print(text.replace("\n", " "), file=sys.stderr)
    return int(code)


def _storage_command(args: argparse.Namespace, config: Config) -> int:
    from bot.storage import admin, redact_url
    from bot.storage.copy import copy_database

    if args.command == "migrate-db":
        copied = asyncio.run(copy_database(args.source, args.target))
        print(f"copied {redact_url(args.source)} -> {redact_url(args.target)}: "
              + ", ".join(f"{table} {n}" for table, n in copied.items()))
        return ExitCode.OK
    if args.command == "check-db":
        return asyncio.run(_check_db(config))
    db = config.sqlite_path
    if db is None:
        return _fail(ExitCode.CONFIG, f"DATABASE_URL is PostgreSQL: use pg_dump / pg_restore for {args.command} "
                     "(README 'Operating the bot')")
    if args.command == "backup":
        snap = admin.backup(db, args.path, force=args.force)
        print(f"backup written: {snap.path} ({snap.bytes} bytes, {snap.games} games, {snap.actions} actions)")
        return ExitCode.OK
    snap, moved = admin.restore(args.path, db)
    aside = f"; the replaced database was moved to {moved}" if moved else ""
    print(f"restored {args.path} to {snap.path} ({snap.games} games, {snap.actions} actions){aside}")
    return ExitCode.OK


async def _check_db(config: Config) -> int:
    from bot.storage import Storage
    from bot.storage.copy import counts

    storage = await Storage.open(config.storage_target, pool_size=2)
    try:
        rows = await counts(storage)
        print(f"ok: {storage.backend.description} ({storage.dialect}, schema {storage.schema_version}, "
              f"installation {storage.installation_id}): {rows['games']} games, {rows['actions']} actions, "
              f"{rows['ratings']} ratings")
    finally:
        await storage.close()
    return ExitCode.OK


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and the environment, then run the bot or the command."""
    args = _parser().parse_args(sys.argv[1:] if argv is None else argv)  # bad arguments: argparse exits 2
    command = args.command or "run"
    try:
        config = Config.from_env(require_token=command in ("run", "healthcheck"))
    except ConfigError as err:
        return _fail(ExitCode.CONFIG, f"Configuration error: {err}")
    if command == "healthcheck":
        return healthcheck(config)
    if command in ("record-key", "verify-record"):
        return _record_command(args, config)
    if command != "run":
        try:
            return _storage_command(args, config)
        except StorageError as err:
            return _fail(for_storage_error(err), f"{command}: {err.message}")
        except OSError as err:
            return _fail(ExitCode.DATABASE_CORRUPT, f"{command}: {err}")
    configure_logging(config)
    apply_endpoints(config)
    from bot import signing

    try:  # downloaded records are signed with this key (issue 22)
        signing.install(signing.load_key(config.data_dir, config.record_signing_key))
    except signing.SigningKeyError as err:
        return _fail(ExitCode.CONFIG, f"Configuration error: {err}")
    try:
        asyncio.run(_run(config))
    except _StorageOpenFailed as failure:
        cause = failure.err  # one line on stderr, nothing else: the operator reads exactly what to do
        if isinstance(cause, StorageError):
            return _fail(for_storage_error(cause), f"Database error ({cause.rule}): {cause.message}")
        return _fail(ExitCode.DATABASE_CORRUPT, f"Database error: cannot use {config.storage_target}: {cause}")
    except discord.LoginFailure:
        log.error("Discord rejected DISCORD_TOKEN: copy the bot token again from the developer portal (Bot tab).")
        return _fail(ExitCode.TOKEN_REJECTED, "Discord rejected DISCORD_TOKEN (login failed): check the token and "
                     "run again.")
    except (aiohttp.ClientConnectionError, discord.GatewayNotFound, OSError) as err:
        log.error("Cannot reach Discord at %s: %s", discord.http.Route.BASE, type(err).__name__)
        return _fail(ExitCode.DISCORD_UNREACHABLE, f"Cannot reach Discord at {discord.http.Route.BASE} "
                     f"({type(err).__name__}): check the network, DNS and proxy settings (or DISCORD_API_BASE), "
                     "then run again.")
    except KeyboardInterrupt:
        return ExitCode.OK
    except Exception as err:  # anything unnamed above (e.g. discord.py failing inside a lost gateway connection)
        log.exception("the bot stopped on an unexpected error")
        return _fail(ExitCode.CRASHED, f"The bot stopped on an unexpected error ({type(err).__name__}: {err}); "
                     "the traceback is in the log above. If DISCORD_API_BASE points at a local server, set "
                     "DISCORD_GATEWAY_URL too.")
    return ExitCode.OK


if __name__ == "__main__":
    raise SystemExit(main())
