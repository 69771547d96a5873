"""Scarabeo analysis: every turn of a record against the champion's best plays by equity.

The value of a turn is the champion's equity (``ai.py``): score + the leave's value (the
champion's weight with at least a rack's worth of tiles in the bag, half that when fewer, none
when it is empty) − the scarab exposure (``ai.SCARAB_EXPOSURE``) while tiles are in the bag, an
exchange −2, a pass the leave − 20. The turn played is valued with the same formula, whether or
not it is among the alternatives, so its loss is on the same scale as the best's.

**The endgame** (bag empty, two players: perfect information) is solved exactly
(``endgame.EndgameSolver``) within ``ENDGAME_WORK`` work units a turn, counted and not timed so
that an analysis is the same everywhere. A value is then the final spread (the mover's score
minus the other's at the game's end, the racks' adjustments included) under best play by both
sides after the turn: the best is the solver's proved value; the turn played is searched on its
own with a full window, so its loss is exact; the champion's other candidates are listed beside
the best when the rest of the budget proves them too. The turn's ``exact`` is True.

When the budget does not prove both the best value and the turn's, the champion's one-reply look
stands, as the champion plays: score − the opponent's best answer − the tiles left on the rack,
or score + twice the other rack when the turn goes out, plus the spread before the turn (an
estimate of the final spread, on the exact values' scale); ``exact`` is False. Elsewhere (tiles
in the bag, three or four players) ``exact`` is None and absent from the JSON.

Disputes (``!challenge``, ``!accept``, ``!vote``) are the table's decisions, listed without
analysis. A play that formed a word the lexicon refuses (challenge and vote modes) is valued as
if it stood: the analysis says what it would have been worth, the record what it earned.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generator

from game.core import GameRecord, RecordError
from game.core.analysis import (
    Alternative, Analysis, AnalysisError, AnalysisRules, MoveAnalysis, Progress,
    Thresholds, field_int, field_text, field_texts, may_analyse, record_digest, rounded, run,
    summarise,
)
from game.scarabeo import ai, endgame, leaves, sim
from game.scarabeo.game import ScarabeoState
from game.scarabeo.movegen import GenPlay, tiles_placed
from game.scarabeo.moves import Exchange, Move, Pass, Play, move_text, parse_move
from game.scarabeo.record import replay_record
from game.scarabeo.rules import resolve_play
from game.scarabeo.board import parse_square, square_name
from game.scarabeo.tiles import LETTERS, MAX_PLAYERS, MIN_PLAYERS, RACK_SIZE, SCARAB, rack_value, sort_rack

#: How many alternatives are listed per turn, best first.
TOP = 5
#: In equity points. A champion's turn scores about 40 on average (954 points a game over some
#: 24 turns, docs/scarabeo-ai.md), and its leave model moves a turn's value by ±15. Within 3 points
#: is noise of the leave model (a different but equally fine play: good); 3-10 costs a few points
#: of score or a weaker rack (inaccuracy); 10-25 about half an average turn (mistake); more than
#: 25 throws away most of a turn, a missed bonus play or a wasted scarab (blunder).
THRESHOLDS = Thresholds("equity points", best=0.0, good=3.0, inaccuracy=10.0, mistake=25.0)
#: The exact endgame's budget for one turn, in the grandmaster's work units (``sim``: about 60 ms
#: of CPython, 100 ms in the page, each). 30 prove an endgame of about 3-4 tiles a side with its
#: alternatives; the first turns after the bag empties (up to 8 tiles a side) seldom are, and
#: keep the champion's figures, marked as not proved. A game has some 4-6 such turns: at most
#: about 10 s more in the page, whose target for a whole game is 30 s (docs/review.md).
ENDGAME_WORK = 30.0
#: The most a turn may be given (about 10 minutes of CPython): a bound for the command line.
MAX_ENDGAME_WORK = 10_000.0


def analyse_steps(record: GameRecord, lexicon: Any, *, viewer: int | None = None,
                  finished: bool | None = None, top: int = TOP,
                  progress: Progress | None = None,
                  endgame_work: float = ENDGAME_WORK) -> Generator[None, None, Analysis]:
    """The analysis of ``record`` in slices (yields every few ms; returns the ``Analysis``).

    ``lexicon`` is the ``lexicon.Lexicon`` the game was checked with (the move generator needs its
    automaton). ``finished`` defaults to whether the record ends the game; ``viewer`` is the seat
    whose own moves may be analysed while it is in progress (``may_analyse``). Raises
    ``RecordError`` (``record.ReplayError``) when the record does not replay."""
    if top < 1:
        raise ValueError(f"top must be at least 1, not {top}")
    if not 0 <= endgame_work <= MAX_ENDGAME_WORK:
        raise ValueError(f"endgame_work must be 0-{MAX_ENDGAME_WORK:g} work units, not {endgame_work}")
    ai.generator_for(lexicon)  # refuses a word list without automaton before any work
    end = replay_record(record, lexicon)
    if viewer is not None and not 0 <= viewer < end.num_players:
        raise ValueError(f"viewer must be a seat 0-{end.num_players - 1}, not {viewer}")
    done = end.is_over() if finished is None else finished
    state = ScarabeoState.from_options(record.options, record.seed, lexicon)
    progress = progress if progress is not None else Progress()
    progress.total, progress.done = len(record.moves), 0
    out: list[MoveAnalysis] = []
    progress.moves = out  # shared: each move's analysis is readable as soon as it is made
    for ply, text in enumerate(record.moves, start=1):
        move = state.parse_move(text)
        turn = isinstance(move, (Play, Pass, Exchange))
        seat: int | None = state.turn if turn else None
        reason = "dispute" if seat is None else may_analyse(seat, viewer, done)
        found: TurnValues | None = None
        if reason is None and seat is not None:
            found = yield from turn_steps(state, move, lexicon, top, endgame_work)
        state.push(move)
        scores = tuple(state.scores)
        if found is None:
            out.append(MoveAnalysis(ply, seat, text, scores, reason=reason))
        else:
            loss = found.loss
            out.append(MoveAnalysis(ply, seat, text, scores, best=found.best, played=found.played,
                                    loss=loss, klass=THRESHOLDS.classify(loss), exact=found.exact))
        progress.done = ply
        yield
    return Analysis(
        game="scarabeo", record=record_digest(record), players=state.num_players, viewer=viewer,
        finished=done, engine={"level": "champion", "top": top, "endgame_work": endgame_work},
        thresholds=THRESHOLDS,
        moves=tuple(out), summary=summarise(out, state.num_players))


def analyse(record: GameRecord, lexicon: Any, *, viewer: int | None = None,
            finished: bool | None = None, top: int = TOP,
            endgame_work: float = ENDGAME_WORK) -> Analysis:
    """``analyse_steps`` run to the end (blocking): the command line's and the tests' entry."""
    return run(analyse_steps(record, lexicon, viewer=viewer, finished=finished, top=top,
                             endgame_work=endgame_work))


# --- one turn ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class TurnValues:
    """One turn valued: the best alternatives (best first) and the turn played, on one scale;
    ``exact``: the endgame solver proved them (True), was cut by its budget and the champion's
    figures stand (False), or was not asked (None: the bag not empty, more than two players, or
    no budget)."""

    best: tuple[Alternative, ...]
    played: Alternative
    exact: bool | None = None

    @property
    def loss(self) -> float:
        return rounded(max(0.0, self.best[0].value - self.played.value))


def turn_steps(state: ScarabeoState, move: Move, lexicon: Any, top: int = TOP,
               endgame_work: float = ENDGAME_WORK) -> Generator[None, None, TurnValues]:
    """The turn ``move`` of the player to move in ``state`` against the best, in slices; the
    state is left as it was. With the bag empty and two players, first the exact endgame
    (``_exact``) within ``endgame_work`` work units, then, if it did not prove both the best
    value and the turn's, the champion's one-reply look (``_champion``)."""
    ranked: list[ai.Choice] = []
    # ``rank_plays`` is the champion's own ranking: the same plays, leaves and end game it plays by.
    yield from ai.rank_plays(state, ai.LEVELS["champion"], lexicon, ranked, top=top)
    asked = not state.bag and state.num_players == 2 and endgame_work > 0
    if asked:
        found = yield from _exact(state, move, ranked, top, lexicon, endgame_work)
        if found is not None:
            return TurnValues(*found, exact=True)
    best, played = yield from _champion(state, move, ranked, top, lexicon)
    return TurnValues(best, played, exact=False if asked else None)


def _champion(state: ScarabeoState, move: Move, ranked: list[ai.Choice], top: int, lexicon: Any,
              ) -> Generator[None, None, tuple[tuple[Alternative, ...], Alternative]]:
    """(the best alternatives, best first; the turn played), valued alike by the champion."""
    endgame = (not state.bag and state.num_players == 2
               and any(isinstance(c.move, Play) for c in ranked))
    weight = _leave_weight(state)
    played = _choice(state, move, weight)
    if endgame:
        # The champion values only its best few candidates by the reply; the rest of its list
        # keeps the plain score. Every alternative shown and the turn played get the reply here,
        # plus the spread before the turn: an estimate of the final spread, the scale of the
        # exact endgame's values (the loss is the same either way).
        spread = _spread(state)
        valued: list[ai.Choice] = []
        for c in ranked[:top]:
            v = yield from _endgame_value(state, c, lexicon)
            valued.append(ai.Choice(c.move, c.score, v + spread, c.leave))
        ranked = sorted(valued, key=lambda c: (-c.equity, -c.score, move_text(c.move)))
        v = yield from _endgame_value(state, played, lexicon)
        played = ai.Choice(played.move, played.score, v + spread, played.leave)
    return _listed(state, ranked, played, top)


def _listed(state: ScarabeoState, ranked: list[ai.Choice], played: ai.Choice, top: int,
            ) -> tuple[tuple[Alternative, ...], Alternative]:
    """The ``top`` best of ``ranked`` (sorted, best first) and the turn played as alternatives;
    the turn played takes the figure of the alternative that is the same move."""
    key = _key(state, played.move)
    for c in ranked:
        if _key(state, c.move) == key:
            played = ai.Choice(played.move, c.score, c.equity, c.leave)  # the same figure exactly
    best = [_alternative(state, c) for c in ranked[:top]]
    mine = _alternative(state, played)
    if not best or mine.value > best[0].value:
        # Only the champion's end game can get here (its candidates are the best few by score):
        # the turn played is then at least as good as anything the champion looked at.
        best = [mine, *best][:top]
    return tuple(best), mine


def _spread(state: ScarabeoState) -> int:
    """The player to move's score minus the other's (two players)."""
    return state.scores[state.turn] - state.scores[1 - state.turn]


def _exact(state: ScarabeoState, move: Move, ranked: list[ai.Choice], top: int, lexicon: Any,
           work: float) -> Generator[None, None, tuple[tuple[Alternative, ...], Alternative] | None]:
    """The exact endgame (bag empty, two players) within ``work`` units: the solver's best move
    and the turn played valued by the final spread under best play on both sides after them;
    None unless both are proved. Then the champion's candidates (``ranked``) are valued the same
    way with what is left of the budget, and those proved are listed beside the best.

    The order of the work is the order of need: the root search proves the best value, the turn
    played's own search gives the loss; the other alternatives only fill the list."""
    try:
        solver = endgame.EndgameSolver(state, ai.generator_for(lexicon))
    except endgame.EndgameError:
        return None  # a dispute pending, the game over: nothing exact to say
    floor = yield from solver.proof_floor()
    if floor * sim.MOVEGEN_WORK >= work:
        return None  # more positions to generate than the budget pays for: no proof, no spending
    search = solver.search
    search.should_stop = lambda: sim.counted_work(search) >= work
    sol = yield from solver.run()
    if not sol.complete or not sol.line:
        return None
    played_score = state.preview(move).score if isinstance(move, Play) else 0
    pair = yield from solver.values([(sol.line[0].move, sol.line[0].score), (move, played_score)])
    if not all(v.complete for v in pair):
        return None
    seen = {_key(state, v.move) for v in pair}
    others: list[tuple[Move, int]] = []
    for c in ranked:
        k = _key(state, c.move)
        if len(others) < top and k not in seen and not isinstance(c.move, Exchange):
            seen.add(k)
            others.append((c.move, c.score))
    rest = yield from solver.values(others)
    # The turn played is listed among the best when it is one of them, as the champion's are.
    mine = [pair[1]] if _key(state, pair[1].move) != _key(state, pair[0].move) else []
    proved = [pair[0], *mine] + [v for v in rest if v.complete]
    choices = [_exact_choice(state, v) for v in proved]
    choices.sort(key=lambda c: (-c.equity, -c.score, move_text(c.move)))
    return _listed(state, choices, _exact_choice(state, pair[1]), top)


