"""The board: an ARIA grid of squares drawn from ``state.view()``, with the marks of the move being
made, in a frame that scrolls where the squares would be smaller than 40 px (phones, 10×10).

Marks come from the engine: ``state.legal_moves()`` for the squares a move ends on or turns on,
``state.drop_squares()`` for where a scarab may go back after an ankh. The resume snapshot draws
the same board as plain data (``snapshot_board``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from game.thot.moves import ThotMove
from web.games.thot import anim, input as controls
from web.games.thot.context import cell_text, local
from web.platform.i18n import signed
from web.ui import dom
from web.ui.mount import Mount
from web.ui.vdom import VNode, h

if TYPE_CHECKING:
    from game.thot.state import ThotState
    from web.ui.context import PlayPage

LETTERS = "ABCDEFGHIJ"


def marks(state: ThotState, sel: dict[str, Any]) -> dict[int, str]:
    """Square → "legal" (a move ends there), "turn" (the priest may turn there), "stop" (the chosen
    turn square, where it may also simply stop) or "drop" (an empty square for the scarab)."""
    if "dest" in sel:
        if sel.get("piece") is None:
            return {}
        return {sq: "drop" for sq in state.drop_squares(ThotMove(sel["dest"], sel.get("turn")))}
    moves = [m for m in state.legal_moves() if m.drop is None]
    out: dict[int, str] = {}
    turn = sel.get("turn")
    if turn is not None:
        for m in moves:
            if m.turn == turn:
                out[m.dest] = "legal"
        if any(m.turn is None and m.dest == turn for m in moves):
            out[turn] = "stop"
        return out
    for m in moves:
        if m.turn is None:
            out.setdefault(m.dest, "legal")
    for m in moves:
        if m.turn is not None:
            out[m.turn] = "turn"
    return out


def hint_squares(state: ThotState, text: str | None) -> set[int]:
    if not text:
        return set()
    try:
        move = state.parse_move(text)
    except ValueError:
        return set()
    return {sq for sq in (move.dest, move.turn, move.drop) if sq is not None}


#: The keys the grid answers: the page must not scroll or press a button with them. Escape too while
#: a move is half made (declared at each drawing: the handler runs after the event is over).
KEYS = ("ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "Enter", " ")


def board(page: PlayPage, state: ThotState, view: dict[str, Any], person: bool) -> Any:
    """The board's frame (``.game-board``) holding the grid (``#thot-board``), a view tree
    (``web.ui.vdom``) drawn by patch.js; the frame is the page's, the grid the tree's."""
    # the working set (docs/web.md "Layout"): the frame is the board part of the page's grid
    frame = dom.h("div", {"class": "thot-frame game-board", "id": "thot-frame"})
    local(page).board = Mount(frame, lambda: grid(page, state, view, person), page.view_scope)
    return frame


def grid(page: PlayPage, state: ThotState, view: dict[str, Any], person: bool) -> VNode:
    t = page.t
    sel = page.selection
    size = view["size"]
    name = state.geo.name
    squares = marks(state, sel) if person else {}
    hinted = hint_squares(state, sel.get("hint_move"))

    mine = local(page)
    cursor = mine.cursor
    if cursor is None or cursor >= size * size:
        cursor = state.priest
        mine.cursor = cursor

    priest = state.priest
    axis = view["axis"]
    prow, pcol = divmod(priest, size)
    on_line = {i for i in range(size * size) if i != priest and (
        (i // size == prow and axis != "column") or (i % size == pcol and axis != "row"))}

    # The letters and numbers of the line the priest must move along are highlighted too.
    col_on = person and axis != "row"
    row_on = person and axis != "column"
    rows = [h("div", {"class": "thot-row thot-head", "aria-hidden": "true"},
              h("span", {"class": "thot-corner"}),
              *[h("span", {"text": ch, "class": "on" if col_on and i == pcol else None})
                for i, ch in enumerate(LETTERS[:size])])]
    marked = set(view["marked"])
    run = anim.computer_run(state, [seat.computer for seat in page.session.seats])
    order = {sq: k + 1 for k, sq in enumerate(run)} if len(run) > 1 else {}
    path = anim.last_path(state)
    slide = anim.slide(page, state, path)
    for r in range(size):
        row = h("div", {"role": "row", "class": "thot-row"},
                h("span", {"class": "thot-rownum on" if row_on and r == prow else "thot-rownum",
                           "aria-hidden": "true", "text": str(r + 1)}))
        for c in range(size):
            i = r * size + c
            sq = name(i)
            value = view["cells"][r][c]
            classes = ["thot-cell"]
            parts = [sq]
            content: VNode | None = None
            if value == "priest":
                classes.append("priest")
                parts.append(t("thot.priest"))
                content = h("span", {"class": "piece priest-piece" + (" slide" if slide else ""),
                                     "aria-hidden": "true", "text": "\u265d", "style": slide})
            elif value == "ankh":
                classes.append("ankh")
                parts.append(t("thot.ankh"))
                content = h("span", {"class": "piece ankh-piece", "aria-hidden": "true", "text": "\u2625"})
            elif value is None:
                classes.append("empty")
                parts.append(t("thot.empty"))
            else:
                classes.append("pos" if value > 0 else "neg")
                is_marked = sq in marked
                parts.append(signed(value) + (" " + t("thot.marked") if is_marked else ""))
                content = h("span", {"class": "piece", "aria-hidden": "true", "text": cell_text(value)})
                if is_marked:
                    classes.append("marked")
            if path is not None and i == path[0]:
                classes.append("left")  # the square the priest left with the last move
                parts.append(t("thot.sq.left"))
            if i in on_line and person:
                classes.append("line")
            mark = squares.get(i)
            if mark:
                classes.append(f"mark-{mark}")
                parts.append(t(f"thot.mark.{mark}"))
            if i in hinted:
                classes.append("hinted")
                parts.append(t("thot.mark.hint"))
            if i in run:
                classes.append("last")
            if i in order:  # one of the computers' moves in a row, numbered in the order played
                parts.append(t("thot.sq.run", n=order[i], of=len(run)))
            attrs = {"role": "gridcell", "id": f"thot-{sq}", "data-sq": str(i), "class": " ".join(classes),
                     "tabindex": "0" if i == cursor else "-1", "aria-label": ", ".join(parts),
                     "data-order": str(order[i]) if i in order else None}
            if sel.get("turn") == i or sel.get("dest") == i:
                attrs["aria-selected"] = "true"
            row.append(h("div", attrs, content, h("span", {"class": "dot", "aria-hidden": "true"}) if mark else None,
                         key=i))
        rows.append(row)
    return h("div", {"role": "grid", "id": "thot-board", "class": f"thot-board size-{size}",
                     "aria-label": t("thot.board"), "aria-describedby": "thot-status", "style": f"--n: {size}",
                     "on_click": lambda e: controls.on_click(page, e), "on_keydown": lambda e: controls.on_key(page, e),
                     "prevent": {"keydown": KEYS + (("Escape",) if page.selection else ())}}, rows)


def snapshot_board(page: PlayPage, state: ThotState, view: dict[str, Any]) -> Any:
    """The board as ``board`` draws it, as plain data for boot.js (``web.platform.snapshot.el``)."""
    from web.platform.snapshot import el

    size = view["size"]
    marked = set(view["marked"])
    last_dest = anim.last_squares(state)
    rows = [el("div", "thot-row thot-head", None, el("span", "thot-corner"),
               *[el("span", None, ch) for ch in LETTERS[:size]])]
    for r in range(size):
        cells = []
        for c in range(size):
            value = view["cells"][r][c]
            classes = ["thot-cell"]
            content = None
            if value == "priest":
                classes.append("priest")
                content = el("span", "piece priest-piece", "\u265d")
            elif value == "ankh":
                classes.append("ankh")
                content = el("span", "piece ankh-piece", "\u2625")
            elif value is None:
                classes.append("empty")
            else:
                classes.append("pos" if value > 0 else "neg")
                if state.geo.name(r * size + c) in marked:
                    classes.append("marked")
                content = el("span", "piece", cell_text(value))
            if r * size + c in last_dest:
                classes.append("last")
            cells.append(el("div", " ".join(classes), None, content))
        rows.append(el("div", "thot-row", None, el("span", "thot-rownum", r + 1), *cells))
    grid = el("div", f"thot-board size-{size}", None, *rows, role="img", aria_label=page.t("thot.board"), __n=size)
    # the frame as the page draws it (the same 40 px squares on a phone); --n for the frame's size too
    return el("div", "thot-frame game-board", None, grid, __n=size)
