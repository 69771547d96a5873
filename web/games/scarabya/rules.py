"""How to play Scarabya: the rules for players, in the catalogue's languages, with live diagrams.

The diagrams are real engine states (a seeded game played a few moves, a Ruins position) drawn by the
game page's own ``Board`` and ``shape_drawing`` (``web/games/scarabya/``). The page's classic
renderer builds its squares inline in ``render_classic`` (it needs a live session), so ``site_board``
below repeats only its small square-to-style mapping over the engine's ``view()`` rows.
"""

from __future__ import annotations

from typing import Any

from game.scarabya.grid import SITE, Grid
from game.scarabya.ruins import BOARD, RuinsState
from game.scarabya.sets import TILES
from game.scarabya.shapes import orient
from game.scarabya.state import ScarabyaState
from web.games.scarabya.board import Board, fill_site, ruins_square
from web.games.scarabya.piece import shape_drawing
from web.ui.dom import append, h

#: The diagrams' games (the same deal as the guided first game, so the pictures look familiar).
DIAGRAM_SEED = 86
AREA_MOVES = ("Z0@C4", "V0@A4", "U1@B1")  # the U closes A1–A3 (3 squares, scarab A3) and C2
RUINS_POSITION = "ruins 2 7F2CE3806DB1594A 6175169865931546 4T1@A2,4T0@C4,3L3@E2,3L2@C2,3I1@A4 5"
CENTRE = ("E5", "F5", "E6", "F6")


def diagram_board(grid: Grid, label: str, board_id: str) -> Board:
    """A still board (no ghost, no inputs) with ids of its own, so several fit on one page."""
    board = Board(None, grid, label, False, None, {}, lambda _text: ("", ""))
    board.node.setAttribute("id", board_id)
    board.node.setAttribute("aria-readonly", "true")
    return board


def site_board(t: Any, state: ScarabyaState, label: str, board_id: str,
               fresh_round: int | None = None, mark: tuple[str, ...] = ()) -> Any:
    """A classic site from the engine's view, styled like the game page draws it."""
    v = state.view()
    site = v["sites"][0]
    fresh = {SITE.parse_square(s) for a in site["areas"] if a["round"] == fresh_round for s in a["squares"]}
    board = diagram_board(SITE, label, board_id)
    fill_site(board, t, site, fresh, marked={SITE.parse_square(s) for s in mark})
    for cell in board.cells.values():
        cell.removeAttribute("id")
    return board.node


def ruins_board(t: Any, state: RuinsState, board_id: str) -> Any:
    v = state.view()
    zones: dict[int, dict[str, Any]] = {}
    for ruin in v["ruins"]:
        for s in ruin["squares"]:
            zones[BOARD.parse_square(s)] = ruin
    board = diagram_board(BOARD, t("scarabya.rules.fig.ruins.label"), board_id)
    for r, row in enumerate(v["rows"]):
        squares = []
        for c, ch in enumerate(row):
            sq = r * 6 + c
            squares.append(ruins_square(t, sq, ch, zones.get(sq),
                                        lambda seat: t("scarabya.rules.fig.ruins.player", n=seat + 1)))
        board.add_row(r, squares)
    for cell in board.cells.values():
        cell.removeAttribute("id")
    return board.node


def figure(board: Any, caption: str, fig_id: str, width: str = "360px") -> Any:
    board.setAttribute("aria-describedby", f"{fig_id}-caption")
    # .sy-game carries the board's colours (sand, rocks, scarabs) in the page's stylesheet
    return h("figure", {"class": "sy-rules-fig sy-game", "id": fig_id, "style": f"max-width: {width}"},
             board, h("figcaption", {"id": f"{fig_id}-caption", "text": caption}))


def section(t: Any, key: str, *children: Any, paragraphs: int = 0, items: int = 0) -> Any:
    """A rules section: heading ``…key``, paragraphs ``…key.p1…``, a list ``…key.i1…``."""
    box = h("section", {"class": "rules-section", "id": f"sy-rules-{key}", "aria-labelledby": f"sy-rules-{key}-h"},
            h("h2", {"id": f"sy-rules-{key}-h", "text": t(f"scarabya.rules.{key}")}))
    for i in range(1, paragraphs + 1):
        append(box, h("p", {"text": t(f"scarabya.rules.{key}.p{i}")}))
    if items:
        lst = h("ul", {})
        for i in range(1, items + 1):
            append(lst, h("li", {"text": t(f"scarabya.rules.{key}.i{i}")}))
        append(box, lst)
    append(box, *children)
    return box


def tiles_figure(t: Any) -> Any:
    row = h("div", {"class": "sy-rules-tiles", "role": "list", "aria-label": t("scarabya.rules.fig.tiles"),
                    "style": "display: flex; flex-wrap: wrap; gap: 14px; align-items: end"})
    for name in sorted(TILES):
        append(row, h("div", {"role": "listitem", "style": "text-align: center"},
                      shape_drawing(orient(TILES[name].cells, 0), "sy-card-shape",
                                    t("scarabya.card.shape", tile=name)),
                      h("div", {"aria-hidden": "true", "text": name})))
    return h("figure", {"class": "sy-rules-fig", "id": "sy-fig-tiles"}, row,
             h("figcaption", {"text": t("scarabya.rules.fig.tiles")}))


def render(app: Any) -> Any:
    t = app.t
    start = ScarabyaState.new(players=1, seed=DIAGRAM_SEED)
    site_fig = figure(site_board(t, start, t("scarabya.rules.fig.site.label"), "sy-fig-site-board",
                                 mark=CENTRE),
                      t("scarabya.rules.fig.site"), "sy-fig-site")
    closed = ScarabyaState.new(players=1, seed=DIAGRAM_SEED)
    for move in AREA_MOVES:
        closed.push_text(move)
    area_fig = figure(site_board(t, closed, t("scarabya.rules.fig.area.label"), "sy-fig-area-board",
                                 fresh_round=len(AREA_MOVES)),
                      t("scarabya.rules.fig.area"), "sy-fig-area")
    ruins = RuinsState.from_position(RUINS_POSITION)
    ruins_fig = figure(ruins_board(t, ruins, "sy-fig-ruins-board"), t("scarabya.rules.fig.ruins"),
                       "sy-fig-ruins", width="300px")
    decisions = section(t, "decisions", items=9)
    decisions.classList.add("decision")
    return h("div", {"class": "sy-rules"},
             h("p", {"class": "lead", "text": t("scarabya.rules.intro")}),
             section(t, "aim", paragraphs=2),
             section(t, "setup", site_fig, paragraphs=2),
             section(t, "turn", tiles_figure(t), paragraphs=1, items=5),
             section(t, "scoring", area_fig, paragraphs=2, items=3),
             section(t, "end", paragraphs=1),
             section(t, "solo", paragraphs=2),
             section(t, "ruins", ruins_fig, paragraphs=1, items=5),
             decisions,
             section(t, "advice", paragraphs=1, items=4))
