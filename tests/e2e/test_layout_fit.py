"""Issue 42, "Nothing cut off, nothing sideways": no game page is ever wider than the screen, and no
text in it is cut, in every state of a game played to its end at 360×640, for each game and each
number of seats.

Each game is played in the page move by move (the moves of a game the engine plays to its end, random
legal moves for Thot and Scarabya, the beginner's for Scarabeo, committed through the page as its
people would), its seats named as long as the new-game form allows them to be; after every move the
page is measured: ``document.documentElement.scrollWidth <= innerWidth``, and no element that clips
its text (overflow hidden or clip, an ellipsis, a line clamp; or a text box that scrolls its own
text, as the message line does) holds more text than its box shows. The same game's end with
computer seats is opened from a save and measured at 360×640 and 390×844 too.

The one deliberate exception: the last-move line ``#sl-last`` on a phone is one line; it is a button
whose whole text is its name and that opens the move list (issue 42, the lead's change), so its
text is never lost. Elements hidden for the eye and read out only (``.visually-hidden``, clipped to
1 px) are not drawn text. Screenshots of the first state found wrong:
``tests/e2e/screenshots/fit-<game>-<n>-<move>.png``.
"""

from __future__ import annotations

import json
from typing import Any, Iterator

import pytest

from game.core import GameRecord, Rng
from tests.e2e.conftest import Guard, booted_tab, shot
from tests.e2e.test_layout_boards import RUN_PYTHON
from web.platform import engines

pytestmark = pytest.mark.e2e

#: the elements whose text may be cut on purpose, with their reason: the last-move line (see the
#: module's docstring); Scarabya's ghost line under the board on a phone, three lines reserved (the
#: board never moves), the rest of a rare longer description (a placement closing three areas)
#: scrolling in its box — the board's aria-describedby, read out whole
ONE_LINE = "#sl-last, #sy-ghost-status"
#: (JS) how far the page scrolls sideways, and the drawn elements whose text is cut
FIT = """(oneLine) => {
  const hiddenForTheEye = el => { for (let p = el; p && p !== document.body; p = p.parentElement) {
      const s = getComputedStyle(p), b = p.getBoundingClientRect();
      if (s.clip !== 'auto' || b.width <= 1 || b.height <= 1 || s.visibility === 'hidden') return true; }
    return false; };
  const own = el => [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
  const cut = [];
  for (const el of document.querySelectorAll('body *')) {
    if (!el.getClientRects().length || !el.textContent.trim() || el.matches(oneLine)) continue;
    const s = getComputedStyle(el);
    const clips = a => a === 'hidden' || a === 'clip';
    const scrolls = a => a === 'auto' || a === 'scroll';
    const x = clips(s.overflowX) || (scrolls(s.overflowX) && own(el));
    const y = clips(s.overflowY) || (scrolls(s.overflowY) && own(el));
    if (!x && !y) continue;
    if ((x && el.scrollWidth > el.clientWidth + 1) || (y && el.scrollHeight > el.clientHeight + 1)) {
      if (hiddenForTheEye(el)) continue;
      cut.push({el: el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.className && typeof el.className === 'string'
                ? '.' + el.className.trim().split(/\\s+/).join('.') : ''),
                scroll: [el.scrollWidth, el.scrollHeight], box: [el.clientWidth, el.clientHeight],
                text: el.textContent.trim().slice(0, 80)}); } }
  return {wide: document.documentElement.scrollWidth - innerWidth, cut}; }"""

#: seat names as long as a person may type (the new-game form keeps 24 characters)
NAMES = ["Massimiliano Bartolomei", "Anna Maria Costantini", "Giovanbattista Ferri", "Bruno Abbondanzieri"]
SEATS = {"thot": [2, 3, 4], "scarabya": [1, 2, 3, 4], "scarabeo": [2, 3, 4]}


@pytest.fixture(scope="module")
def tab(browser: Any, server: str) -> Iterator[tuple[Any, Guard]]:
    """One booted page of the site at 360×640."""
    yield from booted_tab(browser, server, 360, 640)


