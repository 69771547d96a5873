"""The page of Scarab — the Game of Thot: a small package, one module per concern, in the manner of
lichess' chessground (api / state / drag / render / anim):

- ``ui`` (this module): ``UI``, the ``web.ui.context.GameUI`` the shell plugs in, composing the rest;
- ``context``: the typed page context (``page: PlayPage``) and the view's own memory on it;
- ``board``: the board's grid and its frame, the marks of the move being made, the resume snapshot's board;
- ``panels``: the new-game options, the head, players and collections, the log, the key, the drop
  panel, the end of the game;
- ``input``: pointer and keyboard on the board, turned into a move in the engine's notation;
- ``anim``: the other side's move — the square the priest left, its slide, the computers' moves in a row;
- ``computer``: the computer's turn and the hint in slices, and what the live region says.

Everything drawn comes from the engine: ``state.view()`` for the board and scores,
``state.legal_moves()`` for the marked squares, ``state.drop_squares()`` for where a scarab may go
back after an ankh, ``state.move_text()`` to write the move that ``page.commit`` sends to the engine.
The view decides no rule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Generator

from game.thot.search import LEVELS
from web.games.thot import board, computer, panels
from web.games.thot.context import cell_text, state_of
from web.ui import pace
from web.ui.dom import h

if TYPE_CHECKING:
    from web.ui.context import PlayPage

__all__ = ["UI", "ThotUI", "cell_text"]


class ThotUI:
    GAME = "thot"
    MIN_PLAYERS = 2
    MAX_PLAYERS = 4
    LEVELS = tuple(sorted(LEVELS))
    PRIVATE = False  # the rule forbids hiding the collections

    def options_form(self, page: PlayPage) -> tuple[Any, Callable[[int], dict[str, Any]]]:
        return panels.options_form(page)

    def render(self, page: PlayPage) -> Any:
        t = page.t
        session = page.session
        assert session is not None
        state = state_of(page)
        view = state.view()
        over = view["over"]
        person = not over and not page.thinking and not session.computer_to_move()
        frame = board.board(page, state, view, person)
        pace.drawn(page, len(state.history()))  # a computer's move after it waits its time (web.ui.pace)
        # the working set (docs/web.md "Layout"): head, board, hand; the rest in the drawer. Whose turn
        # keeps its line at the end too ("Game over"), and the result sits under the board in the
        # hand, so the board never moves (issue 26).
        head = h("div", {"class": "game-head thot-top"},
                 h("p", {"id": "thot-status", "class": "thot-status", "text": panels.status(page, view)}),
                 page.scoreline(view["scores"], panels.last_summary(page, state)),
                 page.message_line())
        # the action row: Hint and Take back (and the game's tools, which a phone's menu also lists),
        # always drawn, disabled while they cannot be used
        hand = h("div", {"class": "game-hand thot-hand"}, panels.drop_box(page, state),
                 panels.end_box(page, view) if over else None,
                 # no Hint in a game between devices whose invitation allows none
                 # (a still page of the rules or the review has no say: drawn as before)
                 page.toolbar(panels.hint_button(page, person)
                              if getattr(page, "hints_allowed", lambda: True)() else None))
        more = page.drawer(panels.players(page, view),
                           panels.search_info(page),
                           panels.log(page, state),
                           panels.legend(t, view["turnoff"]))
        return h("section", {"class": "thot-page", "aria-labelledby": "thot-title"},
                 h("h1", {"id": "thot-title", "class": "visually-hidden", "text": t("game.thot.name")}),
                 h("div", {"class": "game-layout"}, head, frame, hand, more))

    def computer(self, page: PlayPage, level: int) -> Generator[None, None, str]:
        return computer.computer(page, level)

    def computer_waits(self, page: PlayPage) -> bool:
        """Computers' moves in a row are shown one after another (``computer.waits``)."""
        return computer.waits(page)

    def announce(self, page: PlayPage, move_text: str, result: Any) -> str:
        return computer.announce(page, move_text, result)

    def snapshot(self, page: PlayPage) -> dict[str, Any]:
        """The board, scores and last move as ``render`` draws them, as plain data for boot.js."""
        state = state_of(page)
        view = state.view()
        return {"page_class": "thot-page", "status": panels.status(page, view), "scores": view["scores"],
                "last": panels.last_summary(page, state), "board": board.snapshot_board(page, state, view)}


UI = ThotUI()
