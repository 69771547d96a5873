"""The panels around the board: the new-game options, whose turn, the players and their
collections, the computer's last search, the move log, the key, the ankh's drop panel, the hint
button, and the end of the game (with the team totals and a link to the review).

Texts only from the engine's view and history; counts go through ``t.plural`` ("1 punto", "2 punti").
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Callable

from pyscript import document

from game.thot.board import MARKED, VALUE
from game.thot.moves import ThotMove
from game.thot.notation import scarab_text
from web.games.thot import computer, input as controls
from web.games.thot.context import cell_text, state_of
from web.platform import events, router
from web.platform.i18n import signed
from web.ui.dom import append, h

if TYPE_CHECKING:
    from game.thot.state import ThotState
    from web.ui.context import PlayPage

#: The team game needs exactly this many players (1+2 against 3+4).
TEAM_PLAYERS = 4


# --- new game ---------------------------------------------------------------------------------------
def options_form(page: PlayPage) -> tuple[Any, Callable[[int], dict[str, Any]]]:
    """Short game, turn-off variant, teams. Teams is offered only with 4 players: with another count
    its box is disabled (unticked) and a line says why; it follows the form's player count (#players)."""
    t = page.t
    boxes: dict[str, Any] = {}
    box = h("fieldset", {"class": "thot-options"}, h("legend", {"text": t("play.options")}))
    for key in ("short", "turnoff", "teams"):
        help_id = f"thot-{key}-help"
        described = help_id + (" thot-teams-why" if key == "teams" else "")
        field = h("input", {"type": "checkbox", "id": f"thot-{key}", "name": key, "aria-describedby": described})
        boxes[key] = field
        append(box, h("label", {"class": "choice", "for": f"thot-{key}"}, field, t(f"thot.option.{key}")))
        append(box, h("p", {"class": "muted thot-help", "id": help_id, "text": t(f"thot.option.{key}.help")}))
    why = h("p", {"class": "thot-help thot-why", "id": "thot-teams-why", "text": t("thot.option.teams.why")})
    append(box, why)
    teams = boxes["teams"]

    def follow(players: int) -> None:
        allowed = players == TEAM_PLAYERS
        if not allowed:
            teams.checked = False
        teams.disabled = not allowed
        why.hidden = allowed

    def on_change(event: Any) -> None:
        target = event.target
        if target and str(target.id) == "players":
            follow(int(target.value))

    # the player count is the shared form's (web/pages/play.py), drawn next to this box: listen on the page
    page.scope.on(document, "change", on_change)
    follow(max(page.ui.MIN_PLAYERS, 2))  # the shared form's first count

    def read(players: int) -> dict[str, Any]:
        options = {"players": players, **{k: bool(f.checked) for k, f in boxes.items()}}
        if options["teams"] and players != TEAM_PLAYERS:
            raise ValueError(t("thot.option.teams.needs4"))
        return options

    return box, read


# --- the head ------------------------------------------------------------------------------------------
def status(page: PlayPage, view: dict[str, Any]) -> str:
    t = page.t
    if view["over"]:  # the result in the line that said whose turn it was
        return f"{t('play.over')} — {headline(page, view)}"
    halted = page.halted()
    if halted is not None:
        return halted
    assert page.session is not None
    mover = view["to_move"]
    name = events.seat_names(t, "thot", page.session.seats)[mover]
    you = events.you_seat(t, page.session.seats) == mover  # the daily's "Your turn", never "Tocca a Tu"
    line = t(f"thot.axis.{view['axis'] or 'any'}", square=view["priest"], row=view["priest"][1:],
             column=view["priest"][0])
    return f"{t.form('play.turn', you=you, name=name)} — {line}"


def last_summary(page: PlayPage, state: ThotState) -> str | None:
    """The last move as the log writes it, for the working set."""
    if not state.history():
        return None
    assert page.session is not None
    replay = state.copy()
    result = replay.push(replay.pop())
    return events.session_event(page.t, "thot", page.session, result).text


