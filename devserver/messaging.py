"""Creating, editing and announcing messages, shared by the channel, callback and webhook routes.

An edit keeps only the attachments its ``attachments`` list names (no list: keeps them all and appends the new
files). Ephemeral messages (flags 64) are visible only to the invoking user and can only be edited through the
interaction token. Every limit of ``limits.validate_message`` is enforced (400 code 50035, 413 code 40005 for
uploads over 10 MiB, 400 code 50006 for an empty message) and recorded as the bot's violation.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from devserver.limits import MAX_FILE_BYTES as MAX_FILE
from devserver.limits import validate_message
from devserver.models import EPHEMERAL, LOADING, Attachment, Interaction, Message, iso_now, snowflake
from devserver.rest import ApiError, UploadedFile, invalid_form

if TYPE_CHECKING:
    from devserver.server import DevServer

VIOLATION_KINDS = {50035: "invalid_form", 40005: "file_too_large", 50006: "empty_message"}


def new_attachments(payload: dict[str, Any], files: list[UploadedFile], listed_only: bool) -> list[Attachment]:
    """The uploaded ``files`` as attachments, named by the payload's ``attachments`` list (``listed_only``: only
    the files that list names, as an edit does)."""
    meta = {str(a.get("id")): a for a in payload.get("attachments") or [] if isinstance(a, dict)}
    out = []
    for index, filename, data, ctype in sorted(files):
        info = meta.get(str(index))
        if listed_only and info is None:
            continue
        info = info or {}
        out.append(
            Attachment(
                id=snowflake(),
                filename=info.get("filename") or filename,
                data=data,
                content_type=ctype,
                description=info.get("description"),
            )
        )
    return out


def check_message(
    s: DevServer,
    payload: dict[str, Any],
    files: list[UploadedFile],
    route: str,
    *,
    edit: bool = False,
    it: Interaction | None = None,
    channel_id: int | None = None,
) -> None:
    """Raise the Discord error for a payload breaking a message limit, recording it as a violation (a file within
    Discord's default 10 MiB but over a guild's lowered upload limit, ``set_upload_limit``, is 413/40005 without a
    violation: the bot cannot know a limit changed after the interaction it answers was created)."""
    limit = upload_limit(s, it.channel_id if it is not None else channel_id)
    problems = validate_message(payload, [(f[1], f[2]) for f in files], edit=edit, max_file_bytes=limit)
    if problems and all(p.code == "FILE_TOO_LARGE" for p in problems) and all(len(f[2]) <= MAX_FILE for f in files):
        raise invalid_form(problems)
    if problems:
        err = invalid_form(problems)
        s.violate(
            VIOLATION_KINDS[err.code],
            "; ".join(p.message for p in problems),
            route,
            err.status,
            err.code,
            [p.__dict__ for p in problems],
            interaction=it,
        )
        raise err


def upload_limit(s: DevServer, channel_id: int | None) -> int:
    """Bytes a file may have in ``channel_id``'s guild (``Guild.upload_limit``; 10 MiB without a guild)."""
    channel = s.channels.get(channel_id) if channel_id is not None else None
    guild = s.guilds.get(channel.guild_id) if channel is not None and channel.guild_id is not None else None
    return guild.upload_limit if guild is not None else 10 * 1024 * 1024


_USER = re.compile(r"<@!?([0-9]{1,20})>")
_ROLE = re.compile(r"<@&([0-9]{1,20})>")


