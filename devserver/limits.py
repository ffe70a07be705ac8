"""Discord's documented limits (``/work/shared/design/discord-limits.md``) as validators.

Each validator returns a list of ``Problem`` (path, code, message); an empty list means the payload
is acceptable. ``form_error_body`` turns problems into Discord's "Invalid Form Body" error (code 50035),
nested by path exactly as Discord answers (``{"errors": {"0": {"name": {"_errors": [...]}}}}``).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

MAX_CONTENT = 2000
MAX_FILE_BYTES = 10 * 1024 * 1024
MAX_REQUEST_BYTES = 25 * 1024 * 1024
MAX_FILES = 10
ATTACHMENT_IMAGE_EXTS = (".png", ".jpg", ".jpeg", ".webp", ".gif")


@dataclass(frozen=True)
class Problem:
    """One broken limit: ``path`` into the JSON body, a Discord-style ``code`` and an English ``message``."""

    path: tuple[str | int, ...]
    code: str
    message: str


def form_error_body(problems: list[Problem]) -> dict[str, Any]:
    """Discord's 400 body for ``problems``: code 50035 with errors nested by path."""
    errors: dict[str, Any] = {}
    for p in problems:
        node = errors
        for key in p.path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": p.code, "message": p.message})
    return {"code": 50035, "message": "Invalid Form Body", "errors": errors}


# --------------------------------------------------------------------------- application commands


def _name_ok(name: str) -> bool:
    """Implements ``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, lowercase where a lowercase exists."""
    if not 1 <= len(name) <= 32:
        return False
    for ch in name:
        cat = unicodedata.category(ch)
        script_ok = "\u0900" <= ch <= "\u097f" or "\u0e00" <= ch <= "\u0e7f"
        if not (ch in "-_'" or cat[0] in "LN" or script_ok):
            return False
        if ch.lower() != ch:
            return False
    return True


def _text_len(text: Any, lo: int, hi: int) -> bool:
    return isinstance(text, str) and lo <= len(text) <= hi


