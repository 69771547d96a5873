"""The page's panels around the board: the last move in words, the hint, sites and scores, the token
supply, the latest placements, the Ruins zones, scores and history, the end screen, and the solo best
scores this browser keeps."""

from __future__ import annotations

import json
from typing import Any, Callable

from pyscript import window

from game.core import safejson
from game.scarabya.state import ScarabyaState
from web.platform import events, router
from web.platform.storage import StorageError
from web.ui.dom import append, h

from .board import zone_label
from .context import BEST_KEEP, BEST_KEY, Page, is_you, seat_name


# --- solo best scores -----------------------------------------------------------------------------
def read_best(page: Page) -> list[dict[str, Any]]:
    try:
        data = safejson.loads(page.app.store.kv.get(BEST_KEY) or "{}")
    except ValueError:
        return []
    games = data.get("games", []) if isinstance(data, dict) else []
    if not isinstance(games, list):
        return []
    return [g for g in games if isinstance(g, dict) and safejson.is_safe_int(g.get("score"))
            and safejson.is_safe_int(g.get("when", 0))]


def record_best(page: Page) -> None:
    """Keep a finished solo game among this browser's best (once per save)."""
    session = page.session
    state = session.state
    if not isinstance(state, ScarabyaState) or state.num_players != 1 or session.seats[0].computer:
        return
    if "daily" in session.meta:  # a daily challenge has its own results, never among the solo bests
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


# --- words ----------------------------------------------------------------------------------------
def cells_word(page: Page, size: int) -> str:
    return str(page.t.plural("scarabya.cells", size))


def areas_sentence(page: Page, areas: list[dict[str, Any]], covered: list[str]) -> str:
    t = page.t
    parts = []
    for a in areas:
        n = len(a["symbols"])
        if n:
            parts.append(t.plural("scarabya.reason.area", n, size=a["size"], cells=cells_word(page, a["size"])))
        else:
            parts.append(t("scarabya.reason.empty", size=a["size"], cells=cells_word(page, a["size"])))
    if covered:
        parts.append(t.plural("scarabya.reason.covers", len(covered)))
    return "; ".join(parts)


def symbols_words(page: Page, symbols: str) -> str:
    return ", ".join(page.t(f"scarabya.ruins.sym.{c}") for c in symbols)


# --- the working set's lines ------------------------------------------------------------------------
def title(page: Page) -> Any:
    """The page's level-one heading, for screen readers (the board is the visible title)."""
    return h("h1", {"class": "visually-hidden", "id": "sy-title", "text": page.t("game.scarabya.name")})


def marks(state: Any, v: dict[str, Any]) -> dict[str, str]:
    """Where the game stands, as data attributes (for tests and styles)."""
    return {"data-round": str(v["round"]), "data-over": "1" if v["over"] else "0",
            "data-moves": str(len(state.history())), "data-players": str(v["players"]),
            "data-to-move": "" if v["to_move"] is None else str(v["to_move"])}


def said_box(page: Page) -> Any:
    """The last move in words, on show until the next one (the next person may not have watched)."""
    said = page.selection.get("said")
    if not said or said.get("n") != len(page.session.state.history()):
        return None
    return h("p", {"class": "sy-said", "id": "sy-said", "text": said["text"]})


def last_summary(page: Page, v: dict[str, Any], last_seat: int | None, last_move: str | None) -> str | None:
    """The last move for the score strip, in words (``web.platform.events``): the last placement
    played again on a copy, so it survives a reload."""
    state = page.session.state
    if not state.history():
        return None
    replay = state.copy()
    return events.session_event(page.t, "scarabya", page.session, replay.push(replay.pop())).text


def hint_button(page: Page, active: bool, on_hint: Callable[[], None]) -> Any:
    """Always drawn (nothing moves under the finger), disabled while nobody here places."""
    return h("button", {"type": "button", "id": "sy-hint", "text": page.t("play.hint"), "disabled": not active,
                        "on_click": lambda _e: on_hint()}, scope=page.view_scope)


