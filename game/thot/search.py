"""The computer opponent of the Game of Thot.

Every setting is a two-sided zero-sum search, so one alpha-beta serves them all:

- two players: plain negamax on the score margin;
- the 4-player team game: the two teams are the sides; play runs A, A, B, B, so a child whose mover
  is on the same side keeps the window and the sign (no negation), the others negate as usual;
- three or four players each for themselves: the *paranoid* search — the player to move at the
  root is one side, every other seat the coalition that plays against them; the value is the
  root's total minus the best opponent total. (Sturtevant & Korf: paranoid search keeps alpha-beta
  pruning, which max-n loses; its pessimism is a sound default for a score race.)

The search is iterative deepening with a transposition table (Zobrist keys), the table's move then
captures by gain as move ordering, and exact solving once the pieces left can all be played out
within the node budget (the horizon covers the longest possible rest of the game).

Levels are node and depth limits, so a choice depends only on the position: self-play is
reproducible. A time budget is only a safety cap (the browser gives the top level one second).
``Search.step(budget_ms)`` runs the search in slices so the page never freezes: the upper plies
are generators that yield after each child, the lower plies plain recursion (a few ms at most).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable, Generator, Iterator

from game.core import Rng
from game.thot import zobrist as Z
from game.thot.board import ANKH, DIRS_BY_AXIS, VALUE
from game.thot.moves import ThotMove
from game.thot.state import ThotState

EXACT, LOWER, UPPER = 0, 1, 2
INF = 1 << 30
#: Values are in quarter points: the margin times 4, plus 1 for a tie-break won at the end.
SCALE = 4
#: Plies searched as plain recursion below the sliced upper part of the tree.
SPLIT = 3
TT_LIMIT = 1_500_000


@dataclass(frozen=True)
class Level:
    name: str
    #: Deepest iteration (plies).
    max_depth: int
    #: Nodes per move; the search stops, keeping the deepest finished answer, when it runs out.
    node_limit: int
    #: When at most this many moves can be left in the game, the node limit is multiplied by
    #: ``solve_factor`` so that the search can play the rest out exactly.
    solve_at: int = 0
    solve_factor: int = 1
    #: Credit a leaf with half the best capture its player to move has (a cheap horizon patch).
    leaf_gain: bool = True


LEVELS: dict[int, Level] = {
    1: Level("easy", max_depth=1, node_limit=10_000, leaf_gain=False),
    2: Level("middle", max_depth=3, node_limit=40_000),
    3: Level("top", max_depth=64, node_limit=30_000, solve_at=18, solve_factor=5),
}
TOP_LEVEL = max(LEVELS)
#: What the page uses: the top level with a one-second cap (the bench measures it).
BROWSER_TIME_BUDGET = 1.0


class SearchAborted(Exception):
    """The search ran out of its budget mid-iteration (the analysis stops on it too)."""


@dataclass(frozen=True)
class SearchResult:
    move: ThotMove | None
    #: Expected final margin for the player to move (their side's total minus the opponents').
    value: float
    depth: int
    nodes: int
    exact: bool
    seconds: float
    pv: tuple[ThotMove, ...] = ()

    def to_json(self, state: ThotState) -> dict[str, Any]:
        return {
            "move": state.move_text(self.move) if self.move is not None else None,
            "value": self.value,
            "depth": self.depth,
            "nodes": self.nodes,
            "exact": self.exact,
            "seconds": round(self.seconds, 4),
            "pv": pv_text(state, self.pv),
        }


def pv_text(state: ThotState, pv: tuple[ThotMove, ...]) -> list[str]:
    s = state.copy()
    out = []
    for mv in pv:
        out.append(s.move_text(mv))
        s._make(mv.code)
    return out


def level_of(level: int | Level) -> Level:
    if isinstance(level, Level):
        return level
    if level not in LEVELS:
        raise ValueError(f"level {level} does not exist; levels are {', '.join(map(str, LEVELS))}")
    return LEVELS[level]


class Search:
    """One move's search. Drive it with ``step(ms)`` until it returns True, or call ``run()``."""

    def __init__(
        self,
        state: ThotState,
        level: int | Level = TOP_LEVEL,
        *,
        time_budget: float | None = None,
        clock: Callable[[], float] = time.perf_counter,
        tt: dict[int, tuple[int, int, int, int]] | None = None,
        search_forced: bool = False,
    ) -> None:
        #: Search a lone legal move anyway, for its value (a hint); play needs no search then.
        self.search_forced = search_forced
        self.st = state.copy()
        self.st._history = []
        self.level = level_of(level)
        self.root_seat = self.st.mover
        self.paranoid = self.st.players > 2 and not self.st.teams
        if self.paranoid:
            self.side = [0 if s == self.root_seat else 1 for s in range(self.st.players)]
            self.rootkey = Z.ROOT[self.root_seat]
        else:
            self.side = list(self.st.side)
            self.rootkey = 0
        self.tt: dict[int, tuple[int, int, int, int]] = {} if tt is None else tt
        self.clock = clock
        self.time_budget = time_budget
        self.deadline: float | None = None
        self.started: float | None = None
        horizon = self.st.scarabs + 2 * self.st.ankhs
        self.horizon = horizon
        limit = self.level.node_limit
        if self.level.solve_at and horizon <= self.level.solve_at:
            limit *= self.level.solve_factor
        self.node_limit = limit
        self.nodes = 0
        self.depth = 0
        self.exact = False
        #: The packed best move so far; -1 until there is one (0 is the move to A1).
        self.best = -1
        self.best_value = 0
        self.done = False
        self.elapsed = 0.0
        self._base = len(self.st._undo)
        self._it: Iterator[None] = self._run()

    # ------------------------------------------------------------------ driving
    def step(self, budget_ms: float) -> bool:
        """Search for about ``budget_ms`` milliseconds; True once the answer is final."""
        if self.done:
            return True
        now = self.clock()
        if self.started is None:
            self.started = now
            if self.time_budget is not None:
                self.deadline = now + self.time_budget
        stop = now + budget_ms / 1000.0
        try:
            while True:
                next(self._it)
                if self.clock() >= stop:
                    break
        except StopIteration:
            self.done = True
        self.elapsed = self.clock() - self.started
        return self.done

    def run(self) -> SearchResult:
        while not self.step(1e9):
            pass
        return self.result()

    def result(self) -> SearchResult:
        move = ThotMove.from_code(self.best) if self.best >= 0 else None
        return SearchResult(
            move=move,
            value=self.best_value / SCALE,
            depth=self.depth,
            nodes=self.nodes,
            exact=self.exact,
            seconds=self.elapsed,
            pv=self._pv(),
        )

    def _pv(self) -> tuple[ThotMove, ...]:
        st = self.st
        out: list[ThotMove] = []
        code = self.best
        seen = 0
        while code >= 0 and seen < 12:
            out.append(ThotMove.from_code(code))
            st._make(code)
            seen += 1
            entry = self.tt.get(st.hash ^ self.rootkey)
            code = entry[3] if entry else -1
            if code >= 0 and code not in st._gen():
                code = -1
        for _ in range(seen):
            st._unmake()
        return tuple(out)

    # ------------------------------------------------------------------ iterative deepening
    def _run(self) -> Generator[None, None, None]:
        st = self.st
        moves = st._gen() if not st.is_over() else []
        if not moves:
            return
        self.best = moves[0]
        if len(moves) == 1 and not self.search_forced:
            self.depth = 1
            self.best_value = self._static_after(moves[0])
            return
        order = list(moves)
        for depth in range(1, self.level.max_depth + 1):
            before = self.nodes
            try:
                scores = yield from self._root(order, depth)
            except SearchAborted:
                while len(st._undo) > self._base:
                    st._unmake()
                break
            self.depth = depth
            order = [m for _, m in sorted(scores, key=lambda x: -x[0])]
            if depth >= self.horizon:
                self.exact = True
                break
            if not self._deepen(self.nodes - before):
                break

    def _deepen(self, cost: int) -> bool:
        """Whether to start the next iteration after one that cost ``cost`` nodes: in play, always
        (the node limit stops it); the review's analysis plans against its budget instead."""
        return True

    def _static_after(self, code: int) -> int:
        st = self.st
        my = self.side[st.mover]
        st._make(code)
        v = self._eval()
        if self.side[st.mover] != my:
            v = -v
        st._unmake()
        return v

    def _root(self, order: list[int], depth: int) -> Generator[None, None, list[tuple[int, int]]]:
        st = self.st
        side = self.side
        my = side[st.mover]
        alpha, beta = -INF, INF
        scores: list[tuple[int, int]] = []
        best, best_value = -1, -INF
        for code in order:
            st._make(code)
            same = side[st.mover] == my
            try:
                if depth - 1 > SPLIT:
                    if same:
                        v = yield from self._gsearch(depth - 1, alpha, beta)
                    else:
                        v = -(yield from self._gsearch(depth - 1, -beta, -alpha))
                else:
                    v = self._search(depth - 1, alpha, beta) if same else -self._search(depth - 1, -beta, -alpha)
            except SearchAborted:
                # Keep what this iteration proved: the previous best is searched first, so a
                # better finished move is a real improvement.
                if best >= 0:
                    self.best, self.best_value = best, best_value
                raise
            st._unmake()
            scores.append((v, code))
            if v > best_value:
                best, best_value = code, v
                if v > alpha:
                    alpha = v
            yield
        self.best, self.best_value = best, best_value
        self.tt[st.hash ^ self.rootkey] = (depth, best_value, EXACT, best)
        return scores

    # ------------------------------------------------------------------ evaluation
    def _eval(self) -> int:
        """The margin for the side to move, in quarter points."""
        st = self.st
        s = st.score
        m = st.mover
        if st.players == 2:
            return (s[m] - s[1 - m]) * SCALE
        if st.teams:
            t = s[0] + s[1] - s[2] - s[3]
            return (t if m < 2 else -t) * SCALE
        root = self.root_seat
        others = max(s[i] for i in range(st.players) if i != root)
        u = (s[root] - others) * SCALE
        return u if m == root else -u

    def _terminal(self) -> int:
        v = self._eval()
        if v == 0:
            sides, tiebreak = self.st.ranking()
            if tiebreak != "draw":
                mine = self.st.side[self.st.mover] if not self.paranoid else self.root_seat
                won = mine in sides
                if self.paranoid and self.st.mover != self.root_seat:
                    won = not won
                v = 1 if won else -1
        return v

    def _leaf(self) -> int:
        """Static value of a position at the horizon (terminal positions get their exact value)."""
        st = self.st
        if st.scarabs == 0:
            return self._terminal()
        b = st.board
        rays = st.geo.rays[st.priest]
        best = -INF
        for d in DIRS_BY_AXIS[st.axis]:
            for sq in rays[d]:
                c = b[sq]
                if c:
                    g = VALUE[c] if c != ANKH else -VALUE[st._best_drop_code()]
                    if g > best:
                        best = g
        if best == -INF:
            return self._terminal()
        v = self._eval()
        if self.level.leaf_gain:
            v += best * SCALE // 2
        return v

    # ------------------------------------------------------------------ alpha-beta
    def _search(self, depth: int, alpha: int, beta: int) -> int:
        self.nodes += 1
        if self.nodes >= self.node_limit:
            raise SearchAborted
        if self.deadline is not None and not self.nodes & 1023 and self.clock() > self.deadline:
            raise SearchAborted
        st = self.st
        if depth <= 0:
            return self._leaf()
        if st.scarabs == 0:
            return self._terminal()
        key = st.hash ^ self.rootkey
        tt = self.tt
        entry = tt.get(key)
        tt_move = -1
        if entry is not None:
            e_depth, e_value, e_flag, tt_move = entry
            if e_depth >= depth:
                if e_flag == EXACT:
                    return e_value
                if e_flag == LOWER:
                    if e_value >= beta:
                        return e_value
                elif e_value <= alpha:
                    return e_value
        moves = st._gen()
        if not moves:
            return self._terminal()
        if tt_move >= 0 and moves[0] != tt_move and tt_move in moves:
            moves.remove(tt_move)
            moves.insert(0, tt_move)
        side = self.side
        my = side[st.mover]
        alpha0 = alpha
        best, best_move = -INF, -1
        for code in moves:
            st._make(code)
            if side[st.mover] == my:
                v = self._search(depth - 1, alpha, beta)
            else:
                v = -self._search(depth - 1, -beta, -alpha)
            st._unmake()
            if v > best:
                best, best_move = v, code
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        break
        if len(tt) > TT_LIMIT:
            tt.clear()
        tt[key] = (depth, best, LOWER if best >= beta else UPPER if best <= alpha0 else EXACT, best_move)
        return best

    def _gsearch(self, depth: int, alpha: int, beta: int) -> Generator[None, None, int]:
        """``_search`` for the upper plies, yielding after each child so the caller can pause."""
        self.nodes += 1
        if self.nodes >= self.node_limit:
            raise SearchAborted
        if self.deadline is not None and self.clock() > self.deadline:
            raise SearchAborted
        st = self.st
        if st.scarabs == 0:
            return self._terminal()
        key = st.hash ^ self.rootkey
        tt = self.tt
        entry = tt.get(key)
        tt_move = -1
        if entry is not None:
            e_depth, e_value, e_flag, tt_move = entry
            if e_depth >= depth:
                if e_flag == EXACT:
                    return e_value
                if e_flag == LOWER:
                    if e_value >= beta:
                        return e_value
                elif e_value <= alpha:
                    return e_value
        moves = st._gen()
        if not moves:
            return self._terminal()
        if tt_move >= 0 and moves[0] != tt_move and tt_move in moves:
            moves.remove(tt_move)
            moves.insert(0, tt_move)
        side = self.side
        my = side[st.mover]
        alpha0 = alpha
        best, best_move = -INF, -1
        for code in moves:
            st._make(code)
            same = side[st.mover] == my
            if depth - 1 > SPLIT:
                if same:
                    v = yield from self._gsearch(depth - 1, alpha, beta)
                else:
                    v = -(yield from self._gsearch(depth - 1, -beta, -alpha))
            else:
                v = self._search(depth - 1, alpha, beta) if same else -self._search(depth - 1, -beta, -alpha)
            st._unmake()
            if v > best:
                best, best_move = v, code
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        break
            yield
        tt[key] = (depth, best, LOWER if best >= beta else UPPER if best <= alpha0 else EXACT, best_move)
        return best


