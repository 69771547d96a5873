"""What the modules of the Scarabeo view share: the per-render board context (``BoardCtx``, what the
board shows now), the typed game page (``web.ui.context.PlayPage``, imported for type checking only),
the view's constants, the engine's computer opponent if it is there, and two small helpers."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pyscript import window

from game.scarabeo.board import SIZE

if TYPE_CHECKING:
    from typing import Generator

    from web.ui.context import PlayPage  # noqa: F401 - the ``page`` every method of the view takes

try:  # the computer opponent and the hints (game/scarabeo/ai.py); without it, people only
    from game.scarabeo import ai as scarabeo_ai
    #: Seat levels 1-4 are the engine's aliases of beginner, casual, expert, champion.
    LEVELS: tuple[int, ...] = tuple(int(k) for k in sorted(scarabeo_ai.ALIASES) if k.isdigit())
except ImportError:  # pragma: no cover - depends on the engine being there
    scarabeo_ai = None  # type: ignore[assignment]
    LEVELS = ()

PREMIUM_LABEL = {"W": "3P", "D": "2P", "T": "3L", "L": "2L"}
PREMIUM_KEY = {"W": "scarabeo.premium.3P", "D": "scarabeo.premium.2P", "T": "scarabeo.premium.3L",
               "L": "scarabeo.premium.2L", "*": "scarabeo.premium.centre"}
#: Seconds between two of the computer's tiles appearing on the board.
COMPUTER_TILE_SECONDS = 0.18
#: A tap on a square, the start of a drag or a pinch zooms the board in when its squares are
#: smaller than this (CSS px): a phone's whole board at rest; a tablet's squares are big enough.
ZOOM_BELOW_PX = 30
#: Two taps on the board this close (ms) are a double tap (zooms out, or in at rest).
DOUBLE_TAP_MS = 350
#: Tiles laid are saved this long after the last change (one write for a burst of keystrokes).
TABLE_SAVE_DELAY_MS = 400
#: While the hourglass runs, the table is saved every this many ticks of the half-second ticker.
TABLE_SAVE_TICKS = 6


@dataclass
class BoardCtx:
    """What the board shows in one drawing (``Board._board_ctx``; the rules page's diagrams and
    the review build one with the board alone). Squares are indices 0…288; tiles are letters,
    lowercase for a scarab standing for that letter."""

    board: list[str]  #: the engine's board, with the chosen swaps applied while placing
    placing: bool = False  #: a person is to move and may lay tiles
    rack: list[str] = field(default_factory=list)  #: the rack of the player to move, after the swaps
    swap_error: str | None = None  #: the engine's refusal of a chosen swap
    placed: dict[int, str] = field(default_factory=dict)  #: tiles laid, not played yet
    ghost: dict[int, str] = field(default_factory=dict)  #: the computer's tiles appearing (or a best play)
    play: Any = None  #: the tentative play (the engine's ``Play``), when legal
    result: Any = None  #: its preview (the engine's turn result with the breakdown)
    reason: str | None = None  #: why the tiles laid are not a play, in the player's words
    formed: set[int] = field(default_factory=set)  #: squares of the words the tentative play forms
    last: set[int] = field(default_factory=set)  #: the last play's tiles, outlined (or the computers' run's)
    #: the computers' moves in a row since the person's (``marks.board_marks``): each tile's move
    #: number, the run's length, and the first tile of each play, where its number is drawn
    order: dict[int, int] = field(default_factory=dict)
    run_of: int = 0
    badges: set[int] = field(default_factory=set)
    cursor: int = -1  #: the keyboard cursor (the grid's one tab stop); -1 for none
    across: bool = True  #: the typing direction
    swappable: set[int] = field(default_factory=set)  #: board scarabs the player may take back
    swaps: set[int] = field(default_factory=set)  #: board scarabs taken back


@dataclass
class ScarabeoLocal:
    """The view's own memory on one game page, kept between drawings (what was loose ``page.sc_*``
    attributes): focus, typing direction, tile order, zoom, drag, the grid and rows reused between
    drawings and whose session they belong to, the hourglass table's timers, the last commit."""

    #: the board square with the roving focus (None: not placed yet)
    cursor: int | None = None
    #: typing direction: across (True) or down
    across: bool = True
    #: the player's own order of the rack's tiles (Shuffle, drag), None: the engine's
    order: list[str] | None = None
    #: the board zoomed in for placing (at rest it is whole); zoomed out again by Play and Recall
    zoom: bool = False
    #: the last tap on the board (performance.now ms) and whether it zoomed in (double tap)
    tap_at: float = 0.0
    tap_zoomed: bool = False
    #: two fingers on the board: their distance when the pinch began
    pinch: float | None = None
    #: a tile being dragged: its letter, where the pointer went down
    drag: dict[str, Any] | None = None
    #: the squares' DOM nodes kept between drawings, for the session they were drawn for
    grid: Any = None
    grid_for: Any = None
    specs: list[Any] = field(default_factory=list)
    cells: list[Any] = field(default_factory=list)
    #: the score sheet's rows, for the session they were drawn for
    rows: dict[Any, Any] | None = None
    rows_for: Any = None
    #: the number of moves when the last play was brought into view
    last_seen: int | None = None
    #: the position (moves played) the tiles being laid belong to
    sel_move: int | None = None
    #: the hourglass table: its ticker, save timer, session, warning shown, last event
    ticker: Any = None
    table_timer: Any = None
    table_for: Any = None
    table_warned: bool = False
    last: dict[str, Any] | None = None
    #: how long the last commit took, ms (also on ``body[data-sc-commit-ms]``)
    commit_ms: float | None = None


