"""What each seat may know of a Scarabya game, and its public record (``game.core.view``).

The sites, tiles placed, scores and token supply are public. What is hidden is the future: the
order of the mission cards not yet drawn (classic) and of the Ruins tiles and their zones not yet
revealed (Ruins). The seed predicts them, so it never leaves a device, nor does the deck order.

A seat's view (every seat and a spectator see the same) is the ``view()`` of the game rebuilt from
its public record: the cards drawn so far as they came, the rest of the deck in a fixed canonical
order (``TILE_NAMES`` order; Ruins: tile ids ascending, zones 1 2 3 4), which says nothing about
the next draw. Its ``position`` is that canonical game's: it plays the same until the next card.

Public record::

    classic: {"format": "scarab-public-record", "version": 1, "game": "scarabya",
              "options": {"variant": "classic", "players": 2, "layout": "1.0-2.3-3.1-4.2"},
              "drawn": "FIL", "moves": ["F:0@E5", ...]}
    ruins:   {..., "options": {"variant": "ruins", "players": 3},
              "drawn": "3A7F", "zones": "1594", "moves": [...]}

``drawn`` is every card revealed so far (the current round's included), ``zones`` the Ruins
zones of the revealed tiles. ``rebuild`` checks they are well formed, that the moves are legal and
that exactly the cards the game has reached are given (one more would be a future draw).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Union

from game.core import GameState, IllegalMove, NotationError, RecordError
from game.core.view import PUBLIC_FORMAT, PUBLIC_VERSION, check_envelope, check_fields
from game.scarabya import ruins as R
from game.scarabya.sets import TILE_NAMES
from game.scarabya.state import ROUNDS, ScarabyaState

AnyScarabya = Union[ScarabyaState, R.RuinsState]
#: 12 rounds of 4 seats (classic), or 4 rounds of at most 6 pieces each for 4 seats (Ruins).
MAX_MOVES = 100
MAX_MOVE_CHARS = 20


@dataclass
class PublicRecord:
    options: dict[str, Any]
    drawn: str
    zones: str = ""  # Ruins only
    moves: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": PUBLIC_FORMAT, "version": PUBLIC_VERSION,
                               "game": ScarabyaState.GAME, "options": self.options,
                               "drawn": self.drawn}
        if self.options.get("variant") == R.VARIANT:
            out["zones"] = self.zones
        out["moves"] = list(self.moves)
        return out

    @classmethod
    def from_json(cls, data: Any) -> "PublicRecord":
        check_envelope(data, ScarabyaState.GAME)
        check_fields(data, {"options", "drawn", "zones", "moves"})
        options, drawn, zones, moves = (data.get(k) for k in ("options", "drawn", "zones", "moves"))
        if not isinstance(options, dict):
            raise RecordError("options must be an object")
        if "deck" in options or "zones" in options:
            raise RecordError("a public record gives the cards drawn, not the deck")
        if not isinstance(drawn, str) or len(drawn) > 16:
            raise RecordError("drawn must be the cards revealed so far (at most 16)")
        if zones is None:
            zones = ""
        if not isinstance(zones, str) or len(zones) > 16:
            raise RecordError("zones must be the zones of the Ruins tiles revealed (at most 16)")
        if (not isinstance(moves, list) or len(moves) > MAX_MOVES
                or not all(isinstance(m, str) and len(m) <= MAX_MOVE_CHARS for m in moves)):
            raise RecordError(f"moves must be a list of at most {MAX_MOVES} moves in notation")
        return cls(dict(options), drawn, zones, list(moves))


def _revealed(state: AnyScarabya) -> int:
    """How many cards (Ruins: tiles) the game has revealed."""
    if isinstance(state, R.RuinsState):
        return R.TILES_PER_ROUND * (min(state.round_index, R.ROUNDS - 1) + 1)
    return min(state.round, ROUNDS)


def public_record(state: AnyScarabya) -> PublicRecord:
    options = state.options()
    game: GameState[Any] = state  # either variant: its own moves in its own notation
    moves = [game.move_text(m) for m in game.history()]
    n = _revealed(state)
    deck, zones = str(options.pop("deck")), str(options.pop("zones", ""))
    return PublicRecord(options, deck[:n], zones[:n], moves)


def _full_options(record: PublicRecord) -> dict[str, Any]:
    """The record's options with the deck completed in canonical order."""
    options = dict(record.options)
    if options.get("variant") == R.VARIANT:
        drawn = record.drawn.upper()
        if len(drawn) % R.TILES_PER_ROUND or len(record.zones) != len(drawn) or not drawn:
            raise RecordError("a Ruins record reveals whole rounds: 4, 8, 12 or 16 tiles and as "
                              "many zones")
        if any(c not in R.HEX for c in drawn) or len(set(drawn)) != len(drawn):
            raise RecordError("drawn must be distinct Ruins tile ids 0-F")
        options["deck"] = drawn + "".join(c for c in R.HEX if c not in drawn)
        options["zones"] = record.zones + "1234" * ((16 - len(drawn)) // R.TILES_PER_ROUND)
    else:
        drawn = record.drawn.upper()
        if not drawn or any(c not in TILE_NAMES for c in drawn) or len(set(drawn)) != len(drawn):
            raise RecordError(f"drawn must be distinct mission cards of {TILE_NAMES}")
        options["deck"] = drawn + "".join(c for c in TILE_NAMES if c not in drawn)
    return options


def rebuild(record: PublicRecord) -> AnyScarabya:
    """The game from its public record, every move checked; ``RecordError`` with the reason."""
    options = _full_options(record)
    try:
        state: AnyScarabya = ScarabyaState.from_options(options, 0)
    except (ValueError, NotationError) as err:
        raise RecordError(f"cannot set up the game: {err}") from None
    game: GameState[Any] = state  # either variant: each move read by its own notation
    for turn, text in enumerate(record.moves, start=1):
        try:
            game.push(game.parse_move(text))
        except (IllegalMove, NotationError) as err:
            raise RecordError(f"{text!r}: {err}", turn) from None
    if _revealed(state) != len(record.drawn):
        raise RecordError(f"the record reveals {len(record.drawn)} cards, but the game has "
                          f"reached {_revealed(state)}")
    return state


def seat_view(state: AnyScarabya, seat: int | None) -> dict[str, Any]:
    """What any seat, or a spectator, sees: the game rebuilt from its public record."""
    if seat is not None and not 0 <= seat < state.num_players:
        raise ValueError(f"there is no seat {seat!r}")
    view = rebuild(public_record(state)).view()
    del view["seed"]
    view["seat"] = seat
    return view


__all__ = ["AnyScarabya", "PublicRecord", "public_record", "rebuild", "seat_view"]
