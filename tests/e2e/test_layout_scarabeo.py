"""The Scarabeo play screen on one screen (issue 26), from a 360×640 phone to a 1920×1080 desktop
and in 400×600 and 700×700 embeds: at rest every one of the 289 squares lies inside the viewport
(and inside the board's frame: nothing cut), the letters are at least 11 px; and at scroll 0 the
working set — board, rack, Play, whose turn, the scores and the last move — is in view in every
state: the computer thinking, a challenge pending, a vote pending (pass-and-play, on the cover),
a hint shown, after a take-back, and at the end. Also the zoom for placing (a tap zooms in around
the square, Recall and Play zoom out, the keyboard cursor scrolls into view), Pass and Exchange
asking once, Hint and Take back in the action row.

One browser context for the module; states are reached from saves written into the page's storage
(records built here with the engine) or by a few moves; the viewport is resized between sizes.
Screenshots: ``tests/e2e/screenshots/layout-scarabeo-<state>-<w>x<h>.png``.
"""

from __future__ import annotations

import json
from itertools import permutations
from typing import Any, Iterator

import pytest

from game.core import GameRecord
from game.scarabeo.board import CENTRE
from tests.e2e.conftest import RUN_PYTHON, Guard, shot, watch

pytestmark = pytest.mark.e2e

SIZES = [(360, 640), (390, 844), (820, 1180), (1180, 820), (1366, 768), (1440, 900), (1920, 1080)]
EMBEDS = [(400, 600), (700, 700)]
PERSON_VS_COMPUTER = [{"name": "Ada"}, {"name": "Scarabot", "computer": True, "level": 1}]
THREE_PEOPLE = [{"name": "Ada"}, {"name": "Bruno"}, {"name": "Carla"}]

#: the working set: the board frame, the rack, Play, whose turn, the scores, the last move
PARTS = {"board": "#sc-board-wrap", "rack": "#sc-rack", "play": "#sc-play",
         "turn": "#scoreline li.to-move, #sc-scores tr.to-move", "scores": "#scoreline .sl-score, #sc-scores",
         "last": "#sl-last"}

#: Every square's box, the frame's, and the letters' sizes (the shown ones).
SQUARES = """() => { const wrap = document.getElementById('sc-board-wrap').getBoundingClientRect();
  const cells = [...document.querySelectorAll('#sc-board [data-sq]')].map(c => c.getBoundingClientRect());
  const small = [...document.querySelectorAll('#sc-board .sc-sq span')].filter(s => s.getClientRects().length)
    .map(s => parseFloat(getComputedStyle(s).fontSize)).filter(px => px < 11);
  return {n: cells.length, wrap: {left: wrap.left, top: wrap.top, right: wrap.right, bottom: wrap.bottom},
          out: cells.filter(b => b.left < -1 || b.top < -1 || b.right > innerWidth + 1 || b.bottom > innerHeight + 1
                                 || b.left < wrap.left - 1 || b.right > wrap.right + 1
                                 || b.top < wrap.top - 1 || b.bottom > wrap.bottom + 1).length,
          side: cells.length ? cells[0].width : 0, small: small.length}; }"""
#: the first drawn element of a selector list, as its box in the viewport
BOX = """(sel) => { const el = [...document.querySelectorAll(sel)].find(e => e.getClientRects().length);
  if (!el) return null; const b = el.getBoundingClientRect();
  return {left: b.left, top: b.top, right: b.right, bottom: b.bottom}; }"""


def inside(box: dict[str, float] | None, w: int, h: int) -> bool:
    return box is not None and box["left"] >= -1 and box["top"] >= -1 and box["right"] <= w + 1 \
        and box["bottom"] <= h + 1 and box["right"] - box["left"] > 4 and box["bottom"] - box["top"] > 4


def envelope(save_id: str, record: GameRecord) -> str:
    return json.dumps({"schema": 1, "id": save_id, "game": "scarabeo", "title": save_id, "created": 1, "updated": 2,
                       "revision": 1, "state": record.to_json()})


