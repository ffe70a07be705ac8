"""Where the database file lives by default."""

from __future__ import annotations

import os
from pathlib import Path

DB_FILENAME = "tablebot.sqlite3"


def data_dir() -> Path:
    """The data directory: ``$DATA_DIR`` if set (non-empty), else ``$XDG_DATA_HOME/tablebot`` if
    ``XDG_DATA_HOME`` is an absolute path (the XDG spec ignores relative ones), else
    ``~/.local/share/tablebot``. Not created here."""
    explicit = os.environ.get("DATA_DIR", "").strip()
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME", "").strip()
    if xdg and Path(xdg).is_absolute():
        return Path(xdg) / "tablebot"
    return Path.home() / ".local" / "share" / "tablebot"


def default_db_path(*, create: bool = True) -> Path:
    """The default database file, ``<data_dir()>/tablebot.sqlite3``.

    With ``create=True`` (default) the directory is created (with parents) if missing; the file
    itself is created by ``Storage.open``. Raises ``OSError`` if the directory cannot be created."""
    directory = data_dir()
    if create:
        directory.mkdir(parents=True, exist_ok=True)
    return directory / DB_FILENAME
