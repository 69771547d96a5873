"""The Scarabya game state (classic rules of rules.md §3): 1-4 players, 12 rounds, one site each.

Turn model: every round each seat places the round's tile on its own site, in seat order, so the
player to move is the next seat that has not yet played this round's tile and tokens are taken in
seat order. A tile that fits nowhere is discarded with the explicit move ``-``, which is then the
only legal move (and never legal otherwise).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from game.core import GameState, IllegalMove, NotationError, Outcome, Rng
from game.scarabya import rules
from game.scarabya.grid import SITE
from game.scarabya.inputs import check_length, option_int, option_text, parse_seed, seed_int, shown
from game.scarabya.moves import DISCARD, Discard, Move, Place, parse_move
from game.scarabya.sets import CENTRE, TILES, Layout, parse_deck, shuffled_deck
from game.scarabya.tokens import fresh_supply, pay

ROUNDS = 12
MAX_PLAYERS = 4
SYMBOLS_PER_SITE = 24
VARIANT = "classic"


@dataclass(frozen=True)
class Area:
    """A scored excavation area: 1-4 open squares closed off by tiles, rocks and the frame."""

    seat: int
    round: int  # 1-based
    squares: int  # bitboard
    symbols: int  # bitboard of the visible symbols in it
    tokens: tuple[tuple[int, ...], ...]  # tokens taken for each symbol, lowest square first

    @property
    def size(self) -> int:
        return self.squares.bit_count()

    @property
    def points(self) -> int:
        return sum(sum(t) for t in self.tokens)

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "squares": SITE.names(self.squares),
            "size": self.size,
            "symbols": SITE.names(self.symbols),
            "tokens": [list(t) for t in self.tokens],
            "earned": self.size * self.symbols.bit_count(),
            "points": self.points,
        }


def describe_areas(areas: list[int], symbols: int) -> str:
    """A reason in words: "closes a 3-square area with 2 scarabs"."""
    parts = []
    for a in areas:
        n = (a & symbols).bit_count()
        s = "scarab" if n == 1 else "scarabs"
        parts.append(
            f"a {a.bit_count()}-square area with {n} {s}" if n else f"an empty {a.bit_count()}-square area"
        )
    if not parts:
        return ""
    return "closes " + (parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1])


class ScarabyaState(GameState[Move]):
    GAME = "scarabya"

    def __init__(self, players: int, layout: Layout, deck: str, seed: int = 0) -> None:
        if not isinstance(players, int) or not 1 <= players <= MAX_PLAYERS:
            raise ValueError(f"Scarabya is for 1-{MAX_PLAYERS} players, not {players!r}")
        self._players = players
        self._layout = layout
        self._deck = parse_deck(deck)
        self._seed = seed
        self.rocks, self.symbols = layout.masks()
        self.covered = [0] * players
        self.closed = [0] * players
        self.areas: list[list[Area]] = [[] for _ in range(players)]
        self.placed: list[list[tuple[Move, int]]] = [[] for _ in range(players)]  # (move, mask)
        self.scores = [0] * players
        self.supply = fresh_supply()
        self._history: list[Move] = []
        self._undo: list[tuple[list[int], int]] = []  # (supply before, areas count before)

    # --- setup -------------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        players: int = 1,
        layout: str | Layout | None = None,
        deck: str | None = None,
        seed: int = 0,
    ) -> ScarabyaState:
        """A new game; a missing layout or deck is shuffled from ``seed``.

        The seed always deals a layout and then a deck, so giving one of them leaves the other as
        that seed would have dealt it.
        """
        rng = Rng(seed)
        dealt_layout = Layout.shuffled(rng)
        dealt_deck = shuffled_deck(rng)
        lay = dealt_layout if layout is None else layout
        if isinstance(lay, str):
            lay = Layout.parse(lay)
        return cls(players, lay, dealt_deck if deck is None else deck, seed)

    @classmethod
    def from_options(cls, options: Mapping[str, Any], seed: int) -> Any:
        """The game a record's options describe: a ``ScarabyaState``, or a ``RuinsState`` when
        ``options["variant"] == "ruins"`` (so one factory serves records of both variants).

        Options come from records, that is from outside: a field of the wrong type is a
        ``ValueError`` naming it, never an error deeper in the engine."""
        if not isinstance(options, Mapping):
            raise ValueError("the options must be an object")
        variant = options.get("variant", VARIANT)
        if variant == "ruins":
            from game.scarabya.ruins import RuinsState

            return RuinsState.from_options(options, seed)
        if variant != VARIANT:
            raise ValueError(f"unknown Scarabya variant {shown(variant)} (classic or ruins)")
        return cls.new(
            players=option_int(options, "players", 1),
            layout=option_text(options, "layout", "a layout like 1.0-2.3-3.1-4.2"),
            deck=option_text(options, "deck", "the 12 tile letters"),
            seed=seed_int(seed),
        )

    def copy(self) -> ScarabyaState:
        other = ScarabyaState.__new__(ScarabyaState)
        other.__dict__.update(self.__dict__)
        other.covered = list(self.covered)
        other.closed = list(self.closed)
        other.areas = [list(a) for a in self.areas]
        other.placed = [list(p) for p in self.placed]
        other.scores = list(self.scores)
        other.supply = list(self.supply)
        other._history = list(self._history)
        other._undo = list(self._undo)
        return other

    # --- who plays ---------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self._players

    @property
    def layout(self) -> Layout:
        return self._layout

    @property
    def deck(self) -> str:
        return self._deck

    @property
    def seed(self) -> int:
        return self._seed

    def to_move(self) -> int:
        return len(self._history) % self._players

    @property
    def round(self) -> int:
        """The current round, 1-based (13 once the game is over)."""
        return len(self._history) // self._players + 1

    def tile(self) -> str | None:
        """The tile of the current mission card, None once the game is over."""
        r = len(self._history) // self._players
        return self._deck[r] if r < ROUNDS else None

    def remaining_tiles(self) -> str:
        """Tiles of the mission cards not yet drawn (after the current one)."""
        return self._deck[len(self._history) // self._players + 1 :]

    def blocked(self, seat: int) -> int:
        return self.rocks | self.covered[seat]

    def open_squares(self, seat: int) -> int:
        return SITE.full & ~(self.rocks | self.covered[seat])

    # --- moves -------------------------------------------------------------------------
    def placements(self) -> list[tuple[int, int, int]]:
        """(orientation, anchor, mask) of every legal placement of the current tile."""
        tile = self.tile()
        if tile is None:
            return []
        seat = self.to_move()
        return rules.legal_placements(tile, self.blocked(seat), self.covered[seat])

    def legal_moves(self) -> list[Move]:
        tile = self.tile()
        if tile is None:
            return []
        found = self.placements()
        if not found:
            return [DISCARD]
        return [Place(tile, k, anchor) for k, anchor, _ in found]

    def _mask_of(self, move: Place) -> int:
        """The squares the placement covers; IllegalMove if the tile or the frame forbids it."""
        tile = self.tile()
        if move.tile != tile:
            raise IllegalMove(
                "wrong-tile",
                f"this round's mission card is tile {tile}, not {move.tile}",
                expected=tile,
            )
        mask = TILES[move.tile].mask_at(SITE, move.orientation, move.anchor)
        if mask is None:
            raise IllegalMove(
                "outside-frame",
                f"{move.text()} does not fit inside the frame",
                move=move.text(),
            )
        return mask

    def check(self, move: Move) -> None:
        self._check(move)

    def _check(self, move: Move) -> int:
        if self.is_over():
            raise IllegalMove("game-over", "the game is over: all 12 rounds have been played")
        seat = self.to_move()
        tile = self.tile()
        assert tile is not None
        if isinstance(move, Discard):
            if rules.can_place(tile, self.blocked(seat), self.covered[seat]):
                example = self.legal_moves()[0]
                raise IllegalMove(
                    "must-place",
                    f"tile {tile} can be placed (e.g. {example.text()}), so it cannot be discarded",
                    example=example.text(),
                )
            return 0
        mask = self._mask_of(move)
        if mask & self.rocks:
            raise IllegalMove(
                "rock",
                f"{move.text()} would cover the rock on {', '.join(SITE.names(mask & self.rocks))}",
                squares=SITE.names(mask & self.rocks),
            )
        if mask & self.covered[seat]:
            over = SITE.names(mask & self.covered[seat])
            raise IllegalMove(
                "overlap",
                f"{move.text()} would overlap a tile already on {', '.join(over)}",
                squares=over,
            )
        if not self.covered[seat]:
            if not mask & CENTRE:
                raise IllegalMove(
                    "centre",
                    f"the first tile must cover one of E5, F5, E6, F6; {move.text()} does not",
                )
        elif not mask & rules.neighbours(self.covered[seat]):
            raise IllegalMove(
                "no-contact",
                f"{move.text()} does not share an edge with an earlier tile",
            )
        return mask

    def push(self, move: Move) -> dict[str, Any]:
        """Play ``move`` for the seat to move; returns what it did (areas closed, tokens, points)."""
        mask = self._check(move)
        seat = self.to_move()
        rnd = self.round
        tile = self.tile()
        self._undo.append((list(self.supply), len(self.areas[seat])))
        self._history.append(move)
        self.placed[seat].append((move, mask))
        new_areas: list[Area] = []
        lost = 0
        if mask:
            lost = mask & self.symbols
            self.covered[seat] |= mask
            open_after = SITE.full & ~(self.rocks | self.covered[seat])
            for squares in rules.closed_areas(open_after, mask):
                symbols = squares & self.symbols
                size = squares.bit_count()
                tokens = tuple(pay(self.supply, size) for _ in range(symbols.bit_count()))
                area = Area(seat, rnd, squares, symbols, tokens)
                new_areas.append(area)
                self.areas[seat].append(area)
                self.closed[seat] |= squares
                self.scores[seat] += area.points
        return {
            "seat": seat,
            "round": rnd,
            "tile": tile,
            "move": move.text(),
            "square": SITE.name(move.anchor) if isinstance(move, Place) else None,
            "discarded": not mask,
            "covered_symbols": SITE.names(lost),
            "areas": [a.to_json() for a in new_areas],
            "points": sum(a.points for a in new_areas),
            "reason": describe_areas([a.squares for a in new_areas], self.symbols),
        }

    def pop(self) -> Move:
        if not self._history:
            raise IndexError("no move to take back")
        move = self._history.pop()
        seat = len(self._history) % self._players
        supply, n_areas = self._undo.pop()
        self.supply = supply
        _, mask = self.placed[seat].pop()
        self.covered[seat] &= ~mask
        for area in self.areas[seat][n_areas:]:
            self.closed[seat] &= ~area.squares
            self.scores[seat] -= area.points
        del self.areas[seat][n_areas:]
        return move

    # --- end ---------------------------------------------------------------------------
    def is_over(self) -> bool:
        return len(self._history) >= ROUNDS * self._players

    def symbols_scored(self, seat: int) -> int:
        return sum(a.symbols.bit_count() for a in self.areas[seat])

    def perfect_dig(self, seat: int) -> bool:
        """All 24 symbols of the site scored and paid in full."""
        paid = sum(1 for a in self.areas[seat] for t in a.tokens if sum(t) == a.size)
        return paid == SYMBOLS_PER_SITE

    def outcome(self) -> Outcome | None:
        if not self.is_over():
            return None
        best = max(self.scores)
        winners = tuple(i for i, s in enumerate(self.scores) if s == best)
        return Outcome(
            scores=tuple(self.scores),
            winners=winners,
            reason="rounds-complete",
            detail={
                "perfect_dig": [self.perfect_dig(i) for i in range(self._players)],
                "symbols_scored": [self.symbols_scored(i) for i in range(self._players)],
            },
        )

    # --- notation ----------------------------------------------------------------------
    def parse_move(self, text: str) -> Move:
        return parse_move(text)

    def move_text(self, move: Move) -> str:
        return move.text()

    def position(self) -> str:
        """``classic PLAYERS LAYOUT DECK SITES SEED``; SITES lists each seat's moves, seats split by /."""
        sites = "/".join(",".join(m.text() for m, _ in p) or "." for p in self.placed)
        return f"{VARIANT} {self._players} {self._layout.text()} {self._deck} {sites} {self._seed}"

    @classmethod
    def from_position(cls, text: str) -> ScarabyaState:
        check_length(text)
        fields = text.split()
        if len(fields) not in (5, 6) or fields[0] != VARIANT:
            raise NotationError("a classic position is 'classic PLAYERS LAYOUT DECK SITES [SEED]'", text)

        def offset(i: int) -> int:  # where field i starts, for messages
            return text.find(fields[i])

        if fields[1] not in [str(n) for n in range(1, MAX_PLAYERS + 1)]:
            raise NotationError(f"players must be 1-{MAX_PLAYERS}, not {fields[1]!r}", text, offset(1))
        players = int(fields[1])
        layout = Layout.parse(fields[2])
        deck = parse_deck(fields[3])
        seed = parse_seed(fields[5], text, offset(5)) if len(fields) == 6 else 0
        state = cls(players, layout, deck, seed)
        seats = fields[4].split("/")
        if len(seats) != players:
            raise NotationError(f"SITES lists {len(seats)} seats for {players} players", text, offset(4))
        lists = [[] if s == "." else s.split(",") for s in seats]
        counts = [len(x) for x in lists]
        if any(counts[i] < counts[i + 1] for i in range(players - 1)) or counts[0] - counts[-1] > 1:
            raise NotationError(
                f"seats have played {counts} tiles; in seat order each seat is level with or one "
                "behind the seat before it",
                text,
                offset(4),
            )
        if counts[0] > ROUNDS:
            raise NotationError(f"{counts[0]} tiles is more than {ROUNDS} rounds", text, offset(4))
        for rnd in range(counts[0]):
            for seat in range(players):
                if rnd < counts[seat]:
                    mtext = lists[seat][rnd]
                    try:
                        state.push(parse_move(mtext))
                    except IllegalMove as err:
                        raise NotationError(
                            f"seat {seat + 1}, round {rnd + 1}: {mtext} is illegal: {err}", text, offset(4)
                        ) from None
                    except NotationError as err:
                        raise NotationError(
                            f"seat {seat + 1}, round {rnd + 1}: {err.message}", text, offset(4)
                        ) from None
        return state

    # --- records -----------------------------------------------------------------------
    def options(self) -> dict[str, Any]:
        return {
            "variant": VARIANT,
            "players": self._players,
            "layout": self._layout.text(),
            "deck": self._deck,
        }

    def history(self) -> list[Move]:
        return list(self._history)

    # --- rendering ---------------------------------------------------------------------
    def squares_of(self, move: Move) -> list[str]:
        """The squares a placement would cover (legal or not; [] off the frame or for a discard),
        so a renderer can draw a ghost tile without knowing the shapes."""
        if not isinstance(move, Place):
            return []
        mask = TILES[move.tile].mask_at(SITE, move.orientation, move.anchor)
        return SITE.names(mask) if mask else []

    def site_rows(self, seat: int) -> list[str]:
        """Ten strings of ten cells: ``.`` open, ``R`` rock, ``S`` symbol not yet scored, a tile
        letter for a covered square, a digit for a scored symbol (the points its tokens are worth)."""
        cells = ["." for _ in range(100)]
        for sq in SITE.squares(self.rocks):
            cells[sq] = "R"
        for sq in SITE.squares(self.symbols):
            cells[sq] = "S"
        for area in self.areas[seat]:
            for sq, tokens in zip(SITE.squares(area.symbols), area.tokens):
                cells[sq] = str(sum(tokens))
        for move, mask in self.placed[seat]:
            if isinstance(move, Place):
                for sq in SITE.squares(mask):
                    cells[sq] = move.tile
        return ["".join(cells[r * 10 : r * 10 + 10]) for r in range(10)]

    def view(self) -> dict[str, Any]:
        """Everything a renderer needs, JSON-able; also the output of the ``show`` command."""
        over = self.is_over()
        seat = None if over else self.to_move()
        placements = 0 if over else len(self.placements())
        sites = []
        for i in range(self._players):
            tiles = []
            discarded = []
            for rnd, (move, mask) in enumerate(self.placed[i], start=1):
                if isinstance(move, Place):
                    tiles.append(
                        {"round": rnd, "tile": move.tile, "move": move.text(), "squares": SITE.names(mask)}
                    )
                else:
                    discarded.append({"round": rnd, "tile": self._deck[rnd - 1]})
            sites.append(
                {
                    "seat": i,
                    "rows": self.site_rows(i),
                    "tiles": tiles,
                    "discarded": discarded,
                    "areas": [a.to_json() for a in self.areas[i]],
                    "score": self.scores[i],
                    "symbols_scored": self.symbols_scored(i),
                    "symbols_covered": (self.covered[i] & self.symbols).bit_count(),
                    "perfect_dig": self.perfect_dig(i),
                }
            )
        last = None
        if self._history:
            n = len(self._history) - 1
            last = {
                "seat": n % self._players,
                "round": n // self._players + 1,
                "move": self._history[-1].text(),
            }
        outcome = self.outcome()
        return {
            "game": self.GAME,
            "variant": VARIANT,
            "position": self.position(),
            "players": self._players,
            "layout": self._layout.text(),
            "seed": self._seed,
            "terrain": list(self._layout.terrain()),
            "round": min(self.round, ROUNDS),
            "rounds": ROUNDS,
            "tile": self.tile(),
            "tile_orientations": TILES[self.tile() or "X"].orientations_json() if not over else [],
            "tiles_drawn": self._deck[: min(self.round, ROUNDS)],
            "cards_left": max(0, ROUNDS - self.round),
            "to_move": seat,
            "legal_placements": placements,
            "must_discard": not over and placements == 0,
            "tokens_left": {str(v): self.supply[v - 1] for v in range(1, 5)},
            "scores": list(self.scores),
            "sites": sites,
            "last_move": last,
            "over": over,
            "outcome": outcome.to_json() if outcome else None,
            "legend": {
                ".": "open square",
                "R": "rock",
                "S": "scarab symbol not yet scored",
                "1-4": "scored symbol, digit = points of the tokens on it (0: supply could not pay)",
                "F I L N P T U V W X Y Z": "square covered by that tile",
            },
        }
