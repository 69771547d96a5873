"""Small positions for rule tests, written as a map of squares to pieces."""

from __future__ import annotations

from game.thot import ThotState
from game.thot.board import ANKH, ANY, EMPTY, code_of


def piece(text: str) -> int:
    """``"+8"``, ``"-4*"`` (marked) or ``"A"`` (ankh) as a cell code."""
    if text == "A":
        return ANKH
    return code_of(int(text.rstrip("*")), text.endswith("*"))


def build(
    pieces: dict[str, str],
    priest: str,
    *,
    size: int = 8,
    axis: int = ANY,
    to_move: int = 0,
    collections: list[list[str]] | None = None,
    players: int = 2,
    turnoff: bool = False,
    teams: bool = False,
) -> ThotState:
    probe = ThotState(size, [EMPTY] * size * size, 0, players=players, teams=teams)
    board = [EMPTY] * size * size
    for name, text in pieces.items():
        index = probe.geo.index(name)
        assert index is not None, name
        board[index] = piece(text)
    where = probe.geo.index(priest)
    assert where is not None
    colls = [[piece(t) for t in c] for c in (collections or [[] for _ in range(players)])]
    return ThotState(
        size,
        board,
        where,
        players=players,
        axis=axis,
        to_move=to_move,
        collections=colls,
        turnoff=turnoff,
        teams=teams,
    )


def texts(state: ThotState) -> set[str]:
    return {state.move_text(m) for m in state.legal_moves()}
