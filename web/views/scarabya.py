"""Scarabya in the page: each player's site, the round's mission card, a ghost tile that follows the
pointer (or the arrow keys) and shows whether it fits and what it would score, hints, the token
supply, the other players' sites, the end screen with solo best scores, and the Ruins variant.

Everything drawn comes from the engine (``view()``, ``placements()``, ``check``, ``push``/``pop``):
the ghost is legal exactly when its squares are one of the engine's legal placement masks, its score
is what ``push`` reports (undone at once with ``pop``), and a refusal is the engine's ``IllegalMove``.
"""

from __future__ import annotations

import json
import time
from typing import Any, Callable, Generator

from pyscript import window  # type: ignore[import-not-found]
from pyscript.ffi import to_js  # type: ignore[import-not-found]

from game.core import IllegalMove, NotationError
from game.core import safejson
from game.scarabya import solver
from game.scarabya.grid import SITE, Grid
from game.scarabya.ruins import BOARD, PIECES, RuinsState
from game.scarabya.sets import TILES
from game.scarabya.shapes import orient
from game.scarabya.state import ScarabyaState
from web.dom import append, h
from web.storage import StorageError

#: Solo results kept in this browser (top ten), outside the saves' key space.
BEST_KEY = "scarab:scarabya:best"
BEST_KEEP = 10
#: The hint's look-ahead stops after its first full sweep past this budget (the whole hint stays
#: under 200 ms in the browser; the figure of each hint is shown and kept in ``data-ms``).
HINT_BUDGET_MS = 60.0
RUINS_HINT_LEVEL = 3

Cells = tuple[tuple[int, int], ...]


# --- orientation arithmetic (orientation k: mirror left-right if k >= 4, then k mod 4 quarter-turns) ---
def rotated(k: int, clockwise: bool = True) -> int:
    return (k & 4) | ((k + (1 if clockwise else 3)) % 4)


def flipped(k: int) -> int:
    """Mirror the shape as it lies now: M R^r M^m = R^-r M^(m+1)."""
    return (4 - (k & 4)) | ((4 - (k & 3)) % 4)


def handle_of(cells: Cells) -> tuple[int, int]:
    """The cell nearest the shape's middle: the square the pointer holds the ghost by."""
    mx = sum(x for x, _ in cells) / len(cells)
    my = sum(y for _, y in cells) / len(cells)
    return min(cells, key=lambda c: ((c[0] - mx) ** 2 + (c[1] - my) ** 2, c[1], c[0]))


def show_ghost(board: Any) -> None:
    """Scroll the ghost to the middle of the screen unless it is in full view (below the sticky top bar)."""
    handle = board.querySelector(".sq.handle")
    if not handle:
        return
    top_bar = window.document.querySelector(".topbar")
    covered = top_bar.getBoundingClientRect().bottom if top_bar else 0
    rect = handle.getBoundingClientRect()
    if rect.top < covered or rect.bottom > window.innerHeight:
        handle.scrollIntoView(to_js({"block": "center"}))


def seat_name(page: Any, seat: int) -> str:
    return str(page.session.seats[seat].name)


# --- solo best scores -----------------------------------------------------------------------------
def read_best(page: Any) -> list[dict[str, Any]]:
    try:
        data = safejson.loads(page.app.store.kv.get(BEST_KEY) or "{}")
    except ValueError:
        return []
    games = data.get("games", []) if isinstance(data, dict) else []
    if not isinstance(games, list):
        return []
    return [g for g in games if isinstance(g, dict) and safejson.is_safe_int(g.get("score"))
            and safejson.is_safe_int(g.get("when", 0))]


def record_best(page: Any) -> None:
    """Keep a finished solo game among this browser's best (once per save)."""
    session = page.session
    state = session.state
    if not isinstance(state, ScarabyaState) or state.num_players != 1 or session.seats[0].computer:
        return
    games = read_best(page)
    if any(g.get("save") == session.save.id for g in games):
        return
    games.append({"save": session.save.id, "score": state.scores[0], "seed": state.seed,
                  "perfect": state.perfect_dig(0), "when": int(window.Date.now())})
    games.sort(key=lambda g: (-int(g["score"]), int(g.get("when", 0))))
    try:
        page.app.store.kv.set(BEST_KEY, json.dumps({"v": 1, "games": games[:BEST_KEEP]}))
    except StorageError as err:
        page.app.storage_error(err, "stats")


