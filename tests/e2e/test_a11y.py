"""Accessibility, tested (issue 17): axe-core (npm, pinned, test-only — never copied into dist/) runs on
every route — the chooser empty and with saves, each game's new-game form, each game in progress against
the computer and at its end, rules pages, guided games, settings, statistics, about, not-found, the
pages of play with friends (by links and live) — in
Italian and English, light and dark, at a phone and a desktop size, and fails on any violation, naming
rule, impact and targets. An exception needs a written reason in ``ALLOWED``."""

from __future__ import annotations

import json
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import pytest

from game.core import GameRecord, Rng
from game.remote.session import Device
from tests.e2e.conftest import ROOT, SIZES
from tests.web.test_pairing import OFFER_CODE
from web.platform import engines, stats
from web.platform.remote import RemoteSession
from web.platform.storage import MemoryStore, SaveStore

pytestmark = pytest.mark.e2e

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
#: rule id → why it does not apply here. Empty: every rule holds everywhere.
ALLOWED: dict[str, str] = {}

PEOPLE_VS_COMPUTER = [{"name": "Ada"}, {"name": "Scarabot", "computer": True, "level": 1}]


def envelope(save_id: str, game: str, title: str, record: GameRecord) -> str:
    return json.dumps({"schema": 1, "id": save_id, "game": game, "title": title, "created": 1, "updated": 2,
                       "revision": 1, "state": record.to_json()})


def random_record(game: str, options: dict[str, Any], seed: int, moves: int | None) -> GameRecord:
    """Random legal moves (``moves`` of them, or to the end); the person to move when stopped early."""
    state = engines.factory(game)(options, seed)
    rng = Rng(seed)
    played = 0
    while not state.is_over() and (moves is None or played < moves or state.to_move() != 0):
        state.push(rng.choice(list(state.legal_moves())))
        played += 1
    return GameRecord.of(state, seats=PEOPLE_VS_COMPUTER, game_id=f"{game}{seed}{moves}")


def scarabeo_record(lex: Any, moves: int | None) -> GameRecord:
    """The computer's plays for both seats (a real game), stopped early or played to the end."""
    from game.scarabeo import ai
    from game.scarabeo.game import ScarabeoState

    state = ScarabeoState.from_options({"players": 2}, 5, word_list=lex)
    while not state.is_over() and (moves is None or len(state.history()) < moves):
        state.push(ai.choose(state, "beginner", lex))
    return GameRecord.of(state, seats=PEOPLE_VS_COMPUTER, game_id=f"sc{moves}")


def daily_thot_record() -> tuple[GameRecord, dict[str, Any]]:
    """The Thot puzzle of 2026-12-01 played along its perfect line, as the page saves an attempt."""
    import datetime

    from game import daily
    from game.daily import thot as dthot
    from game.thot.search import greedy_move

    p = daily.run(daily.generate_one("thot", datetime.date(2026, 12, 1)))
    state = dthot.candidate(p["seed"])
    rng = Rng(p["seed"] ^ dthot.GO_ON)
    for _ in range(p["turns_on"]):
        state.push(greedy_move(state, rng))
    start, me, base = len(state.history()), state.to_move(), list(state.view()["scores"])
    for move in p["line"]:
        state.push(state.parse_move(move))
    seats = [{"name": "You"}, {"name": "Computer", "computer": True, "level": 3}]
    meta = {"game": "thot", "date": "2026-12-01", "number": 1, "start": start, "me": me, "best": p["points"],
            "plies": p["plies"], "base": base, "top": [], "line": p["line"], "again": False}
    return GameRecord.of(state, seats=seats if me == 0 else seats[::-1], game_id="daily1", daily=meta), meta


