"""Configuration from the environment, endpoint overrides, token redaction, entry point exits."""

from __future__ import annotations

import io
import logging
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import healthcheck
from bot.config import REDACTED, Config, ConfigError, RedactingFilter, apply_endpoints, configure_logging

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "MTIzNDU2Nzg5.secret-part.XYZ_abc"


def test_missing_token_is_a_config_error_naming_the_variable() -> None:
    with pytest.raises(ConfigError) as info:
        Config.from_env({})
    assert info.value.variable == "DISCORD_TOKEN"
    assert "DISCORD_TOKEN" in str(info.value) and "not set" in str(info.value)


@pytest.mark.parametrize(
    ("env", "variable"),
    [
        ({"DISCORD_TOKEN": "   "}, "DISCORD_TOKEN"),
        ({"DISCORD_TOKEN": "Bot abc"}, "DISCORD_TOKEN"),
        ({"DISCORD_TOKEN": "t", "DEV_GUILD_ID": "abc"}, "DEV_GUILD_ID"),
        ({"DISCORD_TOKEN": "t", "DEV_GUILD_ID": "-5"}, "DEV_GUILD_ID"),
        ({"DISCORD_TOKEN": "t", "LOG_LEVEL": "LOUD"}, "LOG_LEVEL"),
        ({"DISCORD_TOKEN": "t", "DISCORD_API_BASE": "ftp://x"}, "DISCORD_API_BASE"),
        ({"DISCORD_TOKEN": "t", "DISCORD_GATEWAY_URL": "http://x"}, "DISCORD_GATEWAY_URL"),
    ],
)
def test_malformed_variables_are_refused_by_name(env: dict[str, str], variable: str) -> None:
    with pytest.raises(ConfigError) as info:
        Config.from_env(env)
    assert info.value.variable == variable


def test_defaults_and_parsing(tmp_path: Path) -> None:
    cfg = Config.from_env({"DISCORD_TOKEN": f" {TOKEN} ", "XDG_DATA_HOME": str(tmp_path)})
    assert cfg.token == TOKEN
    assert cfg.data_dir == tmp_path / "tablebot"
    assert cfg.dev_guild_id is None and cfg.log_level == "INFO"
    assert cfg.api_base is None and cfg.gateway_url is None
    assert TOKEN not in repr(cfg)
    cfg = Config.from_env(
        {
            "DISCORD_TOKEN": TOKEN,
            "DATA_DIR": str(tmp_path / "d"),
            "DEV_GUILD_ID": "123",
            "LOG_LEVEL": "debug",
            "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10/",
            "DISCORD_GATEWAY_URL": "ws://127.0.0.1:9/gw",
        }
    )
    assert cfg.data_dir == tmp_path / "d" and cfg.db_path.parent == tmp_path / "d"
    assert cfg.dev_guild_id == 123 and cfg.log_level == "DEBUG"
    assert cfg.api_base == "http://127.0.0.1:9/api/v10"


def test_apply_endpoints_sets_rest_base_and_gateway(monkeypatch: pytest.MonkeyPatch) -> None:
    import discord.gateway
    import discord.http

    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    ws = discord.gateway.DiscordWebSocket
    monkeypatch.setattr(ws, "DEFAULT_GATEWAY", ws.DEFAULT_GATEWAY)
    apply_endpoints(
        Config(token="t", data_dir=Path("."), api_base="http://127.0.0.1:1/api/v10", gateway_url="ws://127.0.0.1:1/gw")
    )
    assert discord.http.Route.BASE == "http://127.0.0.1:1/api/v10"
    assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == "ws://127.0.0.1:1/gw"
    route = discord.http.Route("GET", "/users/@me")
    assert route.url == "http://127.0.0.1:1/api/v10/users/@me"


def test_redacting_filter_hides_token_in_message_args_and_traceback() -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RedactingFilter(TOKEN))
    logger = logging.getLogger("tests.redact")
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    try:
        logger.info("token is %s", TOKEN)
        logger.warning(f"header Authorization: Bot {TOKEN}")
        try:
            raise RuntimeError(f"boom {TOKEN}")
        except RuntimeError:
            logger.exception("failed")
    finally:
        logger.removeHandler(handler)
    out = stream.getvalue()
    assert TOKEN not in out
    assert out.count(REDACTED) == 3
    assert "RuntimeError: boom" in out


