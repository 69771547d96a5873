"""The protocol every Scarab engine implements, plus seeded randomness and game records."""

from game.core.errors import IllegalMove, NotationError, RecordError
from game.core.protocol import GameState, Outcome
from game.core.record import RECORD_VERSION, GameRecord
from game.core.rng import Rng

__all__ = [
    "GameRecord",
    "GameState",
    "IllegalMove",
    "NotationError",
    "Outcome",
    "RECORD_VERSION",
    "RecordError",
    "Rng",
]