@pytest.fixture(scope="module")
def saves(lex: Any) -> dict[str, str]:
    """Saved games in the states to draw: the computer's play waiting for the person's challenge; a
    three-person vote on a word the lexicon does not know; a game played to its end."""
    from game.scarabeo import ai
    from game.scarabeo.game import ScarabeoState
    from game.scarabeo.moves import Play

    out = {}
    state = ScarabeoState.from_options({"players": 2, "check_mode": "challenge"}, 3, word_list=lex)
    while not (state.pending is not None and state.to_move() == 0 and isinstance(state.results()[-1].move, Play)):
        state.push(ai.choose(state, "beginner", lex))
    # the person named as the new-game form names them: the button says "You challenge"
    you = [{"name": "You"}, PERSON_VS_COMPUTER[1]]
    out["sc-challenge"] = GameRecord.of(state, seats=you, game_id="sc-challenge")
    state = ScarabeoState.from_options({"players": 3, "check_mode": "vote"}, 7, word_list=lex)
    tiles = [t for t in state.racks[state.to_move()] if t != "?"]
    word = next("".join(c) for c in permutations(tiles, 3)
                if not lex.contains("".join(c)) and lex.abbreviation("".join(c)) is None)
    state.push(state.play_from_placements([(CENTRE - 1 + k, ch) for k, ch in enumerate(word)], []))
    assert state.pending is not None and state.pending.kind == "vote"
    out["sc-vote"] = GameRecord.of(state, seats=THREE_PEOPLE, game_id="sc-vote")
    # the person's made-up word waiting in challenge mode: the computer challenges it when the game opens
    state = next(s for s in (ScarabeoState.from_options({"players": 2, "check_mode": "challenge"}, seed, word_list=lex)
                             for seed in range(1, 50)) if s.to_move() == 0)
    tiles = [t for t in state.racks[0] if t != "?"]
    word = next("".join(c) for c in permutations(tiles, 3)
                if not lex.contains("".join(c)) and lex.abbreviation("".join(c)) is None)
    state.push(state.play_from_placements([(CENTRE - 1 + k, ch) for k, ch in enumerate(word)], []))
    assert state.pending is not None and state.pending.kind == "challenge"
    out["sc-upheld"] = GameRecord.of(state, seats=PERSON_VS_COMPUTER, game_id="sc-upheld")
    state = ScarabeoState.from_options({"players": 2}, 5, word_list=lex)
    while not state.is_over():
        state.push(ai.choose(state, "beginner", lex))
    out["sc-end"] = GameRecord.of(state, seats=PERSON_VS_COMPUTER, game_id="sc-end")
    return {f"scarab:save:{sid}": envelope(sid, rec) for sid, rec in out.items()}


@pytest.fixture(scope="module")
def table(browser: Any, server: str, saves: dict[str, str]) -> Iterator[tuple[Any, Guard]]:
    """One context: the saves in its storage, a game against the computer (seed 7) started in it."""
    guard = Guard()
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB", service_workers="block")
    ctx.route("**/*", guard.route)
    page = watch(ctx.new_page(), guard)
    page.goto(server + "#/")
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    page.evaluate("items => { for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v); }", saves)
    yield page, guard
    ctx.close()
    assert guard.blocked == [] and guard.errors == [], (guard.blocked, guard.errors)


def new_game(page: Any, seed: int = 7) -> None:
    page.evaluate("location.hash = '#/scarabeo/new'")
    page.wait_for_selector("#start", timeout=60_000)
    page.select_option("#players", "2")
    page.select_option("#seat-1-kind", "computer:1")
    fill_seed(page, seed)
    page.click("#start")
    person_to_play(page)


def fill_seed(page: Any, seed: int) -> None:
    page.evaluate("document.querySelector('details:has(#seed)')?.setAttribute('open', '')")
    page.fill("#seed", str(seed))


