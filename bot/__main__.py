"""Entry point: ``python -m bot [COMMAND]``.

Commands:

- (none): run the bot until SIGTERM/SIGINT, which drain in-flight interactions, close storage and
  checkpoint (``bot.lifecycle``). Storage is opened and checked **before** connecting to Discord; on
  PostgreSQL the process then takes its shards' lease (``bot.lease``), waiting as standby while another
  process serves them.
- ``healthcheck``: 0 if the running bot's heartbeat (``DATA_DIR/heartbeat``: connected and storage answering,
  rewritten every 10 s) is fresh and was written by the running process, else 1 (:mod:`bot.healthcheck`; imports
  no discord, so it is cheap).
- ``check-db``: open the database as the bot would (lock, integrity, migrations), print what it holds.
- ``backup PATH [--force]``: consistent copy of the SQLite database while the bot runs.
- ``restore PATH``: put a backup in place (the bot must be stopped; the replaced file is kept aside).
- ``migrate-db --from URL --to URL``: copy an installation into an empty database (e.g. to PostgreSQL). A
  ``--from`` SQLite file that does not exist is refused (exit 2), never created empty.

``python -m bot --help`` lists the commands and every environment variable (``ENVIRONMENT``). A relative
``sqlite:///data/x.sqlite3`` is resolved against the current directory (as SQLAlchemy does; ``/data`` in the
image). A ``DEV_GUILD_ID`` Discord does not know (404 Unknown Guild, or 403 Missing Access: the bot is not in
that server) stops the bot with exit 2 and a line saying so.

Exit codes: ``bot.exitcodes.ExitCode`` (0 ok, 1 unhealthy, 2 configuration, 3 token rejected,
4 Discord unreachable, 5 database corrupt/unreadable, 6 database mismatch, 7 database locked,
8 PostgreSQL unavailable, 9 database incompatible, 10 refused, 11 crashed, 12 shard lease lost: restart me).
Every failure prints one line on stderr.
"""

from __future__ import annotations

import sys

if __name__ == "__main__" and sys.argv[1:2] == ["healthcheck"]:  # the exec probe: stdlib only, no discord import
    from bot.healthcheck import main as _probe

    raise SystemExit(_probe())

import argparse
import asyncio
import logging
import signal
import sys
import textwrap
from pathlib import Path

import aiohttp
import discord

from bot import gcpolicy
from bot.config import Config, ConfigError, apply_endpoints, configure_logging
from bot.environment import ENVIRONMENT as CORE_ENVIRONMENT
from bot.exitcodes import ExitCode, for_storage_error
from bot.lease import ShardLease, lease_for
from bot.startup import StorageOpenFailed, open_storage
from bot.storage.errors import StorageError
from bot.web.settings import ENVIRONMENT as WEB_ENVIRONMENT

log = logging.getLogger("bot")
ENVIRONMENT = (*CORE_ENVIRONMENT, *WEB_ENVIRONMENT)
"""Every variable ``python -m bot --help`` lists: the bot's (``bot.environment``) and the live table's."""


class _LeaseLost(Exception):
    """The shard lease was lost while serving (``bot.lease``): the bot stopped at once."""

    def __init__(self, lease: ShardLease) -> None:
        super().__init__(lease.lost)
        self.lease = lease


class _HealthPortFailed(Exception):
    """``HEALTH_PORT`` could not be bound (in use, not allowed)."""


async def _run(config: Config) -> None:
    from bot import metrics
    from bot.app import make_bot
    from bot.health import Health
    from bot.lifecycle import Drainer
    from bot.web.server import start_live_table

    loop = asyncio.get_running_loop()
    early_stop = asyncio.Event()  # SIGTERM before the bot exists (waiting for PostgreSQL): stop cleanly
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, early_stop.set)
    try:  # PostgreSQL too: the heartbeat file lives there
        config.data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise StorageOpenFailed(err) from err
    storage = await open_storage(config, early_stop)
    if storage is None:
        log.info("stopped before start-up finished")
        return
    log.info("storage: %s (%s, schema %d)", storage.backend.description, storage.dialect, storage.schema_version)
    metrics.instrument_storage(storage)
    drainer: Drainer | None = None
    health: Health | None = None
    lease = lease_for(config, storage)  # None on SQLite: its file lock admits one process
    watch: asyncio.Task[None] | None = None
    bot = None
    try:
        bot = make_bot(config, storage=storage)
        if config.shard_ids is not None:
            log.info("shards %s of %d", ",".join(map(str, config.shard_ids)), config.shard_count)
        health = Health(bot, storage, config.data_dir, config.shard_ids)
        bot.health = health
        drainer = Drainer(bot, config.drain_timeout_s, watchdog=True)
        drainer.on_stop = health.stop
        drainer.install()
        drainer.handle_signals()
        if early_stop.is_set():
            drainer.request_stop("SIGTERM")
        if lease is not None:  # PostgreSQL: one process per shard; standby (no Discord request) until free
            if not await lease.acquire(stop=drainer.stopped, heartbeat=health.write_heartbeat):
                return  # SIGTERM/SIGINT while standing by
            bot.lease = lease
            watch = loop.create_task(lease.watch(bot.close), name="lease-watch")
        try:
            await health.start(config.health_port, config.health_host)
        except OSError as err:
            raise _HealthPortFailed(f"HEALTH_PORT {config.health_port} on {config.health_host}: {err}") from err
        await start_live_table(bot)
        try:
            await drainer.run(bot.start(config.token))
        except Exception as err:  # e.g. discord.py failing on the gateway closed under it: the lease is the cause
            if lease is not None and lease.lost:
                raise _LeaseLost(lease) from err
            raise
        if lease is not None and lease.lost:
            raise _LeaseLost(lease)
    finally:
        if watch is not None:
            watch.cancel()
        if health is not None:
            await health.close()
        if bot is not None and bot.live_table is not None:
            await bot.live_table.close()
        try:
            closed = await drainer.close_storage(storage) if drainer is not None else (await storage.close()) or True
            if closed:
                log.info("storage closed")
        finally:
            if lease is not None:  # released last: a standby takes over once this process's last write is done
                await lease.close()
        if drainer is not None and drainer.deadline is not None:
            _exit_after_stop()


