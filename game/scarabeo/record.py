"""Whole games as text (GCG style) and as versioned JSON (``GameRecord``); importing either
replays the game and checks every score.

Text record::

    #scarabeo-record 1
    #player1 p1 Anna
    #player2 p2 Bruno
    #seed 42
    #options {"check_mode":"dictionary","hourglass":false,"players":2}
    >p2: ACENORT? 9F CONTARE +56 56
    >p1: ABDEILMO H8 B.LI +11 11
    ...
    >p1: (AD) +5 312        end-of-game rack adjustment (closer gains, others lose)

A move line is ``>NICK: RACK MOVE SCORE TOTAL``: the rack before the move (``.`` if empty), the
move in notation, the change to that player's score and their total after it. Dispute moves
(``!challenge 2``, ``!accept``, ``!vote YNY``) are on the line of the player whose play is disputed.
"""

from __future__ import annotations

import json
from typing import Any

from game.core import GameRecord, IllegalMove, NotationError, RecordError, safejson
from game.core.record import MAX_RECORD_BYTES
from game.scarabeo.game import ScarabeoState, TurnResult
from game.scarabeo.position import is_digits
from game.scarabeo.words import WordList

TEXT_HEADER = "#scarabeo-record"
TEXT_VERSION = 1
MAX_MOVES = 2000


class ReplayError(RecordError):
    """A record that does not replay. ``kind``: "malformed" (bad structure or notation),
    "illegal" (a move the rules refuse) or "mismatch" (a score, total or rack that differs)."""

    def __init__(self, message: str, turn: int | None = None, kind: str = "malformed") -> None:
        super().__init__(message, turn)
        self.kind = kind


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else str(n)


def nick(seat: int) -> str:
    return f"p{seat + 1}"


# --- export ------------------------------------------------------------------------------
def to_text(state: ScarabeoState) -> str:
    lines = [f"{TEXT_HEADER} {TEXT_VERSION}"]
    for s, name in enumerate(state.names):
        lines.append(f"#player{s + 1} {nick(s)} {name}")
    lines.append(f"#seed {state.seed}")
    lines.append("#options " + json.dumps(state.options(), sort_keys=True, separators=(",", ":"),
                                          ensure_ascii=False))
    for r in state.results():
        lines.append(f">{nick(r.player)}: {r.rack or '.'} {state.move_text(r.move)} "
                     f"{_signed(r.score)} {r.total}")
    out = state.outcome()
    # A masked state's game that ended with racks still hidden has no adjustments to write yet.
    if out is not None and out.reason != "position" and out.detail["adjustments"] is not None:
        racks = out.detail["final_racks"]
        closer = out.detail["closer"]
        for s, adj in enumerate(out.detail["adjustments"]):
            if closer is not None and s == closer:
                shown = "".join(racks[o] for o in range(len(racks)) if o != s)
            else:
                shown = racks[s]
            lines.append(f">{nick(s)}: ({shown}) {_signed(adj)} {out.scores[s]}")
    return "\n".join(lines) + "\n"


def to_record(state: ScarabeoState) -> GameRecord:
    results = state.results()
    meta: dict[str, Any] = {
        "scores": [r.score for r in results],
        "totals": [r.total for r in results],
    }
    out = state.outcome()
    if out is not None:
        meta["final"] = list(out.scores)
    return GameRecord.of(state, **meta)


def to_json(state: ScarabeoState) -> str:
    return to_record(state).dumps()


# --- import ------------------------------------------------------------------------------
def _check_turn(turn: int, result: TurnResult, score: int | None, total: int | None,
                rack: str | None, seat: int | None) -> None:
    if seat is not None and seat != result.player:
        raise ReplayError(f"the record gives this line to {nick(seat)}, but it is "
                          f"{nick(result.player)}'s", turn, "mismatch")
    if rack is not None and "".join(sorted(rack)) != "".join(sorted(result.rack)):
        raise ReplayError(f"the record says the rack was {rack}, but it is {result.rack or '.'}",
                          turn, "mismatch")
    if score is not None and score != result.score:
        raise ReplayError(f"the record says {_signed(score)}, but the move scores "
                          f"{_signed(result.score)}", turn, "mismatch")
    if total is not None and total != result.total:
        raise ReplayError(f"the record says the total is {total}, but it is {result.total}",
                          turn, "mismatch")


