"""Issue 38, step 1: how long does the main thread take to draw a whole game page from ops, and one
typical update, with ``web/shell/patch.js``? (docs/worker.md section 4, the first risk.)

In CPython this builds a Scarabeo game page with ``web.ui.vdom.h`` as the views build it (the 17×17
grid with the real premium squares, each square as docs/worker.md's ``make_cell``, the tiles of a real
seeded game played by ``game.scarabeo.randomplay``; the rack, the preview slot, the action row, the
score line, the score sheet, the bag, the toolbar, the legend), diffs it with ``Tree.update`` into the
first patch (one ``+`` op) and into updates (a 5-tile play laid on the board, then taken back), and times
the Python side. Two positions: ``scarabeo`` (the game played until 40 or more tiles are down) and
``late`` (30 moves: about 100 tiles and 30 rows in the score sheet).

Then, in headless Debian Chromium (every non-local request aborted, as tools/probe_worker.py does; its
server, serve.py's, serves a copy of ``dist/``'s index.html and web/), a fresh context per run at a
390×844 viewport opens a page with the site's CSP and stylesheets, ``patch.js`` and index.html's body
without its scripts (the top bar, the boot line, the chooser in ``#app``; ``--host empty``: an empty
``<main id="app">`` alone), mounts ``#app`` as node 1 (which empties it) and times
``scarabPatch.apply(text)`` of the first patch (JSON.parse included), the same plus a forced layout
(``document.body.offsetHeight``), and until the next frame (a ``requestAnimationFrame`` then a
``setTimeout(0)``); then the updates the same way, and
the page removed and drawn whole again (new elements, on a page whose styles and fonts are in use). In
another fresh context, the same first draw split in steps (``--split ROWS``): the page without the
board's squares, then ROWS rows of squares a patch, each applied after a frame. Each at every CPU
throttling rate (CDP ``Emulation.setCPUThrottlingRate``, sent after the page loaded), with the longest
task seen by a ``longtask`` observer (tools/probe_worker/heartbeat.js) and a fixed JS loop timed first
(the throttle's check).

``--pyodide``: the Python side in Pyodide in a worker instead of the page's draw — what the worker pays
per keystroke or tap. tools/probe_worker.py's site (a copy of ``dist/``) and server; in a fresh context per
run, a page with no script of its own (``probe/worker_page.html``) starts ``probe/worker.js`` (the vendored
Pyodide, the site's app.zip, the engines), then sends it this file's source, which becomes a module there
(the page builder; the browser side's imports are left out in Pyodide), and times there what CPython times
here: ``python_times`` (build, ``Tree.update``, encode of the first render and of the 5-tile update, medians
of ``--repeat``) for each position, with a fixed Python loop before (the throttle's check in the worker;
the page's fixed JS loop is the main thread's). The page built there is checked to be CPython's (elements,
first patch's bytes).

    .venv/bin/python tools/bench_patch.py --runs 5 [--rates 1,4] [--updates 3] [--split 6] [--json FILE]
        [--cases scarabeo,late] [--no-browser] [--pyodide]

Prints the load average before and after, the Chromium version, one line per run, the patch sizes
and node counts, and Markdown tables (the Python side's, the page's, the split first draw's; with
``--pyodide``, CPython's beside the worker's).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import itertools
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

if sys.platform != "emscripten":  # the browser side; in Pyodide (--pyodide's worker) the page builder alone
    import shlex

    import serve
    from tools import probe_worker as probe

from game.core import Rng  # noqa: E402
from game.scarabeo import table as sheet_rules  # noqa: E402
from game.scarabeo.board import (CENTRE, COLUMNS, LAYOUT, PREMIUM_NAMES, PREMIUMS, SIZE, SQUARES,  # noqa: E402
                                 square_name)
from game.scarabeo.game import ScarabeoState  # noqa: E402
from game.scarabeo.moves import Play  # noqa: E402
from game.scarabeo.randomplay import random_move, random_placement_play  # noqa: E402
from game.scarabeo.tiles import LETTERS, SCARAB, VALUES, sort_rack  # noqa: E402
from web.platform import events  # noqa: E402
from web.platform.i18n import Messages, load_catalogue, signed  # noqa: E402
from web.ui.vdom import Ids, Tree, VNode, encode, h, svg  # noqa: E402

VIEWPORT = {"width": 390, "height": 844}
#: The positions measured: name → (tiles on the board at least, moves at least), played from the seed.
CASES = {"scarabeo": (40, 0), "late": (0, 30)}
NAMES = ("Ada", "Computer (expert)")
#: The pages in the browser, beside index.html: its CSP and stylesheets and patch.js, with index.html's
#: body as it is before Python (the top bar, the boot line, the chooser in #app, laid out at load; the
#: mount empties #app) or with an empty #app alone.
HOSTS = {"site": "bench-site.html", "empty": "bench-empty.html"}


def noop(_event: Any) -> None:
    """Every handler of the bench page: the patch carries its id, the page never calls back."""


# --- the page, as the views build it -----------------------------------------------------------
@dataclass
class Position:
    """A game to draw: its state, the last play's squares, and a play of ``placed`` tiles to lay."""

    state: ScarabeoState
    last: frozenset[int]
    placed: dict[int, str]
    preview: str


