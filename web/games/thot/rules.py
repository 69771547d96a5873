"""How to play Scarab — the Game of Thot: the rules for players, with live diagrams.

Every diagram is an engine position (``ThotState.from_position``, sometimes with a move pushed) drawn
by the game page itself: ``ThotUI.render`` (``web/games/thot/``) is called on a small still page (a
session with no computer to move and no toolbar), and its board grid is taken out of the drawing.
The board is not a separate function of the view, so this is the smallest piece that can be reused;
the grid keeps the page's marks (squares in reach, the line to use, drop and turn squares) and
accessible names, loses its ids (several boards share the page) and its event handlers (the drawing's
scope is closed), and is labelled by its caption.
"""

from __future__ import annotations

from typing import Any, Callable, cast

from game.thot.board import VALUE
from game.thot.state import ThotState
from web.games.thot.ui import UI
from web.games.thot.context import cell_text as _cell_text
from web.games.thot.panels import legend as thot_legend
from web.platform.session import Seat
from web.ui.context import PlayPage
from web.ui.dom import Scope, append, h

#: The diagrams' positions (8×8, the short game), in the engine's position notation.
#: A move along row 5 (over F5 to the +7 on H5); the reply must then use column H.
MOVE = "1+3-21+53/-41+64-1/2A5/1-65+8/+12P1-31+7/1+5-23+71/3-6+4*3/8 r 0 ./. -"
MOVE_PLAYED = "H5"
#: The priest can stop on the ankh on G3 holding a −8 to give back.
ANKH = ("+3-2+51-4+6-1+2/-31+6-4+11+7-5/+4-61P2A+8/1-5+3-7+2*1+6-2/+5-1*1+8-3+41-6/-8+7+11-5+7+3-1/"
        "+61+2-7+51+8-3/1-4+4-61-8+71 r 0 -8+5/+4* -")
ANKH_SQUARE, ANKH_PIECE = "G3", "-8"
#: Turn-off variant: along row 4 the priest may turn on the marked +2 on D4.
TURN = "8/1+5+65/8/1P1+2*1-3+41/3-11+82/3-7+33/8/3+53-1 r 0 ./. turnoff"
TURN_SQUARE = "D4"
#: Late game: taking +2 on C4 leaves the −7 alone in column C.
TRICK = "8/2-74-1/8/2+21P2-2/8/1-31+44/8/8 r 0 +8/+7 -"
TRICK_PLAYED = "C4"


class _StillSession:
    """What ``ThotUI.render`` reads from a session: the state and the seats; nobody is a computer."""

    replay_only = False

    def __init__(self, state: ThotState) -> None:
        self.state = state
        self.seats = [Seat(str(i + 1)) for i in range(state.num_players)]
        self.meta: dict[str, Any] = {}  # no saved search line, no puzzle: a diagram has no history

    def computer_to_move(self) -> bool:
        return False

    def can_take_back(self) -> bool:
        return False


class _StillPage:
    """The least of a game page (``web.ui.context.PlayPage``) that the view needs to draw one position."""

    def __init__(self, app: Any, state: ThotState, selection: dict[str, Any] | None) -> None:
        self.app = app
        self.t = app.t
        self.session = _StillSession(state)
        self.selection = dict(selection or {})
        self.thinking = False
        self.closed = True
        self.message: tuple[str, bool] | None = None
        self.view_scope = Scope()

    #: The game page's widgets, drawn as nothing: a diagram is the board alone.
    WIDGETS = ("thinking_box", "message_box", "message_line", "toolbar", "scoreline", "drawer")

    def __getattr__(self, name: str) -> Callable[..., None]:
        if name in self.WIDGETS:
            return lambda *args, **kwargs: None
        raise AttributeError(name)  # the view's own state (getattr with a default) stays absent

    def halted(self) -> str | None:
        return None  # a diagram: the position's own turn line


def board_of(app: Any, state: ThotState, selection: dict[str, Any] | None = None) -> Any:
    """The game page's board grid for ``state``, still: no ids, no focus stops, no handlers."""
    page = _StillPage(app, state, selection)
    # The still page answers every attribute the view reads (its widgets draw nothing).
    drawing = UI.render(cast(PlayPage, page))
    grid = drawing.querySelector(".thot-board")
    page.view_scope.close()  # removes the grid's click and key handlers (the tree lets go of its nodes)
    grid.parentNode.removeChild(grid)
    for attr in ("id", "aria-describedby", "aria-label"):
        grid.removeAttribute(attr)
    for node in grid.querySelectorAll("[id]"):
        node.removeAttribute("id")
    for node in grid.querySelectorAll("[tabindex]"):
        node.removeAttribute("tabindex")
    grid.setAttribute("aria-readonly", "true")
    grid.style.pointerEvents = "none"  # a picture: no pointer cursor, no hover
    return grid


def figure(app: Any, grid: Any, caption: str, fig_id: str) -> Any:
    grid.setAttribute("aria-label", app.t("thot.rules.fig.label", caption=caption))
    # ``thot-page`` carries the board's colours (its CSS variables, light and dark).
    return h("figure", {"class": "thot-page thot-diagram", "id": fig_id,
                        "style": "flex: 1 1 16rem; max-width: 22rem; margin: 12px 0"},
             grid, h("figcaption", {"id": f"{fig_id}-caption", "text": caption}))