def _exact_choice(state: ScarabeoState, v: endgame.MoveValue) -> ai.Choice:
    """A move valued by the solver, described as ``_choice`` describes it (an exchange leaves
    nothing: its rack goes back to the bag)."""
    _, left, _ = _after(state, v.move)
    leave = "" if isinstance(v.move, Exchange) else sort_rack(left)
    return ai.Choice(v.move, v.score, float(v.value), leave)


def _leave_weight(state: ScarabeoState) -> float:
    bag = len(state.bag)
    full = ai.LEVELS["champion"].leave_weight
    return full if bag >= RACK_SIZE else full * ai.NEAR_END_LEAVE if bag > 0 else 0.0


def _after(state: ScarabeoState, move: Move) -> tuple[list[str], list[str], int]:
    """(board after the turn, rack left before drawing, tiles placed) without touching ``state``."""
    board = state.board[:]
    rack = list(state.racks[state.turn])
    for sq in move.swaps if isinstance(move, (Play, Pass, Exchange)) else ():
        rack.remove(board[sq].upper())
        rack.append(SCARAB)
        board[sq] = board[sq].upper()
    placed = 0
    if isinstance(move, Play):
        for sq, ch in resolve_play(board, move):
            board[sq] = ch
            rack.remove(SCARAB if ch.islower() else ch)
            placed += 1
    return board, rack, placed


