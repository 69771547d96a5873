"""Thot analysis: every move of a record against the top level's search.

For each position the top level's search (iterative deepening, node-limited, so the values depend
only on the record and the settings) runs with ``search_forced`` so that a lone legal move still
gets a value for the chart. Its move and value are the best alternative. When another move was
played, that move alone is searched at the root of the same position, sharing the first search's
transposition table, to the same depth: its value is then the same kind of number (the expected
final margin for the mover's side, in points) and their difference is the loss.

Three things make a whole game fast enough for the page (a 90-move game in about half the time of
searching each position as the computer plays it; ``tools/bench_review.py`` prints it):

- **One table for the whole game.** Each position is a child of the one before, whose search
  filled the table for it: its first iterations are mostly table hits, and its move ordering comes
  from there. The table is emptied before a position once it holds ``TABLE_CAP`` entries (a
  bound on memory in the page); when that happens depends only on the record and the settings, so
  the analysis stays reproducible, but a move's values may differ slightly from those of a search
  of its position alone (an entry of the table, a result of this game's own positions, may have
  been searched deeper than the depth asked).
- **No iteration the budget cannot finish.** The computer's search spends its whole node budget,
  and the last iteration, cut off, keeps only a better move found before the cut: an eighth
  to two thirds of the nodes in the middle game. Here an iteration starts only when the last one's cost times its growth
  over the one before fits in what is left (the node limit still cuts one that grows more).
- **A smaller budget**, ``NODES`` per position instead of the top level's 30 000 (the endgame
  still solves exactly: ``solve_at``, ``solve_factor``).

Measured agreement (four greedy 10×10 games, seeds 3, 8, 12, 21: 370 positions; the slow test
``test_agreement_with_the_computers_own_search`` prints it for seeds 3 and 21: 97.8 % and 88.5 % of
183): against the old analysis (``fresh=True``: each position searched alone as the computer plays
it, 30 000 nodes) the same best move in 95.1 % of the positions and the same class in 88.1 %. Against
a reference five times deeper (``nodes=150000``, these settings otherwise), the old analysis picks
the same best move in 85.4 % and the same class in 78.9 % (the played move's value 0.79 points
away on average), this one in 85.9 % and 81.9 % (0.83 points): what it changes from the old is
within what the old itself gets wrong.

The evaluation per seat (for the advantage chart) is the value of the move played as each seat
sees it: the mover's side gets it, the other side its negative (two players, teams); in the
three- and four-player game the search's value is the mover's total against the best opponent,
which says nothing about the others, so only the mover's entry is filled.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Generator

from game.core import GameRecord, RecordError
from game.core.analysis import (
    MAX_MOVE_TEXT, Alternative, Analysis, AnalysisError, AnalysisRules, MoveAnalysis, Progress,
    Thresholds, field_bool, field_int, field_texts, may_analyse, record_digest, rounded, run,
    summarise,
)
from game.thot.board import COPIES, FULL_SIZE, Geometry
from game.thot.notation import parse_move
from game.thot.search import TOP_LEVEL, Level, Search, SearchResult, SearchAborted, pv_text, level_of
from game.thot.state import ThotState

#: In points of the expected final margin. Scarabs are worth −8…+8 and the search's values move
#: in quarter points (its leaf credits half the next capture), so a quarter point is noise (best
#: up to 0.25); up to 1.5 points is about the smallest scarab's difference (good); up to 4 half a
#: good capture (inaccuracy); up to 8 a whole big scarab given away (mistake); more, a blunder.
THRESHOLDS = Thresholds("points", best=0.25, good=1.5, inaccuracy=4.0, mistake=8.0)
#: Node budget per position (the top level plays with 30 000; see the module's docstring).
NODES = 20_000
#: Entries of the transposition table kept across positions before it is emptied (some 20 MB).
TABLE_CAP = 100_000
#: Milliseconds of search between two yields (the page slices it further with ``run_in_slices``).
SLICE_MS = 10.0

Table = dict[int, tuple[int, int, int, int]]


def engine_level(depth: int | None = None, nodes: int | None = None) -> Level:
    """The top level, with its deepest iteration or its node budget per search changed."""
    lv = level_of(TOP_LEVEL)
    if depth is not None:
        if depth < 1:
            raise ValueError(f"depth must be at least 1, not {depth}")
        lv = replace(lv, max_depth=depth)
    if nodes is not None:
        if nodes < 1:
            raise ValueError(f"nodes must be at least 1, not {nodes}")
        lv = replace(lv, node_limit=nodes)
    return lv


def analyse_steps(record: GameRecord, *, viewer: int | None = None, finished: bool | None = None,
                  depth: int | None = None, nodes: int | None = None,
                  time_budget: float | None = None, progress: Progress | None = None,
                  fresh: bool = False) -> Generator[None, None, Analysis]:
    """The analysis of ``record`` in slices (yields every ~10 ms; returns the ``Analysis``).

    ``depth`` and ``nodes`` change the top level's limits (``nodes`` defaults to ``NODES``);
    ``time_budget`` caps each search in seconds (a cap makes the values depend on the machine's
    speed: leave it None for reproducible figures). ``fresh`` searches each position alone as the
    computer plays it (its own table, the top level's whole budget): the reference the bench and
    the agreement test compare with. Raises ``RecordError`` when the record does not replay."""
    lv = engine_level(depth, nodes if nodes is not None or fresh else NODES)
    if record.game != ThotState.GAME:
        raise RecordError(f"record is for {record.game!r}, not 'thot'")
    end = ThotState.replay(record)
    if viewer is not None and not 0 <= viewer < end.players:
        raise ValueError(f"viewer must be a seat 0-{end.players - 1}, not {viewer}")
    done = end.is_over() if finished is None else finished
    state = ThotState.from_options(record.options, record.seed)
    progress = progress if progress is not None else Progress()
    progress.total, progress.done = len(record.moves), 0
    out: list[MoveAnalysis] = []
    progress.moves = out  # shared: each move's analysis is readable as soon as it is made
    table: Table = {}
    for ply, text in enumerate(record.moves, start=1):
        move = state.parse_move(text)
        seat = state.mover
        reason = may_analyse(seat, viewer, done)
        if reason is not None:
            state.push(move)
            out.append(MoveAnalysis(ply, seat, text, tuple(state.score), reason=reason))
        else:
            if fresh or len(table) > TABLE_CAP:
                table.clear()
            item = yield from _move(state, move.code, lv, time_budget, table, fresh)
            state.push(move)
            out.append(replace(item, ply=ply, move=text, scores=tuple(state.score)))
        progress.done = ply
        yield
    engine: dict[str, Any] = {"level": TOP_LEVEL, "max_depth": lv.max_depth,
                              "node_limit": lv.node_limit, "time_budget": time_budget}
    if fresh:
        engine["fresh"] = True
    return Analysis(
        game="thot", record=record_digest(record), players=state.players, viewer=viewer,
        finished=done, engine=engine, thresholds=THRESHOLDS, moves=tuple(out),
        summary=summarise(out, state.players))


def analyse(record: GameRecord, *, viewer: int | None = None, finished: bool | None = None,
            depth: int | None = None, nodes: int | None = None,
            time_budget: float | None = None, fresh: bool = False) -> Analysis:
    """``analyse_steps`` run to the end (blocking)."""
    return run(analyse_steps(record, viewer=viewer, finished=finished, depth=depth, nodes=nodes,
                             time_budget=time_budget, fresh=fresh))


#: Growth of an iteration's cost over the one before assumed while too few nodes tell it, and the
#: bounds of a measured one (the 10×10 middle game grows 2.5-4 times a ply, the endgame 1.1-1.5).
_GROWTH, _GROWTH_MIN, _GROWTH_MAX = 3.0, 1.5, 6.0
_GROWTH_SAMPLE = 32


class _Planned(Search):
    """The top level's iterative deepening, but an iteration starts only when its expected cost
    (the last one's times the last growth) fits in the node budget left."""

    _last = 0

    def _deepen(self, cost: int) -> bool:
        last, self._last = self._last, cost
        growth = (min(max(cost / last, _GROWTH_MIN), _GROWTH_MAX) if last >= _GROWTH_SAMPLE
                  else _GROWTH)
        return self.nodes + cost * growth <= self.node_limit


class _OneMove(Search):
    """The search of one given root move, iteratively deepened to ``depth`` with a full window:
    its value is exact at the depth reached, comparable with the full search's best value."""

    def __init__(self, state: ThotState, level: Level, code: int, depth: int,
                 tt: Table, time_budget: float | None) -> None:
        self._code = code
        self._target = max(1, depth)
        super().__init__(state, level, time_budget=time_budget, tt=tt, search_forced=True)

    def _run(self) -> Generator[None, None, None]:
        st = self.st
        self.best = self._code
        for depth in range(1, self._target + 1):
            try:
                yield from self._root([self._code], depth)
            except SearchAborted:
                while len(st._undo) > self._base:
                    st._unmake()
                break
            self.depth = depth
            if depth >= self.horizon:
                self.exact = True
                break


def _drive(search: Search) -> Generator[None, None, SearchResult]:
    while not search.step(SLICE_MS):
        yield
    return search.result()


def _move(state: ThotState, code: int, lv: Level, time_budget: float | None, table: Table,
          fresh: bool) -> Generator[None, None, MoveAnalysis]:
    # ``_gen`` lists one move only when there is no other at all (an ankh with drops lists several).
    forced = len(state._gen()) == 1
    kind = Search if fresh else _Planned
    main = kind(state, lv, time_budget=time_budget, search_forced=True, tt=table)
    best = yield from _drive(main)
    assert best.move is not None  # the game is not over before a recorded move
    best_alt = Alternative(state.move_text(best.move), rounded(best.value), _detail(state, best))
    if best.move.code == code:
        played = best_alt
    else:
        one = _OneMove(state, lv, code, best.depth, table, time_budget)
        mine = yield from _drive(one)
        played = Alternative(state.move_text(mine.move) if mine.move else "", rounded(mine.value),
                             _detail(state, mine))
    loss = rounded(max(0.0, best_alt.value - played.value))
    if forced:
        loss = 0.0
    return MoveAnalysis(0, state.mover, "", (), best=(best_alt,), played=played, loss=loss,
                        klass=THRESHOLDS.classify(loss), forced=forced,
                        evaluation=_evaluation(state, played.value))


def _detail(state: ThotState, res: SearchResult) -> dict[str, Any]:
    return {"depth": res.depth, "nodes": res.nodes, "exact": res.exact,
            "pv": pv_text(state, res.pv)}


def _evaluation(state: ThotState, value: float) -> tuple[float | None, ...]:
    me = state.mover
    if state.players == 2 or state.teams:
        mine = state.side[me]
        return tuple(value if state.side[s] == mine else rounded(-value) for s in range(state.players))
    return tuple(value if s == me else None for s in range(state.players))


# --- an analysis from outside -----------------------------------------------------------------
#: Every scarab of one sign: ±1…±8, six copies of each. A seat's score is a sum of captured
#: scarabs, so it never exceeds it; a margin (mine minus the best rival's, or a team's) is twice it.
_ALL_OF_ONE_SIGN = COPIES * sum(range(1, 9))
#: A search's deepest iteration and the longest line it reports (the top level stops at 64).
_MAX_DEPTH = 256
_MOVE_CHARS = frozenset("ABCDEFGHIJabcdefghij0123456789>@:-+*")


_FULL = Geometry(FULL_SIZE)


def _move_like(text: str) -> bool:
    if not (0 < len(text) <= MAX_MOVE_TEXT and all(c in _MOVE_CHARS for c in text)):
        return False
    try:
        parse_move(_FULL, text)
    except ValueError:
        return False
    return True


class ThotRules(AnalysisRules):
    game = "thot"
    min_players, max_players = 2, 4
    max_score = _ALL_OF_ONE_SIGN
    max_value = 2.0 * _ALL_OF_ONE_SIGN

    def kind(self, text: str) -> str:
        # The full board's names include the short board's: the notation alone is checked here.
        parse_move(_FULL, text)
        return "turn"

    def detail(self, d: Any, move: str) -> dict[str, Any]:
        return {"depth": field_int(d, "depth", 0, _MAX_DEPTH),
                "nodes": field_int(d, "nodes", 0, 2**53 - 1),
                "exact": field_bool(d, "exact"),
                "pv": field_texts(d, "pv", _MAX_DEPTH, _move_like)}

    def start(self, record: GameRecord, lexicon: Any) -> ThotState:
        return ThotState.from_options(record.options, record.seed)

    def mover(self, state: ThotState, text: str) -> int:
        return state.mover

    def alternative(self, state: ThotState, alt: Alternative) -> None:
        state.check(state.parse_move(alt.move))
        line = state.copy()  # the principal variation is played out, every move legal in turn
        for text in alt.detail["pv"]:
            if line.is_over():
                raise AnalysisError("its line goes on after the end of the game")
            line.push(line.parse_move(text))

    def same_move(self, state: ThotState, played: str, text: str) -> bool:
        return state.parse_move(played).code == state.parse_move(text).code

    def push(self, state: ThotState, text: str) -> tuple[int, ...]:
        state.push(state.parse_move(text))
        return tuple(state.score)


RULES = ThotRules()

__all__ = ["NODES", "RULES", "TABLE_CAP", "THRESHOLDS", "analyse", "analyse_steps", "engine_level"]
