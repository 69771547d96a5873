"""``ScarabyaUI``, the game page's interface for ``web.pages.play`` (the ``GameUI`` protocol of ``web.ui.context``): the options
form, the computer, the announcements, and each render — classic and Ruins — assembled from the
package's modules (board, piece, input, panels, anim). Also the resume snapshot for ``boot.js``."""

from __future__ import annotations

import time
from typing import Any, Callable, Generator

from pyscript import window
from pyscript.ffi import to_js

from game.scarabya import solver
from game.scarabya.grid import SITE
from game.scarabya.ruins import BOARD, PIECES, RuinsState
from game.scarabya.state import ScarabyaState
from web.platform import events
from web.platform.i18n import sentence
from web.ui import pace
from web.ui.dom import append, h

from . import anim, panels
from .board import Board, fill_site, mini_site, ruins_square, ruins_still, site_square, with_last
from .context import HINT_BUDGET_MS, RUINS_HINT_LEVEL, Page, is_you, seat_name, why_not
from .input import bind, controls
from .piece import mission_card, ruins_hand


class ScarabyaUI:
    GAME = "scarabya"
    MIN_PLAYERS = 1
    MAX_PLAYERS = 4
    LEVELS: tuple[int, ...] = (1, 2, 3, 4)
    PRIVATE = False  # every site is on the table

    # --- new game -------------------------------------------------------------------------------
    def options_form(self, page: Page) -> tuple[Any, Callable[[int], dict[str, Any]]]:
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
    def computer(self, page: Page, level: int) -> Generator[None, None, str]:
        # the search works on a copy, so a ghost preview (push + pop) can never meet it half-way
        return (yield from solver.think(page.session.state.copy(), level))

    def computer_waits(self, page: Page) -> bool:
        """Computers' placements in a row are shown one after another (``web.ui.pace``)."""
        return pace.waits(page, page.session.state, [seat.computer for seat in page.session.seats])

    # --- announcements -------------------------------------------------------------------------
    def announce(self, page: Page, move_text: str, result: Any) -> str:
        """The placement in words (``web.platform.events``): the tile and square, the areas closed
        and their points; in the Ruins the piece and, at a round's end, the zones won."""
        state = page.session.state
        if not isinstance(result, dict):
            return move_text
        said = events.session_event(page.t, "scarabya", page.session, result).text
        if isinstance(state, RuinsState):
            if result.get("scored"):
                page.selection["ruins_scored"] = {"n": len(state.history()), "scored": result["scored"]}
        elif not result.get("discarded"):
            page.selection["scored"] = {"seat": result["seat"], "n": len(state.history()), "areas": result["areas"]}
        if state.is_over():
            panels.record_best(page)
        page.selection["said"] = {"n": len(state.history()), "text": said}
        return str(said)

    def why_not(self, page: Page, text: str) -> str:
        return why_not(page, text)

    # --- drawing -------------------------------------------------------------------------------
    def render(self, page: Page) -> Any:
        state = page.session.state
        pace.drawn(page, len(state.history()))  # a computer's placement after it waits its time
        if isinstance(state, RuinsState):
            return self.render_ruins(page, state)
        return self.render_classic(page, state)

    def active_seat(self, page: Page) -> int | None:
        """The seat a person places for now, if any."""
        s = page.session
        if s.state.is_over() or page.thinking or s.computer_to_move():
            return None
        return int(s.state.to_move())

    def show_hint(self, page: Page) -> None:
        if not page.hint_taken():  # a game between devices counts it, or refuses it in words
            return
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
            anim.show_ghost(node)

    def preview(self, state: ScarabyaState, text: str) -> dict[str, Any]:
        """What the engine says this placement would do now (played and at once taken back)."""
        result = state.push(state.parse_move(text))
        state.pop()
        return result

    # --- classic ---------------------------------------------------------------------------------
    def render_classic(self, page: Page, state: ScarabyaState) -> Any:
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
        spots: dict[str, tuple[int, int]] = {}
        if placing and tile:
            for k, anchor, mask in state.placements():
                legal[(tile, mask)] = text = f"{tile}{k}@{SITE.name(anchor)}"
                spots[text] = (k, anchor)
        cache: dict[str, tuple[str, str]] = {}

        def describe(text: str) -> tuple[str, str]:
            if text not in cache:
                res = self.preview(state, text)
                cache[text] = (f"+{res['points']}", sentence(panels.areas_sentence(page, res["areas"], res["covered_symbols"])))
            return cache[text]

        label = t.form("scarabya.site.of", you=is_you(page, site), name=seat_name(page, site))
        board = Board(page, SITE, label, placing, tile if placing else None, legal, describe, spots=spots)
        sdata = v["sites"][site]
        last = anim.last_classic(v)
        fill_site(board, t, sdata, anim.fresh_areas(page, site), latest=anim.latest_tile(sdata),
                  last=last.squares if last is not None and last.seat == site else frozenset())
        mission, board.card = mission_card(page, v, placing)
        inputs = bind(board)

        # whose turn, and what to do
        turn = None
        if not v["over"]:
            mover = v["to_move"]
            turn = h("p", {"class": "sy-turn", "id": "sy-turn",
                           "text": page.halted() or t.form("play.turn", you=is_you(page, mover),
                                                           name=seat_name(page, mover))})
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
                                     "text": t.form("scarabya.view.mine", you=is_you(page, active_seat),
                                                   name=seat_name(page, active_seat)),
                                     "on_click": lambda _e: self.view_site(page, active_seat)}, scope=page.view_scope))

        hint_reason = ""
        hint = page.selection.get("hint")
        if placing and hint and hint.get("n") == len(state.history()):
            if hint["move"] == "-":
                hint_reason = t("scarabya.must.discard", tile=tile)
            else:
                res = self.preview(state, hint["move"])
                said = panels.areas_sentence(page, res["areas"], res["covered_symbols"])
                hint_reason = sentence(said) if said else t("scarabya.reason.quiet")
                if hint.get("expected") is not None:
                    later = float(hint["expected"]) - res["points"]
                    amount = f"{later:.1f}".replace(".", "," if t.lang == "it" else ".")
                    hint_reason += " " + t.plural("scarabya.reason.later", len(state.remaining_tiles()),
                                                  points=amount)

        # the working set (docs/web.md "Layout"): head, board, hand; the rest in the drawer
        # the end under the board, in the hand's place: the board keeps its place (issue 26)
        head = h("div", {"class": "game-head sy-main"},
                 self.other_sites(page, state, v, last, site),
                 turn, panels.said_box(page), page.scoreline([s["score"] for s in v["sites"]], panels.last_summary(page, v, None, None)),
                 page.message_line(), discard, viewing)
        board_box = h("div", {"class": "game-board sy-board-box"},
                      h("div", {"class": "sy-site-head"},
                        h("h2", {"text": label}),
                        h("span", {"class": "sy-site-score",
                                   "text": t.plural("scarabya.site.score", sdata["score"], found=sdata["symbols_scored"])})),
                      board.node, board.status)
        # the action row in every state (disabled while nobody here places): rotate, flip, Place,
        # Hint and the game's toolbar with Take back
        if not v["over"] and page.halted() is not None:
            # resigned, or a game between devices ended or stopped: no card to place, no controls
            hand = h("div", {"class": "game-hand sy-hand"}, page.toolbar())
        else:
            hand = h("div", {"class": "game-hand sy-hand"}, panels.end_screen(page, v) if v["over"] else mission,
                     controls(page, inputs, panels.hint_button(page, placing, lambda: self.show_hint(page))
                              if getattr(page, "hints_allowed", lambda: True)() else None,
                              page.toolbar()) if not v["over"] else page.toolbar(),
                     panels.hint_box(page, hint_reason) if placing else None)
        more = page.drawer(panels.sites_panel(page, v, site, lambda i: self.view_site(page, i)),
                           panels.supply_panel(page, v), panels.last_panel(page, v))
        return h("section", {"class": "sy-game game-layout", "data-variant": "classic", **panels.marks(state, v)},
                 panels.title(page), head, board_box, hand, more)

    def other_site(self, page: Page, v: dict[str, Any], last: anim.LastPlacement | None, site: int) -> Any:
        """The game's last placement when it lies on another site than the one shown (the computer's,
        or the previous person's): that site in small, the placement outlined; a tap shows it."""
        if last is None or last.seat == site:
            return None
        name = seat_name(page, last.seat)
        return h("button", {"type": "button", "class": "sy-other", "id": "sy-other",
                            "data-seat": str(last.seat), "data-move": last.move,
                            "on_click": lambda _e: self.view_site(page, last.seat)},
                 mini_site(page.t, v["sites"][last.seat], last.squares),
                 h("span", {"class": "sy-other-text", "text": page.t("scarabya.last.move", name=name, move=last.move)}),
                 h("span", {"class": "visually-hidden", "text": " — " + page.t("scarabya.view.site", name=name)}),
                 scope=page.view_scope)

    def other_sites(self, page: Page, state: ScarabyaState, v: dict[str, Any], last: anim.LastPlacement | None,
                    site: int) -> Any:
        """The corner: the game's last placement on another site (``other_site``) or, after several
        computers' placements in a row since the person's (``web.ui.pace.run``), each of them until the
        person's turn: a row of small sites, each placement outlined and numbered in the order played
        ("the computers' placement 2 of 3"); a tap shows that site (issue 26)."""
        run = anim.run_classic(state, pace.run(state, [seat.computer for seat in page.session.seats]))
        if len(run) < 2:
            return self.other_site(page, v, last, site)
        t = page.t
        row = h("div", {"class": "sy-other sy-run", "id": "sy-run"})
        for k, p in enumerate(run):
            name = seat_name(page, p.seat)
            said = sentence(t("scarabya.sq.run", n=k + 1, of=len(run))).rstrip(".")

            def view(_e: Any, seat: int = p.seat) -> None:
                self.view_site(page, seat)

            append(row, h("button", {"type": "button", "class": "sy-run-item", "id": f"sy-run-{k + 1}",
                                     "data-seat": str(p.seat), "data-move": p.move, "data-order": str(k + 1),
                                     "on_click": view},
                          mini_site(t, v["sites"][p.seat], p.squares),
                          h("span", {"class": "sy-run-n", "aria-hidden": "true", "text": str(k + 1)}),
                          h("span", {"class": "visually-hidden",
                                     "text": f"{said}: {name}, {p.move} — " + t("scarabya.view.site", name=name)}),
                          scope=page.view_scope))
        return row

    def view_site(self, page: Page, seat: int) -> None:
        page.selection["site"] = seat
        page.redraw()

    # --- Ruins -----------------------------------------------------------------------------------
    def render_ruins(self, page: Page, state: RuinsState) -> Any:
        t = page.t
        v = state.view()
        active_seat = self.active_seat(page)
        hand = v["hands"][v["to_move"]] if v["to_move"] is not None else []
        placements = state.placements() if active_seat is not None else []
        legal: dict[tuple[str, int], str] = {}
        spots: dict[str, tuple[int, int]] = {}
        for name, k, anchor, mask in placements:
            legal[(name, mask)] = text = f"{name}{k}@{BOARD.name(anchor)}"
            spots[text] = (k, anchor)
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
                    parts.append(t.plural("scarabya.ruins.completes", ruin["value"], zone=ruin["zone"]))
                else:
                    parts.append(t("scarabya.ruins.claims", zone=ruin["zone"], n=mine))
            return f"+{found['points']}", sentence("; ".join(parts))

        label = t("scarabya.ruins.board")
        board = Board(page, BOARD, label, active_seat is not None, piece, legal, describe, playable, spots)
        last = anim.last_ruins(v)
        # the computers' placements in a row since the person's (this round's), each marked and
        # numbered in the order played until the person's turn (web.ui.pace.run)
        run = v["pieces"][-pace.run(state, [seat.computer for seat in page.session.seats]) or len(v["pieces"]):]
        run = run if len(run) > 1 else []
        marked = {BOARD.parse_square(q) for p in run for q in p["squares"]} | (last.squares if last else frozenset())
        order = {BOARD.parse_square(min(p["squares"], key=BOARD.parse_square)): k + 1 for k, p in enumerate(run)}
        in_run = {BOARD.parse_square(q): k + 1 for k, p in enumerate(run) for q in p["squares"]}

        def piece_of(seat: int) -> str:
            return str(t.form("scarabya.sq.piece", you=is_you(page, seat), name=seat_name(page, seat)))

        for r, row in enumerate(v["rows"]):
            squares = []
            for c, ch in enumerate(row):
                sq = r * 6 + c
                square = ruins_square(t, sq, ch, zones.get(sq), piece_of)
                if sq in marked:
                    square = with_last(square, t)
                if sq in in_run:
                    square = square._replace(desc=f"{square.desc}, " + t("scarabya.sq.run", n=in_run[sq], of=len(run)))
                squares.append(square)
            board.add_row(r, squares)
        for sq, n in order.items():
            board.cells[sq].setAttribute("data-order", str(n))
        final = self.final_board(page, state, piece_of)

        pieces = None
        if active_seat is not None:
            pieces, board.card = ruins_hand(page, active_seat, hand, playable, piece,
                                            lambda n: self.pick_piece(page, n))
        elif not v["over"]:  # the person's pieces stay in view while a computer plays, none to pick
            mine = next((i for i, seat in enumerate(page.session.seats) if not seat.computer), None)
            if mine is not None:
                pieces, _card = ruins_hand(page, mine, v["hands"][mine], [], None, lambda n: None)
        inputs = bind(board)
        turn = None
        if not v["over"]:
            turn = h("p", {"class": "sy-turn", "id": "sy-turn",
                           "text": t("scarabya.ruins.turn", name=seat_name(page, v["to_move"]), round=v["round"],
                                     rounds=v["rounds"])})
        hint_reason = ""
        hint = page.selection.get("hint")
        if active_seat is not None and hint and hint.get("n") == len(state.history()):
            hint_reason = describe(hint["move"])[1] or t("scarabya.ruins.clear")
        head = h("div", {"class": "game-head sy-main"},
                 panels.end_screen(page, v) if v["over"] else None,
                 turn, panels.said_box(page), page.scoreline(list(v["scores"]), panels.last_summary(page, v, *self.ruins_last(state))),
                 page.message_line())
        # at the end the board shows the last round as its last placement left it (the round's end clears it)
        board_box = h("div", {"class": "game-board sy-board-box"},
                      final if v["over"] else board.node, None if v["over"] else board.status)
        hand_box = h("div", {"class": "game-hand sy-hand"}, pieces,
                     controls(page, inputs, panels.hint_button(page, active_seat is not None,
                                                               lambda: self.show_hint(page))
                              if getattr(page, "hints_allowed", lambda: True)() else None, page.toolbar())
                     if not v["over"] else page.toolbar(),
                     panels.hint_box(page, hint_reason) if active_seat is not None else None)
        previous = None
        if final is not None and not v["over"]:  # the round that ended last, in the side column
            previous = h("section", {"class": "panel sy-previous"}, final)
        more = page.drawer(previous, panels.ruins_zones_panel(page, v), panels.ruins_scores_panel(page, v),
                           panels.ruins_history_panel(page, v, anim.fresh_zones(page)))
        return h("section", {"class": "sy-game sy-ruins-game game-layout", "data-variant": "ruins",
                             **panels.marks(state, v)}, panels.title(page), head, board_box, hand_box, more)

    def ruins_last(self, state: RuinsState) -> tuple[int | None, str | None]:
        """Who made the game's latest placement and its move (the engine's history)."""
        history = state.history()
        if not history:
            return None, None
        before = state.copy()
        before.pop()
        return int(before.to_move()), history[-1].text()

    def final_board(self, page: Page, state: RuinsState, piece_of: Callable[[int], str]) -> Any:
        """The board of the round the latest move ended, its last placement outlined, with what each
        zone scored (None unless the latest move ended a round)."""
        t = page.t
        final = anim.final_board(state)
        if final is None:
            return None
        label = t("scarabya.ruins.final", round=final.round)
        results = h("ul", {"class": "sy-final-zones"})
        for e in final.scored:
            text = (t("scarabya.ruins.final.zone", zone=e["zone"], name=seat_name(page, e["seat"]))
                    if e["seat"] is not None else t("scarabya.ruins.final.none", zone=e["zone"]))
            append(results, h("li", {"text": f"{text}, +{e['points']}" if e["seat"] is not None else text}))
        return h("figure", {"class": "sy-final-board", "id": "sy-final-board"},
                 ruins_still(t, final.rows, final.ruins, final.last.squares, label, piece_of),
                 h("figcaption", {}, h("strong", {"text": label}), results))

    def pick_piece(self, page: Page, name: str) -> None:
        page.selection["piece"] = name
        page.selection["k"] = 0
        page.redraw()

    # ------------------------------------------------------------------ resume snapshot
    def snapshot(self, page: Page) -> dict[str, Any]:
        """The scores and (classic) the site of the seat to move, as plain data for boot.js."""
        from web.platform.snapshot import el

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
        latest = anim.latest_tile(sdata)
        rows = [el("div", "sy-row sy-head", None, el("span", "sy-lbl"),
                   *[el("span", "sy-lbl", chr(65 + c)) for c in range(SITE.width)])]
        for r, row in enumerate(sdata["rows"]):
            cells = []
            for c, ch in enumerate(row):
                sq = r * SITE.width + c
                css, text, _name = site_square(t, ch, "closed" if sq in closed else "", latest=sq in latest)
                cells.append(el("div", f"sq {css}".strip(), None, el("span", "sq-in", text) if text else None))
            rows.append(el("div", "sy-row", None, el("span", "sy-lbl", r + 1), *cells))
        label = t.form("scarabya.site.of", you=is_you(page, site), name=seat_name(page, site))
        board = el("div", "game-board sy-board-box", None,
                   el("div", "sy-site-head", None, el("h2", None, label),
                      el("span", "sy-site-score", t.plural("scarabya.site.score", sdata["score"],
                                                           found=sdata["symbols_scored"]))),
                   el("div", "sy-board", None, *rows, role="img", aria_label=label, __n=SITE.width))
        return {"page_class": "scarabya-snap", "scores": [s["score"] for s in v["sites"]], "board": board}


UI = ScarabyaUI()
