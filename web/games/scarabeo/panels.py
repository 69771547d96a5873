"""The panels around the board: whose turn, the hourglass line, the live preview of the tentative
play, the scores, the last move's summary, the draw for who starts, the score sheet, the bag and
the unseen tiles, the tools (hint, word check, text export), and the end of the game. Also the
engine's refusals in the player's words (``_reason``)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any


from game.scarabeo import record as sc_record
from game.scarabeo.moves import move_text as sc_move_text
from game.scarabeo.tiles import LETTERS, SCARAB
from web.platform import events, router
from web.platform.i18n import signed
from web.ui.dom import append, download, h
from game.scarabeo import table as table_rules
from game.scarabeo import wordinfo
from web.games.scarabeo.context import ViewPart, local, scarabeo_ai

if TYPE_CHECKING:
    from web.ui.context import PlayPage


class Panels(ViewPart):
    """A mixin of ``web.games.scarabeo.ScarabeoUI``: the methods this module's docstring describes (every one
    takes the game page, ``web.ui.context.PlayPage``)."""

    def _reason(self, page: PlayPage, err: Exception) -> str:
        """The engine's refusal in the player's language when its code is known, else as it is."""
        t = page.t
        code = getattr(err, "code", "")
        details = getattr(err, "details", {}) or {}
        key = f"scarabeo.err.{code}"
        if code == "invalid-words":
            words = details.get("words") or []
            return t(key + (".one" if len(words) == 1 else ".many"), words=", ".join(words))
        if code == "voted-down":
            return t(key, words=", ".join(details.get("words") or []))
        if code in ("gap", "square-taken") and details.get("square"):
            return t(key, square=details["square"])
        if code in ("first-not-centre", "not-touching", "no-word", "not-in-line", "exchange-not-allowed",
                    "challenge-pending"):
            text = t(key)
            return text if code != "exchange-not-allowed" else f"{text} ({err})"
        return str(err)

    def _words_panel(self, page: PlayPage, words: list[Any]) -> None:
        """The word panel (issue 40) for words tapped on the board, in the log or in a refusal
        (``wordinfo.BoardWord``s): whether each counts and why, who played it, when, where, for how much."""
        from web.ui import wordcheck

        t, session = page.t, page.session
        names = events.seat_names(t, "scarabeo", session.seats)
        here = getattr(session, "seat_here", None)  # a game between devices: this device's seat is "you"
        you = here if isinstance(here, int) else events.you_seat(t, session.seats)
        results = session.state.results()
        entries: list[dict[str, Any]] = []
        for w in words:
            entry: dict[str, Any] = {"word": w.word}
            found = wordinfo.played(results, w) if w.start >= 0 else None  # a refused word lies nowhere
            if found is not None:
                entry.update(by=names[found.player], you=found.player == you, turn=found.turn, points=found.points,
                             where=w.where)
            entries.append(entry)
        if entries:
            asyncio.ensure_future(wordcheck.open_words(page.app, entries))

    def _status(self, page: PlayPage, view: dict[str, Any]) -> str:
        t = page.t
        if view["over"]:
            return t("play.over")
        halted = page.halted()
        if halted is not None:
            return halted
        seats = page.session.seats
        pending = view["pending"]
        if pending and pending["kind"] == "vote":
            return t("scarabeo.status.vote", name=pending["name"])
        mover = view["to_move"]  # the daily's "Your turn", never "Tocca a Tu"
        text = t.form("play.turn", you=events.you_seat(t, seats) == mover,
                      name=events.seat_names(t, "scarabeo", seats)[mover])
        if view["first_play"]:
            text += " — " + t("scarabeo.status.first")
        return text

    def _clock_box(self, page: PlayPage, view: dict[str, Any]) -> Any:
        if not view["hourglass"] or view["over"]:
            return None
        return h("p", {"id": "sc-clock", "class": "sc-clock", "role": "timer", "aria-live": "off",
                       "text": self._clock_text(page)})

    def _clock_text(self, page: PlayPage) -> str:
        t = page.t
        state = page.session.state
        if state.timer is None:
            return ""
        c = state.timer.to_json()
        rem = max(0, int(c["remaining"] + 0.999))
        text = t("scarabeo.clock", time=f"{rem // 60}:{rem % 60:02d}")
        if c["carry_in"]:
            text += " " + t("scarabeo.clock.carry", seconds=int(c["carry_in"]))
        if not c["running"]:
            text += " " + t("scarabeo.clock.paused")
        return text

    def _slot(self, page: PlayPage, ctx: Any) -> Any:
        """The hand's one slot of reserved height, between the rack and the actions: a pending
        dispute's strip (challenge, contest or vote: the question and its buttons, over the lower
        part of the screen, never a block above the board), with the preview of tiles laid meanwhile
        under it; the computer's play
        in words while its tiles appear; else the live preview of the tiles laid."""
        session = page.session
        state = session.state
        person = not (state.is_over() or page.thinking or session.computer_to_move() or session.replay_only)
        waiting = self.dispute_waits(page)
        info = page.selection.get("ghost_info")
        if state.pending is not None and (person or waiting):
            # the decision first: tiles laid meanwhile show their preview (or why they wait) under it
            inner = h("div", {"class": "sc-slot-pair"}, self._dispute_box(page, state.view(), waiting),
                      self._preview_box(page, ctx.play, ctx.result, ctx.reason) if ctx.placed and ctx.placing else None)
        elif info:
            inner = h("div", {"class": "sc-preview", "id": "sc-preview"},
                      h("p", {"class": "sc-ghost-info", "id": "sc-ghost-info", "text": info}))
        elif ctx.placing:
            inner = self._preview_box(page, ctx.play, ctx.result, ctx.reason)
        else:
            inner = h("div", {"class": "sc-preview", "id": "sc-preview"})
        return h("div", {"class": "sc-slot", "id": "sc-slot"}, inner)

    def _preview_box(self, page: PlayPage, play: Any, result: Any, reason: str | None) -> Any:
        t = page.t
        box = h("div", {"class": "sc-preview", "id": "sc-preview", "aria-live": "polite"})
        if reason:
            box.className = "sc-preview refused"
            append(box, h("p", {"id": "sc-reason", "text": reason}))
            refused = page.selection.get("refused_words") or []
            if refused:  # each word refused opens the word panel: why it does not count
                row = h("p", {"class": "sc-word-links"})
                for word in refused:
                    append(row, h("button", {"type": "button", "class": "sc-word-link", "text": word,
                                             "aria-label": t("wordpanel.open.word", word=word),
                                             "on_click": lambda _e, word=word: self._words_panel(
                                                 page, [wordinfo.BoardWord(word, -1, True)])},
                                  scope=page.view_scope), " ")
                append(box, row)
            return box
        if result is None:
            append(box, h("p", {"class": "muted", "text": t("scarabeo.preview.none")}))
            return box
        bd = result.breakdown
        words = ", ".join(f"{w.word} {w.score}" for w in bd.words)
        extra = []
        if bd.first_play_doubled:
            extra.append(t("scarabeo.preview.doubled"))
        for b in bd.bonuses:
            reason = t(f"scarabeo.bonus.{b.code}")
            if b.reason.endswith("no scarab"):  # the engine's +10 for a main word without a scarab
                reason += ", " + t("scarabeo.bonus.noscarab")
            extra.append(t("scarabeo.preview.bonus", points=b.points, reason=reason))
        append(box, h("p", {"id": "sc-score", "class": "sc-score",
                            "text": t.plural("scarabeo.preview", bd.total, move=sc_move_text(play), words=words)}))
        if extra:
            append(box, h("p", {"class": "muted", "text": "; ".join(extra)}))
        if page.session.state.check_mode != "dictionary":
            append(box, h("p", {"class": "muted", "text": t(f"scarabeo.preview.{page.session.state.check_mode}")}))
        return box

    def _scores(self, page: PlayPage, view: dict[str, Any]) -> Any:
        t = page.t
        seats = page.session.seats
        table = h("table", {"class": "scores", "id": "sc-scores"})
        names = events.seat_names(t, "scarabeo", seats)
        for s, seat in enumerate(seats):
            current = not view["over"] and s == view["to_move"]
            # a computer named by its level says so already ("Computer (expert)")
            named = events.is_default_name(t, seat.name, s)
            who = names[s] + (" \u2014 " + t("scarabeo.computer") if seat.computer and not named else "")
            append(table, h("tr", {"class": "to-move" if current else "", "aria-current": "true" if current else None},
                            h("th", {"scope": "row", "text": ("\u25b6 " if current else "") + who}),
                            h("td", {"class": "num", "text": signed(view["scores"][s], plus=False)})))
        return h("section", {"class": "panel", "aria-labelledby": "sc-scores-title"},
                 h("h2", {"id": "sc-scores-title", "text": t("play.score")}), table)

    def _last_summary(self, page: PlayPage) -> str | None:
        """The last move in words, for the working set (``web.platform.events``)."""
        results = page.session.state.results()
        if not results:
            return None
        return events.session_event(page.t, "scarabeo", page.session, results[-1]).text

    def _draw_box(self, page: PlayPage, view: dict[str, Any]) -> Any:
        t = page.t
        seats = page.session.seats
        rounds = view["start_draw"]
        if not rounds:
            return None
        lines = []
        for i, rnd in enumerate(rounds):
            parts = []
            for d in rnd:
                tiles = " ".join("\u2605" if x == SCARAB else x for x in d["tiles"])
                parts.append(f"{seats[d['seat']].name}: {tiles}")
            lines.append(h("li", {"text": t("scarabeo.draw.round", n=i + 1, draws="; ".join(parts))}))
        box = h("details", {"class": "panel sc-draw", "id": "sc-draw", "open": not view["history"]},
                h("summary", {"text": t.form("scarabeo.draw.title", you=events.you_seat(t, seats) == view["starter"],
                                             name=seats[view["starter"]].name)}),
                h("ol", {}, *lines), h("p", {"class": "muted", "text": t("scarabeo.draw.rule")}))
        return box

    def _sheet(self, page: PlayPage, view: dict[str, Any]) -> Any:
        t = page.t
        seats = page.session.seats
        table = h("table", {"class": "sc-sheet", "id": "sc-sheet"},
                  h("thead", {}, h("tr", {}, h("th", {"text": "#"}), h("th", {"text": t("scarabeo.sheet.player")}),
                                  h("th", {"text": t("scarabeo.sheet.move")}), h("th", {"text": "+"}),
                                  h("th", {"text": t("scarabeo.sheet.total")}))))
        body = h("tbody", {})
        rows = local(page).rows
        if rows is None or local(page).rows_for is not page.session:
            rows = local(page).rows = {}
            local(page).rows_for = page.session
        # a challenge under the challenger's name, an accept as a note on the play (game.scarabeo.table.sheet);
        # each move in words (web.platform.events), its notation beside it
        state = page.session.state
        results = state.results()
        names = events.seat_names(t, "scarabeo", seats)
        you = events.you_seat(t, seats)
        for n, r in enumerate(table_rules.sheet(state)):
            note = r["note"]
            # a dispute's row says its outcome in words; a play's note says what became of it
            note_text = t(f"scarabeo.sheet.{note}") if note in ("pending", "accepted", "withdrawn") else ""
            said = events.scarabeo_event(t, results[r["index"]], names, you).text
            score = r["score"]
            key = (n + 1, names[r["seat"]], said, r["move"], note_text,
                   "" if score is None else signed(score),
                   "" if r["total"] is None else signed(r["total"], plus=False))
            row = rows.get(key)  # rows already drawn are kept: a long game's sheet is not rebuilt each move
            if row is None:
                bd = results[r["index"]].breakdown
                # each word the play formed opens the word panel (issue 40); a click on the list finds it
                words = [h("button", {"type": "button", "class": "sc-word-link", "text": w.word,
                                      "data-word": w.word, "data-start": str(w.start), "data-across": "1" if w.across else "",
                                      "aria-label": t("wordpanel.open.word", word=w.word)})
                         for w in (bd.words if bd is not None else ())]
                move_cell = h("td", {}, key[2], " ",
                              h("span", {"class": "mono sc-sheet-notation", "text": key[3]}),
                              h("span", {"class": "sc-sheet-note", "text": note_text}) if note_text else None,
                              h("span", {"class": "sc-word-links"}, *words) if words else None)
                row = rows[key] = h("tr", {"class": "sc-dispute-row" if score is None else ""},
                                    h("td", {"text": key[0]}), h("td", {"text": key[1]}), move_cell,
                                    h("td", {"class": "num", "text": key[5]}), h("td", {"class": "num", "text": key[6]}))
            body.appendChild(row)
        if not view["history"]:
            append(body, h("tr", {}, h("td", {"colspan": "5", "class": "muted", "text": t("scarabeo.sheet.empty")})))
        append(table, body)
        # focusable: it scrolls, and a keyboard must be able to scroll it too
        wrap = h("div", {"class": "sc-sheet-wrap", "id": "sc-sheet-wrap", "tabindex": "0", "role": "group",
                         "aria-label": t("play.log"), "data-move-list": "",
                         "on_click": lambda e: self._sheet_word(page, e)}, table, scope=page.view_scope)
        return h("section", {"class": "panel", "aria-labelledby": "sc-sheet-title"},
                 h("h2", {"id": "sc-sheet-title", "text": t("play.log")}), wrap)

    def _sheet_word(self, page: PlayPage, event: Any) -> None:
        """A word of the log tapped: its panel (the rows are kept between redraws, so one listener)."""
        button = event.target.closest("[data-word]")
        if button:
            self._words_panel(page, [wordinfo.BoardWord(str(button.getAttribute("data-word")),
                                                        int(button.getAttribute("data-start")),
                                                        bool(button.getAttribute("data-across")))])

    def _bag_box(self, page: PlayPage, view: dict[str, Any], viewer: int | None) -> Any:
        """The bag and the tiles not seen by the one whose rack is shown: the player to move (the
        engine's ``unseen``), the only person while the computer is to move, or nobody (racks hidden:
        the bag and every rack, so that no rack can be worked out from the board and this list)."""
        t = page.t
        state = page.session.state
        if viewer is not None and viewer == view["to_move"] and not view["over"]:
            unseen, help_text = view["unseen"], "scarabeo.unseen.help"
        else:
            # the set less the board and the viewer's rack: the engine's count, which a watched
            # game's state (its racks and bag hidden tiles) gives as well as a full one
            unseen = state.unseen_counts(viewer)
            help_text = "scarabeo.unseen.help.all" if viewer is None else "scarabeo.unseen.help.of"
        items = h("ul", {"class": "sc-unseen", "aria-label": t("scarabeo.unseen")})
        for letter in list(LETTERS) + [SCARAB]:
            n = unseen.get(letter, 0)
            if n:
                shown = "\u2605" if letter == SCARAB else letter
                label = t("scarabeo.tile.scarab") if letter == SCARAB else letter
                append(items, h("li", {"aria-label": f"{label} \u00d7{n}", "text": f"{shown}\u00d7{n}"}))
        total = sum(unseen.values())
        return h("section", {"class": "panel", "aria-labelledby": "sc-bag-title"},
                 h("h2", {"id": "sc-bag-title", "text": t.plural("scarabeo.bag", view["bag_count"])}),
                 h("p", {"class": "muted", "id": "sc-unseen-help",
                         "text": t(help_text, n=total, name=page.session.seats[viewer].name if viewer is not None else "")}),
                 items)

    def _tools(self, page: PlayPage) -> Any:
        from web.ui import wordcheck

        t = page.t
        sc = page.view_scope
        extra = [
            h("button", {"type": "button", "id": "sc-wordcheck", "text": t("wordcheck.open"),
                         "on_click": lambda _e: asyncio.ensure_future(wordcheck.open_panel(page.app))}, scope=sc),
            # the owner's own record (every rack, the seed): said so, as the backup is
            h("button", {"type": "button", "id": "sc-export-text", "text": t("scarabeo.export.text"),
                         "title": t("continue.export.backup.help"),
                         "on_click": lambda _e: self._export_text(page)}, scope=sc),
        ]
        return h("div", {"class": "sc-tools"}, page.toolbar(*extra))

    def _hint_list(self, page: PlayPage) -> Any:
        """The hints found (Hint in the action row lays the best on the board): each in words, its
        notation beside it, and a button to lay it down instead."""
        t = page.t
        hints = page.selection.get("hints")
        if not hints or not self._placing(page):
            return None
        state = page.session.state
        items = h("ol", {"class": "sc-hints", "id": "sc-hints", "aria-label": t("scarabeo.hints")})
        for k, hint in enumerate(hints):
            said = self._hint_words(page, state, hint)
            append(items, h("li", {}, h("button", {"type": "button", "class": "sc-hint-item", "id": f"sc-hint-{k}",
                                                   "aria-current": "true" if page.selection.get("hint") == k else None,
                                                   "on_click": lambda _e, k=k: self._use_hint(page, k)},
                                        h("span", {"class": "sc-hint-said", "text": said}), " ",
                                        h("span", {"class": "mono sc-hint-notation", "text": hint["move"]}),
                                        scope=page.view_scope)))
        return h("section", {"class": "panel", "aria-labelledby": "sc-hints-title"},
                 h("h2", {"id": "sc-hints-title", "text": t("scarabeo.hints")}), items)

    def _hint_words(self, page: PlayPage, state: Any, hint: dict[str, Any]) -> str:
        """A hint in words: "DOPARVI at 14H for 78 points, also DO" (the words formed besides the main one)."""
        from game.scarabeo.moves import coord_text

        t = page.t
        try:
            play = state.parse_move(hint["move"])
            word, square = str(play.word).upper(), coord_text(play.start, play.across)
        except Exception:  # a hint is the engine's own play; its notation is shown as it is otherwise
            return str(hint["move"])
        others = [w for w in hint["words"] if w.upper() != word]
        text = t("scarabeo.hint.said", word=word, square=square, points=events.points(t, int(hint["score"])))
        if others:
            text += t("scarabeo.hint.also", words=events.join(t, others))
        return text

    def _export_text(self, page: PlayPage) -> None:
        state = page.session.state
        download(f"scarabeo-{page.session.save.id}.txt", sc_record.to_text(state), "text/plain")

    def _end_box(self, page: PlayPage, view: dict[str, Any]) -> Any:
        t = page.t
        seats = page.session.seats
        outcome = view["outcome"] or {}
        detail = outcome.get("detail") or {}
        scores = list(outcome.get("scores") or view["scores"])
        winners = outcome.get("winners") or []
        shown = events.seat_names(t, "scarabeo", seats)  # a computer by its level, in the page's language
        you = events.you_seat(t, seats)
        headline = (events.winner_line(t, "scarabeo", seats, winners[0]) if len(winners) == 1
                    else t("scarabeo.end.tie", names=events.join(t, [shown[s] for s in winners])))
        closer = detail.get("closer")
        reason = t.form(f"scarabeo.end.{outcome.get('reason', 'passes')}",
                        you=closer is not None and closer == you and outcome.get("reason") == "closed",
                        name=shown[closer] if closer is not None else "")
        adj = detail.get("adjustments") or [0] * len(seats)
        racks = detail.get("final_racks") or [""] * len(seats)
        table = h("table", {"class": "scores sc-standings", "id": "sc-standings"},
                  h("thead", {}, h("tr", {}, h("th", {"text": t("scarabeo.end.player")}),
                                  h("th", {"text": t("scarabeo.end.rack")}),
                                  h("th", {"text": t("scarabeo.end.adjust")}),
                                  h("th", {"text": t("play.score")}))))
        settlement = detail.get("settlement") or {}
        order = settlement.get("order") or sorted(range(len(seats)), key=lambda s: -scores[s])
        for s in order:
            rack = racks[s] if s < len(racks) else ""
            append(table, h("tr", {}, h("th", {"scope": "row", "text": shown[s]}),
                            h("td", {"class": "mono", "text": rack.replace(SCARAB, "\u2605") or "\u2014"}),
                            h("td", {"class": "num", "text": signed(adj[s])}),
                            h("td", {"class": "num", "text": signed(scores[s], plus=False)})))
        save = getattr(page.session, "save", None)  # a position drawn for a picture has none
        pay = h("ul", {"class": "sc-settlement", "id": "sc-settlement"})
        for p in settlement.get("payments") or []:
            if p["amount"]:
                # the reader pays ("You pay …") or is paid ("… pays you"), never "You pays"
                key = ("scarabeo.end.pays.you" if p["loser"] == you else
                       "scarabeo.end.pays.to_you" if p["winner"] == you else "scarabeo.end.pays")
                append(pay, h("li", {"text": t(key, loser=shown[p["loser"]], winner=shown[p["winner"]],
                                                amount=p["amount"])}))
        # compact in the hand, where the rack was: the result and what to do next in view; the
        # standings and the settlement one tap away
        return h("section", {"class": "panel sc-end", "role": "status", "aria-labelledby": "sc-end-title"},
                 h("h2", {"id": "sc-end-title", "class": "visually-hidden", "text": t("play.over")}),
                 h("p", {"class": "sc-headline", "id": "sc-result", "text": headline}),
                 h("p", {"class": "sc-reason", "text": reason}),
                 getattr(page, "hints_line", lambda: None)(),  # a game between devices that allows hints
                 h("div", {"class": "row sc-end-actions"},
                   getattr(page, "rematch_button", lambda: None)(),  # the page's, where it offers one
                   h("a", {"class": "button primary", "id": "sc-again", "href": router.href("scarabeo", "new"),
                           "text": t("play.again")}),
                   # the game's moves with the engine's analysis, where the game ends (as in the toolbar)
                   h("a", {"class": "button", "id": "end-review", "text": t("review.button"),
                           "href": router.href("scarabeo", "review", save.id)})
                   if save is not None and getattr(page.session, "reviewable", True) else None),
                 h("details", {"class": "sc-final", "id": "sc-final"},
                   h("summary", {"text": t("scarabeo.end.details")}), table,
                   h("h3", {"text": t("scarabeo.end.settlement")}), pay))
