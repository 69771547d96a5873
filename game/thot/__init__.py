"""Scarab — the Game of Thot: rules engine, notation, records and computer opponent."""

from game.thot.moves import ThotMove
from game.thot.state import ThotState

__all__ = ["ThotMove", "ThotState"]
