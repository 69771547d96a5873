"""What stays on the table between two visits to a Scarabeo game, and who may challenge a play.

Rules questions the game page asks (``web/games/scarabeo/`` only draws the answers), decided here
with the engine and tested in CPython (``tests/scarabeo/test_table.py``).

**The table** is saved with the game as record meta ``table`` (``web.platform.session.LOCAL_META``:
kept on this device, never put in a shared link)::

    {"move": 12, "seat": 1,
     "clock": {"active": true, "carry_in": 25.0, "used": 40.2, "paused": false},  # Hourglass.saved()
     "tentative": {"rack": "ACEIO?RT", "placed": [["H8", "C"], ["H9", "a"]], "swaps": ["C3"]}}

Both parts belong to one position: they are used again only when the game still has ``move`` moves,
the same player to move and (for the tiles) the same rack; anything else, or anything damaged, is
dropped and the turn starts afresh. Tiles laid are lowercase for a scarab standing for that letter,
as in the engine's ``play_from_placements``.

With them goes what the last move needs if it is taken back (``last``, for the position after it):
the hourglass's turn of the player who made it, as it was when they made it, and whether it was a
time-out pass (which cannot be taken back)::

    {"move": 13, "seat": 2, "last": {"clock": {"active": true, ...}, "timeout": false}, ...}

**Disputes** (challenge mode): a computer seat challenges a pending play its lexicon refuses at once,
whether or not it is next (the first computer in turn order after the player who made it:
``computer_challenger``). Otherwise, when the seat to move is a computer, it waits while the people
decide (``computer_waits``); when it is a person and another person may challenge too, the decision
is taken on the pass-and-play cover, before the next player's rack is shown (``dispute_on_cover``);
a vote with two or more people at the table is cast on the cover too, every rack hidden (``vote_on_cover``).

**The score sheet** (``sheet``): a challenge is written under the challenger's name, an explicit
accept as a note on the play it accepted. In vote mode a challenge contests the play: its row says
which words went to the vote (``contest_words`` lists those that may), and the vote has its own row.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from game.core import IllegalMove
from game.scarabeo.board import parse_square, square_name
from game.scarabeo.game import ScarabeoState
from game.scarabeo.moves import Accept, Challenge, Vote
from game.scarabeo.rules import apply_swaps, invalid_words
from game.scarabeo.tiles import LETTERS, SCARAB, sort_rack


# --- the table ------------------------------------------------------------------------------------
def table(state: ScarabeoState, clock: Mapping[str, Any] | None, placed: Mapping[int, str] | None = None,
          order: Sequence[int] = (), swaps: Sequence[int] = (),
          last: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The table to save now: the position it belongs to, the hourglass's turn (``clock``, from
    ``Hourglass.saved()``, or None), the tiles laid but not played (``placed`` {square: tile},
    laid in ``order``, with the board scarabs taken in ``swaps``) and what the last move needs to
    be taken back (``last``: ``{"clock": Hourglass.saved() before it, or None, "timeout": bool}``)."""
    out: dict[str, Any] = {"move": len(state.history())}
    if state.is_over():
        return out
    seat = state.to_move()
    out["seat"] = seat
    if clock is not None:
        out["clock"] = dict(clock)
    if last is not None and state.history():
        before = last.get("clock")
        out["last"] = {"clock": dict(before) if isinstance(before, Mapping) else None,
                       "timeout": bool(last.get("timeout"))}
    if placed or swaps:
        placed = placed or {}
        squares = [sq for sq in order if sq in placed] + sorted(sq for sq in placed if sq not in order)
        out["tentative"] = {"rack": sort_rack(state.racks[seat]),
                            "placed": [[square_name(sq), placed[sq]] for sq in squares],
                            "swaps": [square_name(sq) for sq in swaps]}
    return out


def _for_this_position(state: ScarabeoState, saved: Any) -> bool:
    return (isinstance(saved, Mapping) and not state.is_over() and saved.get("move") == len(state.history())
            and saved.get("seat") == state.to_move() and not isinstance(saved.get("move"), bool))


def saved_clock(state: ScarabeoState, saved: Any) -> Mapping[str, Any] | None:
    """The hourglass turn saved for this very position, for ``attach_clock`` (which checks it), or None."""
    if not _for_this_position(state, saved):
        return None
    clock = saved.get("clock")
    return clock if isinstance(clock, Mapping) else None