def _exit_after_stop() -> None:
    """End a stopped bot now (exit 0): storage is closed, so nothing is left to save, and the interpreter's own
    teardown would wait for the CPU workers' current jobs and worker threads (seconds under load), past the
    orchestrator's grace period. The workers end by themselves once the bot is gone (``bot.core.cpu``)."""
    import os

    log.info("stopped")
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(ExitCode.OK)


def healthcheck(config: Config, *, now: float | None = None) -> int:
    """``python -m bot healthcheck`` (:mod:`bot.healthcheck`): 0 if the running bot's heartbeat is fresh and its
    own, else 1."""
    from bot.healthcheck import probe

    code, message = probe(config.data_dir, now=now)
    print(message, file=sys.stdout if code == 0 else sys.stderr)
    return code


def _parser() -> argparse.ArgumentParser:
    epilog = "environment variables:\n" + "\n".join(
        textwrap.fill(text, 110, initial_indent=f"  {name:<29}", subsequent_indent=" " * 31)
        for name, text in ENVIRONMENT
    )
    codes = ", ".join(f"{code.value} {code.name.lower().replace('_', ' ')}" for code in ExitCode)
    epilog += "\n\n" + textwrap.fill(f'exit codes: {codes} (README "Exit codes").', 110)
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Board games for Discord. Without a command: run the bot.",
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", title="commands", metavar="COMMAND")
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


_JSON_LOGS = False
"""Set once ``LOG_FORMAT=json`` logging is configured: the failure line is then a JSON log record too."""


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
    print(
        f"replay: OK ({len(state.history)} actions through the rules, outcome "
        f"{state.outcome.reason if state.outcome else 'none (unfinished)'})"
    )
    print("OK")
    return ExitCode.OK


def _fail(code: ExitCode, text: str) -> int:
    if _JSON_LOGS:
        log.critical(text.replace("\n", " "), extra={"exit_code": int(code)})
    else:
        print(text.replace("\n", " "), file=sys.stderr)
    return int(code)


def _storage_command(args: argparse.Namespace, config: Config) -> int:
    from bot.storage import admin, redact_url
    from bot.storage.copy import copy_database

    if args.command == "migrate-db":
        missing = _missing_sqlite_source(args.source)
        if missing is not None:
            return _fail(ExitCode.CONFIG, missing)
        copied = asyncio.run(copy_database(args.source, args.target))
        print(
            f"copied {redact_url(args.source)} -> {redact_url(args.target)}: "
            + ", ".join(f"{table} {n}" for table, n in copied.items())
        )
        return ExitCode.OK
    if args.command == "check-db":
        return asyncio.run(_check_db(config))
    db = config.sqlite_path
    if db is None:
        return _fail(
            ExitCode.CONFIG,
            f"DATABASE_URL is PostgreSQL: use pg_dump / pg_restore for {args.command} (README 'Operating the bot')",
        )
    if args.command == "backup":
        snap = admin.backup(db, args.path, force=args.force)
        print(f"backup written: {snap.path} ({snap.bytes} bytes, {snap.games} games, {snap.actions} actions)")
        return ExitCode.OK
    snap, moved = admin.restore(args.path, db)
    aside = f"; the replaced database was moved to {moved}" if moved else ""
    print(f"restored {args.path} to {snap.path} ({snap.games} games, {snap.actions} actions){aside}")
    return ExitCode.OK


def _missing_sqlite_source(source: str) -> str | None:
    """Why ``migrate-db --from`` cannot be read (a SQLite file that does not exist), or None. Opening it would
    create an empty database and "copy" nothing."""
    from bot.storage.backend import parse_target
    from bot.storage.errors import InvalidDataError

    try:
        path = parse_target(source).path
    except InvalidDataError:
        return None  # copy_database names the bad URL itself
    if path is None or path.is_file():
        return None
    where = path if path.is_absolute() else Path.cwd() / path
    hint = (
        ""
        if path.is_absolute()
        else (f" (a relative sqlite:/// path is read from the current directory, {Path.cwd()})")
    )
    return (
        f"migrate-db: --from {source}: no database file at {where}{hint}; nothing was copied. Point --from at "
        "the bot's existing database file (DATA_DIR/tablebot.sqlite3)."
    )


