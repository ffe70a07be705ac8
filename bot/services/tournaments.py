"""Tournaments per server (``/tournament``): Swiss or round robin, their games opened as any game is.

- **One at a time**: a server has at most one tournament taking entries or running; anyone may create it (its
  organiser), members join and leave until the organiser (or an admin, Manage Server) starts it with 3 or more
  players. Swiss plays the ``rounds`` chosen (1-10, default 3); a round robin (3-10 players) plays every opponent
  once. Pairings and standings: :mod:`bot.services.pairing` (the tie-break is documented there).
- **Games**: each pairing opens a normal two-player game of the tournament's kind through
  :meth:`bot.services.lobby.Lobby.open` (``start=True``; a thread of its own where the server keeps games in
  threads; the server's rules, caps and ``/settings rated`` apply), under the tournament's clock preset, seat 0 to
  the pairing's first player. The game's ``Envelope.extra`` names its pairing (:data:`KEY`). Results count for
  ratings as every game's do (rated once both players moved).
- **Results and the next round**: a tournament game that ends (finished or aborted) owes the ``tourney`` effect
  (the outbox's rule :meth:`Tournaments.owed`, committed with the game's end): it records the pairing's outcome (an
  aborted game scores nothing for either player) and, when every game of the round is over, stores the next round
  (or finishes the tournament) and opens its games. Each step is idempotent and guarded in storage, so an effect run
  twice or after a crash does no harm.
- **Byes** score as a win, one per player while it can be helped. **Withdrawals** (``/tournament withdraw``):
  the player is left out of the pairings from the next round on; a game of theirs already running goes on (resign
  it to give it up); their earlier results stand. In a round robin their remaining games are unplayed (nobody
  scores). A round whose players have all withdrawn but one ends the tournament.
- **Restarts**: all state is in the database. At every READY the running tournaments are looked at
  (:meth:`Tournaments.recover`): a pairing whose game never opened (a crash between storing the round and opening
  its games) opens now; a game opened but not linked (a crash in between) is found and linked, never opened twice.
- **A game that can never open** (game off, channel not allowed: unplayed; a player blocked or gone: their forfeit)
  is scored at once, the channel told in words, and the round goes on: :mod:`bot.services.tourney_forfeit`.
- **A game that cannot open yet** (Discord refused, a player at their open-games cap): the effect is tried again by
  the outbox's back-off, and at the next READY. Opened outside an effect (the start, a withdrawal, a READY), it is
  tried :data:`RETRIES` times :data:`RETRY_S` apart; when they run out (or, opened by a game's effect, a new round's,
  when that effect has failed :data:`RETRIES` + 1 times), the channel is told which boards wait, why, and when they
  are tried again (``tourney_forfeit.tell_stuck``): every ``tourney_rules.slow_s()`` from then on (``Tries``) and
  when another game of the tournament ends.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord

from bot.core import clock as clocks
from bot.core.envelope import Seat
from bot.core.names import plain
from bot.errors import BotError
from bot.i18n import t
from bot.services import house, pairing, tourney_forfeit, tourney_text
from bot.services.place import Place
from bot.services.tourney_retry import Tries
from bot.services.tourney_rules import (
    DEFAULT_ROUNDS,
    EFFECT,
    FORMATS,
    KEY,
    MAX_PLAYERS,
    MAX_ROUND_ROBIN,
    MAX_ROUNDS,
    MIN_PLAYERS,
    MIN_ROUNDS,
    PAIR_ATTEMPTS,
    RETRIES,
    outcome_of,
)
from bot.storage import Effect, GameRecord, Owed
from bot.storage.tourneys import Pairing, Tourney, TourneyExistsError

if TYPE_CHECKING:
    from bot.core.kind import GameKind, Snapshot
    from bot.core.layer import GameLayer

log = logging.getLogger(__name__)


class Tournaments:
    """See the module docstring."""

    def __init__(self, layer: GameLayer) -> None:
        self.layer = layer
        self._locks: dict[int, asyncio.Lock] = {}
        self.tries = Tries(layer, self._lock, lambda tid: self._advance(tid, None))
        """Games that could not open: tried again, and the channel told when the tries run out."""
        layer.outbox.subscribe(EFFECT, self.effect, rule=self.owed, prompt=True)  # the next round at once
        layer.on_ready_hooks.append(self.on_ready)

    # -- the commands ------------------------------------------------------------------------------------------
    async def create(
        self, interaction: discord.Interaction, kind: GameKind, fmt: str, rounds: int | None, clock: str | None
    ) -> Tourney:
        """Open a tournament in ``interaction``'s channel. Raises ``BotError``: ``err.guild_only``, ``house.*``,
        ``tourney.exists``, ``tourney.format``, ``tourney.rounds_rr``, ``tourney.bad_rounds``."""
        guild_id = interaction.guild_id
        if not guild_id:
            raise BotError("err.guild_only")
        if fmt not in FORMATS:
            raise BotError("tourney.format")
        if fmt == "roundrobin" and rounds is not None:
            raise BotError("tourney.rounds_rr")
        if rounds is not None and (isinstance(rounds, bool) or not MIN_ROUNDS <= rounds <= MAX_ROUNDS):
            raise BotError("tourney.bad_rounds", value=str(rounds)[:20], min=MIN_ROUNDS, max=MAX_ROUNDS)
        settings = await self.layer.storage.get_guild_settings(guild_id)
        refusal = house.check_start(
            settings, interaction.channel or interaction.channel_id, interaction.user.id, kind.name, kind.title
        )
        if refusal is not None:
            raise refusal
        preset = clocks.preset_of(clock, settings)
        locale = str(interaction.guild_locale) if interaction.guild_locale else str(interaction.locale)
        try:
            return await self.layer.storage.tourney_create(
                guild_id,
                interaction.channel_id or 0,
                kind.name,
                fmt,
                rounds or DEFAULT_ROUNDS,
                preset,
                interaction.user.id,
                locale,
                self.layer.clock.now(),
            )
        except TourneyExistsError:
            raise BotError("tourney.exists") from None

    async def current(self, guild_id: int | None, *, live: bool = True) -> Tourney:
        """The server's open or running tournament (``live``), else its latest. Raises ``BotError``
        (``err.guild_only``, ``tourney.none``)."""
        if not guild_id:
            raise BotError("err.guild_only")
        t_ = await self.layer.storage.tourney_current(guild_id)
        if t_ is None or (live and t_.status not in ("open", "running")):
            raise BotError("tourney.none")
        return t_

    async def join(self, interaction: discord.Interaction) -> tuple[Tourney, int]:
        """Enter the server's open tournament. Returns it and how many players are in. Raises ``BotError``
        (``tourney.none``, ``tourney.started``, ``tourney.already``, ``tourney.full``, ``house.*``)."""
        tour = await self.current(interaction.guild_id)
        if tour.status != "open":
            raise BotError("tourney.started")
        if interaction.user.bot:
            raise BotError("err.bot_opponent")
        kind = self.layer.kinds[tour.kind]
        settings = await self.layer.storage.get_guild_settings(tour.guild_id)
        guild = interaction.guild
        place = (
            guild.get_channel_or_thread(tour.channel_id) if guild else None
        ) or tour.channel_id  # its games' channel
        refusal = house.check_start(settings, place, interaction.user.id, kind.name, kind.title)
        if refusal is not None:
            raise refusal
        limit = MAX_ROUND_ROBIN if tour.format == "roundrobin" else MAX_PLAYERS
        name = plain(interaction.user.display_name)
        storage = self.layer.storage
        said = await storage.tourney_join(tour.id, interaction.user.id, name, self.layer.clock.now(), limit=limit)
        if said == "full":
            raise BotError("tourney.full", max=limit)
        if said != "joined":
            raise BotError("tourney.already" if said == "already" else "tourney.started")
        players = await storage.tourney_players(tour.id)  # read after the entry: the count said is true
        return tour, len(players)

    async def leave(self, interaction: discord.Interaction) -> Tourney:
        """Take back one's entry before the start. Raises ``BotError`` (``tourney.none``, ``tourney.not_in``,
        ``tourney.started``: withdraw instead)."""
        tour = await self.current(interaction.guild_id)
        said = await self.layer.storage.tourney_leave(tour.id, interaction.user.id)
        if said != "left":
            raise BotError("tourney.not_in" if said == "not_in" else "tourney.use_withdraw")
        return tour

    async def withdraw(self, interaction: discord.Interaction) -> Tourney:
        """Withdraw from the running tournament (see the module docstring). Raises ``BotError``."""
        tour = await self.current(interaction.guild_id)
        said = await self.layer.storage.tourney_withdraw(tour.id, interaction.user.id)
        if said == "closed":
            raise BotError("tourney.use_leave")
        if said != "withdrawn":
            raise BotError("tourney.not_in" if said == "not_in" else "tourney.already_withdrawn")
        async with self._lock(tour.id):  # every other player may be out now: the round may end the tournament
            self.tries.retry(tour.id, await self._advance(tour.id, None))
        return tour

    def _may_run(self, interaction: discord.Interaction, tour: Tourney) -> None:
        perms = getattr(interaction, "permissions", None)
        if interaction.user.id != tour.organiser_id and not (perms is not None and perms.manage_guild):
            raise BotError("tourney.organiser_only", user=tour.organiser_id)

    async def cancel(self, interaction: discord.Interaction) -> Tourney:
        """Cancel the open tournament (organiser or admin). Raises ``BotError`` (``tourney.use_withdraw`` when it
        runs: it plays to its end)."""
        tour = await self.current(interaction.guild_id)
        self._may_run(interaction, tour)
        if not await self.layer.storage.tourney_cancel(tour.id, self.layer.clock.now()):
            raise BotError("tourney.running_no_cancel")
        return tour

    async def begin(self, interaction: discord.Interaction) -> tuple[Tourney, list[Pairing], int]:
        """Start the open tournament (organiser or admin): round 1 is stored, then its games open. Returns the
        tournament as started, round 1's pairings and how many games could not open yet (tried again). Raises
        ``BotError`` (``tourney.organiser_only``, ``tourney.too_few``, ``tourney.started``)."""
        tour = await self.current(interaction.guild_id)
        self._may_run(interaction, tour)
        storage = self.layer.storage
        for _attempt in range(PAIR_ATTEMPTS):  # pairs the entrants as stored at the start, not as read before it
            if tour.status != "open":  # started by someone else meanwhile, or cancelled: say which
                raise BotError("tourney.started" if tour.status == "running" else "tourney.none")
            entrants = await storage.tourney_players(tour.id)
            if len(entrants) < MIN_PLAYERS:
                raise BotError("tourney.too_few", min=MIN_PLAYERS, n=len(entrants))
            ids = [e.user_id for e in entrants]
            rounds = pairing.round_robin_rounds(len(ids)) if tour.format == "roundrobin" else tour.rounds
            first = await self._pairings(tour, ids, [], [], 1)
            async with self._lock(tour.id):
                if await storage.tourney_begin_round(tour.id, 1, first, start=True, rounds=rounds, entrants=ids):
                    started = await storage.tourney_get(tour.id)
                    assert started is not None
                    failed = await self._advance(started.id, None)  # a round settled at once goes on
                    self.tries.retry(tour.id, failed)
                    break
            again = await storage.tourney_get(tour.id)  # started by someone else, or an entry came or went
            if again is None:
                raise BotError("tourney.none")
            tour = again
        else:
            raise BotError("err.busy")
        games = [p for p in await self.layer.storage.tourney_games(tour.id) if p.round == 1]
        return started, games, failed

    # -- pairing -----------------------------------------------------------------------------------------------
    async def _pairings(
        self, tour: Tourney, seeded: list[int], gone: list[int], games: list[pairing.Game], round_no: int
    ) -> list[tuple[int, int | None, str | None]]:
        """Round ``round_no``'s pairings ``[(a, b, outcome)]``; a Swiss matching runs in the background CPU lane
        (about 50 ms for 64 players: BENCHMARKS.md "Tournament pairings")."""
        if tour.format == "roundrobin":
            made = pairing.round_robin_round(seeded, round_no, withdrawn=gone)
        else:
            made = await self.layer.cpu_background(
                pairing.swiss_round, [p for p in seeded if p not in gone], games, round_no
            )
        return [(g.a, g.b, g.outcome) for g in made]

    @staticmethod
    def as_games(rows: list[Pairing]) -> list[pairing.Game]:
        """Stored pairings as :class:`pairing.Game` (for the standings)."""
        return [pairing.Game(p.round, p.a, p.b, p.outcome) for p in rows]

    def _lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    # -- results and rounds ------------------------------------------------------------------------------------
    def owed(self, snap: Snapshot, change: Any) -> list[Owed]:
        """The rule: a tournament game that ends owes the ``tourney`` effect."""
        env = getattr(snap, "env", None)
        if env is None or KEY not in env.extra or snap.status not in ("finished", "aborted"):
            return []
        return [Owed(EFFECT)]

    async def effect(self, effect: Effect) -> None:
        """The ``tourney`` effect: record the ended game's outcome, then advance its tournament."""
        record = await self.layer.storage.get_game(effect.game_id)
        if record is None or record.status not in ("finished", "aborted"):
            return
        found = await self.layer.storage.tourney_pairing_of(record.id)
        if found is None:
            found = await self._relink(record)
            if found is None:
                return
        async with self._lock(found.tournament_id):
            if found.b is not None:
                await self.layer.storage.tourney_record(record.id, outcome_of(record, found.a, found.b))
            failed = await self._advance(found.tournament_id, record)
        if failed:  # the outbox tries again with its back-off: what is done is not done twice
            if effect.attempts == RETRIES:  # its tries (the outbox's) ran out as well: the channel is told once
                self.tries.tell_once(found.tournament_id)
            raise RuntimeError(f"{failed} game(s) of tournament {found.tournament_id} could not open yet")

    async def _relink(self, record: GameRecord) -> Pairing | None:
        """A game whose link was lost (a crash between storing it and linking it): linked from its envelope."""
        named = self.layer.snapshot(record).env.extra.get(KEY)
        if not isinstance(named, list) or len(named) != 3:
            return None
        tid, round_no, board = (int(x) for x in named)
        for p in await self.layer.storage.tourney_games(tid):
            if (p.round, p.board) == (round_no, board) and p.game_id is None:
                await self.layer.storage.tourney_link(p, record.id)
                return replace(p, game_id=record.id)
        return None

    async def _advance(self, tournament_id: int, record: GameRecord | None) -> int:
        """Under the tournament's lock: open what is unopened in the current round; when it is over, store the next
        round (or finish) and open its games; repeated while rounds end at once (byes, unplayed games). Returns how
        many games could not open (they are tried again: the caller's retry)."""
        while True:
            tour = await self.layer.storage.tourney_get(tournament_id)
            if tour is None or tour.status != "running":
                return 0
            rows = await self.layer.storage.tourney_games(tour.id)
            if any(p.outcome is None for p in rows if p.round == tour.round):
                failed = await self._open_round(tour)
                rows = await self.layer.storage.tourney_games(tour.id)
                if failed or any(p.outcome is None for p in rows if p.round == tour.round):
                    return failed
                continue  # its last games were scored without being played: the round is over
            entrants = await self.layer.storage.tourney_players(tour.id)
            seeded = [e.user_id for e in entrants]
            gone = [e.user_id for e in entrants if e.withdrawn is not None]
            if tour.round >= tour.rounds or len(seeded) - len(gone) < 2:
                if await self.layer.storage.tourney_finish(tour.id, tour.round, self.layer.clock.now()):
                    await self._announce(tour, record, final=True)
                return 0
            nxt = await self._pairings(tour, seeded, gone, self.as_games(rows), tour.round + 1)
            if await self.layer.storage.tourney_begin_round(tour.id, tour.round + 1, nxt):
                tour = replace(tour, round=tour.round + 1)
                failed = await self._open_round(tour)
                await self._announce(tour, record)
                if failed:
                    return failed

    async def _open_round(self, tour: Tourney) -> int:
        """Open every game of the current round that has none. Returns how many could not open (each is logged;
        Discord refused, a player blocked or at their cap...)."""
        guild = self.layer.bot.get_guild(tour.guild_id)
        if guild is None:
            return 0  # another process's guild, or the bot left it
        channel = guild.get_channel_or_thread(tour.channel_id)
        if not isinstance(channel, discord.TextChannel | discord.Thread):
            log.warning("tournament %s: its channel %s is gone; its games cannot open", tour.id, tour.channel_id)
            return 0
        names = {e.user_id: e.name for e in await self.layer.storage.tourney_players(tour.id)}
        settings = await self.layer.storage.get_guild_settings(tour.guild_id)
        stuck: list[tuple[Pairing, Exception]] = []
        for p in await self.layer.storage.tourney_games(tour.id):
            if p.round != tour.round or p.b is None or p.game_id is not None or p.outcome is not None:
                continue
            try:
                if not await tourney_forfeit.settle(self.layer, tour, p, settings, guild, channel):
                    await self._open(tour, p, guild, channel, names)
            except Exception as err:
                stuck.append((p, err))
                log.warning(
                    "tournament %s round %s board %s: its game could not open (%s)", tour.id, p.round, p.board, err
                )
        self.tries.stuck[tour.id] = stuck
        return len(stuck)

    async def _open(self, tour: Tourney, p: Pairing, guild: discord.Guild, channel: Any, names: dict[int, str]) -> int:
        assert p.b is not None
        storage = self.layer.storage
        since = await storage.tourney_opening(p)
        if since is not None:  # a crash while it opened: the game may exist
            gid = await storage.queue_game_since(tour.guild_id, tour.kind, [p.a, p.b], since)
            if gid is not None:
                await storage.tourney_link(p, gid)
                return 0
        kind = self.layer.kinds[tour.kind]
        loc = tour.locale
        seats = [Seat.of(names.get(p.a, str(p.a))), Seat.of(names.get(p.b, str(p.b)))]
        title = t("tourney.thread", loc, game=kind.title, round=p.round, a=seats[0].name, b=seats[1].name)
        place = Place(guild, channel, guild.get_member(p.a) or discord.Object(p.a))
        await self.layer.lobby.open(
            place,
            kind,
            options=kind.rules.validate_options({}),
            seats=seats,
            players=[p.a, p.b],
            title=title[:100],
            clock=tour.clock,
            start=True,
            extra={KEY: [tour.id, p.round, p.board]},
            on_stored=lambda snap: storage.tourney_link(p, snap.id),
        )
        return 1

    async def _announce(self, tour: Tourney, record: GameRecord | None, *, final: bool = False) -> None:
        """The public message of a new round (its pairings, mentioning its players) or of the final standings, in
        the tournament's channel. Best effort: the games are open and their boards ping the player to move."""
        rows = await self.layer.storage.tourney_games(tour.id)
        entrants = await self.layer.storage.tourney_players(tour.id)
        kind = self.layer.kinds.get(tour.kind)
        title = kind.title if kind else tour.kind
        if final:
            said = [tourney_text.final_text(tour, title, entrants, self.as_games(rows))]
        else:
            gone = [e.user_id for e in entrants if e.withdrawn is not None]
            said = tourney_text.round_text(tour, title, [p for p in rows if p.round == tour.round], gone=gone)
        anchor = record
        if anchor is None:
            linked = [p.game_id for p in rows if p.game_id is not None]
            anchor = await self.layer.storage.get_game(linked[-1]) if linked else None
        try:
            for n, (text, mentions) in enumerate(said):
                nonce = f"t{tour.id}r{tour.round}{'f' if final else ''}{f'p{n}' if n else ''}"
                if anchor is None:  # no game was played yet (every board scored without one): to the channel
                    await tourney_forfeit.post(self.layer.bot, tour, text, mentions, nonce)
                    continue
                where = replace(anchor, channel_id=tour.channel_id)
                await self.layer.publisher.delivery.send(
                    where, text, mentions=mentions, carry=False, locale=tour.locale, nonce=nonce
                )
        except Exception as err:
            log.warning("tournament %s: round %s's message could not be posted: %s", tour.id, tour.round, err)

    # -- restarts ----------------------------------------------------------------------------------------------
    def on_ready(self) -> None:
        """After every READY: look at the running tournaments (:meth:`recover`) in a task."""
        self.layer.bot.spawn(self.recover(), name="tourney-recover")

    async def recover(self) -> int:
        """Every running tournament of a guild this process serves: open what never opened, advance what ended.
        Returns how many tournaments were looked at."""
        owns = getattr(self.layer.bot, "owns", lambda _g: True)
        seen = 0
        try:
            running = await self.layer.storage.tourney_running()
        except Exception as err:
            log.warning("tournaments could not be read at start-up (%s); the next READY tries again", err)
            return 0
        for tour in running:
            if not owns(tour.guild_id):
                continue
            seen += 1
            try:
                async with self._lock(tour.id):
                    self.tries.retry(tour.id, await self._advance(tour.id, None))
            except Exception as err:
                log.warning("tournament %s could not resume (%s); its next game's end or READY retries", tour.id, err)
        return seen