def saved_last(state: ScarabeoState, saved: Any) -> dict[str, Any] | None:
    """What was saved about the last move for this very position (``{"clock": … or None,
    "timeout": bool}``), or None when nothing (or something damaged) was."""
    if not _for_this_position(state, saved) or not state.history():
        return None
    last = saved.get("last")
    if not isinstance(last, Mapping) or not isinstance(last.get("timeout"), bool):
        return None
    clock = last.get("clock")
    if clock is not None and not isinstance(clock, Mapping):
        return None
    return {"clock": clock, "timeout": last["timeout"]}


def may_take_back(state: ScarabeoState, last: Mapping[str, Any] | None) -> bool:
    """Scarabeo's own limits on ``Session.can_take_back``: a time-out pass (the hourglass decided,
    not the player) and a dispute's decision (a challenge, an accept, a vote: the table decided)
    cannot be taken back. ``last`` is what the page knows about the last move (``saved_last``)."""
    history = state.history()
    if not history or isinstance(history[-1], (Challenge, Accept, Vote)):
        return False
    return not (last is not None and last.get("timeout"))


def saved_tentative(state: ScarabeoState, saved: Any) -> tuple[dict[int, str], list[int], list[int]] | None:
    """The tiles laid but not played for this position and rack: (placed {square: tile}, the order
    they were laid, swaps), or None when there are none or they no longer fit (another move, another
    rack, a square now taken, a tile not on the rack, damaged data)."""
    if not _for_this_position(state, saved):
        return None
    data = saved.get("tentative")
    p = state.pending
    if not isinstance(data, Mapping) or (p is not None and p.kind == "vote"):
        return None
    seat = state.to_move()
    raw_placed, raw_swaps = data.get("placed"), data.get("swaps", [])
    if data.get("rack") != sort_rack(state.racks[seat]) or not isinstance(raw_placed, list) \
            or not isinstance(raw_swaps, list):
        return None
    try:
        swaps = [parse_square(str(name)) for name in raw_swaps]
        board, rack = state.board[:], list(state.racks[seat])
        apply_swaps(board, rack, swaps)
        placed: dict[int, str] = {}
        order: list[int] = []
        for item in raw_placed:
            if not isinstance(item, list) or len(item) != 2 or not all(isinstance(x, str) for x in item):
                return None
            sq, ch = parse_square(item[0]), item[1]
            if len(ch) != 1 or ch.upper() not in LETTERS or board[sq] or sq in placed:
                return None
            tile = SCARAB if ch.islower() else ch
            if tile not in rack:
                return None
            rack.remove(tile)
            placed[sq] = ch
            order.append(sq)
    except (IllegalMove, ValueError):
        return None
    if not placed and not swaps:
        return None
    return placed, order, swaps


# --- disputes --------------------------------------------------------------------------------------
def _pending_challenge(state: ScarabeoState) -> Any:
    p = state.pending
    return p if p is not None and p.kind == "challenge" and not state.is_over() else None


def challengers(state: ScarabeoState, seats: Sequence[Any]) -> list[int]:
    """The people who may challenge the pending play here: every person but the player who made it
    (a seat whose ``here`` is false plays on another device, remote play: it challenges from there)."""
    p = _pending_challenge(state)
    if p is None:
        return []
    return [s for s, seat in enumerate(seats)
            if not seat.computer and s != p.player and getattr(seat, "here", True)]


def computer_challenger(state: ScarabeoState, seats: Sequence[Any]) -> int | None:
    """The computer seat that challenges the pending play now, next to move or not: the first
    computer in turn order after the player who made it, when the game's lexicon (the one every
    computer seat reads) refuses a word of the play — the engine's own ``invalid_words``, so such a
    challenge is always upheld. None when no computer challenges."""
    p = _pending_challenge(state)
    if p is None or not invalid_words([w.word for w in p.breakdown.words], state.word_list, state.accepted):
        return None
    n = len(seats)
    return next((s for s in ((p.player + k) % n for k in range(1, n)) if seats[s].computer), None)


def computer_vote(state: ScarabeoState) -> str:
    """A computer seat's vote on the pending vote: ``Y`` when the game's lexicon (the engine's
    ``invalid_words``) knows every word voted on, as on a word contested by the table, else ``N``."""
    p = state.pending
    if p is None or p.kind != "vote":
        return "N"
    return "N" if invalid_words(list(p.unknown), state.word_list, frozenset()) else "Y"


