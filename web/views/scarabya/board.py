"""One drawn board (a classic site or the Ruins board): its squares from the engine's view rows, and —
when a person places on it — the ghost's geometry and its drawing (fits and what it scores, or not).
The inputs that move the ghost are ``input.py``'s."""

from __future__ import annotations

from typing import Any, Callable

from game.scarabya.grid import SITE, Grid
from game.scarabya.ruins import BOARD
from web.dom import append, h

from .context import Card, Cells, Page, Placing, Square
from .piece import handle_of, piece_cells


class Board:
    """One drawn board: its squares, and — when a person places on it — the ghost.

    ``legal`` maps (piece, mask) to the engine's move text; ``describe(move_text)`` returns
    (badge, sentence) for a fitting ghost. Without a piece the board is still (the rules page's
    diagrams, another player's site, the end screen).
    """

    def __init__(self, page: Page | None, grid: Grid, label: str, active: bool = False, piece: str | None = None,
                 legal: dict[tuple[str, int], str] | None = None,
                 describe: Callable[[str], tuple[str, str]] | None = None,
                 pieces: list[str] | None = None) -> None:
        self.page = page
        self.grid = grid
        self.placing: Placing | None = None
        if active and piece is not None:
            self.placing = Placing(piece, legal or {}, describe or (lambda _text: ("", "")), list(pieces or []))
        self.active = self.placing is not None
        self.piece = piece if self.active else None
        self.card: Card | None = None  # the held piece's picture, turned with the ghost
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

    @property
    def ruins(self) -> bool:
        return self.grid is not SITE

    @property
    def pieces(self) -> list[str]:
        return self.placing.pieces if self.placing else []

    # squares --------------------------------------------------------------------------------
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

    # the ghost's geometry ---------------------------------------------------------------------
    def sel(self, key: str, default: Any) -> Any:
        assert self.page is not None
        return self.page.selection.get(key, default)

    def cells_now(self) -> Cells:
        assert self.piece is not None
        return piece_cells(self.piece, self.sel("k", 0), self.ruins)

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

    def handle(self) -> int | None:
        """The square the pointer holds the ghost by."""
        a = self.anchor()
        if a is None:
            return None
        hx, hy = handle_of(self.cells_now())
        return (a[1] + hy) * self.grid.width + a[0] + hx

    def hold_at(self, sq: int) -> None:
        assert self.page is not None
        hx, hy = handle_of(self.cells_now())
        self.page.selection["anchor"] = self.clamp(sq % self.grid.width - hx, sq // self.grid.width - hy)

    def move_text(self) -> str | None:
        a = self.anchor()
        if a is None or self.piece is None:
            return None
        return f"{self.piece}{self.sel('k', 0)}@{self.grid.name(a[1] * self.grid.width + a[0])}"

    def fitting_text(self) -> str | None:
        if self.placing is None:
            return None
        mask = 0
        for sq in self.squares():
            mask |= 1 << sq
        return self.placing.legal.get((self.piece or "", mask))

    # the ghost's drawing ----------------------------------------------------------------------
    def show(self) -> None:
        """Draw the ghost where it is now: fits (and what it scores) or not (and why)."""
        assert self.page is not None and self.placing is not None
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
            badge, sentence = self.placing.describe(fits)
            summary = t("scarabya.ghost.fits", move=fits, badge=badge)
            status = f"{summary} — {sentence}" if sentence else summary
        else:
            badge = "✗"
            summary = t("scarabya.ghost.nofit", move=text or "")
            status = summary
        handle = self.handle()
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


def site_square(t: Any, ch: str, css: str, latest: bool = False) -> Square:
    """(classes, text, accessible name) of one square of a classic site, from its view code:
    ``.`` open, ``R`` rock, ``S`` scarab symbol, a digit for a scored token, a letter for a tile."""
    if ch == ".":
        return Square(css + " open", "", t("scarabya.sq.open"))
    if ch == "R":
        return Square(css + " rock", "", t("scarabya.sq.rock"))
    if ch == "S":
        return Square(css + " sym", "", t("scarabya.sq.scarab"))
    if ch.isdigit():
        return Square(css + f" token v{ch}", ch, t("scarabya.sq.scored", points=int(ch)))
    return Square(css + f" tile t-{ch}" + (" latest" if latest else ""), "", t("scarabya.sq.tile", tile=ch))


def ruins_square(t: Any, sq: int, ch: str, ruin: dict[str, Any] | None,
                 piece: Callable[[int], str]) -> Square:
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
    return Square(css.strip(), text, ", ".join(desc))