def local(page: PlayPage) -> ScarabeoLocal:
    """The view's memory on ``page``, made on first use. ``vars``, not ``getattr``: a still page
    (rules, review, today's challenge) answers any attribute with a function."""
    mine = vars(page).get("sc_local")
    if not isinstance(mine, ScarabeoLocal):
        mine = ScarabeoLocal()
        vars(page)["sc_local"] = mine  # kept where it is read: the page's own attributes
    return mine


def now() -> float:
    """The hourglass's clock: the page's monotonic milliseconds, in seconds."""
    return float(window.performance.now()) / 1000.0


def next_square(sq: int, across: bool, step: int = 1) -> int | None:
    """The square after ``sq`` across or down, None past the edge."""
    r, c = divmod(sq, SIZE)
    if across:
        c += step
    else:
        r += step
    return r * SIZE + c if 0 <= r < SIZE and 0 <= c < SIZE else None


def tile_name(t: Any, letter: str, value: int) -> str:
    """"A, 1 point": begins with what the tile shows (the letter, then its value)."""
    return str(t.plural("scarabeo.tile", value, letter=letter))


class ViewPart:
    """The base of the parts ``web.games.scarabeo.ui.ScarabeoUI`` is made of (board, rack, input …).

    A part calls methods that another part defines; for the type checker (and a reader) they are
    declared here, each under the module that defines it. At run time the class is empty: the
    definitions come from the parts through ScarabeoUI's method resolution order.
    """

    if TYPE_CHECKING:
        # actions.py
        def _commit(self, page: PlayPage, text: str) -> None: ...
        async def _exchange(self, page: PlayPage) -> None: ...
        async def _pass(self, page: PlayPage) -> None: ...
        def _play(self, page: PlayPage) -> None: ...
        def _recall(self, page: PlayPage) -> None: ...
        def _shuffle(self, page: PlayPage) -> None: ...
        def _toggle_dir(self, page: PlayPage) -> None: ...
        def _toggle_zoom(self, page: PlayPage) -> None: ...
        def _set_zoom(self, page: PlayPage, on: bool, around: int | None = None,
                      at: tuple[float, float] | None = None) -> None: ...
        # anim.py
        def _follow_last(self, page: PlayPage, moves: int, last: set[int]) -> int: ...
        def _scroll_to_cursor(self, page: PlayPage) -> None: ...
        def _scroll_to(self, page: PlayPage, sq: int, at: tuple[float, float] | None = None) -> None: ...
        def _show_computer_tiles(self, page: PlayPage, text: str) -> Generator[float | None, None, None]: ...
        # board.py
        def cell_spec(self, page: PlayPage, ctx: BoardCtx, sq: int) -> tuple[str, str, str, str]: ...
        def _projected(self, page: PlayPage) -> tuple[list[str], list[str], str | None]: ...
        def _swappable(self, page: PlayPage) -> list[str]: ...
        def _tentative(self, page: PlayPage) -> tuple[Any, Any, str | None]: ...
        def _placing(self, page: PlayPage) -> bool: ...
        def _zoomed(self, page: PlayPage) -> bool: ...
        # disputes.py
        def dispute_waits(self, page: PlayPage) -> bool: ...
        def _dispute_box(self, page: PlayPage, view: dict[str, Any], waiting: bool = False,
                         on_cover: bool = False) -> Any: ...
        # computer.py
        async def _hint(self, page: PlayPage) -> None: ...
        def _use_hint(self, page: PlayPage, k: int) -> None: ...
        # input.py
        def _can_place(self, page: PlayPage) -> bool: ...
        def _drag_cancel(self, page: PlayPage) -> None: ...
        def _drag_end(self, page: PlayPage, event: Any) -> None: ...
        def _drag_move(self, page: PlayPage, event: Any) -> None: ...
        def _drag_start(self, page: PlayPage, event: Any) -> None: ...
        def _focus(self, page: PlayPage, sq: int) -> None: ...
        def _on_board_click(self, page: PlayPage, event: Any) -> None: ...
        def _on_board_key(self, page: PlayPage, event: Any) -> None: ...
        def _on_rack_click(self, page: PlayPage, event: Any) -> None: ...
        def _on_touch(self, page: PlayPage, event: Any) -> None: ...
        # panels.py
        def _clock_text(self, page: PlayPage) -> str: ...
        def _hint_words(self, page: PlayPage, state: Any, hint: dict[str, Any]) -> str: ...
        def _last_summary(self, page: PlayPage) -> str | None: ...
        def _reason(self, page: PlayPage, err: Exception) -> str: ...
        def _status(self, page: PlayPage, view: dict[str, Any]) -> str: ...
        def _words_panel(self, page: PlayPage, words: list[Any]) -> None: ...
        # rack.py
        def _rack_left(self, page: PlayPage, rack: list[str]) -> list[str]: ...
        def _zoom_button(self, page: PlayPage, zoomed: bool) -> Any: ...
        def _viewer(self, page: PlayPage) -> int | None: ...
        # table.py
        def _before_move(self, page: PlayPage, timeout: bool = False) -> None: ...
        def _save_table(self, page: PlayPage, clock_too: bool = True) -> None: ...
        # ui.py (ScarabeoUI itself)
        def refresh(self, page: PlayPage) -> None: ...


__all__ = ["BoardCtx", "LEVELS", "ScarabeoLocal", "local", "next_square", "now", "scarabeo_ai", "tile_name", "ViewPart"]
