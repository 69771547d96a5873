"""Scarabeo: the Italian crossword game, as a pure-Python engine (rules.md §1).

Entry points: ``ScarabeoState.new(players, seed, …)``, ``ScarabeoState.from_position(text)``,
``score_play(board, placements)`` for candidate placements, ``record`` for GCG-style text and
JSON game records, ``cli.main`` for ``python -m game scarabeo``.
"""

from game.scarabeo.game import CHECK_MODES, Pending, ScarabeoState, TurnResult, settlement
from game.scarabeo.hourglass import Hourglass
from game.scarabeo.moves import Accept, Challenge, Exchange, Move, Pass, Play, Vote, move_text, parse_move
from game.scarabeo.scoring import Bonus, Breakdown, LetterScore, WordScore, play_score, score_play
from game.scarabeo.words import AnyWord, SetWordList, WordList

__all__ = [
    "Accept", "AnyWord", "Bonus", "Breakdown", "CHECK_MODES", "Challenge", "Exchange", "Hourglass",
    "LetterScore", "Move", "Pass", "Pending", "Play", "ScarabeoState", "SetWordList", "TurnResult",
    "Vote", "WordList", "WordScore", "move_text", "parse_move", "play_score", "score_play",
    "settlement",
]
