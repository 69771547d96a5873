"""Move-by-move analysis of a game record, shared by the three games: the types, the classes, the
hidden-information rule and the versioned JSON the page caches in a save.

Each game's ``analysis`` module replays a record and, for every move it may analyse, asks its
engine at the strongest level for the best alternatives, values the move actually played on the
same scale, and classes the loss with that game's ``Thresholds``. The work is a generator that
yields every few milliseconds (the browser's ``run_in_slices`` contract) and returns an
``Analysis``; ``run`` drives one to the end for the command line and the tests.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, field
from typing import Any, Generator, Mapping, Sequence, TypeGuard, TypeVar

from game.core import safejson
from game.core.record import GameRecord

FORMAT = "scarab-analysis"
VERSION = 1
#: Best first. A move's class is the first whose threshold its loss does not exceed.
CLASSES = ("best", "good", "inaccuracy", "mistake", "blunder")
#: Why a move is listed without analysis.
REASONS = {
    "hidden": "the game is in progress and this is another player's move",
    "no-viewer": "the game is in progress and nobody's own moves were asked for",
    "dispute": "a challenge, acceptance or vote is the table's decision, not a choice to value",
}
#: Values are rounded to this many decimals when the analysis is made, so the JSON, the page and
#: the command line show the same numbers and a round trip is exact.
DECIMALS = 2
#: Analyses from outside (a save) larger than this are refused unread (a 2 000-move Scarabeo game
#: with five alternatives each is about 1.5 MB).
MAX_ANALYSIS_BYTES = 4_000_000

T = TypeVar("T")


class AnalysisError(ValueError):
    """An analysis JSON that is malformed or of an unknown version; ``str()`` says what is wrong."""


@dataclass(frozen=True)
class Thresholds:
    """Upper bounds of the loss, in ``unit``, for each class but the last (blunder)."""

    unit: str
    best: float
    good: float
    inaccuracy: float
    mistake: float

    def classify(self, loss: float) -> str:
        for name, bound in zip(CLASSES, (self.best, self.good, self.inaccuracy, self.mistake)):
            if loss <= bound:
                return name
        return "blunder"

    def to_json(self) -> dict[str, Any]:
        return {"unit": self.unit, "best": self.best, "good": self.good,
                "inaccuracy": self.inaccuracy, "mistake": self.mistake}

    @classmethod
    def from_json(cls, data: Any) -> "Thresholds":
        d = _obj(data, "thresholds")
        return cls(_str(d, "unit"), *(_num(d, k) for k in ("best", "good", "inaccuracy", "mistake")))


def may_analyse(mover: int, viewer: int | None, finished: bool) -> str | None:
    """None when ``viewer`` may see the analysis of ``mover``'s move, else the reason (a key of
    ``REASONS``). Once the game is over everything may be analysed; while it is in progress only
    the viewer's own moves, because an analysis shows what the mover held (Scarabeo's rack) and
    what the engine would have done, which would be help during play."""
    if finished:
        return None
    if viewer is None:
        return "no-viewer"
    return None if mover == viewer else "hidden"


def rounded(value: float) -> float:
    v = round(float(value), DECIMALS)
    return 0.0 if v == 0 else v  # no "-0.0" in the JSON


@dataclass(frozen=True)
class Alternative:
    """A move with its value on the game's scale; ``detail`` is game-specific and plain JSON."""

    move: str
    value: float
    detail: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"move": self.move, "value": self.value, **self.detail}

    @classmethod
    def from_json(cls, data: Any) -> "Alternative":
        d = _obj(data, "alternative")
        rest = {k: v for k, v in d.items() if k not in ("move", "value")}
        return cls(_str(d, "move"), _num(d, "value"), rest)


