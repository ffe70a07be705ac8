"""Step through a finished game's replay, move by move (every game with a replay renderer): the board at move *k*
with its caption, ◀ ▶ to go one move back or on, ⏮ ⏭ to the start and the end, and a select to jump to a move.

Private to the asker: **Step through** (beside the animated replay) answers with an ephemeral message, so only the
asker sees it and can click it; each later click edits that message in place (no new messages).

Persistent and stateless: custom ids encode the game and the move to show (``rc:sv:<game>:<move>:<b>``, ``b`` =
``s`` open, ``f`` first, ``p`` previous, ``n`` next, ``l`` last: one button per role, so ids stay unique in a
message; ``rc:sj:<game>`` for the jump select, its option values being move numbers). Every click reloads the
finished game from storage (:meth:`bot.services.records.Records.finished`: the asking guild's finished games only)
and draws the still off the event loop (:func:`render.replay.replay_frame`, the replay's own frame), so the
buttons keep working after a restart and show only what the stored record says.
"""

from __future__ import annotations

import io
import re
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import BotError
from bot.i18n import image_words, t
from bot.services.looks import DEFAULT, Look, look_of
from bot.services.records import record_of
from bot.ui.common import defer, fill, games, report_errors, update

if TYPE_CHECKING:
    from bot.core.kind import Snapshot
    from render.replay import ReplayRenderer

STEP_WIDTH = 600
"""Width (px) of a still: the replay's frame width (labels sized for it: 9 px capitals at 400 px)."""
JUMP_OPTIONS = 25
ROLES = {"s": "rec.step_open", "f": "⏮", "p": "◀", "n": "▶", "l": "⏭"}


def _step_job(
    record: dict[str, Any], renderer: ReplayRenderer, index: int, look: Look = DEFAULT, words: Any = None
) -> tuple[bytes, str, int, dict[int, str]]:
    """The CPU job of one still: ``(PNG, caption, actions in the game, captions of the jump select's moves)``, in
    ``words``' language (the clicker's; ``None`` = English); ``index`` is clamped to the game; the still is drawn in
    ``look`` (the stepper is private: the reader's)."""
    from engine.record import replay_steps
    from render import to_png
    from render.replay import replay_frame

    rec = renderer.parse(record)
    total = len(rec.history)
    index = max(0, min(index, total))
    names = list(rec.players)
    wanted = set(jump_moves(total, index)) | {index}
    captions: dict[int, str] = {}
    for step in replay_steps(rec.state_cls, rec.setup, rec.history):
        if step.index in wanted:
            seat, text = renderer.caption(step, names, words)
            captions[step.index] = f"{names[seat]}: {text}" if seat is not None and seat < len(names) else text
    png = to_png(replay_frame(record, renderer, index, width=STEP_WIDTH, words=words, **look.kwargs()))
    return png, captions.get(index, ""), total, captions


def jump_moves(total: int, current: int, limit: int = JUMP_OPTIONS) -> list[int]:
    """Up to ``limit`` move numbers to jump to in a game of ``total`` actions: the start, the end, the moves next to
    ``current`` and the rest spread evenly, in order."""
    if total + 1 <= limit:
        return list(range(total + 1))
    keep = {0, total, *(m for m in range(current - 2, current + 3) if 0 <= m <= total)}
    spread = limit - len(keep)
    for k in range(1, spread + 1):
        keep.add(round(k * total / (spread + 1)))
        if len(keep) >= limit:
            break
    return sorted(keep)[:limit]


class StepButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"rc:sv:(?P<game>[0-9]+):(?P<move>[0-9]+):(?P<role>[sfpnl])",
):
    """Show move ``move`` of finished game ``game`` (see the module docstring for the roles)."""

    def __init__(
        self, game_id: int, move: int, role: str, *, locale: str | None = None, disabled: bool = False
    ) -> None:
        self.game_id, self.move, self.role = game_id, move, role
        label = t(ROLES[role], locale) if role == "s" else ROLES[role]
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary if role != "s" else discord.ButtonStyle.primary,
                custom_id=f"rc:sv:{game_id}:{move}:{role}",
                disabled=disabled,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> StepButton:
        return cls(int(match["game"]), int(match["move"]), match["role"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await report_errors(interaction, lambda: show_move(interaction, self.game_id, self.move, new=self.role == "s"))


class JumpSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"rc:sj:(?P<game>[0-9]+)"):
    """Jump to a move of finished game ``game`` (the chosen option's value is the move number)."""

    def __init__(self, game_id: int, options: list[discord.SelectOption] | None = None, *, locale: str | None = None):
        self.game_id = game_id
        super().__init__(
            discord.ui.Select(
                custom_id=f"rc:sj:{game_id}",
                placeholder=t("rec.step_jump", locale)[:150],
                options=options or [discord.SelectOption(label="0", value="0")],
                min_values=1,
                max_values=1,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> JumpSelect:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        value = self.item.values[0] if self.item.values else ""

        async def work() -> None:
            if not (value.isascii() and value.isdigit()):
                raise BotError("rec.step_bad", move=value[:20])
            await show_move(interaction, self.game_id, int(value), new=False)

        await report_errors(interaction, work)


def step_view(
    game_id: int, move: int, total: int, locale: str | None, captions: dict[int, str] | None = None
) -> discord.ui.View:
    """The stepper's components at ``move`` of ``total``: ⏮ ◀ ▶ ⏭ (disabled at the ends) and the jump select (each
    option described by what that move did, ``captions[move]``, when given)."""
    captions = captions or {}
    view = discord.ui.View(timeout=None)
    for role, target, off in (
        ("f", 0, move <= 0),
        ("p", max(0, move - 1), move <= 0),
        ("n", min(total, move + 1), move >= total),
        ("l", total, move >= total),
    ):
        button = StepButton(game_id, target, role, locale=locale, disabled=off)
        button.row = 0
        view.add_item(button)
    options = [
        discord.SelectOption(
            label=t("rec.step_option", locale, move=m, total=total)[:100],
            value=str(m),
            description=captions.get(m, "")[:100] or None,
            default=m == move,
        )
        for m in jump_moves(total, move)
    ]
    select = JumpSelect(game_id, options, locale=locale)
    select.row = 1
    view.add_item(select)
    return view


async def show_move(interaction: discord.Interaction, game_id: int, move: int, *, new: bool) -> None:
    """Answer with move ``move`` (0 = the start) of finished game ``game_id`` of the interaction's guild: a new
    private message when ``new`` (Step through), else the stepper message edited in place. Refusals (``rec.*``:
    unknown, running, aborted, another guild's game; ``rec.step_none``: no replay renderer) change nothing."""
    layer = games(interaction)
    snap: Snapshot = await layer.records.finished(game_id, interaction.guild_id)
    renderer = snap.kind.replay
    if renderer is None:
        raise BotError("rec.step_none", game_id=game_id)
    if new:
        await defer(interaction, ephemeral=True)
    elif not interaction.response.is_done():
        await interaction.response.defer()  # a component: a deferred update of the stepper message
    look = await look_of(layer.storage, interaction.user.id)
    words = image_words(interaction.locale)  # a private still: the clicker's language
    png, caption, total, captions = await layer.cpu(_step_job, record_of(snap), renderer, move, look, words)
    move = max(0, min(move, total))
    loc = interaction.locale
    text = t("rec.step_head", loc, game_id=snap.id, move=move, total=total)
    if caption:
        text += "\n" + discord.utils.escape_markdown(caption)
    file = discord.File(io.BytesIO(png), filename=f"game-{snap.id}-move-{move}.png")
    view = step_view(snap.id, move, total, loc.value, captions)
    none = discord.AllowedMentions.none()
    if new:
        await fill(interaction, text[:2000], ephemeral=True, files=[file], view=view, allowed_mentions=none)
    else:
        await update(interaction, content=text[:2000], attachments=[file], view=view, allowed_mentions=none)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (StepButton, JumpSelect)