def options(game: str, players: int) -> dict[str, Any]:
    return {"players": players, **({"variant": "classic"} if game == "scarabya" else {})}


def played(game: str, players: int, seed: int, lex: Any = None) -> list[str]:
    """The moves of a game played to its end (random legal moves; Scarabeo: the beginner's)."""
    state = engines.factory(game)(options(game, players), seed) if game != "scarabeo" else None
    if game == "scarabeo":
        from game.scarabeo import ai
        from game.scarabeo.game import ScarabeoState

        state = ScarabeoState.from_options(options(game, players), seed, word_list=lex)
        while not state.is_over():
            state.push(ai.choose(state, "beginner", lex))
    else:
        rng = Rng(seed)
        while not state.is_over():
            state.push(rng.choice(list(state.legal_moves())))
    return GameRecord.of(state).moves


def save(page: Any, save_id: str, record: GameRecord) -> None:
    envelope = {"schema": 1, "id": save_id, "game": record.game, "title": save_id, "created": 1, "updated": 2,
                "revision": 1, "state": record.to_json()}
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", ["scarab:save:" + save_id, json.dumps(envelope)])


def open_save(page: Any, game: str, save_id: str) -> None:
    page.evaluate("() => { location.hash = '#/'; }")
    page.wait_for_selector(".game-layout, .cover", state="detached", timeout=60_000)
    page.evaluate("r => { location.hash = r; }", f"#/{game}/play/{save_id}")
    page.wait_for_selector(".game-layout, .cover", timeout=60_000)  # Scarabeo's people: the cover first


def python(page: Any, code: str) -> Any:
    prelude = ("import gc\nfrom web.pages.play import GamePage\n"
               "_page = [o for o in gc.get_objects() if isinstance(o, GamePage) and not o.closed][-1]\n")
    return page.evaluate(RUN_PYTHON, prelude + code)


def measure(page: Any, label: str) -> None:
    found = page.evaluate(FIT, ONE_LINE)
    ghost = page.evaluate("""() => { const g = document.getElementById('sy-ghost-status');
      if (!g || !g.getClientRects().length || !g.textContent.trim()) return null;
      const s = getComputedStyle(g);
      return {lines: g.clientHeight / parseFloat(s.lineHeight), overflow: s.overflowY,
              cut: g.scrollHeight > g.clientHeight + 1}; }""")
    if ghost is not None and ghost["cut"]:  # three whole lines shown, the rest scrolls (never hidden)
        assert ghost["lines"] >= 2.9 and ghost["overflow"] == "auto", f"{label}: the ghost's line is cut: {ghost}"
    if found["wide"] > 0 or found["cut"]:
        shot(page, f"fit-{label}", full_page=False)
    assert found["wide"] <= 0, f"{label}: the page scrolls sideways by {found['wide']} px"
    assert not found["cut"], f"{label}: text cut: {found['cut']}"


def play_through(page: Any, game: str, players: int, moves: list[str], seed: int) -> None:
    """The game opened at its start, its seats people with long names, then each move committed
    through the page as its player would; measured at the start and after every move."""
    seats = [{"name": NAMES[i], "computer": False, "level": 1} for i in range(players)]
    record = GameRecord(game=game, options=options(game, players), seed=seed, moves=[],
                        meta={"seats": seats, "game_id": f"fit-{game}-{players}"})
    save_id = f"fit{game}{players}"
    save(page, save_id, record)
    open_save(page, game, save_id)
    measure(page, f"{game}-{players}-0")
    if page.locator("#reveal").count():
        page.locator("#reveal").click()
        page.wait_for_selector(".game-layout", timeout=30_000)
        measure(page, f"{game}-{players}-0-shown")
    python(page, f"_page.fit_moves = {json.dumps(moves)}")
    for i in range(len(moves)):
        ok = python(page, f"_page.commit(_page.fit_moves[{i}])")
        assert ok, f"{game} {players}: move {i + 1} ({moves[i]}) refused: " + str(
            page.evaluate("document.getElementById('play-message')?.textContent"))
        page.wait_for_timeout(30)
        measure(page, f"{game}-{players}-{i + 1}")
        if page.locator("#reveal").count():  # Scarabeo: the cover, then the next person's rack
            page.locator("#reveal").click()
            page.wait_for_selector(".game-layout", timeout=30_000)
            measure(page, f"{game}-{players}-{i + 1}-shown")
    assert python(page, "_page.session.state.is_over()")