@dataclass(frozen=True)
class MoveAnalysis:
    """One move of the record: who played it, the scores after it, and (when allowed) the
    engine's alternatives, best first, the value of the move played, its loss and class."""

    ply: int  # 1-based, the move's place in the record
    seat: int | None  # the mover (None for a dispute decided by the table)
    move: str
    scores: tuple[int, ...]  # every seat's score after the move (public in all three games)
    reason: str | None = None  # why the move is not analysed (a key of REASONS), None if it is
    best: tuple[Alternative, ...] = ()
    played: Alternative | None = None
    loss: float | None = None
    klass: str | None = None
    forced: bool = False  # the only legal move: best by definition
    #: Per seat, the engine's expected final margin after the move (Thot), else None.
    evaluation: tuple[float | None, ...] | None = None

    @property
    def analysed(self) -> bool:
        return self.reason is None

    def to_json(self) -> dict[str, Any]:
        return {
            "ply": self.ply,
            "seat": self.seat,
            "move": self.move,
            "scores": list(self.scores),
            "analysed": self.analysed,
            "reason": self.reason,
            "why": REASONS.get(self.reason) if self.reason else None,
            "best": [a.to_json() for a in self.best],
            "played": self.played.to_json() if self.played else None,
            "loss": self.loss,
            "class": self.klass,
            "forced": self.forced,
            "evaluation": list(self.evaluation) if self.evaluation is not None else None,
        }

    @classmethod
    def from_json(cls, data: Any) -> "MoveAnalysis":
        d = _obj(data, "move")
        reason = _opt_str(d, "reason")
        if reason is not None and reason not in REASONS:
            raise AnalysisError(f"unknown reason {reason!r}")
        klass = _opt_str(d, "class")
        if klass is not None and klass not in CLASSES:
            raise AnalysisError(f"unknown class {klass!r}")
        best = d.get("best")
        if not isinstance(best, list):
            raise AnalysisError("move best must be a list")
        played = d.get("played")
        ev = d.get("evaluation")
        if ev is not None and not (isinstance(ev, list) and all(x is None or _is_num(x) for x in ev)):
            raise AnalysisError("move evaluation must be a list of numbers or nulls")
        seat = _opt_int(d, "seat")
        return cls(
            ply=_int(d, "ply"), seat=seat, move=_str(d, "move"), scores=tuple(_ints(d, "scores")),
            reason=reason, best=tuple(Alternative.from_json(a) for a in best),
            played=Alternative.from_json(played) if played is not None else None,
            loss=_opt_num(d, "loss"), klass=klass, forced=_bool(d, "forced"),
            evaluation=tuple(None if x is None else float(x) for x in ev) if ev is not None else None,
        )


@dataclass(frozen=True)
class PlayerSummary:
    seat: int
    analysed: int  # moves of this seat that were analysed
    mean_loss: float | None
    classes: dict[str, int]

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "analysed": self.analysed, "mean_loss": self.mean_loss,
                "classes": dict(self.classes)}

    @classmethod
    def from_json(cls, data: Any) -> "PlayerSummary":
        d = _obj(data, "summary")
        classes = _obj(d.get("classes"), "summary classes")
        if set(classes) != set(CLASSES) or not all(_is_int(v) for v in classes.values()):
            raise AnalysisError(f"summary classes must count each of {', '.join(CLASSES)}")
        return cls(_int(d, "seat"), _int(d, "analysed"), _opt_num(d, "mean_loss"),
                   {k: int(classes[k]) for k in CLASSES})


def summarise(moves: Sequence[MoveAnalysis], players: int) -> tuple[PlayerSummary, ...]:
    out = []
    for seat in range(players):
        mine = [m for m in moves if m.seat == seat and m.analysed and m.loss is not None]
        counts = {k: sum(1 for m in mine if m.klass == k) for k in CLASSES}
        mean = rounded(sum(m.loss or 0.0 for m in mine) / len(mine)) if mine else None
        out.append(PlayerSummary(seat, len(mine), mean, counts))
    return tuple(out)


