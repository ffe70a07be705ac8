"""The plug-in interface of a game (:class:`GameKind`) and the one loaded game (:class:`Snapshot`).

A game plugs into the layer with one :class:`GameKind` (``bot/games/<name>/kind.py: KIND``). The layer does
everything that is the same for every game (load, lock, check/apply through ``engine.protocol``, version-checked
commit, results and ratings, seats and lobbies, board publishing and recovery, AI scheduling, records and replays);
the kind names only what is the game's own, split by job into four small parts it composes:

- :class:`Rules` (``kind.rules``): the engine adapter: options, setup, parsing, actions applied first, checks and
  bookkeeping around an engine action, refusals reworded, rematch seating, stored-state migration, the AI function;
- :class:`Narration` (``kind.narration``): every text of a game: headlines, status line, lobby text, AI seat names,
  the "no game here" refusal;
- :class:`Pictures` (``kind.pictures``): the board's images, the result card, whether a commit changed the picture;
- :class:`Components` (``kind.components``): the Discord components: the board's, the lobby's, the record's, the
  persistent component classes, the lobby's Leave once the game runs;

and, instead of naming conventions, the game's engine class (``kind.engine``: ``engine.record`` replays its records
with it) and its replay renderer (``kind.replay``: a :class:`render.replay.ReplayRenderer`, ``None`` = records
only).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal

from bot.core.envelope import Envelope
from bot.errors import BotError, OneOf
from bot.i18n import t
from engine.protocol import Event, GameState

if TYPE_CHECKING:
    import discord

    from bot.storage.records import ActionRecord, GameRecord
    from render.replay import ReplayRenderer


START_COMMANDS: list[str] = []
"""How a player opens a game of each registered kind (its ``start_command``), in registration order: filled by
the registry as it loads the games (:mod:`bot.core.registry`)."""


def start_hint() -> OneOf:
    """How to open a game of each registered kind: ``"`/a challenge` or `/b new`"`` in the reader's language."""
    return OneOf(tuple(f"`{command}`" for command in START_COMMANDS))


def not_player() -> BotError:
    """``BotError("err.not_player")`` naming how to open a game of every registered kind."""
    return BotError("err.not_player", starts=start_hint())


@dataclass(frozen=True)
class Seating:
    """How a game's seats are taken (the layer's ``lobby`` runs both modes).

    Attributes:
        mode: ``"challenge"`` (the opener invites one user or the AI; Accept / Decline) or ``"lobby"`` (anyone
            joins and leaves; the host adds AI seats and starts).
        min_seats, max_seats: seats needed to start / at most.
        ai_ids: user ids of AI seats in ``GameRecord.players``: ``"bot"`` = the bot's own user id (one AI seat),
            ``"negative"`` = ``-1, -2, ...`` (several AI seats).
        ai_levels: the AI levels a seat may have; ``default_level`` when none is chosen.
    """

    mode: Literal["challenge", "lobby"]
    min_seats: int
    max_seats: int
    ai_ids: Literal["bot", "negative"] = "bot"
    ai_levels: tuple[str, ...] = ("medium",)
    default_level: str = "medium"


@dataclass(frozen=True)
class Picture:
    """One image of a message: ``draw(*args, **kwargs) -> PIL image`` (a module-level function, so it can run in
    a worker process), the attachment ``filename``, and ``fallback()``: the text appended to the message when
    drawing fails."""

    draw: Callable[..., Any]
    args: tuple[Any, ...]
    filename: str
    fallback: Callable[[], str]
    kwargs: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Snapshot:
    """One game as loaded once for an action: the stored ``record``, its ``env`` (envelope) and the engine
    ``state`` built from it (``None`` while seats are being taken). Handed unchanged to publishing and to the
    AI scheduler: **never mutate** ``state`` (copy it first)."""

    kind: GameKind
    record: GameRecord
    env: Envelope
    state: GameState | None

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def version(self) -> int:
        return self.record.version

    @property
    def status(self) -> str:
        return self.record.status

    @property
    def players(self) -> list[int]:
        return self.record.players

    @property
    def locale(self) -> str | None:
        return self.env.locale

    @property
    def names(self) -> list[str]:
        """Display names by seat (``P<n>`` for a seat without one)."""
        names = self.env.names
        return names + [f"P{i + 1}" for i in range(len(names), len(self.record.players))]

    def seat_of(self, user_id: int) -> int:
        """The seat of ``user_id``. Raises ``BotError("err.not_player")``."""
        try:
            return self.record.players.index(user_id)
        except ValueError:
            raise not_player() from None

    def is_ai(self, seat: int) -> bool:
        """True if ``seat`` is played by the AI."""
        return seat < len(self.env.seats) and self.env.seats[seat].ai is not None

    @property
    def has_ai(self) -> bool:
        return any(s.ai is not None for s in self.env.seats)

    def who(self, seat: int) -> str:
        """A mention for a human seat, the name for an AI seat."""
        return self.names[seat] if self.is_ai(seat) else f"<@{self.record.players[seat]}>"

    def require_state(self) -> GameState:
        """The engine state. Raises ``BotError("err.not_started")`` while seats are being taken."""
        if self.state is None:
            raise BotError("err.not_started")
        return self.state