def record_pings(msg: Message, payload: dict[str, Any]) -> None:
    """Record on ``msg`` whom its content notifies under Discord's ``allowed_mentions`` rules (Message resource,
    "Allowed mentions object"): absent, every user, role and ``@everyone``/``@here`` mention in the content pings;
    present, only the ``parse`` types and the listed ``users``/``roles``. Counted on the create and on every edit
    that sets content (stricter than Discord, which notifies on an edit only when it fills a deferred response)."""
    allowed = payload.get("allowed_mentions")
    if isinstance(allowed, dict) or "allowed_mentions" in payload:
        msg.allowed_mentions = allowed
    content = str(payload.get("content") or "")
    if not content:
        return
    rules = msg.allowed_mentions if isinstance(msg.allowed_mentions, dict) else None
    parse = set(rules.get("parse") or []) if rules is not None else {"users", "roles", "everyone"}
    users = {int(u) for u in (rules or {}).get("users") or []}
    roles = {int(r) for r in (rules or {}).get("roles") or []}
    for uid in map(int, _USER.findall(content)):
        if ("users" in parse or uid in users) and uid not in msg.pinged_users:
            msg.pinged_users.append(uid)
    for rid in map(int, _ROLE.findall(content)):
        if ("roles" in parse or rid in roles) and rid not in msg.pinged_roles:
            msg.pinged_roles.append(rid)
    if "everyone" in parse and ("@everyone" in content or "@here" in content):
        msg.pinged_everyone = True


def create_message(
    s: DevServer,
    channel_id: int,
    payload: dict[str, Any],
    files: list[UploadedFile],
    *,
    it: Interaction | None = None,
    visible_to: int | None = None,
    mtype: int = 0,
) -> Message:
    """Store a new message by the bot (through interaction ``it`` if given: ephemeral flag honoured)."""
    flags = int(payload.get("flags") or 0)
    msg = Message(
        id=snowflake(),
        channel_id=channel_id,
        guild_id=s.channels[channel_id].guild_id,
        author=s.bot_user,
        content=str(payload.get("content") or ""),
        embeds=list(payload.get("embeds") or []),
        components=list(payload.get("components") or []),
        attachments=new_attachments(payload, files, listed_only=False),
        flags=flags,
        type=mtype,
    )
    if it is not None:
        msg.webhook_id = s.application_id
        msg.interaction_id, msg.interaction_user, msg.interaction_type = it.id, it.user, it.type
        if flags & EPHEMERAL:
            msg.visible_to = it.user.id
    elif visible_to is not None:
        msg.visible_to = visible_to
    record_pings(msg, payload)
    return s.add_message(msg)


def edit_message(s: DevServer, msg: Message, payload: dict[str, Any], files: list[UploadedFile]) -> Message:
    """Apply an edit (content, embeds, components, attachments, flags) to ``msg``."""
    for key in ("content", "embeds", "components"):
        if key in payload:
            value = payload[key]
            setattr(msg, key, (value or "") if key == "content" else list(value or []))
    if "attachments" in payload:
        keep = {str(a.get("id")) for a in payload["attachments"] or [] if isinstance(a, dict)}
        msg.attachments = [a for a in msg.attachments if str(a.id) in keep]
        msg.attachments += new_attachments(payload, files, listed_only=True)
    else:
        msg.attachments += new_attachments(payload, files, listed_only=False)
    if "flags" in payload and payload["flags"] is not None:
        msg.flags = (msg.flags & EPHEMERAL) | (int(payload["flags"]) & ~EPHEMERAL)
    msg.flags &= ~LOADING
    record_pings(msg, payload)
    msg.edited_timestamp = iso_now()
    msg.edits += 1
    s.notify()
    return msg


async def announce(s: DevServer, event: str, msg: Message) -> None:
    """MESSAGE_CREATE / MESSAGE_UPDATE for a public guild message, to sessions with the GUILD_MESSAGES intent."""
    if msg.visible_to is None and msg.guild_id is not None:
        await s.dispatch(event, msg.to_payload(s.base_url), guild_id=msg.guild_id, intent=s.message_intent(msg))


def bot_message(s: DevServer, channel_id: str, message_id: str) -> Message:
    """A message of ``channel_id`` the bot can see; 404 code 10008 otherwise (deleted or ephemeral included)."""
    try:
        msg = s.message(int(message_id))
    except (KeyError, ValueError) as exc:
        raise ApiError(404, 10008, "Unknown Message") from exc
    if str(msg.channel_id) != channel_id or not msg.visible_for(None):
        raise ApiError(404, 10008, "Unknown Message")
    return msg