@dataclass
class ScarabeoPage:
    """One Scarabeo game page. The squares and the score sheet's rows are kept between renders, as
    ``web/games/scarabeo/board.py`` and ``panels.py`` keep them, so the differ skips the unchanged."""

    pos: Position
    t: Messages
    cells: dict[int, tuple[tuple[tuple[str, str, str, str], bool], VNode]] = field(default_factory=dict)
    rows: dict[tuple[Any, ...], VNode] = field(default_factory=dict)

    def render(self, placing: bool = False, rows: int = SIZE) -> VNode:
        """The page at rest (``placing`` False) or with the tentative play laid on the board; ``rows``:
        how many of the board's rows of squares it has (fewer: a first draw split in steps)."""
        t, state = self.t, self.pos.state
        placed = self.pos.placed if placing else {}
        line = h("div", {"class": "game-head sc-top"},
                 h("p", {"id": "sc-status", "class": "sc-status", "text": t.form("play.turn", you=True)}),
                 scoreline(t, state), h("div", {"class": "message-line"}))
        wrap = h("div", {"class": "sc-board-wrap sc-live game-board", "id": "sc-board-wrap"}, self.grid(placed, rows))
        hand = h("div", {"class": "game-hand sc-hand"}, rack(t, state, placed),
                 h("div", {"class": "sc-slot", "id": "sc-slot"}, preview(self.pos.preview if placed else None)),
                 actions(t, bool(placed)))
        drawer = h("div", {"class": "drawer-wrap"},
                   h("button", {"type": "button", "class": "drawer-button", "id": "drawer-button",
                                "aria-expanded": "false", "aria-controls": "game-drawer", "text": t("play.more"),
                                "on_click": noop}),
                   h("div", {"class": "game-drawer", "id": "game-drawer"},
                     scores(t, state), self.sheet(), bag(t, state), toolbar(t), legend(t)))
        return h("section", {"class": "sc-page", "aria-labelledby": "sc-title"},
                 h("h1", {"id": "sc-title", "class": "visually-hidden", "text": t("game.scarabeo.name")}),
                 h("div", {"class": "game-layout"}, line, wrap, hand, drawer))

    def grid(self, placed: Mapping[int, str], rows: int = SIZE) -> VNode:
        t, board = self.t, self.pos.state.board
        squares = [sq for sq in placed]
        cursor = (max(squares) + 1 if squares else CENTRE) % SQUARES
        formed = frozenset(squares)
        grid = h("div", {"role": "grid", "id": "sc-board", "class": "sc-board", "aria-label": t("scarabeo.board"),
                         "aria-describedby": "sc-board-help", "aria-rowcount": SIZE, "aria-colcount": SIZE,
                         "on_click": noop, "on_keydown": noop,
                         "prevent": {"keydown": ("ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", " ")}})
        grid.append(h("div", {"class": "sc-row sc-head", "aria-hidden": "true"}, h("span", {}),
                      [h("span", {"text": ch}) for ch in COLUMNS]))
        for r in range(rows):
            row = h("div", {"role": "row", "class": "sc-row"},
                    h("span", {"class": "sc-rownum", "aria-hidden": "true", "text": r + 1}))
            for sq in range(r * SIZE, (r + 1) * SIZE):
                spec = cell_spec(t, board, sq, placed, self.pos.last, formed)
                kept = self.cells.get(sq)
                if kept is None or kept[0] != (spec, sq == cursor):
                    kept = self.cells[sq] = ((spec, sq == cursor), make_cell(sq, spec, cursor))
                row.append(kept[1])
            grid.append(row)
        return grid

    def sheet(self) -> VNode:
        t, state = self.t, self.pos.state
        body = h("tbody", {})
        results = state.results()
        for n, r in enumerate(sheet_rules.sheet(state)):
            said = events.scarabeo_event(t, results[r["index"]], NAMES, 0).text
            key = (n + 1, NAMES[r["seat"]], said, r["move"], signed(r["score"] or 0),
                   signed(r["total"] or 0, plus=False))
            row = self.rows.get(key)
            if row is None:
                bd = results[r["index"]].breakdown
                words = [h("button", {"type": "button", "class": "sc-word-link", "text": w.word, "data-word": w.word,
                                      "data-start": w.start, "data-across": "1" if w.across else "",
                                      "aria-label": t("wordpanel.open.word", word=w.word)})
                         for w in (bd.words if bd is not None else ())]
                row = self.rows[key] = h(
                    "tr", {}, h("td", {"text": key[0]}), h("td", {"text": key[1]}),
                    h("td", {}, said, " ", h("span", {"class": "mono sc-sheet-notation", "text": key[3]}),
                      h("span", {"class": "sc-word-links"}, words) if words else None),
                    h("td", {"class": "num", "text": key[4]}), h("td", {"class": "num", "text": key[5]}))
            body.append(row)
        head = h("tr", {}, [h("th", {"text": t(k) if "." in k else k}) for k in
                            ("#", "scarabeo.sheet.player", "scarabeo.sheet.move", "+", "scarabeo.sheet.total")])
        return h("section", {"class": "panel", "aria-labelledby": "sc-sheet-title"},
                 h("h2", {"id": "sc-sheet-title", "text": t("play.log")}),
                 h("div", {"class": "sc-sheet-wrap", "id": "sc-sheet-wrap", "tabindex": 0, "role": "group",
                           "aria-label": t("play.log"), "data-move-list": "", "on_click": noop},
                   h("table", {"class": "sc-sheet", "id": "sc-sheet"}, h("thead", {}, head), body)))


def premium_key(prem: str) -> str:
    return "scarabeo.premium." + PREMIUM_NAMES.get(prem, "centre")