def end_with_computers(page: Any, game: str, players: int, moves: list[str], seed: int) -> None:
    """The same game's end, a person against computers, opened from a save: at 360×640 and 390×844."""
    seats = [{"name": "You", "computer": False, "level": 1}] + [
        {"name": f"Computer {i}", "computer": True, "level": 4} for i in range(1, players)]
    save_id = f"fitend{game}{players}"
    save(page, save_id, GameRecord(game=game, options=options(game, players), seed=seed, moves=moves,
                                   meta={"seats": seats, "game_id": f"fitend-{game}-{players}"}))
    open_save(page, game, save_id)
    for w, h in [(360, 640), (390, 844)]:
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(150)
        measure(page, f"{game}-{players}-end-computers-{w}x{h}")
    page.set_viewport_size({"width": 360, "height": 640})


@pytest.mark.parametrize("game", ["thot", "scarabya"])
def test_a_whole_game_never_wider_than_the_screen_nor_cut(tab: tuple[Any, Guard], game: str) -> None:
    page, _guard = tab
    for players in SEATS[game]:
        seed = 3 + players
        moves = played(game, players, seed)
        play_through(page, game, players, moves, seed)
        end_with_computers(page, game, players, moves, seed)


def test_scarabeo_never_wider_than_the_screen_nor_cut(tab: tuple[Any, Guard], lex: Any) -> None:
    """Scarabeo as its people play it (the cover between their turns), each number of seats."""
    page, _guard = tab
    for players in SEATS["scarabeo"]:
        seed = 3 + players
        moves = played("scarabeo", players, seed, lex)
        play_through(page, "scarabeo", players, moves, seed)
        end_with_computers(page, "scarabeo", players, moves, seed)


@pytest.mark.parametrize("game", ["thot", "scarabya"])
def test_the_review_head_and_caption_whole_on_a_phone(tab: tuple[Any, Guard], game: str) -> None:
    """The review of a finished game at 360×640 and 390×844: its title (a long one: 'Review: Scarab —
    the Game of Thot · 7 December 2026, 14:02') beside the way back, and the last step's caption
    ('Move 93 of 93 — … Game over.'), whole; the way back an arrow named with the whole words."""
    page, _guard = tab
    players = 2
    seed = 3
    moves = played(game, players, seed)
    seats = [{"name": "Ada", "computer": False, "level": 1}, {"name": "Computer 1", "computer": True, "level": 4}]
    record = GameRecord(game=game, options=options(game, players), seed=seed, moves=moves,
                        meta={"seats": seats, "game_id": f"fitrev-{game}"})
    envelope = {"schema": 1, "id": f"fitrev{game}", "game": game, "title": "Scarab — the Game of Thot · 7 December 2026, 14:02",
                "created": 1, "updated": 2, "revision": 1, "state": record.to_json()}
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"scarab:save:fitrev{game}", json.dumps(envelope)])
    page.evaluate("r => { location.hash = r; }", f"#/{game}/review/fitrev{game}")
    page.wait_for_selector(f".review-{game} #review-back", timeout=60_000)
    page.wait_for_function("(document.getElementById('review-caption')?.textContent || '').includes('Game over')",
                           timeout=60_000)
    for w, h in [(360, 640), (390, 844)]:
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(150)
        measure(page, f"review-{game}-{w}x{h}")
        # (one evaluation: the review redraws as its analysis goes on)
        title, back = page.evaluate("""() => ['review-title', 'review-back'].map(id => {
          const b = document.getElementById(id).getBoundingClientRect(); return {x: b.x, width: b.width}; })""")
        assert title["x"] + title["width"] <= back["x"] + 1, \
            f"review {game} {w}×{h}: the title runs under the way back: {title} {back}"
    assert page.get_by_role("link", name="Back to the game").count() == 1
    page.set_viewport_size({"width": 360, "height": 640})