def _sq(state: ThotState, name: str) -> int:
    index = state.geo.index(name)
    assert index is not None, name
    return index


def figures(app: Any) -> dict[str, Any]:
    t = app.t
    out: dict[str, Any] = {}

    before = ThotState.from_position(MOVE)
    row = before.geo.name(before.priest)[1:]
    out["before"] = figure(app, board_of(app, before), t("thot.rules.fig.before", row=row), "thot-fig-before")
    after = ThotState.from_position(MOVE)
    taken = after.push_text(MOVE_PLAYED)["taken"]
    out["after"] = figure(app, board_of(app, after),
                          t("thot.rules.fig.after", value=_cell_text(taken), square=MOVE_PLAYED,
                            column=MOVE_PLAYED[0]), "thot-fig-after")

    ankh = ThotState.from_position(ANKH)
    piece = next(c for c in ankh.collection(ankh.to_move()) if VALUE[c] == int(ANKH_PIECE))
    out["ankh"] = figure(app, board_of(app, ankh, {"dest": _sq(ankh, ANKH_SQUARE), "piece": piece}),
                         t("thot.rules.fig.ankh", square=ANKH_SQUARE, value=_cell_text(VALUE[piece])),
                         "thot-fig-ankh")

    turn = ThotState.from_position(TURN)
    at = _sq(turn, TURN_SQUARE)
    out["turn"] = figure(app, board_of(app, turn, {"turn": at}),
                         t("thot.rules.fig.turnoff", row=TURN_SQUARE[1:], value=_cell_text(VALUE[turn.board[at]]),
                           square=TURN_SQUARE, column=TURN_SQUARE[0]), "thot-fig-turn")

    trick = ThotState.from_position(TRICK)
    taken = trick.push_text(TRICK_PLAYED)["taken"]
    forced = [trick.board[m.dest] for m in trick.legal_moves()]
    out["trick"] = figure(app, board_of(app, trick),
                          t("thot.rules.fig.trick", value=_cell_text(taken), square=TRICK_PLAYED,
                            column=TRICK_PLAYED[0], forced=_cell_text(VALUE[forced[0]])), "thot-fig-trick")
    return out


def section(t: Any, key: str, title: str, *children: Any) -> Any:
    return h("section", {"class": "rules-section", "id": f"thot-rules-{key}", "aria-labelledby": f"thot-rules-{key}-h"},
             h("h2", {"id": f"thot-rules-{key}-h", "text": title}), *children)


def para(t: Any, *keys: str) -> list[Any]:
    return [h("p", {"text": t(k)}) for k in keys]


def render(app: Any) -> Any:
    t = app.t
    fig = figures(app)
    legend = h("div", {"class": "thot-page"}, h("p", {"text": t("thot.rules.legend")}), thot_legend(t, True))
    log = h("ul", {"class": "thot-rules-log"})
    for move, key in (("C7", "plain"), ("C3>F3", "turn"), ("C7@E5:-8", "drop")):
        append(log, h("li", {}, h("code", {"text": move, "style": "font-weight: 700"}), " \u2014 ",
                      t(f"thot.rules.log.{key}")))

    decisions = h("ul", {})
    for key in ("setup", "line", "first", "drop", "end", "short", "marked", "tie"):
        append(decisions, h("li", {"text": t(f"thot.rules.decide.{key}")}))
    advice = h("ul", {})
    for key in ("ankh", "low", "two"):
        append(advice, h("li", {"text": t(f"thot.rules.advice.{key}")}))

    return h("div", {"class": "thot-rules"},
             h("p", {"class": "lead", "text": t("thot.rules.intro")}),
             section(t, "aim", t("thot.rules.aim.title"), *para(t, "thot.rules.aim.body")),
             section(t, "setup", t("thot.rules.setup.title"),
                     *para(t, "thot.rules.setup.body", "thot.rules.setup.marked"), legend),
             section(t, "turn", t("thot.rules.turn.title"),
                     *para(t, "thot.rules.turn.body", "thot.rules.turn.across"),
                     h("div", {"class": "row", "style": "align-items: flex-start; gap: 16px"},
                       fig["before"], fig["after"]),
                     *para(t, "thot.rules.turn.must")),
             section(t, "ankh", t("thot.rules.ankh.title"), *para(t, "thot.rules.ankh.body"), fig["ankh"]),
             section(t, "end", t("thot.rules.end.title"), *para(t, "thot.rules.end.body", "thot.rules.end.tie")),
             section(t, "variants", t("thot.rules.variants.title"),
                     h("h3", {"text": t("thot.rules.short.title")}), *para(t, "thot.rules.short.body"),
                     h("h3", {"text": t("thot.rules.turnoff.title")}), *para(t, "thot.rules.turnoff.body"),
                     fig["turn"],
                     h("h3", {"text": t("thot.rules.teams.title")}), *para(t, "thot.rules.teams.body")),
             section(t, "advice", t("rules.advice"), *para(t, "thot.rules.advice.intro"), advice, fig["trick"]),
             section(t, "decisions", t("rules.decisions"),
                     h("div", {"class": "decision"}, *para(t, "thot.rules.decide.intro"), decisions)),
             section(t, "log", t("thot.rules.log.title"), log))
