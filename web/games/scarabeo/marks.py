"""Which plays the board outlines, from the engine's results alone (so the marks are the same after
a reload or a take-back of a later move): the last play, or — with three or four at the table and a
person among them — every move the computers made in a row since the person's last turn, each
outlined and numbered in the order played until the person's turn (issue 26; Thot and Scarabya do
the same with ``web.ui.pace.run``). Pure: no page, no ``pyscript``.
"""

from __future__ import annotations

from typing import Any, Sequence

from game.scarabeo.moves import Exchange, Pass, Play


def play_squares(result: Any) -> list[int]:
    """The squares of the tiles a play's result laid, in board order (none for another move)."""
    bd = result.breakdown
    if not isinstance(result.move, Play) or bd is None:
        return []
    return sorted({x.square for w in bd.words for x in w.letters if x.new})


def last_play_squares(state: Any) -> set[int]:
    """The tiles of the last play: a dispute that lets the play stand (an accepted challenge, a
    failed one, a vote for it) keeps it outlined; a pass, an exchange or a play taken off the board
    by a dispute outlines nothing."""
    for result in reversed(state.results()):
        if isinstance(result.move, (Pass, Exchange)):
            return set()
        if isinstance(result.move, Play):
            bd = result.breakdown
            if bd is None or not state.board[bd.words[0].start]:
                return set()  # challenged off (its squares are empty again)
            return set(play_squares(result))
        if result.score < 0:  # a dispute that took the play off
            return set()
    return set()


def computer_run(state: Any, computers: Sequence[bool]) -> list[list[int]]:
    """The turns the computers took in a row since a person's last (a play, a pass or an exchange;
    a dispute's decision is part of the play it decides), oldest first, each as the squares of its
    tiles still on the board: none for a pass, an exchange or a play a dispute took off. Empty when
    the latest turn is a person's, or when nobody or everybody at the table is a computer."""
    if all(computers) or not any(computers):
        return []
    run: list[list[int]] = []
    taken_off = False  # a dispute after the play (met first, going back) took it off the board
    for result in reversed(state.results()):
        move = result.move
        if not isinstance(move, (Play, Pass, Exchange)):
            taken_off = taken_off or result.score < 0
            continue
        if not computers[result.player]:
            break
        squares = [] if taken_off else [sq for sq in play_squares(result) if state.board[sq]]
        taken_off = False
        run.append(squares)
    run.reverse()
    return run


def board_marks(state: Any, computers: Sequence[bool]) -> tuple[set[int], dict[int, int], int, set[int]]:
    """(squares outlined, square → its move's number in the computers' run, the run's length (the
    computers' turns in a row since the person's, 0 when there is none), the first square in board
    order of each numbered play, where its number is drawn): with two or more turns in the run each
    play is outlined and numbered; else the last play is outlined alone, unnumbered (one computer's
    reply, or a person's own play)."""
    run = computer_run(state, computers)
    if len(run) < 2:
        return last_play_squares(state), {}, len(run), set()
    order = {sq: k + 1 for k, squares in enumerate(run) for sq in squares}
    return set(order), order, len(run), {squares[0] for squares in run if squares}