def _choice(state: ScarabeoState, move: Move, weight: float) -> ai.Choice:
    """The turn played as the champion would value it (no end game: see ``_endgame_value``)."""
    _, left, _ = _after(state, move)
    leave = sort_rack(left)
    if isinstance(move, Play):
        score = state.preview(move).score
        equity = score + weight * leaves.value(leave)
        if ai.SCARAB_EXPOSURE > 0 and state.bag:  # as ``ai.rank_plays``: scarabs put down or taken
            p = (score, move.start, move.across, move.word, tuple(move.swaps))
            equity -= ai.SCARAB_EXPOSURE * ai.scarab_exposure(state.board, p, ai.held_chances(state))
        return ai.Choice(move, score, equity, leave)
    if isinstance(move, Exchange):
        return ai.Choice(move, 0, ai.EXCHANGE_EQUITY, "")
    return ai.Choice(move, 0, weight * leaves.value(leave) - ai.PASS_COST, leave)


def _endgame_value(state: ScarabeoState, c: ai.Choice, lexicon: Any) -> Generator[None, None, float]:
    """The champion's end-game value of a turn (bag empty, two players): as ``ai._endgame``."""
    board, left, _ = _after(state, c.move)
    opp_rack = state.racks[1 - state.turn]
    if not left:
        return float(c.score + 2 * rack_value(opp_rack))
    replies: list[GenPlay] = []
    yield from ai.generator_for(lexicon).iter_plays(board, opp_rack, replies, False, swaps=False)
    left_bonus = 2 * rack_value(left)
    reply = 0
    for i in range(0, len(replies), ai.SLICE):
        for r in replies[i:i + ai.SLICE]:
            gain = r[0] + (left_bonus if tiles_placed(board, r) == len(opp_rack) else 0)
            if gain > reply:
                reply = gain
        yield
    return float(c.score - reply - rack_value(left))


