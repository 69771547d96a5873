"""Games in links: a whole game record, compressed into a URL fragment, to open on another device or
to send a move to a correspondence opponent — no server involved.

A link's payload is ``s1.<base64url(deflate(json))>`` where the JSON is
``{"record": <game record>, "game_id": …, "moves": n, "check": <sha-256 prefix>}``. ``check`` is
over the canonical record, so a damaged or hand-edited link is refused before anything is
replayed; the record is then replayed by the engine, so an illegal game is refused too. Links are
capped in size, and a correspondence link must continue the game this device already has.

A finished game's link may carry its review's analysis (the sharer's choice, off by default:
``with_analysis``), in the record's meta under ``web.review_model.CACHE_KEY``, which
``web.session.LOCAL_META`` otherwise keeps out of links. It is covered by the same check and size
caps; when it is there it must be a complete analysis of that very record (``decode``) of a game
that is over (``receive``), so the receiver's review opens it without computing.
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

PREFIX = "s1."
#: Longest link payload accepted (browsers and chat apps cope with this, and it holds a whole game).
MAX_LINK_CHARS = 16_000
MAX_JSON_BYTES = 200_000
#: Games whose state is public: a link can carry them ready to continue.
PUBLIC_GAMES = ("thot", "scarabya")


class ShareError(ValueError):
    pass


class AnalysisTooLong(ShareError):
    """The link with the analysis in it is over ``MAX_LINK_CHARS`` (the game alone may fit)."""

    def __init__(self, chars: int) -> None:
        super().__init__(f"with its analysis this game is too long for a link ({chars} characters, at most "
                         f"{MAX_LINK_CHARS}); share it without the analysis")
        self.chars = chars


def _analysis_key() -> str:
    from web.review_model import CACHE_KEY

    return CACHE_KEY


def _check_analysis(record: GameRecord, data: Any) -> None:
    """``data`` must be a complete analysis of ``record`` (made once the game was over: every move
    of it analysed, but the table's decisions), else ``ShareError`` says why."""
    from game.core.analysis import Analysis, AnalysisError, record_digest

    try:
        analysis = Analysis.from_json(data)
    except (AnalysisError, TypeError, ValueError) as err:
        raise ShareError(f"the analysis is not readable: {err}") from None
    if analysis.game != record.game or analysis.record != record_digest(record) \
            or len(analysis.moves) != len(record.moves):
        raise ShareError("the analysis is not of this game (its moves differ)")
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


def _canonical(record: dict[str, Any]) -> bytes:
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _check(record: dict[str, Any]) -> str:
    return hashlib.sha256(_canonical(record)).hexdigest()[:16]


@dataclass(frozen=True)
class SharedGame:
    record: GameRecord
    game_id: str
    moves: int


def encode(record: GameRecord, game_id: str) -> str:
    data = record.to_json()
    payload = {"record": data, "game_id": game_id, "moves": len(record.moves), "check": _check(data)}
    packed = zlib.compress(_canonical(payload), 9)
    text = PREFIX + base64.urlsafe_b64encode(packed).decode().rstrip("=")
    if len(text) > MAX_LINK_CHARS:
        if _analysis_key() in record.meta:
            raise AnalysisTooLong(len(text))
        raise ShareError(f"this game is too long for a link ({len(text)} characters); export it as a file")
    return text


def decode(text: str) -> SharedGame:
    """Unpack and verify a payload; raise ``ShareError`` saying what is wrong."""
    text = text.strip()
    if len(text) > MAX_LINK_CHARS:
        raise ShareError(f"the link is too long ({len(text)} characters, at most {MAX_LINK_CHARS})")
    if not text.startswith(PREFIX):
        version = text.split(".", 1)[0] if "." in text[:6] else "?"
        raise ShareError(f"this link's format ({version}) is not one this version of Scarab reads")
    body = text[len(PREFIX):]
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
    if not isinstance(payload, dict) or not isinstance(payload.get("record"), dict):
        raise ShareError("the link holds no game")
    if payload.get("check") != _check(payload["record"]):
        raise ShareError("the link has been altered: its content does not match its check")
    try:
        record = GameRecord.from_json(payload["record"])
    except ValueError as err:
        raise ShareError(f"the game in the link is not readable: {err}") from None
    game_id, moves = payload.get("game_id"), payload.get("moves")
    if not isinstance(game_id, str) or not game_id or moves != len(record.moves):
        raise ShareError("the link's game identity is incomplete")
    if _analysis_key() in record.meta:
        try:
            _check_analysis(record, record.meta[_analysis_key()])
        except ShareError as err:
            raise ShareError(f"the link's {err}") from None
    return SharedGame(record, game_id, moves)


def check_continuation(local: GameRecord, incoming: SharedGame) -> str:
    """Can ``incoming`` (a correspondence link) replace ``local``? Returns "same", "next", or raises.

    It must be the same game (setup and seed), repeat every move we have, and add exactly one."""
    theirs = incoming.record
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


def receive(store: Any, text: str, title: str) -> tuple[Any, str]:
    """Open a link on this device: returns (save, what happened: "new" | "next" | "same").

    A public game (Thot, Scarabya) continues where the link leaves it; a link that follows a game
    this device has (same ``game_id``) must continue it by exactly one move. A Scarabeo link opens
    as a replay to watch, since its racks are private, unless its players chose to reveal them
    (``meta.revealed``): then it continues like the others."""
    from web import engines
    from web.storage import Save

    shared = decode(text)
    record = shared.record
    from web.session import seats_from_meta

    try:
        state = engines.replay_record(record)
        seats_from_meta(record.meta, state.num_players)
    except ValueError as err:
        raise ShareError(f"the game in the link does not replay: {err}") from None
    if _analysis_key() in record.meta and not state.is_over():
        raise ShareError("the link's analysis is of a finished game, and this game is not over")
    meta = {**record.meta, "game_id": shared.game_id}
    if record.game not in PUBLIC_GAMES and not meta.get("revealed"):
        meta["replay"] = True
    incoming = GameRecord(record.game, record.options, record.seed, record.moves, meta).to_json()
    for save in store.list():
        if not isinstance(save, Save) or save.game != record.game:
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
    from web.daily_store import mark_received

    fresh = GameRecord(record.game, record.options, record.seed, record.moves, mark_received(meta)).to_json()
    return store.create(record.game, title, fresh), "new"
