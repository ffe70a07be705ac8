"""What passed between the bot and the dev server: the interactions it sent (and everything the bot answered to
each), the faults tests queue for first responses, the error responses it served and the bot's violations of
Discord's rules. Plain data; times are ``Clock.now()`` seconds. Re-exported by :mod:`devserver.models`.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from devserver.models import User


@dataclass
class Violation:
    """Something the bot did that Discord refuses or forbids (the reply it got is in ``status``/``code``).

    ``kind`` is a short tag: ``"late_response"`` (10062), ``"double_response"`` (40060), ``"expired_token"``,
    ``"invalid_form"`` (50035), ``"empty_message"`` (50006), ``"file_too_large"`` (40005),
    ``"unknown_message"`` (10008), ``"unknown_interaction"``, ``"followup_before_response"``,
    ``"dead_interaction_response"`` (a first response tried again after Discord answered 10062: still 10062),
    ``"global_rate_limit"`` (over 50 requests/s outside the interaction endpoints), ``"rate_limited"`` (past a
    route bucket), ``"daily_command_creates"`` (30034), ``"heartbeat_late"`` (a blocked event loop), ``"spec"``
    (the request breaks Discord's OpenAPI spec: ``details`` is the ``conformance.SpecCheck``).
    """

    kind: str
    message: str
    route: str
    status: int
    code: int
    details: Any = None


@dataclass
class ErrorRecord:
    """An error response the server sent (``injected`` = asked for by a test; ``note`` = why, e.g. ``"missing
    attach_files"`` for a 403)."""

    route: str
    status: int
    body: Any
    injected: bool = False
    note: str = ""


@dataclass
class Interaction:
    """One interaction the server sent to the bot, and everything the bot answered to it.

    ``type``: 2 slash command, 3 component, 4 autocomplete. ``response_type`` is the callback type the bot used
    (4 message, 5 deferred message, 6 deferred update, 7 update message, 8 autocomplete result, 9 modal) or None.
    ``created_at``/``responded_at`` are ``Clock.now()`` seconds.
    """

    id: int
    token: str
    type: int
    user: User
    channel_id: int
    data: dict[str, Any]
    created_at: float
    message_id: int | None = None
    response_type: int | None = None
    responded_at: float | None = None
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = None
    original_edits: int = 0
    message_edits_at_start: int = 0
    last_activity: float = 0.0
    violations: list[Violation] = field(default_factory=list)
    guild_id: int | None = None
    key: str = ""  # the command path ("constructo place") or the component / modal custom_id
    delivered: bool = True  # False when no gateway session owned the guild's shard (nobody got it)
    dead: bool = False  # Discord answered 10062 to a first response: no response can follow
    fault: InteractionFault | None = None


@dataclass
class InteractionFault:
    """A fault served to the first response of the next ``count`` interactions whose key (command path, or
    component/modal ``custom_id``) matches ``match`` (an fnmatch pattern; a command also matches by its leading
    words: ``"constructo"`` matches ``"constructo accept"``). See ``DevServer.inject_interaction_failure``."""

    match: str
    code: int | None = 10062
    count: int = 1
    delay: float = 0.0
    autocomplete: bool = False
    hits: int = 0

    def matches(self, key: str, itype: int) -> bool:
        if self.hits >= self.count or (itype == 4) != self.autocomplete:
            return False
        return fnmatch.fnmatchcase(key, self.match) or key.startswith(self.match + " ")