class Rules:
    """The engine adapter of one game (``kind.rules``). Override what the game needs; the layer calls:

    - :meth:`validate_options` when a game is opened (its cog, and a rematch), :meth:`engine_setup` when it starts
      (``kind.engine.new(setup)``), :meth:`rematch_seating` for a rematch;
    - per action, under the game's lock (``GameLayer.act``): :meth:`parse`, :meth:`before`, the engine's ``apply``
      (a ``RuleError`` goes through :meth:`refine`), :meth:`check_applied`, :meth:`after`, then the commit;
    - :meth:`migrate` when a stored game predates envelope version 2;
    - :attr:`ai_function` (through the CPU seam, in the lane :meth:`ai_lane` names) when an AI seat is to act.
    """

    kind: GameKind
    """The kind this part belongs to (set when the kind is made)."""
    ai_function: Callable[..., str] | None = None
    """``ai_function(state, seat, level, seed) -> action text``: a module-level function (it runs in a worker)
    given a copy of the state. ``None``: the game has no AI."""

    def ai_lane(self, state: GameState, seat: int, level: str) -> str:
        """The CPU lane of the AI's next job for ``seat`` at ``level`` (``bot/core/cpu.py``): ``"light"`` for a
        job of at most about a second of CPU, which then never waits behind long searches, ``"background"`` for a
        long one. Default: ``"background"``."""
        return "background"

    def validate_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """The options of a new game, checked and normalised (JSON-ready: stored in the envelope). Raises
        ``InvalidInputError``/``BotError``. Default: unchanged."""
        return dict(options)

    def engine_setup(self, env: Envelope, players: Sequence[int]) -> dict[str, Any]:
        """The engine ``setup`` of a game about to start with these seats (``kind.engine.new(setup)``)."""
        raise NotImplementedError

    def parse(self, snap: Snapshot, seat: int, action: Any) -> Any:
        """The engine action for ``action`` (text, or an action object whose ``player`` is replaced) by ``seat``.
        Raises the engine's ``InvalidInputError`` for unreadable text."""
        state = snap.require_state()
        if isinstance(action, str):
            return state.parse_action(action, seat)
        return replace(action, player=seat)

    def before(self, snap: Snapshot, state: GameState, seat: int | None, action: Any, now: float) -> list[Any]:
        """Engine actions the layer applies (and commits, one each) before ``action`` in the same step, e.g. a
        rule's overdue timeouts (``now``: epoch seconds of the bot's clock). Default: none."""
        return []

    def check_applied(self, snap: Snapshot, action: Any, events: Sequence[Event], request: dict[str, Any]) -> None:
        """Refuse an applied action that does not match what was asked (``request``: the caller's extras), by
        raising; nothing is committed then. Default: accept."""

    def after(self, env: Envelope, state: GameState, events: Sequence[Event], now: float) -> Envelope:
        """The envelope after an engine action (e.g. start or stop the kind's timers in ``extra``). Default:
        unchanged."""
        return env

    def refine(self, snap: Snapshot, state: GameState, err: Exception) -> Exception:
        """An engine refusal reworded for people (e.g. naming the player to act). Default: unchanged."""
        return err

    def rematch_seating(
        self, players: Sequence[int], seats: Sequence[Any], options: dict[str, Any]
    ) -> tuple[list[int], list[Any], dict[str, Any]]:
        """Players, seats and options of a rematch: by default the seats rotate by one (the first player of the
        old game is the last of the new one)."""
        return [*players[1:], *players[:1]], [*seats[1:], *seats[:1]], dict(options)

    def migrate(self, record: GameRecord) -> Envelope:
        """The version-2 envelope of a record saved before it (raise ``StateError`` if it cannot be read)."""
        raise NotImplementedError

    def deal_commitment(self, setup: dict[str, Any]) -> dict[str, str] | None:
        """The commitment to a hidden deal a signed record of this game carries (``bot/signing.py``: what players
        were shown before any hand), from the record's engine ``setup``; ``None`` (the default): no hidden deal.
        Raises ``ValueError`` for a setup it cannot commit to."""
        return None


