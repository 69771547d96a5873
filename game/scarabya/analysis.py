"""Scarabya analysis: every placement of a record against the top level's look-ahead.

Classic: the value of a placement is the look-ahead's (solver level 4): the nominal points it
earns now (area size × scarabs, before the token supply) plus the mean points a fast policy then
collects over the same sampled orders of the mission cards still to come. The analysis runs the
solver's own candidates, sampled orders and play-out seeds (so its best is the solver's move),
and plays the placement actually made out on the same orders (common random numbers: the
difference of two values is not sampling noise of different orders). In the last round there is
nothing to play out: the value is the points now, and the best is the placement that earns most.
A discard is forced (the tile fits nowhere): best by definition.

Ruins: the value is the look-ahead's figure, own points minus the best rival's over the rest of
the round by a greedy play-out for every seat, averaged over the solver's number of play-outs;
every candidate and the placement made meet the same play-out seeds. (The solver itself draws
one random stream through all its play-outs, so here its candidates can rank a little
differently from a hint's.)
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Generator

from game.core import GameRecord, RecordError, Rng
from game.core.analysis import (
    Alternative, Analysis, AnalysisError, AnalysisRules, MoveAnalysis, Progress, Thresholds,
    field_int, field_num, field_texts, may_analyse, record_digest, rounded, run, summarise,
)
from game.scarabya import new_from_options, replay, solver
from game.scarabya import rules
from game.scarabya.grid import SITE
from game.scarabya.moves import Discard, Place, parse_move
from game.scarabya.ruins import MAX_PLAYERS as RUINS_MAX_PLAYERS, PiecePlace, RuinsState, parse_piece_move
from game.scarabya.state import MAX_PLAYERS, ScarabyaState

#: Classic, in expected points (the solver's value). A solo game scores about 43 points at the top
#: level over 12 tiles, 3.6 a tile, and one symbol in an area of 1-4 squares is worth 1-4. Up to
#: 0.5 is within the sampling of eight orders (best); up to 1.5 about one square of one area
#: (good); up to 3 most of a tile's average (inaccuracy); up to 6 a whole small area given up
#: (mistake); more, a blunder.
CLASSIC_THRESHOLDS = Thresholds("expected points", best=0.5, good=1.5, inaccuracy=3.0, mistake=6.0)
#: Ruins, in points of own gain minus the best rival's over the round. Tiles are worth 1-9 (63
#: points in 16 tiles, about 4 each): half a point is play-out noise, 1.5 a third of a tile,
#: 3 most of a small tile, 6 a big tile lost or handed to a rival.
RUINS_THRESHOLDS = Thresholds("points vs the best rival", best=0.5, good=1.5, inaccuracy=3.0,
                              mistake=6.0)


def thresholds_for(state: ScarabyaState | RuinsState) -> Thresholds:
    return RUINS_THRESHOLDS if isinstance(state, RuinsState) else CLASSIC_THRESHOLDS


def analyse_steps(record: GameRecord, *, viewer: int | None = None, finished: bool | None = None,
                  progress: Progress | None = None) -> Generator[None, None, Analysis]:
    """The analysis of ``record`` in slices (yields after every play-out, well under a ms in
    CPython; returns the ``Analysis``). Raises ``RecordError`` when the record does not replay."""
    end = replay(record.dumps())
    players = end.num_players
    if viewer is not None and not 0 <= viewer < players:
        raise ValueError(f"viewer must be a seat 0-{players - 1}, not {viewer}")
    done = end.is_over() if finished is None else finished
    state = new_from_options(record.options, record.seed)
    progress = progress if progress is not None else Progress()
    progress.total, progress.done = len(record.moves), 0
    out: list[MoveAnalysis] = []
    progress.moves = out  # shared: each move's analysis is readable as soon as it is made
    for ply, text in enumerate(record.moves, start=1):
        seat = state.to_move()
        reason = may_analyse(seat, viewer, done)
        item: MoveAnalysis | None = None
        if reason is None:
            if isinstance(state, RuinsState):
                item = yield from _ruins_move(state, state.parse_move(text))
            else:
                item = yield from _classic_move(state, state.parse_move(text))
        state.push_text(text)
        scores = tuple(state.scores)
        if item is None:
            out.append(MoveAnalysis(ply, seat, text, scores, reason=reason))
        else:
            out.append(replace(item, ply=ply, seat=seat, move=text, scores=scores))
        progress.done = ply
        yield
    ruins = isinstance(state, RuinsState)
    engine: dict[str, Any] = {
        "level": solver.TOP_LEVEL, "variant": "ruins" if ruins else "classic",
        "candidates": solver.RUINS_CANDIDATES if ruins else solver.CANDIDATES,
        "samples": solver.RUINS_SAMPLES if ruins else solver.SAMPLES,
        "horizon": None if ruins else solver.HORIZON,
    }
    return Analysis(
        game="scarabya", record=record_digest(record), players=players, viewer=viewer,
        finished=done, engine=engine, thresholds=thresholds_for(state), moves=tuple(out),
        summary=summarise(out, players))


def analyse(record: GameRecord, *, viewer: int | None = None,
            finished: bool | None = None) -> Analysis:
    """``analyse_steps`` run to the end (blocking)."""
    return run(analyse_steps(record, viewer=viewer, finished=finished))


def _result(state: ScarabyaState | RuinsState, best: list[Alternative], played: Alternative,
            forced: bool = False) -> MoveAnalysis:
    best.sort(key=lambda a: -a.value)  # stable: the solver's order breaks ties
    loss = 0.0 if forced else rounded(max(0.0, best[0].value - played.value))
    return MoveAnalysis(0, None, "", (), best=tuple(best), played=played, loss=loss,
                        klass=thresholds_for(state).classify(loss), forced=forced)


# --- classic -----------------------------------------------------------------------------------
def _classic_move(state: ScarabyaState, move: Place | Discard) -> Generator[None, None, MoveAnalysis]:
    seat = state.to_move()
    if isinstance(move, Discard):
        alt = Alternative(move.text(), 0.0, {"now": 0, "later": 0.0, "squares": []})
        return _result(state, [alt], alt, forced=True)
    tile = state.tile()
    assert tile is not None
    played_mask = state._mask_of(move)
    # The solver's own steps, in its order, so that the random draws are the same as a hint's.
    rng = solver.rng_for(state)
    ranked = solver.ranked_places(state, rng)
    rest = state.remaining_tiles()
    if not rest or len(ranked) == 1:
        # Nothing to play out (or no choice): the points now decide.
        alts = [_classic_alt(state, tile, p, float(pts), 0.0) for _, _, pts, p in ranked]
        mine = next(a for (_, _, _, p), a in zip(ranked, alts) if p[2] == played_mask)
        yield
        return _result(state, alts, mine, forced=len(ranked) == 1)
    cands = [(pts, p) for _, _, pts, p in ranked[:solver.CANDIDATES]]
    index = next((i for i, (_, p) in enumerate(cands) if p[2] == played_mask), None)
    if index is None:
        pts, p = next((pts, p) for _, _, pts, p in ranked if p[2] == played_mask)
        cands.append((pts, p))
        index = len(cands) - 1
    orders = []
    for _ in range(solver.SAMPLES):
        order = list(rest)
        rng.shuffle(order)
        orders.append(order[:solver.HORIZON] if solver.HORIZON else order)
    seeds = [rng.next64() for _ in orders]
    starts = []
    for _, p in cands:
        covered = state.covered[seat] | p[2]
        live = solver.live_cells(state, seat) & ~p[2]
        for a in rules.closed_areas(SITE.full & ~(state.rocks | covered), p[2]):
            live &= ~a
        starts.append((covered, live))
    totals = [0.0] * len(cands)
    for order, s in zip(orders, seeds):
        for i, (covered, live) in enumerate(starts):
            totals[i] += solver.playout(order, state.rocks, live, covered, Rng(s))
            yield
    alts = [_classic_alt(state, tile, p, float(pts), totals[i] / len(orders))
            for i, (pts, p) in enumerate(cands)]
    mine = alts[index]
    return _result(state, alts, mine)


def _classic_alt(state: ScarabyaState, tile: str, p: tuple[int, int, int], now: float,
                 later: float) -> Alternative:
    move = Place(tile, p[0], p[1])
    return Alternative(move.text(), rounded(now + later),
                       {"now": int(now), "later": rounded(later), "squares": SITE.names(p[2])})


# --- ruins -------------------------------------------------------------------------------------
def _ruins_move(state: RuinsState, move: PiecePlace) -> Generator[None, None, MoveAnalysis]:
    seat = state.to_move()
    rng = solver.rng_for(state)
    ranked = solver.ruins_ranked(state, True, rng)
    played_mask = state._check(move)
    if len(ranked) == 1:
        alt = _ruins_alt(state, ranked[0][2], 0.0)
        yield
        return _result(state, [alt], alt, forced=True)
    cands = [p for _, _, p in ranked[:solver.RUINS_CANDIDATES]]
    index = next((i for i, p in enumerate(cands) if p[3] == played_mask), None)
    if index is None:
        cands.append(next(p for _, _, p in ranked if p[3] == played_mask))
        index = len(cands) - 1
    seeds = [rng.next64() for _ in range(solver.RUINS_SAMPLES)]
    totals = [0.0] * len(cands)
    for s in seeds:
        for i, p in enumerate(cands):
            totals[i] += yield from solver.ruins_playout(state, PiecePlace(p[0], p[1], p[2]), seat, Rng(s))
    alts = [_ruins_alt(state, p, totals[i] / len(seeds)) for i, p in enumerate(cands)]
    return _result(state, alts, alts[index])


def _ruins_alt(state: RuinsState, p: tuple[str, int, int, int], value: float) -> Alternative:
    move = PiecePlace(p[0], p[1], p[2])
    return Alternative(move.text(), rounded(value), {"squares": state.squares_of(move)})


# --- an analysis from outside -----------------------------------------------------------------
#: An area scores its size times its symbols, so a site of 100 squares never scores more than
#: 100 × 100 (Ruins scores far less: tiles of 1-9 points); a value (points now and to come, or a
#: margin over the best rival) stays within the same bound.
_MAX_POINTS = (SITE.width * SITE.height) ** 2
#: The most squares one tile or piece covers, with room to spare.
_MAX_SQUARES = 25


def _square_name(text: str) -> bool:
    try:
        return SITE.name(SITE.parse_square(text)) == text
    except ValueError:
        return False


class ScarabyaRules(AnalysisRules):
    game = "scarabya"
    min_players, max_players = 1, max(MAX_PLAYERS, RUINS_MAX_PLAYERS)
    max_score = _MAX_POINTS
    max_value = float(_MAX_POINTS)

    def kind(self, text: str) -> str:
        try:
            parse_move(text)  # classic
        except ValueError:
            parse_piece_move(text)  # Ruins
        return "turn"

    def detail(self, d: Any, move: str) -> dict[str, Any]:
        squares = field_texts(d, "squares", _MAX_SQUARES, _square_name)
        if "now" not in d and "later" not in d:  # Ruins
            return {"squares": squares}
        return {"now": field_int(d, "now", 0, _MAX_POINTS),
                "later": field_num(d, "later", 0.0, float(_MAX_POINTS)), "squares": squares}

    def start(self, record: GameRecord, lexicon: Any) -> ScarabyaState | RuinsState:
        if record.game != ScarabyaState.GAME:
            raise RecordError(f"record is for {record.game!r}, not 'scarabya'")
        return new_from_options(record.options, record.seed)

    def mover(self, state: ScarabyaState | RuinsState, text: str) -> int:
        return state.to_move()

    def alternative(self, state: ScarabyaState | RuinsState, alt: Alternative) -> None:
        if isinstance(state, RuinsState):
            move = state.parse_move(alt.move)
            state.check(move)
            squares = state.squares_of(move)
            if "now" in alt.detail:
                raise AnalysisError("a Ruins placement valued as a classic one")
        else:
            if "now" not in alt.detail:
                raise AnalysisError("a classic placement valued as a Ruins one")
            squares = SITE.names(state._check(state.parse_move(alt.move)))
        if alt.detail["squares"] != squares:
            raise AnalysisError(f"it covers {', '.join(squares) or 'nothing'}, not the squares listed")

    def same_move(self, state: ScarabyaState | RuinsState, played: str, text: str) -> bool:
        # One placement has several spellings when the tile is symmetric: the squares decide.
        if isinstance(state, RuinsState):
            a, b = state.parse_move(played), state.parse_move(text)
            return a.piece == b.piece and state.squares_of(a) == state.squares_of(b)
        return state._check(state.parse_move(played)) == state._check(state.parse_move(text)) \
            and isinstance(state.parse_move(played), Discard) == isinstance(state.parse_move(text), Discard)

    def push(self, state: ScarabyaState | RuinsState, text: str) -> tuple[int, ...]:
        state.push_text(text)
        return tuple(state.scores)


RULES = ScarabyaRules()

__all__ = ["CLASSIC_THRESHOLDS", "RUINS_THRESHOLDS", "analyse", "analyse_steps", "thresholds_for",
           "RecordError", "RULES"]
