"""Games in links and files: a game compressed into a URL fragment, to open on another device or to
send a move to a correspondence opponent — no server involved — and what a link or a file may
carry for each game (issue 24: what leaves a device reveals no rack).

A link's payload is ``s2.<base64url(deflate(json))>``; the JSON is
``{"kind": …, "game": …, "game_id": …, "moves": n, "check": <sha-256 prefix>, …}`` with one of
three kinds:

- ``"game"``: the whole record (``"record"``: setup, seed and moves), ready to continue — only for
  a game whose state is public (Thot, Scarabya) or one that is over (nothing is hidden any more);
- ``"watch"``: a private game in progress (Scarabeo), as everyone at the table saw it: the
  engine's public record (``"public"``, ``game.scarabeo.public``: the moves with exchanges by
  count, scores, words; never a seed, a rack or a draw) and the seats (``"meta"``). The receiver
  rebuilds the board and checks every move and score with its own engine; nothing in it can be
  turned into a game to continue, since no rack is there to reveal;
- ``"move"``: a private game in progress handed over to be continued on another device — the
  players' explicit, confirmed choice in the Share dialog ("every rack will be visible to whoever
  opens the link"); the one kind of link that carries the seed of an unfinished Scarabeo game.

``check`` is over the canonical payload, so a damaged or hand-edited link is refused before
anything is replayed (it is no secret: the privacy rests on what each kind carries, not on it);
the record is then replayed (or the public record rebuilt) by the engine, so an illegal game is
refused too. Links are capped in size, and a correspondence link must continue the game this
device already has. A link of the older ``s1.`` format (a whole record) is still read; an
unfinished Scarabeo game in one opens as a watch (its public record: the seed is not kept),
whatever its ``meta.revealed`` says.

A watched game is kept on the receiving device as a *watch save* (``web.platform.watch``:
``{"format": "scarab-watch", "public": …, "meta": …}``), exported as a file of kind ``"watch"``
and opened only as a watch (``web.platform.storage``). A finished game's link may carry its review's
analysis (the sharer's choice, off by default: ``with_analysis``), in the record's meta under
``web.platform.review_model.CACHE_KEY``, which ``web.platform.session.LOCAL_META`` otherwise keeps out of links; it
is covered by the same check and size caps, and must pass the engine's checks of an analysis
against that very record (``game.core.analysis.Analysis.from_json``), or the link is refused
with ``AnalysisRefused``. A daily puzzle's attempt never travels as a record (its moves and its
meta's best plays are the answer): such a link opens the puzzle itself (``DailyLink``).
"""

from __future__ import annotations

import base64
import hashlib
import json
import zlib
from dataclasses import dataclass
from typing import Any

from game.core import GameRecord
from game.core.safejson import JSONRefused, loads
from web.platform import watch
from web.platform.storage import Save
from web.platform.watch import (
    PUBLIC_GAMES,
    WATCH_FORMAT,
    WATCH_VERSION,
    is_private,
    is_watch,
    public_of,
    read_watch,
    watch_json,
    watch_of_record,
)

PREFIX = "s2."
#: The older format: ``{"record", "game_id", "moves", "check"}``, a whole record (read, never written).
LEGACY_PREFIX = "s1."
#: What a link carries (module docstring).
KINDS = ("game", "watch", "move")
#: A watched game kept on this device (``watch_json``).
#: Longest link payload accepted (browsers and chat apps cope with this, and it holds a whole game).
MAX_LINK_CHARS = 16_000
MAX_JSON_BYTES = 200_000


class ShareError(ValueError):
    pass


class AnalysisRefused(ShareError):
    """The analysis a link carries does not pass the engine's checks; ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"the link's analysis cannot be opened: {reason}")
        self.reason = reason


class DailyLink(ShareError):
    """The link holds an attempt at a daily puzzle: what opens is the puzzle itself (``href``),
    unplayed — never the sender's moves, which are the answer."""

    def __init__(self, game: str, date: str) -> None:
        super().__init__("the link holds a daily puzzle's attempt: the puzzle opens instead")
        self.href = f"#/daily/{game}?date={date}"


class AnalysisTooLong(ShareError):
    """The link with the analysis in it is over ``MAX_LINK_CHARS`` (the game alone may fit)."""

    def __init__(self, chars: int) -> None:
        super().__init__(f"with its analysis this game is too long for a link ({chars} characters, at most "
                         f"{MAX_LINK_CHARS}); share it without the analysis")
        self.chars = chars


def _analysis_key() -> str:
    from web.platform.review_model import CACHE_KEY

    return CACHE_KEY


def _word_list(game: str) -> Any:
    from web.platform import engines

    return engines.word_list(game)