class Narration:
    """Every text of one game (``kind.narration``), in the reader's language (``snap.locale``). The layer calls
    :meth:`narrate` after a commit (the headline of the new board), :meth:`started_text` when the game starts,
    :meth:`board_headline` for a board shown on request, :meth:`last_headline` for a board recovered after a
    restart, :meth:`status_line` under every board and record, :meth:`lobby_text` for the challenge/lobby message,
    :meth:`ai_seat_name` when an AI seat is added, :meth:`no_game_here` when a command finds no game of this kind.
    Every method returns one message part (``str``, Discord markdown) or a ``BotError`` to raise."""

    kind: GameKind
    """The kind this part belongs to (set when the kind is made)."""

    def narrate(self, snap: Snapshot, actions: Sequence[tuple[int, str]], events: Sequence[Event]) -> str:
        """The headline of committed engine actions (``(seat, text)`` in order) and their events."""
        raise NotImplementedError

    def started_text(self, snap: Snapshot) -> str:
        """The headline of a game that just started."""
        raise NotImplementedError

    def board_headline(self, locale: Any) -> str:
        """The headline of a board shown again on request."""
        raise NotImplementedError

    def last_headline(self, snap: Snapshot, last: ActionRecord | None) -> str:
        """The headline of a recovered board: the last logged action (``None``: none logged)."""
        raise NotImplementedError

    def status_line(self, snap: Snapshot) -> str:
        """Whose turn it is, or how the game ended."""
        raise NotImplementedError

    def lobby_text(self, snap: Snapshot) -> str:
        """The text of the challenge or lobby message."""
        raise NotImplementedError

    def ai_seat_name(self, level: str, index: int, locale: str | None) -> str:
        """The display name of an AI seat (``index``: 1 for the first AI seat)."""
        return t("ai.seat", locale, n=index)

    def no_game_here(self) -> BotError:
        """The refusal of a command of this game in a channel without one."""
        return BotError("err.no_game_here", game=self.kind.title)

    def reveal_on_abort(self, snap: Snapshot, locale: Any) -> str:
        """What an abort message of ``snap`` reveals for fairness (issue 22: a game that hides a deal reveals it
        when aborted, so an abort is never a free re-deal); empty by default."""
        return ""

    def stats_option_value(self, value: str | None, locale: Any) -> str:
        """How ``/stats`` names one stored value of :attr:`GameKind.stats_option` (issue 25); default: as
        stored, and a few words for games stored without it (``stats.option_unknown``)."""
        return value if value else t("stats.option_unknown", locale)


class Pictures:
    """The images of one game (``kind.pictures``), drawn off the event loop by the publisher (``Picture.draw``
    through the CPU seam). The publisher calls :meth:`board_pictures` for every board, :meth:`result_picture` once
    the game is over, and :meth:`picture_changed` to skip an identical image after a commit."""

    kind: GameKind
    """The kind this part belongs to (set when the kind is made)."""

    def board_pictures(self, snap: Snapshot) -> list[Picture]:
        """The images of the board message."""
        raise NotImplementedError

    def result_picture(self, snap: Snapshot) -> Picture | None:
        """The result card of a finished game, or ``None`` (the default)."""
        return None

    def picture_changed(self, committed: Any) -> bool:
        """False when the commit (a ``Committed``) changed nothing the board picture shows (e.g. a discard from a
        hand): the new board message then carries its text and buttons without a second identical image, where the
        boards it replaces stay with their images; where they are deleted (a game in a thread of its own) the
        publisher draws the image all the same, so the table is never out of sight. Default: True."""
        return True


