"""The rules of the Game of Thot (rules.md §2): setup, moves, ankh drops, end and tie-breaks.

``ThotState`` is both the public game object (``push``/``pop`` of ``ThotMove`` with full checks,
notation, ``view()`` for the page) and the search's board: ``_gen``, ``_make`` and ``_unmake``
work on packed int moves, in place, with an incremental Zobrist key.

Decisions where the rulebook is silent:
- The priest may stop on any scarab or ankh of its line, sliding over pieces and gaps; the first
  move of the game must take a scarab (the rulebook's "The First Turn"), not an ankh.
- The game ends when the player to move has no move (no piece in the line they must use) or when
  no scarab is left on the board; nobody ever passes.
- Ankh: the ankh leaves the game; the mover may put one collected scarab on any empty square (the
  square the priest just left included). That scarab leaves the mover's collection, so it no
  longer counts for them; it is a board piece again for whoever takes it.
- Turn-off: the priest may turn 90° once, on a marked scarab it passes over (not the one it
  stops on), and stops on any piece of the new line on that side; the next move is perpendicular
  to that last leg, that is along the first leg's line.
- Ties: the highest total wins; equal totals are split by the count of +8s, then +7s … +1s;
  still equal is a shared result. In the team game the teams' totals and counts are added.
"""

from __future__ import annotations

from typing import Any

from game.core import GameRecord, GameState, IllegalMove, NotationError, Outcome
from game.thot import zobrist as Z
from game.thot.board import (
    ANKH,
    ANY,
    AXIS_NAMES,
    COLUMN,
    DIRS_BY_AXIS,
    EMPTY,
    FULL_SIZE,
    MARKED,
    MARKED_VALUES,
    NEGATIVE_CODES,
    PERPENDICULAR,
    ROW,
    SCARAB_CODES,
    SHORT_SIZE,
    VALUE,
    code_of,
    geometry,
    scarab_set,
    setup,
)
from game.thot.moves import ThotMove
from game.thot.notation import PositionData, format_move, format_position, parse_move, parse_position

_N = Z.N_CODES
_CI = Z.CODE_INDEX
_ZP = Z.PIECE
_ZH = Z.HELD


