"""What each seat may know of a Scarabeo game, and the game's public record.

Scarabeo hides the racks and the bag's order. The seed predicts every rack and every draw, so
whatever leaves a device (a link, a snapshot, a dialog shown to the table, a remote message) is
built from the two things here, never from the full state or its seed:

**The masked state.** A ``ScarabeoState`` whose tiles a seat cannot see are ``HIDDEN`` (``_``,
``game.scarabeo.tiles``): every other rack is ``_`` times its size, the whole bag is ``_`` (its
order and contents are unknown), there is no seed (``seed == 0``) and ``masked`` is True. Such a
state plays by the ordinary rules (``push``/``pop``/``check``/``legal_moves``):

- a play by a seat with hidden tiles turns as many of its ``_`` into the tiles laid (public once
  laid, and for a flying-scarab swap the letter put back), refusing with ``too-many-tiles`` a tile
  the set has no more of; a drawn tile is ``_``;
- an exchange is written by its count, ``-8`` (``Exchange("________")``); its tiles go back into
  the bag as ``_`` and the 8 drawn are ``_``. With a known rack ``-8`` means the whole rack;
- passes, time-outs (``push_time_out``), challenges, accepts and votes need no hidden tile; a play
  taken back by a challenge or a vote gives back what was known of the rack;
- ``reveal(seat, rack)`` replaces ``_`` of a rack by tiles as they become known (a device seeing
  what it drew; every rack at the end): ``rack`` is the whole rack, ``_`` where still unknown, and
  must hold the tiles already known of it;
- **the end**: the end-of-game adjustments need every rack's value. While a rack left holds a
  hidden tile the game is over (``is_over()``, no move is legal) but ``final_pending()`` is True:
  the outcome's scores are those before the adjustments, ``winners`` is empty, ``detail``'s
  ``adjustments`` and ``settlement`` are None and ``racks_pending`` lists the seats to reveal.
  Revealing the last hidden rack settles it exactly as the full game did.

``seat_state(state, seat)`` builds a seat's masked state: the
public record rebuilt (so nothing but public facts can enter it), then that seat's own rack
revealed. ``seat`` None is a spectator: no rack at all. ``seat_view(state, seat)`` is its JSON for
a renderer: ``state.view()``'s keys, with ``racks`` masked (``_`` for each hidden tile), plus
``seat``, ``rack`` (that seat's own rack, "" for a spectator) and ``rack_sizes``.

**The public record** (``public_record(state)``; JSON through ``dumps``/``loads``)::

    {"format": "scarab-public-record", "version": 1, "game": "scarabeo",
     "options": {"players": 3, "names": [...], "check_mode": "vote", "hourglass": false,
                 "contest": true, "position": "<board> ________/________ 0/0 0"},
     "word_check": true,
     "start": {"starter": 1, "draw": [[{"seat": 0, "tiles": ["E"], "letter": "E"}, ...], ...]},
     "moves": [{"seat": 1, "move": "9F CONTARE", "score": 56, "total": 56, "words": ["CONTARE"]},
               {"seat": 2, "move": "-8", "score": 0, "total": 0},
               {"seat": 0, "move": "-", "score": 0, "total": 0, "timeout": true},
               {"seat": 1, "move": "!challenge 3", "score": -56, "total": 0}, ...],
     "final": {"racks": ["AB", "", "Q"], "scores": [301, 290, 250]}}

``options`` are the game's options (``position``, for a game started from one, with every rack
``_``); ``word_check`` says whether the game checked words against a word list; ``start`` is the
draw for who starts (those tiles went back into the bag); each move is in notation with
exchanges by count, with the seat that made it (for a dispute: the seat whose play is disputed),
the change to that seat's score and its total after it, the words a play formed, and ``timeout``
for a turn passed by the hourglass; ``final`` (a finished game only) gives the racks left, public
at the end, and the final scores. Never a seed, a rack before the end, nor a future draw.

``rebuild(record, word_list)`` replays it on a masked state and checks everything a spectator
can: the draw for who starts, every move's legality (geometry, squares free, words against the
word list in dictionary mode, the outcome of challenges), every score, total and word list, the
number of each tile against the set, the final racks and scores. A record that does not check is
refused with a ``RecordError`` whose message names the move and the reason.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Mapping

from game.core import IllegalMove, NotationError, RecordError
from game.core.view import (
    PUBLIC_FORMAT, PUBLIC_VERSION, check_envelope, check_fields, int_field, parse_public, shown,
    small_int,
)
from game.scarabeo.game import ScarabeoState, TurnResult
from game.scarabeo.moves import Exchange, Move, Pass, Play, move_text, parse_move
from game.scarabeo.position import format_position, parse_position
from game.scarabeo.record import MAX_MOVES
from game.scarabeo.tiles import COUNTS, HIDDEN, LETTERS, MAX_PLAYERS, RACK_SIZE, SCARAB, sort_rack
from game.scarabeo.words import AnyWord, WordList

#: A score or total beyond this is no real game's (a play scores at most a few thousand).
MAX_POINTS = 1_000_000
#: Words a play can form: the main word and one cross word per tile laid.
MAX_WORDS = RACK_SIZE + 1
#: Rounds of the draw for who starts; ties beyond this many rounds are vanishingly unlikely.
MAX_DRAW_ROUNDS = 40


@dataclass(frozen=True)
class PublicMove:
    """One move as the whole table saw it."""

    seat: int
    move: str
    score: int
    total: int
    words: tuple[str, ...] = ()
    timeout: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "move": self.move, "score": self.score,
                               "total": self.total}
        if self.words:
            out["words"] = list(self.words)
        if self.timeout:
            out["timeout"] = True
        return out


@dataclass
class PublicRecord:
    """A Scarabeo game as everyone at the table saw it (see the module docstring)."""

    options: dict[str, Any]
    starter: int
    start_draw: list[list[dict[str, Any]]]
    moves: list[PublicMove] = field(default_factory=list)
    word_check: bool = True
    final_racks: list[str] | None = None
    final_scores: list[int] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": PUBLIC_FORMAT,
            "version": PUBLIC_VERSION,
            "game": ScarabeoState.GAME,
            "options": self.options,
            "word_check": self.word_check,
            "start": {"starter": self.starter, "draw": self.start_draw},
            "moves": [m.to_json() for m in self.moves],
        }
        if self.final_racks is not None and self.final_scores is not None:
            out["final"] = {"racks": list(self.final_racks), "scores": list(self.final_scores)}
        return out

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def loads(cls, text: str | bytes) -> "PublicRecord":
        """Parse outside text through the guarded boundary (size, depth, numbers bounded)."""
        return cls.from_json(parse_public(text))

    @classmethod
    def from_json(cls, data: Any) -> "PublicRecord":
        """Check the record's shape and bounds (not yet its moves: ``rebuild`` does)."""
        check_envelope(data, ScarabeoState.GAME)
        check_fields(data, {"options", "word_check", "start", "moves", "final"})
        options = data.get("options")
        if not isinstance(options, Mapping):
            raise RecordError("options must be an object")
        word_check = data.get("word_check", True)
        if not isinstance(word_check, bool):
            raise RecordError("word_check must be true or false")
        start = data.get("start")
        if not isinstance(start, Mapping):
            raise RecordError("start must be an object with the starter and the draw")
        starter = int_field(start.get("starter"), 0, MAX_PLAYERS - 1,
                             f"start.starter must be a seat 0-{MAX_PLAYERS - 1}")
        draw = start.get("draw", [])
        if not isinstance(draw, list) or len(draw) > MAX_DRAW_ROUNDS:
            raise RecordError(f"start.draw must be a list of at most {MAX_DRAW_ROUNDS} rounds")
        raw_moves = data.get("moves")
        if not isinstance(raw_moves, list):
            raise RecordError("moves must be a list")
        if len(raw_moves) > MAX_MOVES:
            raise RecordError(f"the record has {len(raw_moves)} moves (at most {MAX_MOVES})")
        moves = [_public_move(m, i) for i, m in enumerate(raw_moves, start=1)]
        racks: list[str] | None = None
        scores: list[int] | None = None
        final = data.get("final")
        if final is not None:
            if not isinstance(final, Mapping) or set(final) != {"racks", "scores"}:
                raise RecordError("final must be an object with racks and scores")
            racks, scores = final["racks"], final["scores"]
            if (not isinstance(racks, list) or len(racks) > MAX_PLAYERS
                    or not all(isinstance(r, str) and len(r) <= RACK_SIZE for r in racks)):
                raise RecordError("final.racks must list each seat's rack (at most 8 tiles)")
            if (not isinstance(scores, list) or len(scores) != len(racks)
                    or not all(small_int(s, -MAX_POINTS, MAX_POINTS) for s in scores)):
                raise RecordError("final.scores must list one score per rack")
        return cls(dict(options), starter, draw, moves, word_check, racks, scores)


