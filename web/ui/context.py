"""The typed contexts between a page and a game's views: what a game's view module provides
(``GameUI``) and what the page hosting it offers the view (``PlayPage``). A game's views import these
Protocols, never the page (``web.pages.play.GamePage`` implements ``PlayPage``; the review's still
board, ``web.ui.still.StillPage``, its drawing part)."""

from __future__ import annotations

from typing import Any, Callable, Generator, Protocol

from web.platform.i18n import Messages
from web.platform.router import Route
from web.ui.dom import Scope


class PlayPage(Protocol):
    """The game page as a view sees it: the session to draw, the page's scopes for handlers, its
    transient state, and the actions a view calls (commit a move, redraw, say something)."""

    app: Any
    t: Messages
    root: Any
    route: Route
    ui: "GameUI"
    #: Handlers of the whole page, and of the current drawing (closed at every redraw).
    scope: Scope
    view_scope: Scope
    #: The game's session (``web.platform.session.Session``); None before a save is open.
    session: Any
    closed: bool
    thinking: bool
    #: (seat, moves played) the pass-and-play cover was lifted for.
    revealed: tuple[int, int] | None
    #: The view's own transient input state (selected tile …).
    selection: dict[str, Any]
    message: tuple[str, bool] | None

    def commit(self, move_text: str, by_computer: bool = False) -> bool: ...

    def redraw(self) -> None: ...

    #: What stops play short of the end, said as the turn line (a remote game stopped on a cheat).
    def halted(self) -> str | None: ...

    def can_take_back(self) -> bool: ...

    #: Hints (a game between devices: only where its invitation allows them, each one counted).
    def hints_allowed(self) -> bool: ...

    def hint_taken(self) -> bool: ...

    def take_back(self) -> None: ...

    #: Start the computer's turn if a computer is to move (and the view does not hold it back).
    def maybe_computer(self) -> None: ...

    def say(self, text: str) -> None: ...

    def show_message(self, text: str, error: bool = False) -> None: ...

    def message_box(self) -> Any: ...

    def message_line(self) -> Any: ...

    def toolbar(self, *extra: Any) -> Any: ...

    def scoreline(self, scores: list[Any], last: str | None = None) -> Any: ...

    def drawer(self, *panels: Any) -> Any: ...

    def tutorial_banner(self) -> Any: ...


class GameUI(Protocol):
    GAME: str
    MIN_PLAYERS: int
    MAX_PLAYERS: int
    #: Computer levels, weakest first (the engine's ids); their names come from the one ladder
    #: (``web.platform.events.level_name``).
    LEVELS: tuple[int, ...]
    #: True when players hold secrets (Scarabeo racks): a cover hides them between people's turns.
    PRIVATE: bool

    def options_form(self, page: "PlayPage") -> tuple[Any, Callable[[int], dict[str, Any]]]:
        """Game-specific options: the form fragment and a reader taking the number of players."""

    def render(self, page: "PlayPage") -> Any:
        """Draw the game from ``page.session.state``; bind inputs through ``page.scope``."""

    def computer(self, page: "PlayPage", level: int) -> Generator[float | None, None, str]:
        """Think in small steps (yield often); return the move in notation. Yielding a number of
        seconds asks ``web.ui.slices.run_in_slices`` for a pause (Scarabeo's tiles shown one by one)
        instead of spinning on the clock."""

    def announce(self, page: "PlayPage", move_text: str, result: Any) -> str:
        """A sentence for screen readers about the move just played."""
