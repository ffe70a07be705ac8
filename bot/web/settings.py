"""Settings of the live table, from the environment (README "The live table").

- ``WEB_PORT``: TCP port of the live table's web server; unset: no web server and no "Play in the live table"
  button.
- ``WEB_HOST``: its address (default ``0.0.0.0``).
- ``DISCORD_CLIENT_ID``: the application's id (default: the bot user's id, which is the application's).
- ``DISCORD_CLIENT_SECRET``: the OAuth2 client secret (developer portal, OAuth2), needed to exchange the codes
  the Embedded App SDK's ``authorize`` returns.
- ``DISCORD_OAUTH_BASE``: where ``/oauth2/token`` and ``/users/@me`` are asked (default ``DISCORD_API_BASE``,
  else ``https://discord.com/api/v10``): tests point it at the devserver.
- ``WEB_MEMBER_TTL_S``: seconds a watcher's membership of the game's server is remembered (default 60): it is
  asked of Discord again on (re)connect and before a push to a watcher once older (0: every time; tests).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.config import ConfigError

DEFAULT_API = "https://discord.com/api/v10"
DEFAULT_MEMBER_TTL_S = 60.0
MAX_MEMBER_TTL_S = 3600.0

ENVIRONMENT: tuple[tuple[str, str], ...] = (
    ("WEB_PORT", "port of the live table (a Discord Activity: drag and drop in a browser); default: off"),
    ("WEB_HOST", "address the live table listens on (default 0.0.0.0)"),
    ("DISCORD_CLIENT_ID", "the application id for the live table's OAuth2 (default: the bot user's id)"),
    ("DISCORD_CLIENT_SECRET", "the OAuth2 client secret the live table exchanges codes with"),
    ("DISCORD_OAUTH_BASE", "base URL of /oauth2/token and /users/@me (default DISCORD_API_BASE or Discord's)"),
    ("WEB_MEMBER_TTL_S", "seconds a live-table watcher's server membership is remembered (default 60)"),
)
"""The variables of this module with one line each (``python -m bot --help``)."""


@dataclass(frozen=True)
class WebSettings:
    """``port`` (``None``: off), ``host``, ``client_id`` (``None``: the bot's user id), ``client_secret``
    (hidden from ``repr``), ``oauth_base`` (no trailing slash) and ``member_ttl_s`` (seconds a watcher's
    membership is remembered)."""

    port: int | None = None
    host: str = "0.0.0.0"
    client_id: int | None = None
    client_secret: str = field(default="", repr=False)
    oauth_base: str = DEFAULT_API
    member_ttl_s: float = DEFAULT_MEMBER_TTL_S

    @property
    def enabled(self) -> bool:
        return self.port is not None

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> WebSettings:
        """Read the variables above. Raises :class:`~bot.config.ConfigError` for a port outside 1-65535 (0 picks
        a free port: tests), a client id that is not a number, a base URL that is not http(s), or a membership
        time that is not a number of seconds from 0 to 3600."""
        port_text = env.get("WEB_PORT", "").strip()
        port: int | None = None
        if port_text:
            if not port_text.isdigit() or int(port_text) > 65535:
                raise ConfigError("WEB_PORT", f"must be a TCP port 0-65535, not {port_text!r}")
            port = int(port_text)
        client_text = env.get("DISCORD_CLIENT_ID", "").strip()
        if client_text and not client_text.isdigit():
            raise ConfigError("DISCORD_CLIENT_ID", f"must be the application id (digits), not {client_text!r}")
        base = (env.get("DISCORD_OAUTH_BASE") or env.get("DISCORD_API_BASE") or DEFAULT_API).strip().rstrip("/")
        if not base.startswith(("http://", "https://")):
            raise ConfigError("DISCORD_OAUTH_BASE", f"must start with http:// or https://, not {base!r}")
        ttl_text = env.get("WEB_MEMBER_TTL_S", "").strip()
        try:
            ttl = float(ttl_text) if ttl_text else DEFAULT_MEMBER_TTL_S
        except ValueError:
            ttl = -1.0
        if not 0.0 <= ttl <= MAX_MEMBER_TTL_S:
            raise ConfigError("WEB_MEMBER_TTL_S", f"must be seconds from 0 to {MAX_MEMBER_TTL_S:g}, not {ttl_text!r}")
        return cls(
            port=port,
            host=env.get("WEB_HOST", "").strip() or "0.0.0.0",
            client_id=int(client_text) if client_text else None,
            client_secret=env.get("DISCORD_CLIENT_SECRET", "").strip(),
            oauth_base=base,
            member_ttl_s=ttl,
        )
