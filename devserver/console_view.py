"""How the console shows messages: one text block per message (content, embeds, images, buttons, menus)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from devserver.models import Message

if TYPE_CHECKING:
    from devserver.server import DevServer


def component_text(c: dict[str, Any], select_no: int) -> str:
    """``[Label]`` for a button (``(off)`` when disabled), ``<select @n placeholder: values>`` for a menu."""
    if c.get("type") == 2:
        off = " (off)" if c.get("disabled") else ""
        return f"[{c.get('label') or (c.get('emoji') or {}).get('name') or c.get('custom_id')}{off}]"
    opts = ", ".join(o["value"] for o in c.get("options", []))
    placeholder = f" {c['placeholder']}" if c.get("placeholder") else ""
    return f"<select @{select_no}{placeholder}: {opts}>"


def render_message(server: DevServer, m: Message, number: int | None, saved: dict[int, Path]) -> str:
    """The console text of ``m`` (``#number`` as ``show`` numbers it; ``saved``: attachment id -> file)."""
    head = f"#{number} " if number is not None else ""
    flags = " (only you)" if m.ephemeral else ""
    flags += " (thinking...)" if m.loading else ""
    flags += " (edited)" if m.edits else ""
    lines = [f"{head}[{server.channel(m.channel_id).name}] {m.author.name}{flags}: {m.content}".rstrip()]
    for e in m.embeds:
        for key in ("title", "description"):
            if e.get(key):
                lines.append(f"  | {e[key]}")
        lines.extend(f"  | {f.get('name')}: {f.get('value')}" for f in e.get("fields") or [])
        if (e.get("footer") or {}).get("text"):
            lines.append(f"  | {e['footer']['text']}")
    for a in m.attachments:
        lines.append(f"  [image] {saved.get(a.id, a.filename)} ({a.size} bytes)")
    selects = 0
    for row in m.components:
        parts = []
        for c in row.get("components", []):
            if c.get("type") == 3:
                selects += 1
            if c.get("type") in (2, 3):
                parts.append(component_text(c, selects))
        if parts:
            lines.append("  " + " ".join(parts))
    return "\n".join(lines)