def person_to_play(page: Any) -> None:
    page.wait_for_selector("#sc-shuffle:not([disabled])", timeout=60_000)
    page.wait_for_function("!document.getElementById('thinking')", timeout=60_000)


def open_save(page: Any, save_id: str, ready: str) -> None:
    page.evaluate("() => { for (const el of document.querySelectorAll('#app > *')) el.dataset.stale = '1'; }")
    page.evaluate("route => { location.hash = route; }", f"#/scarabeo/play/{save_id}")
    page.wait_for_function("() => !document.querySelector('#app > [data-stale]')", timeout=60_000)
    page.wait_for_selector(ready, timeout=60_000)


def resize(page: Any, w: int, h: int) -> None:
    page.set_viewport_size({"width": w, "height": h})
    page.wait_for_function(f"innerWidth === {w} && innerHeight === {h}")
    page.wait_for_timeout(120)  # the layout after the resize
    page.evaluate("scrollTo(0, 0)")


def check_sizes(page: Any, state: str, parts: dict[str, str], sizes: list[tuple[int, int]] = SIZES,
                whole: bool = True) -> dict[tuple[int, int], float | None]:
    """At each size at scroll 0: the working set in view; the whole board at rest (every square in the
    viewport and its frame, no letter under 11 px); nothing wider than the screen. Returns the action
    row's top at each size (None where there is none)."""
    problems = []
    rows: dict[tuple[int, int], float | None] = {}
    for w, h in sizes:
        resize(page, w, h)
        shot(page, f"layout-scarabeo-{state}-{w}x{h}", full_page=False)
        rows[(w, h)] = page.evaluate("document.getElementById('sc-actions')?.getBoundingClientRect().top ?? null")
        for part, sel in parts.items():
            box = page.evaluate(BOX, sel)
            if not inside(box, w, h):
                problems.append(f"{w}x{h} {state}: {part} ({sel}) not in view: {box}")
        if whole:
            sq = page.evaluate(SQUARES)
            if sq["n"] != 289 or sq["out"] or sq["small"] or sq["side"] < 12:
                problems.append(f"{w}x{h} {state}: {sq}")
        wide, inner = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        if wide > inner:
            problems.append(f"{w}x{h} {state}: the page is {wide} px wide")
    assert not problems, "\n".join(problems)
    return rows


#: The computer's next turn waits (its engine's steps held) until ``_page.sc_release`` is set.
HOLD_THE_COMPUTER = """
import types
_ui = _page.ui
_think = type(_ui).computer
def _held(self, page, level):
    while not getattr(page, "sc_release", False):
        yield
    del self.computer
    return (yield from _think(self, page, level))
_ui.computer = types.MethodType(_held, _ui)
"""


def python(page: Any, code: str) -> Any:
    """Run Python in the page: the open game page is ``_page``."""
    prelude = ("import gc\nfrom web.pages.play import GamePage\n"
               "_page = [o for o in gc.get_objects() if isinstance(o, GamePage) and not o.closed][-1]\n")
    return page.evaluate(RUN_PYTHON, prelude + code)


