"""Tournament pairings and standings: pure (no discord, no storage, no asyncio), every game the same.

A tournament game is a two-player game; its **outcome** for the tournament is one of ``"a"`` (seat 0 won), ``"b"``
(seat 1 won), ``"draw"``, ``"none"`` (neither scores: the game was aborted, or a withdrawn player's round-robin
game was left unplayed) or ``"bye"`` (``b`` is ``None``: the player sat out and scores as a win); ``None`` while the
game is being played. Points: a win 1, a draw ½, a loss or ``"none"`` 0, a bye 1.

- **Swiss** (:func:`swiss_round`): a maximum-weight matching (``networkx.max_weight_matching``, cardinality first)
  over every pair of players still in. A pair that already met costs :data:`REPEAT` (so repeats happen only when no
  pairing without them exists), a pair with different scores costs the square of the difference (in half points);
  with an odd field one more node, the bye, pairs with the player who gets it: a player who had a bye costs
  :data:`REPEAT` too (at most one bye each while it can be helped), otherwise the lowest scores and, among them,
  the lowest standing are preferred.
- **Round robin** (:func:`round_robin_round`): the circle method (Berger tables) over the players in their seeding
  order; with an odd field each round one player has the bye. ``n`` players play ``n - 1`` rounds (``n`` when odd).
- **Who moves first** (seat 0): the one who had seat 0 fewer times; at equal counts the one who did not have it in
  their previous game; then the higher standing.
- **Standings** (:func:`standings`), the documented tie-break: points, then **Buchholz** (the sum of the points of
  every opponent met; a bye adds nothing), then **Sonneborn-Berger** (the points of each opponent beaten, plus half
  the points of each opponent drawn), then the **direct encounter** (two players still tied who met: the one who
  scored more against the other), then wins, then seeding (who joined first).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

REPEAT = 10**9
"""The cost of pairing two players a second time (or of a second bye): larger than any score-difference cost."""
BYE = -1
"""The bye's node in the matching graph (never a user id: Discord ids are positive)."""
OUTCOMES = frozenset({"a", "b", "draw", "none", "bye"})


@dataclass(frozen=True)
class Game:
    """One pairing of round ``round`` (1-based): ``a`` has seat 0 (moves first), ``b`` seat 1 (``None``: a bye);
    ``outcome`` as in the module docstring (``None``: not finished yet)."""

    round: int
    a: int
    b: int | None
    outcome: str | None = None

    def points(self, player: int) -> float:
        """What ``player`` scored here (0 when the game is not finished or ``player`` did not play it)."""
        if self.outcome is None or player not in (self.a, self.b):
            return 0.0
        if self.outcome == "draw":
            return 0.5
        if self.outcome == "bye":
            return 1.0
        won = "a" if player == self.a else "b"
        return 1.0 if self.outcome == won else 0.0

    def opponent(self, player: int) -> int | None:
        """The other player of this game, ``None`` for a bye (or when ``player`` is not in it)."""
        if player == self.a:
            return self.b
        return self.a if player == self.b else None


@dataclass(frozen=True)
class Standing:
    """One line of the standings: ``place`` (1-based; tied players share none: the tie-break orders everyone),
    ``points``, ``buchholz``, ``berger`` (Sonneborn-Berger), ``wins``, ``played`` (games finished, byes included)."""

    place: int
    player: int
    points: float
    buchholz: float
    berger: float
    wins: int
    played: int


def _scores(players: Iterable[int], games: Sequence[Game]) -> dict[int, float]:
    out = dict.fromkeys(players, 0.0)
    for g in games:
        for p in (g.a, g.b):
            if p is not None:
                out[p] = out.get(p, 0.0) + g.points(p)
    return out


def standings(players: Sequence[int], games: Sequence[Game]) -> list[Standing]:
    """Every player of ``players`` (seeding order: who joined first), withdrawn ones included, ordered by the
    tie-break of the module docstring. ``games``: every game of the tournament so far (unfinished ones count
    nothing)."""
    score = _scores(players, games)
    buch = dict.fromkeys(players, 0.0)
    berger = dict.fromkeys(players, 0.0)
    wins = dict.fromkeys(players, 0)
    played = dict.fromkeys(players, 0)
    for g in games:
        if g.outcome is None:
            continue
        for p in (g.a, g.b):
            if p is None or p not in played:  # an opponent not listed (withdrawn): their points count, not them
                continue
            played[p] += 1
            got = g.points(p)
            wins[p] += got == 1.0
            opp = g.opponent(p)
            if opp is None or g.outcome == "none":
                continue
            buch[p] += score.get(opp, 0.0)
            berger[p] += got * score.get(opp, 0.0)
    seed = {p: i for i, p in enumerate(players)}
    order = sorted(players, key=lambda p: (-score[p], -buch[p], -berger[p], -wins[p], seed[p]))
    order = _direct(order, score, buch, berger, games)
    return [Standing(i + 1, p, score[p], buch[p], berger[p], wins[p], played[p]) for i, p in enumerate(order)]


