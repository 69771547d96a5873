"""A random legal player for simulations: random placements of rack tiles, legal when the word
checker accepts them (e.g. ``AnyWord``). Not a word finder — that is ``game.scarabeo.movegen``.

Used by random self-play tests and ``bench``; it exercises every rule path (plays of 1-8 tiles,
scarabs, flying-scarab swaps, exchanges, passes, the end of the game).
"""

from __future__ import annotations

from game.core import IllegalMove, Rng
from game.scarabeo.board import CENTRE, NEIGHBOURS, SIZE, SQUARES
from game.scarabeo.game import ScarabeoState
from game.scarabeo.moves import Exchange, Move, Pass, Play
from game.scarabeo.rules import exchange_refusal
from game.scarabeo.tiles import LETTERS, SCARAB, sort_rack


def anchors(board: list[str]) -> list[int]:
    if not any(board):
        return [CENTRE]
    return [sq for sq in range(SQUARES) if not board[sq] and any(board[n] for n in NEIGHBOURS[sq])]


def random_placement_play(state: ScarabeoState, rng: Rng, tries: int = 40) -> Play | None:
    rack = state.racks[state.turn]
    if not rack:
        return None
    board = state.board[:]
    work = rack[:]
    chosen = []
    for sq in range(SQUARES):
        if board[sq].islower() and board[sq].upper() in work and rng.below(2):
            work.remove(board[sq].upper())
            work.append(SCARAB)
            board[sq] = board[sq].upper()
            chosen.append(sq)
    swaps = tuple(chosen)
    spots = anchors(board)
    for _ in range(tries):
        a = rng.choice(spots)
        across = rng.below(2) == 0
        step = 1 if across else SIZE
        k = 1 + rng.below(len(work)) if rng.below(3) else 1 + rng.below(min(3, len(work)))
        tiles = work[:]
        rng.shuffle(tiles)
        tiles = tiles[:k]
        # Step back a few empty squares so the anchor is not always the first tile.
        start = a
        for _ in range(rng.below(k)):
            prev = start - step
            if (across and start % SIZE == 0) or prev < 0 or board[prev]:
                break
            start = prev
        squares: list[int] = []
        sq = start
        while len(squares) < k:
            if sq >= SQUARES or (across and sq // SIZE != start // SIZE):
                break
            if not board[sq]:
                squares.append(sq)
            sq += step
        if len(squares) < k:
            continue
        placements = [(s, t if t != SCARAB else rng.choice(LETTERS).lower())
                      for s, t in zip(squares, tiles)]
        try:
            play = state.play_from_placements(placements, swaps)
            state.check(play)
        except IllegalMove:
            continue
        return play
    return None


def random_move(state: ScarabeoState, rng: Rng) -> Move:
    """A random legal turn move (play most of the time, else exchange or pass)."""
    if rng.below(12):
        play = random_placement_play(state, rng)
        if play is not None:
            return play
    rack = state.racks[state.turn]
    if exchange_refusal(rack, "".join(rack)) is None and rng.below(2):
        return Exchange(sort_rack(rack))
    return Pass()