def record_digest(record: GameRecord) -> str:
    """A fingerprint of what the analysis depends on (game, options, seed, moves), so a cached
    analysis can be checked against the save's record: a move more and it no longer matches."""
    body = {"game": record.game, "options": record.options, "seed": record.seed,
            "moves": record.moves}
    text = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Analysis:
    game: str
    record: str  # record_digest of the record analysed
    players: int
    viewer: int | None
    finished: bool
    engine: dict[str, Any]  # the engine settings the values come from
    thresholds: Thresholds
    moves: tuple[MoveAnalysis, ...]
    summary: tuple[PlayerSummary, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "record": self.record,
            "players": self.players,
            "viewer": self.viewer,
            "finished": self.finished,
            "engine": dict(self.engine),
            "thresholds": self.thresholds.to_json(),
            "moves": [m.to_json() for m in self.moves],
            "summary": [s.to_json() for s in self.summary],
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, data: Any) -> "Analysis":
        """Read back ``to_json``'s output (e.g. from a save); keys it does not know are ignored,
        anything missing, of the wrong type or of a newer version is an ``AnalysisError``."""
        d = _obj(data, "analysis")
        if d.get("format") != FORMAT:
            raise AnalysisError(f"not a Scarab analysis (format is {d.get('format')!r})")
        version = d.get("version")
        if not _is_int(version) or version < 1:
            raise AnalysisError(f"analysis version {version!r} is not a positive integer")
        if version > VERSION:
            raise AnalysisError(f"analysis version {version} is newer than this program understands ({VERSION})")
        moves, summary = d.get("moves"), d.get("summary")
        if not isinstance(moves, list) or not isinstance(summary, list):
            raise AnalysisError("analysis moves and summary must be lists")
        return cls(
            game=_str(d, "game"), record=_str(d, "record"), players=_int(d, "players"),
            viewer=_opt_int(d, "viewer"), finished=_bool(d, "finished"),
            engine=dict(_obj(d.get("engine"), "engine")),
            thresholds=Thresholds.from_json(d.get("thresholds")),
            moves=tuple(MoveAnalysis.from_json(m) for m in moves),
            summary=tuple(PlayerSummary.from_json(s) for s in summary),
        )

    @classmethod
    def loads(cls, text: str | bytes) -> "Analysis":
        try:
            data = safejson.loads(text, max_bytes=MAX_ANALYSIS_BYTES)
        except safejson.JSONRefused as err:
            raise AnalysisError(f"analysis refused: {err}") from None
        return cls.from_json(data)


@dataclass
class Progress:
    """Filled in by an analysis generator as it goes, for a progress bar: ``done`` of ``total``
    moves of the record handled."""

    done: int = 0
    total: int = 0

    @property
    def fraction(self) -> float:
        return 1.0 if self.total <= 0 else min(1.0, self.done / self.total)


def run(steps: Generator[None, None, T]) -> T:
    """Drive an analysis generator to the end (blocking) and return its result."""
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            result: T = stop.value
            return result


# --- reading outside JSON ----------------------------------------------------------------------
def _obj(data: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise AnalysisError(f"{what} must be a JSON object")
    return data


def _is_int(x: object) -> TypeGuard[int]:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_num(x: object) -> TypeGuard[int | float]:
    return (_is_int(x) or isinstance(x, float)) and math.isfinite(x)


def _int(d: Mapping[str, Any], key: str) -> int:
    v = d.get(key)
    if not _is_int(v):
        raise AnalysisError(f"{key} must be an integer, not {v!r}")
    return int(v)


def _ints(d: Mapping[str, Any], key: str) -> list[int]:
    v = d.get(key)
    if not isinstance(v, list) or not all(_is_int(x) for x in v):
        raise AnalysisError(f"{key} must be a list of integers")
    return [int(x) for x in v]


def _num(d: Mapping[str, Any], key: str) -> float:
    v = d.get(key)
    if not _is_num(v):
        raise AnalysisError(f"{key} must be a number, not {v!r}")
    return float(v)


def _opt_num(d: Mapping[str, Any], key: str) -> float | None:
    return None if d.get(key) is None else _num(d, key)


def _str(d: Mapping[str, Any], key: str) -> str:
    v = d.get(key)
    if not isinstance(v, str):
        raise AnalysisError(f"{key} must be text, not {v!r}")
    return v


def _bool(d: Mapping[str, Any], key: str) -> bool:
    v = d.get(key)
    if not isinstance(v, bool):
        raise AnalysisError(f"{key} must be true or false, not {v!r}")
    return v


def _opt_int(d: Mapping[str, Any], key: str) -> int | None:
    return None if d.get(key) is None else _int(d, key)


def _opt_str(d: Mapping[str, Any], key: str) -> str | None:
    v = d.get(key)
    if v is not None and not isinstance(v, str):
        raise AnalysisError(f"{key} must be str, not {v!r}")
    return v