def _direct(
    order: list[int], score: dict[int, float], buch: dict[int, float], berger: dict[int, float], games: Sequence[Game]
) -> list[int]:
    """Exactly two players tied on points, Buchholz and Sonneborn-Berger who met: the one who scored more against
    the other first."""
    key = {p: (score[p], buch[p], berger[p]) for p in order}
    out = list(order)
    i = 0
    while i < len(out) - 1:
        j = i
        while j + 1 < len(out) and key[out[j + 1]] == key[out[i]]:
            j += 1
        if j == i + 1:
            x, y = out[i], out[j]
            mine = sum(g.points(x) for g in games if {g.a, g.b} == {x, y})
            theirs = sum(g.points(y) for g in games if {g.a, g.b} == {x, y})
            if theirs > mine:
                out[i], out[j] = y, x
        i = j + 1
    return out


def _seat_order(x: int, y: int, games: Sequence[Game], rank: dict[int, int]) -> tuple[int, int]:
    """``(seat 0, seat 1)`` for a new game of ``x`` and ``y`` (see "Who moves first")."""

    def firsts(p: int) -> int:
        return sum(1 for g in games if g.a == p and g.b is not None)

    def last_first(p: int) -> bool:
        mine = [g for g in games if p in (g.a, g.b) and g.b is not None]
        return bool(mine) and max(mine, key=lambda g: g.round).a == p

    kx, ky = (firsts(x), last_first(x), rank[x]), (firsts(y), last_first(y), rank[y])
    return (x, y) if kx <= ky else (y, x)


def _board_order(pairs: list[Game], score: dict[int, float], rank: dict[int, int]) -> list[Game]:
    """Boards: the highest scores first, byes last."""

    def key(g: Game) -> tuple[int, float, int]:
        if g.b is None:
            return (1, 0.0, rank[g.a])
        return (0, -(score[g.a] + score[g.b]), min(rank[g.a], rank[g.b]))

    return sorted(pairs, key=key)


def swiss_round(players: Sequence[int], games: Sequence[Game], round_no: int) -> list[Game]:
    """The pairings of Swiss round ``round_no`` for ``players`` (the players still in, seeding order), given every
    earlier game of the tournament (``games``; withdrawn players' games included). Returns one :class:`Game` per
    board (``outcome=None``; a bye is ``Game(round_no, p, None, "bye")``), highest scores first. Raises
    ``ValueError`` for fewer than two players or a player listed twice."""
    if len(players) < 2 or len(set(players)) != len(players):
        raise ValueError("a Swiss round needs two or more distinct players")
    score = _scores(players, games)
    order = [s.player for s in standings(players, games)]
    rank = {p: i for i, p in enumerate(order)}
    met = {frozenset((g.a, g.b)) for g in games if g.b is not None}
    byes = {g.a for g in games if g.b is None}
    half = {p: round(score[p] * 2) for p in players}
    import networkx as nx  # here, not at the top: ~140 ms of every bot start's imports for a Swiss round's pairing

    graph = nx.Graph()
    graph.add_nodes_from(players)
    top = 0
    for i, x in enumerate(players):
        for y in players[i + 1 :]:
            cost = (half[x] - half[y]) ** 2 * 1000 + (REPEAT if frozenset((x, y)) in met else 0)
            graph.add_edge(x, y, cost=cost)
            top = max(top, cost)
    if len(players) % 2:
        low = min(half.values())
        for p in players:
            cost = (half[p] - low) ** 2 * 1000 + (len(players) - rank[p]) + (REPEAT if p in byes else 0)
            graph.add_edge(BYE, p, cost=cost)
            top = max(top, cost)
    for _x, _y, data in graph.edges(data=True):
        data["weight"] = top + 1 - data["cost"]  # the matching maximises weight: the least cost
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    out: list[Game] = []
    for x, y in matching:
        if BYE in (x, y):
            out.append(Game(round_no, y if x == BYE else x, None, "bye"))
        else:
            a, b = _seat_order(x, y, games, rank)
            out.append(Game(round_no, a, b))
    return _board_order(out, score, rank)


def round_robin_rounds(count: int) -> int:
    """How many rounds a round robin of ``count`` players has: ``count - 1``, or ``count`` when odd."""
    return count if count % 2 else count - 1


def round_robin_round(players: Sequence[int], round_no: int, withdrawn: Iterable[int] = ()) -> list[Game]:
    """The games of round ``round_no`` (1-based, at most :func:`round_robin_rounds`) of a round robin over
    ``players`` (every player who started, seeding order) by the circle method; seats alternate from round to
    round. A player in ``withdrawn`` plays no more: their game is ``outcome="none"`` (unplayed, nobody scores).
    Raises ``ValueError`` for a round out of range or fewer than two players."""
    n = len(players)
    if n < 2 or not 1 <= round_no <= round_robin_rounds(n):
        raise ValueError(f"round {round_no} of a round robin of {n} players")
    ring: list[int | None] = [*players, None] if n % 2 else list(players)
    m = len(ring)
    rest = ring[1:]
    shift = (round_no - 1) % (m - 1)
    rest = rest[-shift:] + rest[:-shift] if shift else rest
    circle = [ring[0], *rest]
    gone = set(withdrawn)
    out: list[Game] = []
    for i in range(m // 2):
        x, y = circle[i], circle[m - 1 - i]
        if i == 0 and round_no % 2 == 0:
            x, y = y, x
        if x is None or y is None:
            p = x if y is None else y
            if p is not None and p not in gone:
                out.append(Game(round_no, p, None, "bye"))
            continue
        if i % 2 and i > 0:
            x, y = y, x
        out.append(Game(round_no, x, y, "none" if x in gone or y in gone else None))
    return out
