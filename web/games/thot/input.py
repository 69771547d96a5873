"""Input: pointer (click, tap) and keyboard on the board, turned into a move in the engine's notation.

A marked square ends the move there; in the turn-off variant a marked scarab the priest may turn on
is chosen first, then the destination along the new line (choosing it again stops there). Landing
on an ankh asks for one of the mover's scarabs and then an empty square, or no drop at all. The
board is an ARIA grid with a roving focus: arrow keys move, Home/End go to the ends of the row,
Enter or Space chooses, Escape cancels a half-made move. A square that is not marked can still be
chosen: the engine then says why the move is refused (``page.commit``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyscript import document

from game.thot.board import ANKH
from game.thot.moves import ThotMove
from web.games.thot.context import local, state_of
from web.ui.vdom import Event

if TYPE_CHECKING:
    from web.ui.context import PlayPage

#: arrow key → (rows, columns)
ARROWS = {"ArrowUp": (-1, 0), "ArrowDown": (1, 0), "ArrowLeft": (0, -1), "ArrowRight": (0, 1)}


def person_to_move(page: PlayPage) -> bool:
    session = page.session
    return (session is not None and not page.thinking and not session.state.is_over()
            and not session.computer_to_move())


def on_click(page: PlayPage, event: Event) -> None:
    if "sq" not in event.data:  # the square's data-sq, or nothing: a tap on the letters and numbers
        return
    square = int(event.data["sq"])
    local(page).cursor = square
    choose(page, square)


def on_key(page: PlayPage, event: Event) -> None:
    """The keys of ``board.KEYS`` are prevented by the grid's declaration, not here: the page has
    finished with the event by the time this runs."""
    if "sq" not in event.data:
        return
    key = str(event.key)
    size = state_of(page).size
    square = int(event.data["sq"])
    r, c = divmod(square, size)
    if key in ARROWS:
        dr, dc = ARROWS[key]
        r, c = min(max(r + dr, 0), size - 1), min(max(c + dc, 0), size - 1)
    elif key == "Home":
        c = 0
    elif key == "End":
        c = size - 1
    elif key in ("Enter", " "):
        choose(page, square)
        return
    elif key == "Escape":
        if page.selection:
            cancel(page)
        return
    else:
        return
    focus(page, r * size + c)


def focus(page: PlayPage, square: int) -> None:
    """Move the roving focus of the grid to ``square``: the board is drawn again with its tab stop
    there, and the patch ends by focusing it."""
    mine = local(page)
    mine.cursor = square
    if mine.board is not None:
        mine.board.refresh(focus=f"thot-{state_of(page).geo.name(square)}")


def cancel(page: PlayPage) -> None:
    page.selection = {}
    page.message = None
    page.redraw()
    focus(page, local(page).cursor or state_of(page).priest)


def choose(page: PlayPage, square: int) -> None:
    if not person_to_move(page):
        return
    state = state_of(page)
    sel = page.selection
    name = state.geo.name
    if "dest" in sel:  # waiting for the scarab to put back after an ankh
        piece = sel.get("piece")
        if piece is None:
            page.show_message(page.t("thot.drop.first"))
            return
        commit(page, ThotMove(sel["dest"], sel.get("turn"), square, piece))
        return
    moves = [m for m in state.legal_moves() if m.drop is None]
    turn = sel.get("turn")
    if turn is not None:
        if square == turn:
            finish(page, ThotMove(square))
            return
        if any(m.turn == turn and m.dest == square for m in moves):
            finish(page, ThotMove(square, turn))
            return
        sel.pop("turn")
    if any(m.turn == square for m in moves):
        page.selection = {"turn": square}
        page.message = (page.t("thot.turn.chosen", square=name(square)), False)
        page.redraw()
        page.say(page.message[0])
        return
    finish(page, ThotMove(square))


def finish(page: PlayPage, move: ThotMove) -> None:
    """The priest's path is chosen: ask for a drop after an ankh, else play it."""
    state = state_of(page)
    legal = any(m.dest == move.dest and m.turn == move.turn for m in state.legal_moves() if m.drop is None)
    if legal and state.board[move.dest] == ANKH and state.collection(state.to_move()):
        page.selection = {"dest": move.dest, "turn": move.turn}
        page.message = None
        page.redraw()
        page.say(page.t("thot.drop.prompt", square=state.geo.name(move.dest)))
        first = document.querySelector("#thot-drop button")
        if first:
            first.focus()
        return
    commit(page, move)


def choose_piece(page: PlayPage, code: int) -> None:
    """The drop panel: the scarab to put back is chosen; the focus goes to the first empty square."""
    page.selection["piece"] = code
    page.redraw()
    state = state_of(page)
    squares = state.drop_squares(ThotMove(page.selection["dest"], page.selection.get("turn")))
    if squares:
        focus(page, squares[0])


def commit(page: PlayPage, move: ThotMove) -> None:
    """Send the move, written by the engine (``state.move_text``), to ``page.commit``."""
    state = state_of(page)
    text = state.move_text(move)
    if page.commit(text):
        local(page).cursor = state.priest
        focus(page, state.priest)