def _public_move(data: Any, turn: int) -> PublicMove:
    where = f"move {turn}"
    if not isinstance(data, Mapping):
        raise RecordError(f"{where}: must be an object")
    unknown = set(data) - {"seat", "move", "score", "total", "words", "timeout"}
    if unknown:
        raise RecordError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    seat = int_field(data.get("seat"), 0, MAX_PLAYERS - 1,
                      f"{where}: seat must be 0-{MAX_PLAYERS - 1}")
    text = data.get("move")
    if not isinstance(text, str) or not text or len(text) > 200:
        raise RecordError(f"{where}: the move must be notation of at most 200 characters")
    points = f"{where}: score and total must be whole numbers within ±{MAX_POINTS:,}"
    score = int_field(data.get("score"), -MAX_POINTS, MAX_POINTS, points)
    total = int_field(data.get("total"), -MAX_POINTS, MAX_POINTS, points)
    words = data.get("words", [])
    if (not isinstance(words, list) or len(words) > MAX_WORDS
            or not all(isinstance(w, str) and 2 <= len(w) <= 17 for w in words)):
        raise RecordError(f"{where}: words must list at most {MAX_WORDS} words of 2-17 letters")
    timeout = data.get("timeout", False)
    if not isinstance(timeout, bool):
        raise RecordError(f"{where}: timeout must be true or false")
    return PublicMove(seat, text, score, total, tuple(words), timeout)


