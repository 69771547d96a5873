"""Scarabya: engine (classic and the Ruins variant), solver and computer players.

Browser entry points: ``new(...)``, ``load(position)``, ``replay(record_json)``, ``state.view()``,
``state.legal_moves()``, ``state.push_text("L3@E5")``, ``state.pop()`` and ``solver.hint(state)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from game.core import GameRecord, NotationError, RecordError
from game.scarabya.moves import DISCARD, Discard, Move, Place
from game.scarabya.ruins import PiecePlace, RuinsState
from game.scarabya.sets import Layout
from game.scarabya.state import ScarabyaState

AnyState = ScarabyaState | RuinsState
VARIANTS = ("classic", "ruins")


def new(
    players: int = 1,
    layout: str | None = None,
    deck: str | None = None,
    seed: int = 0,
    variant: str = "classic",
    zones: str | None = None,
) -> AnyState:
    """A new game. Classic: 1-4 players, layout and mission deck shuffled from ``seed`` unless given.
    Ruins: 2-4 players, ``deck`` is 16 hex ids and ``zones`` 16 digits, shuffled unless given."""
    if variant == "classic":
        if zones is not None:
            raise ValueError("zones belong to the Ruins variant")
        return ScarabyaState.new(players, layout, deck, seed)
    if variant == "ruins":
        if layout is not None:
            raise ValueError("the Ruins variant has no layout")
        return RuinsState.new(players, seed, deck, zones)
    raise ValueError(f"unknown variant {variant!r} (expected one of {', '.join(VARIANTS)})")


def new_from_options(options: Mapping[str, Any], seed: int) -> AnyState:
    state = ScarabyaState.from_options(options, seed)
    assert isinstance(state, (ScarabyaState, RuinsState))
    return state


def load(position: str) -> AnyState:
    """A state from its one-line position (either variant)."""
    head = position.split(maxsplit=1)[0] if position.strip() else ""
    if head == "ruins":
        return RuinsState.from_position(position)
    if head == "classic":
        return ScarabyaState.from_position(position)
    raise NotationError("a position starts with its variant, 'classic' or 'ruins'", position, 0)


def record(state: AnyState, **meta: Any) -> GameRecord:
    return GameRecord.of(state, **meta)


def replay(text: str) -> AnyState:
    """Replay a versioned JSON record; RecordError names the first move that does not replay."""
    rec = GameRecord.loads(text)
    if rec.game != ScarabyaState.GAME:
        raise RecordError(f"record is for {rec.game!r}, not 'scarabya'")
    state = rec.replay(new_from_options)
    assert isinstance(state, (ScarabyaState, RuinsState))
    return state


__all__ = [
    "AnyState",
    "DISCARD",
    "Discard",
    "Layout",
    "Move",
    "PiecePlace",
    "Place",
    "RuinsState",
    "ScarabyaState",
    "load",
    "new",
    "new_from_options",
    "record",
    "replay",
]