def _engine_failure(err: Exception) -> str:
    text = " ".join(str(err).split())[:200]
    return f"the engine refused it ({type(err).__name__}{': ' + text if text else ''})"


def _push(state: ScarabeoState, turn: int, text: str) -> TurnResult:
    try:
        return state.push(state.parse_move(text))
    except NotationError as err:
        raise ReplayError(f"{text!r}: {err}", turn, "malformed") from None
    except IllegalMove as err:
        raise ReplayError(f"{text!r}: {err}", turn, "illegal") from None
    except Exception as err:  # noqa: BLE001 - a record is outside data: any engine error refuses it
        raise ReplayError(f"{text!r}: {_engine_failure(err)}", turn, "malformed") from None


def _new(options: Any, seed: Any, word_list: WordList | None) -> ScarabeoState:
    if not isinstance(options, dict):
        raise ReplayError("record options must be an object")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ReplayError("record seed must be an integer")
    try:
        return ScarabeoState.from_options(options, seed, word_list)
    except ValueError as err:
        raise ReplayError(f"cannot set up the game: {err}") from None
    except Exception as err:  # noqa: BLE001 - a record is outside data: any engine error refuses it
        raise ReplayError(f"cannot set up the game: {_engine_failure(err)}") from None


def _int_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(x, int) and not isinstance(x, bool) for x in value)


def replay_record(record: GameRecord, word_list: WordList | None = None) -> ScarabeoState:
    """Replay a JSON record, checking the scores and totals it carries in ``meta``."""
    if record.game != ScarabeoState.GAME:
        raise ReplayError(f"record is for {record.game!r}, not 'scarabeo'")
    if len(record.moves) > MAX_MOVES:
        raise ReplayError(f"record has {len(record.moves)} moves (at most {MAX_MOVES})")
    state = _new(record.options, record.seed, word_list)
    scores = record.meta.get("scores")
    totals = record.meta.get("totals")
    for name, seq in (("scores", scores), ("totals", totals)):
        if seq is not None and (not _int_list(seq) or len(seq) != len(record.moves)):
            raise ReplayError(f"record meta {name} must list one integer per move")
    final = record.meta.get("final")
    if final is not None and not _int_list(final):
        raise ReplayError("record meta final must list one integer per player")
    for i, text in enumerate(record.moves):
        turn = i + 1
        if state.is_over():
            raise ReplayError(f"{text!r}: the game is already over", turn, "illegal")
        result = _push(state, turn, text)
        _check_turn(turn, result, scores[i] if scores else None, totals[i] if totals else None,
                    None, None)
    out = state.outcome()
    if final is not None:
        if out is None:
            raise ReplayError("the record gives final scores but the game is not over",
                              len(record.moves), "mismatch")
        if list(final) != list(out.scores):
            raise ReplayError(f"the record's final scores {final} differ from {list(out.scores)}",
                              len(record.moves), "mismatch")
    return state


def from_json(text: str | bytes, word_list: WordList | None = None) -> ScarabeoState:
    try:
        record = GameRecord.loads(text)
    except ReplayError:
        raise
    except RecordError as err:
        raise ReplayError(str(err)) from None
    return replay_record(record, word_list)


def _int(text: str, what: str, line_no: int, digits: int = 9) -> int:
    body = text[1:] if text[:1] in "+-" else text
    if not is_digits(body) or len(body) > digits:
        raise ReplayError(f"line {line_no}: {what} {text!r} is not a whole number")
    return int(text)