# --- making -------------------------------------------------------------------------------
def public_move(move: Move) -> Move:
    """A move as the table saw it: an exchange by its count only."""
    if isinstance(move, Exchange):
        return Exchange(HIDDEN * len(move.tiles), move.swaps)
    return move


def masked_position(text: str) -> str:
    """A one-line position with every rack hidden (its size kept)."""
    data = parse_position(text)
    return format_position(type(data)(data.board, tuple(HIDDEN * len(r) for r in data.racks),
                                      data.scores, data.idle))


def public_options(state: ScarabeoState) -> dict[str, Any]:
    options = state.options()
    options.pop("bags", None)  # a dealt game's bag orders tell every rack
    if "position" in options:
        options["position"] = masked_position(options["position"])
    return options


def public_record(state: ScarabeoState) -> PublicRecord:
    """The game as everyone at the table saw it; nothing from which a rack or a draw follows."""
    moves = []
    for r in state.results():
        words = tuple(w.word for w in r.breakdown.words) if r.breakdown is not None else ()
        moves.append(PublicMove(r.player, move_text(public_move(r.move)), r.score, r.total,
                                words, r.note == "time-out"))
    record = PublicRecord(
        options=public_options(state),
        starter=state.starter,
        start_draw=[[{"seat": d["seat"], "tiles": list(d["tiles"]), "letter": d["letter"]}
                     for d in rnd] for rnd in state.start_draw],
        moves=moves,
        word_check=not isinstance(state.word_list, AnyWord),
    )
    out = state.outcome()
    if out is not None and not state.final_pending():
        record.final_racks = [sort_rack(r) for r in state.racks]
        record.final_scores = list(out.scores)
    return record


