"""Thot — a position to win: a seeded game stopped mid-way, solved exactly over a few move pairs.

The puzzle: the player to move plays ``MOVES`` moves, each answered by the computer; what counts
is the points the player collects minus the computer's over those moves (the margin gained).
The answer is the minimax line over the ``2 × MOVES`` plies, found by an exact alpha-beta over
every legal move (no depth cut-off before the end of the puzzle, no evaluation guess).

Ankhs are kept out of the puzzle: a candidate position is refused when the priest could reach an
ankh within the horizon. An ankh lets the mover drop a scarab on any empty square, which turns
nine moves into hundreds and makes an exact answer too dear for the page; and the engine's fast
move list (``ThotState._gen``) lists only the search's candidate drops, so without ankhs it is
the complete list of legal moves and the exact search is exact over the rules themselves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generator

from game.core import Rng
from game.thot.board import ANKH, DIRS_BY_AXIS, EMPTY, VALUE
from game.thot.moves import ThotMove
from game.thot.search import greedy_move
from game.thot.state import ThotState

#: The player's moves in a puzzle (each answered by the computer): 3 move pairs, 6 plies.
MOVES = 3
PLIES = 2 * MOVES
#: Greedy self-play runs until the last ankh is taken (on a full board every square is within
#: six moves' reach, so no earlier position is ankh-free), then up to SPREAD moves more.
SPREAD = 12
#: Positions judged per seeded game: a refused one is followed by a greedy move and the next
#: position (the other player to move) is judged, which costs one search instead of a game.
POSITIONS_PER_GAME = 6
#: Salt of the moves that carry a game on past a refused position.
GO_ON = 0x60_0E
#: The best first move must beat every other first move by this many points of margin…
MIN_LEAD = 3
#: …and the perfect line must gain at least this much (a puzzle worth winning).
MIN_GAIN = 4
_INF = 1 << 30
#: Row directions (0, 1) are followed by a column move and column directions by a row move.
_NEXT_AXIS = (1, 1, 0, 0)


@dataclass(frozen=True)
class Solved:
    """The exact value of a position over ``plies`` (the mover's points minus the other's) and a
    line that reaches it."""

    value: int
    line: tuple[int, ...]


def ankh_in_reach(state: ThotState, plies: int = PLIES) -> bool:
    """Could the priest land on an ankh within ``plies`` moves?

    The priest slides over pieces and gaps and stops on a piece; without ankhs taken nothing is
    added to the board, so the stops reachable on today's board are a superset of those of any
    line of play: a False here is a proof."""
    board = state.board
    rays = state.geo.rays
    frontier = {(state.priest, state.axis)}
    seen = set(frontier)
    for _ in range(plies):
        nxt: set[tuple[int, int]] = set()
        for sq, axis in frontier:
            for d in DIRS_BY_AXIS[axis]:
                for stop in rays[sq][d]:
                    c = board[stop]
                    if c == EMPTY:
                        continue
                    if c == ANKH:
                        return True
                    key = (stop, _NEXT_AXIS[d])
                    if key not in seen:
                        seen.add(key)
                        nxt.add(key)
        frontier = nxt
    return False


def _gain(state: ThotState, code: int) -> int:
    return VALUE[state.board[code & 127]]


def _negamax(state: ThotState, plies: int, alpha: int, beta: int, counter: list[int]) -> int:
    """The mover's points minus the other player's over the next ``plies`` moves (exact)."""
    counter[0] += 1
    if plies == 0:
        return 0
    moves = state._gen()  # already ordered by immediate gain: good for the cut-offs
    if not moves:
        return 0  # the game is over: no more points for anyone
    best = -_INF
    for code in moves:
        g = _gain(state, code)
        state._make(code)
        v = g - _negamax(state, plies - 1, g - beta, g - alpha, counter)
        state._unmake()
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if v >= beta:
                    break
    return best


def solve(state: ThotState, plies: int, counter: list[int] | None = None) -> Solved:
    """The exact value and a perfect line over ``plies`` moves (full window, blocking).

    ``state`` is searched in place and left as it was. Assumes no ankh in reach
    (``ankh_in_reach``): with one, drops beyond the engine's candidates are not searched."""
    count = counter if counter is not None else [0]
    line: list[int] = []
    total = 0
    sign = 1
    done = 0
    value = _negamax(state, plies, -_INF, _INF, count)
    # Walk the line: at each step the move whose exact value matches the position's value.
    target = value
    for left in range(plies, 0, -1):
        moves = state._gen()
        if not moves:
            break
        for code in moves:
            g = _gain(state, code)
            state._make(code)
            v = g - _negamax(state, left - 1, -_INF, _INF, count)
            if v == target:
                line.append(code)
                total += sign * g
                done += 1
                target = g - v  # the child's own value
                break
            state._unmake()
        else:  # pragma: no cover - the value came from these moves
            raise AssertionError("no move reaches the solved value")
        sign = -sign
    for _ in range(done):
        state._unmake()
    assert total == value
    return Solved(value, tuple(line))


