"""The quick Ruins variant of rules.md §3: 2-4 players, one shared 6x6 board, 4 rounds.

Decisions where rules.md is silent (see docs/scarabya.md):
- The 16 Ruins tiles carry symbols only (P pot 1, M mask 2, S scarab 3); when a round reveals four
  of them each is laid on its own 2x2 zone, one of the nine aligned zones (zone 1 = A1-B2, 2 = C1-D2,
  3 = E1-F2, 4 = A3-B4 … 9 = E5-F6). The deck order and the zones are shuffled from the seed.
- Round r (0-based) starts with seat r mod players; turns go in seat order. A player who can place a
  piece must; one who cannot is passed over automatically. The round ends when nobody can place.
- At the round's end a tile whose four squares are all covered by one player's pieces scores its
  symbols for that player; then the board is emptied and the pieces go back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from game.core import GameState, IllegalMove, NotationError, Outcome, Rng
from game.scarabya.grid import Grid
from game.scarabya.inputs import check_length, option_int, option_text, parse_seed, seed_int
from game.scarabya.shapes import Shape, build_shape

VARIANT = "ruins"
BOARD = Grid(6, 6)
ROUNDS = 4
TILES_PER_ROUND = 4
MIN_PLAYERS, MAX_PLAYERS = 2, 4

PIECE_DRAWINGS: dict[str, str] = {
    "2I": "##",
    "3I": "###",
    "3L": "##/#.",
    "4I": "####",
    "4O": "##/##",
    "4T": "###/.#.",
    "4S": ".##/##.",
    "4L": "###/#..",
}
PIECE_NAMES: tuple[str, ...] = tuple(PIECE_DRAWINGS)
PIECES: dict[str, Shape] = {n: build_shape(n, d, BOARD) for n, d in PIECE_DRAWINGS.items()}
ALL_PIECES = (1 << len(PIECE_NAMES)) - 1

SYMBOL_VALUES = {"P": 1, "M": 2, "S": 3}
SYMBOL_NAMES = {"P": "pot", "M": "mask", "S": "scarab"}
#: The 16 Ruins tiles by id (hex digit 0-F): their symbols.
RUINS_TILES: tuple[str, ...] = (
    "P", "P", "M", "M", "S",
    "PP", "PM", "PS", "MM", "MS",
    "PPP", "PPM", "PMS", "MMS", "PSS", "SSS",
)  # fmt: skip
HEX = "0123456789ABCDEF"


def zone_mask(zone: int) -> int:
    """Zone 1-9 -> its 2x2 squares on the 6x6 board."""
    z = zone - 1
    col, row = (z % 3) * 2, (z // 3) * 2
    base = row * 6 + col
    return (1 << base) | (1 << (base + 1)) | (1 << (base + 6)) | (1 << (base + 7))


def tile_value(tile_id: int) -> int:
    return sum(SYMBOL_VALUES[c] for c in RUINS_TILES[tile_id])


@dataclass(frozen=True, order=True)
class PiecePlace:
    piece: str
    orientation: int
    anchor: int

    def text(self) -> str:
        return f"{self.piece}{self.orientation}@{BOARD.name(self.anchor)}"


def parse_piece_move(text: str) -> PiecePlace:
    raw = text.strip().upper()
    if raw[:2] not in PIECES:
        raise NotationError(f"expected a piece ({' '.join(PIECE_NAMES)}) first, as in 4T1@C3", text, 0)
    orientation, anchor = BOARD.parse_placement(raw, text, 2, "piece", "4T1@C3")
    return PiecePlace(raw[:2], orientation, anchor)


def parse_deck(text: str) -> tuple[int, ...]:
    if len(text) != 16 or sorted(text.upper()) != sorted(HEX):
        raise NotationError("a Ruins deck is the 16 tile ids 0-F, each once, in draw order", text)
    return tuple(HEX.index(c) for c in text.upper())


def parse_zones(text: str) -> tuple[int, ...]:
    if len(text) != 16 or not all(c in "123456789" for c in text):
        raise NotationError("Ruins zones are 16 digits 1-9, four per round", text)
    zones = tuple(int(c) for c in text)
    for r in range(ROUNDS):
        quad = zones[r * 4 : r * 4 + 4]
        if len(set(quad)) != 4:
            raise NotationError(f"round {r + 1} lays two tiles on the same zone", text, r * 4)
    return zones


class RuinsState(GameState[PiecePlace]):
    GAME = "scarabya"

    def __init__(self, players: int, deck: tuple[int, ...], zones: tuple[int, ...], seed: int = 0) -> None:
        if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"the Ruins variant is for {MIN_PLAYERS}-{MAX_PLAYERS} players, not {players!r}")
        self._players = players
        self._deck = deck
        self._zones = zones
        self._seed = seed
        self.round_index = 0
        self.occupied = [0] * players  # squares covered by each player this round
        self.unused = [ALL_PIECES] * players  # bit i = PIECE_NAMES[i] still in hand
        self.seat = 0
        self.scores = [0] * players
        self.scored: list[dict[str, Any]] = []  # one entry per revealed tile, at its round's end
        self.pieces_on_board: list[tuple[int, PiecePlace, int]] = []  # (seat, move, mask) this round
        self._history: list[PiecePlace] = []
        self._undo: list[tuple[Any, ...]] = []

    @classmethod
    def new(
        cls, players: int = 2, seed: int = 0, deck: str | None = None, zones: str | None = None
    ) -> RuinsState:
        rng = Rng(seed)
        order = list(range(16))
        rng.shuffle(order)
        laid: list[int] = []
        for _ in range(ROUNDS):
            nine = list(range(1, 10))
            rng.shuffle(nine)
            laid.extend(nine[:TILES_PER_ROUND])
        return cls(
            players,
            parse_deck(deck) if deck else tuple(order),
            parse_zones(zones) if zones else tuple(laid),
            seed,
        )

    @classmethod
    def from_options(cls, options: Mapping[str, Any], seed: int) -> RuinsState:
        """Options come from records, that is from outside: a field of the wrong type is a
        ``ValueError`` naming it (see ``ScarabyaState.from_options``)."""
        if not isinstance(options, Mapping):
            raise ValueError("the options must be an object")
        return cls.new(
            option_int(options, "players", 2),
            seed_int(seed),
            option_text(options, "deck", "the 16 tile ids 0-F"),
            option_text(options, "zones", "16 digits 1-9"),
        )

    def copy(self) -> RuinsState:
        other = RuinsState.__new__(RuinsState)
        other.__dict__.update(self.__dict__)
        other.occupied = list(self.occupied)
        other.unused = list(self.unused)
        other.scores = list(self.scores)
        other.scored = list(self.scored)
        other.pieces_on_board = list(self.pieces_on_board)
        other._history = list(self._history)
        other._undo = list(self._undo)
        return other

    # --- who plays ---------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self._players

    @property
    def seed(self) -> int:
        return self._seed

    def to_move(self) -> int:
        return self.seat

    def revealed(self) -> list[tuple[int, int]]:
        """(tile id, zone) of the four Ruins tiles of the current round."""
        r = min(self.round_index, ROUNDS - 1)
        return [(self._deck[i], self._zones[i]) for i in range(r * 4, r * 4 + 4)]

    # --- moves -------------------------------------------------------------------------
    def _placements_for(self, seat: int) -> list[tuple[str, int, int, int]]:
        full = 0
        for occ in self.occupied:
            full |= occ
        out = []
        for i, name in enumerate(PIECE_NAMES):
            if self.unused[seat] >> i & 1:
                shape = PIECES[name]
                for k in sorted(shape.placements):
                    for anchor, mask in shape.placements[k]:
                        if not mask & full:
                            out.append((name, k, anchor, mask))
        return out

    def _can_place(self, seat: int) -> bool:
        full = 0
        for occ in self.occupied:
            full |= occ
        for i, name in enumerate(PIECE_NAMES):
            if self.unused[seat] >> i & 1:
                for plist in PIECES[name].placements.values():
                    for _, mask in plist:
                        if not mask & full:
                            return True
        return False

    def placements(self) -> list[tuple[str, int, int, int]]:
        return [] if self.is_over() else self._placements_for(self.seat)

    def legal_moves(self) -> list[PiecePlace]:
        return [PiecePlace(n, k, a) for n, k, a, _ in self.placements()]

    def check(self, move: PiecePlace) -> None:
        self._check(move)

    def _check(self, move: PiecePlace) -> int:
        if self.is_over():
            raise IllegalMove("game-over", "the game is over: all 4 rounds have been played")
        idx = PIECE_NAMES.index(move.piece)
        if not self.unused[self.seat] >> idx & 1:
            raise IllegalMove(
                "piece-used", f"seat {self.seat + 1} has already placed piece {move.piece} this round"
            )
        mask = PIECES[move.piece].mask_at(BOARD, move.orientation, move.anchor)
        if mask is None:
            raise IllegalMove("outside-board", f"{move.text()} does not fit on the 6x6 board")
        full = 0
        for occ in self.occupied:
            full |= occ
        if mask & full:
            over = BOARD.names(mask & full)
            raise IllegalMove(
                "overlap", f"{move.text()} would overlap a piece on {', '.join(over)}", squares=over
            )
        return mask

    def push(self, move: PiecePlace) -> dict[str, Any]:
        mask = self._check(move)
        seat = self.seat
        self._undo.append(
            (
                self.round_index,
                list(self.occupied),
                list(self.unused),
                self.seat,
                list(self.scores),
                len(self.scored),
                list(self.pieces_on_board),
            )
        )
        self._history.append(move)
        self.occupied[seat] |= mask
        self.unused[seat] &= ~(1 << PIECE_NAMES.index(move.piece))
        self.pieces_on_board.append((seat, move, mask))
        result: dict[str, Any] = {
            "seat": seat,
            "round": self.round_index + 1,
            "move": move.text(),
            "piece": move.piece,
            "square": BOARD.name(move.anchor),
            "scored": [],
        }
        n = self._players
        for step in range(1, n + 1):
            nxt = (seat + step) % n
            if self._can_place(nxt):
                self.seat = nxt
                return result
        result["scored"] = self._end_round()
        return result

    def _end_round(self) -> list[dict[str, Any]]:
        scored = []
        for tile_id, zone in self.revealed():
            zm = zone_mask(zone)
            owner = next((p for p in range(self._players) if self.occupied[p] & zm == zm), None)
            entry = {
                "round": self.round_index + 1,
                "tile": HEX[tile_id],
                "symbols": RUINS_TILES[tile_id],
                "zone": zone,
                "squares": BOARD.names(zm),
                "seat": owner,
                "points": tile_value(tile_id) if owner is not None else 0,
            }
            if owner is not None:
                self.scores[owner] += tile_value(tile_id)
            scored.append(entry)
        self.scored.extend(scored)
        self.round_index += 1
        self.occupied = [0] * self._players
        self.unused = [ALL_PIECES] * self._players
        self.pieces_on_board = []
        self.seat = self.round_index % self._players
        return scored

    def pop(self) -> PiecePlace:
        if not self._history:
            raise IndexError("no move to take back")
        move = self._history.pop()
        rnd, occ, unused, seat, scores, n_scored, on_board = self._undo.pop()
        # Copies, never the undo entry's own lists: a copy() of this state shares the undo entries,
        # and push mutates these lists in place.
        self.round_index, self.seat = rnd, seat
        self.occupied, self.unused, self.scores = list(occ), list(unused), list(scores)
        del self.scored[n_scored:]
        self.pieces_on_board = list(on_board)
        return move

    # --- end ---------------------------------------------------------------------------
    def is_over(self) -> bool:
        return self.round_index >= ROUNDS

    def outcome(self) -> Outcome | None:
        if not self.is_over():
            return None
        best = max(self.scores)
        return Outcome(
            scores=tuple(self.scores),
            winners=tuple(i for i, s in enumerate(self.scores) if s == best),
            reason="rounds-complete",
            detail={
                "tiles_won": [sum(1 for e in self.scored if e["seat"] == p) for p in range(self._players)]
            },
        )

    # --- notation ----------------------------------------------------------------------
    def parse_move(self, text: str) -> PiecePlace:
        return parse_piece_move(text)

    def move_text(self, move: PiecePlace) -> str:
        return move.text()

    def position(self) -> str:
        """``ruins PLAYERS DECK ZONES MOVES SEED``: MOVES is every move so far, comma-separated."""
        deck = "".join(HEX[t] for t in self._deck)
        zones = "".join(str(z) for z in self._zones)
        moves = ",".join(m.text() for m in self._history) or "."
        return f"{VARIANT} {self._players} {deck} {zones} {moves} {self._seed}"

    @classmethod
    def from_position(cls, text: str) -> RuinsState:
        check_length(text)
        fields = text.split()
        if len(fields) not in (5, 6) or fields[0] != VARIANT:
            raise NotationError("a Ruins position is 'ruins PLAYERS DECK ZONES MOVES [SEED]'", text)
        if fields[1] not in [str(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)]:
            raise NotationError(
                f"players must be {MIN_PLAYERS}-{MAX_PLAYERS}, not {fields[1]!r}", text, text.find(fields[1])
            )
        seed = parse_seed(fields[5], text, text.rfind(fields[5])) if len(fields) == 6 else 0
        state = cls(int(fields[1]), parse_deck(fields[2]), parse_zones(fields[3]), seed)
        if fields[4] != ".":
            for i, mtext in enumerate(fields[4].split(","), start=1):
                try:
                    state.push(parse_piece_move(mtext))
                except IllegalMove as err:
                    raise NotationError(
                        f"move {i} {mtext} is illegal: {err}", text, text.find(fields[4])
                    ) from None
                except NotationError as err:
                    raise NotationError(f"move {i}: {err.message}", text, text.find(fields[4])) from None
        return state

    # --- records -----------------------------------------------------------------------
    def options(self) -> dict[str, Any]:
        return {
            "variant": VARIANT,
            "players": self._players,
            "deck": "".join(HEX[t] for t in self._deck),
            "zones": "".join(str(z) for z in self._zones),
        }

    def history(self) -> list[PiecePlace]:
        return list(self._history)

    # --- rendering ---------------------------------------------------------------------
    def squares_of(self, move: PiecePlace) -> list[str]:
        """The squares a placement would cover (legal or not; [] off the board), for ghost pieces."""
        mask = PIECES[move.piece].mask_at(BOARD, move.orientation, move.anchor)
        return BOARD.names(mask) if mask else []

    def board_rows(self) -> list[str]:
        """Six strings of six cells: ``.`` empty, ``1``-``4`` the seat whose piece covers it."""
        cells = ["."] * 36
        for p, occ in enumerate(self.occupied):
            for sq in BOARD.squares(occ):
                cells[sq] = str(p + 1)
        return ["".join(cells[r * 6 : r * 6 + 6]) for r in range(6)]

    def last_round_board(self) -> dict[str, Any] | None:
        """The board of the last round that ended, as its last placement left it before the round's
        end cleared it (None in round 1): ``round``, ``rows`` and ``ruins`` as in ``view`` (who
        covered each zone), the placement's ``seat``, ``move`` and ``squares``, and what the round
        ``scored``. The engine's own take-back on a copy, then the placement without the round's end."""
        if len(self._history) <= len(self.pieces_on_board):
            return None
        before = self.copy()
        for _ in self.pieces_on_board:
            before.pop()
        move = before.pop()
        seat = before.seat
        mask = before._check(move)
        before.occupied[seat] |= mask  # pop gave the copy lists of its own
        before.pieces_on_board.append((seat, move, mask))
        v = before.view()
        return {"round": v["round"], "rows": v["rows"], "ruins": v["ruins"], "seat": seat,
                "move": move.text(), "squares": BOARD.names(mask),
                "scored": [e for e in self.scored if e["round"] == v["round"]]}

    def view(self) -> dict[str, Any]:
        over = self.is_over()
        ruins = []
        if not over:
            for tile_id, zone in self.revealed():
                zm = zone_mask(zone)
                holders = [p for p in range(self._players) if self.occupied[p] & zm]
                ruins.append(
                    {
                        "tile": HEX[tile_id],
                        "symbols": RUINS_TILES[tile_id],
                        "value": tile_value(tile_id),
                        "zone": zone,
                        "squares": BOARD.names(zm),
                        "covered_by": holders,
                        "claimable": len(holders) <= 1,
                    }
                )
        outcome = self.outcome()
        return {
            "game": self.GAME,
            "variant": VARIANT,
            "position": self.position(),
            "players": self._players,
            "seed": self._seed,
            "round": min(self.round_index + 1, ROUNDS),
            "rounds": ROUNDS,
            "to_move": None if over else self.seat,
            "rows": self.board_rows(),
            "pieces": [
                {"seat": s, "piece": m.piece, "move": m.text(), "squares": BOARD.names(mask)}
                for s, m, mask in self.pieces_on_board
            ],
            "ruins": ruins,
            "piece_shapes": {n: PIECES[n].orientations_json() for n in PIECE_NAMES},
            "hands": [[n for i, n in enumerate(PIECE_NAMES) if u >> i & 1] for u in self.unused],
            "legal_placements": len(self.placements()),
            "scores": list(self.scores),
            "scored": list(self.scored),
            "over": over,
            "outcome": outcome.to_json() if outcome else None,
            "legend": {".": "empty square", "1-4": "covered by that seat's piece"},
            "symbols": {k: {"name": SYMBOL_NAMES[k], "value": v} for k, v in SYMBOL_VALUES.items()},
        }