def hint_box(page: Page, reason: str) -> Any:
    hint = page.selection.get("hint")
    if not hint or hint.get("n") != len(page.session.state.history()):
        return None
    t = page.t
    return h("div", {"class": "panel sy-hint", "id": "sy-hint-box", "role": "status", "data-ms": str(hint["ms"]),
                     "data-move": hint["move"]},
             h("h2", {"text": t("scarabya.hint.title", move=hint["move"], points=hint["points"])}),
             h("p", {"text": reason}),
             h("p", {"class": "muted", "text": t("scarabya.hint.time", ms=hint["ms"])}))


# --- classic panels ---------------------------------------------------------------------------------
def sites_panel(page: Page, v: dict[str, Any], site: int, view_site: Callable[[int], None]) -> Any:
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
                              # the visible name first ("You: View your site"), as WCAG 2.5.3 asks
                              "aria-label": (f"{name}: " if is_you(page, i) else "")
                              + t.form("scarabya.view.site", you=is_you(page, i), name=name),
                              "on_click": lambda _e, i=i: view_site(i)},
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
                           "text": t.plural("scarabya.best.so.far", int(games[0]["score"]))})
    return h("section", {"class": "panel sy-sites", "aria-labelledby": "sy-sites-title"},
             h("h2", {"id": "sy-sites-title", "text": t("scarabya.sites")}), table, best)


def supply_panel(page: Page, v: dict[str, Any]) -> Any:
    t = page.t
    row = h("ul", {"class": "sy-supply", "aria-label": t("scarabya.supply")})
    for value in ("1", "2", "3", "4"):
        left = v["tokens_left"][value]
        append(row, h("li", {"aria-label": t("scarabya.supply.item", value=value, n=left)},
                      h("span", {"class": f"tok v{value}", "text": value}),
                      h("span", {"class": "sy-count", "text": f"×{left}"})))
    return h("section", {"class": "panel", "aria-labelledby": "sy-supply-title"},
             h("h2", {"id": "sy-supply-title", "text": t("scarabya.supply")}), row)


def last_panel(page: Page, v: dict[str, Any]) -> Any:
    """Each seat's latest placement and the tokens it earned (new ones animate)."""
    t = page.t
    items = h("ul", {"class": "sy-last", "data-move-list": "", "tabindex": "-1", "aria-labelledby": "sy-last-title"})
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


# --- Ruins panels -----------------------------------------------------------------------------------
def ruins_zones_panel(page: Page, v: dict[str, Any]) -> Any:
    t = page.t
    if not v["ruins"]:
        return None
    ruins_list = h("ul", {"class": "sy-ruins"})
    for ruin in v["ruins"]:
        holders = ", ".join(seat_name(page, q) for q in ruin["covered_by"]) or t("scarabya.ruins.nobody")
        append(ruins_list, h("li", {"class": f"z{ruin['zone']}"},
                             # the label the board shows on the zone, beside what it means
                             h("span", {"class": "mono", "text": zone_label(t, ruin)}), " ",
                             h("strong", {"text": t("scarabya.ruins.zone", zone=ruin["zone"],
                                                    symbols=symbols_words(page, ruin["symbols"]),
                                                    points=ruin["value"])}),
                             h("span", {"class": "muted", "text": " — " + holders})))
    return h("section", {"class": "panel"}, h("h2", {"text": t("scarabya.ruins.tiles")}), ruins_list)


def ruins_scores_panel(page: Page, v: dict[str, Any]) -> Any:
    scores = h("table", {"class": "scores"})
    for i, score in enumerate(v["scores"]):
        append(scores, h("tr", {"class": "to-move" if v["to_move"] == i else None},
                         h("th", {"scope": "row"}, h("span", {"class": f"seat-dot seat-{i}"}), seat_name(page, i)),
                         h("td", {"text": str(score)})))
    return h("section", {"class": "panel"}, h("h2", {"text": page.t("play.score")}), scores)


