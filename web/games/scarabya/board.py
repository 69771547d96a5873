"""One drawn board (a classic site or the Ruins board): its squares from the engine's view rows, and —
when a person places on it — the ghost's geometry and its drawing (fits and what it scores, or not).
The inputs that move the ghost are ``input.py``'s."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from game.scarabya.grid import SITE, Grid
from game.scarabya.ruins import BOARD, PIECES
from game.scarabya.sets import TILES
from web.ui.dom import append, h

from .context import Card, Cells, Page, Placing, Square, why_not
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
                 pieces: list[str] | None = None, spots: dict[str, tuple[int, int]] | None = None) -> None:
        self.page = page
        self.grid = grid
        self.placing: Placing | None = None
        if active and piece is not None:
            self.placing = Placing(piece, legal or {}, describe or (lambda _text: ("", "")), list(pieces or []),
                                   dict(spots or {}))
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
    def add_row(self, r: int, squares: Sequence[tuple[str, str, str]]) -> None:
        """squares: (css classes, visible text, accessible description) for each column."""
        row = h("div", {"class": "sy-row", "role": "row"},
                h("span", {"class": "sy-lbl", "aria-hidden": "true", "text": str(r + 1)}))
        for c, (css, text, desc) in enumerate(squares):
            sq = r * self.grid.width + c
            name = self.grid.name(sq)
            label = f"{name}, {desc}"
            cell = h("div", {"class": f"sq {css}", "role": "gridcell", "id": f"sq-{name}",
                             "data-sq": str(sq), "aria-label": label},
                     # the title explains a short label ("1·PSS") to whoever points at it
                     h("span", {"class": "sq-in", "text": text, "title": desc}) if text else None)
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

    def shown_text(self) -> str | None:
        """The ghost's placement as the page writes it: one notation for one placement, the shape's
        canonical orientation (a symmetric piece turned to look the same is U3@B8, never U7@B8), as
        the engine's moves and the fitting placements are written."""
        text = self.move_text()
        shape = (TILES.get(self.piece) or PIECES.get(self.piece)) if self.piece else None
        if text is None or shape is None:
            return text
        k = int(self.sel("k", 0))
        return f"{self.piece}{shape.canonical[k]}@{text.split('@')[1]}"

    def fitting_text(self) -> str | None:
        if self.placing is None:
            return None
        mask = 0
        for sq in self.squares():
            mask |= 1 << sq
        return self.placing.legal.get((self.piece or "", mask))

    def first_fit(self) -> tuple[int, int, int] | None:
        """Where the ghost starts: the first legal placement of the piece in reading order of its anchor
        (the top-left square of its box), in the orientation it lies in if it fits so anywhere, else in
        any; (k, col, row), or None when it fits nowhere."""
        if self.placing is None:
            return None
        spots = [self.placing.spots[text] for (piece, _mask), text in self.placing.legal.items()
                 if piece == self.piece and text in self.placing.spots]
        k = self.sel("k", 0)
        same = [s for s in spots if s[0] == k]
        pick = min(same or spots, key=lambda s: (s[1], s[0]), default=None)
        if pick is None:
            return None
        return pick[0], pick[1] % self.grid.width, pick[1] // self.grid.width

    def start_ghost(self) -> None:
        """Put a new ghost (a new turn, or another piece picked that does not fit where the ghost was)
        on its first legal placement, never on top of placed tiles while it fits somewhere."""
        assert self.page is not None
        selection = self.page.selection
        fresh = selection.get("anchor") is None
        if not fresh and (selection.get("_ghost_piece") == self.piece or self.fitting_text() is not None):
            selection["_ghost_piece"] = self.piece
            return
        selection["_ghost_piece"] = self.piece
        fit = self.first_fit()
        if fit is None:
            if fresh:  # near the centre of the board
                selection["anchor"] = self.clamp(self.grid.width // 2 - 2, self.grid.height // 2 - 2)
            return
        selection["k"], col, row = fit
        selection["anchor"] = (col, row)

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
            shown = self.shown_text()
            summary = t("scarabya.ghost.nofit", move=shown or "")
            # the engine's reason, in words: where it overlaps, the rock, the edge it must share
            reason = why_not(self.page, shown) if shown and self.page is not None else ""
            status = f"{summary} — {reason}" if reason else summary
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
        return Square(css + f" token v{ch}", ch, t.plural("scarabya.sq.scored", int(ch)))
    return Square(css + f" tile t-{ch}" + (" latest" if latest else ""), "", t("scarabya.sq.tile", tile=ch))


def zone_label(t: Any, ruin: dict[str, Any]) -> str:
    """What a zone's first square shows: its number and its symbols' initials ("1·PSS"), explained by
    the square's title and the zones panel ("Zone 1: pot, scarab, scarab = 3")."""
    return f"{ruin['zone']}·" + "".join(t(f"scarabya.ruins.abbr.{c}") for c in ruin["symbols"])


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
            text = zone_label(t, ruin)
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


def fill_site(board: Board, t: Any, sdata: dict[str, Any], fresh: set[int] | frozenset[int] = frozenset(), *,
              latest: set[int] | frozenset[int] = frozenset(), last: frozenset[int] = frozenset(),
              marked: set[int] | frozenset[int] = frozenset()) -> None:
    """Fill ``board`` with a classic site's squares from the engine's view of it: its closed areas,
    the areas just closed (``fresh``), the latest tile, the game's last placement (outlined and named)
    and ``marked`` squares (a diagram's ghost) — for the game page and the rules page alike."""
    closed = {SITE.parse_square(s) for a in sdata["areas"] for s in a["squares"]}
    for r, row in enumerate(sdata["rows"]):
        squares = []
        for c, ch in enumerate(row):
            sq = r * SITE.width + c
            css = "closed" if sq in closed else ""
            if sq in fresh:
                css += " fresh"
            if sq in marked:
                css += " ghost ok"
            square = site_square(t, ch, css, latest=sq in latest)
            squares.append(with_last(square, t) if sq in last else square)
        board.add_row(r, squares)


def with_last(square: Square, t: Any) -> Square:
    """The square as part of the game's last placement: outlined, and said so in its name."""
    return Square(square.css + " last", square.text, f"{square.desc}, {t('scarabya.sq.last')}")


def still(board: Board) -> Any:
    """A board drawn for looking only: no ids on it or its squares (another board with ids may be on
    the page), read-only for screen readers."""
    board.node.removeAttribute("id")
    board.node.setAttribute("aria-readonly", "true")
    for cell in board.cells.values():
        cell.removeAttribute("id")
    return board.node


def mini_site(t: Any, sdata: dict[str, Any], last: frozenset[int]) -> Any:
    """A small picture of a classic site (decorative: its button says what it shows), the squares of
    ``last`` outlined."""
    pic = h("div", {"class": "sy-mini", "aria-hidden": "true", "style": f"--n: {SITE.width}"})
    for r, row in enumerate(sdata["rows"]):
        for c, ch in enumerate(row):
            sq = r * SITE.width + c
            css = site_square(t, ch, "").css + (" last" if sq in last else "")
            append(pic, h("span", {"class": f"sq {css}"}))
    return pic


def ruins_still(t: Any, rows: list[str], ruins: list[dict[str, Any]], last: frozenset[int], label: str,
                piece: Callable[[int], str]) -> Any:
    """A still Ruins board from view rows and zones (the final board of a round), ``last`` outlined."""
    zones = {BOARD.parse_square(s): ruin for ruin in ruins for s in ruin["squares"]}
    board = Board(None, BOARD, label)
    for r, row in enumerate(rows):
        squares = []
        for c, ch in enumerate(row):
            sq = r * BOARD.width + c
            square = ruins_square(t, sq, ch, zones.get(sq), piece)
            squares.append(with_last(square, t) if sq in last else square)
        board.add_row(r, squares)
    return still(board)
