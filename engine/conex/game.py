"""The CONEX game state: set-up, turns, scoring, die and stars, end (rules/conex.md sections 3, 4, 6, 7, 8).

``Game`` is pure and deterministic: all chance comes from the stored ``seed`` (the shuffle) and counters (die
rolls, random discards), so a game replays exactly from ``seed`` + its action history (U2). The placement finder
lives in ``engine/conex/finder.py``; serialisation in ``engine/conex/state.py`` (format: docs/conex-state.md).
"""

from __future__ import annotations

import random
from typing import Any

from engine.conex import finder, state
from engine.conex.actions import Action, AnyAction, Discard, Draw, Lightning, Pass, Place
from engine.conex.deck import COLOR_NAMES, Card, load_deck
from engine.conex.geometry import TABLE_SIZES_MM, centre_for_corner, posed_card
from engine.conex.table import Table, TableCard, Target, Verdict
from engine.errors import IllegalActionError, InvalidInputError, NotYourTurnError

DIE_FACES: tuple[str, ...] = ("card", "two cards", "lightning", "lightning", "2x", "2x")  # X1
STARS: tuple[str, ...] = ("2x", "lightning")
HAND_SIZE = 5  # U2
MIN_GOAL, MAX_GOAL, DEFAULT_GOAL = 20, 100, 40  # U3