def cell_spec(t: Messages, board: list[str], sq: int, placed: Mapping[int, str], last: frozenset[int],
              formed: frozenset[int]) -> tuple[str, str, str, str]:
    """(class, aria-label, big text, small text) of a square, as web/games/scarabeo/board.py's."""
    prem = LAYOUT[sq // SIZE][sq % SIZE]
    cls = "sc-sq" + (f" p-{prem}" if prem != "." else "")
    label = [square_name(sq)] + ([t(premium_key(prem))] if prem != "." else [])
    tile = placed.get(sq) or board[sq]
    if not tile:
        small = "\u2605" if prem == "*" else PREMIUMS[sq]
        return cls, ", ".join(label + [t("scarabeo.sq.empty")]), "", small
    letter, scarab = tile.upper(), tile.islower()
    cls += " tile" + (" scarab" if scarab else "") + (" placed" if sq in placed else " last" if sq in last else "")
    cls += " formed" if sq in formed else ""
    label.append(t("scarabeo.sq.scarab", letter=letter) if scarab
                 else t.plural("scarabeo.tile", VALUES[letter], letter=letter))
    if sq in placed:
        label.append(t("scarabeo.sq.placed"))
    return cls, ", ".join(label), letter, "" if scarab else str(VALUES[letter])


def make_cell(sq: int, spec: tuple[str, str, str, str], cursor: int) -> VNode:
    """One square, as docs/worker.md's "Three call sites" writes ``make_cell``."""
    cls, label, big, small = spec

    def span(css: str, text: str) -> VNode:
        return h("span", {"class": css, "text": text, "aria-hidden": "true"})

    return h("div", {"class": cls, "id": f"sq-{square_name(sq)}", "role": "gridcell", "data-sq": sq,
                     "tabindex": 0 if sq == cursor else -1, "aria-label": label},
             [span("l", big), " " if small else None, span("v v2" if len(small) > 1 else "v", small) if small else None]
             if big else span("pl", small) if small else None,
             key=sq)


def scoreline(t: Messages, state: ScarabeoState) -> VNode:
    seats = h("ul", {"class": "scoreline-seats", "aria-label": t("play.scoreline")},
              [h("li", {"class": "to-move" if i == state.to_move() else None},
                 h("span", {"class": "sl-name", "text": NAMES[i]}), " ",
                 h("b", {"class": "sl-score", "text": signed(score, plus=False)}))
               for i, score in enumerate(state.scores)])
    last = state.results()[-1] if state.results() else None
    whole = t("play.last", text=events.scarabeo_event(t, last, NAMES, 0).text) if last else ""
    return h("div", {"class": "scoreline", "id": "scoreline"}, seats,
             h("button", {"type": "button", "class": "sl-last", "id": "sl-last", "text": whole, "title": whole,
                          "aria-controls": "game-drawer", "on_click": noop}))


def rack(t: Messages, state: ScarabeoState, placed: Mapping[int, str]) -> VNode:
    tiles = list(sort_rack(state.racks[state.to_move()]))
    for letter in placed.values():
        tiles.remove(letter if letter.isupper() and letter in tiles else SCARAB)
    buttons = []
    for i, tile in enumerate(tiles):
        scarab = tile == SCARAB
        value = 0 if scarab else VALUES[tile]
        buttons.append(h("button", {"type": "button", "class": "sc-tile" + (" scarab" if scarab else ""),
                                    "id": f"sc-tile-{i}", "data-tile": tile, "aria-pressed": "false",
                                    "aria-label": t("scarabeo.tile.scarab") if scarab
                                    else t.plural("scarabeo.tile", value, letter=tile)},
                         h("span", {"class": "l", "aria-hidden": "true", "text": "\u2605" if scarab else tile}),
                         None if scarab else [" ", h("span", {"class": "v v2" if value >= 10 else "v",
                                                              "aria-hidden": "true", "text": value})]))
    return h("div", {"class": "sc-rack", "id": "sc-rack", "role": "group",
                     "aria-label": t("scarabeo.rack.of", name=NAMES[state.to_move()]),
                     "on_click": noop, "on_pointerdown": noop, "on_pointermove": noop, "on_pointerup": noop}, buttons)


def preview(text: str | None) -> VNode:
    if text is None:
        return h("div", {"class": "sc-preview", "id": "sc-preview"})
    return h("div", {"class": "sc-preview", "id": "sc-preview", "aria-live": "polite"},
             h("p", {"class": "sc-preview-line", "text": text}))


#: The action row: (id, message key, with an icon); every icon is drawn like rack.py's ``icon_svg``.
ACTIONS = (("sc-play", "scarabeo.play", False), ("sc-recall", "scarabeo.recall", True),
           ("sc-shuffle", "scarabeo.shuffle", True), ("sc-dir", "scarabeo.dir.across", True),
           ("sc-pass", "scarabeo.pass", True), ("sc-exchange", "scarabeo.exchange", True),
           ("sc-hint", "hints.button", True), ("sc-takeback", "play.takeback", True),
           ("sc-zoom", "scarabeo.zoom.in", True))
ICON = "M3 7h4l10 10h4M3 17h4L17 7h4M18 4l3 3-3 3M18 14l3 3-3 3"


def actions(t: Messages, placing: bool) -> VNode:
    buttons = []
    for bid, key, icon in ACTIONS:
        off = not placing and bid in ("sc-play", "sc-recall")
        if not icon:
            buttons.append(h("button", {"type": "button", "id": bid, "class": "primary", "text": t(key),
                                        "disabled": off, "on_click": noop}))
            continue
        ico = svg("svg", {"class": "sc-ico", "viewBox": "0 0 24 24", "width": 22, "height": 22, "aria-hidden": "true",
                          "focusable": "false", "fill": "none", "stroke": "currentColor", "stroke-width": 2},
                  svg("path", {"d": ICON}))
        buttons.append(h("button", {"type": "button", "id": bid, "class": "sc-icon-button", "title": t(key),
                                    "disabled": off, "on_click": noop},
                         ico, h("span", {"class": "sc-label", "text": t(key)})))
    return h("div", {"class": "sc-actions row", "id": "sc-actions"}, buttons)


def scores(t: Messages, state: ScarabeoState) -> VNode:
    rows = [h("tr", {"class": "to-move" if i == state.to_move() else ""},
              h("th", {"scope": "row", "text": NAMES[i]}), h("td", {"class": "num", "text": signed(s, plus=False)}))
            for i, s in enumerate(state.scores)]
    return h("section", {"class": "panel", "aria-labelledby": "sc-scores-title"},
             h("h2", {"id": "sc-scores-title", "text": t("play.score")}),
             h("table", {"class": "scores", "id": "sc-scores"}, rows))


def bag(t: Messages, state: ScarabeoState) -> VNode:
    unseen = state.unseen_counts(state.to_move())
    items = [h("li", {"aria-label": f"{letter} \u00d7{unseen[letter]}", "text": f"{letter}\u00d7{unseen[letter]}"})
             for letter in list(LETTERS) + [SCARAB] if unseen.get(letter)]
    return h("section", {"class": "panel", "aria-labelledby": "sc-bag-title"},
             h("h2", {"id": "sc-bag-title", "text": t.plural("scarabeo.bag", len(state.bag))}),
             h("ul", {"class": "sc-unseen", "aria-label": t("scarabeo.unseen")}, items))


#: The toolbar under the drawer's panels (web/pages/play.py's ``toolbar`` and the Scarabeo extras).
TOOLS = (("sc-wordcheck", "wordcheck.open"), ("sc-export-text", "scarabeo.export.text"), ("takeback", "play.takeback"),
         ("resign", "play.resign"), ("review", "review.button"), ("share", "share.button"),
         ("export", "continue.export.backup"), ("rules", "rules.link"))


def toolbar(t: Messages) -> VNode:
    return h("div", {"class": "sc-tools"},
             h("div", {"class": "toolbar row"},
               [h("a", {"class": "button", "id": bid, "href": f"#/scarabeo/{bid}", "text": t(key)})
                if bid in ("review", "rules") else
                h("button", {"type": "button", "id": bid, "text": t(key), "on_click": noop}) for bid, key in TOOLS]))


def legend(t: Messages) -> VNode:
    items = [h("li", {}, h("span", {"class": f"sc-sq p-{prem} swatch", "aria-hidden": "true"},
                           h("span", {"class": "pl", "text": PREMIUM_NAMES.get(prem, "\u2605")})),
               t(premium_key(prem))) for prem in "LTDW*"]
    return h("div", {"class": "sc-keys"},
             h("p", {"id": "sc-board-help", "class": "muted sc-help", "text": t("scarabeo.help.keys")}),
             h("ul", {"class": "sc-legend", "aria-label": t("scarabeo.legend")}, items))


# --- the position ------------------------------------------------------------------------------
def position(seed: int, tiles: int, moves: int, t: Messages, lay: int = 5) -> Position:
    """A 2-player game from ``seed`` played by random legal moves (every word accepted) until at least
    ``tiles`` tiles are down and ``moves`` moves made; then a legal play of ``lay`` new tiles for the
    player to move, found by ``random_placement_play`` (the nearest size found in 400 tries)."""
    state = ScarabeoState.new(2, seed)
    rng = Rng(seed)
    while (sum(1 for x in state.board if x) < tiles or len(state.history()) < moves) and not state.is_over():
        state.push(random_move(state, rng))
    last_move = state.history()[-1] if state.history() else None
    last = frozenset(last_move.squares()) if isinstance(last_move, Play) else frozenset()
    best: tuple[int, dict[int, str], str] | None = None
    for _ in range(400):
        play = random_placement_play(state, rng)
        if play is None:
            continue
        new = {sq: ch for sq, ch in zip(play.squares(), play.word) if not state.board[sq]}
        if best is None or abs(len(new) - lay) < abs(len(best[1]) - lay):
            result = state.preview(play)
            words = ", ".join(w.word for w in result.breakdown.words) if result.breakdown else play.word
            best = (len(new), new, t.plural("scarabeo.preview", result.score, move=state.move_text(play), words=words))
        if len(new) == lay:
            break
    if best is None:
        raise SystemExit(f"no legal play found for seed {seed}")
    return Position(state, last, best[1], best[2])


def count_nodes(node: VNode | str) -> tuple[int, int]:
    """(elements, text nodes) of a tree."""
    if isinstance(node, str):
        return 0, 1
    elements, texts = 1, 0
    for child in node.children:
        e, x = count_nodes(child)
        elements, texts = elements + e, texts + x
    return elements, texts


@dataclass
class Patches:
    """The first patch of a page and its updates (laid, taken back, laid …), as ``patch.js`` gets them."""

    first: str
    updates: list[str]
    elements: int
    texts: int
    update_ops: list[int]
    squares_changed: int
    #: The same first draw in steps: the page without the squares, then ``split`` rows of them a step.
    split: list[str] = field(default_factory=list)
    split_elements: int = 0
    #: After the updates: the page removed, then drawn whole again (new elements, the styles warm).
    redraw: list[str] = field(default_factory=list)


def catalogue(messages: Mapping[str, Mapping[str, str]] | None = None) -> Messages:
    """The site's messages in English: read from web/platform/messages, or given (the worker has no such
    folder: app.zip holds Python only, index.html carries the catalogue)."""
    return Messages(load_catalogue() if messages is None else messages, "en")


def page_for(case: str, seed: int, t: Messages) -> ScarabeoPage:
    tiles, moves = CASES[case]
    return ScarabeoPage(position(seed, tiles, moves, t), t)


def patches(page: ScarabeoPage, updates: int, split: int = 6) -> Patches:
    """The first patch and ``updates`` updates; and the first draw in steps of ``split`` rows (0: not)."""
    steps, tree = [], Tree(Ids())
    for rows in (range(0, SIZE + split, split) if split else ()):
        steps.append(encode(tree.update(page.render(rows=min(rows, SIZE)))))
    bare = count_nodes(page.render(rows=0))[0] if split else 0
    tree = Tree(Ids())
    node = page.render()
    first = encode(tree.update(node))
    out, ops = [], []
    for i in range(updates):
        patch = tree.update(page.render(placing=i % 2 == 0))
        out.append(encode(patch))
        ops.append(len(patch["ops"]))
    elements, texts = count_nodes(node)
    redraw = [encode(tree.update()), encode(tree.update(ScarabeoPage(page.pos, page.t).render()))]
    return Patches(first, out, elements, texts, ops, len(page.pos.placed), steps, bare, redraw)


def python_times(case: str, seed: int, t: Messages, repeat: int) -> dict[str, float]:
    """Medians (ms) of CPython's build, diff (``Tree.update``) and encode, for the first render of a
    fresh page and for laying the play on a page already drawn."""
    base = page_for(case, seed, t)
    samples: dict[str, list[float]] = {}

    def timed(prefix: str, page: ScarabeoPage, tree: Tree, placing: bool) -> None:
        t0 = time.perf_counter()
        node = page.render(placing)
        t1 = time.perf_counter()
        patch = tree.update(node)
        t2 = time.perf_counter()
        encode(patch)
        t3 = time.perf_counter()
        for name, ms in (("build", t1 - t0), ("diff", t2 - t1), ("encode", t3 - t2), ("total", t3 - t0)):
            samples.setdefault(f"{prefix}_{name}", []).append(ms * 1000)

    for _ in range(repeat):
        page, tree = ScarabeoPage(base.pos, t), Tree(Ids())
        timed("first", page, tree, False)
        timed("update", page, tree, True)
    return {k: round(statistics.median(v), 2) for k, v in samples.items()}


#: The fixed Python loop's length: the throttle's check where Python runs (CPython, the worker).
LOOP = 300_000


def python_loop(n: int = LOOP) -> float:
    """ms of a fixed pure-Python loop."""
    t0 = time.perf_counter()
    x = 0
    for i in range(n):
        x = (x + i * 7) % 1000003
    return (time.perf_counter() - t0) * 1000


def side_figures(case: str, seed: int, t: Messages, repeat: int) -> dict[str, Any]:
    """What the worker measures of one position: the page's size (the same page as CPython's?), the fixed
    loop, then ``python_times``."""
    pat = patches(page_for(case, seed, t), 1, 0)
    return {"elements": pat.elements, "first_bytes": len(pat.first.encode()), "loop": round(python_loop(), 1),
            **python_times(case, seed, t, repeat)}


#: The module this file becomes in the worker.
WORKER_MODULE = "bench_patch"


def worker_setup(source: str, messages: Mapping[str, Mapping[str, str]]) -> str:
    """Python for the worker, run once: ``source`` (this file's) made the module ``WORKER_MODULE`` as if it
    were ``/home/pyodide/tools/bench_patch.py``, the catalogue made ``T``; its value: the ms it took."""
    return ("import json, sys, time, types\n"
            "t0 = time.perf_counter()\n"
            f"bench = types.ModuleType({WORKER_MODULE!r})\n"
            "bench.__file__ = '/home/pyodide/tools/bench_patch.py'\n"
            f"sys.modules[{WORKER_MODULE!r}] = bench\n"
            f"exec(compile({source!r}, bench.__file__, 'exec'), bench.__dict__)\n"
            f"T = bench.catalogue(json.loads({json.dumps(messages, ensure_ascii=False)!r}))\n"
            "json.dumps({'setup_ms': round((time.perf_counter() - t0) * 1000, 1)})")


def worker_job(case: str, seed: int, repeat: int) -> str:
    """Python for the worker, after ``worker_setup``: ``side_figures`` of one position, as JSON."""
    return f"json.dumps(bench.side_figures({case!r}, {seed!r}, T, {repeat!r}))"


# --- the browser -------------------------------------------------------------------------------
def host_html(index_html: str, host: str = "site") -> str:
    """A bench page: index.html's CSP and stylesheets, patch.js, and index.html's body without its
    scripts (``site``) or an empty ``<main id="app">`` (``empty``)."""
    links = re.findall(r'<link rel="stylesheet" href="([^"]+)">', index_html)
    body = re.search(r"<body>(.*)</body>", index_html, re.S)
    if not links or body is None or 'id="app"' not in body.group(1):
        raise SystemExit("index.html links no stylesheet, or has no body with #app")
    inner = re.sub(r"<script\b.*?</script>\s*", "", body.group(1), flags=re.S) if host == "site" else (
        '<main id="app" tabindex="-1"></main>')
    return ('<!doctype html><html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<meta http-equiv="Content-Security-Policy" content="{probe.site_policy(index_html)}">'
            + "".join(f'<link rel="stylesheet" href="{href}">' for href in links)
            + f'<title>bench</title><script src="./web/shell/patch.js"></script></head><body>{inner}</body></html>')


def prepare(dist: Path, into: Path) -> Path:
    """A copy of the built site's index.html and web/ (others may rebuild dist/ meanwhile) with the
    bench page; dist/ is built first if it has no patch.js."""
    if not (dist / "web" / "shell" / "patch.js").is_file():
        if dist.resolve() != serve.DIST.resolve():
            raise SystemExit(f"{dist} has no web/shell/patch.js")
        serve.setup()
    site = into / "site"
    shutil.copytree(dist / "web", site / "web")
    shutil.copyfile(dist / "index.html", site / "index.html")
    for host, name in HOSTS.items():
        (site / name).write_text(host_html((site / "index.html").read_text(encoding="utf-8"), host), encoding="utf-8")
    return site


def file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


#: Mounts #app as node 1, starts the long-task observer, then times a fixed loop: how much slower the
#: throttled (or loaded) main thread is, run by run.
#: A fixed JS loop (3 million iterations) on the page: ``loop`` (ms) and ``x`` after it.
JS_LOOP = """
  const t0 = performance.now();
  let x = 0;
  for (let i = 0; i < 3e6; i++) x = (x + i * 7) % 1000003;
  const loop = performance.now() - t0;
"""
SETUP_JS = """async (texts) => {
  window.__bench = texts;
  scarabPatch.mount(1, document.getElementById("app"));
  window.__probeStart();
  await new Promise((r) => setTimeout(r, 300));""" + JS_LOOP + """  return { loop, x };
}"""

#: One apply of patch ``which`` (first, or an update's index): apply, then a forced layout, then the
#: next frame; the longest task over 50 ms from the apply to 0.5 s later.
APPLY_JS = """async (which) => {
  const P = window.__probe;
  const next = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  await next();
  const text = which === "first" ? window.__bench.first : window.__bench.updates[which];
  P.maxRafGap = 0;
  const t0 = performance.now();
  scarabPatch.apply(text);
  const t1 = performance.now();
  void document.body.offsetHeight;
  const t2 = performance.now();
  await next();
  const t3 = performance.now();
  await new Promise((r) => setTimeout(r, 500));
  const tasks = P.longtasks.filter((e) => e.start + e.duration >= t0);
  const app = document.getElementById("app");
  return { apply: t1 - t0, layout: t2 - t0, frame: t3 - t0, rafGap: P.maxRafGap,
           longest: Math.max(0, ...tasks.map((e) => e.duration)), longTasks: tasks.length,
           elements: app.querySelectorAll("*").length, height: document.body.offsetHeight };
}"""

METRICS = ("apply", "layout", "frame", "longest", "rafGap")
LABELS = {
    "apply": "`apply(text)` (JSON.parse + DOM)",
    "layout": "apply + forced layout",
    "frame": "apply to the next frame (rAF, then setTimeout 0)",
    "longest": "longest task (longtask observer; 0: none over 50 ms)",
    "rafGap": "longest frame gap (rAF) around it",
}


class Guard:
    """Lets local requests through and aborts (and records) every other."""

    def __init__(self) -> None:
        self.blocked: list[str] = []

    def __call__(self, route: Any) -> None:
        url = route.request.url
        if url.startswith(probe.LOCAL):
            route.continue_()
            return
        self.blocked.append(url)
        route.abort()


def one_run(browser: Any, url: str, rate: float, texts: list[str], elements: int, timeout: float,
            redraw: list[str] | None = None) -> dict[str, Any]:
    """One fresh context at one CPU rate: the first of ``texts``, which draws ``elements`` elements,
    then each of the others (the updates, or the steps of a split first draw); then ``redraw``'s
    patches, the last one timed."""
    guard = Guard()
    errors: list[str] = []
    try:
        with fresh_page(browser, url, rate, timeout, guard, errors, probe.PROBE / "heartbeat.js",
                        viewport=VIEWPORT, locale="en-GB") as page:
            setup = page.evaluate(SETUP_JS, {"first": texts[0], "updates": texts[1:] + (redraw or [])})
            first = page.evaluate(APPLY_JS, "first")
            later = [page.evaluate(APPLY_JS, i) for i in range(len(texts) - 1 + len(redraw or []))]
        fig: dict[str, Any] = {"loop": round(setup["loop"], 1), "first": rounded(first),
                               "updates": [rounded(u) for u in later[:len(texts) - 1]]}
        if redraw:
            fig["redraw"] = rounded(later[-1])
        fig["ok"] = not errors and not guard.blocked and first["elements"] == elements
    except Exception as err:  # noqa: BLE001 - reported in the run's figures
        fig = {"ok": False}
        errors.append(f"{type(err).__name__}: {str(err)[:300]}")
    return reported(fig, errors, guard)


@contextlib.contextmanager
def fresh_page(browser: Any, url: str, rate: float, timeout: float, guard: Guard, errors: list[str],
               init_script: Path | None = None, **options: Any) -> Iterator[Any]:
    """A page in a fresh context (service workers blocked, every request through ``guard``, ``options``
    given to the context) on ``url``, its errors and console errors kept in ``errors``, the CPU throttled
    to ``rate`` after the navigation (which may change the page's process); the context closed after."""
    ctx = browser.new_context(service_workers="block", **options)
    ctx.route("**/*", guard)
    if init_script is not None:
        ctx.add_init_script(path=str(init_script))
    try:
        page = ctx.new_page()
        page.set_default_timeout(timeout * 1000)
        page.on("pageerror", lambda e: errors.append(str(e)[:300]))
        page.on("console", lambda m: errors.append(m.text[:300]) if m.type == "error" else None)
        page.goto(url, wait_until="load")
        if rate != 1:
            ctx.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})
        yield page
    finally:
        ctx.close()