@pytest.fixture(scope="module")
def saves(lex: Any) -> dict[str, str]:
    thot, scarabya = {"players": 2, "short": True}, {"players": 2}
    records = {
        ("thot", "thot-on"): random_record("thot", thot, 3, 4),
        ("thot", "thot-end"): random_record("thot", thot, 3, None),
        ("scarabya", "sy-on"): random_record("scarabya", scarabya, 3, 4),
        ("scarabya", "sy-end"): random_record("scarabya", scarabya, 3, None),
        ("scarabeo", "sc-on"): scarabeo_record(lex, 4),
        ("scarabeo", "sc-end"): scarabeo_record(lex, None),
    }
    out = {f"scarab:save:{sid}": envelope(sid, game, sid, rec) for (game, sid), rec in records.items()}
    out["scarab:save:broken"] = "{not a save"
    data = stats.empty()
    rec = records[("thot", "thot-end")]
    stats.record_game(data, "thot-end", "thot", ["Ada", "Scarabot"], stats.summarise(rec, engines.factory("thot")), 1)
    out[stats.STATS_KEY] = stats.dumps(data)
    # today's challenge: a finished Thot attempt (the perfect line), counted, and its streak
    rec, daily_meta = daily_thot_record()
    out["scarab:save:daily-thot"] = envelope("daily-thot", "thot", "Challenge #1", rec)
    out["scarab:daily:attempts"] = json.dumps({"version": 1, "entries": [
        {"date": "2026-12-01", "game": "thot", "number": 1, "percent": 100, "score": daily_meta["best"],
         "best": daily_meta["best"], "marks": "🟩🟩🟩", "save": "daily-thot"}]})
    # a game with a friend, Ada's invitation waiting: its page by links, and live (the pairing box)
    kv = MemoryStore()
    device, _invitation = Device.invite("thot", "Ada", 2, {"short": True})
    RemoteSession.create(SaveStore(kv, new_id=lambda: "together"), device, "Thot with a friend")
    out.update(kv.data)
    return out


#: (route, what shows it is drawn)
ROUTES = [
    ("#/", ".saves"),
    ("#/settings", ".settings"),
    ("#/stats", ".stats-page"),
    ("#/about", ".about"),
    ("#/nowhere", "main h1"),
    *[(f"#/{g}/new", "#start") for g in ("scarabeo", "thot", "scarabya")],
    *[(f"#/{g}/rules", ".rules-page") for g in ("scarabeo", "thot", "scarabya")],
    ("#/thot/play/thot-on", "#thot-board"), ("#/thot/play/thot-end", ".thot-end"),
    ("#/scarabya/play/sy-on", ".sy-game"), ("#/scarabya/play/sy-end", ".sy-game"),
    ("#/scarabeo/play/sc-on", "#sc-board"), ("#/scarabeo/play/sc-end", "#sc-result"),
    ("#/scarabya/review/sy-end", "#review"), ("#/scarabeo/review/sc-on", "#review"),
    *[(f"#/{g}/tutorial", "#tutorial") for g in ("scarabeo", "thot", "scarabya")],
    ("#/?date=2026-12-01", "#daily .daily-card"), ("#/stats?date=2026-12-01", "#daily-stats"),
    ("#/daily/scarabya?date=2026-12-01", "#daily-task"), ("#/thot/play/daily-thot", "#daily-result"),
    # playing with friends (issues 27, 28): the live form, a game by links, live, a host's code opened
    ("#/thot/live", "#remote-invite"), ("#/thot/remote/together", "#remote-status"),
    ("#/thot/live/together", "#live-offer"), (f"#/live?o={OFFER_CODE}", "#live-join"),
]


#: Every text on a board at least 11 CSS px (letter values, premium and zone labels, coordinates).
SMALL_TEXT = """() => {
  const out = [];
  for (const board of document.querySelectorAll('[role=grid], .sy-board')) {
    for (const el of board.querySelectorAll('*')) {
      const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
      if (!own || !el.getClientRects().length) continue;
      const size = parseFloat(getComputedStyle(el).fontSize);
      if (size < 11) out.push(`${el.className || el.tagName} "${el.textContent.trim().slice(0, 6)}" ${size.toFixed(1)}px`);
    }
  }
  return [...new Set(out)].slice(0, 6);
}"""