# --- checking -----------------------------------------------------------------------------
def check_start_draw(draw: Any, starter: int, players: int) -> None:
    """The draw for who starts must be one the rules produce: every contender draws a letter
    (scarabs drawn first are drawn again), those tied on the first letter draw again, and the
    last round has a single winner, the starter."""
    if not draw:
        raise RecordError("start.draw is empty: the draw for who starts is missing")
    contenders = list(range(players))
    for k, rnd in enumerate(draw, start=1):
        where = f"start.draw round {k}"
        if not contenders or len(contenders) == 1:
            raise RecordError(f"{where}: the starter was already decided")
        if not isinstance(rnd, list) or len(rnd) != len(contenders):
            raise RecordError(f"{where}: must list a draw for each of seats "
                              f"{', '.join(str(s + 1) for s in contenders)}")
        used: Counter[str] = Counter()
        letters: dict[int, str] = {}
        for entry, seat in zip(rnd, contenders):
            if not isinstance(entry, Mapping) or set(entry) != {"seat", "tiles", "letter"}:
                raise RecordError(f"{where}: each draw is an object with seat, tiles and letter")
            tiles, letter = entry["tiles"], entry["letter"]
            if entry["seat"] != seat:
                raise RecordError(f"{where}: seat {seat + 1} draws next, not {shown(entry['seat'])}")
            if (not isinstance(tiles, list) or not 1 <= len(tiles) <= 3
                    or not all(isinstance(t, str) for t in tiles)
                    or any(t != SCARAB for t in tiles[:-1])
                    or not isinstance(letter, str) or letter not in LETTERS or tiles[-1] != letter):
                raise RecordError(f"{where}: seat {seat + 1} must draw a letter (after any scarab)")
            used.update(tiles)
            letters[seat] = letter
        for tile, n in used.items():
            if n > COUNTS[tile]:
                raise RecordError(f"{where}: {n} {tile} drawn, but the set has {COUNTS[tile]}")
        best = min(letters.values())
        contenders = [s for s, t in letters.items() if t == best]
    if len(contenders) != 1 or contenders[0] != starter:
        raise RecordError(f"start: the draw does not make seat {starter + 1} the starter")


def _clip(err: Exception) -> str:
    """An engine's reason on one line of bounded length (it may quote outside text)."""
    text = " ".join(str(err).split())
    return text if len(text) <= 200 else text[:199] + "…"


def _replay_one(state: ScarabeoState, turn: int, pm: PublicMove) -> TurnResult:
    try:
        move = parse_move(pm.move)
        if pm.timeout:
            if move != Pass():
                raise RecordError(f"{pm.move!r}: a time-out is written -", turn)
            return state.push_time_out()
        return state.push(move)
    except RecordError:
        raise
    except (NotationError, IllegalMove) as err:
        raise RecordError(f"{pm.move!r}: {_clip(err)}", turn) from None
    except Exception as err:  # noqa: BLE001 - outside data: any engine error refuses the record
        raise RecordError(f"{pm.move!r}: the engine refused it ({type(err).__name__})",
                          turn) from None