def reported(fig: dict[str, Any], errors: list[str], guard: Guard) -> dict[str, Any]:
    """A run's figures with its errors and the requests ``guard`` aborted, if any."""
    if errors:
        fig["errors"] = errors[:10]
    if guard.blocked:
        fig["blocked"] = guard.blocked[:10]
    return fig


#: --pyodide: times the fixed JS loop on the page (the main thread's throttle), then starts
#: tools/probe_worker/worker.js and waits for its "done" (Pyodide, app.zip, the engines, its computation).
START_WORKER_JS = """async (timeout) => {""" + JS_LOOP + """
  const w = (window.__worker = new Worker("./worker.js", { type: "module" }));
  const done = await new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ ok: false, error: `no worker within ${timeout} ms` }), timeout);
    w.onmessage = (e) => {
      if (e.data.kind === "done") { clearTimeout(timer); resolve(e.data); }
    };
    w.onerror = (e) => { clearTimeout(timer); resolve({ ok: false, error: `worker error: ${e.message}` }); };
  });
  const at = (k) => (done.marks && done.marks[k] ? done.marks[k] - performance.timeOrigin : null);
  return { loop, ok: done.ok, error: done.error, ready: at("pyodide"), computed: at("computed"),
           scarabeo: done.out ? done.out.scarabeo_ms : null };
}"""