class Components:
    """The Discord components of one game (``kind.components``). The bot registers :attr:`dynamic_items` at start
    (persistent across restarts); the publisher puts :meth:`board_view` under a running game's board; the lobby
    service puts :meth:`lobby_view` under the challenge/lobby message; the record views add :meth:`record_items`
    to a finished game's record; the lobby's Leave calls :meth:`leave_running` once the game runs."""

    kind: GameKind
    """The kind this part belongs to (set when the kind is made)."""
    dynamic_items: tuple[type[Any], ...] = ()
    """The game's persistent component classes (``discord.ui.DynamicItem`` subclasses)."""

    def board_view(self, snap: Snapshot) -> discord.ui.View | None:
        """The components under the board (``None``, the default: none)."""
        return None

    def lobby_view(self, snap: Snapshot) -> discord.ui.View | None:
        """The components under the challenge or lobby message; ``None`` (the default): the layer's seating buttons
        (``bot/ui/components.py``, given to the lobby service by the wiring root)."""
        return None

    def record_items(self, snap: Snapshot, locale: str | None) -> list[discord.ui.Item[Any]]:
        """The game's own buttons shown with a finished game's record (result card, ``/replay``, a record opened
        from ``/history``), beside the layer's Replay and Download record (``bot/ui/record_views.py``); e.g.
        an analysis. Default: none."""
        return []

    async def leave_running(self, interaction: discord.Interaction, game_id: int) -> None:
        """A lobby's Leave clicked once the game runs (default: refused; a game may offer its forfeit)."""
        raise BotError("err.wrong_phase", status="active")


@dataclass(eq=False)
class GameKind:
    """One game's plug-in: what it is called, its engine, and the four parts it is made of (module docstring).

    Attributes:
        name: the registry and storage kind; equal to ``engine.game``.
        title: shown to players.
        engine: the game's ``GameState`` class (``engine.protocol``): games start with ``engine.new(setup)``, load
            with ``engine.from_dict``, and their records are replayed with it (``engine.record``).
        prefix: the custom-id prefix of the game's components and of its message keys (``"cx"``).
        start_command: how a player opens a game (``"/<name> new"``), named in refusals.
        rules, narration, pictures, components: the parts (each bound to this kind: ``part.kind``).
        seating: how seats are taken.
        replay: the game's :class:`render.replay.ReplayRenderer` (animated replay and move list); ``None``: its
            finished games get their record only.
        seat_rule: the rule code shown with seat refusals (full, too few), if the game's rules number them.
        timeout_claim: when a player's clock runs out: ``True`` = the other players may claim the win (a button;
            the game waits until someone does), ``False`` = the layer applies the engine's ``Timeout`` at once
            (``bot/services/timers.py``).
        package: the import path of the game's package (set when the registry loads it).
        stats_option: the game option (``options`` key) whose values break a player's results down in ``/stats``
            (issue 25; e.g. a ``"layout"``), named by ``narration.stats_option_value``; ``None``: no breakdown.

    Raises:
        ValueError: ``engine.game`` is not ``name``, or ``replay.engine`` is not ``engine``.
    """

    name: str
    title: str
    engine: Any
    prefix: str
    start_command: str
    rules: Rules
    narration: Narration
    pictures: Pictures
    components: Components = field(default_factory=Components)
    seating: Seating = Seating("challenge", 2, 2)
    replay: ReplayRenderer | None = None
    seat_rule: str | None = None
    timeout_claim: bool = False
    package: str = ""
    stats_option: str | None = None

    def __post_init__(self) -> None:
        if getattr(self.engine, "game", None) != self.name:
            raise ValueError(f"the engine of game {self.name!r} is {self.engine!r}, whose game is not {self.name!r}")
        if self.replay is not None and self.replay.engine is not self.engine:
            raise ValueError(f"the replay renderer of {self.name!r} replays {self.replay.engine!r}, not its engine")
        for part in (self.rules, self.narration, self.pictures, self.components):
            part.kind = self
