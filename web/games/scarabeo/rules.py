"""Scarabeo's rules page: the rules for players, what this app decides where the rulebook is open
(docs/scarabeo.md, shared rules §1), the rulebook's own advice, and live diagrams.

The diagrams are drawn by the game page's own square renderer (``ScarabeoUI.cell_spec`` and
``make_cell`` in ``web/games/scarabeo/board.py``, the smallest separable piece: the page's ``board_grid``
builds the whole 17×17 grid and binds its events) on boards made by the engine: the rulebook's
CONTARE and STAMPA examples are built as positions, scored by ``state.preview`` with the real
lexicon, and their captions carry the engine's figures. The premium key is the page's own legend.
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from game.scarabeo.board import COLUMNS, SIZE
from game.scarabeo.tiles import LETTERS, VALUES
from web.games.scarabeo.context import BoardCtx
from web.games.scarabeo.ui import UI
from web.ui.dom import append, clear, h

#: The rulebook's examples, as positions (board rows, racks, scores, idle turns) and the move shown.
EMPTY = "/".join(["17"] * SIZE)
FIRST_POSITION = f"{EMPTY} CONTARE/ 0/0 0"
FIRST_MOVE = "9F CONTARE"
STAMPA_POSITION = ("17/17/17/17/17/17/17/17/4SCONTARE5/5A11/5N11/5N11/5A11/17/17/17/17 TAMPA/ 0/0 0")
STAMPA_MOVE = "E9 STAMPA"
#: A scarab standing for the T of CONTARE, and a rack holding a T: the engine says it can be taken.
SCARAB_POSITION = "17/17/17/17/17/17/17/17/5CONtARE5/17/17/17/17/17/17/17/17 TIMBRO/ 0/0 0"
#: Squares shown by each diagram: (first row, last row, first column, last column), 0-based.
QUARTER = (0, 8, 0, 8)
FIRST_WINDOW = (6, 10, 4, 12)
STAMPA_WINDOW = (7, 14, 3, 11)
SCARAB_WINDOW = (7, 9, 4, 12)


def _squares(window: tuple[int, int, int, int]) -> tuple[range, range]:
    r0, r1, c0, c1 = window
    return range(r0, r1 + 1), range(c0, c1 + 1)


def board_diagram(t: Any, board: list[str], window: tuple[int, int, int, int], label: str,
                  placed: dict[int, str] | None = None, formed: set[int] | None = None,
                  swappable: set[int] | None = None) -> Any:
    """A window of the board drawn square by square by the game page's renderer (read-only)."""
    rows, cols = _squares(window)
    ctx = BoardCtx(board=board, placed=placed or {}, swappable=swappable or set(), formed=formed or set())
    page = SimpleNamespace(t=t)
    template = f"1rem repeat({len(cols)}, minmax(0, 1fr))"
    grid = h("div", {"class": "sc-board sc-rules-board", "role": "grid", "aria-readonly": "true", "aria-label": label,
                     "style": f"max-width: {len(cols) * 2.6 + 1}rem"})
    head = h("div", {"class": "sc-row sc-head", "aria-hidden": "true", "style": f"grid-template-columns: {template}"},
             h("span", {}))
    for c in cols:
        append(head, h("span", {"text": COLUMNS[c]}))
    append(grid, head)
    for r in rows:
        row = h("div", {"role": "row", "class": "sc-row", "style": f"grid-template-columns: {template}"},
                h("span", {"class": "sc-rownum", "aria-hidden": "true", "text": str(r + 1)}))
        for c in cols:
            sq = r * SIZE + c
            cell = UI.make_cell(sq, UI.cell_spec(page, ctx, sq), -1)
            # a picture, not the game's input grid: no ids (two diagrams show the same square), no tab stops
            cell.removeAttribute("id")
            cell.removeAttribute("tabindex")
            cell.style.cursor = "default"
            cell.style.fontSize = "clamp(.7rem, 3.4vw, 1rem)"
            row.appendChild(cell)
        grid.appendChild(row)
    return grid


def figure(fig_id: str, caption: str, *content: Any) -> Any:
    return h("figure", {"id": fig_id, "class": "sc-rules-figure", "aria-labelledby": f"{fig_id}-caption"},
             *content, h("figcaption", {"id": f"{fig_id}-caption", "text": caption}))


def _play_squares(state: Any, move_text: str) -> tuple[Any, dict[int, str], set[int]]:
    """(breakdown, new tiles by square, squares of every word formed) of a move, from the engine."""
    result = state.preview(state.parse_move(move_text))
    bd = result.breakdown
    placed: dict[int, str] = {}
    formed: set[int] = set()
    for w in bd.words:
        for x in w.letters:
            formed.add(x.square)
            if x.new:
                placed[x.square] = x.tile
    return bd, placed, formed


def scarab_figure(t: Any) -> Any:
    """A scarab on the board that the player to move can take (the engine's ``view()["swappable"]``)."""
    from game.scarabeo.board import parse_square
    from game.scarabeo.game import ScarabeoState

    state = ScarabeoState.from_position(SCARAB_POSITION)
    view = state.view()
    swappable = {parse_square(name) for name in view["swappable"]}
    return figure("sc-rules-flying", t("scarabeo.rules.fig.flying", squares=", ".join(view["swappable"])),
                  board_diagram(t, list(state.board), SCARAB_WINDOW, t("scarabeo.rules.fig.flying.label"),
                                swappable=swappable))