def rebuild(record: PublicRecord, word_list: WordList | None = None) -> ScarabeoState:
    """A spectator's masked state from a public record, every move checked (module docstring).

    A record that says the game checked words needs the word list (the app's lexicon)."""
    if record.word_check and word_list is None:
        raise RecordError("this game checks words against the lexicon: a word list is needed")
    try:
        state = ScarabeoState.new_masked(record.options, record.starter, record.start_draw,
                                         word_list if record.word_check else None)
    except RecordError:
        raise
    except (ValueError, NotationError) as err:
        raise RecordError(f"cannot set up the game: {_clip(err)}") from None
    except Exception as err:  # noqa: BLE001 - outside data
        raise RecordError(f"cannot set up the game: the engine refused it "
                          f"({type(err).__name__})") from None
    if state.start_position is None:
        check_start_draw(record.start_draw, record.starter, state.num_players)
    for turn, pm in enumerate(record.moves, start=1):
        if state.is_over():
            raise RecordError(f"{pm.move!r}: the game is already over", turn)
        result = _replay_one(state, turn, pm)
        if result.player != pm.seat:
            raise RecordError(f"{pm.move!r}: the record gives it to seat {pm.seat + 1}, but it "
                              f"is seat {result.player + 1}'s", turn)
        if result.score != pm.score:
            raise RecordError(f"{pm.move!r}: the record says {pm.score:+d}, but the move scores "
                              f"{result.score:+d}", turn)
        if result.total != pm.total:
            raise RecordError(f"{pm.move!r}: the record says the total is {pm.total}, but it is "
                              f"{result.total}", turn)
        words = tuple(w.word for w in result.breakdown.words) if result.breakdown else ()
        if isinstance(result.move, Play) and pm.words and pm.words != words:
            raise RecordError(f"{pm.move!r}: the record says it formed {', '.join(pm.words)}, "
                              f"but it formed {', '.join(words)}", turn)
        if not isinstance(result.move, Play) and pm.words:
            raise RecordError(f"{pm.move!r}: only a play forms words", turn)
    if record.final_racks is not None and record.final_scores is not None:
        _check_final(state, record.final_racks, record.final_scores, len(record.moves))
    return state


def _check_final(state: ScarabeoState, racks: list[str], scores: list[int], turn: int) -> None:
    if not state.is_over():
        raise RecordError("the record gives final racks, but the game is not over", turn)
    if len(racks) != state.num_players:
        raise RecordError(f"the record gives {len(racks)} final racks for {state.num_players} "
                          f"players", turn)
    for seat, rack in enumerate(racks):
        if HIDDEN in rack:
            raise RecordError(f"seat {seat + 1}'s final rack must be given in full", turn)
        try:
            state.reveal(seat, rack)
        except IllegalMove as err:
            raise RecordError(f"final rack of seat {seat + 1}: {err}", turn) from None
    out = state.outcome()
    assert out is not None
    if list(out.scores) != list(scores):
        raise RecordError(f"the record's final scores {scores} differ from {list(out.scores)}",
                          turn)


def loads(text: str | bytes, word_list: WordList | None = None) -> ScarabeoState:
    """Parse and rebuild a public record from outside text (a link, a file, a message)."""
    return rebuild(PublicRecord.loads(text), word_list)


# --- a seat's view ------------------------------------------------------------------------
def seat_state(state: ScarabeoState, seat: int | None) -> ScarabeoState:
    """Seat ``seat``'s masked state (None: a spectator's): the public record rebuilt, then the
    seat's own rack revealed. Built only from public facts and that rack, so it can hold no
    other secret whatever the full state holds."""
    if seat is not None and (not isinstance(seat, int) or not 0 <= seat < state.num_players):
        raise ValueError(f"there is no seat {seat!r}")
    record = public_record(state)
    masked = rebuild(record, state.word_list if record.word_check else None)
    if seat is not None:
        # Also once over: a game that ended with racks still hidden shows this seat its own.
        masked.reveal(seat, "".join(state.racks[seat]))
    return masked


def seat_view(state: ScarabeoState, seat: int | None) -> dict[str, Any]:
    """What seat ``seat`` (None: a spectator) may know, JSON-able for a renderer or a message."""
    masked = seat_state(state, seat)
    view = masked.view()
    racks = [sort_rack(r) for r in masked.racks]
    view["racks"] = racks
    view["rack_sizes"] = [len(r) for r in racks]
    view["seat"] = seat
    view["rack"] = racks[seat] if seat is not None else ""
    view["unseen"] = masked.unseen_counts(seat)
    view["clock"] = state.timer.to_json() if state.timer is not None else None
    if seat is None or seat != masked.turn:
        view["exchange_allowed"] = False
        view["swappable"] = []
    return view


__all__ = [
    "PublicMove", "PublicRecord", "check_start_draw", "loads", "masked_position", "public_move", "public_options",
    "public_record", "rebuild", "seat_state", "seat_view",
]