def root_values(state: ThotState, plies: int, counter: list[int] | None = None,
                ) -> Generator[None, None, list[tuple[int, int]]]:
    """Every first move with its exact value over ``plies``: ``(value, move code)``, best first,
    equal values in the engine's move order; yields after each first move."""
    count = counter if counter is not None else [0]
    found: list[tuple[int, int, int]] = []
    for i, code in enumerate(state._gen()):
        g = _gain(state, code)
        state._make(code)
        v = g - _negamax(state, plies - 1, -_INF, _INF, count)
        state._unmake()
        found.append((-v, i, code))
        yield
    found.sort()
    return [(-neg, code) for neg, _, code in found]


def candidate(seed: int) -> ThotState:
    """The seeded game stopped before the puzzle: greedy self-play from a seeded setup until no
    ankh is left, then a seeded number of moves more."""
    rng = Rng(seed)
    state = ThotState.new(players=2, seed=rng.next64())
    while state.ankhs and not state.is_over():
        state.push(greedy_move(state, rng))
    for _ in range(rng.below(SPREAD + 1)):
        if state.is_over():
            break
        state.push(greedy_move(state, rng))
    return state


def reject(state: ThotState) -> str | None:
    """Why a position cannot be a puzzle before any search (None: it may be one)."""
    if state.is_over():
        return "the game is over"
    if state.scarabs < PLIES:
        return "too few scarabs left"
    if ankh_in_reach(state):
        return "an ankh is within reach"
    return None


def judge(state: ThotState, values: list[tuple[int, int]]) -> str | None:
    """The criteria on the first moves' exact values (None: a puzzle)."""
    if len(values) < 2:
        return "only one move"
    best, second = values[0][0], values[1][0]
    if best - second < MIN_LEAD:
        return "no clearly best first move"
    if best < MIN_GAIN:
        return "the perfect line gains too little"
    # Every move tied for the biggest capture counts: the answer must not be found by grabbing the
    # most points, whichever of the tied captures the engine's move order lists first.
    gains = {code: _gain(state, code) for code in state._gen()}
    if gains[values[0][1]] == max(gains.values()):
        return "the best first move is the biggest capture"
    return None


def generate(seeds: list[int]) -> Generator[None, None, dict[str, Any]]:
    """The puzzle of the first candidate that passes (``seeds`` are the day's games, in order;
    each game offers ``POSITIONS_PER_GAME`` positions, one greedy move apart)."""
    tried: list[str] = []
    fallback: tuple[ThotState, int, int, list[tuple[int, int]], int] | None = None
    for n, seed in enumerate(seeds):
        rng = Rng(seed ^ GO_ON)
        state = candidate(seed)
        yield
        for k in range(POSITIONS_PER_GAME):
            why = reject(state)
            values: list[tuple[int, int]] = []
            if why is None:
                values = yield from root_values(state, PLIES)
                why = judge(state, values)
            if why is None:
                return puzzle(state, seed, n, values, k)
            if fallback is None and reject(state) is None and len(values) >= 2:
                fallback = (state.copy(), seed, n, values, k)
            tried.append(why)
            if state.is_over():
                break
            state.push(greedy_move(state, rng))
    if fallback is None:
        raise RuntimeError(f"no Thot position in {len(seeds)} games: {tried}")
    # No candidate met the criteria (never seen over the dates tried, docs/daily.md): the day
    # still gets a puzzle, the first ankh-free position, marked as such.
    state, seed, n, values, k = fallback
    return puzzle(state, seed, n, values, k, relaxed=True)


def puzzle(state: ThotState, seed: int, attempt: int, values: list[tuple[int, int]],
           turns_on: int = 0, relaxed: bool = False) -> dict[str, Any]:
    solved = solve(state, PLIES)
    me = state.mover
    line = []
    s = state.copy()
    mine = theirs = 0
    for i, code in enumerate(solved.line):
        g = _gain(s, code)
        if i % 2 == 0:
            mine += g
        else:
            theirs += g
        line.append(s.move_text(ThotMove.from_code(code)))
        s._make(code)
    return {
        "position": state.position(),
        "to_move": me,
        "moves": MOVES,
        "plies": PLIES,
        "line": line,
        "points": solved.value,
        "player_points": mine,
        "computer_points": theirs,
        "first_moves": [{"move": state.move_text(ThotMove.from_code(c)), "points": v} for v, c in values],
        "seed": seed,
        "attempt": attempt,
        "turns_on": turns_on,
        "relaxed": relaxed,
    }


def reply(state: ThotState, plies_left: int) -> ThotMove | None:
    """The computer's answer in a puzzle: the move of a perfect line over the plies left (the
    page calls it after each of the player's moves)."""
    if plies_left <= 0 or state.is_over():
        return None
    solved = solve(state, plies_left)
    return ThotMove.from_code(solved.line[0]) if solved.line else None