def test_working_set_in_every_state_at_every_size(table: tuple[Any, Guard], server: str) -> None:
    page, guard = table
    new_game(page)
    # the person's turn at rest (the draw said to the person: "you start", never "You starts")
    assert page.locator("#sc-draw summary").inner_text() in ("Draw: you start", "Draw: Computer (beginner) starts")
    rest = check_sizes(page, "rest", {k: v for k, v in PARTS.items() if k != "last"})
    resize(page, 390, 844)
    # the computer thinking: its turn held in the page (its engine waits until released) while the
    # viewport is resized; the action row stays, disabled, and the rack does not move
    rack_top = page.evaluate("document.getElementById('sc-rack').getBoundingClientRect().top")
    python(page, HOLD_THE_COMPUTER)
    page.click("#sc-pass")
    page.get_by_role("dialog").get_by_role("button", name="Pass", exact=True).click()
    page.wait_for_selector("#thinking", timeout=30_000)
    assert "Computer (beginner) is thinking" in page.locator("#thinking").inner_text()
    assert page.locator("#sc-play").is_disabled() and page.locator("#sc-pass").is_disabled()
    assert page.evaluate("document.getElementById('sc-rack').getBoundingClientRect().top") == rack_top
    check_sizes(page, "thinking", PARTS)
    resize(page, 390, 844)
    python(page, "_page.sc_release = True")
    person_to_play(page)
    assert page.evaluate("document.getElementById('sc-rack').getBoundingClientRect().top") == rack_top
    # a hint: laid on the board, said in words in the message line, listed with its notation
    resize(page, 1280, 800)
    page.click("#sc-hint")
    page.wait_for_selector("#sc-board .sc-sq.placed", timeout=60_000)
    message = page.locator("#play-message").inner_text()
    assert message.startswith("Hint 1 of ") and " at " in message and " points" in message, message
    first = page.locator("#sc-hint-0")
    assert first.locator(".sc-hint-said").inner_text() in message
    assert first.locator(".sc-hint-notation").inner_text()
    check_sizes(page, "hint", PARTS)
    # after a take-back (from the action row): my pass and the computer's reply undone
    resize(page, 1280, 800)
    page.click("#sc-recall")
    page.click("#sc-takeback")
    if page.get_by_role("dialog").count():
        page.get_by_role("dialog").get_by_role("button", name="Take back", exact=True).click()
    page.wait_for_function("document.getElementById('sc-takeback').disabled", timeout=30_000)
    check_sizes(page, "takeback", {k: v for k, v in PARTS.items() if k != "last"})
    # a challenge pending: the computer's play, the person's strip under the rack
    open_save(page, "sc-challenge", "#sc-challenge")
    rows = check_sizes(page, "challenge", {**PARTS, "challenge": "#sc-challenge", "accept": "#sc-accept"})
    assert page.locator("#sc-challenge-1").inner_text() == "You challenge"  # the person's form, not "You challenges"
    # on a phone the strip is one line in the hand's slot: the action row under it has not moved
    for size in [(360, 640), (390, 844)]:
        assert rows[size] == rest[size], f"{size}: the action row moved from {rest[size]} to {rows[size]}"
    resize(page, 390, 844)  # on a phone the strip is under the board, never a block above it
    assert page.evaluate("document.getElementById('sc-challenge').getBoundingClientRect().top"
                         " > document.getElementById('sc-board-wrap').getBoundingClientRect().bottom")
    # a vote pending, on the pass-and-play cover (no rack, no board in view): the ballot and its button
    open_save(page, "sc-vote", "#sc-vote")
    check_sizes(page, "vote", {"vote": "#sc-vote", "go": "#sc-vote-go"}, whole=False)
    # the end: the result and what to do next where the rack was
    open_save(page, "sc-end", "#sc-result")
    check_sizes(page, "end", {"board": "#sc-board-wrap", "scores": PARTS["scores"], "last": "#sl-last",
                              "result": "#sc-result", "again": "#sc-again"})
    assert guard.errors == [], guard.errors


def test_daily_puzzle_on_one_screen(table: tuple[Any, Guard]) -> None:
    """Today's Scarabeo puzzle (a fixed date): its task, the whole board, the rack and Play in view."""
    page, guard = table
    resize(page, 1280, 800)
    page.evaluate("location.hash = '#/daily/scarabeo?date=2026-12-01'")
    page.wait_for_selector("#daily-banner #daily-task", timeout=90_000)
    person_to_play(page)
    check_sizes(page, "daily", {"task": "#daily-task", "board": "#sc-board-wrap", "rack": "#sc-rack",
                                "play": "#sc-play"})
    assert guard.errors == [], guard.errors


