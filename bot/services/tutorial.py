"""Tutorials (``/learn <game>``): a guided first game against a gentle AI seat, one rule at a time.

A tutorial is **a real game** of the game's kind: opened by :meth:`Tutorials.open` through ``Lobby.open`` (stored,
resumed, played, published and recorded like any game, every action through the layer's one path), against one AI
seat at the lesson's level (easy), on the daily clock (:data:`CLOCK`), marked by the option :data:`MARK` in its
envelope. The tutorial adds only words (and, where the lesson has one, the AI's gentle steer):

- **Steps** (:class:`Lesson`, from the game's own ``<package>/tutorial.py: LESSON``): the game names its rules in
  teaching order and says which of them matter in a position (``lesson.reached(state, learner)``). Every board of a
  tutorial on which the learner is to act (or that ends the game) teaches the rules that matter there for the first
  time, one sentence each, between the headline and the status line (the publisher's ``notes`` hook).
- **Progress** is stored, not remembered: storage meta ``learn:<game id>`` = ``{"taught": {step: version}}`` (the
  game version whose board first taught each step), so a board posted again (recovery, a restart mid-tutorial)
  shows exactly the steps it showed before, and a restarted bot carries on where the learner was.
- **The end**: a finished tutorial owes the ``learn`` effect (outbox: durable, run once): once its last board is
  out, a message in the game's channel recaps the rules the game did not show and offers a real game (the AI at a
  chosen level, an open challenge or lobby, a quick match: ``bot/ui/learn_views.py``).

Privacy: the game is opened through a :class:`LearnPlace` (nothing answers in the channel): in a server that keeps
games in threads (the default) it is a thread of its own with one live board, the command's answer is private (a
link to it), and its result card is not posted in the channel (``bot/services/footprint.py``). The whole tutorial
speaks the learner's language (``interaction.locale`` as :mod:`bot.services.language` resolved it).
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import json
import logging
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot.core.envelope import Seat
from bot.core.kind import GameKind, Snapshot
from bot.core.names import plain
from bot.core.outbox import Drop
from bot.core.respond import reply
from bot.errors import BotError, OneOf
from bot.i18n import t
from bot.services.boards import BOARD_VERSION_KEY
from bot.services.delivery import GuildGone
from bot.services.place import Place
from bot.storage import Effect, Owed

if TYPE_CHECKING:
    from bot.core.layer import GameLayer

log = logging.getLogger(__name__)

MARK = "tutorial"
"""Option of a tutorial game's envelope (``options["tutorial"] = True``)."""
EFFECT = "learn"
"""Outbox effect of a finished tutorial: its closing message (recap and real-game offer)."""
END_KEY = "learn_end"
"""Message key of the closing message."""
CLOCK = "daily"
"""A tutorial's clock: 24 hours per move (plenty to read), so a tutorial left behind ends by itself and frees the
member's and the server's open-game caps (the AI claims nothing: the layer applies the timeout, and the closing
message follows)."""
END_DELAY_S = 1.0
"""Seconds after the last commit before a worker may post the closing message (the last board goes first)."""


@dataclass(frozen=True)
class Lesson:
    """A game's tutorial (``<package>/tutorial.py: LESSON``).

    Attributes:
        steps: the rules taught, in teaching order (keys ``<kind prefix>.learn.<step>`` of the catalogues, one
            sentence each).
        reached: ``reached(state, learner) -> steps`` whose rule matters in this engine state for the ``learner``
            seat (called on boards where the learner is to act, and on the last board). Pure, cheap (it runs on
            the event loop: no search).
        options: the options of the tutorial game, before ``kind.rules.validate_options``.
        words: ``words(state) -> dict``: the placeholders of the step sentences (e.g. the goal).
        level: the AI seat's level.
        steer: ``steer(state, ai_seat, learner) -> action text | None``: the AI's gentle opening, an action that
            brings a rule up for the learner (played instead of the AI's own search; ``None``: the AI plays its
            level). Pure and cheap, like ``reached``.
    """

    steps: tuple[str, ...]
    reached: Callable[[Any, int], Iterable[str]]
    options: Mapping[str, Any] = field(default_factory=dict)
    words: Callable[[Any], dict[str, Any]] = lambda _state: {}
    level: str = "easy"
    steer: Callable[[Any, int, int], str | None] | None = None