def from_text(text: str, word_list: WordList | None = None) -> ScarabeoState:
    """Replay a GCG-style text record, checking every rack, score and total."""
    if len(text) > MAX_RECORD_BYTES:
        raise ReplayError(f"record is {len(text)} characters, more than the {MAX_RECORD_BYTES} allowed")
    lines = text.splitlines()
    if not lines or not lines[0].startswith(TEXT_HEADER):
        raise ReplayError(f"line 1: a text record starts with '{TEXT_HEADER} {TEXT_VERSION}'")
    version = lines[0][len(TEXT_HEADER):].strip()
    if not is_digits(version) or len(version) > 9 or not 1 <= int(version) <= TEXT_VERSION:
        raise ReplayError(f"line 1: unknown text record version {version!r}")
    names: dict[int, str] = {}
    seed: int | None = None
    options: dict[str, Any] | None = None
    moves: list[tuple[int, int, str, str, int, int]] = []
    ends: list[tuple[int, int, int, int]] = []
    for line_no, raw in enumerate(lines[1:], start=2):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            key, _, value = line[1:].partition(" ")
            if key.startswith("player") and is_digits(key[6:]) and len(key[6:]) <= 9:
                seat = int(key[6:]) - 1
                nk, _, name = value.partition(" ")
                if not 0 <= seat < 4 or nk != nick(seat) or not name.strip():
                    raise ReplayError(f"line {line_no}: expected '#player{seat + 1} "
                                      f"{nick(seat)} NAME'")
                names[seat] = name.strip()
            elif key == "seed":
                # As long as a JSON record's seed may be, so both formats carry the same games.
                seed = _int(value.strip(), "seed", line_no, digits=safejson.MAX_NUMBER_DIGITS)
            elif key == "options":
                try:
                    options = safejson.loads(value)
                except safejson.JSONRefused as err:
                    raise ReplayError(f"line {line_no}: options are not valid JSON: {err}") from None
            # Other # lines are comments, as in GCG.
            continue
        if not line.startswith(">"):
            raise ReplayError(f"line {line_no}: a move line starts with '>'")
        who, colon, rest = line[1:].partition(":")
        if not colon or not who.startswith("p") or not is_digits(who[1:]) or len(who) > 10:
            raise ReplayError(f"line {line_no}: expected '>pN: RACK MOVE SCORE TOTAL'")
        seat = int(who[1:]) - 1
        parts = rest.split()
        if ends and parts and not parts[0].startswith("("):
            raise ReplayError(f"line {line_no}: a move after the end-of-game adjustments")
        if len(parts) == 3 and parts[0].startswith("(") and parts[0].endswith(")"):
            ends.append((line_no, seat, _int(parts[1], "score", line_no),
                         _int(parts[2], "total", line_no)))
            continue
        if len(parts) < 4:
            raise ReplayError(f"line {line_no}: expected '>pN: RACK MOVE SCORE TOTAL'")
        rack = "" if parts[0] == "." else parts[0]
        moves.append((line_no, seat, rack, " ".join(parts[1:-2]),
                      _int(parts[-2], "score", line_no), _int(parts[-1], "total", line_no)))
        if len(moves) > MAX_MOVES:
            raise ReplayError(f"more than {MAX_MOVES} moves")
    if seed is None:
        raise ReplayError("the record has no '#seed' line")
    if options is None:
        raise ReplayError("the record has no '#options' line")
    if isinstance(options, dict) and names:
        if sorted(names) != list(range(len(names))):
            raise ReplayError("the #player lines must number the seats 1, 2, …")
        options = {**options, "names": [names[s] for s in range(len(names))]}
    state = _new(options, seed, word_list)
    for turn, (line_no, seat, rack, move, score, total) in enumerate(moves, start=1):
        if state.is_over():
            raise ReplayError(f"line {line_no}: {move!r}: the game is already over", turn, "illegal")
        result = _push(state, turn, move)
        _check_turn(turn, result, score, total, rack, seat)
    out = state.outcome()
    if ends:
        if out is None:
            raise ReplayError("the record has end-of-game adjustments but the game is not over",
                              len(moves), "mismatch")
        for line_no, seat, adj, total in ends:
            if not 0 <= seat < state.num_players:
                raise ReplayError(f"line {line_no}: there is no player {nick(seat)}")
            if out.detail["adjustments"][seat] != adj or out.scores[seat] != total:
                raise ReplayError(
                    f"line {line_no}: the record says {nick(seat)} ends with {_signed(adj)} = "
                    f"{total}, but it is {_signed(out.detail['adjustments'][seat])} = "
                    f"{out.scores[seat]}", len(moves), "mismatch")
    return state


def load(text: str, word_list: WordList | None = None) -> ScarabeoState:
    """Replay a record in either format (JSON if it starts with ``{``)."""
    if len(text) > MAX_RECORD_BYTES:
        raise ReplayError(f"record is {len(text)} characters, more than the {MAX_RECORD_BYTES} allowed")
    return from_json(text, word_list) if text.lstrip().startswith("{") else from_text(text, word_list)