def _key(state: ScarabeoState, move: Move) -> tuple[Any, ...]:
    """What a turn does, whatever its notation: a lone tile written down or across is one play."""
    if isinstance(move, Play):
        board = state.board[:]
        for sq in move.swaps:
            board[sq] = board[sq].upper()
        return ("play", frozenset(resolve_play(board, move)), tuple(sorted(move.swaps)))
    if isinstance(move, Exchange):
        return ("exchange", sort_rack(move.tiles), tuple(sorted(move.swaps)))
    return ("pass", tuple(sorted(move.swaps)) if isinstance(move, Pass) else ())


def _alternative(state: ScarabeoState, c: ai.Choice) -> Alternative:
    shown = ai.describe(state, c)
    detail = {"score": c.score, "leave": c.leave, "words": shown["words"],
              "placements": shown["placements"], "swaps": shown["swaps"]}
    return Alternative(move_text(c.move), rounded(c.equity), detail)


# --- an analysis from outside -----------------------------------------------------------------
#: A champion's game scores about 950 points a seat (docs/scarabeo-ai.md) and the best single
#: plays a few hundred: no seat's score nor a turn's equity comes near this, even over a
#: 2 000-move record.
_MAX_POINTS = 100_000
_TILES = LETTERS + SCARAB
_WORD_CHARS = LETTERS + LETTERS.lower()
#: Words one play forms (the main word and one per tile placed crosswise), with room to spare.
_MAX_WORDS = 2 * RACK_SIZE
_MAX_WORD = 17  # the board's side


