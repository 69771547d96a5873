"""Still boards: a game's own drawing of one position, with nobody playing on it (the review's
steps, today's challenge's top plays, the rules pages' diagrams). A view draws on a ``StillPage`` (the
least of ``web.ui.context.PlayPage``: no computer to move, no widgets); ``still_board`` takes the board
from the drawing and ``strip`` drops its ids and focus stops."""

from __future__ import annotations

from typing import Any, Callable

from web.platform.session import Seat
from web.ui.dom import Scope


class StillSession:
    """What a view reads from a session to draw a position: the state and the seats; nobody plays."""

    replay_only = True

    def __init__(self, state: Any, seats: list[Seat]) -> None:
        self.state = state
        self.seats = seats
        self.meta: dict[str, Any] = {}

    def computer_to_move(self) -> bool:
        return False

    def can_take_back(self) -> bool:
        return False

    def seat_to_move(self) -> Seat | None:
        return None

    def humans(self) -> int:
        return 0


class StillPage:
    """The least of a game page (``web.ui.context.PlayPage``) that a view needs to draw one position:
    ``thinking`` is set, so no view offers a move, marks squares in reach or binds a ghost."""

    #: The game page's widgets and actions, as nothing: the board alone is wanted.
    WIDGETS = ("thinking_box", "message_box", "message_line", "toolbar", "scoreline", "drawer",
               "say", "show_message", "redraw", "commit", "tutorial_banner")

    def __init__(self, app: Any, state: Any, seats: list[Seat], selection: dict[str, Any] | None = None) -> None:
        self.app = app
        self.t = app.t
        self.session = StillSession(state, seats)
        self.selection = dict(selection or {})
        self.thinking = True
        self.closed = True
        self.revealed = None
        self.message: tuple[str, bool] | None = None
        self.view_scope = Scope()

    def __getattr__(self, name: str) -> Callable[..., None]:
        if name in self.WIDGETS:
            return lambda *args, **kwargs: None
        raise AttributeError(name)  # the view's own state (getattr with a default) stays absent

    def halted(self) -> str | None:
        return None  # a position shown still: its own turn line


def still_board(app: Any, ui: Any, state: Any, seats: list[Seat], selection: dict[str, Any] | None = None,
                mark: Callable[[Any], None] | None = None) -> Any:
    """The view's board for ``state``, still: no handlers, no ids, no focus stops. ``mark(board)``
    runs before the ids go (it may find squares by their ``sq-…`` ids)."""
    page = StillPage(app, state, seats, selection)
    drawing = ui.render(page)
    board = drawing.querySelector(".game-board")
    board.parentNode.removeChild(board)
    page.view_scope.close()  # the board's click, key and pointer handlers
    if mark is not None:
        mark(board)
    strip(board)
    board.classList.remove("game-board")
    return board


def strip(node: Any) -> None:
    for attr in ("id", "aria-describedby", "tabindex"):
        node.removeAttribute(attr)
    for attr in ("id", "tabindex", "aria-describedby"):
        for child in node.querySelectorAll(f"[{attr}]"):
            child.removeAttribute(attr)
    for grid in [node] + list(node.querySelectorAll("[role=grid]")):
        if grid.getAttribute("role") == "grid":
            grid.setAttribute("aria-readonly", "true")