# --- the board and its ghost --------------------------------------------------------------------
class Board:
    """One drawn board: its squares, and — when a person places on it — the ghost and its inputs.

    ``legal`` maps (piece, mask) to the engine's move text; ``describe(move_text)`` returns
    (badge, sentence) for a fitting ghost.
    """

    def __init__(self, page: Any, grid: Grid, label: str, active: bool, piece: str | None,
                 legal: dict[tuple[str, int], str], describe: Callable[[str], tuple[str, str]],
                 pieces: list[str] | None = None) -> None:
        self.page = page
        self.grid = grid
        self.active = active and piece is not None
        self.piece = piece
        self.legal = legal
        self.describe = describe
        self.pieces = pieces or []  # Ruins: the pieces the person may pick (N / Shift+N cycle them)
        self.cells: dict[int, Any] = {}
        self.labels: dict[int, str] = {}
        self.ghosted: list[int] = []
        self.status = h("p", {"class": "sy-ghost-status", "id": "sy-ghost-status"})
        self.place_button: Any = None
        self.node = h("div", {"class": "sy-board", "id": "sy-board" if self.active else "sy-board-view",
                              "role": "grid", "aria-label": label, "style": f"--n: {grid.width}",
                              "tabindex": "0" if self.active else None,
                              "aria-describedby": "sy-ghost-status" if self.active else None})
        head = h("div", {"class": "sy-row sy-head", "aria-hidden": "true"}, h("span", {"class": "sy-lbl"}))
        for c in range(grid.width):
            append(head, h("span", {"class": "sy-lbl", "text": chr(65 + c)}))
        append(self.node, head)

    # geometry -------------------------------------------------------------------------------
    def add_row(self, r: int, squares: list[tuple[str, str, str]]) -> None:
        """squares: (css classes, visible text, accessible description) for each column."""
        row = h("div", {"class": "sy-row", "role": "row"},
                h("span", {"class": "sy-lbl", "aria-hidden": "true", "text": str(r + 1)}))
        for c, (css, text, desc) in enumerate(squares):
            sq = r * self.grid.width + c
            name = self.grid.name(sq)
            label = f"{name}, {desc}"
            cell = h("div", {"class": f"sq {css}", "role": "gridcell", "id": f"sq-{name}",
                             "data-sq": str(sq), "aria-label": label},
                     h("span", {"class": "sq-in", "text": text}) if text else None)
            self.cells[sq] = cell
            self.labels[sq] = label
            append(row, cell)
        append(self.node, row)

    def cells_now(self) -> Cells:
        assert self.piece is not None
        shape = TILES[self.piece] if self.grid is SITE else PIECES[self.piece]
        return orient(shape.cells, self.sel("k", 0))

    def sel(self, key: str, default: Any) -> Any:
        return self.page.selection.get(key, default)

    def clamp(self, col: int, row: int) -> tuple[int, int]:
        cells = self.cells_now()
        w = max(x for x, _ in cells) + 1
        hgt = max(y for _, y in cells) + 1
        return max(0, min(col, self.grid.width - w)), max(0, min(row, self.grid.height - hgt))

    def anchor(self) -> tuple[int, int] | None:
        a = self.sel("anchor", None)
        return None if a is None else self.clamp(*a)

    def squares(self) -> list[int]:
        a = self.anchor()
        if a is None:
            return []
        return [(a[1] + y) * self.grid.width + a[0] + x for x, y in self.cells_now()]

    def move_text(self) -> str | None:
        a = self.anchor()
        if a is None or self.piece is None:
            return None
        return f"{self.piece}{self.sel('k', 0)}@{self.grid.name(a[1] * self.grid.width + a[0])}"

    def fitting_text(self) -> str | None:
        mask = 0
        for sq in self.squares():
            mask |= 1 << sq
        return self.legal.get((self.piece or "", mask))

    # inputs ---------------------------------------------------------------------------------
    def bind(self) -> None:
        if not self.active:
            return
        scope = self.page.view_scope
        scope.on(self.node, "pointermove", self.on_pointermove)
        scope.on(self.node, "pointerdown", self.on_pointerdown)
        scope.on(self.node, "click", self.on_click)
        scope.on(self.node, "keydown", self.on_key)
        scope.on(window.document, "keydown", self.on_page_key)
        if self.sel("anchor", None) is None:
            # start near the centre of the board, where the first tile must go
            self.page.selection["anchor"] = self.clamp(self.grid.width // 2 - 2, self.grid.height // 2 - 2)
        self.show()

    def square_of(self, event: Any) -> int | None:
        # a JS null arrives as None or as pyodide's jsnull (falsy, no DOM methods), depending on the version
        origin = event.target
        target = origin.closest("[data-sq]") if origin and hasattr(origin, "closest") else None
        return int(target.getAttribute("data-sq")) if target and hasattr(target, "getAttribute") else None

    def hold_at(self, sq: int) -> None:
        hx, hy = handle_of(self.cells_now())
        self.page.selection["anchor"] = self.clamp(sq % self.grid.width - hx, sq // self.grid.width - hy)

    def on_pointermove(self, event: Any) -> None:
        kind = str(event.pointerType)
        if kind != "mouse":
            self.drag_to(event)
            return
        sq = self.square_of(event)
        if sq is None:
            return
        before = self.anchor()
        self.hold_at(sq)
        if self.anchor() != before:
            self.show()

    def on_pointerdown(self, event: Any) -> None:
        kind = str(event.pointerType)
        self.page.selection["pointer"] = kind
        self.page.selection["dragged"] = False
        self.page.selection["grip"] = None
        sq = self.square_of(event)
        a = self.anchor()
        if kind != "mouse" and sq is not None and a is not None and sq in self.squares():
            # a finger on the ghost drags it (ghost squares have touch-action: none, so the page stays put)
            self.page.selection["grip"] = (sq % self.grid.width - a[0], sq // self.grid.width - a[1])

    def drag_to(self, event: Any) -> None:
        grip = self.sel("grip", None)
        if grip is None:
            return
        # touch pointers stay captured by the square first touched: ask what lies under the finger
        under = window.document.elementFromPoint(event.clientX, event.clientY)
        cell = under.closest("[data-sq]") if under and hasattr(under, "closest") else None
        if not cell or not self.node.contains(cell):
            return
        sq = int(cell.getAttribute("data-sq"))
        before = self.anchor()
        self.page.selection["anchor"] = self.clamp(sq % self.grid.width - grip[0], sq // self.grid.width - grip[1])
        if self.anchor() != before:
            self.page.selection["dragged"] = True
            self.show()

    def on_click(self, event: Any) -> None:
        sq = self.square_of(event)
        if sq is None:
            return
        if self.sel("dragged", False):
            self.page.selection["dragged"] = False  # the end of a drag is not a tap
            return
        touch = self.sel("pointer", "mouse") in ("touch", "pen")
        if touch and sq not in self.squares():
            self.hold_at(sq)  # first tap: bring the ghost here; a tap on the ghost places it
            self.show()
            return
        if not touch:
            self.hold_at(sq)
            self.show()
        self.place()

    def on_key(self, event: Any) -> None:
        if event.ctrlKey or event.metaKey or event.altKey:
            return
        key = str(event.key)
        a = self.anchor()
        moves = {"ArrowLeft": (-1, 0), "ArrowRight": (1, 0), "ArrowUp": (0, -1), "ArrowDown": (0, 1)}
        if key in moves and a is not None:
            dx, dy = moves[key]
            self.page.selection["anchor"] = self.clamp(a[0] + dx, a[1] + dy)
            self.show()
        elif key in ("r", "R"):
            self.turn(clockwise=key == "r" and not event.shiftKey)
        elif key in ("f", "F"):
            self.flip()
        elif key in ("n", "N") and len(self.pieces) > 1 and self.piece in self.pieces:
            step = -1 if event.shiftKey or key == "N" else 1
            self.page.selection["piece"] = self.pieces[(self.pieces.index(self.piece) + step) % len(self.pieces)]
            self.page.selection["k"] = 0
            event.preventDefault()
            self.page.redraw()
            return
        elif key in ("Enter", " "):
            self.place()
        else:
            return
        event.preventDefault()

    def on_page_key(self, event: Any) -> None:
        """R and F work anywhere on the page (e.g. while the mouse holds the ghost), except in fields."""
        target = event.target
        tag = str(getattr(target, "tagName", "") or "").upper()
        if event.defaultPrevented or tag in ("INPUT", "SELECT", "TEXTAREA"):
            return  # handled by the board already (even by a board a redraw has just replaced), or typing
        if target and hasattr(target, "closest") and target.closest(".sy-board"):
            return
        if window.document.querySelector("dialog[open]"):
            return
        if str(event.key) in ("r", "R", "f", "F", "n", "N"):
            self.on_key(event)

    def turn(self, clockwise: bool = True) -> None:
        self.reorient(rotated(self.sel("k", 0), clockwise))

    def flip(self) -> None:
        self.reorient(flipped(self.sel("k", 0)))

    def reorient(self, k: int) -> None:
        """Change the orientation keeping the square held under the pointer where it is."""
        a = self.anchor()
        held = None
        if a is not None:
            hx, hy = handle_of(self.cells_now())
            held = (a[1] + hy) * self.grid.width + a[0] + hx
        self.page.selection["k"] = k
        if held is not None:
            self.hold_at(held)
        self.show()
        self.page.ui.refresh_card(self.page)

    def place(self) -> None:
        text = self.move_text()
        if text is None:
            return
        if self.fitting_text() is None:
            self.page.show_message(self.page.ui.why_not(self.page, text), error=True)
            return
        self.page.commit(text)

    # drawing --------------------------------------------------------------------------------
    def show(self) -> None:
        """Draw the ghost where it is now: fits (and what it scores) or not (and why)."""
        t = self.page.t
        for sq in self.ghosted:
            cell = self.cells[sq]
            cell.classList.remove("ghost", "ok", "bad", "handle")
            cell.removeAttribute("data-badge")
            cell.setAttribute("aria-label", self.labels[sq])
        squares = self.squares()
        text = self.move_text()
        fits = self.fitting_text()
        if fits is not None:
            badge, sentence = self.describe(fits)
            summary = t("scarabya.ghost.fits", move=fits, badge=badge)
            status = f"{summary} — {sentence}" if sentence else summary
        else:
            badge = "✗"
            summary = t("scarabya.ghost.nofit", move=text or "")
            status = summary
        hx, hy = handle_of(self.cells_now())
        a = self.anchor()
        handle = None if a is None else (a[1] + hy) * self.grid.width + a[0] + hx
        for sq in squares:
            cell = self.cells[sq]
            cell.classList.add("ghost", "ok" if fits else "bad")
            cell.setAttribute("aria-label", f"{self.labels[sq]}; {summary}")
        if handle is not None:
            self.cells[handle].classList.add("handle")
            self.cells[handle].setAttribute("data-badge", badge)
            self.node.setAttribute("aria-activedescendant", f"sq-{self.grid.name(handle)}")
        self.ghosted = squares
        self.status.textContent = status
        self.status.className = "sy-ghost-status ok" if fits else "sy-ghost-status bad"
        self.node.setAttribute("data-ghost", text or "")
        self.node.setAttribute("data-fits", "1" if fits else "0")
        if self.place_button is not None:
            self.place_button.disabled = fits is None

    def controls(self, *extra: Any) -> Any:
        """Rotate, flip and place buttons (the same as R, Shift+R, F and Enter on the board)."""
        t, scope = self.page.t, self.page.view_scope
        if not self.active:
            return None
        self.place_button = h("button", {"type": "button", "class": "primary", "id": "sy-place",
                                         "text": t("scarabya.place"), "on_click": lambda _e: self.place()},
                              scope=scope)
        return h("div", {"class": "sy-controls row", "role": "toolbar", "aria-label": t("scarabya.controls")},
                 h("button", {"type": "button", "id": "sy-rotate-left", "aria-label": t("scarabya.rotate.left"),
                              "title": t("scarabya.rotate.left"), "text": "⟲",
                              "on_click": lambda _e: self.turn(False)}, scope=scope),
                 h("button", {"type": "button", "id": "sy-rotate", "aria-label": t("scarabya.rotate"),
                              "title": t("scarabya.rotate"), "text": "⟳",
                              "on_click": lambda _e: self.turn(True)}, scope=scope),
                 h("button", {"type": "button", "id": "sy-flip", "aria-label": t("scarabya.flip"),
                              "title": t("scarabya.flip"), "text": "⇋",
                              "on_click": lambda _e: self.flip()}, scope=scope),
                 self.place_button, *extra)


def shape_drawing(cells: Cells, css: str, label: str) -> Any:
    """A small picture of a piece (decorative grid of filled squares)."""
    w = max(x for x, _ in cells) + 1
    hgt = max(y for _, y in cells) + 1
    filled = set(cells)
    pic = h("div", {"class": f"sy-shape {css}", "role": "img", "aria-label": label,
                    "style": f"--w: {w}; --h: {hgt}"})
    for y in range(hgt):
        for x in range(w):
            append(pic, h("span", {"class": "on" if (x, y) in filled else "off"}))
    return pic


# --- the game's interface -----------------------------------------------------------------------
class ScarabyaUI:
    GAME = "scarabya"
    MIN_PLAYERS = 1
    MAX_PLAYERS = 4
    LEVELS = (1, 2, 3, 4)
    PRIVATE = False  # every site is on the table

    # --- new game -------------------------------------------------------------------------------
    def options_form(self, page: Any) -> tuple[Any, Callable[[int], dict[str, Any]]]:
        t = page.t
        classic = h("input", {"type": "radio", "name": "variant", "value": "classic", "id": "variant-classic",
                              "checked": True})
        ruins = h("input", {"type": "radio", "name": "variant", "value": "ruins", "id": "variant-ruins"})
        box = h("fieldset", {"class": "sy-options"}, h("legend", {"text": t("scarabya.variant")}),
                h("label", {"class": "choice"}, classic, t("scarabya.variant.classic")),
                h("label", {"class": "choice"}, ruins, t("scarabya.variant.ruins")),
                h("p", {"class": "muted", "text": t("scarabya.variant.help")}))

        def read(players: int) -> dict[str, Any]:
            if ruins.checked:
                if players < 2:
                    raise ValueError(t("scarabya.ruins.players"))
                return {"variant": "ruins", "players": players}
            return {"variant": "classic", "players": players}

        return box, read

    # --- the computer --------------------------------------------------------------------------
    def computer(self, page: Any, level: int) -> Generator[None, None, str]:
        # the search works on a copy, so a ghost preview (push + pop) can never meet it half-way
        return (yield from solver.think(page.session.state.copy(), level))

    # --- announcements -------------------------------------------------------------------------
    def announce(self, page: Any, move_text: str, result: Any) -> str:
        t = page.t
        state = page.session.state
        if not isinstance(result, dict):
            return t("scarabya.say.played", name="", move=move_text)
        name = seat_name(page, result["seat"])
        if isinstance(state, RuinsState):
            said = t("scarabya.say.played", name=name, move=move_text)
            scored = result.get("scored") or []
            if scored:
                page.selection["ruins_scored"] = {"n": len(state.history()), "scored": scored}
                parts = [t("scarabya.ruins.zone.won", zone=e["zone"], name=seat_name(page, e["seat"]),
                           points=e["points"])
                         for e in scored if e["seat"] is not None]
                said += " " + t("scarabya.ruins.round.end", round=result["round"]) + " " + (
                    "; ".join(parts) if parts else t("scarabya.ruins.round.none"))
        elif result.get("discarded"):
            said = t("scarabya.say.discarded", name=name, tile=result["tile"])
        else:
            page.selection["scored"] = {"seat": result["seat"], "n": len(state.history()), "areas": result["areas"]}
            said = t("scarabya.say.placed", name=name, move=move_text, points=result["points"])
        if state.is_over():
            record_best(page)
            said += " " + t("play.over")
        page.selection["said"] = {"n": len(state.history()), "text": said}
        return said

    def said_box(self, page: Any) -> Any:
        """The last move in words, on show until the next one (the next person may not have watched)."""
        said = page.selection.get("said")
        if not said or said.get("n") != len(page.session.state.history()):
            return None
        return h("p", {"class": "sy-said", "id": "sy-said", "text": said["text"]})

    def why_not(self, page: Any, text: str) -> str:
        """The engine's reason, in the player's language when we know its code."""
        state = page.session.state
        try:
            state.check(state.parse_move(text))
        except IllegalMove as err:
            key = f"scarabya.why.{err.code}"
            return page.t(key, move=text) if page.t.has(key) else str(err)
        except NotationError as err:
            return str(err)
        return ""

    # --- drawing -------------------------------------------------------------------------------
    def render(self, page: Any) -> Any:
        state = page.session.state
        if isinstance(state, RuinsState):
            return self.render_ruins(page, state)
        return self.render_classic(page, state)

    def refresh_card(self, page: Any) -> None:
        """Redraw the mission card's picture in the ghost's orientation."""
        box = page.selection.get("_card")
        piece = page.selection.get("_piece")
        if box is None or piece is None:
            return
        shape = TILES[piece] if isinstance(page.session.state, ScarabyaState) else PIECES[piece]
        cells = orient(shape.cells, page.selection.get("k", 0))
        css = page.selection.get("_card_css", "sy-card-shape")
        box.replaceChildren(shape_drawing(cells, css, page.t("scarabya.card.shape", tile=piece)))

    def active_seat(self, page: Any) -> int | None:
        """The seat a person places for now, if any."""
        s = page.session
        if s.state.is_over() or page.thinking or s.seats[s.state.to_move()].computer:
            return None
        return int(s.state.to_move())

    def hint_button(self, page: Any, active: bool) -> Any:
        if not active:
            return None
        return h("button", {"type": "button", "id": "sy-hint", "text": page.t("play.hint"),
                            "on_click": lambda _e: self.show_hint(page)}, scope=page.view_scope)

    def show_hint(self, page: Any) -> None:
        state = page.session.state
        started = time.perf_counter()
        if isinstance(state, RuinsState):
            # the Ruins look-ahead runs in one piece (no slices to stop after), so hints use level 3
            found = solver.hint(state, level=RUINS_HINT_LEVEL)
        else:
            found = solver.hint(state, budget_ms=HINT_BUDGET_MS)
        ms = (time.perf_counter() - started) * 1000.0
        move = state.parse_move(found["move"])
        if isinstance(state, RuinsState):
            page.selection["piece"] = move.piece
        if hasattr(move, "orientation"):
            page.selection["k"] = move.orientation
            grid = BOARD if isinstance(state, RuinsState) else SITE
            page.selection["anchor"] = (move.anchor % grid.width, move.anchor // grid.width)
        page.selection["hint"] = {"move": found["move"], "points": found.get("points", 0), "ms": round(ms),
                                  "expected": found.get("expected"), "n": len(state.history())}
        page.redraw()
        node = window.document.getElementById("sy-board")
        if node:
            node.focus(to_js({"preventScroll": True}))
            show_ghost(node)

    def hint_box(self, page: Any, reason: str) -> Any:
        hint = page.selection.get("hint")
        if not hint or hint.get("n") != len(page.session.state.history()):
            return None
        t = page.t
        return h("div", {"class": "panel sy-hint", "id": "sy-hint-box", "role": "status", "data-ms": str(hint["ms"]),
                         "data-move": hint["move"]},
                 h("h2", {"text": t("scarabya.hint.title", move=hint["move"], points=hint["points"])}),
                 h("p", {"text": reason}),
                 h("p", {"class": "muted", "text": t("scarabya.hint.time", ms=hint["ms"])}))

    # --- classic ---------------------------------------------------------------------------------
    def areas_sentence(self, page: Any, areas: list[dict[str, Any]], covered: list[str]) -> str:
        t = page.t
        parts = []
        for a in areas:
            n = len(a["symbols"])
            if n:
                parts.append(t("scarabya.reason.area", size=a["size"], n=n, cells=self.cells_word(page, a["size"]),
                               scarabs=t("scarabya.scarab.one" if n == 1 else "scarabya.scarab.many")))
            else:
                parts.append(t("scarabya.reason.empty", size=a["size"], cells=self.cells_word(page, a["size"])))
        if covered:
            n = len(covered)
            parts.append(t("scarabya.reason.covers", n=n,
                           scarabs=t("scarabya.scarab.one" if n == 1 else "scarabya.scarab.many")))
        return "; ".join(parts)

    def cells_word(self, page: Any, size: int) -> str:
        return str(page.t("scarabya.cell.one" if size == 1 else "scarabya.cell.many"))

    def preview(self, state: ScarabyaState, text: str) -> dict[str, Any]:
        """What the engine says this placement would do now (played and at once taken back)."""
        result = state.push(state.parse_move(text))
        state.pop()
        return result

    def render_classic(self, page: Any, state: ScarabyaState) -> Any:
        t = page.t
        v = state.view()
        players = v["players"]
        active_seat = self.active_seat(page)
        humans = [i for i in range(players) if not page.session.seats[i].computer]
        default_site = v["to_move"] if v["to_move"] is not None and v["to_move"] in humans else (
            humans[0] if humans else 0)
        if page.selection.get("_site_n") != len(state.history()):
            page.selection["site"] = default_site
            page.selection["_site_n"] = len(state.history())
        site = int(page.selection.get("site", default_site))
        site = site if 0 <= site < players else 0
        placing = active_seat is not None and site == active_seat and not v["must_discard"]
        tile = v["tile"]
        legal: dict[tuple[str, int], str] = {}
        if placing and tile:
            for k, anchor, mask in state.placements():
                legal[(tile, mask)] = f"{tile}{k}@{SITE.name(anchor)}"
        cache: dict[str, tuple[str, str]] = {}

        def describe(text: str) -> tuple[str, str]:
            if text not in cache:
                res = self.preview(state, text)
                cache[text] = (f"+{res['points']}", self.areas_sentence(page, res["areas"], res["covered_symbols"]))
            return cache[text]

        label = t("scarabya.site.of", name=seat_name(page, site))
        board = Board(page, SITE, label, placing, tile if placing else None, legal, describe)
        sdata = v["sites"][site]
        new_areas: list[dict[str, Any]] = []
        scored = page.selection.get("scored")
        if scored and scored.get("n") == len(state.history()) and scored.get("seat") == site:
            new_areas = scored["areas"]
        fresh = {SITE.parse_square(s) for a in new_areas for s in a["squares"]}
        closed = {SITE.parse_square(s) for a in sdata["areas"] for s in a["squares"]}
        tile_round = {SITE.parse_square(s): tl["round"] for tl in sdata["tiles"] for s in tl["squares"]}
        last_round = max(tile_round.values(), default=0)
        for r, row in enumerate(sdata["rows"]):
            squares = []
            for c, ch in enumerate(row):
                sq = r * 10 + c
                css = "closed" if sq in closed else ""
                if sq in fresh:
                    css += " fresh"
                squares.append(site_square(t, ch, css, latest=tile_round.get(sq) == last_round))
            board.add_row(r, squares)
        board.bind()
        page.selection["_piece"] = tile if placing else None

        # the round's mission card
        card_pic = h("div", {"class": "sy-card-pic"})
        page.selection["_card"] = card_pic
        page.selection["_card_css"] = "sy-card-shape"
        mission = None
        if tile:
            mission = h("section", {"class": "panel sy-mission", "aria-labelledby": "sy-mission-title"},
                        h("span", {"class": f"sy-card-letter t-{tile}", "role": "img",
                                   "aria-label": t("scarabya.card.tile", tile=tile)},
                          h("span", {"aria-hidden": "true", "text": tile})),
                        card_pic,
                        h("div", {"class": "sy-mission-text"},
                          h("h2", {"id": "sy-mission-title",
                                   "text": t("scarabya.mission", round=v["round"], rounds=v["rounds"])}),
                          h("p", {"class": "muted", "text": t("scarabya.cards.left", n=v["cards_left"])})))
            if placing:
                self.refresh_card(page)
            else:
                card_pic.replaceChildren(shape_drawing(orient(TILES[tile].cells, 0), "sy-card-shape",
                                                       t("scarabya.card.shape", tile=tile)))

        # whose turn, and what to do
        turn = None
        if not v["over"]:
            mover = v["to_move"]
            turn = h("p", {"class": "sy-turn", "id": "sy-turn",
                           "text": t("play.turn", name=seat_name(page, mover))})
        discard = None
        if active_seat is not None and v["must_discard"]:
            discard = h("div", {"class": "play-message", "role": "status"},
                        h("p", {"text": t("scarabya.must.discard", tile=tile)}),
                        h("button", {"type": "button", "class": "primary", "id": "sy-discard",
                                     "text": t("scarabya.discard"), "on_click": lambda _e: page.commit("-")},
                          scope=page.view_scope))
        viewing = None
        if active_seat is not None and site != active_seat:
            viewing = h("p", {"class": "sy-viewing"},
                        t("scarabya.viewing", name=seat_name(page, site)), " ",
                        h("button", {"type": "button", "id": "sy-back-to-mine",
                                     "text": t("scarabya.view.mine", name=seat_name(page, active_seat)),
                                     "on_click": lambda _e: self.view_site(page, active_seat)}, scope=page.view_scope))

        hint_reason = ""
        hint = page.selection.get("hint")
        if placing and hint and hint.get("n") == len(state.history()):
            if hint["move"] == "-":
                hint_reason = t("scarabya.must.discard", tile=tile)
            else:
                res = self.preview(state, hint["move"])
                said = self.areas_sentence(page, res["areas"], res["covered_symbols"])
                hint_reason = said[0].upper() + said[1:] + "." if said else t("scarabya.reason.quiet")
                if hint.get("expected") is not None:
                    later = float(hint["expected"]) - res["points"]
                    amount = f"{later:.1f}".replace(".", "," if t.lang == "it" else ".")
                    hint_reason += " " + t("scarabya.reason.later", points=amount,
                                           n=len(state.remaining_tiles()))

        # the working set (docs/web.md "Layout"): head, board, hand; the rest in the drawer
        head = h("div", {"class": "game-head sy-main"},
                 self.end_screen(page, v) if v["over"] else None,
                 turn, self.said_box(page), page.scoreline([s["score"] for s in v["sites"]]),
                 page.message_line(), discard, viewing)
        board_box = h("div", {"class": "game-board sy-board-box"},
                      h("div", {"class": "sy-site-head"},
                        h("h2", {"text": label}),
                        h("span", {"class": "sy-site-score",
                                   "text": t("scarabya.site.score", score=sdata["score"], found=sdata["symbols_scored"])})),
                      board.node, board.status if placing else None)
        hand = h("div", {"class": "game-hand sy-hand"}, mission,
                 board.controls(self.hint_button(page, placing)),
                 self.hint_box(page, hint_reason) if placing else None)
        more = page.drawer(self.sites_panel(page, v, site), self.supply_panel(page, v), self.last_panel(page, v),
                           page.toolbar())
        return h("section", {"class": "sy-game game-layout", "data-variant": "classic", **self.marks(state, v)},
                 self.title(page), head, board_box, hand, more)

    def view_site(self, page: Any, seat: int) -> None:
        page.selection["site"] = seat
        page.redraw()

    def sites_panel(self, page: Any, v: dict[str, Any], site: int) -> Any:
        t = page.t
        table = h("table", {"class": "scores"},
                  h("thead", {}, h("tr", {}, h("th", {"scope": "col", "text": t("scarabya.player")}),
                                   h("th", {"scope": "col", "text": t("play.score")}),
                                   h("th", {"scope": "col", "text": t("scarabya.scarabs")}))))
        body = h("tbody", {})
        for i, s in enumerate(v["sites"]):
            name = seat_name(page, i)
            button = h("button", {"type": "button", "class": "sy-site-button", "id": f"sy-site-{i}",
                                  "aria-pressed": "true" if i == site else "false",
                                  "aria-label": t("scarabya.view.site", name=name),
                                  "on_click": lambda _e, i=i: self.view_site(page, i)},
                       h("span", {"class": f"seat-dot seat-{i}"}), name, scope=page.view_scope)
            append(body, h("tr", {"class": "to-move" if v["to_move"] == i else None},
                           h("th", {"scope": "row"}, button),
                           h("td", {"text": str(s["score"])}),
                           h("td", {"text": f"{s['symbols_scored']}/24"})))
        append(table, body)
        best = None
        if v["players"] == 1 and not v["over"]:
            games = read_best(page)
            if games:
                best = h("p", {"class": "muted sy-best-so-far",
                               "text": t("scarabya.best.so.far", score=games[0]["score"])})
        return h("section", {"class": "panel sy-sites", "aria-labelledby": "sy-sites-title"},
                 h("h2", {"id": "sy-sites-title", "text": t("scarabya.sites")}), table, best)

    def supply_panel(self, page: Any, v: dict[str, Any]) -> Any:
        t = page.t
        row = h("ul", {"class": "sy-supply", "aria-label": t("scarabya.supply")})
        for value in ("1", "2", "3", "4"):
            left = v["tokens_left"][value]
            append(row, h("li", {"aria-label": t("scarabya.supply.item", value=value, n=left)},
                          h("span", {"class": f"tok v{value}", "text": value}),
                          h("span", {"class": "sy-count", "text": f"×{left}"})))
        return h("section", {"class": "panel", "aria-labelledby": "sy-supply-title"},
                 h("h2", {"id": "sy-supply-title", "text": t("scarabya.supply")}), row)

    def last_panel(self, page: Any, v: dict[str, Any]) -> Any:
        """Each seat's latest placement and the tokens it earned (new ones animate)."""
        t = page.t
        items = h("ul", {"class": "sy-last"})
        scored = page.selection.get("scored")
        n_now = len(page.session.state.history())
        any_item = False
        for i, s in enumerate(v["sites"]):
            rounds = [tl["round"] for tl in s["tiles"]] + [d["round"] for d in s["discarded"]]
            if not rounds:
                continue
            r = max(rounds)
            any_item = True
            placed = next((tl["move"] for tl in s["tiles"] if tl["round"] == r), None)
            if placed is None:
                tile = next((d["tile"] for d in s["discarded"] if d["round"] == r), "?")
                placed = t("scarabya.last.discarded", tile=tile)
            areas = [a for a in s["areas"] if a["round"] == r]
            pts = sum(a["points"] for a in areas)
            fresh = bool(scored and scored.get("n") == n_now and scored.get("seat") == i)
            chips = h("span", {"class": "sy-chips"})
            for a in areas:
                for tokens in a["tokens"]:
                    for tok in tokens:
                        append(chips, h("span", {"class": f"tok v{tok}" + (" pop" if fresh else ""), "text": str(tok)}))
            text = t("scarabya.last.item", name=seat_name(page, i), round=r, move=placed, points=pts)
            append(items, h("li", {"class": "fresh" if fresh else None}, text, " ", chips))
        if not any_item:
            return None
        return h("section", {"class": "panel", "aria-labelledby": "sy-last-title"},
                 h("h2", {"id": "sy-last-title", "text": t("scarabya.last")}), items)

    def end_screen(self, page: Any, v: dict[str, Any]) -> Any:
        t = page.t
        outcome = v["outcome"] or {}
        winners = outcome.get("winners", [])
        scores = v["scores"]
        players = v["players"]
        body = h("div", {})
        if players == 1:
            site = v["sites"][0] if "sites" in v else None
            append(body, h("p", {"class": "sy-final", "text": t("scarabya.end.solo", score=scores[0])}))
            if site is not None:
                append(body, h("p", {"text": t("scarabya.end.found", n=site["symbols_scored"])}))
                if site["perfect_dig"]:
                    append(body, h("p", {"class": "sy-perfect", "text": t("scarabya.end.perfect")}))
            best = read_best(page)
            if best:
                mine = page.session.save.id
                top = best[0]
                if top.get("save") == mine:
                    append(body, h("p", {"class": "sy-newbest", "text": t("scarabya.best.new")}))
                lst = h("ol", {"class": "sy-best", "aria-label": t("scarabya.best")})
                for g in best[:5]:
                    when = window.Date.new(g.get("when", 0)).toLocaleDateString(t.lang)
                    append(lst, h("li", {"class": "mine" if g.get("save") == mine else None,
                                         "text": t("scarabya.best.item", score=g["score"], date=when)}))
                append(body, h("h3", {"text": t("scarabya.best")}), lst)
        else:
            if len(winners) == 1:
                append(body, h("p", {"class": "sy-final", "text": t("play.winner", name=seat_name(page, winners[0]))}))
            else:
                names = ", ".join(seat_name(page, w) for w in winners)
                append(body, h("p", {"class": "sy-final", "text": t("scarabya.end.tie", names=names)}))
            ranking = h("ol", {"class": "sy-ranking"})
            for i in sorted(range(players), key=lambda i: -scores[i]):
                append(ranking, h("li", {"text": t("scarabya.end.rank", name=seat_name(page, i), score=scores[i])}))
            append(body, ranking)
        return h("section", {"class": "panel sy-end", "id": "sy-end", "role": "region",
                             "aria-labelledby": "sy-end-title"},
                 h("h2", {"id": "sy-end-title", "text": t("play.over")}), body,
                 h("div", {"class": "row"},
                   h("a", {"class": "button primary", "href": "#/scarabya/new", "id": "sy-again",
                           "text": t("play.again")}),
                   h("a", {"class": "button", "href": "#/", "text": t("nav.back")})))

    # --- Ruins -----------------------------------------------------------------------------------
    def render_ruins(self, page: Any, state: RuinsState) -> Any:
        t = page.t
        v = state.view()
        active_seat = self.active_seat(page)
        hand = v["hands"][v["to_move"]] if v["to_move"] is not None else []
        placements = state.placements() if active_seat is not None else []
        legal: dict[tuple[str, int], str] = {}
        for name, k, anchor, mask in placements:
            legal[(name, mask)] = f"{name}{k}@{BOARD.name(anchor)}"
        playable = [n for n in hand if any(key[0] == n for key in legal)]
        piece = page.selection.get("piece")
        if piece not in playable:
            piece = playable[0] if playable else None
            page.selection["piece"] = piece
            page.selection["k"] = 0
        zones: dict[int, dict[str, Any]] = {}
        for ruin in v["ruins"]:
            for s in ruin["squares"]:
                zones[BOARD.parse_square(s)] = ruin

        def describe(text: str) -> tuple[str, str]:
            found = solver.ruins_explain(state, state.parse_move(text), 1)
            parts = []
            move = state.parse_move(text)
            mask = PIECES[move.piece].mask_at(BOARD, move.orientation, move.anchor) or 0
            seat = state.to_move()
            for ruin in v["ruins"]:
                zm = 0
                for s in ruin["squares"]:
                    zm |= 1 << BOARD.parse_square(s)
                if not mask & zm:
                    continue
                others = [q for q in ruin["covered_by"] if q != seat]
                mine = ((state.occupied[seat] | mask) & zm).bit_count()
                if others:
                    parts.append(t("scarabya.ruins.spoils", zone=ruin["zone"]))
                elif mine == 4:
                    parts.append(t("scarabya.ruins.completes", zone=ruin["zone"], points=ruin["value"]))
                else:
                    parts.append(t("scarabya.ruins.claims", zone=ruin["zone"], n=mine))
            return f"+{found['points']}", "; ".join(parts)

        label = t("scarabya.ruins.board")
        board = Board(page, BOARD, label, active_seat is not None, piece, legal, describe, playable)
        scored_now = page.selection.get("ruins_scored")
        fresh_zones = set()
        if scored_now and scored_now.get("n") == len(state.history()):
            fresh_zones = {(e["round"], e["zone"]) for e in scored_now["scored"]}
        for r, row in enumerate(v["rows"]):
            squares = []
            for c, ch in enumerate(row):
                sq = r * 6 + c
                squares.append(ruins_square(t, sq, ch, zones.get(sq),
                                            lambda seat: t("scarabya.sq.piece", name=seat_name(page, seat))))
            board.add_row(r, squares)
        board.bind()
        page.selection["_piece"] = piece

        pieces = None
        if active_seat is not None:
            pieces = h("div", {"class": "sy-pieces", "role": "group", "aria-label": t("scarabya.ruins.hand")})
            for name in hand:
                usable = name in playable
                pic = h("span", {"class": "sy-piece-pic"},
                        shape_drawing(orient(PIECES[name].cells, page.selection.get("k", 0) if name == piece else 0),
                                      f"seat-{active_seat}", name))
                if name == piece:  # turns with the ghost
                    page.selection["_card"] = pic
                    page.selection["_card_css"] = f"seat-{active_seat}"
                append(pieces, h("button", {"type": "button", "class": "sy-piece", "id": f"sy-piece-{name}",
                                            "aria-pressed": "true" if name == piece else "false",
                                            "aria-label": t("scarabya.ruins.piece", piece=name),
                                            "disabled": not usable,
                                            "on_click": lambda _e, n=name: self.pick_piece(page, n)},
                                  pic, scope=page.view_scope))
        turn = None
        if not v["over"]:
            turn = h("p", {"class": "sy-turn", "id": "sy-turn",
                           "text": t("scarabya.ruins.turn", name=seat_name(page, v["to_move"]), round=v["round"],
                                     rounds=v["rounds"])})
        ruins_list = h("ul", {"class": "sy-ruins"})
        for ruin in v["ruins"]:
            holders = ", ".join(seat_name(page, q) for q in ruin["covered_by"]) or t("scarabya.ruins.nobody")
            append(ruins_list, h("li", {"class": f"z{ruin['zone']}"},
                                 h("strong", {"text": t("scarabya.ruins.zone", zone=ruin["zone"],
                                                        symbols=self.symbols_words(page, ruin["symbols"]),
                                                        points=ruin["value"])}),
                                 h("span", {"class": "muted", "text": " — " + holders})))
        scores = h("table", {"class": "scores"})
        for i, score in enumerate(v["scores"]):
            append(scores, h("tr", {"class": "to-move" if v["to_move"] == i else None},
                             h("th", {"scope": "row"}, h("span", {"class": f"seat-dot seat-{i}"}), seat_name(page, i)),
                             h("td", {"text": str(score)})))
        history = h("ul", {"class": "sy-scored"})
        for e in v["scored"]:
            who = seat_name(page, e["seat"]) if e["seat"] is not None else t("scarabya.ruins.nobody")
            append(history, h("li", {"class": "fresh" if (e["round"], e["zone"]) in fresh_zones else None,
                                     "text": t("scarabya.ruins.scored", round=e["round"], zone=e["zone"],
                                               name=who, points=e["points"])}))
        hint_reason = ""
        hint = page.selection.get("hint")
        if active_seat is not None and hint and hint.get("n") == len(state.history()):
            hint_reason = describe(hint["move"])[1] or t("scarabya.ruins.clear")
        head = h("div", {"class": "game-head sy-main"},
                 self.end_screen(page, v) if v["over"] else None,
                 turn, self.said_box(page), page.scoreline(list(v["scores"])), page.message_line())
        board_box = h("div", {"class": "game-board sy-board-box"},
                      None if v["over"] else board.node, board.status if active_seat is not None else None)
        hand = h("div", {"class": "game-hand sy-hand"}, pieces,
                 board.controls(self.hint_button(page, active_seat is not None)),
                 self.hint_box(page, hint_reason) if active_seat is not None else None)
        more = page.drawer(
                 h("section", {"class": "panel"}, h("h2", {"text": t("scarabya.ruins.tiles")}), ruins_list)
                 if v["ruins"] else None,
                 h("section", {"class": "panel"}, h("h2", {"text": t("play.score")}), scores),
                 h("section", {"class": "panel"}, h("h2", {"text": t("scarabya.ruins.history")}), history)
                 if v["scored"] else None,
                 page.toolbar())
        return h("section", {"class": "sy-game sy-ruins-game game-layout", "data-variant": "ruins",
                             **self.marks(state, v)}, self.title(page), head, board_box, hand, more)

    def title(self, page: Any) -> Any:
        """The page's level-one heading, for screen readers (the board is the visible title)."""
        return h("h1", {"class": "visually-hidden", "id": "sy-title", "text": page.t("game.scarabya.name")})

    def marks(self, state: Any, v: dict[str, Any]) -> dict[str, str]:
        """Where the game stands, as data attributes (for tests and styles)."""
        return {"data-round": str(v["round"]), "data-over": "1" if v["over"] else "0",
                "data-moves": str(len(state.history())),
                "data-to-move": "" if v["to_move"] is None else str(v["to_move"])}

    def pick_piece(self, page: Any, name: str) -> None:
        page.selection["piece"] = name
        page.selection["k"] = 0
        page.redraw()

    def symbols_words(self, page: Any, symbols: str) -> str:
        return ", ".join(page.t(f"scarabya.ruins.sym.{c}") for c in symbols)

    # ------------------------------------------------------------------ resume snapshot
    def snapshot(self, page: Any) -> dict[str, Any]:
        """The scores and (classic) the site of the seat to move, as plain data for boot.js."""
        from web.snapshot import el

        t = page.t
        state = page.session.state
        v = state.view()
        if isinstance(state, RuinsState):
            return {"page_class": "scarabya-snap", "scores": list(v["scores"])}
        seats = page.session.seats
        humans = [i for i in range(v["players"]) if not seats[i].computer]
        site = v["to_move"] if v["to_move"] is not None and v["to_move"] in humans else (humans[0] if humans else 0)
        sdata = v["sites"][site]
        closed = {SITE.parse_square(s) for a in sdata["areas"] for s in a["squares"]}
        tile_round = {SITE.parse_square(s): tl["round"] for tl in sdata["tiles"] for s in tl["squares"]}
        last_round = max(tile_round.values(), default=0)
        rows = [el("div", "sy-row sy-head", None, el("span", "sy-lbl"),
                   *[el("span", "sy-lbl", chr(65 + c)) for c in range(SITE.width)])]
        for r, row in enumerate(sdata["rows"]):
            cells = []
            for c, ch in enumerate(row):
                sq = r * SITE.width + c
                css, text, _name = site_square(t, ch, "closed" if sq in closed else "",
                                               latest=tile_round.get(sq) == last_round)
                cells.append(el("div", f"sq {css}".strip(), None, el("span", "sq-in", text) if text else None))
            rows.append(el("div", "sy-row", None, el("span", "sy-lbl", r + 1), *cells))
        label = t("scarabya.site.of", name=seat_name(page, site))
        board = el("div", "game-board sy-board-box", None,
                   el("div", "sy-site-head", None, el("h2", None, label),
                      el("span", "sy-site-score", t("scarabya.site.score", score=sdata["score"],
                                                    found=sdata["symbols_scored"]))),
                   el("div", "sy-board", None, *rows, role="img", aria_label=label, __n=SITE.width))
        return {"page_class": "scarabya-snap", "scores": [s["score"] for s in v["sites"]], "board": board}


UI = ScarabyaUI()


def site_square(t: Any, ch: str, css: str, latest: bool = False) -> tuple[str, str, str]:
    """(classes, text, accessible name) of one square of a classic site, from its view code:
    ``.`` open, ``R`` rock, ``S`` scarab symbol, a digit for a scored token, a letter for a tile."""
    if ch == ".":
        return css + " open", "", t("scarabya.sq.open")
    if ch == "R":
        return css + " rock", "", t("scarabya.sq.rock")
    if ch == "S":
        return css + " sym", "", t("scarabya.sq.scarab")
    if ch.isdigit():
        return css + f" token v{ch}", ch, t("scarabya.sq.scored", points=int(ch))
    return css + f" tile t-{ch}" + (" latest" if latest else ""), "", t("scarabya.sq.tile", tile=ch)


def ruins_square(t: Any, sq: int, ch: str, ruin: dict[str, Any] | None,
                 piece: Callable[[int], str]) -> tuple[str, str, str]:
    """(classes, text, accessible name) of one square of the Ruins board: its zone (the zone's first
    square shows the zone and its symbols) and what covers it: ``.`` nothing, a digit a seat's piece
    (named by ``piece(seat)``)."""
    css, text, desc = "", "", []
    if ruin is not None:
        css += f" zone z{ruin['zone']}"
        if BOARD.name(sq) == ruin["squares"][0]:
            css += " zone-head"
            text = f"{ruin['zone']}·" + "".join(t(f"scarabya.ruins.abbr.{c}") for c in ruin["symbols"])
            desc.append(text)  # the name begins with what the square shows (WCAG 2.5.3)
        desc.append(t("scarabya.ruins.zone", zone=ruin["zone"],
                      symbols=", ".join(t(f"scarabya.ruins.sym.{c}") for c in ruin["symbols"]),
                      points=ruin["value"]))
    if ch == ".":
        css += " open"
        desc.append(t("scarabya.sq.empty"))
    else:
        seat = int(ch) - 1
        css += f" piece seat-{seat}"
        desc.append(piece(seat))
    return css.strip(), text, ", ".join(desc)
