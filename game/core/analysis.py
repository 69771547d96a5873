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
import importlib
import json
import math
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Generator, Iterable, Mapping, Sequence, TypeGuard, TypeVar

from game.core import safejson
from game.core.errors import RecordError
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
#: Bounds of an analysis from outside, whatever the game: far above anything an engine makes (a
#: Scarabeo record has at most 2 000 moves, a turn's notation some 30 characters, the engines list
#: at most a few dozen alternatives) and low enough that nothing read can swamp the page.
MAX_MOVES = 5_000
MAX_SEATS = 4
MAX_ALTERNATIVES = 64
MAX_MOVE_TEXT = 64
MAX_LABEL = 40  # a unit, a game's name, an engine setting's key or text
MAX_ENGINE_KEYS = 16
#: Integers are kept within what a JavaScript number (and a float) holds exactly.
MAX_SAFE_INT = 2**53 - 1
_DIGEST_PREFIX = "sha256:"
_GAMES = ("scarabeo", "thot", "scarabya")

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
        return cls(_str(d, "unit", MAX_LABEL), *(_num(d, k) for k in ("best", "good", "inaccuracy", "mistake")))


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
    def from_json(cls, data: Any, rules: "AnalysisRules") -> "Alternative":
        """Only the detail keys the game's ``rules`` know are kept, each checked."""
        d = _obj(data, "alternative")
        move = _str(d, "move", MAX_MOVE_TEXT)
        if _kind(rules, move) != "turn":
            raise AnalysisError(f"the alternative {_show(move)} is not a turn")
        return cls(move, _num(d, "value"), rules.detail(d, move))


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
    #: Whether an exact solver proved the values and the loss (Scarabeo's endgame, bag empty and
    #: two players: True proved; False the solver's budget ran out and the figures are the
    #: engine's estimate); None where no exact solver is used. In the JSON only when not None,
    #: so the other games' analyses are as they were.
    exact: bool | None = None

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
            **({"exact": self.exact} if self.exact is not None else {}),
        }

    @classmethod
    def from_json(cls, data: Any, rules: "AnalysisRules") -> "MoveAnalysis":
        d = _obj(data, "move")
        reason = _opt_str(d, "reason")
        if reason is not None and reason not in REASONS:
            raise AnalysisError(f"unknown reason {reason!r}")
        klass = _opt_str(d, "class")
        if klass is not None and klass not in CLASSES:
            raise AnalysisError(f"unknown class {klass!r}")
        best = d.get("best")
        if not isinstance(best, list) or len(best) > MAX_ALTERNATIVES:
            raise AnalysisError(f"move best must be a list of at most {MAX_ALTERNATIVES} alternatives")
        played = d.get("played")
        ev = d.get("evaluation")
        if ev is not None and not (isinstance(ev, list) and len(ev) <= MAX_SEATS
                                   and all(x is None or _is_num(x) for x in ev)):
            raise AnalysisError("move evaluation must be a list of numbers or nulls")
        seat = _opt_int(d, "seat")
        return cls(
            ply=_int(d, "ply"), seat=seat, move=_str(d, "move", MAX_MOVE_TEXT),
            scores=tuple(_ints(d, "scores", MAX_SEATS)),
            reason=reason, best=tuple(Alternative.from_json(a, rules) for a in best),
            played=Alternative.from_json(played, rules) if played is not None else None,
            loss=_opt_num(d, "loss"), klass=klass, forced=_bool(d, "forced"),
            evaluation=tuple(None if x is None else float(x) for x in ev) if ev is not None else None,
            exact=None if d.get("exact") is None else _bool(d, "exact"),
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


def _is_digest(text: str) -> bool:
    hexa = text[len(_DIGEST_PREFIX):]
    return (text.startswith(_DIGEST_PREFIX) and len(hexa) == 64
            and all(c in "0123456789abcdef" for c in hexa))


def record_digest(record: GameRecord) -> str:
    """A fingerprint of what the analysis depends on (game, options, seed, moves), so a cached
    analysis can be checked against the save's record: a move more and it no longer matches."""
    body = {"game": record.game, "options": record.options, "seed": record.seed,
            "moves": record.moves}
    text = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return _DIGEST_PREFIX + hashlib.sha256(text.encode("utf-8")).hexdigest()


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
    def from_json(cls, data: Any, record: GameRecord | None = None, lexicon: Any = None) -> "Analysis":
        """Read back ``to_json``'s output (e.g. from a save); keys it does not know are ignored,
        anything missing, of the wrong type or of a newer version is an ``AnalysisError``.

        This is the one door for analyses from outside (a save, a link): every field is checked
        against the game's bounds (``AnalysisRules``: seats, squares, numbers, text lengths, the
        classes and summary recomputed). With ``record`` the analysis must also be of that very
        record, move by move, as its engine replays it (``check_against``); ``lexicon`` is
        Scarabeo's word list for that replay (without it every word stands)."""
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
        if len(moves) > MAX_MOVES or len(summary) > MAX_SEATS:
            raise AnalysisError(f"an analysis has at most {MAX_MOVES} moves and {MAX_SEATS} summaries")
        rules = rules_for(_str(d, "game", MAX_LABEL))
        digest = _str(d, "record", len(_DIGEST_PREFIX) + 64)
        if not _is_digest(digest):
            raise AnalysisError("the analysis's record digest is not a sha256 digest")
        analysis = cls(
            game=rules.game, record=digest, players=_int(d, "players"),
            viewer=_opt_int(d, "viewer"), finished=_bool(d, "finished"),
            engine=_engine(d.get("engine")),
            thresholds=Thresholds.from_json(d.get("thresholds")),
            moves=tuple(MoveAnalysis.from_json(m, rules) for m in moves),
            summary=tuple(PlayerSummary.from_json(s) for s in summary),
        )
        _check_fields(analysis, rules)
        if record is not None:
            check_against(analysis, record, lexicon)
        return analysis

    @classmethod
    def loads(cls, text: str | bytes, record: GameRecord | None = None, lexicon: Any = None) -> "Analysis":
        try:
            data = safejson.loads(text, max_bytes=MAX_ANALYSIS_BYTES)
        except safejson.JSONRefused as err:
            raise AnalysisError(f"analysis refused: {err}") from None
        return cls.from_json(data, record, lexicon)


@dataclass
class Progress:
    """Filled in by an analysis generator as it goes, for a progress bar: ``done`` of ``total``
    moves of the record handled, and ``moves``, the analysis of each of them so far (the review
    draws its chart and classes move by move while the rest is computed)."""

    done: int = 0
    total: int = 0
    moves: list[MoveAnalysis] = field(default_factory=list)

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


# --- the checks of an analysis from outside ---------------------------------------------------
class AnalysisRules(ABC):
    """What one game's analyses may hold: its seats, the bounds of its numbers, the detail of an
    alternative, and how the analysis of a record is checked against that record's replay. Each
    game's ``analysis`` module defines ``RULES``; ``rules_for`` finds it."""

    game: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    #: Bound of a seat's score (in absolute value).
    max_score: ClassVar[int]
    #: Bound of every value, loss, evaluation and threshold (in absolute value).
    max_value: ClassVar[float]
    #: Moves without a mover (Scarabeo's challenges, acceptances and votes).
    disputes: ClassVar[bool] = False

    @abstractmethod
    def kind(self, text: str) -> str:
        """"turn" or "dispute": what the move ``text`` is, read by the game's notation alone
        (no position); the engine's NotationError (a ValueError) when it is not a move."""

    @abstractmethod
    def detail(self, d: Mapping[str, Any], move: str) -> dict[str, Any]:
        """The alternative's game-specific fields, each checked (``field_*``), unknown keys dropped."""

    @abstractmethod
    def start(self, record: GameRecord, lexicon: Any) -> Any:
        """The state before the record's first move (RecordError, ValueError when it cannot be)."""

    @abstractmethod
    def mover(self, state: Any, text: str) -> int | None:
        """Who plays the record's move ``text`` in ``state`` (None: a dispute)."""

    @abstractmethod
    def alternative(self, state: Any, alt: Alternative) -> None:
        """``alt`` is legal in ``state`` and its detail is what the engine says of that move;
        raise ``AnalysisError`` (or the engine's NotationError, IllegalMove, ValueError)."""

    @abstractmethod
    def same_move(self, state: Any, played: str, text: str) -> bool:
        """Whether the analysis's ``played`` denotes the record's move ``text``."""

    @abstractmethod
    def push(self, state: Any, text: str) -> tuple[int, ...]:
        """Play the record's move on ``state``; every seat's score after it."""


def rules_for(game: str) -> AnalysisRules:
    """The checks of ``game``'s analyses (imported on first use: the core imports no game)."""
    if game not in _GAMES:
        raise AnalysisError(f"no analysis for the game {_show(game)}")
    rules = getattr(importlib.import_module(f"game.{game}.analysis"), "RULES")
    assert isinstance(rules, AnalysisRules) and rules.game == game
    return rules


def _check_fields(a: "Analysis", rules: AnalysisRules) -> None:
    """Everything an analysis says that does not need its record: seats, plies, who is analysed
    (the hidden-information rule), the classes of the losses, numbers within the game's bounds
    and the summary, which must be the one its moves make."""
    if not rules.min_players <= a.players <= rules.max_players:
        raise AnalysisError(f"{rules.game} is for {rules.min_players}-{rules.max_players} players, "
                            f"not {_show(a.players)}")
    if a.viewer is not None and not 0 <= a.viewer < a.players:
        raise AnalysisError(f"viewer {_show(a.viewer)} is not a seat of the game")
    _bounded([a.thresholds.best, a.thresholds.good, a.thresholds.inaccuracy, a.thresholds.mistake],
             0.0, rules.max_value, "thresholds")
    t = a.thresholds
    if not t.best <= t.good <= t.inaccuracy <= t.mistake:
        raise AnalysisError("thresholds must grow from best to mistake")
    for i, m in enumerate(a.moves):
        where = f"move {i + 1}"
        if m.ply != i + 1:
            raise AnalysisError(f"{where} is numbered {_show(m.ply)}")
        if (m.seat is None) != (_kind(rules, m.move) == "dispute"):
            raise AnalysisError(f"{where}: {_show(m.move)} is {'not ' if m.seat is None else ''}a dispute")
        if m.seat is None:
            if not rules.disputes or m.reason != "dispute":
                raise AnalysisError(f"{where} has no seat")
        elif not 0 <= m.seat < a.players:
            raise AnalysisError(f"{where}: seat {m.seat} is not a seat of the game")
        elif m.reason != may_analyse(m.seat, a.viewer, a.finished):
            raise AnalysisError(f"{where}: what is analysed does not follow who may see it")
        if len(m.scores) != a.players:
            raise AnalysisError(f"{where} must give one score per player")
        _bounded(m.scores, -rules.max_score, rules.max_score, f"{where} scores")
        if m.analysed:
            if not m.best or m.played is None or m.loss is None or m.klass is None:
                raise AnalysisError(f"{where} is analysed but lacks its best moves, value or class")
            _bounded([x.value for x in (*m.best, m.played)], -rules.max_value, rules.max_value,
                     f"{where} values")
            _bounded([m.loss], 0.0, 2 * rules.max_value, f"{where} loss")
            if m.klass != t.classify(m.loss):
                raise AnalysisError(f"{where}: a loss of {m.loss} is not a {m.klass}")
        elif m.best or m.played is not None or m.loss is not None or m.klass is not None \
                or m.forced or m.evaluation is not None or m.exact is not None:
            raise AnalysisError(f"{where} is not analysed yet carries an analysis")
        if m.evaluation is not None:
            if len(m.evaluation) != a.players:
                raise AnalysisError(f"{where} must give one evaluation per player")
            _bounded([x for x in m.evaluation if x is not None], -rules.max_value, rules.max_value,
                     f"{where} evaluation")
    if a.summary != summarise(a.moves, a.players):
        raise AnalysisError("the summary is not the one its moves make")


def check_against(a: "Analysis", record: GameRecord, lexicon: Any = None) -> None:
    """``a`` is the analysis of ``record``: the same digest and moves, each move's mover and the
    scores after it as the engine replays them, every alternative legal where it is listed and
    described as the engine describes it. Raises ``AnalysisError`` with the first difference."""
    if a.game != record.game or a.record != record_digest(record) or len(a.moves) != len(record.moves):
        raise AnalysisError("the analysis is not of this game (its moves differ)")
    rules = rules_for(a.game)
    try:
        state = rules.start(record, lexicon)
    except (RecordError, ValueError) as err:
        raise AnalysisError(f"the analysed game does not replay: {_line(err)}") from None
    for m, text in zip(a.moves, record.moves):
        where = f"move {m.ply} ({_show(text)})"
        try:
            if m.move != text:
                raise AnalysisError(f"is {_show(m.move)} in the analysis")
            if m.seat != rules.mover(state, text):
                raise AnalysisError(f"is not seat {_show(m.seat)}'s move")
            for alt in (*m.best, *([m.played] if m.played is not None else [])):
                try:
                    rules.alternative(state, alt)
                except (RecordError, ValueError) as err:
                    raise AnalysisError(f"{_show(alt.move)} cannot be played there: {_line(err)}") from None
            if m.played is not None and not rules.same_move(state, m.played.move, text):
                raise AnalysisError(f"the move valued, {_show(m.played.move)}, is another move")
            scores = rules.push(state, text)
        except AnalysisError as err:
            raise AnalysisError(f"{where}: {err}") from None
        except (RecordError, ValueError) as err:
            raise AnalysisError(f"{where} does not replay: {_line(err)}") from None
        if m.scores != scores:
            raise AnalysisError(f"{where}: the scores after it are {list(scores)}, not {list(m.scores)}")


def _kind(rules: AnalysisRules, text: str) -> str:
    try:
        return rules.kind(text)
    except ValueError as err:
        raise AnalysisError(f"{_show(text)} is not a {rules.game} move: {_line(err)}") from None


def _engine(data: Any) -> dict[str, Any]:
    """The engine settings: a few labels with numbers, booleans, nulls or short texts."""
    d = _obj(data, "engine")
    if len(d) > MAX_ENGINE_KEYS:
        raise AnalysisError(f"engine has more than {MAX_ENGINE_KEYS} settings")
    out: dict[str, Any] = {}
    for k, v in d.items():
        if not isinstance(k, str) or len(k) > MAX_LABEL or not k.isprintable():
            raise AnalysisError(f"engine setting {_show(k)} is not a short name")
        if not (v is None or isinstance(v, bool) or _is_num(v)
                or (isinstance(v, str) and len(v) <= MAX_LABEL and v.isprintable())):
            raise AnalysisError(f"engine setting {k} is {_show(v)}")
        out[k] = v
    return out


def _bounded(values: Iterable[float | int], lo: float, hi: float, what: str) -> None:
    for v in values:
        if not lo <= v <= hi:
            raise AnalysisError(f"{what}: {_show(v)} is outside {lo:g}..{hi:g}")


# Field readers for the games' ``AnalysisRules.detail``: each refuses with the key's name.
def field_int(d: Mapping[str, Any], key: str, lo: int, hi: int) -> int:
    v = _int(d, key)
    _bounded([v], lo, hi, key)
    return v


def field_num(d: Mapping[str, Any], key: str, lo: float, hi: float) -> float:
    v = _num(d, key)
    _bounded([v], lo, hi, key)
    return v


def field_bool(d: Mapping[str, Any], key: str) -> bool:
    return _bool(d, key)


def field_text(d: Mapping[str, Any], key: str, max_len: int, chars: str | None = None) -> str:
    """Text of at most ``max_len`` characters, all of them in ``chars`` when given."""
    v = _str(d, key, max_len)
    if chars is not None and any(c not in chars for c in v):
        raise AnalysisError(f"{key} holds characters other than {chars}")
    return v


def field_texts(d: Mapping[str, Any], key: str, max_items: int, valid: Callable[[str], bool]) -> list[str]:
    """A list of at most ``max_items`` texts, each accepted by ``valid``."""
    v = d.get(key)
    if not isinstance(v, list) or len(v) > max_items:
        raise AnalysisError(f"{key} must be a list of at most {max_items} items")
    for x in v:
        if not isinstance(x, str) or len(x) > MAX_MOVE_TEXT or not x.isprintable() or not valid(x):
            raise AnalysisError(f"{key} holds {_show(x)}")
    return list(v)


def _show(v: object) -> str:
    """A value in a one-line message, cut short (a hostile value can be 150 000 characters)."""
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) > MAX_SAFE_INT:
        return "a number too large"
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def _line(err: Exception) -> str:
    text = " ".join(str(err).split())
    return text if len(text) <= 160 else text[:157] + "..."


