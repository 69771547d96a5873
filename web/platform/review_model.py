"""The review page's logic, without the DOM (tested in CPython): what may be analysed for whom, the
analysis cached in a save, stepping through the moves, and the advantage chart's one line and scale.

The page (``web/pages/review.py``) draws; the engines (``game/<game>/analysis.py``) analyse; this module
decides nothing about a game's rules: it reads ``Analysis`` objects and the record.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Generator, Mapping, MutableMapping, Sequence

from game.core.analysis import Analysis, AnalysisError, MoveAnalysis, Progress, Thresholds, record_digest
from game.core.record import GameRecord

#: The record meta key the analysis is cached under (``web.platform.session.LOCAL_META``: never in a link).
CACHE_KEY = "analysis"
#: A horizontal swipe of at least this many CSS px, clearly more sideways than up or down, steps.
SWIPE_PX = 40


@dataclass(frozen=True)
class Scope:
    """What the analysis may cover for the person looking: ``finished`` and ``viewer`` are passed to
    the engine's ``analyse_steps`` (``game.core.analysis.may_analyse`` applies them per move);
    ``note`` is a catalogue key saying what is left out and why (None: everything is analysed)."""

    finished: bool
    viewer: int | None
    note: str | None = None


def analysis_scope(humans: Sequence[bool], over: bool, replay_only: bool) -> Scope:
    """The hidden-information rule of the page. ``humans[i]`` says whether seat ``i`` is a person.

    - The game is over: everything.
    - A game shared to be watched (a Scarabeo replay, its racks private): nothing a rack would reveal
      (``finished=False, viewer=None``: no move is analysed; the scores still make the chart).
    - In progress with one person against the computer: that person's own moves.
    - In progress with several people at one device (or none): nobody's, until it is over — the
      device cannot know who is looking, and an analysis of a move shows what its mover held and
      what the engine would have done."""
    if over:
        return Scope(True, None)
    if replay_only:
        return Scope(False, None, "review.scope.replay")
    people = [i for i, person in enumerate(humans) if person]
    if len(people) == 1:
        return Scope(False, people[0], "review.scope.own")
    return Scope(False, None, "review.scope.progress")


@dataclass(frozen=True)
class Reading:
    """What the review may show of the analysis kept with a game: ``analysis`` (None: none to show),
    or ``refused``, the engine's reason an analysis that is there cannot be opened (damaged,
    tampered with, not of this game's moves as its engine replays them)."""

    analysis: Analysis | None = None
    refused: str | None = None


def read(meta: Mapping[str, Any], record: GameRecord, scope: Scope, lexicon: Any = None) -> Reading:
    """The one door by which a stored or received analysis reaches the page: read and checked
    field by field, and against the record's replay (``Analysis.from_json`` with the record;
    ``lexicon``: Scarabeo's word list for that replay). An analysis of older moves or made under
    another rule (finished, viewer) is simply not shown (the page offers to analyse again); one that
    does not pass the engine's checks is refused with its reason. Never raises."""
    data = meta.get(CACHE_KEY)
    if data is None:
        return Reading()
    try:
        analysis = Analysis.from_json(data)
        if (analysis.game != record.game or analysis.record != record_digest(record)
                or analysis.finished != scope.finished or analysis.viewer != scope.viewer
                or len(analysis.moves) != len(record.moves)):
            return Reading()  # stale: the game went on, or the rule changed
        return Reading(Analysis.from_json(data, record, lexicon))
    except AnalysisError as err:
        return Reading(refused=one_line_reason(err))
    except Exception as err:  # whatever else a check of outside data raises is a refusal too
        return Reading(refused=one_line_reason(err))


def one_line_reason(err: BaseException) -> str:
    """An error as one line of at most 300 characters, for the page."""
    text = " ".join((str(err) or type(err).__name__).split())
    return text if len(text) <= 300 else text[:297] + "…"


def cached(meta: Mapping[str, Any], record: GameRecord, scope: Scope, lexicon: Any = None) -> Analysis | None:
    """The analysis kept in the save, if it is of this very record and was made under the same rule
    and passes the engine's checks (``read``); anything else is None."""
    return read(meta, record, scope, lexicon).analysis


def remember(meta: MutableMapping[str, Any], analysis: Analysis) -> None:
    meta[CACHE_KEY] = analysis.to_json()


def analyse_steps(record: GameRecord, scope: Scope, progress: Progress,
                  lexicon: Any = None) -> Generator[None, None, Analysis]:
    """The game's own analysis generator (``run_in_slices`` drives it in the page)."""
    if record.game == "thot":
        from game.thot import analysis as thot

        return thot.analyse_steps(record, viewer=scope.viewer, finished=scope.finished, progress=progress)
    if record.game == "scarabya":
        from game.scarabya import analysis as scarabya

        return scarabya.analyse_steps(record, viewer=scope.viewer, finished=scope.finished, progress=progress)
    if record.game == "scarabeo":
        from game.scarabeo import analysis as scarabeo

        if lexicon is None:
            raise ValueError("the lexicon is not loaded")
        return scarabeo.analyse_steps(record, lexicon, viewer=scope.viewer, finished=scope.finished,
                                      progress=progress)
    raise ValueError(f"no analysis for {record.game!r}")


# --- stepping ----------------------------------------------------------------------------------
def clamp(step: int, total: int) -> int:
    """A step is a position: 0 the start, ``total`` after the last move."""
    return max(0, min(total, step))