# ---------------------------------------------------------------------- blocking helpers
def best_move(
    state: ThotState,
    level: int | Level = TOP_LEVEL,
    time_budget: float | None = None,
    *,
    tt: dict[int, tuple[int, int, int, int]] | None = None,
) -> SearchResult:
    """The move ``level`` plays here (blocking; the page uses ``Search.step`` instead)."""
    return Search(state, level, time_budget=time_budget, tt=tt).run()


def hint(state: ThotState, time_budget: float | None = BROWSER_TIME_BUDGET) -> dict[str, Any]:
    """The top level's move for the player to move, with what it takes now and its expected gain.

    Blocking; the page runs ``hint_search(state)`` in slices and then ``hint_of(state, result)``.
    """
    return hint_of(state, hint_search(state, time_budget).run())


def hint_search(state: ThotState, time_budget: float | None = BROWSER_TIME_BUDGET) -> Search:
    return Search(state, TOP_LEVEL, time_budget=time_budget, search_forced=True)


def hint_of(state: ThotState, res: SearchResult) -> dict[str, Any]:
    """The hint JSON: the search's fields, ``take`` (the piece taken now: a value or "ankh"),
    ``dropped`` and ``gain``: how much the search expects the move to improve the player's margin
    (their side's total minus the best opponent's) by the end of the line it looked at."""
    out = res.to_json(state)
    if res.move is None:
        out.update(take=None, dropped=None, gain=None)
        return out
    taken = state.board[res.move.dest]
    out["take"] = "ankh" if taken == ANKH else VALUE[taken]
    out["dropped"] = VALUE[res.move.piece] if res.move.drop is not None else None
    out["gain"] = res.value - margin(state)
    return out


def margin(state: ThotState) -> int:
    """The mover's margin now, on the scale of ``SearchResult.value`` (before ``SCALE``)."""
    s = state.score
    m = state.mover
    if state.teams:
        t = s[0] + s[1] - s[2] - s[3]
        return t if m < 2 else -t
    return s[m] - max(s[i] for i in range(state.players) if i != m)


_margin = margin  # the page imported it under this name first


def greedy_move(state: ThotState, rng: Rng) -> ThotMove:
    """The "take the highest value" player: best immediate gain, ties broken at random."""
    codes = state._gen()
    gains = [_immediate_gain(state, c) for c in codes]
    top = max(gains)
    return ThotMove.from_code(rng.choice([c for c, g in zip(codes, gains, strict=True) if g == top]))


def _immediate_gain(state: ThotState, code: int) -> int:
    c = state.board[code & 127]
    gain = 0 if c == ANKH else VALUE[c]
    if (code >> 14) & 127:
        gain -= VALUE[(code >> 21) - 32]
    return gain


def random_move(state: ThotState, rng: Rng) -> ThotMove:
    return rng.choice(state.legal_moves())