def rebuild_watch(state_json: Any) -> Any:
    """The spectator's state of a watch save (``web.platform.watch.rebuild_watch``), every move
    checked with this site's word list."""
    return watch.rebuild_watch(state_json, _word_list)


def _check_analysis(record: GameRecord, data: Any) -> None:
    """``data`` must be a complete analysis of ``record`` (made once the game was over: every move
    of it analysed, but the table's decisions), passing the engine's checks against the record's
    replay, else ``ShareError`` (``AnalysisRefused``) says why."""
    from game.core.analysis import Analysis, AnalysisError, record_digest

    try:
        analysis = Analysis.from_json(data)
        if analysis.game != record.game or analysis.record != record_digest(record) \
                or len(analysis.moves) != len(record.moves):
            raise ShareError("the analysis is not of this game (its moves differ)")
        analysis = Analysis.from_json(data, record, _word_list(record.game))
    except ShareError:
        raise
    except AnalysisError as err:
        raise AnalysisRefused(_line(err)) from None
    except Exception as err:  # outside data: whatever a check raises is a refusal with its reason
        raise AnalysisRefused(_line(err)) from None
    if not analysis.finished or analysis.viewer is not None \
            or any(m.reason not in (None, "dispute") for m in analysis.moves):
        raise ShareError("the analysis is not complete: analyse the finished game first")


def with_analysis(record: GameRecord, data: Any, over: bool) -> GameRecord:
    """``record`` (as shared: no device-local meta) with ``data``, the review's cached analysis, to
    travel in its link — only for a finished game and a complete analysis of it (``ShareError``)."""
    if not over:
        raise ShareError("only a finished game's analysis can be shared")
    if data is None:
        raise ShareError("this game has not been analysed yet: open its review and analyse it")
    _check_analysis(record, data)
    return GameRecord(record.game, record.options, record.seed, list(record.moves),
                      {**record.meta, _analysis_key(): data})


def _line(err: BaseException) -> str:
    text = " ".join((str(err) or type(err).__name__).split())
    return text if len(text) <= 300 else text[:297] + "…"


def _canonical(record: dict[str, Any]) -> bytes:
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _check(record: dict[str, Any]) -> str:
    return hashlib.sha256(_canonical(record)).hexdigest()[:16]


@dataclass(frozen=True)
class SharedGame:
    """A link's content, checked: ``record`` for a ``game`` or ``move`` link; for a ``watch`` link
    ``public`` (the engine's public record, its shape checked: ``rebuild`` checks its moves) and
    ``meta`` (the seats)."""

    record: GameRecord | None
    game_id: str
    moves: int
    kind: str = "game"
    public: Any = None
    meta: dict[str, Any] | None = None

    @property
    def game(self) -> str:
        return self.record.game if self.record is not None else "scarabeo"


def _pack(payload: dict[str, Any], analysis: bool = False) -> str:
    payload = {**payload, "check": _check({k: v for k, v in payload.items() if k != "check"})}
    text = PREFIX + base64.urlsafe_b64encode(zlib.compress(_canonical(payload), 9)).decode().rstrip("=")
    if len(text) > MAX_LINK_CHARS:
        if analysis:
            raise AnalysisTooLong(len(text))
        raise ShareError(f"this game is too long for a link ({len(text)} characters); export it as a file")
    return text


def encode(record: GameRecord, game_id: str, kind: str = "game") -> str:
    """A link carrying the whole record: ``kind`` "game" (a public game, or one that is over: the
    caller says so, ``link_for`` decides) or "move" (a private game handed over to another device,
    the players' explicit choice)."""
    if kind not in ("game", "move"):
        raise ValueError(f"a whole record travels as a game or move link, not {kind!r}")
    data = record.to_json()
    return _pack({"kind": kind, "record": data, "game_id": game_id, "moves": len(record.moves)},
                 analysis=_analysis_key() in record.meta)


def encode_watch(public: dict[str, Any], seats: list[dict[str, Any]], game_id: str) -> str:
    """A link to watch a private game in progress: its public record and its seats, nothing else."""
    moves = public.get("moves")
    return _pack({"kind": "watch", "game": public.get("game"), "public": public,
                  "meta": {"seats": list(seats)}, "game_id": game_id,
                  "moves": len(moves) if isinstance(moves, list) else 0})


def link_for(state: Any, record: GameRecord, game_id: str, move: bool = False) -> str:
    """The link to share a game now (``record``: as shared, no device-local meta): the whole game
    when it is public or over; a private game in progress as a watch — or, only when the players
    chose to hand it over (``move``), as a move link carrying every rack."""
    if not is_private(record.game) or state.is_over():
        return encode(record, game_id, "game")
    if move:
        meta = {k: v for k, v in record.meta.items() if k not in ("replay", "revealed")}
        return encode(GameRecord(record.game, record.options, record.seed, list(record.moves), meta), game_id, "move")
    return encode_watch(public_of(state), list(record.meta.get("seats") or []), game_id)


