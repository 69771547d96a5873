"""The statistics page (``#/stats``): per player and game, with two SVG charts and their data as text.

Charts are drawn as SVG with classes (colours come from the theme's CSS), series are told apart by
colour *and* marker shape, and every chart has a text summary and a data table for screen readers.
The chart primitives are ``web.ui.charts``; the statistics store and the hook that records a finished
game (``record_finished``, called by the game page), ``web.platform.stats_store``.
"""

from __future__ import annotations

from typing import Any, Awaitable, Callable

from pyscript import window

from web.platform import stats
from web.platform.i18n import MINUS, signed
from web.platform.router import GAMES
from web.platform.stats_store import load, save
from web.ui.charts import H, MARKERS, PAD, W, axes, marker, scale
from web.ui.dom import by_id, download
from web.ui.mount import Mount
from web.ui.vdom import VNode, h, svg



def turn_chart(t: Any, last: dict[str, Any]) -> VNode:
    timeline: list[list[int]] = last["timeline"]
    names: list[str] = last["names"]
    n_moves = len(timeline) - 1
    low = min(0, *(min(row) for row in timeline))
    high = max(1, *(max(row) for row in timeline))
    chart = svg("svg", {"viewBox": f"0 0 {W} {H}", "class": "chart", "role": "img",
                        "aria-labelledby": "turn-chart-title turn-chart-desc"})
    summary = "; ".join(t("stats.turns.series", name=name, score=timeline[-1][i]) for i, name in enumerate(names))
    chart.append(svg("title", {"id": "turn-chart-title", "text": t("stats.turns.title")}),
           svg("desc", {"id": "turn-chart-desc", "text": summary}), *axes(high, low, t("play.score")))
    step = (W - 8 - PAD) / max(1, n_moves)
    for i, _name in enumerate(names):
        points = [(PAD + k * step, scale(row[i], low, high)) for k, row in enumerate(timeline)]
        css = f"series series-{i}"
        chart.append(svg("polyline", {"points": " ".join(f"{x:.1f},{y:.1f}" for x, y in points),
                                       "class": css, "fill": "none"}))
        every = max(1, len(points) // 12)
        for x, y in points[::every] + [points[-1]]:
            chart.append(marker(MARKERS[i % 4], x, y, f"marker series-{i}"))
    legend = h("ul", {"class": "legend"}, *[
        h("li", {}, svg("svg", {"viewBox": "0 0 16 16", "width": "16", "height": "16", "aria-hidden": "true"},
                        marker(MARKERS[i % 4], 8, 8, f"marker series-{i}")), f" {name}")
        for i, name in enumerate(names)])
    table = h("table", {"class": "data"},
              h("thead", {}, h("tr", {}, h("th", {"text": t("stats.move")}), *[h("th", {"text": n}) for n in names])),
              h("tbody", {}, *[h("tr", {}, h("td", {"text": str(k)}), *[h("td", {"text": str(v)}) for v in row])
                               for k, row in enumerate(timeline)]))
    game = t(f"game.{last['game']}.name")
    return h("figure", {"class": "chart-figure", "id": "turn-chart"},
             h("figcaption", {"text": f"{t('stats.turns.title')} — {game}"}), chart, legend,
             h("p", {"class": "muted", "text": summary}),
             h("details", {}, h("summary", {"text": t("stats.data")}), table))


def results_chart(t: Any, name: str, game: str, results: list[dict[str, Any]]) -> VNode:
    low = min(0, *(r["score"] for r in results))
    high = max(1, *(r["score"] for r in results))
    chart = svg("svg", {"viewBox": f"0 0 {W} {H}", "class": "chart", "role": "img",
                        "aria-labelledby": f"results-{game}-title results-{game}-desc"})
    counts = {k: sum(1 for r in results if r["result"] == k) for k in ("win", "shared", "loss", "draw")}
    desc = t("stats.results.desc", n=len(results), win=counts["win"] + counts["shared"], loss=counts["loss"],
             draw=counts["draw"])
    unverified = sum(1 for r in results if r["result"] == "unverified")
    if unverified:  # games by links whose result nobody could check (web.platform.stats)
        desc = f"{desc} {t.plural('stats.results.unverified', unverified)}"
    chart.append(svg("title", {"id": f"results-{game}-title", "text": t("stats.results.title", name=name)}),
           svg("desc", {"id": f"results-{game}-desc", "text": desc}), *axes(high, low, t("play.score")))
    slot = (W - 8 - PAD) / max(1, len(results))
    zero = scale(0, low, high)
    for k, r in enumerate(results):
        y = scale(r["score"], low, high)
        x = PAD + k * slot + slot * 0.15
        chart.append(svg("rect", {"x": f"{x:.1f}", "y": f"{min(y, zero):.1f}", "width": f"{slot * 0.7:.1f}",
                                   "height": f"{max(1.0, abs(zero - y)):.1f}", "class": f"bar {r['result']}"}))
        # The result's letter over each bar: not told by colour alone.
        chart.append(svg("text", {"x": f"{x + slot * 0.35:.1f}", "y": f"{min(y, zero) - 3:.1f}", "class": "bar-label",
                                   "text-anchor": "middle", "text": t(f"stats.letter.{r['result']}")}))
    table = h("table", {"class": "data"},
              h("thead", {}, h("tr", {}, h("th", {"text": "#"}), h("th", {"text": t("play.score")}),
                               h("th", {"text": t("stats.result")}))),
              h("tbody", {}, *[h("tr", {}, h("td", {"text": str(k + 1)}), h("td", {"text": signed(r["score"], plus=False)}),
                                 h("td", {"text": t(f"stats.result.{r['result']}")})) for k, r in enumerate(results)]))
    return h("figure", {"class": "chart-figure"},
             h("figcaption", {"text": f"{t('stats.results.title', name=name)} — {t(f'game.{game}.name')}"}), chart,
             h("p", {"class": "muted", "text": desc}), h("details", {}, h("summary", {"text": t("stats.data")}), table))


def game_table(t: Any, games: dict[str, Any]) -> VNode:
    rows = []
    for game in GAMES:
        g = games.get(game)
        if not g:
            continue
        extra = {"scarabeo": t("stats.extra.scarabeo", best=g["best_play"], bonuses=g["bonuses"]),
                 "scarabya": t("stats.extra.scarabya", digs=g["perfect_digs"]),
                 "thot": t("stats.extra.thot", margin=g["best_margin"])}[game]
        rows.append(h("tr", {}, h("th", {"scope": "row", "text": t(f"game.{game}.name")}),
                      *[h("td", {"text": signed(v, plus=False)})
                        for v in (g["played"], g["won"], g["lost"], g["drawn"], g["best"])],
                      h("td", {"text": f"{stats.mean(g):.1f}".replace("-", MINUS)}),  # one minus sign
                      h("td", {"text": extra})))
    head = [t(k) for k in ("stats.played", "stats.won", "stats.lost", "stats.drawn", "stats.best", "stats.mean",
                           "stats.extra")]
    table = h("table", {"class": "scores stats-table"},
              h("thead", {}, h("tr", {}, h("th", {"text": t("stats.game")}), *[h("th", {"text": x}) for x in head])),
              h("tbody", {}, *rows))
    return h("div", {"class": "stats-table-wrap", "tabindex": "0", "role": "region", "aria-label": t("stats.title")},
             table)


def view(app: Any) -> None:
    """The page as a view tree (web/ui/vdom.py), drawn again after each of its handlers."""
    mounted: list[Mount] = []  # the page's dialogs open over it: asked once it is drawn
    mounted.append(Mount(app.root, lambda: page(app, lambda *a: mounted[0].ask(*a)), app.scope))


def page(app: Any, ask: Callable[..., Awaitable[tuple[str | None, str]]]) -> VNode:
    t = app.t
    data = load(app)
    players = sorted(data["players"].values(), key=lambda p: p["name"].casefold())
    section = h("section", {"class": "stats-page"}, h("h1", {"text": t("stats.title")}))

    async def do_import(_e: Any) -> None:
        file_input = by_id("stats-import-file")
        files = file_input.files
        if not files or files.length == 0:
            return
        text = str(await files.item(0).text())
        file_input.value = ""
        try:
            merged = stats.import_stats(load(app), text)
        except ValueError as err:
            app.toast(t("stats.import.failed", reason=err), error=True)
            return
        if save(app, merged):
            app.render()
            app.toast(t("stats.imported"))

    section.append(h("div", {"class": "row"},
                     h("button", {"type": "button", "id": "stats-export", "text": t("stats.export"),
                                  "on_click": lambda _e: download("scarab-statistics.json", stats.dumps(load(app)))}),
                     h("button", {"type": "button", "id": "stats-import", "text": t("stats.import"),
                                  "on_click": lambda _e: by_id("stats-import-file").click()}),
                     h("input", {"type": "file", "accept": ".json,application/json", "id": "stats-import-file",
                                 "hidden": True, "on_change": do_import})))
    try:  # today's challenge: streaks and history (web/pages/daily.py); never breaks the page
        from web.pages import daily

        section.append(daily.stats_section(app))
    except Exception as err:
        window.console.warn(f"daily statistics: {err!r}")
    if data["last_game"]:
        section.append(turn_chart(t, data["last_game"]))
    if not players:
        section.append(h("p", {"class": "muted", "text": t("stats.empty")}))
        return section
    chosen = str(app.route.query.get("player") or players[0]["name"])
    current = data["players"].get(stats.player_key(chosen)) or players[0]

    def pick(event: Any) -> None:
        from urllib.parse import quote

        app.navigate(f"#/stats?player={quote(str(event.value))}")

    async def reset(_e: Any) -> None:
        choice, _ = await ask(t("stats.reset"), h("p", {"text": t("stats.reset.confirm", name=current["name"])}),
                              [("cancel", t("dialog.cancel"), ""), ("reset", t("stats.reset"), "danger")])
        if choice == "reset":
            fresh = load(app)
            stats.reset_player(fresh, current["name"])
            if save(app, fresh):
                app.navigate("#/stats")
                app.render()

    picker = h("select", {"id": "stats-player", "aria-label": t("stats.player"), "on_change": pick},
               [h("option", {"value": p["name"], "text": p["name"], "selected": p is current}) for p in players])
    section.append(h("div", {"class": "row"}, h("label", {"for": "stats-player", "text": t("stats.player")}), picker,
                     h("button", {"type": "button", "class": "danger", "id": "stats-reset", "text": t("stats.reset"),
                                  "on_click": reset})),
                   h("h2", {"text": current["name"]}), game_table(t, current["games"]))
    for game in GAMES:
        g = current["games"].get(game)
        if g and g["results"]:
            section.append(results_chart(t, current["name"], game, g["results"]))
    return section