SIZES = [(360, 640), (390, 844), (820, 1180), (1180, 820), (1366, 768), (1440, 900), (1920, 1080)]
#: (JS) the board's squares' size and top, and the boxes of the named elements
BOARD = """(ids) => { const cells = [...document.querySelectorAll('#thot-board .thot-cell')];
  const c = cells[0].getBoundingClientRect(), b = document.getElementById('thot-board').getBoundingClientRect();
  return {square: c.width, top: b.top + scrollY, count: cells.length,
          boxes: ids.map(id => { const e = document.getElementById(id); if (!e) return null;
            const r = e.getBoundingClientRect(); return {id, left: r.left, top: r.top, right: r.right, bottom: r.bottom}; })}; }"""


def test_thot_drop_keeps_the_board_at_the_game_page_size(tab: tuple[Any, Guard]) -> None:
    """An ankh taken, its drop asked: the board keeps its squares and its place at every size (it
    shrank to 17.6 px squares at 360×640), and the drop's scarabs, No drop and Cancel are in view."""
    from game.thot.board import ANKH

    page, _guard = tab
    state = engines.factory("thot")({"players": 2}, 11)
    rng = Rng(11)
    while True:  # the first position where the first seat can take an ankh, holding scarabs
        ankh = [m for m in state.legal_moves() if m.drop is None and state.board[m.dest] == ANKH]
        if state.to_move() == 0 and ankh and len(set(state.collection(0))) >= 3:
            break
        state.push(rng.choice(list(state.legal_moves())))
    seats = [{"name": NAMES[0], "computer": False, "level": 1}, {"name": NAMES[1], "computer": False, "level": 1}]
    save(page, "fitdrop", GameRecord.of(state, seats=seats, game_id="fitdrop"))
    open_save(page, "thot", "fitdrop")
    page.wait_for_selector("#thot-board .mark-legal", timeout=60_000)
    rest = {}
    for w, h in SIZES:
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(120)
        page.evaluate("scrollTo(0, 0)")
        rest[(w, h)] = page.evaluate(BOARD, [])
    move = ankh[0]
    python(page, "from game.thot.moves import ThotMove\nfrom web.games.thot import input as _in\n"
                 f"_in.finish(_page, ThotMove({move.dest}, {move.turn!r}))")
    page.wait_for_selector("#thot-drop", timeout=30_000)
    for w, h in SIZES:
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(120)
        page.evaluate("scrollTo(0, 0)")
        found = page.evaluate(BOARD, ["thot-drop", "thot-nodrop", "thot-cancel"])
        shot(page, f"fit-thot-drop-{w}x{h}", full_page=False)
        assert abs(found["square"] - rest[(w, h)]["square"]) <= .5, \
            f"drop {w}×{h}: the squares went from {rest[(w, h)]['square']:.1f} to {found['square']:.1f} px"
        assert abs(found["top"] - rest[(w, h)]["top"]) <= 1, f"drop {w}×{h}: the board moved"
        for box in found["boxes"]:
            assert box and box["left"] >= -1 and box["right"] <= w + 1 and box["top"] >= -1 and box["bottom"] <= h + 1, \
                f"drop {w}×{h}: {box} is not in the viewport"
        chips = page.evaluate("""() => [...document.querySelectorAll('#thot-drop .chip')].map(c => {
          const r = c.getBoundingClientRect(), s = c.closest('.thot-drop-chips').getBoundingClientRect();
          return r.left >= s.left - 1 && r.right <= s.right + 1 && r.bottom <= innerHeight + 1; })""")
        assert chips and chips[0], f"drop {w}×{h}: the first scarab to drop is not in view"
        measure(page, f"thot-drop-{w}x{h}")
    page.set_viewport_size({"width": 360, "height": 640})