def _unpack(text: str) -> tuple[str, dict[str, Any]]:
    text = text.strip()
    if len(text) > MAX_LINK_CHARS:
        raise ShareError(f"the link is too long ({len(text)} characters, at most {MAX_LINK_CHARS})")
    prefix = PREFIX if text.startswith(PREFIX) else LEGACY_PREFIX if text.startswith(LEGACY_PREFIX) else None
    if prefix is None:
        version = text.split(".", 1)[0] if "." in text[:6] else "?"
        raise ShareError(f"this link's format ({version}) is not one this version of Scarab reads")
    body = text[len(prefix):]
    try:
        packed = base64.b64decode(body + "=" * (-len(body) % 4), altchars=b"-_", validate=True)
        inflater = zlib.decompressobj()
        raw = inflater.decompress(packed, MAX_JSON_BYTES + 1)
        if len(raw) > MAX_JSON_BYTES:
            raise ShareError("the link unpacks to too much data")
        if not inflater.eof:
            raise ValueError("truncated")
        payload = loads(raw, max_bytes=MAX_JSON_BYTES)
    except ShareError:
        raise
    except JSONRefused as err:
        raise ShareError(f"the link's content is refused: {err}") from None
    except (ValueError, zlib.error):
        raise ShareError("the link is damaged (it does not unpack); ask for it again") from None
    if not isinstance(payload, dict):
        raise ShareError("the link holds no game")
    return prefix, payload


def decode(text: str) -> SharedGame:
    """Unpack and verify a payload; raise ``ShareError`` saying what is wrong."""
    prefix, payload = _unpack(text)
    if prefix == LEGACY_PREFIX:
        if not isinstance(payload.get("record"), dict):
            raise ShareError("the link holds no game")
        if payload.get("check") != _check(payload["record"]):
            raise ShareError("the link has been altered: its content does not match its check")
        kind = "game"
    else:
        if payload.get("check") != _check({k: v for k, v in payload.items() if k != "check"}):
            raise ShareError("the link has been altered: its content does not match its check")
        raw_kind = payload.get("kind")
        if raw_kind not in KINDS:
            raise ShareError("the link's kind is not one this version of Scarab reads")
        kind = str(raw_kind)
    game_id, moves = payload.get("game_id"), payload.get("moves")
    if not isinstance(game_id, str) or not game_id or len(game_id) > 64:
        raise ShareError("the link's game identity is incomplete")
    if kind == "watch":
        return _decode_watch(payload, game_id, moves)
    if not isinstance(payload.get("record"), dict):
        raise ShareError("the link holds no game")
    try:
        record = GameRecord.from_json(payload["record"])
    except ValueError as err:
        raise ShareError(f"the game in the link is not readable: {err}") from None
    if moves != len(record.moves):
        raise ShareError("the link's game identity is incomplete")
    if kind == "move" and not is_private(record.game):
        raise ShareError("the link has been altered: only a game with private racks is moved this way")
    if _analysis_key() in record.meta:
        _check_analysis(record, record.meta[_analysis_key()])
    return SharedGame(record, game_id, moves, kind)


def _decode_watch(payload: dict[str, Any], game_id: str, moves: Any) -> SharedGame:
    from game.core import RecordError
    from game.scarabeo.public import PublicRecord

    if payload.get("game") != "scarabeo":
        raise ShareError("the link has been altered: only a game with private racks is watched this way")
    meta = payload.get("meta")
    if not isinstance(meta, dict) or set(meta) - {"seats"}:
        raise ShareError("the watched game's seats are not readable")
    try:
        public = PublicRecord.from_json(payload.get("public"))
    except RecordError as err:
        raise ShareError(f"the watched game is not readable: {_line(err)}") from None
    if moves != len(public.moves):
        raise ShareError("the link's game identity is incomplete")
    return SharedGame(None, game_id, moves, "watch", public.to_json(), {"seats": meta.get("seats") or []})


def check_continuation(local: GameRecord, incoming: SharedGame) -> str:
    """Can ``incoming`` (a correspondence link) replace ``local``? Returns "same", "next", or raises.

    It must be the same game (setup and seed), repeat every move we have, and add exactly one."""
    theirs = incoming.record
    if theirs is None:  # a watch link holds the public record only: nothing to continue
        raise ShareError("this link shows a game to watch, not a move of this game")
    if (theirs.game, theirs.options, theirs.seed) != (local.game, local.options, local.seed):
        raise ShareError("this link belongs to a different game")
    extra = len(theirs.moves) - len(local.moves)
    if extra < 0 and local.moves[:len(theirs.moves)] == theirs.moves:
        raise ShareError("this link is older than the game on this device (a move was already received)")
    if theirs.moves[:len(local.moves)] != local.moves:
        raise ShareError("this link rewrites moves already played: it is not a continuation of this game")
    if extra == 0:
        return "same"
    if extra == 1:
        return "next"
    raise ShareError(f"this link skips {extra - 1} move(s): ask for the links in order")