def contest_words(state: ScarabeoState) -> list[str]:
    """Vote mode: the words of the open play that may be put to the vote (each once, main word
    first; not those an earlier vote accepted). Empty outside vote mode or with no open play."""
    p = _pending_challenge(state)
    if p is None or state.check_mode != "vote":
        return []
    return [w for w in dict.fromkeys(x.word for x in p.breakdown.words) if w not in state.accepted]


def computer_waits(state: ScarabeoState, seats: Sequence[Any]) -> bool:
    """The computer to move holds back while the people decide on the pending play: no computer
    challenges it, and a person other than the one who made the play sits at the table. During a
    vote on the computer's own play (a person contested it) it waits for the people's ballot: its
    ``think`` would cast every seat's vote."""
    if state.is_over() or not seats[state.to_move()].computer:
        return False
    p = state.pending
    if p is not None and p.kind == "vote":
        return any(not seat.computer for seat in seats)
    if computer_challenger(state, seats) is not None:
        return False
    return bool(challengers(state, seats))


def dispute_on_cover(state: ScarabeoState, seats: Sequence[Any]) -> bool:
    """The pending play is challenged or accepted on the pass-and-play cover, before the next
    player's rack is shown: the seat to move is a person, no computer challenges the play, and a
    person other than the one to move may challenge it (with only the player to move able to, they
    decide on their own screen, rack in view, as at the table)."""
    if state.is_over() or seats[state.to_move()].computer or computer_challenger(state, seats) is not None:
        return False
    return any(s != state.to_move() for s in challengers(state, seats))


def vote_on_cover(state: ScarabeoState, seats: Sequence[Any]) -> bool:
    """A vote is cast on the pass-and-play cover, every rack hidden: the ballot is for the whole
    table, so when two or more people sit at it the device is in everyone's view, and the rack of
    the player to move (who made the play voted on) must not be."""
    pending = state.pending
    if state.is_over() or pending is None or pending.kind != "vote" or seats[state.to_move()].computer:
        return False
    return sum(1 for s in seats if not s.computer) >= 2


# --- the score sheet ------------------------------------------------------------------------------
def sheet(state: ScarabeoState) -> list[dict[str, Any]]:
    """The score sheet's rows, from the engine's results: ``{"index": move number from 0, "seat":
    whose name heads the row, "move": the notation, "note": None or one of "pending", "accepted",
    "withdrawn" (on a play waiting for or having met a dispute), "upheld", "failed" (on a challenge),
    "score", "total"}``; ``score``/``total`` are None on a challenge row (the points it
    takes away are the disputed player's: ``"player"`` names them, ``"lost"`` how many).

    A challenge is written under the challenger; an ``!accept`` gets no row of its own but the note
    "accepted" on the play it accepted (the record keeps the notation)."""
    results = state.results()
    moves = state.history()
    rows: list[dict[str, Any]] = []
    for i, r in enumerate(results):
        move = moves[i]
        if isinstance(move, Accept):
            continue
        row: dict[str, Any] = {"index": i, "seat": r.player, "move": state.move_text(move), "note": None,
                               "score": r.score, "total": r.total}
        if isinstance(move, Challenge) and state.check_mode == "vote":
            # a contest: the vote that follows decides, on its own row; without a word named, every
            # word of the play contested (the move just before: an open play lasts one move) is voted on
            play = results[i - 1].breakdown if i else None
            words = list(move.words) or ([w for w in dict.fromkeys(x.word for x in play.words)] if play else [])
            row.update(seat=move.seat, note="contested", score=None, total=None, player=r.player, lost=0,
                       words=words)
        elif isinstance(move, Challenge):
            row.update(seat=move.seat, note="upheld" if r.score < 0 else "failed", score=None, total=None,
                       player=r.player, lost=-r.score)
        elif r.pending:
            after = moves[i + 1] if i + 1 < len(moves) else None
            if after is None:
                row["note"] = "pending" if state.pending is not None else None
            elif isinstance(after, Accept):
                row["note"] = "accepted"
            elif isinstance(after, Challenge) and results[i + 1].score < 0:
                row["note"] = "withdrawn"
        rows.append(row)
    return rows