class ThotState(GameState[ThotMove]):
    GAME = "thot"

    # ------------------------------------------------------------------ construction
    def __init__(
        self,
        size: int,
        board: list[int],
        priest: int,
        *,
        players: int = 2,
        axis: int = ANY,
        to_move: int = 0,
        collections: list[list[int]] | None = None,
        turnoff: bool = False,
        teams: bool = False,
        seed: int = 0,
    ) -> None:
        if size not in (FULL_SIZE, SHORT_SIZE):
            raise ValueError(f"the board is {FULL_SIZE}×{FULL_SIZE} or {SHORT_SIZE}×{SHORT_SIZE}, not {size}")
        if not 2 <= players <= 4:
            raise ValueError(f"the game is for 2 to 4 players, not {players}")
        if teams and players != 4:
            raise ValueError("the team game needs 4 players")
        if not 0 <= to_move < players:
            raise ValueError(f"seat {to_move} does not exist with {players} players")
        if len(board) != size * size or not 0 <= priest < size * size:
            raise ValueError("the board list does not match the board size")
        self.size = size
        self.geo = geometry(size)
        self.players = players
        self.turnoff = turnoff
        self.teams = teams
        self._seed = seed
        self.board = list(board)
        self.board[priest] = EMPTY
        self.priest = priest
        self.axis = axis
        self.mover = to_move
        colls = collections if collections is not None else [[] for _ in range(players)]
        if len(colls) != players:
            raise ValueError(f"{len(colls)} collections for {players} players")
        #: ``counts[seat][code]``: how many scarabs of that code the seat holds (128-long lists).
        self.counts = [[0] * 128 for _ in range(players)]
        self.score = [0] * players
        for seat, coll in enumerate(colls):
            for code in coll:
                self.counts[seat][code] += 1
                self.score[seat] += VALUE[code]
        self.scarabs = sum(1 for c in self.board if c != EMPTY and c != ANKH)
        self.ankhs = self.board.count(ANKH)
        self._check_set()
        #: Seats on the same side share a result: each seat alone, or the two teams.
        self.side = [s // 2 for s in range(players)] if teams else list(range(players))
        self.hash = self._full_hash()
        self._undo: list[tuple[int, int, int, int, int]] = []
        self._history: list[int] = []

    @classmethod
    def new(
        cls,
        players: int = 2,
        short: bool = False,
        turnoff: bool = False,
        teams: bool = False,
        seed: int = 0,
    ) -> "ThotState":
        size = SHORT_SIZE if short else FULL_SIZE
        board, priest = setup(size, seed)
        return cls(size, board, priest, players=players, turnoff=turnoff, teams=teams, seed=seed)

    @classmethod
    def from_options(cls, options: Any, seed: int) -> "ThotState":
        """Set up a game from a record's options (the inverse of ``options()``)."""
        known = {"players", "short", "turnoff", "teams"}
        extra = set(options) - known
        if extra:
            raise ValueError(f"unknown option {sorted(extra)[0]!r}")
        players = options.get("players", 2)
        if not isinstance(players, int) or isinstance(players, bool):
            raise ValueError("players must be an integer")
        flags = {k: options.get(k, False) for k in ("short", "turnoff", "teams")}
        for k, v in flags.items():
            if not isinstance(v, bool):
                raise ValueError(f"option {k} must be true or false")
        return cls.new(players=players, seed=seed, **flags)

    def _check_set(self) -> None:
        allowed = scarab_set(self.size == SHORT_SIZE)
        seen: dict[int, int] = {}
        for c in self.board:
            if c != EMPTY and c != ANKH:
                seen[c] = seen.get(c, 0) + 1
        for counts in self.counts:
            for c in SCARAB_CODES:
                if counts[c]:
                    seen[c] = seen.get(c, 0) + counts[c]
        for c, n in seen.items():
            if n > allowed.get(c, 0):
                name = f"{VALUE[c]:+d}" + (" marked" if MARKED[c] else "")
                raise ValueError(
                    f"{n} scarabs {name} on the board and in the collections; the set has {allowed.get(c, 0)}"
                )
        if self.ankhs > 3:
            raise ValueError(f"{self.ankhs} ankhs on the board; the set has 3")

    def _full_hash(self) -> int:
        h = Z.PRIEST[self.priest] ^ Z.AXIS[self.axis + 1] ^ Z.MOVER[self.mover]
        for sq, c in enumerate(self.board):
            if c:
                h ^= _ZP[sq * _N + _CI[c]]
        for seat, counts in enumerate(self.counts):
            for c in SCARAB_CODES:
                h ^= _ZH[(seat * _N + _CI[c]) * 8 + counts[c]]
        return h

    def copy(self) -> "ThotState":
        other = ThotState.__new__(ThotState)
        other.__dict__.update(self.__dict__)
        other.board = list(self.board)
        other.counts = [list(c) for c in self.counts]
        other.score = list(self.score)
        other._undo = list(self._undo)
        other._history = list(self._history)
        return other

    # ------------------------------------------------------------------ protocol: players
    @property
    def num_players(self) -> int:
        return self.players

    def to_move(self) -> int:
        return self.mover

    @property
    def seed(self) -> int:
        return self._seed

    def options(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "short": self.size == SHORT_SIZE,
            "turnoff": self.turnoff,
            "teams": self.teams,
        }

    def history(self) -> list[ThotMove]:
        return [ThotMove.from_code(c) for c in self._history]

    # ------------------------------------------------------------------ fast move generation
    def _best_drop_code(self) -> int:
        """The most negative scarab the mover holds (unmarked first), or 0 when none."""
        counts = self.counts[self.mover]
        for c in NEGATIVE_CODES:
            if counts[c]:
                return c
        return 0

    def _has_move(self) -> bool:
        b = self.board
        rays = self.geo.rays[self.priest]
        first = self.axis == ANY
        for d in DIRS_BY_AXIS[self.axis]:
            for sq in rays[d]:
                if b[sq] and not (first and b[sq] == ANKH):
                    return True
        return False

    def _gen(self) -> list[int]:
        """Packed legal moves, most promising first (by immediate gain).

        Ankh landings come as the plain capture plus the drops the search considers: the most
        negative scarab held, on every empty square of the ankh's row and column (where the next
        players must move) and on one square off those lines. ``check()`` accepts every drop.
        """
        b = self.board
        p = self.priest
        rays = self.geo.rays
        prays = rays[p]
        keyed: list[int] = []
        append = keyed.append
        turnoff = self.turnoff
        # The rulebook's first turn goes "to the position of any Scarab piece": no ankh yet.
        ankhs_ok = self.axis != ANY
        drop_code = -1
        for d in DIRS_BY_AXIS[self.axis]:
            for sq in prays[d]:
                c = b[sq]
                if not c:
                    continue
                if c == ANKH:
                    if not ankhs_ok:
                        continue
                    if drop_code < 0:
                        drop_code = self._best_drop_code()
                    self._ankh_moves(sq, 0, drop_code, append)
                else:
                    append((VALUE[c] + 64) << 32 | sq)
                if turnoff and MARKED[c]:
                    for d2 in PERPENDICULAR[d]:
                        for sq2 in rays[sq][d2]:
                            c2 = b[sq2]
                            if not c2:
                                continue
                            if c2 == ANKH:
                                if not ankhs_ok:
                                    continue
                                if drop_code < 0:
                                    drop_code = self._best_drop_code()
                                self._ankh_moves(sq2, (sq + 1) << 7, drop_code, append)
                            else:
                                append((VALUE[c2] + 64) << 32 | (sq + 1) << 7 | sq2)
        keyed.sort(reverse=True)
        return [k & 0xFFFFFFFF for k in keyed]

    def _ankh_moves(self, dest: int, turn_bits: int, drop_code: int, append: Any) -> None:
        append(64 << 32 | turn_bits | dest)
        if not drop_code:
            return
        b = self.board
        size = self.size
        gain = (64 - VALUE[drop_code]) << 32
        piece_bits = (drop_code + 32) << 21
        base = gain | piece_bits | turn_bits | dest
        for sq in self.geo.lines[dest]:
            if not b[sq]:
                append(base | (sq + 1) << 14)
        r, c = divmod(dest, size)
        for sq in range(size * size):
            if not b[sq] and sq != dest and sq // size != r and sq % size != c:
                append((gain - (1 << 32)) | piece_bits | turn_bits | dest | (sq + 1) << 14)
                break

    # ------------------------------------------------------------------ make / unmake
    def _make(self, code: int) -> None:
        b = self.board
        dest = code & 127
        turn = (code >> 7) & 127
        drop = (code >> 14) & 127
        m = self.mover
        p = self.priest
        cap = b[dest]
        h = self.hash
        self._undo.append((code, cap, p, self.axis, h))
        h ^= Z.PRIEST[p] ^ Z.PRIEST[dest] ^ _ZP[dest * _N + _CI[cap]] ^ Z.AXIS[self.axis + 1]
        b[dest] = EMPTY
        counts = self.counts[m]
        if cap == ANKH:
            self.ankhs -= 1
        else:
            self.scarabs -= 1
            self.score[m] += VALUE[cap]
            k = (m * _N + _CI[cap]) * 8
            n = counts[cap]
            h ^= _ZH[k + n] ^ _ZH[k + n + 1]
            counts[cap] = n + 1
        size = self.size
        first = turn - 1 if turn else dest
        # The next move is perpendicular to the last leg, i.e. along the first leg's line when
        # the priest turned, across the only leg otherwise.
        along_row = p // size == first // size
        if turn:
            axis = ROW if along_row else COLUMN
        else:
            axis = COLUMN if along_row else ROW
        self.axis = axis
        h ^= Z.AXIS[axis + 1]
        self.priest = dest
        if drop:
            piece = (code >> 21) - 32
            sq = drop - 1
            b[sq] = piece
            self.scarabs += 1
            self.score[m] -= VALUE[piece]
            k = (m * _N + _CI[piece]) * 8
            n = counts[piece]
            h ^= _ZH[k + n] ^ _ZH[k + n - 1] ^ _ZP[sq * _N + _CI[piece]]
            counts[piece] = n - 1
        nxt = m + 1
        if nxt == self.players:
            nxt = 0
        self.mover = nxt
        self.hash = h ^ Z.MOVER[m] ^ Z.MOVER[nxt]

    def _unmake(self) -> int:
        code, cap, p, axis, h = self._undo.pop()
        b = self.board
        dest = code & 127
        drop = (code >> 14) & 127
        m = self.mover - 1
        if m < 0:
            m = self.players - 1
        counts = self.counts[m]
        if drop:
            piece = (code >> 21) - 32
            b[drop - 1] = EMPTY
            self.scarabs -= 1
            self.score[m] += VALUE[piece]
            counts[piece] += 1
        b[dest] = cap
        if cap == ANKH:
            self.ankhs += 1
        else:
            self.scarabs += 1
            self.score[m] -= VALUE[cap]
            counts[cap] -= 1
        self.priest = p
        self.axis = axis
        self.mover = m
        self.hash = h
        return code

    # ------------------------------------------------------------------ protocol: moves
    def legal_moves(self, all_drops: bool = False) -> list[ThotMove]:
        """Every legal move; ankh drops are the search's candidates unless ``all_drops``.

        With ``all_drops`` every (empty square × kind of collected scarab) drop is listed too,
        which can run to hundreds of moves; ``check()`` accepts all of them either way.
        """
        if self.is_over():
            return []
        codes = self._gen()
        moves = [ThotMove.from_code(c) for c in codes if not (c >> 14) & 127]
        if not all_drops:
            return [ThotMove.from_code(c) for c in codes]
        kinds = [c for c in SCARAB_CODES if self.counts[self.mover][c]]
        out: list[ThotMove] = []
        for mv in moves:
            out.append(mv)
            if self.board[mv.dest] == ANKH:
                for sq in self.drop_squares(mv):
                    out.extend(ThotMove(mv.dest, mv.turn, sq, k) for k in kinds)
        return out

    def drop_squares(self, move: ThotMove) -> list[int]:
        """The empty squares that could receive a scarab after ``move`` (which lands on an ankh)."""
        return [
            sq
            for sq, c in enumerate(self.board)
            if c == EMPTY
        ]

    def check(self, move: ThotMove) -> None:
        if self.is_over():
            raise IllegalMove("game-over", "the game is over")
        n = self.size * self.size
        name = self.geo.name
        b = self.board
        p = self.priest
        for label, sq in (("destination", move.dest), ("turn", move.turn), ("drop", move.drop)):
            if sq is not None and not 0 <= sq < n:
                raise IllegalMove("off-board", f"the {label} square is off the board")
        dest = move.dest
        start = move.turn if move.turn is not None else dest
        if start == p:
            raise IllegalMove("no-slide", f"the priest is already on {name(p)}")
        if start not in self.geo.lines[p]:
            raise IllegalMove(
                "not-in-line", f"{name(start)} is not in the row or column of the priest on {name(p)}"
            )
        along_row = self.geo.same_row(p, start)
        if self.axis == ROW and not along_row:
            raise IllegalMove(
                "wrong-axis", f"this move must go along row {p // self.size + 1} (the last move was vertical)"
            )
        if self.axis == COLUMN and along_row:
            raise IllegalMove(
                "wrong-axis",
                f"this move must go along column {name(p)[0]} (the last move was horizontal)",
            )
        if move.turn is not None:
            t = move.turn
            if not self.turnoff:
                raise IllegalMove("no-turnoff", "turning is only allowed in the turn-off variant")
            if not MARKED[b[t]]:
                raise IllegalMove("turn-unmarked", f"{name(t)} holds no marked scarab to turn on")
            same_line = (dest // self.size == t // self.size) if not along_row else (dest % self.size == t % self.size)
            if dest == t or not same_line:
                raise IllegalMove(
                    "turn-not-square",
                    f"after turning on {name(t)} the priest must go on at a right angle, which {name(dest)} is not",
                )
        if b[dest] == EMPTY:
            raise IllegalMove(
                "empty-square", f"{name(dest)} is empty; the priest must stop on a scarab or an ankh"
            )
        if b[dest] == ANKH and self.axis == ANY:
            raise IllegalMove(
                "first-move-ankh",
                f"{name(dest)} holds an ankh; the first move of the game must take a scarab",
            )
        if move.drop is None:
            if move.piece:
                raise IllegalMove("bad-drop", "a dropped scarab needs a drop square")
            return
        if b[dest] != ANKH:
            raise IllegalMove(
                "drop-without-ankh", f"{name(dest)} holds no ankh; a scarab is dropped only after taking an ankh"
            )
        sq = move.drop
        if b[sq] != EMPTY:
            raise IllegalMove("drop-occupied", f"{name(sq)} is not empty; a scarab is dropped on an empty square")
        piece = move.piece
        if not (-24 <= piece <= 24) or VALUE[piece] == 0 or self.counts[self.mover][piece] <= 0:
            what = f"{VALUE[piece]:+d}" + (" marked" if MARKED[piece] else "") if -24 <= piece <= 24 else "?"
            raise IllegalMove("drop-not-held", f"seat {self.mover} holds no {what} scarab to drop")

    def push(self, move: ThotMove) -> dict[str, Any]:
        """Play ``move``; return what it did: the piece taken and the scarab dropped, if any."""
        self.check(move)
        taken = self.board[move.dest]
        name = self.geo.name
        # where the priest went, by whom, in structured form: the page says the move in words
        said = {"seat": self.mover, "from": name(self.priest), "to": name(move.dest),
                "turn": name(move.turn) if move.turn is not None else None,
                "drop_at": name(move.drop) if move.drop is not None else None}
        code = move.code
        self._make(code)
        self._history.append(code)
        return {
            "move": self.move_text(move),
            "taken": "ankh" if taken == ANKH else VALUE[taken],
            "dropped": VALUE[move.piece] if move.drop is not None else None,
            **said,
        }

    def pop(self) -> ThotMove:
        if not self._history:
            raise IndexError("no move to take back")
        self._history.pop()
        return ThotMove.from_code(self._unmake())

    # ------------------------------------------------------------------ end
    def is_over(self) -> bool:
        return self.scarabs == 0 or not self._has_move()

    def side_totals(self) -> list[int]:
        if self.teams:
            return [self.score[0] + self.score[1], self.score[2] + self.score[3]]
        return list(self.score)

    def side_seats(self) -> list[list[int]]:
        return [[0, 1], [2, 3]] if self.teams else [[s] for s in range(self.players)]

    def held(self, seat: int, value: int) -> int:
        """How many scarabs of ``value`` the seat holds, marked or not."""
        counts = self.counts[seat]
        n = counts[value]
        if value in MARKED_VALUES:
            n += counts[code_of(value, True)]
        return n

    def ranking(self) -> tuple[list[int], str | None]:
        """The winning sides and the tie-break step that decided ("+8" … "+1", "draw" or None)."""
        totals = self.side_totals()
        seats = self.side_seats()
        best = max(totals)
        cands = [i for i, t in enumerate(totals) if t == best]
        if len(cands) == 1:
            return cands, None
        for v in range(8, 0, -1):
            held = {i: sum(self.held(s, v) for s in seats[i]) for i in cands}
            top = max(held.values())
            cands = [i for i in cands if held[i] == top]
            if len(cands) == 1:
                return cands, f"+{v}"
        return cands, "draw"

    def outcome(self) -> Outcome | None:
        if not self.is_over():
            return None
        sides, tiebreak = self.ranking()
        seats = self.side_seats()
        winners = [s for i in sides for s in seats[i]]
        everyone = len(sides) == len(seats)
        detail: dict[str, Any] = {"tiebreak": tiebreak, "totals": self.side_totals()}
        if self.teams:
            detail["teams"] = seats
        if len(sides) > 1:
            detail["shared"] = winners
        return Outcome(
            scores=tuple(self.score),
            winners=() if everyone else tuple(winners),
            reason="no-scarab" if self.scarabs == 0 else "no-move",
            detail=detail,
        )

    # ------------------------------------------------------------------ notation
    def parse_move(self, text: str) -> ThotMove:
        mt = parse_move(self.geo, text)
        if mt.drop is None:
            return ThotMove(mt.dest, mt.turn)
        piece = code_of(mt.value, mt.marked)
        if not mt.marked and mt.value in MARKED_VALUES:
            # "-4" names the unmarked copy, or the marked one when that is all the player holds.
            counts = self.counts[self.mover]
            if not counts[piece] and counts[code_of(mt.value, True)]:
                piece = code_of(mt.value, True)
        return ThotMove(mt.dest, mt.turn, mt.drop, piece)

    def move_text(self, move: ThotMove) -> str:
        return format_move(self.geo, move)

    def _data(self) -> PositionData:
        return PositionData(
            size=self.size,
            board=self.board,
            priest=self.priest,
            axis=self.axis,
            to_move=self.mover,
            collections=[self.collection(s) for s in range(self.players)],
            turnoff=self.turnoff,
            teams=self.teams,
        )

    def collection(self, seat: int) -> list[int]:
        """The codes of the scarabs a seat holds, highest value first."""
        counts = self.counts[seat]
        return [c for c in reversed(SCARAB_CODES) for _ in range(counts[c])]

    def position(self) -> str:
        return format_position(self._data())

    @classmethod
    def from_position(cls, text: str) -> "ThotState":
        data = parse_position(text)
        players = len(data.collections)
        try:
            return cls(
                data.size,
                data.board,
                data.priest,
                players=players,
                axis=data.axis,
                to_move=data.to_move,
                collections=data.collections,
                turnoff=data.turnoff,
                teams=data.teams,
            )
        except ValueError as err:
            raise NotationError(f"impossible position: {err}", text) from None

    # ------------------------------------------------------------------ records
    def record(self, **meta: Any) -> GameRecord:
        return GameRecord.of(self, **meta)

    @classmethod
    def replay(cls, record: GameRecord) -> "ThotState":
        state = record.replay(cls.from_options)
        assert isinstance(state, ThotState)
        return state

    # ------------------------------------------------------------------ view
    def view(self) -> dict[str, Any]:
        """Everything a renderer needs (the ``show`` JSON of the command line, plus extras)."""
        size = self.size
        name = self.geo.name
        cells: list[list[Any]] = []
        for r in range(size):
            row: list[Any] = []
            for c in range(size):
                i = r * size + c
                v = self.board[i]
                row.append(
                    "priest" if i == self.priest else None if v == EMPTY else "ankh" if v == ANKH else VALUE[v]
                )
            cells.append(row)
        over = self.is_over()
        outcome = self.outcome() if over else None
        winner: Any = None
        tiebreak = None
        if outcome is not None:
            sides, tiebreak = self.ranking()
            seats = [s for i in sides for s in self.side_seats()[i]]
            winner = seats[0] if len(seats) == 1 else seats
        legal = self.legal_moves()
        return {
            "size": size,
            "cells": cells,
            "marked": [name(i) for i, v in enumerate(self.board) if MARKED[v]],
            "priest": name(self.priest),
            "to_move": self.mover,
            "axis": AXIS_NAMES[self.axis],
            "scores": list(self.score),
            "collections": [[VALUE[c] for c in self.collection(s)] for s in range(self.players)],
            "legal": [self.move_text(m) for m in legal],
            "over": over,
            "winner": winner,
            # extras
            "players": self.players,
            "short": size == SHORT_SIZE,
            "turnoff": self.turnoff,
            "teams": self.side_seats() if self.teams else None,
            "team_scores": self.side_totals() if self.teams else None,
            "marked_collected": [
                [VALUE[c] for c in self.collection(s) if MARKED[c]] for s in range(self.players)
            ],
            "targets": sorted({name(m.dest) for m in legal}),
            "scarabs_left": self.scarabs,
            "ankhs_left": self.ankhs,
            "last_move": self.move_text(ThotMove.from_code(self._history[-1])) if self._history else None,
            "tiebreak": tiebreak,
            "result": outcome.to_json() if outcome is not None else None,
            "position": self.position(),
        }