def points(t: Any, n: int) -> str:
    """ "1 punto", "2 punti", "−1 point" """
    return str(t.form("thot.points", n=n))  # the minus sign, U+2212


def team_totals(t: Any, totals: list[int]) -> str:
    """ "Squadra 1: 12 punti · Squadra 2: 1 punto" """
    return " · ".join(t("thot.team.total", n=i + 1, points=points(t, total)) for i, total in enumerate(totals))


# --- the drawer -------------------------------------------------------------------------------------
def legend(t: Any, turnoff: bool) -> Any:
    items = [("pos", "+3", "thot.legend.pos"), ("neg", "\u22123", "thot.legend.neg"),
             ("marked", "+2", "thot.legend.marked"), ("ankh", "\u2625", "thot.legend.ankh"),
             ("priest", "\u265d", "thot.legend.priest"), ("mark-legal", "", "thot.legend.legal"),
             ("mark-turn", "", "thot.legend.turn")][: None if turnoff else -1]
    out = h("ul", {"class": "thot-legend", "aria-label": t("thot.legend")})
    for css, sample, key in items:
        extra = "pos " if css == "marked" else ""
        append(out, h("li", {},
                      h("span", {"class": f"swatch thot-cell {extra}{css}", "aria-hidden": "true"},
                        h("span", {"class": "piece", "text": sample}) if sample else None,
                        h("span", {"class": "dot"}) if css.startswith("mark-") else None),
                      t(key)))
    return out