def _summary(state: Any) -> dict[str, Any]:
    from web.platform.session import summary_of

    return summary_of(state)


def receive(store: Any, text: str, title: str) -> tuple[Any, str]:
    """Open a link on this device: returns (save, what happened: "new" | "next" | "same").

    A public game (Thot, Scarabya), or any finished game, continues where the link leaves it; a
    link that follows a game this device has (same ``game_id``) must continue it by exactly one
    move. A watch link opens the private game as a watch save (the board, scores and moves, no
    rack), updated by later watch links of the same game; a move link opens it to be continued.
    A daily puzzle's attempt raises ``DailyLink``: the puzzle opens instead."""
    from web.platform import engines
    from web.platform.daily_store import daily_meta
    from web.platform.session import seats_from_meta

    shared = decode(text)
    if shared.kind == "watch":
        return _receive_watch(store, shared, title)
    record = shared.record
    assert record is not None
    daily = daily_meta(record.meta)
    if daily is not None:
        raise DailyLink(daily["game"], daily["date"])
    try:
        state = engines.replay_record(record)
        seats_from_meta(record.meta, state.num_players)
    except ValueError as err:
        raise ShareError(f"the game in the link does not replay: {err}") from None
    if _analysis_key() in record.meta and not state.is_over():
        raise ShareError("the link's analysis is of a finished game, and this game is not over")
    if is_private(record.game) and not state.is_over() and shared.kind != "move":
        # a whole unfinished private game in a "game" link (an s1 link, whatever its meta.revealed
        # says): kept as a watch, from its public record — the seed and the racks are dropped
        public = public_of(state)
        watch = SharedGame(None, shared.game_id, shared.moves, "watch", public,
                           {"seats": list(record.meta.get("seats") or [])})
        return _receive_watch(store, watch, title)
    meta = {k: v for k, v in record.meta.items() if k not in ("replay", "revealed")}
    meta["game_id"] = shared.game_id
    incoming = GameRecord(record.game, record.options, record.seed, record.moves, meta).to_json()
    for save in store.list():
        if not isinstance(save, Save) or save.game != record.game or is_watch(save.state):
            continue
        local_meta = save.state.get("meta")
        if not isinstance(local_meta, dict) or local_meta.get("game_id") != shared.game_id:
            continue
        try:
            local = GameRecord.from_json(save.state)
        except ValueError:
            continue  # a save this device cannot read is not the game the link continues
        verdict = check_continuation(local, shared)
        if verdict == "next":
            save = store.update(save, incoming)
        return save, verdict
    return store.create(record.game, title, incoming), "new"


def _receive_watch(store: Any, shared: SharedGame, title: str) -> tuple[Any, str]:
    """A watch link: the public record rebuilt and checked by the engine, kept as a watch save (a
    later link of the same game moves it on); this device's own game of that id stays as it is."""
    from game.core import RecordError
    from game.core.view import rebuild_public
    from game.scarabeo.public import PublicRecord
    from web.platform.session import seats_from_meta

    assert shared.meta is not None
    try:
        public = PublicRecord.from_json(shared.public)
        state = rebuild_public(public.to_json(), _word_list("scarabeo"))
        seats = seats_from_meta(shared.meta, state.num_players)
    except (RecordError, ValueError) as err:
        raise ShareError(f"the watched game does not check: {_line(err)}") from None
    meta = {"game_id": shared.game_id, "seats": [{"name": s.name, "computer": s.computer, "level": s.level}
                                                 for s in seats], "summary": _summary(state)}
    incoming = watch_json(public.to_json(), meta)
    for save in store.list():
        if not isinstance(save, Save) or save.game != "scarabeo":
            continue
        local_meta = save.state.get("meta")
        if not isinstance(local_meta, dict) or local_meta.get("game_id") != shared.game_id:
            continue
        if not is_watch(save.state):
            return save, "same"  # the players' own game on this device: it is ahead of any watch
        try:
            local, _ = read_watch(save.state)
        except RecordError:
            continue
        have = [m.to_json() for m in local.moves]
        theirs = [m.to_json() for m in public.moves]
        if theirs[:len(have)] != have:
            if have[:len(theirs)] == theirs:
                raise ShareError("this link is older than the game on this device (a move was already received)")
            raise ShareError("this link rewrites moves already played: it is not a continuation of this game")
        if len(theirs) == len(have):
            return save, "same"
        return store.update(save, incoming), "next"
    return store.create("scarabeo", title, incoming), "new"