def step_for_key(key: str, step: int, total: int) -> int | None:
    """The step a key goes to (← → one move, Home / End the ends), or None for another key."""
    target = {"ArrowLeft": step - 1, "ArrowRight": step + 1, "Home": 0, "End": total}.get(key)
    return None if target is None else clamp(target, total)


def step_for_swipe(dx: float, dy: float, step: int, total: int) -> int | None:
    """A finger drawn to the left shows the next move, to the right the previous one."""
    if abs(dx) < SWIPE_PX or abs(dx) < 1.5 * abs(dy):
        return None
    return clamp(step + (1 if dx < 0 else -1), total)


def move_in(moves: Sequence[MoveAnalysis], step: int) -> MoveAnalysis | None:
    """The move that led to ``step`` among ``moves``, the first moves of the record analysed so far
    (an analysis still running has fewer than the record): None at the start or not analysed yet."""
    return moves[step - 1] if 1 <= step <= len(moves) else None


def thresholds(game: str, state: Any = None) -> Thresholds:
    """The game's classes and unit (Scarabya's by its ``state``: classic or the Ruins), for a move
    analysed while the rest of the analysis runs."""
    if game == "thot":
        from game.thot import analysis as thot

        return thot.THRESHOLDS
    if game == "scarabya":
        from game.scarabya import analysis as scarabya

        return scarabya.thresholds_for(state)
    from game.scarabeo import analysis as scarabeo

    return scarabeo.THRESHOLDS


# --- the advantage chart -----------------------------------------------------------------------
def public_series(moves: Sequence[Any], players: int) -> list[list[float | None]]:
    """The scores after each move of a watched game, from its public record's moves (each gives
    the seat it counts for and that seat's total after it): the chart of a game nobody analyses."""
    scores = [0.0] * players
    out: list[list[float | None]] = [[0.0] for _ in range(players)]
    for m in moves:
        if 0 <= m.seat < players:
            scores[m.seat] = float(m.total)
        for seat in range(players):
            out[seat].append(scores[seat])
    return out


#: The classes marked on the advantage line, as lichess marks its inaccuracies, mistakes and blunders.
MARKED = ("inaccuracy", "mistake", "blunder")


def side_of(humans: Sequence[bool], viewer: int | None) -> int:
    """The seat whose advantage the chart's one line follows: the seat the analysis is for, else the
    first person at the table, else the first seat."""
    if viewer is not None:
        return viewer
    return next((i for i, person in enumerate(humans) if person), 0)


def lead(scores: Sequence[float | None], side: int) -> float | None:
    """``side``'s lead over the best of the others (its own score in a game of one)."""
    mine = scores[side] if 0 <= side < len(scores) else None
    if mine is None:
        return None
    others = [v for i, v in enumerate(scores) if i != side and v is not None]
    return mine - max(others) if others else mine


def advantage(moves: Sequence[MoveAnalysis], game: str, side: int, total: int) -> list[float | None]:
    """The chart's one line: a value per position (index 0 the start, ``total + 1`` of them), None
    where it is not known yet (the analysis has not reached it) or not given (Thot: a move the
    engine does not speak for). Thot: the engine's expected final margin for ``side`` after each move;
    Scarabeo, Scarabya: ``side``'s score lead over the best of the others. Above 0, ``side`` leads."""
    out: list[float | None] = [0.0] + [None] * total
    for m in moves[:total]:
        if game == "thot":
            ev = m.evaluation
            out[m.ply] = ev[side] if ev is not None and side < len(ev) else None
        else:
            out[m.ply] = lead([float(v) for v in m.scores], side)
    return out


def public_advantage(moves: Sequence[Any], players: int, side: int) -> list[float | None]:
    """The one line of a watched game (nobody analyses it): ``side``'s score lead after each move."""
    rows = public_series(moves, players)
    return [lead([row[k] for row in rows], side) for k in range(len(moves) + 1)]


def marks(moves: Sequence[MoveAnalysis]) -> list[tuple[int, str]]:
    """(ply, class) of each move analysed so far that the line marks (``MARKED``)."""
    return [(m.ply, m.klass) for m in moves if m.analysed and m.klass in MARKED]


def symmetric_range(values: Sequence[float | None]) -> tuple[float, float]:
    """(low, high) of an advantage axis: 0 in the middle, every value inside, never an empty span."""
    reach = float(math.ceil(max([1.0, *(abs(v) for v in values if v is not None)])))
    return -reach, reach


def points(values: list[float | None], low: float, high: float, left: float, right: float,
           top: float, bottom: float) -> list[tuple[int, float, float]]:
    """(step, x, y) of the known values of one series, in a box with y growing downwards."""
    steps = max(1, len(values) - 1)
    out = []
    for k, v in enumerate(values):
        if v is None:
            continue
        x = left + (right - left) * k / steps
        y = bottom - (bottom - top) * (v - low) / (high - low)
        out.append((k, x, y))
    return out


def step_at(x: float, left: float, right: float, total: int) -> int:
    """The step nearest a horizontal position on the chart (a click on it jumps there)."""
    if right <= left:
        return 0
    return clamp(round((x - left) / (right - left) * total), total)


def number(value: float | None, lang: str) -> str:
    """A value as the page prints it: two decimals at most, the language's decimal mark."""
    if value is None:
        return "—"
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    if text in ("-0", ""):
        text = "0"
    text = text.replace("-", "\u2212")
    return text.replace(".", ",") if lang == "it" else text