def test_an_outcome_stays_until_the_next_action(table: tuple[Any, Guard]) -> None:
    """The message line keeps what happened since the person's last action (``GamePage.events``): a
    challenge upheld is still said after the computer's own play, and goes at the person's next move."""
    page, guard = table
    resize(page, 390, 844)
    open_save(page, "sc-upheld", "#sc-board")
    # the computer challenges the person's made-up word at once (upheld), then plays its own word
    page.wait_for_function(f"({MOVES})() >= 3", timeout=60_000)
    person_to_play(page)
    message = page.locator("#play-message")
    assert message.is_visible() and inside(page.evaluate(BOX, "#play-message"), 390, 844)
    text = message.inner_text()
    upheld, played = text.find("Scarabot challenged "), text.find("Scarabot played ")
    assert 0 <= upheld < played and ": upheld, the play is taken back (" in text, text
    # the person's next action: the outcome is no longer news
    before = page.evaluate(MOVES)
    page.click("#sc-pass")
    page.get_by_role("dialog").get_by_role("button", name="Pass", exact=True).click()
    page.wait_for_function(f"({MOVES})() > {before + 1}", timeout=60_000)
    person_to_play(page)
    assert "upheld" not in page.locator("#play-message").inner_text()
    assert guard.errors == [], guard.errors


def test_the_last_move_cut_on_a_phone_opens_the_move_list(table: tuple[Any, Guard]) -> None:
    """Issue 42: at 360×640 the last move is one line cut with "…"; it is a button named with the
    whole line, and a tap on it opens the drawer with the move list in view, the move whole there."""
    page, guard = table
    resize(page, 360, 640)
    new_game(page)
    page.click("#sc-hint")
    page.wait_for_selector("#sc-board .sc-sq.placed", timeout=60_000)
    page.click("#sc-play")
    page.wait_for_function(f"({MOVES})() >= 2", timeout=60_000)
    person_to_play(page)
    last = page.locator("#sl-last")
    whole = last.inner_text()
    assert last.get_attribute("title") == whole and whole.startswith("Last move: ")
    assert page.evaluate("() => { const e = document.getElementById('sl-last'); return e.scrollWidth > e.clientWidth; }")
    assert page.get_by_role("button", name=whole).count() == 1
    assert page.locator("#drawer-button").get_attribute("aria-expanded") == "false"
    page.click("#sl-last")
    page.wait_for_function("document.getElementById('drawer-button').getAttribute('aria-expanded') === 'true'")
    moves = page.locator("[data-move-list]")
    assert moves.is_visible() and inside(page.evaluate(BOX, "[data-move-list]"), 360, 640)
    assert page.evaluate("document.activeElement.hasAttribute('data-move-list')")
    played = whole.split(" played ", 1)[1].split(" ", 1)[0]  # the computer's word, whole in the list
    assert played in moves.inner_text(), (played, moves.inner_text())
    page.click("#drawer-button")  # folded again for the next test
    page.evaluate("scrollTo(0, 0)")
    assert guard.errors == [], guard.errors


#: (page.evaluate, a selector) Whether two boxes overlap: the first and second elements matched.
OVERLAP = """([a, b]) => { const p = document.querySelector(a).getBoundingClientRect(),
    q = document.querySelector(b).getBoundingClientRect();
  return p.left < q.right && q.left < p.right && p.top < q.bottom && q.top < p.bottom; }"""