def ruins_history_panel(page: Page, v: dict[str, Any], fresh: set[tuple[int, int]]) -> Any:
    t = page.t
    if not v["scored"]:
        return None
    history = h("ul", {"class": "sy-scored"})
    for e in v["scored"]:
        who = seat_name(page, e["seat"]) if e["seat"] is not None else t("scarabya.ruins.nobody")
        append(history, h("li", {"class": "fresh" if (e["round"], e["zone"]) in fresh else None,
                                 "text": t("scarabya.ruins.scored", round=e["round"], zone=e["zone"],
                                           name=who, points=e["points"])}))
    return h("section", {"class": "panel"}, h("h2", {"text": t("scarabya.ruins.history")}), history)


# --- the end ----------------------------------------------------------------------------------------
def end_screen(page: Page, v: dict[str, Any], board: Any = None) -> Any:
    """The result (winner or tie and the ranking; solo: the score, scarabs found, best scores), then —
    Ruins — ``board``, the last round's final board, and the way on: a new game, the game's review
    (``#end-review``) and the chooser."""
    t = page.t
    save = getattr(page.session, "save", None)  # the review's still page draws positions of no save
    outcome = v["outcome"] or {}
    winners = outcome.get("winners", [])
    scores = v["scores"]
    players = v["players"]
    body = h("div", {})
    if players == 1:
        site = v["sites"][0] if "sites" in v else None
        # the one name the header shows too ("You", or the name typed): never "Player 1" above and "You" here
        append(body, h("p", {"class": "sy-final", "text": t.form("scarabya.end.solo", you=is_you(page, 0),
                                                               n=scores[0], name=seat_name(page, 0))}))
        if site is not None:
            append(body, h("p", {"text": t("scarabya.end.found", n=site["symbols_scored"])}))
            if site["perfect_dig"]:
                append(body, h("p", {"class": "sy-perfect", "text": t("scarabya.end.perfect")}))
        best = read_best(page)
        if best:
            mine = save.id if save is not None else None
            top = best[0]
            if top.get("save") == mine:
                append(body, h("p", {"class": "sy-newbest", "text": t("scarabya.best.new")}))
            lst = h("ol", {"class": "sy-best", "aria-label": t("scarabya.best")})
            for g in best[:5]:
                when = page.app.when(int(g.get("when", 0)), date_only=True)  # the site's one date format
                append(lst, h("li", {"class": "mine" if g.get("save") == mine else None,
                                     "text": t.plural("scarabya.best.item", int(g["score"]), date=when)}))
            append(body, h("h3", {"text": t("scarabya.best")}), lst)
    else:
        if len(winners) == 1:
            append(body, h("p", {"class": "sy-final",
                                 "text": events.winner_line(t, "scarabya", page.session.seats, winners[0])}))
        else:
            names = events.join(t, [seat_name(page, w) for w in winners])
            append(body, h("p", {"class": "sy-final", "text": t("scarabya.end.tie", names=names)}))
        ranking = h("ol", {"class": "sy-ranking"})
        for i in sorted(range(players), key=lambda i: -scores[i]):
            append(ranking, h("li", {"text": t.plural("scarabya.end.rank", scores[i], name=seat_name(page, i))}))
        append(body, ranking)
    return h("section", {"class": "panel sy-end", "id": "sy-end", "role": "region",
                         "aria-labelledby": "sy-end-title"},
             h("h2", {"id": "sy-end-title", "text": t("play.over")}), body,
             getattr(page, "hints_line", lambda: None)(), board,  # a game between devices that allows hints
             h("div", {"class": "row"}, getattr(page, "rematch_button", lambda: None)(),
               h("a", {"class": "button", "href": "#/scarabya/new", "id": "sy-again",
                       "text": t("play.again")}),
               h("a", {"class": "button", "id": "end-review", "text": t("review.button"),
                       "href": router.href("scarabya", "review", save.id)}) if save is not None else None,
               h("a", {"class": "button", "href": "#/", "text": t("nav.back")})))