def _unknown_dev_guild(err: discord.HTTPException, config: Config) -> bool:
    """True if ``err`` is Discord refusing the command sync to ``DEV_GUILD_ID``: 404 Unknown Guild (10004) or
    403 Missing Access (50001, the bot is not in that server)."""
    if not config.dev_guild_id or (err.status, err.code) not in ((404, 10004), (403, 50001)):
        return False
    url = str(getattr(err.response, "url", ""))
    return f"/guilds/{config.dev_guild_id}/" in url


async def _check_db(config: Config) -> int:
    from bot.storage import Storage
    from bot.storage.copy import counts

    storage = await Storage.open(config.storage_target, pool_size=2)
    try:
        rows = await counts(storage)
        print(
            f"ok: {storage.backend.description} ({storage.dialect}, schema {storage.schema_version}, "
            f"installation {storage.installation_id}): {rows['games']} games, {rows['actions']} actions, "
            f"{rows['ratings']} ratings"
        )
    finally:
        await storage.close()
    return ExitCode.OK


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and the environment, then run the bot or the command."""
    args = _parser().parse_args(sys.argv[1:] if argv is None else argv)  # bad arguments: argparse exits 2
    command = args.command or "run"
    try:
        config = Config.from_env(require_token=command == "run")
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
    global _JSON_LOGS
    _JSON_LOGS = config.log_format == "json"
    apply_endpoints(config)
    log.debug("garbage collector thresholds %s (GC_GEN0)", gcpolicy.tune())
    from bot import signing

    try:  # downloaded records are signed with this key (issue 22)
        signing.install(signing.load_key(config.data_dir, config.record_signing_key))
    except signing.SigningKeyError as err:
        if isinstance(err.__cause__, OSError):  # DATA_DIR itself is unusable (not writable by this user...)
            return _fail(ExitCode.DATABASE_CORRUPT, f"Data directory error: {err}")
        return _fail(ExitCode.CONFIG, f"Configuration error: {err}")
    try:
        asyncio.run(_run(config))
    except _HealthPortFailed as err:
        return _fail(ExitCode.CONFIG, f"Configuration error: {err}")
    except StorageOpenFailed as failure:
        cause = failure.err  # one line on stderr, nothing else: the operator reads exactly what to do
        if isinstance(cause, StorageError):
            return _fail(for_storage_error(cause), f"Database error ({cause.rule}): {cause.message}")
        return _fail(ExitCode.DATABASE_CORRUPT, f"Database error: cannot use {config.storage_target}: {cause}")
    except _LeaseLost as lost:
        return _fail(
            ExitCode.LEASE_LOST,
            f"Stopped serving shards {lost.lease.label}: {lost.lease.lost}, so another "
            "process may serve them now. Start the bot again: it waits as standby while they are taken.",
        )
    except discord.LoginFailure:
        log.error("Discord rejected DISCORD_TOKEN: copy the bot token again from the developer portal (Bot tab).")
        return _fail(
            ExitCode.TOKEN_REJECTED, "Discord rejected DISCORD_TOKEN (login failed): check the token and run again."
        )
    except (aiohttp.ClientConnectionError, discord.GatewayNotFound, OSError) as err:
        log.error("Cannot reach Discord at %s: %s", discord.http.Route.BASE, type(err).__name__)
        return _fail(
            ExitCode.DISCORD_UNREACHABLE,
            f"Cannot reach Discord at {discord.http.Route.BASE} "
            f"({type(err).__name__}): check the network, DNS and proxy settings (or DISCORD_API_BASE), "
            "then run again.",
        )
    except discord.HTTPException as err:
        if _unknown_dev_guild(err, config):
            log.error("DEV_GUILD_ID %s is not a server this bot is in: %s", config.dev_guild_id, err)
            return _fail(
                ExitCode.CONFIG,
                f"Configuration error: DEV_GUILD_ID {config.dev_guild_id} is not a server "
                f"this bot is in (Discord: {err.status} {err.text or 'Unknown Guild'}): invite the bot "
                "to that server, or fix or unset DEV_GUILD_ID.",
            )
        return _crashed(err, config)
    except KeyboardInterrupt:
        return ExitCode.OK
    except Exception as err:  # anything unnamed above (e.g. discord.py failing inside a lost gateway connection)
        return _crashed(err, config)
    return ExitCode.OK


def _crashed(err: Exception, config: Config) -> int:
    log.exception("the bot stopped on an unexpected error", exc_info=err)
    hint = (
        " DISCORD_API_BASE points at another server but DISCORD_GATEWAY_URL is unset: set it too."
        if config.api_base and not config.gateway_url
        else ""
    )
    return _fail(
        ExitCode.CRASHED,
        f"The bot stopped on an unexpected error ({type(err).__name__}: {err}); "
        f"the traceback is in the log above.{hint}",
    )


if __name__ == "__main__":
    raise SystemExit(main())