def advance(taught: Mapping[str, int], reached: Iterable[str], steps: Sequence[str], version: int) -> dict[str, int]:
    """The progress after a board of ``version`` on which the steps ``reached`` matter: every step of ``steps``
    reached and not yet taught is taught at ``version`` (unknown names ignored); steps taught before keep their
    version. Pure.

    >>> advance({"a": 1}, ["b", "a", "z"], ("a", "b", "c"), 4)
    {'a': 1, 'b': 4}
    """
    out = dict(taught)
    wanted = set(reached)
    for step in steps:
        if step in wanted and step not in out:
            out[step] = version
    return out


def shown_at(taught: Mapping[str, int], steps: Sequence[str], version: int) -> list[str]:
    """The steps the board of ``version`` teaches (first taught there), in teaching order."""
    return [s for s in steps if taught.get(s) == version]


def unmet(taught: Mapping[str, int], steps: Sequence[str]) -> list[str]:
    """The steps a finished tutorial never reached, in teaching order (the closing message recaps them)."""
    return [s for s in steps if s not in taught]


def is_tutorial(snap: Snapshot) -> bool:
    """True for a game opened by ``/learn``."""
    return snap.env.options.get(MARK) is True


def learner_of(snap: Snapshot) -> int:
    """The learner's seat: the first human seat."""
    return next((s for s in range(len(snap.players)) if not snap.is_ai(s)), 0)


def lesson_of(kind: GameKind) -> Lesson | None:
    """The kind's lesson (its package's ``tutorial`` module, ``LESSON``), or ``None`` (a game without one).
    Plug-in discovery as the registry finds ``kind`` modules: a game opts in by shipping the module."""
    if kind.name in _LESSONS:
        return _LESSONS[kind.name]
    found: Lesson | None = None
    name = f"{kind.package}.tutorial"
    try:
        if kind.package and importlib.util.find_spec(name) is not None:
            found = getattr(importlib.import_module(name), "LESSON", None)
    except Exception:  # a broken lesson never takes the game down: it only has no tutorial
        log.exception("the tutorial of %s failed to load", kind.name)
    _LESSONS[kind.name] = found
    return found


_LESSONS: dict[str, Lesson | None] = {}


def taught_order(taught: Mapping[str, int], steps: Sequence[str]) -> list[str]:
    """The steps taught, in the order the learner read them (by board, then teaching order)."""
    return sorted((s for s in steps if s in taught), key=lambda s: (taught[s], steps.index(s)))


def step_text(kind: GameKind, lesson: Lesson, state: Any, step: str, locale: Any, n: int | None = None) -> str:
    """One step's sentence in ``locale``, headed by its number ``n`` ("Tutorial, step 3 of 8"; default: its place
    in the teaching order)."""
    n = lesson.steps.index(step) + 1 if n is None else n
    said = t(f"{kind.prefix}.learn.{step}", locale, **lesson.words(state))
    return t("learn.step", locale, n=n, of=len(lesson.steps), text=said)


@dataclass(frozen=True)
class LearnPlace(Place):
    """Where a tutorial opens: the command's channel, without answering in it, speaking the learner's language
    (``guild_locale`` is the learner's, so the game's envelope, boards and pictures are in it); ``perms``: the bot's
    permissions there as the command's interaction reported them."""

    locale: discord.Locale = discord.Locale.american_english
    perms: discord.Permissions | None = None

    @property
    def guild_locale(self) -> discord.Locale:
        return self.locale

    @property
    def app_permissions(self) -> discord.Permissions:
        """The bot's permissions in the channel as the command's interaction reported them."""
        return self.perms if self.perms is not None else super().app_permissions


