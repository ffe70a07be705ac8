"""Command sync: compare the local command tree with what Discord reports for the application (one ``GET`` of the
application's commands, with localizations) and overwrite them only when they differ.

A local hash is not enough: an application whose commands were deleted elsewhere (another deploy, the developer
portal, a new application on an old ``DATA_DIR``) would keep no commands. Only the fields the bot sends are
compared (Discord adds ids, versions and defaults of its own); a field Discord leaves out counts as its empty
default (``None``, ``False``, ``[]``, ``{}``).
"""

from __future__ import annotations

from typing import Any

_EMPTY: tuple[Any, ...] = (None, False, (), "")


def _norm(value: Any) -> Any:
    """``value`` with empty fields dropped from dicts (recursively), so an omitted default equals a sent one."""
    if isinstance(value, dict):
        out = {k: _norm(v) for k, v in value.items()}
        return {k: v for k, v in out.items() if not (v in _EMPTY or v == [] or v == {})}
    if isinstance(value, list | tuple):
        return [_norm(v) for v in value]
    return value


def _covers(remote: Any, local: Any) -> bool:
    """True when ``remote`` holds every field of ``local`` with the same value (lists element by element)."""
    if isinstance(local, dict):
        if not isinstance(remote, dict):
            return False
        return all(_covers(remote.get(k), v) for k, v in local.items())
    if isinstance(local, list):
        return (
            isinstance(remote, list)
            and len(remote) == len(local)
            and all(_covers(r, v) for r, v in zip(remote, local, strict=True))
        )
    if isinstance(local, int | float) and isinstance(remote, str):  # permissions come back as strings
        return str(local) == remote
    if isinstance(local, str) and isinstance(remote, int | float):
        return local == str(remote)
    return bool(remote == local)


def same_commands(local: list[dict[str, Any]], remote: list[dict[str, Any]]) -> bool:
    """True when Discord's ``remote`` commands are the ``local`` payload (same set by name and type, each
    carrying every field the bot sends)."""

    def key(c: dict[str, Any]) -> tuple[str, int]:
        return str(c.get("name")), int(c.get("type") or 1)

    mine = {key(c): _norm(c) for c in local}
    theirs = {key(c): _norm(c) for c in remote}
    if mine.keys() != theirs.keys():
        return False
    return all(_covers(theirs[k], v) for k, v in mine.items())