@pytest.mark.parametrize("size", [(360, 640), (390, 844)])
def test_a_phones_action_row_names_pass_and_exchange_and_says_why_not(table: tuple[Any, Guard],
                                                                        size: tuple[int, int]) -> None:
    """Issue 42 on a phone: Pass and Exchange have a word under their icons (a first-time player
    told them apart by nothing), the row still within the screen; Exchange greyed for a mixed rack
    says why when tapped; the Q's 10 does not lie over the letter."""
    page, guard = table
    w, hgt = size
    resize(page, w, hgt)
    new_game(page, 31)  # the person starts with QCCTREFB: a Q, and a rack of vowels and consonants
    for bid, word in (("sc-pass", "Pass"), ("sc-exchange", "Swap")):
        short = page.locator(f"#{bid} .sc-short")
        assert short.is_visible() and short.inner_text() == word
        assert inside(page.evaluate(BOX, f"#{bid}"), w, hgt)
        box = page.evaluate(f"() => {{ const s = document.querySelector('#{bid} .sc-short'); "
                            "return [s.scrollWidth, s.clientWidth]; }")
        assert box[0] <= box[1] + 1, box  # the word whole, not clipped
    assert inside(page.evaluate(BOX, "#sc-zoom"), w, hgt)
    assert page.evaluate("document.documentElement.scrollWidth") <= w
    exchange = page.get_by_role("button", name="Exchange all 8 tiles")
    assert exchange.get_attribute("aria-disabled") == "true"
    exchange.click(force=True)  # greyed, yet it answers a tap (Playwright waits for enabled buttons)
    message = page.locator("#play-message")
    message.wait_for()
    assert "it takes 8 vowels or 8 consonants, not a mixed rack" in message.inner_text()
    q = page.locator("#sc-rack .sc-tile[data-tile='Q']")
    assert q.locator(".v").inner_text() == "10"
    assert not page.evaluate(OVERLAP, ["#sc-rack .sc-tile[data-tile='Q'] .l", "#sc-rack .sc-tile[data-tile='Q'] .v"])
    assert guard.errors == [], guard.errors


def test_embeds_show_the_whole_board(browser: Any, server: str) -> None:
    guard = Guard()
    ctx = browser.new_context(viewport={"width": 400, "height": 600}, locale="en-GB", service_workers="block")
    ctx.route("**/*", guard.route)
    page = watch(ctx.new_page(), guard)
    try:
        page.goto(server + "embed.html?game=scarabeo")
        page.wait_for_selector("body[data-ready='1']", timeout=60_000)
        page.wait_for_selector("#start", timeout=60_000)
        page.select_option("#seat-1-kind", "computer:1")
        fill_seed(page, 7)
        page.click("#start")
        person_to_play(page)
        check_sizes(page, "embed", {k: v for k, v in PARTS.items() if k != "last"}, sizes=EMBEDS)
    finally:
        ctx.close()
    assert guard.blocked == [] and guard.errors == [], (guard.blocked, guard.errors)


MOVES = ("() => { const id = location.hash.split('/play/')[1];"
         " return JSON.parse(localStorage.getItem('scarab:save:' + id)).state.moves.length; }")
ZOOMED = "document.getElementById('sc-board-wrap').classList.contains('zoomed')"


def frame_box(page: Any) -> dict[str, float]:
    box = page.locator("#sc-board-wrap").bounding_box()
    assert box is not None
    return {k: round(v) for k, v in box.items()}


def in_frame(page: Any, sel: str) -> bool:
    return bool(page.evaluate("""sel => { const f = document.getElementById('sc-board-wrap').getBoundingClientRect();
        const b = document.querySelector(sel).getBoundingClientRect();
        return b.left >= f.left - 1 && b.right <= f.right + 1 && b.top >= f.top - 1 && b.bottom <= f.bottom + 1; }""", sel))