#: --pyodide: runs Python ``code`` in the worker; its answer (``ok`` and ``out``, or ``error``).
RUN_IN_WORKER_JS = """async ({ code, timeout }) => {
  const w = window.__worker;
  return await new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ ok: false, error: `no answer within ${timeout} ms` }), timeout);
    w.onmessage = (e) => {
      if (e.data.kind === "ran") { clearTimeout(timer); resolve(e.data); }
    };
    w.postMessage({ kind: "run", code });
  });
}"""


def worker_run(browser: Any, url: str, rate: float, setup: str, jobs: Mapping[str, str],
               expected: Mapping[str, Mapping[str, Any]], timeout: float) -> dict[str, Any]:
    """--pyodide, one fresh context at one CPU rate: the worker started on ``url``, ``setup`` run in it,
    then each case's job; ``ok`` if every step answered and each page has ``expected``'s elements and
    first patch bytes. Figures flat: ``loop_page``, ``ready``, ``computed``, ``scarabeo_moves``,
    ``setup_ms`` and ``CASE_KEY`` for each of a job's figures."""
    guard = Guard()
    errors: list[str] = []
    fig: dict[str, Any] = {"ok": False}
    try:
        with fresh_page(browser, url, rate, timeout, guard, errors) as page:
            started = page.evaluate(START_WORKER_JS, timeout * 1000)
            answers = {"": page.evaluate(RUN_IN_WORKER_JS, {"code": setup, "timeout": timeout * 1000})
                       } if started["ok"] else {}
            for case, code in (jobs.items() if answers and answers[""]["ok"] else ()):
                answers[case] = page.evaluate(RUN_IN_WORKER_JS, {"code": code, "timeout": timeout * 1000})
                if not answers[case]["ok"]:
                    break
        fig.update({"loop_page": round(started["loop"], 1), "ready": started["ready"],
                    "computed": started["computed"], "scarabeo_moves": started["scarabeo"]})
        errors += [str(started["error"])[:500]] if not started["ok"] else []
        errors += [f"{case or 'setup'}: {str(a['error'])[:500]}" for case, a in answers.items() if not a["ok"]]
        for case, answer in answers.items():
            if answer["ok"]:
                out = json.loads(answer["out"])
                fig.update(out if not case else {f"{case}_{k}": v for k, v in out.items()})
        same = all(fig.get(f"{case}_{k}") == expected[case][k] for case in jobs
                   for k in ("elements", "first_bytes"))
        if len(answers) == len(jobs) + 1 and not same:
            errors.append("the page built in the worker is not CPython's")
        fig["ok"] = not errors and not guard.blocked and len(answers) == len(jobs) + 1
    except Exception as err:  # noqa: BLE001 - reported in the run's figures
        errors.append(f"{type(err).__name__}: {str(err)[:300]}")
    return reported(rounded(fig), errors, guard)