def _square_name(text: str) -> bool:
    try:
        return square_name(parse_square(text)) == text
    except ValueError:
        return False


def _placements(d: Any) -> list[list[str]]:
    v = d.get("placements")
    if not isinstance(v, list) or len(v) > RACK_SIZE:
        raise AnalysisError(f"placements must be a list of at most {RACK_SIZE} tiles")
    for pair in v:
        if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str)
                and _square_name(pair[0]) and isinstance(pair[1], str) and len(pair[1]) == 1
                and pair[1] in _WORD_CHARS):
            raise AnalysisError("placements must be [square, letter] pairs")
    return [list(p) for p in v]


class ScarabeoRules(AnalysisRules):
    game = "scarabeo"
    min_players, max_players = MIN_PLAYERS, MAX_PLAYERS
    max_score = _MAX_POINTS
    max_value = float(_MAX_POINTS)
    disputes = True

    def kind(self, text: str) -> str:
        return "turn" if isinstance(parse_move(text), (Play, Pass, Exchange)) else "dispute"

    def detail(self, d: Any, move: str) -> dict[str, Any]:
        return {"score": field_int(d, "score", 0, _MAX_POINTS),
                "leave": field_text(d, "leave", RACK_SIZE, _TILES),
                "words": field_texts(d, "words", _MAX_WORDS,
                                     lambda w: 0 < len(w) <= _MAX_WORD and all(c in _WORD_CHARS for c in w)),
                "placements": _placements(d),
                "swaps": field_texts(d, "swaps", RACK_SIZE, _square_name)}

    def start(self, record: GameRecord, lexicon: Any) -> ScarabeoState:
        if record.game != ScarabeoState.GAME:
            raise RecordError(f"record is for {record.game!r}, not 'scarabeo'")
        return ScarabeoState.from_options(record.options, record.seed, lexicon)

    def mover(self, state: ScarabeoState, text: str) -> int | None:
        return state.turn if isinstance(state.parse_move(text), (Play, Pass, Exchange)) else None

    def alternative(self, state: ScarabeoState, alt: Alternative) -> None:
        move = state.parse_move(alt.move)
        if not isinstance(move, (Play, Pass, Exchange)):
            raise AnalysisError("a challenge or vote is not a turn to value")
        state.check(move)
        shown = ai.describe(state, _choice(state, move, 0.0))
        for key in ("score", "leave", "words", "placements", "swaps"):
            if alt.detail[key] != shown[key]:
                raise AnalysisError(f"its {key} is {shown[key]!r}, not what is listed")

    def same_move(self, state: ScarabeoState, played: str, text: str) -> bool:
        return _key(state, state.parse_move(played)) == _key(state, state.parse_move(text))

    def push(self, state: ScarabeoState, text: str) -> tuple[int, ...]:
        state.push(state.parse_move(text))
        return tuple(state.scores)


RULES = ScarabeoRules()

__all__ = ["ENDGAME_WORK", "RULES", "THRESHOLDS", "TOP", "TurnValues", "analyse", "analyse_steps",
           "turn_steps", "RecordError"]