async def _fill_examples(t: Any, first_box: Any, stampa_box: Any) -> None:
    """The rulebook's two examples, scored by the engine with the real lexicon once it is loaded."""
    from game.scarabeo.game import ScarabeoState
    from web.ui import wordcheck

    try:
        lex = await wordcheck.lexicon()
    except Exception:  # no lexicon: the examples are the rulebook's own, drawn without a word check
        lex = None
    for box, position, move, window, key in (
        (first_box, FIRST_POSITION, FIRST_MOVE, FIRST_WINDOW, "first"),
        (stampa_box, STAMPA_POSITION, STAMPA_MOVE, STAMPA_WINDOW, "stampa"),
    ):
        state = ScarabeoState.from_position(position, word_list=lex)
        bd, placed, formed = _play_squares(state, move)
        clear(box)
        main = bd.words[0]
        caption = t(f"scarabeo.rules.fig.{key}",
                    letters=" + ".join(str(x.value * x.letter_mult) for x in main.letters),
                    sum=main.score, doubled=bd.words_total, bonus=bd.bonus, total=bd.total,
                    words=" + ".join(f"{w.word} {w.score}" for w in bd.words))
        label = t(f"scarabeo.rules.fig.{key}.label")
        append(box, figure(f"sc-rules-{key}", caption,
                           board_diagram(t, list(state.board), window, label, placed, formed)))


def _section(sid: str, title: str, *children: Any) -> Any:
    return h("section", {"id": sid, "aria-labelledby": f"{sid}-h"}, h("h2", {"id": f"{sid}-h", "text": title}),
             *children)


def _paragraphs(t: Any, *keys: str) -> list[Any]:
    return [h("p", {"text": t(k)}) for k in keys]


def _items(t: Any, keys: list[str], cls: str = "") -> Any:
    return h("ul", {"class": cls or None}, *[h("li", {"text": t(k)}) for k in keys])


def render(app: Any) -> Any:
    t = app.t
    k = "scarabeo.rules."
    values = ", ".join(f"{letter} {VALUES[letter]}" for letter in LETTERS)
    empty = [""] * (SIZE * SIZE)
    centre_label = t(k + "fig.premiums.label")
    premiums = figure("sc-rules-premiums", t(k + "fig.premiums"),
                      board_diagram(t, empty, QUARTER, centre_label), UI.premium_legend(t))
    first_box = h("div", {"class": "sc-rules-example", "id": "sc-rules-first-box"},
                  h("p", {"class": "muted", "role": "status", "text": t("scarabeo.loading")}))
    stampa_box = h("div", {"class": "sc-rules-example", "id": "sc-rules-stampa-box"},
                   h("p", {"class": "muted", "role": "status", "text": t("scarabeo.loading")}))
    asyncio.ensure_future(_fill_examples(t, first_box, stampa_box))
    modes = ["dictionary", "challenge", "vote"]
    decisions = [f"{k}decide.{n}" for n in ("lexicon", "contest", "premiums", "first", "bonus", "start", "order",
                                            "lone", "attach", "draw", "exchange", "swaps", "passes", "settle",
                                            "two", "vote", "clock")]
    advice = [f"{k}advice.{n}" for n in ("extend", "parallel", "multiply", "scarab", "exchange")]
    return h("div", {"class": "sc-page sc-rules"},
             h("p", {"class": "lead", "text": t(k + "intro")}),
             _section("sc-rules-aim", t(k + "aim.title"), *_paragraphs(t, k + "aim.body")),
             _section("sc-rules-setup", t(k + "setup.title"),
                      *_paragraphs(t, k + "setup.tiles"),
                      h("p", {"id": "sc-rules-values", "text": t(k + "setup.values", values=values)}),
                      *_paragraphs(t, k + "setup.start")),
             _section("sc-rules-turn", t(k + "turn.title"),
                      *_paragraphs(t, k + "turn.body"),
                      _items(t, [f"{k}turn.rule.{n}" for n in ("line", "first", "touch", "words")]),
                      first_box,
                      *_paragraphs(t, k + "turn.draw", k + "turn.other")),
             _section("sc-rules-scoring", t(k + "scoring.title"),
                      *_paragraphs(t, k + "scoring.body"),
                      premiums,
                      _items(t, [f"{k}scoring.rule.{n}" for n in ("every", "multiply", "all", "doubled")]),
                      stampa_box,
                      h("h3", {"text": t(k + "bonus.title")}),
                      _items(t, [f"{k}bonus.{n}" for n in ("six", "seven", "eight", "scarabeo", "clean")])),
             _section("sc-rules-scarab", t(k + "scarab.title"), *_paragraphs(t, k + "scarab.wild", k + "scarab.flying"),
                      scarab_figure(t)),
             _section("sc-rules-end", t(k + "end.title"),
                      *_paragraphs(t, k + "end.close", k + "end.passes", k + "end.settle")),
             _section("sc-rules-variants", t(k + "variants.title"),
                      *_paragraphs(t, k + "variants.body"),
                      h("dl", {"class": "sc-rules-modes"},
                        *[el for m in modes for el in (h("dt", {"text": t(f"{k}mode.{m}.name"), "style": "font-weight: 600"}),
                                                       h("dd", {"text": t(f"{k}mode.{m}"), "style": "margin: 0 0 8px 1em"}))]),
                      h("h3", {"text": t("scarabeo.hourglass")}),
                      *_paragraphs(t, k + "hourglass.body")),
             _section("sc-rules-notation", t(k + "notation.title"), *_paragraphs(t, k + "notation.body")),
             _section("sc-rules-decisions", t("rules.decisions"),
                      *_paragraphs(t, k + "decide.intro"),
                      _items(t, decisions, "decision")),
             _section("sc-rules-advice", t("rules.advice"),
                      *_paragraphs(t, k + "advice.intro"),
                      _items(t, advice)))