class Tutorials:
    """``layer.tutorials``: opens tutorials, writes their step sentences into their boards, closes them (module
    docstring). ``end_view(game, levels, locale)`` (the closing message's buttons) is given by the wiring root."""

    def __init__(self, layer: GameLayer) -> None:
        self.layer = layer
        self.end_view: Callable[[str, tuple[str, ...], str | None], discord.ui.View] | None = None
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._opening: weakref.WeakValueDictionary[tuple[int, int, str], asyncio.Lock] = weakref.WeakValueDictionary()
        layer.outbox.subscribe(EFFECT, self.end_effect, rule=self.owed, prompt=True)
        layer.publisher.notes.append(self.note)
        layer.ai.steers.append(self.steer)

    def lessons(self) -> dict[str, Lesson]:
        """The registered games that have a lesson, by name."""
        out: dict[str, Lesson] = {}
        for name, kind in self.layer.kinds.items():
            lesson = lesson_of(kind)
            if lesson is not None:
                out[name] = lesson
        return out

    def help_line(self, locale: Any) -> str:
        """``/help``'s line naming the tutorials (``/learn <game>`` of each game with a lesson); empty without any."""
        names = list(self.lessons())
        if not names:
            return ""
        return t("learn.help", locale, commands=OneOf(tuple(f"`/learn {n}`" for n in names)).localize(locale)) + "\n"

    # -- opening -----------------------------------------------------------------------------------------------
    async def open(self, interaction: discord.Interaction, kind: GameKind) -> Snapshot | None:
        """Open ``kind``'s tutorial for ``interaction.user`` in the interaction's channel (a thread of its own where
        the server keeps games in threads) and answer privately where it is; the user's tutorial of ``kind``
        still running in this server is pointed to instead (returns ``None``). Raises ``BotError``
        (``learn.none``, ``err.guild_only``, whatever opening a game refuses: caps, blocked, channel busy...)."""
        lesson = lesson_of(kind)
        if lesson is None:
            raise BotError("learn.none", game=kind.title)
        if interaction.guild_id is None:
            raise BotError("err.guild_only")
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel | discord.Thread):
            raise BotError("learn.no_channel")
        guild = interaction.guild or discord.Object(interaction.guild_id)
        loc = interaction.locale
        me = interaction.user
        key = (interaction.guild_id, me.id, kind.name)
        lock = self._opening.get(key)
        if lock is None:
            lock = self._opening[key] = asyncio.Lock()
        async with lock:  # two /learn at once: the second sees the first's game (a server's guild is one process's)
            running = await self.running(interaction.guild_id, kind, me.id)
            if running is not None:  # one tutorial of a game at a time: carry on with it
                where = f"<#{running}>"
                await reply(interaction, t("learn.running", loc, game=kind.title, where=where), ephemeral=True)
                return None
            snap = await self._open(interaction, kind, lesson, guild, channel)
        await reply(
            interaction, t("learn.started", loc, game=kind.title, where=f"<#{snap.record.channel_id}>"), ephemeral=True
        )
        return snap

    async def _open(
        self,
        interaction: discord.Interaction,
        kind: GameKind,
        lesson: Lesson,
        guild: Any,
        channel: discord.TextChannel | discord.Thread,
    ) -> Snapshot:
        """Open the tutorial game itself (see :meth:`open`)."""
        loc = interaction.locale
        me = interaction.user
        level = lesson.level if lesson.level in kind.seating.ai_levels else kind.seating.default_level
        ai_name = kind.narration.ai_seat_name(level, 1, loc.value)
        place = LearnPlace(guild, channel, me, loc, interaction.app_permissions)  # type: ignore[arg-type]
        return await self.layer.lobby.open(
            place,
            kind,
            options={**kind.rules.validate_options(dict(lesson.options)), MARK: True},
            seats=[Seat.of(me.display_name), Seat.of(ai_name, level)],
            players=[me.id, self.ai_id(kind)],
            title=t("learn.thread_title", loc, game=kind.title, name=plain(me.display_name)),
            clock=CLOCK,
            start=True,
        )

    async def running(self, guild_id: int, kind: GameKind, user_id: int) -> int | None:
        """The channel of ``user_id``'s open tutorial of ``kind`` in the guild, or ``None``."""
        for record in await self.layer.storage.list_active_games(kind=kind.name, guild_id=guild_id):
            options = record.state.get("options") if isinstance(record.state, dict) else None
            if user_id in record.players and isinstance(options, dict) and options.get(MARK) is True:
                return record.channel_id
        return None

    def ai_id(self, kind: GameKind) -> int:
        """The user id of the first AI seat of ``kind`` (``Seating.ai_ids``)."""
        if kind.seating.ai_ids == "bot":
            user = self.layer.bot.user
            if user is None:
                raise BotError("err.internal")
            return user.id
        return -1

    # -- the steps on the boards -------------------------------------------------------------------------------
    def lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    async def taught(self, game_id: int) -> dict[str, int]:
        """The stored progress of a tutorial (``{}`` before its first board)."""
        raw = await self.layer.storage.get_meta(f"learn:{game_id}")
        try:
            data = json.loads(raw) if raw else {}
            return {str(k): int(v) for k, v in dict(data.get("taught", {})).items()}
        except (ValueError, TypeError, AttributeError):
            log.warning("unreadable tutorial progress of game %s: starting it again", game_id)
            return {}

    async def note(self, snap: Snapshot) -> str:
        """The publisher's ``notes`` hook: the step sentences the board of ``snap`` teaches (empty for any other
        game, and for a board on which only the AI is to act). Updates the stored progress first."""
        if not is_tutorial(snap) or snap.state is None or snap.status not in ("active", "finished"):
            return ""
        lesson = lesson_of(snap.kind)
        if lesson is None:
            return ""
        learner = learner_of(snap)
        async with self.lock(snap.id):
            taught = await self.taught(snap.id)
            if snap.status == "finished" or learner in snap.state.awaiting():
                progressed = advance(taught, lesson.reached(snap.state, learner), lesson.steps, snap.version)
                if progressed != taught:
                    await self.layer.storage.set_meta(f"learn:{snap.id}", json.dumps({"taught": progressed}))
                    taught = progressed
        order = taught_order(taught, lesson.steps)
        steps = shown_at(taught, lesson.steps, snap.version)
        return "\n".join(step_text(snap.kind, lesson, snap.state, s, snap.locale, order.index(s) + 1) for s in steps)

    def steer(self, snap: Snapshot, seat: int) -> str | None:
        """The AI scheduler's ``steers`` hook: a tutorial's AI seat plays the lesson's gentle opening when it has
        one (``Lesson.steer``); any other game, ``None``. A steer that fails is logged and the AI searches."""
        if not is_tutorial(snap) or snap.state is None:
            return None
        lesson = lesson_of(snap.kind)
        if lesson is None or lesson.steer is None:
            return None
        try:
            return lesson.steer(snap.state, seat, learner_of(snap))
        except Exception:
            log.exception("the gentle opening of tutorial %s failed; the AI plays its own move", snap.id)
            return None

    # -- the end -----------------------------------------------------------------------------------------------
    def owed(self, snap: Snapshot, _change: Any) -> list[Owed]:
        """The rule: a tutorial that finishes owes its closing message."""
        env = getattr(snap, "env", None)
        if env is None or snap.status != "finished" or env.options.get(MARK) is not True:
            return []
        return [Owed(EFFECT, delay_s=END_DELAY_S)]

    async def end_effect(self, effect: Effect) -> None:
        """The ``learn`` effect: once the finished tutorial's last board is out, post its closing message in the
        game's channel once (message key :data:`END_KEY`; nonce ``learn<game>``). Raises (retried later) while
        the last board is not out yet."""
        record = await self.layer.storage.get_game(effect.game_id)
        if record is None or record.status != "finished" or END_KEY in record.messages:
            return
        if record.kind not in self.layer.kinds:
            return
        shown = record.messages.get(BOARD_VERSION_KEY)
        if shown is None or shown < record.version:
            raise RuntimeError(f"the last board of tutorial {record.id} is not out yet")
        snap = self.layer.snapshot(record)
        lesson = lesson_of(snap.kind)
        if lesson is None:
            return
        content = self.closing_text(snap, lesson, await self.taught(record.id))
        levels = snap.kind.seating.ai_levels
        view = self.end_view(snap.kind.name, levels, snap.locale) if self.end_view is not None else None
        try:
            posted = await self.layer.publisher.delivery.send(
                record, content, view=view, carry=False, nonce=f"learn{record.id}", locale=snap.locale
            )
        except GuildGone as err:
            raise Drop("the bot was removed from the guild") from err
        except discord.NotFound as err:
            if err.code == 10003:  # the thread or channel was deleted
                raise Drop(f"channel {record.channel_id} is gone") from err
            raise
        await self.layer.storage.set_message(record.id, END_KEY, posted.id)

    @staticmethod
    def closing_text(snap: Snapshot, lesson: Lesson, taught: Mapping[str, int]) -> str:
        """The closing message: done, the rules the game did not show (one sentence each), the offer."""
        loc = snap.locale
        missing = unmet(taught, lesson.steps)
        total = len(lesson.steps)
        lines = [t("learn.done", loc, game=snap.kind.title, met=total - len(missing), total=total)]
        if missing:
            lines.append(t("learn.recap", loc))
            words = lesson.words(snap.state)
            lines += [f"- {t(f'{snap.kind.prefix}.learn.{s}', loc, **words)}" for s in missing]
        lines.append(t("learn.offer", loc))
        return "\n".join(lines)[:2000]

    # -- the offer: a real game --------------------------------------------------------------------------------
    async def play_ai(self, interaction: discord.Interaction, kind: GameKind, level: str) -> None:
        """A real game of ``kind`` against the AI at ``level``, opened as its challenge of the AI would be (in the
        clicker's channel or thread). Raises ``BotError`` (``err.bad_level``, whatever opening refuses)."""
        if level not in kind.seating.ai_levels:
            raise BotError("err.bad_level", level=level, levels=", ".join(kind.seating.ai_levels))
        loc = interaction.guild_locale.value if interaction.guild_locale else None
        me = interaction.user
        ai_name = kind.narration.ai_seat_name(level, 1, loc)
        await self.layer.lobby.open(
            interaction,
            kind,
            options=kind.rules.validate_options({}),
            seats=[Seat.of(me.display_name), Seat.of(ai_name, level)],
            players=[me.id, self.ai_id(kind)],
            title=t("learn.thread_vs", loc, game=kind.title, a=plain(me.display_name), b=ai_name),
        )

    async def open_challenge(self, interaction: discord.Interaction, kind: GameKind) -> None:
        """An open challenge (anyone may accept) or, for a game of lobbies, a lobby of ``kind`` hosted by the
        clicker."""
        loc = interaction.guild_locale.value if interaction.guild_locale else None
        me = interaction.user
        options = kind.rules.validate_options({})
        if kind.seating.mode == "challenge":
            options = {**options, "open": True}
        await self.layer.lobby.open(
            interaction,
            kind,
            options=options,
            seats=[Seat.of(me.display_name)],
            players=[me.id],
            title=t("learn.thread_open", loc, game=kind.title, name=plain(me.display_name)),
        )

    async def quick_match(self, interaction: discord.Interaction, kind: GameKind) -> None:
        """The clicker joins ``kind``'s quick-match queue (the game's largest table, the server's clock)."""
        await self.layer.queue.join(interaction, kind, seats=kind.seating.max_seats, clock=None, bots=False)