def test_zoom_for_placing_and_asking_once(browser: Any, server: str) -> None:
    """On a 390×844 touch phone: a tap on a square zooms in around it inside the same frame (rack and
    Play still in view), the keyboard's cursor is scrolled into view, a double tap and a pinch zoom
    out and in, Recall and Play zoom out; Pass and Exchange ask once (Escape and Cancel keep the turn)."""
    guard = Guard()
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, locale="en-GB",
                              service_workers="block")
    ctx.route("**/*", guard.route)
    page = watch(ctx.new_page(), guard)
    try:
        page.goto(server + "#/")
        page.wait_for_selector("body[data-ready='1']", timeout=60_000)
        new_game(page)
        at_rest = frame_box(page)
        assert not page.evaluate(ZOOMED) and page.locator("#sq-K9").bounding_box()["width"] < 30
        # the keyboard's way: the Zoom button, which keeps the focus
        page.locator("#sc-zoom").focus()
        page.keyboard.press("Enter")
        page.wait_for_function(ZOOMED)
        assert frame_box(page) == at_rest and page.evaluate("document.activeElement.id") == "sc-zoom"
        assert page.locator("#sc-zoom").get_attribute("title") == "Whole board"
        page.keyboard.press("Enter")
        page.wait_for_function(f"!{ZOOMED}")
        # a tap zooms in around the square: the frame keeps its size, the square grows under the finger
        page.tap("#sq-K9")
        page.wait_for_function(ZOOMED)
        assert frame_box(page) == at_rest
        assert page.locator("#sq-K9").bounding_box()["width"] >= 36 and in_frame(page, "#sq-K9")
        assert page.evaluate("document.activeElement.id") == "sq-K9"
        for part in ("#sc-rack", "#sc-play"):
            assert inside(page.evaluate(BOX, part), 390, 844), part
        assert page.get_by_role("button", name="Whole board", exact=True).is_visible()
        shot(page, "layout-scarabeo-zoomed-390x844", full_page=False)
        # the keyboard's cursor stays in view as it moves across the zoomed board
        for _ in range(7):
            page.keyboard.press("ArrowRight")
        assert page.evaluate("document.activeElement.id") == "sq-Q9" and in_frame(page, "#sq-Q9")
        for _ in range(8):
            page.keyboard.press("ArrowDown")
        assert page.evaluate("document.activeElement.id") == "sq-Q17" and in_frame(page, "#sq-Q17")
        # a tile laid on the zoomed board, then Recall: the whole board again
        page.tap("#sc-tile-0")
        page.tap("#sq-I9")
        page.wait_for_selector("#sq-I9.placed")
        page.click("#sc-recall")
        page.wait_for_function(f"!{ZOOMED}")
        assert frame_box(page) == at_rest
        # at rest, a tile picked then a tap on a square: the tile lands there on that second tap
        # (issue 42: it used to zoom only, the tile landing on a third), then the board zooms in
        page.tap("#sc-tile-1")
        page.tap("#sq-H8")
        page.wait_for_selector("#sq-H8.placed")
        assert page.locator("#sc-board .sc-sq.placed").count() == 1
        page.wait_for_function(ZOOMED)
        assert in_frame(page, "#sq-H8") and frame_box(page) == at_rest
        page.click("#sc-recall")
        page.wait_for_function(f"!{ZOOMED}")
        # a double tap zooms out (the first tap of a double tap at rest zooms in)
        page.tap("#sq-E5")
        page.wait_for_function(ZOOMED)
        page.wait_for_timeout(500)
        page.tap("#sq-F6")
        page.tap("#sq-F6")
        page.wait_for_function(f"!{ZOOMED}")
        # a pinch: two fingers apart zoom in, together zoom out
        cdp = ctx.new_cdp_session(page)
        x, y = at_rest["x"] + at_rest["width"] / 2, at_rest["y"] + at_rest["height"] / 2

        def fingers(kind: str, apart: float) -> None:
            points = [] if kind == "touchEnd" else [{"x": x - apart, "y": y, "id": 1}, {"x": x + apart, "y": y, "id": 2}]
            cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

        fingers("touchStart", 20)
        for apart in (30, 45, 60):
            fingers("touchMove", apart)
        fingers("touchEnd", 0)
        page.wait_for_function(ZOOMED)
        fingers("touchStart", 80)
        for apart in (60, 40, 30):
            fingers("touchMove", apart)
        fingers("touchEnd", 0)
        page.wait_for_function(f"!{ZOOMED}")
        # Play zooms out: the best play laid by Hint, the board zoomed by a tap, then Play
        page.click("#sc-hint")
        page.wait_for_selector("#sc-board .sc-sq.placed", timeout=60_000)
        page.tap("#sq-A1")
        page.wait_for_function(ZOOMED)
        before = page.evaluate(MOVES)
        page.click("#sc-play")
        page.wait_for_function(f"({MOVES})() > {before}", timeout=30_000)
        assert not page.evaluate(ZOOMED) and frame_box(page) == at_rest
        person_to_play(page)
        # Pass asks once: Escape and Cancel keep the turn; by keyboard, Tab to Pass and Enter
        before = page.evaluate(MOVES)
        page.click("#sc-pass")
        dialog = page.get_by_role("dialog", name="Pass")
        dialog.wait_for()
        assert "scores 0" in dialog.inner_text()
        page.keyboard.press("Escape")
        dialog.wait_for(state="detached")
        assert page.evaluate(MOVES) == before
        page.click("#sc-pass")
        dialog.get_by_role("button", name="Cancel", exact=True).click()
        dialog.wait_for(state="detached")
        assert page.evaluate(MOVES) == before
        page.locator("#sc-pass").focus()
        page.keyboard.press("Enter")
        dialog.wait_for()
        assert page.evaluate("document.activeElement.textContent") == "Cancel"  # Enter alone does not pass
        page.keyboard.press("Tab")
        page.keyboard.press("Enter")
        page.wait_for_function(f"({MOVES})() > {before}", timeout=30_000)
        person_to_play(page)
        # Exchange asks once too (seed 33 deals me eight consonants: an exchange is allowed)
        new_game(page, 33)
        before = page.evaluate(MOVES)
        page.click("#sc-exchange")
        dialog = page.get_by_role("dialog", name="Exchange all 8 tiles")
        dialog.wait_for()
        assert "draw 8 new tiles" in dialog.inner_text()
        shot(page, "layout-scarabeo-exchange-390x844", full_page=False)
        page.keyboard.press("Escape")
        dialog.wait_for(state="detached")
        assert page.evaluate(MOVES) == before
        page.click("#sc-exchange")
        dialog.get_by_role("button", name="Exchange all 8 tiles", exact=True).click()
        page.wait_for_function(f"({MOVES})() > {before}", timeout=30_000)
        person_to_play(page)
        # a drag: a rack tile carried by a finger over the whole board does not zoom it (issue 42: the
        # squares moved under the finger, and the tile landed elsewhere); the tile goes down on the
        # square the finger aimed at, then the board zooms in around it; Recall zooms out.
        # (Last in this test: for a moment after this instant CDP drag Chromium sends no click for a
        # tap, pointerdown and pointerup only, likely a tap taken as stopping the drag's fling.)
        tile, square = page.locator("#sc-tile-0").bounding_box(), page.locator("#sq-C3").bounding_box()
        assert tile is not None and square is not None
        tx, ty = tile["x"] + tile["width"] / 2, tile["y"] + tile["height"] / 2
        gx, gy = square["x"] + square["width"] / 2, square["y"] + square["height"] / 2

        def finger(kind: str, px: float, py: float) -> None:
            cdp.send("Input.dispatchTouchEvent",
                     {"type": kind, "touchPoints": [] if kind == "touchEnd" else [{"x": px, "y": py, "id": 1}]})

        finger("touchStart", tx, ty)
        for step in range(1, 9):
            finger("touchMove", tx + (gx - tx) * step / 8, ty + (gy - ty) * step / 8)
        page.wait_for_selector(".sc-drag-ghost")
        page.wait_for_timeout(300)
        assert not page.evaluate(ZOOMED) and frame_box(page) == at_rest
        assert page.locator("#sq-C3").bounding_box() == square  # the aimed square has not moved
        finger("touchEnd", gx, gy)
        page.wait_for_selector("#sq-C3.placed")
        assert page.locator("#sc-board .sc-sq.placed").count() == 1
        assert page.locator(".sc-drag-ghost").count() == 0
        page.wait_for_function(ZOOMED)
        assert page.locator("#sq-C3").bounding_box()["width"] >= 36 and in_frame(page, "#sq-C3")  # type: ignore[index]
        page.click("#sc-recall")
        page.wait_for_function(f"!{ZOOMED}")
        assert page.locator("#sc-board .sc-sq.placed").count() == 0
    finally:
        ctx.close()
    assert guard.blocked == [] and guard.errors == [], (guard.blocked, guard.errors)
