"""The simulating level (``grandmaster``, the level above champion): Monte-Carlo simulation of the
champion's leading candidates, the exact endgame and the pre-endgame.

- **Seat view only.** Everything comes from what the player to move can see: its rack, the
  board, the scores, the racks' and the bag's sizes. The tiles it cannot see are the set less the
  board and its rack (``unseen_tiles``); the other racks and the bag are never read.
- **Bag empty, two players**: the exact endgame (``endgame.EndgameSolver``), the other rack being
  the unseen tiles; not proved within the budget, the champion's one-reply look-ahead decides
  (it counts the tiles a play leaves on the rack; the solver's horizon only the spread so far).
- **One or two tiles in the bag, two players**: the pre-endgame (``endgame.PreEndgameSolver``) over
  every draw, on the champion's best ``PRE_CANDIDATES`` plays and the pass; cut before it has
  valued them all two turns deep over every draw, the champion's choice stands.
- **Otherwise** (and with three or four players always): the champion's best turns by static
  equity (2 at the page's budget, up to ``CANDIDATES`` with more) are each played out over the
  same sampled deals of the unseen tiles (the other racks, then the bag in draw order),
  ``plies`` turns deep (every opponent once, then the player to move again: two plies with two
  players), each turn the static champion's choice (score + leave) on the rack the deal gave
  it, then the leaves of the last racks at the champion's bag weight. A candidate's value is
  its mean over the deals: points of the player to move over the plies − the opponents' mean +
  its leave − the opponents' mean leave (a player going out ends the game, the other racks'
  values moving to the closer).
- **Stopping rule**: after ``MIN_ROUNDS`` deals, a candidate whose paired difference with the
  leader (the same deals) is above zero by ``PRUNE_Z`` standard errors is dropped; the
  simulation ends when one candidate is left, the rounds reach ``MAX_ROUNDS`` or another round
  would overrun the work budget. The champion's choice is played unless another beats it by
  ``SWITCH_Z`` standard errors over at least ``SWITCH_DEALS`` deals.
- **Any-time, replayable**: ``analyse`` is a generator that yields every few ms (inside move
  generation). Its budget is work, not time (``BUDGET`` units, each about one move generation:
  ``movegen_work``, ``search_work``), so that a seeded game replays exactly: deals come from
  ``Rng`` seeded by the game's seed and the move number. ``seconds`` is an optional wall-clock
  cap (the page's, ``ai.SIM_SECONDS``): cut there, the best so far is played.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Generator, Protocol, Sequence

from game.core import Rng
from game.scarabeo import endgame, leaves
from game.scarabeo.board import SIZE
from game.scarabeo.game import ScarabeoState
from game.scarabeo.movegen import GenPlay, MoveGenerator, rack_after
from game.scarabeo.moves import Exchange, Move, Pass, Play, move_text
from game.scarabeo.tiles import RACK_SIZE, SCARAB, rack_value, sort_rack

#: The champion's best turns by static equity that are simulated: one per ``WORK_PER_CANDIDATE``
#: units of the budget, from 2 to ``CANDIDATES`` (2 at the page's budget: three or four deals
#: each; a candidate more would leave each two).
CANDIDATES = 6
WORK_PER_CANDIDATE = 9
#: Deals every candidate meets before the stopping rule may drop one, and at most.
MIN_ROUNDS = 3
MAX_ROUNDS = 40
#: A candidate is dropped when the leader beats it by this many standard errors (paired).
PRUNE_Z = 2.0
#: The simulation plays another candidate than the champion's only when it beats the
#: champion's by this many standard errors (paired) over at least ``SWITCH_DEALS`` deals: with
#: few deals a noisy mean would otherwise undo the static ranking.
SWITCH_Z = 1.0
SWITCH_DEALS = 3
#: The work budget of a move, in units of about 60 ms of CPython (150 ms in the page): 18 fit
#: the page's 3 s a move. Work is counted, not timed, so that a seeded game replays: a move
#: generation costs ``MOVEGEN_WORK`` plus one unit per ``PLAYS_WORK`` plays it finds, and a
#: solver's search one unit per ``NODES_WORK`` positions besides its move generations.
BUDGET = 18
MOVEGEN_WORK = 0.15
PLAYS_WORK = 5000
NODES_WORK = 2000
#: Plays valued by the pre-endgame (the champion's best by equity), and the pass.
PRE_CANDIDATES = 3
#: The leave's weight when the bag holds fewer tiles than a rack (``ai.NEAR_END_LEAVE``).
NEAR_END_LEAVE = 0.5
#: Plays handled between two yields.
SLICE = 2048


@dataclass
class Candidate:
    """A simulated candidate: its values over the deals (``values[i]``: deal ``i``)."""

    move: Move
    score: int
    equity: float
    values: list[float] = field(default_factory=list)
    dropped: int = 0  # the round it was dropped in, 0 while it is in

    @property
    def mean(self) -> float:
        return sum(self.values) / len(self.values) if self.values else float("-inf")

    def to_json(self) -> dict[str, Any]:
        return {"move": move_text(self.move), "score": self.score,
                "equity": round(self.equity, 2), "value": round(self.mean, 2),
                "deals": len(self.values), "dropped": self.dropped}


@dataclass
class Analysis:
    """What the level decided and how: ``kind`` is ``endgame``, ``pre-endgame``, ``simulation``
    or ``static`` (one candidate, or nothing to simulate); ``cut``: the wall-clock cap ended it."""

    move: Move
    kind: str
    candidates: list[Candidate] = field(default_factory=list)
    rounds: int = 0
    work: float = 0.0
    cut: bool = False
    detail: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"move": move_text(self.move), "kind": self.kind, "rounds": self.rounds,
                "work": round(self.work, 2), "cut": self.cut,
                "candidates": [c.to_json() for c in self.candidates], **self.detail}


class Ranked(Protocol):
    """A ranked turn (``ai.Choice``): the move, its score and its static equity."""

    @property
    def move(self) -> Move: ...

    @property
    def score(self) -> int: ...

    @property
    def equity(self) -> float: ...


def unseen_tiles(state: ScarabeoState, seat: int) -> list[str]:
    """The tiles ``seat`` cannot see (the set less the board and its own rack), in a fixed order."""
    return [t for t, n in sorted(state.unseen_counts(seat).items()) for _ in range(n)]


def best_leave(rack: Sequence[str], extra_scarabs: int = 0) -> float:
    """The most any leave of ``rack`` can be worth (``extra_scarabs``: scarabs that flying-scarab
    swaps could bring): an upper bound for pruning."""
    tiles = list(rack) + [SCARAB] * extra_scarabs
    seen: dict[str, float] = {}
    for mask in range(1 << len(tiles)):
        key = sort_rack(t for i, t in enumerate(tiles) if mask >> i & 1)
        if key not in seen and len(key) < RACK_SIZE:
            seen[key] = leaves.value(key)
    return max(seen.values(), default=0.0)


def movegen_work(plays: int) -> float:
    """The work units of one move generation that found ``plays`` plays."""
    return MOVEGEN_WORK + plays / PLAYS_WORK


def search_work(search: Any) -> float:
    """The work units a solver's search (``endgame._Search``) has spent: its move generations
    (each position's list is generated once and kept) and its positions."""
    total: float = (sum(movegen_work(len(m)) for m in search.moves_cache.values())
                    + search.nodes / NODES_WORK)
    return total


def counted_work(search: Any) -> float:
    """A search's work in ``search_work``'s units, from its running counts (``generations``,
    ``plays_found``, ``nodes``; the passes a move list also holds are not counted): cheap enough
    to ask at every yield, and not reset when the search's move cache is cleared. The analysis
    and the hints budget their endgames by it (the grandmaster keeps ``search_work``, so that
    its seeded games replay as they did)."""
    return float(search.generations * MOVEGEN_WORK + search.plays_found / PLAYS_WORK
                 + search.nodes / NODES_WORK)


def _seed(state: ScarabeoState) -> int:
    return (state.seed * 1_000_003 + len(state.history()) * 7919 + 5) & (2**64 - 1)


def leave_weight(bag: int) -> float:
    """The champion's weight of a leave with ``bag`` tiles in the bag."""
    return 1.0 if bag >= RACK_SIZE else NEAR_END_LEAVE if bag > 0 else 0.0


def best_static(gen: MoveGenerator, board: list[str], rack: Sequence[str], bag: int,
                cache: dict[tuple[str, ...], float], spent: list[float] | None = None,
                ) -> Generator[None, None, tuple[GenPlay, float, list[str]] | None]:
    """The static champion's play for ``rack`` on ``board`` (score + weight × leave), with the
    leave's value and the rack left; None when there is no play. ``spent[0]`` grows by the
    move generation's work."""
    plays: list[GenPlay] = []
    yield from gen.iter_plays(board, rack, plays, False)
    if spent is not None:
        spent[0] += movegen_work(len(plays))
    if not plays:
        return None
    weight = leave_weight(bag)
    top = max(plays)
    if weight == 0:
        left = rack_after(board, rack, top)
        return top, 0.0, left
    swappable = sum(1 for c in board if c.islower())
    key = (*sorted(rack), str(swappable))
    bound = cache.get(key)
    if bound is None:
        bound = cache[key] = weight * best_leave(rack, swappable) + 1e-9
    left = rack_after(board, rack, top)
    top_leave = leaves.value(left)
    best_eq = top[0] + weight * top_leave
    best = (top, top_leave, left)
    values: dict[str, float] = {}
    for i in range(0, len(plays), SLICE):
        for p in plays[i:i + SLICE]:
            if p[0] + bound <= best_eq:
                continue
            left = rack_after(board, rack, p)
            lk = "".join(sorted(left))
            v = values.get(lk)
            if v is None:
                v = values[lk] = leaves.value(left)
            eq = p[0] + weight * v
            if eq > best_eq or (eq == best_eq and p > best[0]):
                best_eq, best = eq, (p, v, left)
        yield
    return best


def _apply(board: list[str], p: GenPlay) -> None:
    """Play ``p`` on ``board`` in place (swaps first, then the new tiles)."""
    for sq in p[4]:
        board[sq] = board[sq].upper()
    step = 1 if p[2] else SIZE
    for k, ch in enumerate(p[3]):
        sq = p[1] + k * step
        if not board[sq]:
            board[sq] = ch


def _as_gen(m: Play, score: int) -> GenPlay:
    return (score, m.start, m.across, m.word, tuple(m.swaps))


class Simulation:
    """The Monte-Carlo simulation of ``candidates`` for the player to move of ``state`` (see the
    module docstring); ``run()`` yields and returns the candidates, best first."""

    def __init__(self, state: ScarabeoState, gen: MoveGenerator, candidates: Sequence[Ranked],
                 budget: float = BUDGET, plies: int | None = None,
                 should_stop: Callable[[], bool] | None = None) -> None:
        self.gen = gen
        self.me = state.turn
        self.n = state.num_players
        self.board = list(state.board)
        self.rack = list(state.racks[self.me])
        # Seat view: the sizes of the other racks and of the bag, the tiles this seat cannot see.
        self.sizes = [len(state.racks[(self.me + k) % self.n]) for k in range(1, self.n)]
        self.bag_len = len(state.bag)
        self.unseen = unseen_tiles(state, self.me)
        self.rng = Rng(_seed(state))
        self.budget = budget
        self.plies = plies if plies is not None else self.n
        self.should_stop = should_stop
        self.cands = [Candidate(c.move, c.score, c.equity) for c in candidates]
        self.rounds = 0
        self.work = 0.0
        self.spent = [0.0]
        self.turns = 0
        self.cut = False
        self._bounds: dict[tuple[str, ...], float] = {}

    def deal(self) -> tuple[list[list[str]], list[str]]:
        """One deal of the unseen tiles: each other rack (in turn order), then the bag (the
        next tile drawn first)."""
        tiles = self.unseen[:]
        self.rng.shuffle(tiles)
        racks = []
        at = 0
        for size in self.sizes:
            racks.append(tiles[at:at + size])
            at += size
        return racks, tiles[at:]

    def play_out(self, c: Candidate, racks: list[list[str]], bag: list[str],
                 ) -> Generator[None, None, float | None]:
        """The candidate's value on one deal; None when the wall-clock cap cut it."""
        board = self.board[:]
        bag = bag[:]
        racks = [r[:] for r in racks]
        gains = [0.0] * self.n  # 0: the player to move, k: the k-th opponent
        m = c.move
        rack = self.rack[:]
        if isinstance(m, Play):
            p = _as_gen(m, c.score)
            rack = rack_after(board, rack, p)
            _apply(board, p)
            gains[0] += c.score
            draw = min(RACK_SIZE - len(rack), len(bag))
            rack += bag[:draw]
            del bag[:draw]
            if not rack:
                # Out: every other rack's value off its holder and onto the closer.
                held = sum(rack_value(r) for r in racks)
                return c.score + held + held / (self.n - 1)
        elif isinstance(m, Exchange):
            for t in m.tiles:
                rack.remove(t)
            draw = min(len(m.tiles), len(bag))
            rack += bag[:draw]
            del bag[:draw]
            bag.extend(m.tiles)
        elif isinstance(m, Pass):
            if m.swaps:
                p = (0, 0, True, "", tuple(m.swaps))
                rack = rack_after(board, rack, p)
                _apply(board, p)
        all_racks = [rack] + racks
        mover = 1 % self.n
        ended = False
        for _ in range(self.plies):
            r = all_racks[mover]
            found = yield from best_static(self.gen, board, r, len(bag), self._bounds, self.spent)
            self.work = self.spent[0]
            self.turns += 1
            if self.work >= self.budget:
                return None  # the budget is spent (a deal with a scarab can cost several units)
            if self.should_stop is not None and self.should_stop():
                self.cut = True
                return None
            if found is not None:
                p, _, left = found
                _apply(board, p)
                gains[mover] += p[0]
                draw = min(RACK_SIZE - len(left), len(bag))
                left = left + bag[:draw]
                del bag[:draw]
                all_racks[mover] = left
                if not left:
                    # Out: every other rack's value off its holder and onto the closer.
                    for k in range(self.n):
                        if k != mover:
                            v = rack_value(all_racks[k])
                            gains[k] -= v
                            gains[mover] += v
                    ended = True
                    break
            mover = (mover + 1) % self.n
        others = sum(gains[1:]) / (self.n - 1)
        value = gains[0] - others
        if not ended:
            w = leave_weight(len(bag))
            if w:
                value += w * leaves.value(all_racks[0])
                value -= w * sum(leaves.value(r) for r in all_racks[1:]) / (self.n - 1)
        return value

    def alive(self) -> list[Candidate]:
        return [c for c in self.cands if not c.dropped]

    def prune(self) -> None:
        """The stopping rule: drop each candidate the leader beats by ``PRUNE_Z`` standard errors
        of their paired difference over the deals both met."""
        live = self.alive()
        if len(live) < 2 or self.rounds < MIN_ROUNDS:
            return
        leader = max(live, key=lambda c: c.mean)
        for c in live:
            if c is leader:
                continue
            n = min(len(c.values), len(leader.values))
            diffs = [leader.values[i] - c.values[i] for i in range(n)]
            mean = sum(diffs) / n
            var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
            if mean - PRUNE_Z * math.sqrt(var / n) > 0:
                c.dropped = self.rounds

    def run(self) -> Generator[None, None, list[Candidate]]:
        while self.rounds < MAX_ROUNDS:
            live = self.alive()
            if len(live) < 2 and self.rounds >= 1:
                break
            if self.rounds >= 1:
                # Another round only when it fits, at the mean cost of the rounds so far.
                per_turn = self.work / max(1, self.turns)
                if self.work + per_turn * len(live) * self.plies > self.budget:
                    break
            racks, bag = self.deal()
            short = False
            for c in live:
                v = yield from self.play_out(c, racks, bag)
                if v is None:
                    short = True
                    break
                c.values.append(v)
                if self.should_stop is not None and self.should_stop():
                    self.cut = short = True
                    break
            if short:
                # A round cut short: only the deals every live candidate met count.
                n = min(len(c.values) for c in live)
                for c in live:
                    del c.values[n:]
                if n:
                    self.rounds = n
                break
            self.rounds += 1
            self.prune()
        ranked = sorted(self.cands, key=lambda c: (c.dropped == 0, c.mean, c.equity), reverse=True)
        first = self.cands[0]  # the champion's choice
        leader = ranked[0]
        if leader is not first and not first.dropped and not self.beats(leader, first):
            ranked.remove(first)
            ranked.insert(0, first)
        return ranked

    def beats(self, a: Candidate, b: Candidate) -> bool:
        """``a`` above ``b`` by ``SWITCH_Z`` standard errors of their paired difference."""
        n = min(len(a.values), len(b.values))
        if n < SWITCH_DEALS:
            return False
        diffs = [a.values[i] - b.values[i] for i in range(n)]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        return mean - SWITCH_Z * math.sqrt(var / n) > 0


def analyse(state: ScarabeoState, gen: MoveGenerator, ranked: Sequence[Ranked],
            budget: float | None = None, seconds: float | None = None,
            ) -> Generator[None, None, Analysis]:
    """The simulating level's turn for the player to move, in slices (see the module
    docstring), from the champion's ranking ``ranked`` (best first: ``ai.simulate`` gives it).
    ``budget``: work units (None: ``BUDGET``, the page's); ``seconds``: a wall-clock cap (the
    page's); None: the work budget alone."""
    if budget is None:
        budget = BUDGET
    deadline = None if seconds is None else time.perf_counter() + seconds

    def out_of_time() -> bool:
        return deadline is not None and time.perf_counter() >= deadline

    should_stop = out_of_time if deadline is not None else None
    if not ranked:
        return Analysis(Pass(), "static")
    champion = ranked[0]
    bag = len(state.bag)
    two = state.num_players == 2
    if two and bag == 0:
        # The other rack is exactly the unseen tiles: given as such, never read.
        solver = endgame.EndgameSolver(state, gen, other=unseen_tiles(state, state.turn))
        search = solver.search
        search.should_stop = lambda: out_of_time() or search_work(search) >= budget
        sol = yield from solver.run()
        detail = {"value": sol.value, "complete": sol.complete, "depth": sol.depth,
                  "nodes": sol.nodes}
        work = search_work(search)
        if sol.move is not None and sol.complete:
            return Analysis(sol.move, "endgame", work=work, cut=out_of_time(), detail=detail)
        # Not proved within the budget: the champion's one-reply look-ahead, which counts the
        # tiles a play leaves on the rack (the solver's horizon counts only the spread so far).
        return Analysis(champion.move, "static", work=work, cut=out_of_time(), detail=detail)
    if two and bag <= 2:
        plays = [c for c in ranked if isinstance(c.move, Play)][:PRE_CANDIDATES]
        moves: list[tuple[Move, int]] = [(c.move, c.score) for c in plays] + [(Pass(), 0)]
        pre = endgame.PreEndgameSolver(state, gen, moves=moves)
        psearch = pre.search
        psearch.should_stop = lambda: out_of_time() or search_work(psearch) >= budget
        psol = yield from pre.run()
        detail = {"complete": psol.complete, "depth": psol.depth, "nodes": psol.nodes,
                  "draws": psol.draws}
        if psol.move is not None and psol.depth >= 2:
            return Analysis(psol.move, "pre-endgame", work=search_work(psearch),
                            cut=out_of_time(), detail=detail)
        # Cut before every candidate was valued two turns deep over every draw: the champion's.
        return Analysis(champion.move, "static", work=search_work(psearch),
                        cut=out_of_time(), detail=detail)
    cands = ranked[:max(2, min(CANDIDATES, int(budget // WORK_PER_CANDIDATE)))]
    if len(cands) < 2:
        return Analysis(champion.move, "static")
    sim = Simulation(state, gen, cands, budget, should_stop=should_stop)
    found = yield from sim.run()
    return Analysis(found[0].move, "simulation", found, sim.rounds, sim.work, sim.cut)