#: The rules that read colours: the dark theme changes nothing but the colours (its CSS sets colour
#: custom properties only), so in dark these are what can differ from the light run of every rule.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]


def violations(page: Any, rules: list[str] | None = None) -> list[str]:
    """axe's violations on the page as it is now (every rule, or only ``rules``)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        # evaluated rather than added as a <script>: the site's Content-Security-Policy allows eval
        # (Pyodide needs it) but no inline script, and the shared page keeps its document as it was
        page.evaluate("src => { (0, eval)(src); }", AXE.read_text(encoding="utf-8"))
    options: dict[str, Any] = {"resultTypes": ["violations"]}
    if rules:
        options["runOnly"] = {"type": "rule", "values": rules}
    found = page.evaluate("""options => axe.run(document, options).then(r => r.violations.map(v => ({
        id: v.id, impact: v.impact, help: v.help, count: v.nodes.length,
        targets: v.nodes.slice(0, 4).map(n => n.target.join(' ') + ' — ' + (n.failureSummary || '').split('\\n')[1])})))""",
                          options)
    return [f"{v['id']} ({v['impact']}, {v['count']} nodes): {v['help']}; e.g. {v['targets']}"
            for v in found if v["id"] not in ALLOWED]


def both_themes(page: Any, where: str) -> list[str]:
    """Every rule in the light theme, and the colour rules again in the dark one."""
    problems: list[str] = []
    for theme, rules in (("light", None), ("dark", COLOUR_RULES)):
        page.evaluate(f"document.documentElement.dataset.theme = '{theme}'")
        problems += [f"{where} {theme}: {v}" for v in violations(page, rules)]
    return problems


def restart(page: Any, pool: Any, server: str, route: str) -> None:
    """Start the app afresh on ``route`` with what storage holds now, as a load of that address does
    (Python's own start, without booting Pyodide again in a shared page)."""
    shared = pool.shared(page)
    if shared is not None:
        pool.start(shared, route)
    else:
        page.goto(server + route)
        page.reload()
        page.wait_for_selector("body[data-ready='1']", timeout=60_000)


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("lang", ["en", "it"])
def test_no_violation_on_any_route(booted: Any, open_site: Any, pool: Any, server: str, saves: dict[str, str],
                                   lang: str, size: str) -> None:
    width, height = SIZES[size]
    page = booted(width, height, locale="it-IT" if lang == "it" else "en-GB")
    open_site(page)
    try:
        sweep(page, pool, server, saves, lang, size)
    finally:
        page.evaluate("() => { delete window.axe; }")  # the shared page serves the next test


def sweep(page: Any, pool: Any, server: str, saves: dict[str, str], lang: str, size: str) -> None:
    page.evaluate("() => localStorage.setItem('scarab:settings', JSON.stringify({tutorials_seen: []}))")
    # the chooser with no save first, then everything with the saves in place
    problems = both_themes(page, "#/ (empty)")
    page.evaluate("items => { for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v); }", saves)
    for i, (route, ready) in enumerate(ROUTES):
        if i == 0:  # one start with the saves in place; then the router, as a player follows links
            restart(page, pool, server, route)
        else:
            page.evaluate("() => { for (const el of document.querySelectorAll('#app > *')) el.dataset.stale = '1'; }")
            page.evaluate("route => { location.hash = route; }", route)
            page.wait_for_function("() => !document.querySelector('#app > [data-stale]')", timeout=60_000)
        page.wait_for_selector(ready, timeout=60_000)
        page.wait_for_function("!document.getElementById('thinking')", timeout=60_000)
        problems += both_themes(page, route)
        headings = page.evaluate("document.querySelectorAll('h1').length")
        if headings != 1:
            problems.append(f"{route}: {headings} level-one headings (one per page)")
        small = page.evaluate(SMALL_TEXT)
        if small:
            problems.append(f"{route}: board text below 11 px: {small}")
    if size == "phone":  # the app bar's menu open in a game: the game's own controls, then the navigation
        page.evaluate("() => { for (const el of document.querySelectorAll('#app > *')) el.dataset.stale = '1'; }")
        page.evaluate("route => { location.hash = route; }", "#/thot/play/thot-on")
        page.wait_for_function("() => !document.querySelector('#app > [data-stale]')", timeout=60_000)
        page.wait_for_selector("#thot-board", timeout=60_000)
        page.click("#menu-button")
        page.wait_for_selector("#bar-game:not([hidden]) button")
        problems += both_themes(page, "menu open")
        page.keyboard.press("Escape")
    assert not problems, f"{len(problems)} accessibility violations ({lang}, {size}):\n" + "\n".join(problems)


def test_axe_is_not_shipped(built_site: Path) -> None:
    assert not list(built_site.rglob("axe*.js"))


FOCUS_IN_GAME = ("() => { const a = document.activeElement; return !!a && a !== document.body && "
                 "!!a.closest('#app') && (a.closest('[role=grid]') !== null || a.matches('.sy-board, h1')); }")


class TestFocusFollowsPlay:
    def test_skip_link_goes_to_the_page_and_keeps_the_route(self, page: Any, open_site: Any) -> None:
        from tests.e2e.test_thot import new_game

        new_game(page, open_site)
        route = page.evaluate("location.hash")
        page.locator(".skip").focus()  # the first Tab stop of every page
        page.keyboard.press("Enter")
        # the browser focuses #app at once; the app then puts its route back (hashchange)
        page.wait_for_function("route => document.activeElement.id === 'app' && location.hash === route", arg=route)
        assert page.evaluate("location.hash") == route
        assert page.locator("#thot-board").count() == 1  # not "Page not found"

    @pytest.mark.parametrize("game, board", [("thot", "#thot-board"), ("scarabya", ".sy-game"),
                                             ("scarabeo", "#sc-board")])
    def test_start_the_game_puts_focus_on_the_board(self, page: Any, open_site: Any, game: str, board: str) -> None:
        open_site(page, f"#/{game}/new")
        page.wait_for_selector("#start", timeout=60_000)
        if game == "scarabeo":  # two people would get the pass-and-play cover first
            page.locator("#seat-1-kind").select_option("computer:1")
        page.locator("#start").focus()
        page.keyboard.press("Enter")
        page.wait_for_selector(board, timeout=60_000)
        page.wait_for_function(FOCUS_IN_GAME, timeout=10_000)

    def test_a_dialog_gives_focus_back_to_its_opener(self, page: Any, open_site: Any) -> None:
        from tests.e2e.test_thot import new_game

        new_game(page, open_site)
        page.locator("#share").focus()
        page.keyboard.press("Enter")
        page.get_by_role("dialog").wait_for()
        page.keyboard.press("Escape")
        page.wait_for_function("!document.querySelector('dialog') && document.activeElement.id === 'share'")

    def test_after_a_scarabya_placement_focus_stays_in_the_game(self, page: Any, open_site: Any) -> None:
        from tests.e2e.test_scarabya import new_game, place_one

        new_game(page, open_site)
        place_one(page)
        page.wait_for_function(FOCUS_IN_GAME, timeout=10_000)

    def test_after_the_thot_computer_replies_focus_is_on_the_board_stop(self, page: Any, open_site: Any) -> None:
        from tests.e2e.test_thot import LEGAL, new_game, wait_turn

        new_game(page, open_site, seats=("person", "computer:1"), seed=11)
        wait_turn(page)
        target = page.locator(LEGAL).first
        target.focus()
        page.keyboard.press("Enter")
        page.wait_for_function("document.querySelectorAll('#thot-log li:not(.muted)').length >= 2", timeout=30_000)
        wait_turn(page)
        page.wait_for_function("document.activeElement && document.activeElement.getAttribute('tabindex') === '0'"
                               " && document.activeElement.closest('#thot-board') !== null", timeout=10_000)


#: (page.evaluate) From now on, every text the live region is given, in order, in ``window.__said``:
#: taken from the mutation records (the text nodes added), so a text replaced within the same task —
#: the computer's quick reply after the person's move — is kept too, which no poll of a loaded
#: machine would be sure to read.
RECORD_SAID = """() => { const said = window.__said = [];
  window.__saidObserver = new MutationObserver(records => { for (const m of records) {
    const el = m.target.nodeType === 1 ? m.target : m.target.parentElement;
    if (!el || el.id !== 'announce') continue;
    const text = m.type === 'characterData' ? m.target.data : [...m.addedNodes].map(n => n.textContent).join('');
    if (text) said.push(text); } });
  window.__saidObserver.observe(document.body, {childList: true, subtree: true, characterData: true}); }"""
#: (page.evaluate) Stop recording (the shared page serves the next test as it was).
STOP_SAID = "() => { window.__saidObserver?.disconnect(); delete window.__saidObserver; delete window.__said; }"


@contextmanager
def recording_said(page: Any) -> Iterator[None]:
    """Record what the live region says while the block runs (``RECORD_SAID``), then stop."""
    page.evaluate(RECORD_SAID)
    try:
        yield
    finally:
        page.evaluate(STOP_SAID)


def said_in_turn(page: Any, *texts: list[str]) -> list[str]:
    """Wait until the live region has said, one after another, a text with every part of each of
    ``texts`` (recorded since ``RECORD_SAID``); return what it said."""
    page.wait_for_function("""wanted => { let i = 0;
        for (const s of window.__said) if (i < wanted.length && wanted[i].every(p => s.includes(p))) i++;
        return i === wanted.length; }""", arg=list(texts), timeout=60_000)
    return list(page.evaluate("window.__said"))


class TestScreenReaderWalkThrough:
    """The documented keyboard path of each game (docs/*-web.md, "Screen reader"), with what the live
    region says after each move."""

    def test_thot_move_and_the_computers_reply_are_announced(self, page: Any, open_site: Any) -> None:
        from tests.e2e.test_thot import LEGAL, new_game, wait_turn

        new_game(page, open_site, seats=("person", "computer:1"), seed=11)
        wait_turn(page)
        page.locator(LEGAL).first.focus()
        with recording_said(page):
            page.keyboard.press("Enter")
            said_in_turn(page, ["P1"], ["P2"])  # the move, then the computer's reply, read without moving focus

    def test_scarabya_placement_is_announced(self, page: Any, open_site: Any) -> None:
        from tests.e2e.test_scarabya import ask_hint, new_game

        new_game(page, open_site)
        move, _ms = ask_hint(page)
        page.locator("#sy-board").focus()
        with recording_said(page):
            page.keyboard.press("Enter")
            said_in_turn(page, ["P1", f"at {move.split('@')[1]}"])  # the placement in words: tile and square

    def test_scarabeo_play_typed_on_the_keyboard_is_announced(self, page: Any, open_site: Any, lex: Any,
                                                              gen: Any) -> None:
        from tests.e2e.test_scarabeo import MY_TURN, best_play, engine_state, new_game, type_play

        new_game(page, open_site, 77, [("Anna", "person"), ("Scarabot", "computer:1")])
        page.wait_for_selector(MY_TURN, timeout=60_000)  # Play is always there, disabled but on Anna's turn
        state = engine_state(page, lex)
        play = best_play(state, gen)
        assert play is not None
        type_play(page, state, play)
        with recording_said(page):
            page.keyboard.press("Enter")
            said_in_turn(page, ["Anna", "points"])
