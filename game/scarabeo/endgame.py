"""Exact endgames and pre-endgames of two-player Scarabeo.

**Endgame** (bag empty, two players): the tiles a player cannot see are then exactly the other
rack, so the game is one of perfect information and can be solved. ``EndgameSolver`` finds the
play that maximises the final spread (the end-of-game adjustments included: the unplayed tiles'
values off their holder's score and, when a player goes out, onto theirs; a scarab left counts 30)
by negamax alpha-beta with iterative deepening, a transposition table and move ordering (the
table's move first, then by score with going out ahead). It is any-time: ``run()`` is a generator
that yields every few milliseconds (one node, or one anchor square of a move generation), and
``solution`` is the best line found so far; a search cut by its budget says so (``complete``
False). A search that reached the end of the game on every line it looked at is exact
(``complete`` True): each subtree reports whether it met the depth horizon, and the table keeps
the subtrees that did not as valid at every depth. ``values(moves)`` then gives given moves
their own exact values with the same table (a full window each: the analysis's turn played and
its alternatives, the hints).

**Pre-endgame** (1 or 2 tiles in the bag, two players): ``PreEndgameSolver`` values each
candidate over every possible draw: the unseen tiles split every way into the bag (in draw
order) and the other rack, each split weighted by how many tile-for-tile draws give it, and the
game after the candidate solved exactly with that split known (the usual perfect-information
approximation: each side then plays as if it knew the draw).

Legality is the move generator's (``movegen``, proved against the engine by brute force) and the
passes are the engine's (with any flying-scarab swaps); an exchange, allowed with the bag empty
only for a rack of eight vowels or eight consonants, gives the same rack back and is a pass in
effect, so it is not searched apart. ``exhaustive`` is the reference: plain minimax over every
legal move pushed on the engine's own state, for the tests' proof on small endgames.

Moves inside the search are ``GenPlay`` tuples; a pass is ``(0, PASS_START, True, "", swaps)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Generator, Sequence, TypeVar

from game.core import Rng
from game.scarabeo.board import SIZE, SQUARES
from game.scarabeo.game import ScarabeoState
from game.scarabeo.movegen import GenPlay, MoveGenerator, to_play
from game.scarabeo.moves import Exchange, Move, Pass, Play, move_text
from game.scarabeo.tiles import HIDDEN, RACK_SIZE, SCARAB, rack_value, sort_rack

#: Two players: four turns in a row without a tile placed end the game (``2 × players``).
IDLE_LIMIT = 4
#: The pre-endgame solves the game after this many candidates (the best by score, going out
#: first, and the pass): each is solved once per possible draw.
PRE_CANDIDATES = 12
PASS_START = -1
#: Move lists kept between the iterations (one per position searched; cleared when full).
MOVES_CACHE_MAX = 20_000
#: Transposition-table entries kept (cleared when full: a long search starts it again).
TT_MAX = 1_000_000
#: A node yields to the caller every this many nodes (move generation yields on its own).
YIELD_EVERY = 8
_FULL = 1 << 20  # the depth of a table entry whose subtree met no horizon: valid at any depth
_INF = 1 << 30
_EXACT, _LOWER, _UPPER = 0, 1, 2

Key = tuple[str, str, str, int, str]
_T = TypeVar("_T")


class EndgameError(ValueError):
    """A position the solver does not take (not two players, bag too full, game over …)."""


@dataclass(frozen=True)
class Step:
    """One move of a solved line: who plays it (0: the player to move at the root) and its score."""

    move: Move
    player: int
    score: int

    def to_json(self) -> dict[str, object]:
        return {"move": move_text(self.move), "player": self.player, "score": self.score}


@dataclass(frozen=True)
class Solution:
    """The best line found: ``value`` is the final spread (the player to move minus the other,
    adjustments included) it leads to, ``gain`` what the rest of the game adds to the spread
    now; ``complete``: proved best (the search reached every line's end), else the best within
    ``depth`` turns when the budget ran out. ``nodes``: positions searched."""

    value: int
    gain: int
    line: tuple[Step, ...]
    complete: bool
    depth: int
    nodes: int

    @property
    def move(self) -> Move | None:
        return self.line[0].move if self.line else None


@dataclass
class Candidate:
    """A pre-endgame candidate: its mean final spread over the draws, and the share of the draws
    it wins (a tie counts half); ``solved`` draws were searched to the end."""

    move: Move
    score: int
    value: float = 0.0
    wins: float = 0.0
    draws: int = 0
    solved: int = 0


@dataclass
class PreSolution:
    """The pre-endgame's candidates, best (highest mean spread) first."""

    candidates: list[Candidate]
    draws: int  # the distinct draws (bag contents in draw order, other rack)
    weight: int  # tile-for-tile draws they stand for
    complete: bool
    depth: int
    nodes: int = 0
    bag: int = 0

    @property
    def move(self) -> Move | None:
        return self.candidates[0].move if self.candidates else None


@dataclass(frozen=True)
class MoveValue:
    """One move valued by ``EndgameSolver.values``: the final spread (the player to move at the
    root minus the other) that best play after it leads to, searched ``depth`` turns deep
    after it; ``complete``: proved (the search met no horizon), else the spread at the horizon.
    ``gain``: what the move and the rest of the game add to the spread now."""

    move: Move
    score: int
    value: int
    gain: int
    complete: bool
    depth: int


def gen_move(m: GenPlay) -> Move:
    """A search move as the engine's move."""
    return Pass(m[4]) if m[1] == PASS_START else to_play(m)


def _gen_of(m: Move, score: int) -> GenPlay:
    """An engine's play (scoring ``score``) or pass as a search move; with the bag empty an
    exchange gives the same rack back, so it is the pass it is in effect."""
    if isinstance(m, Exchange):
        m = Pass(m.swaps)
    if isinstance(m, Play):
        return (score, m.start, m.across, m.word, tuple(m.swaps))
    if isinstance(m, Pass):
        return (0, PASS_START, True, "", tuple(m.swaps))
    raise EndgameError(f"the pre-endgame values plays and passes, not {move_text(m)}")


class _Cut(Exception):
    """The budget ran out in the middle of a search."""


class _Search:
    """The negamax over one board: the board is changed in place and restored; the racks (sorted
    text, the player to move first), the idle-turn count and the bag (draw order: drawn from its
    end, as the engine draws) are arguments. Values are what the rest of the game adds to the
    spread of the player to move."""

    def __init__(self, gen: MoveGenerator, board: Sequence[str],
                 should_stop: Callable[[], bool] | None = None, max_nodes: int | None = None) -> None:
        self.gen = gen
        self.board = list(board)
        self.should_stop = should_stop
        self.max_nodes = max_nodes
        self.nodes = 0
        #: Move generations run and the plays they found (the cache forgets; these do not): the
        #: work a caller's budget can count at every yield without summing the cache.
        self.generations = 0
        self.plays_found = 0
        self.stopped = False
        self.tt: dict[Key, tuple[int, int, int, GenPlay | None, tuple[GenPlay, ...]]] = {}
        self.moves_cache: dict[tuple[str, str, int], list[GenPlay]] = {}

    def stop(self) -> None:
        self.stopped = True

    def board_key(self) -> str:
        return "".join([c or "." for c in self.board])

    def _tick(self) -> Generator[None, None, None]:
        self.nodes += 1
        if self.nodes % YIELD_EVERY == 0:
            yield
            if (self.stopped or (self.max_nodes is not None and self.nodes >= self.max_nodes)
                    or (self.should_stop is not None and self.should_stop())):
                self.stopped = True
                raise _Cut

    def moves(self, bkey: str, rack: str, other: str, bag_len: int,
              ) -> Generator[None, None, list[GenPlay]]:
        """Every move of ``rack`` (plays, then the passes), in search order: by score, a play
        that goes out (with the bag empty) counted with the other rack's value twice."""
        ckey = (bkey, rack, bag_len)
        cached = self.moves_cache.get(ckey)
        if cached is not None:
            return cached
        plays: list[GenPlay] = []
        yield from self.gen.iter_plays(self.board, rack, plays, False)
        self.generations += 1
        self.plays_found += len(plays)
        board = self.board
        n = len(rack)
        out_bonus = 2 * rack_value(other) if bag_len == 0 else 0
        keyed = []
        for p in plays:
            step = 1 if p[2] else SIZE
            start = p[1]
            placed = 0
            for k in range(len(p[3])):
                if not board[start + k * step]:
                    placed += 1
            keyed.append((-(p[0] + (out_bonus if placed == n else 0)), -placed, p))
        keyed.sort()
        out = [k[2] for k in keyed]
        out.extend(self.passes(rack))
        if len(self.moves_cache) >= MOVES_CACHE_MAX:
            self.moves_cache.clear()
        self.moves_cache[ckey] = out
        return out

    def passes(self, rack: str) -> list[GenPlay]:
        """The pass, and the pass with each set of flying-scarab swaps the rack can pay for
        (as the engine's ``legal_moves``)."""
        swappable = [sq for sq in range(SQUARES) if self.board[sq].islower()
                     and self.board[sq].upper() in rack]
        out: list[GenPlay] = []
        for k in range(1 << len(swappable)):
            swaps = tuple(sq for i, sq in enumerate(swappable) if k >> i & 1)
            need: dict[str, int] = {}
            for sq in swaps:
                letter = self.board[sq].upper()
                need[letter] = need.get(letter, 0) + 1
            if all(rack.count(letter) >= c for letter, c in need.items()):
                out.append((0, PASS_START, True, "", swaps))
        return out

    def apply(self, m: GenPlay, rack: str) -> tuple[list[str], list[int]]:
        """Play ``m`` on the board; the rack left and the squares filled (for ``undo``)."""
        board = self.board
        left = list(rack)
        for sq in m[4]:
            letter = board[sq].upper()
            left.remove(letter)
            left.append(SCARAB)
            board[sq] = letter
        filled: list[int] = []
        if m[1] != PASS_START:
            step = 1 if m[2] else SIZE
            start = m[1]
            for k, ch in enumerate(m[3]):
                sq = start + k * step
                if not board[sq]:
                    board[sq] = ch
                    left.remove(SCARAB if ch.islower() else ch)
                    filled.append(sq)
        return left, filled

    def undo(self, m: GenPlay, filled: list[int]) -> None:
        board = self.board
        for sq in filled:
            board[sq] = ""
        for sq in m[4]:
            board[sq] = board[sq].lower()

    def child(self, m: GenPlay, me: str, other: str, idle: int, bag: str, depth: int, alpha: int,
              beta: int) -> Generator[None, None, tuple[int, tuple[GenPlay, ...], bool]]:
        """The value of move ``m`` for the player who makes it, with the line after it and
        whether it is exact (no horizon met below)."""
        left, filled = self.apply(m, me)
        try:
            if m[1] == PASS_START:
                rack = sort_rack(left)
                if idle + 1 >= IDLE_LIMIT:
                    # The passes end the game: each rack's value off its holder's score.
                    return rack_value(other) - rack_value(rack), (), True
                v, pv, done = yield from self.negamax(other, rack, idle + 1, bag, depth - 1,
                                                      -beta, -alpha)
                return -v, pv, done
            draws = min(RACK_SIZE - len(left), len(bag))  # as the engine draws: up to a full rack
            if draws:
                left.extend(bag[len(bag) - draws:])
                bag = bag[:len(bag) - draws]
            if not left and not bag:
                # Out: the other rack's value off the other's score and onto the closer's.
                return m[0] + 2 * rack_value(other), (), True
            v, pv, done = yield from self.negamax(other, sort_rack(left), 0, bag, depth - 1,
                                                  -beta, -alpha)
            return m[0] - v, pv, done
        finally:
            self.undo(m, filled)

    def negamax(self, me: str, other: str, idle: int, bag: str, depth: int, alpha: int, beta: int,
                ) -> Generator[None, None, tuple[int, tuple[GenPlay, ...], bool]]:
        yield from self._tick()
        bkey = self.board_key()
        key = (bkey, me, other, idle, bag)
        entry = self.tt.get(key)
        tt_move = None
        if entry is not None:
            edepth, flag, val, tt_move, pv = entry
            if edepth >= depth:
                done = edepth >= _FULL
                if flag == _EXACT:
                    return val, pv, done
                if flag == _LOWER and val >= beta:
                    return val, (), done
                if flag == _UPPER and val <= alpha:
                    return val, (), done
        if depth <= 0:
            return 0, (), False  # the horizon: the spread as it stands
        moves = yield from self.moves(bkey, me, other, len(bag))
        if tt_move is not None:
            moves = [tt_move] + [m for m in moves if m != tt_move]
        alpha0 = alpha
        best = -_INF
        best_move: GenPlay | None = None
        best_pv: tuple[GenPlay, ...] = ()
        complete = True
        for m in moves:
            v, pv, done = yield from self.child(m, me, other, idle, bag, depth, alpha, beta)
            complete = complete and done
            if v > best:
                best, best_move, best_pv = v, m, (m,) + pv
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        flag = _UPPER if best <= alpha0 else _LOWER if best >= beta else _EXACT
        if len(self.tt) >= TT_MAX:
            self.tt.clear()
        self.tt[key] = (_FULL if complete else depth, flag, best, best_move,
                        best_pv if flag == _EXACT else ())
        return best, best_pv, complete


def _line(board: Sequence[str], me: str, pv: Sequence[GenPlay]) -> tuple[Step, ...]:
    return tuple(Step(gen_move(m), i % 2, m[0]) for i, m in enumerate(pv))


def check_position(state: ScarabeoState) -> None:
    """Raise ``EndgameError`` (its message one line) unless one of the solvers takes ``state``:
    two players, the game on, no dispute pending, the rack to move known, and the bag empty (the
    endgame) or holding 1 or 2 tiles (the pre-endgame)."""
    who = "endgame" if not state.bag else "pre-endgame"
    _, _, bag = _racks(state, who)
    if len(bag) > 2:
        raise EndgameError(f"{len(bag)} tiles in the bag: the endgame solver needs it empty (an "
                           "exact endgame) or holding 1 or 2 tiles (a pre-endgame)")


def _racks(state: ScarabeoState, who: str) -> tuple[str, str, str]:
    """The two racks (player to move first) and the bag, refusing what the solvers do not take.
    A seat's masked state is taken from the player to move's side: with the bag empty the other
    rack is exactly the tiles that player cannot see."""
    if state.num_players != 2:
        raise EndgameError(f"the {who} solver is for two players (this position has "
                           f"{state.num_players})")
    if state.is_over():
        raise EndgameError("the game is over")
    if state.pending is not None:
        raise EndgameError("a play is waiting for a challenge or a vote")
    me = state.turn
    rack = state.racks[me]
    if HIDDEN in rack:
        raise EndgameError("the rack to move holds hidden tiles (_)")
    other = state.racks[1 - me]
    bag = list(state.bag)
    if HIDDEN in other or HIDDEN in bag:
        unseen = state.unseen_counts(me)
        tiles = [t for t, n in sorted(unseen.items()) for _ in range(n)]
        if bag:
            raise EndgameError("the other rack and the bag are hidden: only a full position can "
                               "be solved with tiles in the bag")
        other = tiles
    return sort_rack(rack), sort_rack(other), "".join(bag)


class EndgameSolver:
    """The exact endgame of ``state`` (two players, bag empty) for the player to move.

    ``run()`` yields every few ms and returns the ``Solution``; ``solution`` is the best so far
    (None until the first iteration ends); ``stop()`` ends the search at its next yield.
    ``max_nodes`` and ``should_stop`` are the budget (nodes, or a caller's clock)."""

    def __init__(self, state: ScarabeoState, gen: MoveGenerator, max_nodes: int | None = None,
                 should_stop: Callable[[], bool] | None = None, max_depth: int = 64,
                 other: Sequence[str] | None = None) -> None:
        me, other_rack, bag = _racks(state, "endgame")
        # ``other``: the other rack as the player to move knows it (the unseen tiles: a seat's
        # view never reads the other rack itself); None: the state's.
        other = other_rack if other is None else sort_rack(other)
        if bag:
            raise EndgameError(f"{len(bag)} tile{'s' if len(bag) != 1 else ''} in the bag: the "
                               "exact endgame needs it empty")
        self.me, self.other = me, other
        self.idle = state.idle
        self.spread = state.scores[state.turn] - state.scores[1 - state.turn]
        self.search = _Search(gen, state.board, should_stop, max_nodes)
        self.max_depth = max_depth
        self.solution: Solution | None = None

    def stop(self) -> None:
        self.search.stop()

    def _solution(self, gain: int, pv: Sequence[GenPlay], complete: bool, depth: int) -> Solution:
        return Solution(self.spread + gain, gain, _line(self.search.board, self.me, pv), complete,
                        depth, self.search.nodes)

    def run(self) -> Generator[None, None, Solution]:
        s = self.search
        order: list[GenPlay] = []
        try:
            for depth in range(1, self.max_depth + 1):
                if not order:
                    order = yield from s.moves(s.board_key(), self.me, self.other, 0)
                    order = list(order)
                best = -_INF
                best_pv: tuple[GenPlay, ...] = ()
                complete = True
                scored: list[tuple[int, int, GenPlay]] = []
                for i, m in enumerate(order):
                    # A full window for the first move (its line is exact); the others need
                    # only beat it.
                    v, pv, done = yield from s.child(m, self.me, self.other, self.idle, "", depth,
                                                     best, _INF)
                    complete = complete and done
                    scored.append((-v, i, m))
                    if v > best:
                        best, best_pv = v, (m,) + pv
                        # Any-time: the best of this iteration so far, once it has beaten the
                        # previous iteration's choice (searched first).
                        if i > 0 or self.solution is None or self.solution.depth < depth:
                            self.solution = self._solution(best, best_pv, False, depth)
                scored.sort()
                order = [m for _, _, m in scored]
                self.solution = self._solution(best, best_pv, complete, depth)
                if complete:
                    break
        except _Cut:
            pass
        sol = self.solution
        if sol is None:  # cut before the first move was valued: the first move by score
            sol = self._solution(0, order[:1], False, 0)
        sol = Solution(sol.value, sol.gain, sol.line, sol.complete, sol.depth, s.nodes)
        self.solution = sol
        return sol

    def proof_floor(self) -> Generator[None, None, int]:
        """The fewest move generations a proof of this endgame can take, in slices: the root's
        own, and one for each distinct position a root move leads to without ending the game.
        ``run`` searches every root move, and a position searched below the horizon has its
        moves generated at least once, so a budget smaller than these generations cannot prove
        the endgame: a caller can tell before spending it. The root's moves are kept for ``run``."""
        s = self.search
        root = s.board_key()
        moves = yield from s.moves(root, self.me, self.other, 0)
        boards: set[str] = set()
        for i, m in enumerate(moves):
            if m[1] == PASS_START and self.idle + 1 >= IDLE_LIMIT:
                continue  # the passes end the game
            left, filled = s.apply(m, self.me)
            if left or m[1] == PASS_START:  # a play that leaves nothing goes out: the end
                boards.add(s.board_key())
            s.undo(m, filled)
            if i % 256 == 255:
                yield
        if self.other == self.me:
            boards.discard(root)  # a pass hands the same board to the same letters: kept moves
        return 1 + len(boards)

    def values(self, moves: Sequence[tuple[Move, int]]) -> Generator[None, None, list[MoveValue]]:
        """The final spread after each of ``moves`` (a play with its score on this board, a pass,
        an exchange, with any flying-scarab swaps) under best play by both after it, in slices.

        Each move's game is searched with a full window (its value exact, not a bound), by
        iterative deepening over all the moves at once, with the table ``run`` filled: the lines
        ``run`` proved cost nothing again. ``max_depth`` turns after the move at most. Cut by the
        budget (shared with ``run``: a search already cut values nothing more), a move keeps its
        deepest value (``complete`` False); one never valued has its score alone (depth 0)."""
        s = self.search
        gens = [_gen_of(m, score) for m, score in moves]
        out = [MoveValue(m, score, self.spread + score, score, False, 0) for m, score in moves]
        try:
            for depth in range(1, self.max_depth + 1):
                for i, g in enumerate(gens):
                    if out[i].complete:
                        continue
                    v, _, done = yield from s.child(g, self.me, self.other, self.idle, "", depth,
                                                    -_INF, _INF)
                    out[i] = MoveValue(out[i].move, out[i].score, self.spread + v, v, done, depth)
                if all(v.complete for v in out):
                    break
        except _Cut:
            pass
        return out


def solve(state: ScarabeoState, gen: MoveGenerator, max_nodes: int | None = None,
          should_stop: Callable[[], bool] | None = None) -> Solution:
    """``EndgameSolver(…).run()`` to the end (blocking)."""
    return run_to_end(EndgameSolver(state, gen, max_nodes, should_stop).run())


def draws(unseen: Sequence[str], bag_len: int) -> list[tuple[str, str, int]]:
    """Every way the unseen tiles can be the bag (``bag_len`` tiles, in draw order: the last is
    drawn first) and the other rack: ``(bag, other rack, weight)``, the weight being how many
    tile-for-tile draws give it."""
    counts: dict[str, int] = {}
    for t in unseen:
        counts[t] = counts.get(t, 0) + 1
    out: list[tuple[str, str, int]] = []

    def walk(bag: str, left: dict[str, int], weight: int) -> None:
        if len(bag) == bag_len:
            other = sort_rack(t for t, n in left.items() for _ in range(n))
            out.append((bag, other, weight))
            return
        for t in sorted(left):
            n = left[t]
            if n:
                left[t] = n - 1
                walk(t + bag, left, weight * n)
                left[t] = n
    walk("", counts, 1)
    return out


class PreEndgameSolver:
    """The pre-endgame of ``state`` (two players, 1 or 2 tiles in the bag) for the player to
    move: each of the best ``candidates`` moves valued over every draw, by iterative deepening
    (every candidate and draw at one depth, then one more) until every search is exact or the
    budget ends; ``solution`` is the last full iteration's ranking."""

    def __init__(self, state: ScarabeoState, gen: MoveGenerator, max_nodes: int | None = None,
                 should_stop: Callable[[], bool] | None = None, candidates: int = PRE_CANDIDATES,
                 max_depth: int = 64, moves: Sequence[tuple[Move, int]] | None = None) -> None:
        me, _, bag = _racks(state, "pre-endgame")
        if not 1 <= len(bag) <= 2:
            raise EndgameError(f"{len(bag)} tiles in the bag: the pre-endgame needs 1 or 2")
        unseen = state.unseen_counts(state.turn)
        tiles = [t for t, n in sorted(unseen.items()) for _ in range(n)]
        self.me = me
        self.bag_len = len(bag)
        self.idle = state.idle
        self.spread = state.scores[state.turn] - state.scores[1 - state.turn]
        self.draws = draws(tiles, len(bag))
        self.search = _Search(gen, state.board, should_stop, max_nodes)
        self.want = candidates
        self.max_depth = max_depth
        #: the candidates to value (plays with their scores, passes), in order; None: the
        #: best ``candidates`` by score and the pass
        self.given = None if moves is None else [_gen_of(m, score) for m, score in moves]
        self.solution: PreSolution | None = None

    def stop(self) -> None:
        self.search.stop()

    def run(self) -> Generator[None, None, PreSolution]:
        s = self.search
        weight = sum(w for _, _, w in self.draws)
        if self.given is not None:
            cands = self.given
        else:
            moves = yield from s.moves(s.board_key(), self.me, "", self.bag_len)
            plays = [m for m in moves if m[1] != PASS_START][:self.want]
            cands = plays + [m for m in moves if m[1] == PASS_START and not m[4]]
        try:
            for depth in range(1, self.max_depth + 1):
                ranked: list[Candidate] = []
                complete = True
                for m in cands:
                    c = Candidate(gen_move(m), m[0], draws=len(self.draws))
                    total = 0
                    wins = 0.0
                    for bag, other, w in self.draws:
                        v, _, done = yield from s.child(m, self.me, other, self.idle, bag, depth,
                                                        -_INF, _INF)
                        final = self.spread + v
                        total += w * final
                        wins += w * (1.0 if final > 0 else 0.5 if final == 0 else 0.0)
                        c.solved += done
                        complete = complete and done
                    c.value = total / weight
                    c.wins = wins / weight
                    ranked.append(c)
                ranked.sort(key=lambda c: (-c.value, -c.wins, -c.score))
                self.solution = PreSolution(ranked, len(self.draws), weight, complete, depth,
                                            s.nodes, self.bag_len)
                if complete:
                    break
        except _Cut:
            pass
        sol = self.solution
        if sol is None:
            sol = PreSolution([Candidate(gen_move(m), m[0]) for m in cands[:1]], len(self.draws),
                              weight, False, 0, s.nodes, self.bag_len)
        sol.nodes = s.nodes
        self.solution = sol
        return sol


def pre_solve(state: ScarabeoState, gen: MoveGenerator, max_nodes: int | None = None,
              should_stop: Callable[[], bool] | None = None,
              candidates: int = PRE_CANDIDATES) -> PreSolution:
    """``PreEndgameSolver(…).run()`` to the end (blocking)."""
    return run_to_end(PreEndgameSolver(state, gen, max_nodes, should_stop, candidates).run())


def run_to_end(gen: Generator[None, None, _T]) -> _T:
    while True:
        try:
            next(gen)
        except StopIteration as stop:
            result: _T = stop.value
            return result


# --- the reference, and the sample positions ---------------------------------------------

def exhaustive(state: ScarabeoState, gen: MoveGenerator,
               plays: dict[tuple[str, str], list[Move]] | None = None) -> int:
    """The final spread (player to move minus the other) under best play by both, by plain
    minimax: every legal move (the generator's plays, the engine's passes and exchange) pushed
    on the state, which scores it, ends the game and makes the end-of-game adjustments. No
    pruning, no table of values: exponential, for small endgames (the solver's proof).
    ``plays`` keeps each (board, rack)'s generated plays, which the passes bring back often."""
    if state.is_over():
        me = state.turn
        return state.scores[me] - state.scores[1 - me]
    if plays is None:
        plays = {}
    rack = state.racks[state.turn]
    key = ("".join([c or "." for c in state.board]), "".join(rack))
    found = plays.get(key)
    if found is None:
        found = plays[key] = [to_play(p) for p in gen.plays(state.board, rack, state.first_play)]
    best = -_INF
    for move in found + state.legal_moves():
        state.push(move)
        best = max(best, -exhaustive(state, gen, plays))
        state.pop()
    return best


def sample_endgames(gen: MoveGenerator, count: int, seed: int, max_rack: int = 4,
                    deals: int = 10) -> list[str]:
    """``count`` endgame positions (two players, bag empty, both racks of at most ``max_rack``
    tiles), from seeded games played greedily (the highest score, ties by notation): at the
    first turn of each game with the bag empty and both racks that small, the position itself,
    then ``deals - 1`` other deals of the same unseen tiles into the two racks (each at least
    one tile) with an idle-turn count of 0-3, so that passes and swaps matter too."""
    out: list[str] = []
    game = 0
    while len(out) < count:
        state = ScarabeoState.new(2, seed * 100_003 + game, word_list=gen.lexicon)
        rng = Rng(seed * 7_919 + game)
        game += 1
        while not state.is_over():
            if (not state.bag and all(0 < len(r) <= max_rack for r in state.racks)):
                out.extend(_deals(state, rng, max_rack, deals)[:count - len(out)])
                break
            plays = gen.plays(state.board, state.racks[state.turn], state.first_play)
            if not plays:
                state.push(Pass())
                continue
            best = max(plays, key=lambda p: (p[0], move_text(to_play(p))))
            state.push(to_play(best))
    return out


def _deals(state: ScarabeoState, rng: Rng, max_rack: int, deals: int) -> list[str]:
    tiles = sorted(state.racks[0] + state.racks[1])
    out = [state.position()]
    base = state.position().split(" ")
    seen = {(base[1], base[3])}
    tries = 0
    while len(out) < deals and tries < 20 * deals:
        tries += 1
        shuffled = tiles[:]
        rng.shuffle(shuffled)
        lo = max(1, len(tiles) - max_rack)
        hi = min(max_rack, len(tiles) - 1)
        if lo > hi:
            break
        k = lo + rng.below(hi - lo + 1)
        racks = f"{sort_rack(shuffled[:k])}/{sort_rack(shuffled[k:])}"
        idle = str(rng.below(IDLE_LIMIT))
        if (racks, idle) in seen:
            continue
        seen.add((racks, idle))
        out.append(" ".join([base[0], racks, base[2], idle]))
    return out