def rounded(figures: Mapping[str, Any]) -> dict[str, Any]:
    return {k: round(v, 1) if isinstance(v, float) else v for k, v in figures.items()}


def summarize(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Medians over the runs that worked: of the first patch (one per run) and of every update."""
    good = [r for r in runs if r.get("ok")]
    out: dict[str, Any] = {"runs": len(runs), "ok": len(good)}
    if good:
        out["loop"] = round(statistics.median(r["loop"] for r in good), 1)
    for part, samples in (("first", [r["first"] for r in good]), ("update", [u for r in good for u in r["updates"]]),
                          ("redraw", [r["redraw"] for r in good if "redraw" in r])):
        for k in METRICS:
            values = [s[k] for s in samples if isinstance(s.get(k), (int, float))]
            if values:
                out[f"{part}_{k}"] = round(statistics.median(values), 1)
        if samples:
            out[f"{part}_max_layout"] = round(max(s["layout"] for s in samples), 1)
            out[f"{part}_samples"] = len(samples)
    if good:  # a split first draw: its longest step, and all its steps, per run
        steps = [[r["first"], *r["updates"]] for r in good]
        for k in ("layout", "longest"):
            out[f"steps_max_{k}"] = round(statistics.median(max(s[k] for s in run) for run in steps), 1)
        out["steps_sum_layout"] = round(statistics.median(sum(s["layout"] for s in run) for run in steps), 1)
    errors = [e for r in runs for e in r.get("errors", [])]
    if errors:
        out["errors"] = errors[:10]
    return out


def summarize_worker(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """--pyodide: the median of every figure over the runs that worked, and the range of the totals."""
    good = [r for r in runs if r.get("ok")]
    out: dict[str, Any] = {"runs": len(runs), "ok": len(good)}
    keys = sorted({k for r in good for k, v in r.items() if isinstance(v, (int, float)) and not isinstance(v, bool)})
    for k in keys:
        values = [r[k] for r in good if isinstance(r.get(k), (int, float))]
        out[k] = round(statistics.median(values), 2)
        if k.endswith("_total"):
            out[f"{k}_range"] = [min(values), max(values)]
    errors = [e for r in runs for e in r.get("errors", [])]
    if errors:
        out["errors"] = errors[:10]
    return out


#: --pyodide's table: the figures of a position, CPython's and the worker's.
WORKER_ROWS = (("first_build", "first render: build"), ("first_diff", "first render: `Tree.update`"),
               ("first_encode", "first render: `encode`"), ("first_total", "**first render: the three**"),
               ("update_build", "update (5 tiles laid): build"), ("update_diff", "update: `Tree.update`"),
               ("update_encode", "update: `encode`"), ("update_total", "**update: the three**"),
               ("loop", f"a fixed Python loop ({LOOP:,} iterations): the throttle's check where Python runs"))
#: --pyodide's table: the figures of a run, the same for every position (the worker's alone).
WORKER_RUN_ROWS = (("loop_page", "the page's fixed JS loop (3M iterations): the main thread's throttle"),
                   ("ready", "worker ready: Pyodide loaded (ms from navigation)"),
                   ("scarabeo_moves", "worker.js's 20 random Scarabeo moves (ms)"),
                   ("setup_ms", "this file made a module in the worker, the catalogue read (ms)"))


def worker_table(rows: Mapping[str, Mapping[str, Any]], summaries: Mapping[str, Mapping[str, Any]]) -> str:
    """--pyodide: per position, CPython's medians beside the worker's at each rate (medians over the runs
    of each run's medians), ms."""
    columns = [(case, rate) for case in rows for rate in [None, *summaries]]

    def cell(case: str, rate: str | None, key: str, per_case: bool) -> str:
        if rate is None:
            v = rows[case].get(key) if per_case else None
        else:
            v = summaries[rate].get(f"{case}_{key}" if per_case else key)
        if isinstance(v, list):
            return f"{v[0]:,.1f}–{v[1]:,.1f}"
        return "—" if v is None else f"{v:,.1f}"

    lines = ["| median, ms | " + " | ".join(f"{case} {'CPython' if rate is None else 'Pyodide ' + rate}"
                                             for case, rate in columns) + " |", "|---|" + "---:|" * len(columns)]
    spec = [(k, label, True) for k, label in WORKER_ROWS]
    spec[4:4] = [("first_total_range", "first render: the three, range of the runs", True)]
    spec[9:9] = [("update_total_range", "update: the three, range of the runs", True)]
    spec += [(k, label, False) for k, label in WORKER_RUN_ROWS]
    for key, label, per_case in spec:
        lines.append(f"| {label} | " + " | ".join(cell(case, rate, key, per_case) for case, rate in columns) + " |")
    lines.append("| runs that worked | " + " | ".join("—" if rate is None else
                                                      f"{summaries[rate]['ok']}/{summaries[rate]['runs']}"
                                                      for _, rate in columns) + " |")
    return "\n".join(lines)


def page_table(summaries: Mapping[str, Mapping[str, Any]]) -> str:
    """A Markdown table: one row per figure (first patch, then updates), one column per case and rate."""
    cases = list(summaries)
    lines = ["| median, ms | " + " | ".join(cases) + " |", "|---|" + "---:|" * len(cases)]
    for part, title in (("first", "first patch"), ("update", "update (play laid / taken back)"),
                        ("redraw", "the page removed, then drawn whole again")):
        for k in METRICS:
            cells = [summaries[c].get(f"{part}_{k}") for c in cases]
            lines.append(f"| {title}: {LABELS[k]} | " + " | ".join("—" if v is None else f"{v:,.1f}" for v in cells)
                         + " |")
        cells = [summaries[c].get(f"{part}_max_layout") for c in cases]
        lines.append(f"| {title}: apply + layout, worst run | "
                     + " | ".join("—" if v is None else f"{v:,.1f}" for v in cells) + " |")
    loops = [summaries[c].get("loop") for c in cases]
    lines.append("| a fixed JS loop before (3M iterations): the throttle's check | "
                  + " | ".join("—" if v is None else f"{v:,.1f}" for v in loops) + " |")
    lines.append("| runs that worked | " + " | ".join(f"{summaries[c]['ok']}/{summaries[c]['runs']}" for c in cases)
                 + " |")
    return "\n".join(lines)


def split_table(summaries: Mapping[str, Mapping[str, Any]], rows: int) -> str:
    """The first draw in steps (the page without the squares, then ``rows`` rows of squares a step, each
    in a task of its own after a frame): one row per figure, one column per case and rate."""
    cases = list(summaries)
    spec = [("first_layout", "page without the squares: apply + forced layout"),
            ("update_layout", f"a step of {rows} rows of squares: apply + forced layout"),
            ("update_max_layout", f"a step of {rows} rows of squares: apply + forced layout, worst"),
            ("steps_max_layout", "the longest step of a run: apply + forced layout"),
            ("steps_max_longest", "the longest task of a run (longtask observer; 0: none over 50 ms)"),
            ("steps_sum_layout", "all the steps of a run: apply + forced layout, summed"),
            ("loop", "a fixed JS loop before (3M iterations): the throttle's check")]
    lines = ["| median, ms | " + " | ".join(cases) + " |", "|---|" + "---:|" * len(cases)]
    for key, label in spec:
        cells = [summaries[c].get(key) for c in cases]
        lines.append(f"| {label} | " + " | ".join("—" if v is None else f"{v:,.1f}" for v in cells) + " |")
    lines.append("| runs that worked | " + " | ".join(f"{summaries[c]['ok']}/{summaries[c]['runs']}" for c in cases)
                 + " |")
    return "\n".join(lines)


def python_table(rows: Mapping[str, Mapping[str, Any]]) -> str:
    """The pages' sizes and CPython's times, one column per case."""
    cases = list(rows)
    spec: list[tuple[str, str, Callable[[Any], str]]] = [
        ("tiles", "tiles on the board", str), ("sheet_rows", "score sheet rows", str),
        ("elements", "elements", lambda v: f"{v:,}"), ("texts", "text nodes", lambda v: f"{v:,}"),
        ("first_bytes", "first patch, bytes (UTF-8)", lambda v: f"{v:,}"),
        ("squares_changed", "update: squares laid", str), ("update_ops", "update: ops (laid / taken back)", str),
        ("update_bytes", "update: bytes (laid / taken back)", str),
        ("first_build", "CPython: first render, build (ms)", str),
        ("first_diff", "CPython: first render, `Tree.update` (ms)", str),
        ("first_encode", "CPython: first render, encode (ms)", str),
        ("update_build", "CPython: update, build (ms)", str),
        ("update_diff", "CPython: update, `Tree.update` (ms)", str),
        ("update_encode", "CPython: update, encode (ms)", str)]
    lines = ["| | " + " | ".join(cases) + " |", "|---|" + "---:|" * len(cases)]
    for key, label, fmt in spec:
        lines.append(f"| {label} | " + " | ".join("—" if rows[c].get(key) is None else fmt(rows[c][key])
                                                  for c in cases) + " |")
    return "\n".join(lines)


def rates_arg(text: str) -> list[float]:
    try:
        rates = [float(r) for r in text.split(",") if r.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"numbers separated by commas, not {text!r}") from None
    if not rates or min(rates) < 1:
        raise argparse.ArgumentTypeError("each rate at least 1")
    return rates


def positive(text: str) -> int:
    n = int(text)
    if n < 1:
        raise argparse.ArgumentTypeError("at least 1")
    return n


def cases_arg(text: str) -> list[str]:
    names = [c.strip() for c in text.split(",") if c.strip()]
    if not names or any(c not in CASES for c in names):
        raise argparse.ArgumentTypeError(f"cases among {', '.join(CASES)}")
    return names


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=positive, default=5, help="fresh pages per case and rate (default 5)")
    p.add_argument("--rates", type=rates_arg, default=[1.0, 4.0], help="CPU throttling rates (default 1,4)")
    p.add_argument("--updates", type=positive, default=3, help="updates applied after the first patch (default 3)")
    p.add_argument("--split", type=int, default=6, choices=range(0, SIZE + 1), metavar="ROWS",
                   help="also the first draw in steps: the page without the squares, then ROWS rows a step "
                        "(default 6; 0: not)")
    p.add_argument("--cases", type=cases_arg, default=list(CASES), help="positions (default scarabeo,late)")
    p.add_argument("--host", choices=list(HOSTS), default="site",
                   help="the page the game page replaces: index.html's body before Python (site, the default) "
                        "or an empty #app (empty)")
    p.add_argument("--seed", type=int, default=1, help="the game's seed (default 1)")
    p.add_argument("--repeat", type=positive, default=20,
                   help="timings per figure of the Python side, CPython's and the worker's (default 20)")
    p.add_argument("--no-browser", action="store_true", help="the Python side only")
    p.add_argument("--pyodide", action="store_true",
                   help="in the browser, the Python side in Pyodide in a worker instead of the page's draw")
    probe.browser_args(p, 60.0, "seconds per browser step before giving up", "also write the figures here")
    return p.parse_args(argv)


def git(*args: str) -> str:
    done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False)
    return done.stdout.strip()


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    os.environ["SCARAB_QUIET"] = "1"
    load_before = os.getloadavg()
    command = shlex.join([".venv/bin/python", "tools/bench_patch.py", *(sys.argv[1:] if argv is None else argv)])
    print(f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, commit {git('rev-parse', '--short', 'HEAD')}, "
          f"nproc {os.cpu_count()}, load average before {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}",
          flush=True)
    print(command, flush=True)
    t = catalogue()
    built: dict[str, Patches] = {}
    rows: dict[str, dict[str, Any]] = {}
    for case in args.cases:
        page = page_for(case, args.seed, t)
        pat = built[case] = patches(page, args.updates, args.split)
        rows[case] = {"tiles": sum(1 for x in page.pos.state.board if x), "sheet_rows": len(page.rows),
                      "elements": pat.elements, "texts": pat.texts, "first_bytes": len(pat.first.encode()),
                      "squares_changed": pat.squares_changed, "update_ops": " / ".join(map(str, pat.update_ops[:2])),
                      "update_bytes": " / ".join(str(len(u.encode())) for u in pat.updates[:2]),
                      **python_times(case, args.seed, t, args.repeat), "loop": round(python_loop(), 1)}
        print(f"{case}: {json.dumps(rows[case])}", flush=True)
    report: dict[str, Any] = {"command": command, "nproc": os.cpu_count(),
                              "loadavg_before": [round(x, 2) for x in load_before], "pages": rows}
    summaries: dict[str, dict[str, Any]] = {}
    if not args.no_browser and args.pyodide:
        summaries, report["runs"], report["chromium"] = worker_runs(args, rows, t)
        report["summary"] = summaries
    elif not args.no_browser:
        summaries, report["runs"], report["chromium"], report["patch_js"] = browser_runs(args, built)
        report["summary"] = summaries
    load_after = os.getloadavg()
    report["loadavg_after"] = [round(x, 2) for x in load_after]
    print(python_table(rows))
    whole = {k: v for k, v in summaries.items() if not k.endswith(" split")}
    if args.pyodide and summaries:
        print(worker_table(rows, summaries))
    elif whole:
        print(page_table(whole))
    if len(whole) < len(summaries):
        print(split_table({k: v for k, v in summaries.items() if k.endswith(" split")}, args.split))
    print(f"load average after {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    return 0 if all(s["ok"] == s["runs"] for s in summaries.values()) else 1


@contextlib.contextmanager
def serving(site: Path) -> Iterator[int]:
    """tools/probe_worker.py's server (serve.py's, no COOP/COEP) on ``site``: its port."""
    server, port = probe.start_server(site)
    try:
        yield port
    finally:
        server.shutdown()
        server.server_close()


def browser_runs(args: argparse.Namespace, built: Mapping[str, Patches]) -> tuple[dict[str, Any], dict[str, Any], str,
                                                                                   dict[str, Any]]:
    """Every case at every rate, ``args.runs`` times, interleaved run by run so that a change in the
    machine's load hits them alike (one browser, a fresh context per run)."""
    runs: dict[str, list[dict[str, Any]]] = {}
    plan = [(f"{case} {rate:g}x{' split' if split else ''}", rate, case, split) for case in args.cases
            for rate in args.rates for split in ((False, True) if args.split else (False,))]
    with tempfile.TemporaryDirectory(prefix="bench-patch-") as tmp:
        site = prepare(args.dist, Path(tmp))
        served = site / "web" / "shell" / "patch.js"
        patch_js = {"sha256": file_digest(served), "lines": len(served.read_text(encoding="utf-8").splitlines()),
                    "same_as_working_tree": file_digest(served) == file_digest(ROOT / "web" / "shell" / "patch.js"),
                    "committed": bool(git("ls-files", "web/shell/patch.js")),
                    "changed_since_commit": bool(git("status", "--porcelain", "web/shell/patch.js"))}
        print(f"patch.js: {json.dumps(patch_js)}", flush=True)
        with chromium(site, args.chromium) as (browser, port, version):
            url = f"http://127.0.0.1:{port}/{HOSTS[args.host]}"
            for i, (name, rate, case, split) in itertools.product(range(args.runs), plan):
                pat = built[case]
                texts, elements = ([*pat.split], pat.split_elements) if split else ([pat.first, *pat.updates],
                                                                                   pat.elements)
                fig = one_run(browser, url, rate, texts, elements, args.timeout, None if split else pat.redraw)
                runs.setdefault(name, []).append(fig)
                print(f"run {i + 1} {name}: {json.dumps(fig)}", flush=True)
    return {name: summarize(r) for name, r in runs.items()}, runs, version, patch_js


def worker_runs(args: argparse.Namespace, rows: Mapping[str, Mapping[str, Any]],
                t: Messages) -> tuple[dict[str, Any], dict[str, Any], str]:
    """--pyodide: at every rate, ``args.runs`` fresh pages, each starting the worker and timing every case
    in it, the rates interleaved run by run (one browser)."""
    setup = worker_setup(Path(__file__).read_text(encoding="utf-8"), t.catalogue)
    jobs = {case: worker_job(case, args.seed, args.repeat) for case in args.cases}
    runs: dict[str, list[dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-patch-") as tmp:
        site = probe.prepare(args.dist, Path(tmp))
        with chromium(site, args.chromium) as (browser, port, version):
            url = f"http://127.0.0.1:{port}/probe/worker_page.html"
            for i, rate in itertools.product(range(args.runs), args.rates):
                fig = worker_run(browser, url, rate, setup, jobs, rows, args.timeout)
                runs.setdefault(f"{rate:g}x", []).append(fig)
                print(f"run {i + 1} {rate:g}x: {json.dumps(fig)}", flush=True)
    return {name: summarize_worker(r) for name, r in runs.items()}, runs, version


@contextlib.contextmanager
def chromium(site: Path, executable: str) -> Iterator[tuple[Any, int, str]]:
    """``site`` served (``serving``) and headless Chromium launched, as tools/probe_worker.py does:
    (the browser, the port, its version)."""
    from playwright.sync_api import sync_playwright

    with serving(site) as port, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, headless=True, args=probe.ARGS)
        version = str(browser.version)
        print(f"Chromium {version}", flush=True)
        try:
            yield browser, port, version
        finally:
            browser.close()


if __name__ == "__main__":
    raise SystemExit(main())