class Game:
    """A CONEX game for 2-4 seats (0-based, seat 0 starts and keeps the start-player marker, U1).

    Build with ``Game.new(...)``, ``Game.from_dict(d)`` or ``Game.replay(...)``; change only through
    ``play(action)`` (which validates, ``check(action)`` validates only). Errors: ``NotYourTurnError``,
    ``InvalidInputError`` (rule ``Input``), ``IllegalActionError`` with the rule code (A2, A3, P1-P5, V3, X2, X3,
    E1).
    """

    def __init__(self, players: int, seed: int, table: str, goal: int) -> None:
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
            raise InvalidInputError(f"U1: CONEX is for 2-4 players, not {players!r}", players=players)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise InvalidInputError(f"the seed must be a whole number, not {seed!r}", seed=seed)
        if table not in TABLE_SIZES_MM:
            raise InvalidInputError(
                f"G2: table size must be one of {', '.join(TABLE_SIZES_MM)}, not {table!r}", table=table
            )
        if isinstance(goal, bool) or not isinstance(goal, int) or not MIN_GOAL <= goal <= MAX_GOAL:
            raise InvalidInputError(f"U3: the goal must be {MIN_GOAL}-{MAX_GOAL} points, not {goal!r}", goal=goal)
        self.players = players
        self.seed = seed
        self.table_size = table
        self.goal = goal
        self.deck: dict[int, Card] = {c.id: c for c in load_deck()}
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.pile: list[int] = []  # index 0 is the top
        self.board = Table(table)
        self.scores: list[int] = [0] * players
        self.current_player = 0
        self.turn = 0  # number of turns completed; the turn in progress has this number
        self.star_holder: dict[str, int | None] = dict.fromkeys(STARS)
        self.star_since: dict[str, int | None] = dict.fromkeys(STARS)  # the turn a star was taken (X2)
        self.pending_discards: set[int] = set()
        self.passes = 0  # consecutive passes (E2)
        self.goal_reached = False
        self.is_over = False
        self.end_reason: str | None = None
        self.rolls = 0  # die rolls used (the die is re-derived from seed + this counter)
        self.window: tuple[int, int] | None = None  # (seat, turn): that seat may still use lightning (end of turn)
        self.history: list[tuple[int, str]] = []
        self.last_events: list[dict[str, Any]] = []

    # --- construction ----------------------------------------------------------------------------------------

    @classmethod
    def new(cls, players: int = 3, seed: int = 7, table: str = "medium", goal: int = DEFAULT_GOAL) -> Game:
        """A fresh game: shuffle with ``random.Random(seed)``, deal 5 cards each, the rest is the pile (U1-U3).

        Raises ``InvalidInputError`` for 0/1/5+ players (U1), an unknown table size (G2) or a goal outside
        20-100 (U3).
        """
        g = cls(players, seed, table, goal)
        ids = sorted(g.deck)
        random.Random(seed).shuffle(ids)
        for p in range(players):
            g.hands[p] = ids[p * HAND_SIZE : (p + 1) * HAND_SIZE]
        g.pile = ids[players * HAND_SIZE :]
        return g

    @classmethod
    def replay(
        cls,
        history: list[tuple[int, str]],
        *,
        players: int = 3,
        seed: int = 7,
        table: str = "medium",
        goal: int = DEFAULT_GOAL,
    ) -> Game:
        """Rebuild a game from its set-up and its action history (``[(seat, "place 12 c2 at ..."), ...]``)."""
        g = cls.new(players, seed, table, goal)
        for player, text in history:
            g.play(Action.parse(text, player))
        return g

    def to_dict(self) -> dict[str, Any]:
        """The full state as JSON-ready data, ``"version": 1`` (format: docs/conex-state.md)."""
        return state.to_dict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Game:
        """Load a state written by ``to_dict`` (or built by hand, docs/conex-state.md); raises ``StateError``
        for an unknown version, unknown or missing/duplicated card ids (card conservation), a bad seat or
        turn, or malformed numbers."""
        return state.from_dict(cls, d)

    def view_for(self, player: int) -> dict[str, Any]:
        """What seat ``player`` may see: ``to_dict()`` without the seed and pile order, other hands as counts."""
        return state.view_for(self, player)

    # --- queries ---------------------------------------------------------------------------------------------

    def hand(self, player: int) -> list[Card]:
        """Seat ``player``'s cards, in the order received."""
        return [self.deck[i] for i in self.hands[self._seat(player)]]

    @property
    def draw_pile(self) -> list[Card]:
        """The draw pile, top first (engine-private: views show only its size)."""
        return [self.deck[i] for i in self.pile]

    @property
    def table(self) -> list[TableCard]:
        """Cards on the table in play order (G6: later cards lie on top)."""
        return list(self.board.cards)

    @property
    def stars(self) -> dict[str, int | None]:
        """``{"2x": holder, "lightning": holder}``; ``None`` = in the supply."""
        return dict(self.star_holder)

    @property
    def table_size_mm(self) -> tuple[float, float]:
        return TABLE_SIZES_MM[self.table_size]

    @property
    def winners(self) -> list[int]:
        """E3: the seats with the highest score (all tied leaders); empty while the game runs."""
        if not self.is_over:
            return []
        best = max(self.scores)
        return [p for p, s in enumerate(self.scores) if s == best]

    def star_usable(self, player: int, star: str) -> bool:
        """X2: ``player`` holds ``star`` and took it before the turn now in progress began."""
        since = self.star_since[star]
        return self.star_holder[star] == player and since is not None and since < self.turn

    def can_lightning(self, player: int) -> bool:
        """X3: ``player`` may use the lightning star now (start of their turn, or the end of the turn they just
        finished while the next player has not acted), holding it since an earlier turn (X2)."""
        if self.is_over or self.star_holder["lightning"] != player:
            return False
        since = self.star_since["lightning"]
        assert since is not None
        if player == self.current_player and since < self.turn:
            return True
        return self.window is not None and self.window[0] == player and since < self.window[1]

    def _seat(self, player: object) -> int:
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.players:
            raise InvalidInputError(f"no seat {player!r} in a {self.players}-player game", player=player)
        return player

    def _card(self, card_id: object) -> Card:
        if isinstance(card_id, bool) or not isinstance(card_id, int) or card_id not in self.deck:
            raise InvalidInputError(f"there is no card {card_id!r} (cards are numbered 1-52)", card=card_id)
        return self.deck[card_id]

    # --- checking --------------------------------------------------------------------------------------------

    def check(self, action: AnyAction) -> AnyAction:
        """Validate ``action`` without changing anything; returns it resolved (a ``Place`` with
        ``rotation=None`` gets the best legal rotation at its point).

        Order of checks for a place: game over (E1), seat, turn (``NotYourTurnError``), pending discard (X3),
        unknown card/corner (``Input``), card in hand (P5), star use (V3, X2), then P4, P1, P2, P3.
        """
        if not isinstance(action, Place | Draw | Pass | Lightning | Discard):
            raise InvalidInputError(f"not a CONEX action: {action!r}")
        if self.is_over:
            raise IllegalActionError("the game is over", rule="E1")
        p = self._seat(action.player)
        if isinstance(action, Discard):
            self._check_discard(p, action.card)
            return action
        if isinstance(action, Lightning):
            self._check_lightning(p, action.card)
            return action
        if p != self.current_player:
            raise NotYourTurnError(
                f"it is seat {self.current_player + 1}'s turn, not seat {p + 1}'s",
                player=p,
                current=self.current_player,
            )
        if p in self.pending_discards:
            raise IllegalActionError(
                "you must first discard a card to the bottom of the pile (lightning was used)", rule="X3", player=p
            )
        if isinstance(action, Draw):
            if not self.pile:
                raise IllegalActionError("the draw pile is empty: place a card or pass", rule="A2")
            return action
        if isinstance(action, Pass):
            if self.pile:
                raise IllegalActionError(
                    f"you may pass only when the draw pile is empty ({len(self.pile)} cards left): draw instead",
                    rule="A3",
                )
            return action
        resolved, _ = self._check_place(action)
        return resolved

    def _check_place(self, place: Place) -> tuple[Place, Verdict]:
        card = self._card(place.card)
        p = place.player
        if place.card not in self.hands[p]:
            where = "on the table" if place.card in self.board else "not in your hand"
            raise IllegalActionError(f"card {place.card} is {where}", rule="P5", card=place.card)
        if place.corner not in [c.index for c in card.corners]:
            raise InvalidInputError(
                f"card {card.id} has corners 1-{len(card.corners)}, not {place.corner}", card=card.id
            )
        if place.double:
            if self.star_holder["2x"] != p:
                raise IllegalActionError("you do not hold the 2x star", rule="V3")
            if not self.star_usable(p, "2x"):
                raise IllegalActionError("the 2x star was won this turn: use it from your next turn on", rule="X2")
        if place.rotation is None:
            rot = finder.best_rotation(self, card, place.corner, place.x_mm, place.y_mm)
            place = Place(p, place.card, place.corner, place.x, place.y, rot, place.double)
        assert place.rotation is not None
        corner = card.corner(place.corner)
        cx, cy = centre_for_corner(corner, place.x_mm, place.y_mm, place.rotation)
        verdict = self.board.check_pose(card, place.corner, cx, cy, place.rotation)
        return place, verdict

    def _check_discard(self, p: int, card_id: int) -> None:
        self._card(card_id)
        if p not in self.pending_discards:
            raise IllegalActionError("you have no discard to make", rule="X3", player=p)
        if card_id not in self.hands[p]:
            raise IllegalActionError(f"card {card_id} is not in your hand", rule="X3", card=card_id)

    def _check_lightning(self, p: int, card_id: int) -> None:
        if self.star_holder["lightning"] != p:
            raise IllegalActionError("you do not hold the lightning star", rule="X3", player=p)
        if not self.can_lightning(p):
            since = self.star_since["lightning"]
            if since is not None and (since >= self.turn or (self.window and since >= self.window[1])):
                raise IllegalActionError(
                    "the lightning star was won this turn: use it from your next turn on", rule="X2"
                )
            raise IllegalActionError(
                "lightning can be used only at the start or the end of your own turn", rule="X3", player=p
            )
        self._card(card_id)
        if card_id not in self.board:
            raise IllegalActionError(f"card #{card_id} is not on the table", rule="X3", card=card_id)
        if not self.board.is_free(card_id):
            raise IllegalActionError(
                f"card #{card_id} is not free: a later card lies on it", rule="X3", card=card_id
            )

    def points_for(self, place: Place) -> int:
        """The points ``place`` would score (V1 corner value, V2 +2 on a +2 card, V3 doubled with ``double``).

        Raises the same errors as ``check``.
        """
        self.check(place)
        resolved, verdict = self._check_place(place)
        return self._points(resolved, verdict)

    def _points(self, place: Place, verdict: Verdict) -> int:
        pts = self.deck[place.card].corner(place.corner).value  # V1
        if verdict.target_card is not None and verdict.target_card.action == "plus2":
            pts += 2  # V2
        return pts * 2 if place.double else pts  # V3

    # --- playing ---------------------------------------------------------------------------------------------

    def play(self, action: AnyAction) -> AnyAction:
        """Validate and apply ``action``; returns it resolved (see ``check``) and sets ``last_events``.

        Nothing changes when an error is raised.
        """
        resolved = self.check(action)
        events: list[dict[str, Any]] = []
        if isinstance(resolved, Place):
            self._do_place(resolved, events)
        elif isinstance(resolved, Draw):
            self.passes = 0
            self._draw(resolved.player, 2, events)
            self._end_turn(events)
        elif isinstance(resolved, Pass):
            self.passes += 1
            events.append({"type": "passed", "player": resolved.player})
            self._end_turn(events)
        elif isinstance(resolved, Lightning):
            self._do_lightning(resolved, events)
        else:
            assert isinstance(resolved, Discard)
            self.hands[resolved.player].remove(resolved.card)
            self.pile.append(resolved.card)
            self.pending_discards.discard(resolved.player)
            events.append({"type": "discarded", "player": resolved.player, "card": resolved.card, "private": True})
        self.history.append((resolved.player, str(resolved)))
        self.last_events = events
        return resolved

    def play_text(self, text: str, player: int) -> AnyAction:
        """``play(Action.parse(text, player))``."""
        return self.play(Action.parse(text, player))

    def random_discard(self, player: int) -> Discard:
        """X3: the discard made for ``player`` when their time runs out (seeded: replays exactly). Plays it."""
        p = self._seat(player)
        if p not in self.pending_discards or not self.hands[p]:
            raise IllegalActionError("no discard is pending for this seat", rule="X3", player=p)
        rng = random.Random(f"conex-discard:{self.seed}:{len(self.history)}")  # replays as a plain discard
        action = Discard(p, sorted(self.hands[p])[rng.randrange(len(self.hands[p]))])
        self.play(action)
        return action

    def _do_place(self, place: Place, events: list[dict[str, Any]]) -> None:
        _, verdict = self._check_place(place)
        card = self.deck[place.card]
        assert place.rotation is not None
        pts = self._points(place, verdict)
        cx, cy = centre_for_corner(card.corner(place.corner), place.x_mm, place.y_mm, place.rotation)
        self._lay(card, cx, cy, place.rotation, place.player, pts, place.corner, verdict.target)
        self.hands[place.player].remove(card.id)
        self.scores[place.player] += pts
        self.passes = 0
        events.append(
            {
                "type": "placed",
                "player": place.player,
                "card": card.id,
                "corner": place.corner,
                "target": verdict.target,
                "points": pts,
                "doubled": place.double,
                "action": str(place),
            }
        )
        if place.double:
            self.star_holder["2x"] = self.star_since["2x"] = None
            events.append({"type": "star_used", "star": "2x", "player": place.player})
        if card.action == "die":
            self._roll(place.player, events)
        if not self.goal_reached and self.scores[place.player] >= self.goal:
            self.goal_reached = True
            events.append({"type": "goal_reached", "player": place.player, "score": self.scores[place.player]})
        self._end_turn(events)

    def _lay(
        self, card: Card, cx: float, cy: float, rot: float, player: int, pts: int, corner: int, target: Target
    ) -> None:
        posed = posed_card(card, cx, cy, rot)
        self.board.add(TableCard(card, (cx, cy, rot), player, pts, corner, target, posed.rect, posed.corners))

    def _roll(self, player: int, events: list[dict[str, Any]]) -> None:
        rng = random.Random(f"conex-die:{self.seed}:{self.rolls}")
        self.rolls += 1
        face = DIE_FACES[rng.randrange(len(DIE_FACES))]
        events.append({"type": "die", "player": player, "face": face})
        if face in ("card", "two cards"):
            self._draw(player, 1 if face == "card" else 2, events)
        else:
            prev = self.star_holder[face]
            self.star_holder[face] = player
            self.star_since[face] = self.turn
            events.append({"type": "star_taken", "star": face, "player": player, "from": prev})

    def _draw(self, player: int, n: int, events: list[dict[str, Any]]) -> None:
        got = self.pile[:n]
        del self.pile[:n]
        self.hands[player].extend(got)
        events.append({"type": "drew", "player": player, "count": len(got), "cards": got, "private": True})

    def _do_lightning(self, action: Lightning, events: list[dict[str, Any]]) -> None:
        removed = self.board.remove(action.card)
        self.pile.append(removed.id)
        self.star_holder["lightning"] = self.star_since["lightning"] = None
        self.window = None
        events.append({"type": "star_used", "star": "lightning", "player": action.player})
        events.append({"type": "card_removed", "card": removed.id, "by": action.player})
        pending = {q for q in range(self.players) if q != action.player and self.hands[q]}
        self.pending_discards |= pending
        if pending:
            events.append({"type": "discards_pending", "players": sorted(pending)})

    def _end_turn(self, events: list[dict[str, Any]]) -> None:
        finished = self.current_player
        self.window = (finished, self.turn)
        self.current_player = (self.current_player + 1) % self.players
        self.turn += 1
        reason = None
        if self.passes >= self.players:
            reason = "every player passed in one go-round (E2)"
        elif not self.pile and not any(self.hands):
            reason = "all hands and the draw pile are empty (E2)"
        elif self.goal_reached and self.current_player == 0:
            reason = f"the goal of {self.goal} was reached and the round is complete (E1)"
        if reason:
            self.is_over = True
            self.end_reason = reason
            self.window = None
            self.pending_discards.clear()
            events.append({"type": "game_over", "winners": self.winners, "scores": list(self.scores), "reason": reason})
        else:
            events.append({"type": "turn", "player": self.current_player})

    # --- the placement finder (engine/conex/finder.py) -------------------------------------------------------

    def find_placements(
        self, player: int, card_id: int, corner: int | None = None, target: int | str | None = None, limit: int = 10
    ) -> list[Place]:
        """Legal poses for ``card_id`` from ``player``'s hand, best first (points, then clearance), at most
        ``limit``, spread out (no two near-identical). ``corner``/``target`` (a table card id or ``"board"``)
        narrow the search. Coordinates are rounded to 1 mm and whole degrees and every result passes ``check``
        (for the seat to move). Deterministic. Raises ``InvalidInputError`` for unknown ids.
        """
        return finder.find_placements(self, player, card_id, corner, target, limit)

    def auto_fit(self, player: int, card_id: int, corner: int, target: int | str) -> Place:
        """The single best legal pose of ``corner`` of ``card_id`` on ``target``; raises
        ``IllegalActionError`` ("no legal pose for corner 2 of card 31 on card #7", rule P1) if none."""
        found = self.find_placements(player, card_id, corner, target, limit=1)
        if not found:
            card = self._card(card_id)
            on = "the board" if target == "board" else f"card #{target}"
            c = card.corner(corner) if corner in [k.index for k in card.corners] else None
            why = ""
            if c is not None and target != "board" and target in self.board:
                tcol = self.board.get(int(target)).card.color
                if tcol != c.color:
                    why = f": the corner is {COLOR_NAMES[c.color]}, the card is {COLOR_NAMES[tcol]}"
            raise IllegalActionError(
                f"no legal pose for corner {corner} of card {card_id} on {on}{why}",
                rule="P1",
                card=card_id,
                corner=corner,
                target=target,
            )
        return found[0]

    def legal_counts(self, player: int, cap: int = 9) -> dict[int, int]:
        """For each card in ``player``'s hand, how many distinct legal placements the finder offers, capped at
        ``cap`` (for the hand image)."""
        return {cid: len(finder.find_placements(self, player, cid, None, None, cap)) for cid in self.hands[player]}

    def __repr__(self) -> str:
        return (
            f"<conex.Game players={self.players} turn={self.turn} current={self.current_player} "
            f"scores={self.scores} pile={len(self.pile)} table={len(self.board.cards)} over={self.is_over}>"
        )