def _check_choices(opt: dict[str, Any], path: tuple[str | int, ...], out: list[Problem]) -> int:
    choices = opt.get("choices") or []
    size = 0
    if len(choices) > 25:
        out.append(Problem((*path, "choices"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."))
    if choices and opt.get("autocomplete"):
        out.append(
            Problem(
                (*path, "autocomplete"),
                "APPLICATION_COMMAND_OPTION_CHOICES_AUTOCOMPLETE",
                "Autocomplete cannot be used with choices.",
            )
        )
    for i, ch in enumerate(choices):
        name = ch.get("name")
        if not _text_len(name, 1, 100):
            out.append(
                Problem((*path, "choices", i, "name"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
            )
        value = ch.get("value")
        if isinstance(value, str) and len(value) > 100:
            out.append(
                Problem((*path, "choices", i, "value"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
            )
        size += len(name or "") + len(str(value))
    return size


def _check_options(options: list[dict[str, Any]], path: tuple[str | int, ...], depth: int, out: list[Problem]) -> int:
    """Validate one level of options; returns the characters counted toward the 8000 total."""
    size = 0
    if len(options) > 25:
        out.append(Problem((*path, "options"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."))
    seen: set[str] = set()
    optional_seen = False
    kinds = {1 if o.get("type") in (1, 2) else 0 for o in options}
    if len(kinds) > 1:
        out.append(
            Problem(
                (*path, "options"),
                "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                "Sub-command and sub-command group option types are mutually exclusive to all other types",
            )
        )
    for i, opt in enumerate(options):
        p = (*path, "options", i)
        name, desc, typ = opt.get("name", ""), opt.get("description", ""), opt.get("type")
        size += len(name) + len(desc)
        if not _name_ok(name):
            out.append(Problem((*p, "name"), "APPLICATION_COMMAND_INVALID_NAME", f"Command name is invalid: {name!r}"))
        if name in seen:
            out.append(
                Problem(
                    (*p, "name"),
                    "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                    f"Option name {name!r} is already used in these options",
                )
            )
        seen.add(name)
        if not _text_len(desc, 1, 100):
            out.append(Problem((*p, "description"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."))
        if typ not in range(1, 12):
            out.append(Problem((*p, "type"), "BASE_TYPE_CHOICES", f"Value must be one of 1..11, got {typ!r}"))
        if typ in (1, 2):
            if (typ == 2 and depth > 0) or (typ == 1 and depth > 1):
                out.append(
                    Problem(
                        (*p, "type"),
                        "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                        "Sub-command groups cannot be nested this deep",
                    )
                )
            sub = opt.get("options") or []
            if typ == 2 and any(s.get("type") != 1 for s in sub):
                out.append(
                    Problem(
                        (*p, "options"),
                        "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                        "A sub-command group may only contain sub-commands",
                    )
                )
            size += _check_options(sub, p, depth + 1, out)
            continue
        if opt.get("required"):
            if optional_seen:
                out.append(
                    Problem(
                        (*p, "required"),
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                    )
                )
        else:
            optional_seen = True
        size += _check_choices(opt, p, out)
        if opt.get("autocomplete") and typ not in (3, 4, 10):
            out.append(
                Problem(
                    (*p, "autocomplete"),
                    "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                    "Autocomplete is only for string, integer and number options",
                )
            )
        for key, lo, hi in (("min_length", 0, 6000), ("max_length", 1, 6000)):
            if key in opt and opt[key] is not None and not lo <= opt[key] <= hi:
                out.append(Problem((*p, key), "NUMBER_TYPE_MAX", f"{key} must be between {lo} and {hi}"))
    return size


def validate_commands(commands: list[dict[str, Any]]) -> list[Problem]:
    """Check a bulk overwrite (``PUT .../commands``) against every documented command limit.

    Limits: name regex and lowercase, description 1–100 (chat input), <= 25 options / subcommands / choices,
    choice name 1–100 and string value <= 100, autocomplete not with choices, required before optional,
    8000 characters per command, unique names per type, <= 100 chat-input commands.
    """
    out: list[Problem] = []
    if not isinstance(commands, list):
        return [Problem((), "BASE_TYPE_ARRAY", "Must be an array.")]
    names: set[tuple[int, str]] = set()
    if sum(1 for c in commands if c.get("type", 1) == 1) > 100:
        out.append(Problem((), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length."))
    for i, cmd in enumerate(commands):
        typ = cmd.get("type", 1)
        name = cmd.get("name", "")
        if (typ, name) in names:
            out.append(
                Problem(
                    (i, "name"),
                    "APPLICATION_COMMANDS_DUPLICATE_NAME",
                    f"Application command names must be unique: {name!r}",
                )
            )
        names.add((typ, name))
        if typ == 1:
            if not _name_ok(name):
                out.append(
                    Problem((i, "name"), "APPLICATION_COMMAND_INVALID_NAME", f"Command name is invalid: {name!r}")
                )
            if not _text_len(cmd.get("description", ""), 1, 100):
                out.append(Problem((i, "description"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."))
            size = len(name) + len(cmd.get("description", ""))
            size += _check_options(cmd.get("options") or [], (i,), 0, out)
            if size > 8000:
                out.append(
                    Problem((i,), "APPLICATION_COMMAND_TOO_LARGE", f"Command exceeds maximum size (8000): {size}")
                )
        elif not _text_len(name, 1, 32):
            out.append(Problem((i, "name"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 32 in length."))
    return out


# --------------------------------------------------------------------------- messages


def _check_embeds(embeds: list[dict[str, Any]], out: list[Problem]) -> None:
    if len(embeds) > 10:
        out.append(Problem(("embeds",), "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length."))
    total = 0
    for i, e in enumerate(embeds):
        p: tuple[str | int, ...] = ("embeds", i)
        for key, hi in (("title", 256), ("description", 4096)):
            text = e.get(key) or ""
            total += len(text)
            if len(text) > hi:
                out.append(Problem((*p, key), "BASE_TYPE_MAX_LENGTH", f"Must be {hi} or fewer in length."))
        for key, sub, hi in (("footer", "text", 2048), ("author", "name", 256)):
            text = (e.get(key) or {}).get(sub) or ""
            total += len(text)
            if len(text) > hi:
                out.append(Problem((*p, key, sub), "BASE_TYPE_MAX_LENGTH", f"Must be {hi} or fewer in length."))
        fields = e.get("fields") or []
        if len(fields) > 25:
            out.append(Problem((*p, "fields"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."))
        for j, f in enumerate(fields):
            for key, hi in (("name", 256), ("value", 1024)):
                text = f.get(key) or ""
                total += len(text)
                if not 1 <= len(text) <= hi:
                    out.append(
                        Problem(
                            (*p, "fields", j, key), "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {hi} in length."
                        )
                    )
    if total > 6000:
        out.append(
            Problem(("embeds",), "MESSAGE_EMBEDS_TOO_LARGE", f"Embed size exceeds maximum size of 6000: {total}")
        )


def _check_select(comp: dict[str, Any], p: tuple[str | int, ...], out: list[Problem]) -> None:
    if comp.get("type") == 3:
        options = comp.get("options") or []
        if not 1 <= len(options) <= 25:
            out.append(Problem((*p, "options"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 25 in length."))
        values: set[str] = set()
        for k, o in enumerate(options):
            for key in ("label", "value", "description"):
                text = o.get(key)
                if key == "description" and text is None:
                    continue
                if not _text_len(text, 1, 100):
                    out.append(
                        Problem((*p, "options", k, key), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
                    )
            if o.get("value") in values:
                out.append(
                    Problem(
                        (*p, "options", k, "value"),
                        "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                        "Select option values must be unique",
                    )
                )
            values.add(o.get("value"))
        hi = len(options)
    else:
        hi = 25
    if len(comp.get("placeholder") or "") > 150:
        out.append(Problem((*p, "placeholder"), "BASE_TYPE_MAX_LENGTH", "Must be 150 or fewer in length."))
    lo_v, hi_v = comp.get("min_values", 1), comp.get("max_values", 1)
    if not (0 <= lo_v <= 25 and 1 <= hi_v <= 25 and lo_v <= hi_v <= max(hi, 1)):
        out.append(Problem((*p, "max_values"), "BASE_TYPE_BAD_VALUE", "min_values/max_values out of range"))


def _check_components(rows: list[dict[str, Any]], flags: int, out: list[Problem]) -> None:
    if flags & (1 << 15):  # components v2: only the id limits are checked
        return
    if len(rows) > 5:
        out.append(Problem(("components",), "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length."))
    ids: set[str] = set()
    for i, row in enumerate(rows):
        p: tuple[str | int, ...] = ("components", i)
        if row.get("type") != 1:
            out.append(Problem((*p, "type"), "UNION_TYPE_CHOICES", "Top-level components must be action rows"))
            continue
        comps = row.get("components") or []
        buttons = [c for c in comps if c.get("type") == 2]
        selects = [c for c in comps if c.get("type") in (3, 5, 6, 7, 8)]
        if not comps:
            out.append(Problem((*p, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."))
        if len(buttons) > 5 or (selects and len(comps) > 1):
            out.append(
                Problem(
                    (*p, "components"),
                    "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                    "An action row holds up to 5 buttons or exactly 1 select menu",
                )
            )
        for j, c in enumerate(comps):
            q = (*p, "components", j)
            link = c.get("type") == 2 and c.get("style") in (5, 6)
            cid = c.get("custom_id")
            if link:
                if cid is not None:
                    out.append(
                        Problem(
                            (*q, "custom_id"), "COMPONENT_CUSTOM_ID_FORBIDDEN", "Link buttons cannot have a custom_id"
                        )
                    )
            elif not _text_len(cid, 1, 100):
                out.append(Problem((*q, "custom_id"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."))
            elif cid in ids:
                out.append(
                    Problem(
                        (*q, "custom_id"),
                        "COMPONENT_CUSTOM_ID_DUPLICATED",
                        f"Component custom id cannot be duplicated: {cid!r}",
                    )
                )
            if cid:
                ids.add(cid)
            if c.get("type") == 2:
                if len(c.get("label") or "") > 80:
                    out.append(Problem((*q, "label"), "BASE_TYPE_MAX_LENGTH", "Must be 80 or fewer in length."))
                if not c.get("label") and not c.get("emoji"):
                    out.append(
                        Problem(
                            (*q, "label"),
                            "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
                            "A button needs a label or an emoji",
                        )
                    )
            else:
                _check_select(c, q, out)


def validate_message(
    payload: dict[str, Any],
    files: list[tuple[str, bytes]],
    *,
    edit: bool = False,
    kept_attachments: int = 0,
    max_file_bytes: int = MAX_FILE_BYTES,
) -> list[Problem]:
    """Check a message create/edit body plus uploaded ``files`` (name, bytes) against Discord's limits.

    Limits: content <= 2000; embeds (10, title 256, description 4096, 25 fields 256/1024, footer 2048, 6000 in
    all); components (5 rows, 5 buttons or 1 select per row, custom_id 1–100 and unique, button label <= 80,
    select options 1–25 with label/value/description <= 100); files <= ``max_file_bytes`` each (the guild's upload
    limit, 10 MiB by default), <= 10 files, <= 25 MiB per
    request; ``attachment://`` only for png/jpg/jpeg/webp/gif among the uploaded files. A new message may not be
    empty (code ``EMPTY``, reported by the caller as 50006).
    """
    out: list[Problem] = []
    content = payload.get("content")
    if content is not None and len(str(content)) > MAX_CONTENT:
        out.append(Problem(("content",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_CONTENT} or fewer in length."))
    embeds = payload.get("embeds") or []
    _check_embeds(embeds, out)
    _check_components(payload.get("components") or [], int(payload.get("flags") or 0), out)
    if len(files) > MAX_FILES:
        out.append(Problem(("files",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_FILES} or fewer in length."))
    for i, (name, data) in enumerate(files):
        if len(data) > max_file_bytes:
            out.append(
                Problem(
                    (f"files[{i}]",),
                    "FILE_TOO_LARGE",
                    f"{name}: {len(data)} bytes is over the {max_file_bytes} bytes upload limit",
                )
            )
    if sum(len(d) for _, d in files) > MAX_REQUEST_BYTES:
        out.append(Problem(("files",), "REQUEST_TOO_LARGE", "Request entity too large (25 MiB)"))
    names = {n for n, _ in files}
    for i, e in enumerate(embeds):
        for key in ("image", "thumbnail"):
            url = (e.get(key) or {}).get("url") or ""
            if url.startswith("attachment://"):
                ref = url.removeprefix("attachment://")
                if not ref.lower().endswith(ATTACHMENT_IMAGE_EXTS):
                    out.append(
                        Problem(
                            ("embeds", i, key, "url"),
                            "ATTACHMENT_URL_TYPE",
                            f"attachment:// only works for png, jpg, jpeg, webp, gif: {ref!r}",
                        )
                    )
                elif ref not in names and not edit:
                    out.append(
                        Problem(
                            ("embeds", i, key, "url"),
                            "ATTACHMENT_NOT_FOUND",
                            f"attachment://{ref} names no uploaded file",
                        )
                    )
    if not edit and not (content or embeds or payload.get("components") or files or payload.get("poll")):
        out.append(Problem((), "EMPTY", "Cannot send an empty message"))
    return out
