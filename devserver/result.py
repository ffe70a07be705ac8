"""``InteractionResult``: a live view of what the bot answered to one interaction, and waiting for it."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from devserver.models import INTERACTION_DEADLINE_S, Interaction, Message

if TYPE_CHECKING:
    from devserver.server import DevServer


class InteractionResult:
    """What the bot answered to one interaction (live view: values change as the bot edits).

    ``response_type`` (4 message, 5 deferred, 6 deferred update, 7 update, 8 autocomplete, 9 modal or None),
    ``message`` (the original response, or the clicked message for types 6/7), ``content``, ``ephemeral``,
    ``attachments`` (bytes of the original's files), ``followups`` (messages), ``choices`` (autocomplete),
    ``failed`` (True once Discord's client would show "This interaction failed": no response within 3 s, the
    bot's only answer was refused, or Discord answered 10062 to it; also when no gateway session owned the guild's
    shard, once 3 s have passed: ``interaction.delivered`` is then False).
    """

    def __init__(self, server: DevServer, interaction: Interaction) -> None:
        self.server = server
        self.interaction = interaction

    def __repr__(self) -> str:
        return (
            f"<InteractionResult type={self.interaction.type} response={self.response_type} "
            f"content={self.content!r} followups={len(self.followups)}>"
        )

    @property
    def response_type(self) -> int | None:
        return self.interaction.response_type

    @property
    def message(self) -> Message | None:
        it = self.interaction
        mid = it.original_message_id or (it.message_id if it.response_type in (6, 7) else None)
        return self.server.message(mid) if mid else None

    @property
    def content(self) -> str:
        return self.message.content if self.message else ""

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self.message.embeds if self.message else []

    @property
    def ephemeral(self) -> bool:
        return bool(self.message and self.message.ephemeral)

    @property
    def attachments(self) -> list[bytes]:
        return self.message.images if self.message else []

    @property
    def followups(self) -> list[Message]:
        return [self.server.message(i) for i in self.interaction.followup_ids]

    @property
    def messages(self) -> list[Message]:
        """The original response (if a message) followed by the followups, deleted ones left out."""
        out = [self.message] if self.message is not None and self.interaction.original_message_id else []
        return [m for m in (*out, *self.followups) if not m.deleted]

    @property
    def images(self) -> list[bytes]:
        """Every attachment of the original response and the followups, in order."""
        return [b for m in self.messages for b in m.images]

    @property
    def text(self) -> str:
        """All contents and embed titles/descriptions of the response messages, joined by newlines."""
        parts: list[str] = []
        for m in self.messages:
            parts.append(m.content)
            for e in m.embeds:
                parts.extend(str(e.get(k) or "") for k in ("title", "description"))
                parts.extend(f"{f.get('name')}: {f.get('value')}" for f in e.get("fields") or [])
        return "\n".join(p for p in parts if p)

    @property
    def later_messages(self) -> list[Message]:
        """Messages the bot posted after this interaction (not through its token) that its user can see:
        e.g. a board image posted to the channel or a thread once a challenge is accepted."""
        it = self.interaction
        own = {it.original_message_id, *it.followup_ids}
        return [
            m
            for m in self.server.all_messages()
            if m.id > it.id and m.id not in own and m.interaction_id is None and m.visible_for(it.user.id)
        ]

    @property
    def choices(self) -> list[dict[str, Any]] | None:
        return self.interaction.choices

    @property
    def violations(self) -> list[Any]:
        return list(self.interaction.violations)

    @property
    def failed(self) -> bool:
        it = self.interaction
        if it.response_type is None:  # no answer in 3 s, Discord refused it (10062), or it broke a limit
            return it.dead or bool(it.violations) or self.server.clock.now() - it.created_at > INTERACTION_DEADLINE_S
        return False

    def complete(self) -> bool:
        """True once answered: a response exists and a deferred message response has been filled in."""
        it = self.interaction
        if it.response_type is None:
            return False
        if it.response_type == 5:
            msg = self.message
            return msg is not None and (not msg.loading or msg.deleted)
        if it.response_type == 6:  # deferred update: done once the message is edited or something is sent
            msg = self.message
            if it.original_edits > 0 or it.followup_ids or (msg is not None and msg.edits > it.message_edits_at_start):
                return True
            return any(m.id > it.id and m.channel_id == it.channel_id for m in self.server.all_messages())
        return True

    async def wait(
        self,
        timeout: float = 10.0,  # noqa: ASYNC109
        *,
        followups: int = 0,
        messages: int = 0,
        settle: float = 0.15,
    ) -> InteractionResult:
        """Wait until the bot has answered (see ``complete``) with at least ``followups`` followups and
        ``messages`` ``later_messages``, then until the bot has been quiet (no request) for ``settle`` s.

        Returns self; an unanswered interaction (``failed``) returns after the 3-s deadline instead of raising.
        Raises ``TimeoutError`` after ``timeout`` s.
        """
        s = self.server
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout

        def done() -> bool:
            if self.failed:
                return True
            return (
                self.complete()
                and len(self.interaction.followup_ids) >= followups
                and (messages == 0 or len(self.later_messages) >= messages)
            )

        await s.wait_until(done, timeout, f"the bot's answer to interaction {self.interaction.id}")
        while settle > 0 and loop.time() < end:
            quiet = s.clock.now() - s.last_activity
            if quiet >= settle:
                break
            await asyncio.sleep(settle - quiet)
        return self