def players(page: PlayPage, view: dict[str, Any]) -> Any:
    t = page.t
    assert page.session is not None
    seats = page.session.seats
    state = state_of(page)
    box = h("section", {"class": "panel thot-players", "aria-labelledby": "thot-players-title"},
            h("h2", {"id": "thot-players-title", "text": t("thot.players")}))
    teams = view["teams"]
    names = events.seat_names(t, "thot", seats)
    for seat, who in enumerate(seats):
        current = not view["over"] and seat == view["to_move"]
        head = h("div", {"class": "thot-player-head"},
                 h("span", {"class": "thot-turn-mark", "aria-hidden": "true", "text": "\u25b6" if current else ""}),
                 h("span", {"class": "thot-name", "text": names[seat]}),
                 h("span", {"class": "muted", "text": t("thot.team", n=seat // 2 + 1) if teams else ""}),
                 h("span", {"class": "thot-score", "text": points(t, view["scores"][seat])}))
        codes = sorted(state.collection(seat), key=lambda c: (VALUE[c], MARKED[c]), reverse=True)
        chips = h("ul", {"class": "thot-chips", "aria-label": t.form("thot.collection.of", you=events.you_seat(t, page.session.seats) == seat,
                                                                    name=names[seat])})
        for code in codes:
            value = VALUE[code]
            label = signed(value) + (" " + t("thot.marked") if MARKED[code] else "")
            append(chips, h("li", {"class": "chip " + ("pos" if value > 0 else "neg") +
                                   (" marked" if MARKED[code] else ""), "aria-label": label,
                                   "text": cell_text(value)}))
        if not codes:
            append(chips, h("li", {"class": "muted", "text": t("thot.collection.empty")}))
        append(box, h("div", {"class": "thot-player" + (" to-move" if current else ""),
                              "aria-current": "true" if current else None},
                      head,
                      h("p", {"class": "visually-hidden", "text": t("thot.to_move") if current else ""}),
                      chips))
    if teams:
        append(box, h("p", {"class": "thot-teams", "text": team_totals(t, view["team_scores"])}))
    append(box, h("p", {"class": "muted", "text": t("thot.left", scarabs=view["scarabs_left"],
                                                    ankhs=view["ankhs_left"])}))
    return box


def search_info(page: PlayPage) -> Any:
    info = computer.saved_search(page)  # the reply's, while it is the last move (not after a take-back)
    if not info:
        return None
    t = page.t
    return h("p", {"class": "muted thot-search", "id": "thot-search", "data-depth": str(info["depth"]),
                   "data-ms": str(info["ms"]),
                   "text": t("thot.search.info", name=info["name"], depth=info["depth"],
                             positions=t.plural("thot.positions", info["nodes"]), ms=info["ms"])})


def log(page: PlayPage, state: ThotState) -> Any:
    t = page.t
    assert page.session is not None
    seats = page.session.seats
    # Latest move first, so it is in view without scrolling; ``reversed`` keeps the move numbers.
    # focusable: it scrolls, and a keyboard must be able to scroll it too
    out = h("ol", {"class": "movelog", "id": "thot-log", "reversed": True, "aria-label": t("play.log"),
                   "data-move-list": "", "tabindex": "0"})
    replay = state.copy()
    moves = []
    while replay.history():
        moves.append(replay.pop())
    moves.reverse()
    items = []
    names = events.seat_names(t, "thot", seats)
    you = events.you_seat(t, seats)
    for move in moves:
        # each move in words (web.platform.events), its notation beside it
        result = replay.push(move)
        items.append(h("li", {}, events.thot_event(t, result, names, you).text, " ",
                       h("span", {"class": "mono movelog-notation", "text": str(result["move"])})))
    append(out, *reversed(items))
    if not moves:
        append(out, h("li", {"class": "muted", "text": t("thot.log.empty")}))
    return h("section", {"class": "panel"}, h("h2", {"text": t("play.log")}), out)


def hint_button(page: PlayPage, person: bool) -> Any:
    busy = bool(page.selection.get("hinting"))
    return h("button", {"type": "button", "id": "thot-hint", "text": page.t("play.hint"),
                        "disabled": not person or busy,
                        "on_click": lambda _e: asyncio.ensure_future(computer.hint(page))}, scope=page.view_scope)


# --- the end of the game --------------------------------------------------------------------------
def headline(page: PlayPage, view: dict[str, Any]) -> str:
    """Who won: "Ada wins", "Team 1 wins (Ada and Bo)", a draw."""
    t = page.t
    assert page.session is not None
    seats = page.session.seats
    result = view["result"] or {}
    detail = result.get("detail", {})
    winners = result.get("winners") or []
    shown = events.seat_names(t, "thot", seats)  # a computer by its level, in the page's language
    names = t("thot.and").join(shown[s] for s in winners) if winners else ""
    if not winners:
        return str(t("play.draw"))
    if view["teams"] and "shared" not in detail:
        return str(t("thot.end.team", n=winners[0] // 2 + 1, names=names))
    if len(winners) > 1 and "shared" in detail:
        return str(t("thot.end.shared", names=names))
    if len(winners) == 1:  # the reader's "You win", never "You wins" (``events.winner_line``)
        return events.winner_line(t, "thot", seats, winners[0])
    return str(t("thot.end.win", names=names))


def end_box(page: PlayPage, view: dict[str, Any]) -> Any:
    """Who won and why, the tie-break, the scores (and the team totals), Review and Play again."""
    t = page.t
    assert page.session is not None
    seats = page.session.seats
    state = state_of(page)
    result = view["result"] or {}
    detail = result.get("detail", {})
    tiebreak = view["tiebreak"]
    stuck = view["to_move"]  # "You have no move", never "You has no move"
    lines = [t.form("thot.end.reason." + str(result.get("reason", "no-move")),
                    you=result.get("reason", "no-move") == "no-move" and events.you_seat(t, seats) == stuck,
                    name=events.seat_names(t, "thot", seats)[stuck] if stuck is not None else "")]
    totals = detail.get("totals", view["scores"])
    if tiebreak == "draw":
        lines.append(t("thot.end.tie.draw", points=points(t, max(totals))))
    elif tiebreak:
        value = int(tiebreak)
        counts = ", ".join(
            f"{' + '.join(seats[s].name for s in side)}: {sum(state.held(s, value) for s in side)}"
            for side in state.side_seats())
        lines.append(t("thot.end.tie.break", points=points(t, max(totals)), value=tiebreak, counts=counts))
    shown = events.seat_names(t, "thot", seats)  # a computer by its level, a score with the minus sign
    scores = ", ".join(f"{shown[i]} {signed(view['scores'][i], plus=False)}" for i in range(len(seats)))
    scores_line = t("thot.end.scores", scores=scores)
    teams = h("p", {"id": "thot-end-teams", "class": "thot-teams",
                    "text": t("thot.end.teams", totals=team_totals(t, view["team_scores"]))}
              ) if view["teams"] and view.get("team_scores") else None
    save = getattr(page.session, "save", None)  # a still page (rules, review) has no save: no link
    review = h("a", {"class": "button", "id": "end-review", "href": router.href("thot", "review", save.id),
                     "text": t("review.button")}) if save is not None else None
    return h("section", {"class": "panel thot-end", "role": "status", "aria-labelledby": "thot-end-title"},
             h("h2", {"id": "thot-end-title", "text": t("play.over")}),
             h("p", {"class": "thot-headline", "id": "thot-result", "text": headline(page, view)}),
             *[h("p", {"text": line}) for line in lines],
             h("p", {"class": "thot-end-scores", "text": scores_line}), teams,
             getattr(page, "hints_line", lambda: None)(),  # a game between devices that allows hints
             h("div", {"class": "row thot-end-actions"}, getattr(page, "rematch_button", lambda: None)(), review,
               h("a", {"class": "button", "href": router.href("thot", "new"), "text": t("play.again")})))


# --- the ankh's drop ----------------------------------------------------------------------------------
def drop_box(page: PlayPage, state: ThotState) -> Any:
    sel = page.selection
    if "dest" not in sel:
        return None
    t = page.t
    chosen = sel.get("piece")
    held: dict[int, int] = {}
    for code in state.collection(state.to_move()):
        held[code] = held.get(code, 0) + 1
    chips = h("div", {"class": "thot-drop-chips", "role": "group", "aria-label": t("thot.drop.choose")})
    for code in sorted(held, key=lambda c: (VALUE[c], MARKED[c])):
        value = VALUE[code]
        label = signed(value) + (" " + t("thot.marked") if MARKED[code] else "")
        append(chips, h("button", {
            "type": "button", "id": f"thot-drop-{scarab_text(code)}",
            "class": "chip " + ("pos" if value > 0 else "neg") + (" marked" if MARKED[code] else ""),
            "aria-pressed": "true" if chosen == code else "false",
            "aria-label": t("thot.drop.piece", piece=label, n=held[code]),
            "text": f"{cell_text(value)} \u00d7{held[code]}",
            "on_click": lambda _e, code=code: controls.choose_piece(page, code)}, scope=page.view_scope))
    square = state.geo.name(sel["dest"])
    prompt = t("thot.drop.square" if chosen is not None else "thot.drop.prompt", square=square)

    def on_key(event: Any) -> None:
        if str(event.key) == "Escape":
            event.preventDefault()
            controls.cancel(page)

    return h("div", {"class": "panel thot-drop", "id": "thot-drop", "on_keydown": on_key},
             h("p", {"text": prompt}), chips,
             h("div", {"class": "row"},
               h("button", {"type": "button", "id": "thot-nodrop", "text": t("thot.drop.none"),
                            "on_click": lambda _e: controls.commit(page, ThotMove(sel["dest"], sel.get("turn")))},
                 scope=page.view_scope),
               h("button", {"type": "button", "id": "thot-cancel", "text": t("thot.cancel"),
                            "on_click": lambda _e: controls.cancel(page)}, scope=page.view_scope)),
             scope=page.view_scope)