# --- reading outside JSON ----------------------------------------------------------------------
def _obj(data: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise AnalysisError(f"{what} must be a JSON object")
    return data


def _is_int(x: object) -> TypeGuard[int]:
    return isinstance(x, int) and not isinstance(x, bool) and -MAX_SAFE_INT <= x <= MAX_SAFE_INT


def _is_num(x: object) -> TypeGuard[int | float]:
    # math.isfinite of a huge int raises OverflowError: _is_int bounds it first.
    return _is_int(x) or (isinstance(x, float) and math.isfinite(x) and abs(x) <= MAX_SAFE_INT)


def _int(d: Mapping[str, Any], key: str) -> int:
    v = d.get(key)
    if not _is_int(v):
        raise AnalysisError(f"{key} must be an integer, not {_show(v)}")
    return int(v)


def _ints(d: Mapping[str, Any], key: str, max_items: int) -> list[int]:
    v = d.get(key)
    if not isinstance(v, list) or len(v) > max_items or not all(_is_int(x) for x in v):
        raise AnalysisError(f"{key} must be a list of at most {max_items} integers")
    return [int(x) for x in v]


def _num(d: Mapping[str, Any], key: str) -> float:
    v = d.get(key)
    if not _is_num(v):
        raise AnalysisError(f"{key} must be a number, not {_show(v)}")
    return float(v)


def _opt_num(d: Mapping[str, Any], key: str) -> float | None:
    return None if d.get(key) is None else _num(d, key)


def _str(d: Mapping[str, Any], key: str, max_len: int = MAX_LABEL) -> str:
    v = d.get(key)
    if not isinstance(v, str) or len(v) > max_len or not v.isprintable():
        raise AnalysisError(f"{key} must be one line of at most {max_len} characters, not {_show(v)}")
    return v


def _bool(d: Mapping[str, Any], key: str) -> bool:
    v = d.get(key)
    if not isinstance(v, bool):
        raise AnalysisError(f"{key} must be true or false, not {_show(v)}")
    return v


def _opt_int(d: Mapping[str, Any], key: str) -> int | None:
    return None if d.get(key) is None else _int(d, key)


def _opt_str(d: Mapping[str, Any], key: str) -> str | None:
    v = d.get(key)
    return None if v is None else _str(d, key)