def test_configure_logging_redacts_records_of_child_loggers(tmp_path: Path) -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    root = logging.getLogger()
    level = root.level
    try:
        configure_logging(Config(token=TOKEN, data_dir=tmp_path, log_level="DEBUG"), handler=handler)
        logging.getLogger("discord.http").info("sending with token %s", TOKEN)
        logging.getLogger("bot.some.child").debug("again " + TOKEN)
    finally:
        root.removeHandler(handler)
        root.setLevel(level)
    out = stream.getvalue()
    assert TOKEN not in out and out.count(REDACTED) == 2


def _run_bot(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DEV_GUILD", "DATA_DIR"))}
    full.update(env)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], cwd=ROOT, env=full, capture_output=True, text=True, timeout=60
    )


def test_entry_point_exits_2_with_a_clear_message_without_token(tmp_path: Path) -> None:
    proc = _run_bot({"DATA_DIR": str(tmp_path)})
    assert proc.returncode == 2
    assert "DISCORD_TOKEN" in proc.stderr and "not set" in proc.stderr


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_entry_point_exits_3_when_discord_rejects_the_token(tmp_path: Path) -> None:
    """A REST server answering 401 to GET /users/@me makes discord.py raise LoginFailure."""
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-c", _UNAUTHORIZED_SERVER, str(port)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert server.stdout is not None and server.stdout.readline().strip() == "ready"
        proc = _run_bot(
            {
                "DISCORD_TOKEN": TOKEN,
                "DATA_DIR": str(tmp_path),
                "LOG_LEVEL": "DEBUG",
                "DISCORD_API_BASE": f"http://127.0.0.1:{port}/api/v10",
                "DISCORD_GATEWAY_URL": f"ws://127.0.0.1:{port}/gw",
            }
        )
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert proc.returncode == 3, proc.stderr
    assert "rejected" in proc.stderr
    assert TOKEN not in proc.stderr and TOKEN not in proc.stdout


def test_entry_point_exits_4_with_a_clear_message_when_discord_is_unreachable(tmp_path: Path) -> None:
    """Nothing listens on the REST port: a one-line explanation and exit 4, no traceback, no token."""
    port = _free_port()
    proc = _run_bot(
        {
            "DISCORD_TOKEN": TOKEN,
            "DATA_DIR": str(tmp_path),
            "DISCORD_API_BASE": f"http://127.0.0.1:{port}/api/v10",
            "DISCORD_GATEWAY_URL": f"ws://127.0.0.1:{port}/gw",
        }
    )
    assert proc.returncode == 4, proc.stderr
    assert f"Cannot reach Discord at http://127.0.0.1:{port}/api/v10" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert TOKEN not in proc.stderr and TOKEN not in proc.stdout


_UNAUTHORIZED_SERVER = """
import sys
from aiohttp import web
async def unauthorized(request):
    return web.Response(status=401, text='{"message": "401: Unauthorized", "code": 0}',
                        content_type="application/json")
app = web.Application()
app.router.add_route("*", "/{tail:.*}", unauthorized)
async def ready(app):
    print("ready", flush=True)
app.on_startup.append(ready)
web.run_app(app, host="127.0.0.1", port=int(sys.argv[1]), print=None)
"""


def test_healthcheck_reads_the_heartbeat_age(tmp_path: Path) -> None:
    import json
    import os

    from bot.healthcheck import proc_start_ticks

    cfg = Config(token="t", data_dir=tmp_path)
    assert healthcheck(cfg) == 1  # no heartbeat yet
    written = 1_700_000_000.0
    (tmp_path / "heartbeat").write_text(
        json.dumps({"pid": os.getpid(), "proc_start": proc_start_ticks(os.getpid()), "written": written})
    )
    assert healthcheck(cfg, now=written + 10) == 0
    assert healthcheck(cfg, now=written + 500) == 1
