"""One place decides what each seat may know, for every game: its seat view and public record.

As OpenSpiel's ``information_state_string(player)`` and boardgame.io's ``playerView``, a game's
``public`` module strips what a seat may not know. Everything that leaves a device or is shown to
a person (links, snapshots, exports meant for others, dialogs shown to the table, remote
messages) is built from these, never from a full state or its seed.

- ``seat_view(state, seat)``: the JSON a renderer draws for seat ``seat`` (0-based), or for a
  spectator (``None``). Scarabeo: the board, scores, bag count, every rack's size, the pending
  dispute as the table sees it, the public history and only that seat's own rack (a spectator's
  has none). Thot: everything (its board is poured face up; the seed only predicts that board).
  Scarabya: everything on the sites, but of the mission deck (classic) or the Ruins tiles and
  zones only those drawn so far: the rest of the deck is shown in a fixed canonical order, so the
  view predicts no draw. No view carries a seed.
- ``public_record(state)``: the game as every player saw it, a versioned JSON object
  (``format`` ``scarab-public-record``, ``version``, ``game``, then the game's fields: see each
  game's ``public`` module). ``load_public(text, word_list)`` parses outside text through the
  guarded boundary and rebuilds the spectator's state, checking every move, or raises a
  ``RecordError`` with the reason.
"""

from __future__ import annotations

import importlib
from typing import Any, Mapping

from game.core import safejson
from game.core.errors import RecordError
from game.core.protocol import GameState
from game.core.record import MAX_RECORD_BYTES

PUBLIC_FORMAT = "scarab-public-record"
PUBLIC_VERSION = 1
GAMES = ("scarabeo", "thot", "scarabya")


def shown(value: Any) -> str:
    """A value from outside, quoted and cut short for a message."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "…"


def small_int(value: Any, lo: int, hi: int) -> bool:
    """An ``int`` (not a bool) within ``lo..hi``."""
    return isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi


def int_field(value: Any, lo: int, hi: int, message: str) -> int:
    """``value`` when it is a whole number in ``lo..hi``; a ``RecordError(message)`` otherwise."""
    if not small_int(value, lo, hi):
        raise RecordError(message)
    assert isinstance(value, int)
    return value


def check_envelope(data: Any, game: str | None = None) -> str:
    """The fields every public record shares (format, version, game); returns the game."""
    if not isinstance(data, Mapping):
        raise RecordError("a public record must be a JSON object")
    if data.get("format") != PUBLIC_FORMAT:
        raise RecordError(f"not a Scarab public record (format is {shown(data.get('format'))})")
    version = int_field(data.get("version"), 1, 10**9, f"public record version "
                        f"{shown(data.get('version'))} is not a positive integer")
    if version > PUBLIC_VERSION:
        raise RecordError(f"public record version {version} is newer than this program "
                          f"understands ({PUBLIC_VERSION})")
    name = data.get("game")
    if name not in GAMES or (game is not None and name != game):
        raise RecordError(f"the public record is for {shown(name)}, not "
                          f"{game!r}" if game else f"unknown game {shown(name)} in the public record")
    assert isinstance(name, str)
    return name


def check_fields(data: Mapping[str, Any], allowed: set[str]) -> None:
    unknown = set(data) - allowed - {"format", "version", "game"}
    if unknown:
        raise RecordError(f"unknown field(s) in the public record: {', '.join(sorted(unknown))}")


def parse_public(text: str | bytes) -> Any:
    """Outside text as JSON, bounded (size, depth, number length), with a one-line reason."""
    try:
        return safejson.loads(text, max_bytes=MAX_RECORD_BYTES)
    except safejson.JSONRefused as err:
        raise RecordError(f"public record refused: {err}") from None


def _module(game: str) -> Any:
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}")
    return importlib.import_module(f"game.{game}.public")


def seat_view(state: GameState[Any], seat: int | None) -> dict[str, Any]:
    """What seat ``seat`` (None: a spectator) may know of ``state``, JSON-able."""
    view: dict[str, Any] = _module(state.GAME).seat_view(state, seat)
    return view


def public_record(state: GameState[Any]) -> dict[str, Any]:
    """The game's public record as a JSON object."""
    record: dict[str, Any] = _module(state.GAME).public_record(state).to_json()
    return record


def rebuild_public(data: Any, word_list: Any = None) -> GameState[Any]:
    """A spectator's state rebuilt from a parsed public record, every move checked.
    ``word_list`` is Scarabeo's word checker (the lexicon); the other games ignore it."""
    game = check_envelope(data)
    module = _module(game)
    record = module.PublicRecord.from_json(data)
    state: GameState[Any] = (module.rebuild(record, word_list) if game == "scarabeo"
                             else module.rebuild(record))
    return state


def load_public(text: str | bytes, word_list: Any = None) -> GameState[Any]:
    """Parse outside text as a public record and rebuild the spectator's state from it."""
    return rebuild_public(parse_public(text), word_list)


__all__ = [
    "GAMES", "PUBLIC_FORMAT", "PUBLIC_VERSION", "check_envelope", "check_fields", "int_field",
    "load_public", "parse_public", "public_record", "rebuild_public", "seat_view", "shown", "small_int",
]
