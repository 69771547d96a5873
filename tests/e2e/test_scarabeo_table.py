"""Scarabeo in Chromium: the hourglass running out (a time-out pass cannot be taken back; another move
taken back gives the hourglass back), a reload in the middle of a turn (the time left and the tiles
laid come back, behind the pass-and-play cover), the challenge window of a table with people and a
computer (the next person's cover saying in words, in English and Italian, the computer's upheld
challenge and its play, with its buttons in view on a 360×640 phone), a challenge decided on the
pass-and-play cover before the next rack is shown, and a computer that is not next challenging a
made-up word.

Time is Playwright's clock (``context.clock.install()`` before the page loads): it replaces
``performance.now()``, which the page's hourglass reads (and Pyodide's own clocks), and the timers; it
flows as usual until a test jumps it forward with ``fast_forward``. The page has no test hook.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from game.scarabeo.board import CENTRE, SIZE, square_name
from game.scarabeo.game import ScarabeoState
from game.scarabeo.movegen import GenPlay, MoveGenerator
from tests.e2e.conftest import Guard, shot, watch
from tests.e2e.test_scarabeo import (
    best_play, engine_state, new_game, new_letters, non_word, reveal_if_covered, set_direction, type_play,
)

pytestmark = pytest.mark.e2e


def seconds_left(page: Any) -> int:
    """The time shown by the hourglass, in seconds ("Hourglass: 1:20 …")."""
    m = re.search(r"(\d+):(\d\d)", page.locator("#sc-clock").text_content() or "")
    assert m, page.locator("#sc-clock").text_content()
    return int(m.group(1)) * 60 + int(m.group(2))


def wait_seconds_left(page: Any, below: int) -> int:
    """Wait for the half-second ticker to show fewer than ``below`` seconds; return what it shows."""
    page.wait_for_function(f"""() => {{ const m = /(\\d+):(\\d\\d)/.exec(document.getElementById('sc-clock').textContent);
        return m && Number(m[1]) * 60 + Number(m[2]) < {below}; }}""", timeout=10_000)
    return seconds_left(page)


def stored(page: Any) -> dict[str, Any]:
    save_id = page.url.split("/play/")[1]
    return json.loads(page.evaluate(f"localStorage.getItem('scarab:save:{save_id}')"))


class TestHourglass:
    def test_the_turn_runs_out_and_passes(self, context_factory: Any, guard: Guard, open_site: Any,
                                          lex: Any) -> None:
        ctx = context_factory()
        ctx.clock.install()
        page = watch(ctx.new_page(), guard)
        new_game(page, open_site, 7, [("Anna", "person"), ("Bruno", "person")], hourglass=True)
        reveal_if_covered(page)
        first = engine_state(page, lex).to_move()
        names = ["Anna", "Bruno"]
        assert seconds_left(page) == 120
        ctx.clock.fast_forward("01:00")
        assert wait_seconds_left(page, 61) >= 58  # the page's performance.now() is Playwright's clock
        assert len(engine_state(page, lex).history()) == 0
        ctx.clock.fast_forward("01:01")  # past the 120 s: the next tick passes the turn
        page.wait_for_selector("#reveal", timeout=10_000)
        assert names[1 - first] in page.locator("#cover-title").text_content()
        reveal_if_covered(page)
        state = engine_state(page, lex)
        assert [state.move_text(m) for m in state.history()] == ["-"]
        assert state.to_move() == 1 - first
        assert "ran out of time: the turn passes" in page.locator("#play-message").text_content()
        row = page.locator("#sc-sheet tbody tr").first.text_content()
        assert names[first] in row and "-" in row
        assert names[1 - first] in page.locator("#sc-scores tr.to-move").text_content()
        assert seconds_left(page) >= 118 and "carried" not in page.locator("#sc-clock").text_content()
        shot(page, "scarabeo-timeout")
        # the hourglass passed that turn, not the player: it cannot be taken back
        assert page.locator("#takeback").is_disabled()

        # a move taken back gives its player the hourglass as it was when they made it
        ctx.clock.fast_forward("00:30")
        left = wait_seconds_left(page, 91)
        page.click("#sc-pass")
        page.locator("dialog[open] button.primary").click()  # Pass asks once (issue 26)
        page.wait_for_selector("#reveal")
        reveal_if_covered(page)
        assert "carried" in page.locator("#sc-clock").text_content()  # the next turn: 2 min + 30 s
        ctx.clock.fast_forward("00:20")
        wait_seconds_left(page, 131)
        assert page.locator("#takeback").is_enabled()
        page.click("#takeback")
        page.locator("dialog[open] button.danger").click()  # pass-and-play take-back asks (issue 26)
        # the move comes back to its player, who does not hold the device: the cover goes up first
        page.wait_for_selector("#reveal")
        assert names[1 - first] in page.locator("#cover-title").text_content()
        reveal_if_covered(page)
        page.wait_for_function(f"document.getElementById('sc-scores').querySelector('tr.to-move')"
                               f".textContent.includes('{names[1 - first]}')")
        assert left - 3 <= seconds_left(page) <= left, (left, seconds_left(page))
        assert "carried" not in page.locator("#sc-clock").text_content()
        assert [engine_state(page, lex).move_text(m) for m in engine_state(page, lex).history()] == ["-"]


class TestLatePlay:
    def test_art18_late_play_becomes_timeout_pass(self, page: Any, open_site: Any, lex: Any,
                                                  gen: MoveGenerator) -> None:
        new_game(page, open_site, 7, [("Anna", "person"), ("Bruno", "person")], hourglass=True)
        reveal_if_covered(page)
        state = engine_state(page, lex)
        p = best_play(state, gen)
        assert p is not None
        type_play(page, state, p)
        # The sand runs out between two ticks of the page's hourglass and the play is sent in that
        # moment: one synchronous step, so the half-second ticker cannot pass the turn first.
        page.evaluate("""() => { const real = performance.now.bind(performance);
            performance.now = () => real() + 125000;
            document.activeElement.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter', bubbles: true})); }""")
        page.wait_for_selector("#reveal", timeout=10_000)
        after = engine_state(page, lex)
        assert [after.move_text(m) for m in after.history()] == ["-"] and not any(after.board)
        assert after.racks[state.to_move()] == state.racks[state.to_move()]
        assert "ran out of time: the turn passes" in page.locator("#play-message").text_content()
        reveal_if_covered(page)
        assert page.locator("#takeback").is_disabled()  # the engine's time-out pass, not the player's
        assert stored(page)["state"]["meta"]["table"]["last"]["timeout"] is True
        page.evaluate("() => { delete performance.now; }")  # the page's own clock back (the page serves the next test)


def scarab_opening(lex: Any, gen: MoveGenerator) -> tuple[int, GenPlay]:
    """A seed whose first player holds a scarab, and their best opening that lays it for a letter
    missing from the rack (so typing that letter uses the scarab)."""
    for seed in range(1, 400):
        state = ScarabeoState.from_options({"players": 2, "names": ["Anna", "Bruno"], "hourglass": True},
                                           seed, word_list=lex)
        rack = state.racks[state.to_move()]
        if "?" not in rack or rack.count("?") > 1:
            continue
        plays = [p for p in gen.plays(state.board, rack, True) if not p[4] and 3 <= len(p[3]) <= 5
                 and any(ch.islower() and ch.upper() not in rack for ch in p[3])]
        if plays:
            plays.sort(key=lambda p: (-p[0], p[1], p[2], p[3]))
            return seed, plays[0]
    raise AssertionError("no deal with a scarab to lay")


class TestReload:
    def test_reload_mid_turn_keeps_the_time_and_the_tiles(self, context_factory: Any, guard: Guard,
                                                         open_site: Any, lex: Any, gen: MoveGenerator) -> None:
        seed, p = scarab_opening(lex, gen)
        ctx = context_factory()
        ctx.clock.install()
        page = watch(ctx.new_page(), guard)
        new_game(page, open_site, seed, [("Anna", "person"), ("Bruno", "person")], hourglass=True)
        reveal_if_covered(page)
        state = engine_state(page, lex)
        type_play(page, state, p)
        laid = new_letters(state, p)
        step = 1 if p[2] else SIZE
        scarab_sq = next(p[1] + k * step for k, ch in enumerate(p[3]) if ch.islower())
        preview = page.locator("#sc-score").text_content()
        ctx.clock.fast_forward("00:40")
        before = wait_seconds_left(page, 81)
        page.reload()
        page.wait_for_selector("body[data-ready='1']", timeout=60_000)
        page.wait_for_selector("#reveal", timeout=30_000)
        # the cover hides the tiles laid like the rack: no board, no rack until the player taps
        assert page.locator("#sc-board").count() == 0 and page.locator("#sc-rack").count() == 0
        ctx.clock.fast_forward("00:30")  # time behind the cover after a reload is not the player's
        page.click("#reveal")
        page.wait_for_selector("#sc-board")
        after = seconds_left(page)
        assert before - 2 <= after <= before, (before, after)
        for sq, _letter in laid:
            assert page.locator(f"#sq-{square_name(sq)}.placed").count() == 1, square_name(sq)
        label = page.locator(f"#sq-{square_name(scarab_sq)}").get_attribute("aria-label")
        assert "scarab" in label.lower() and "just placed" in label, label
        assert page.locator("#sc-score").text_content() == preview
        assert page.locator("#sc-rack [data-tile]").count() == len(state.racks[state.to_move()]) - len(laid)
        shot(page, "scarabeo-reload")
        page.click("#sc-play")
        page.wait_for_selector("#reveal")
        played = engine_state(page, lex)
        assert len(played.history()) == 1 and played.results()[0].score == p[0]
        assert stored(page)["state"]["meta"]["table"].get("tentative") is None

        # a damaged saved clock (written while the game is not open): the turn starts afresh, no error
        url, envelope = page.url, stored(page)
        assert envelope["state"]["meta"]["table"]["clock"]["carry_in"] > 0
        envelope["state"]["meta"]["table"]["clock"] = {"active": True, "used": "soon", "carry_in": -3}
        page.evaluate("location.hash = '#/'")  # the game left: its page is closed
        page.wait_for_selector(".saves")
        page.evaluate("([k, v]) => localStorage.setItem(k, v)",
                      [f"scarab:save:{envelope['id']}", json.dumps(envelope)])
        page.goto(url)
        page.wait_for_selector("#reveal", timeout=30_000)
        page.click("#reveal")
        page.wait_for_selector("#sc-clock")
        assert seconds_left(page) >= 119 and "carried" not in page.locator("#sc-clock").text_content()
        # a hint lays its play as tentative tiles, which are kept like any others
        page.click("#sc-hint")
        page.wait_for_selector("#sc-hint-0", timeout=60_000)
        hint = page.locator("#sc-hint-0 .sc-hint-notation").text_content()
        page.click("#sc-hint-0")
        page.wait_for_selector("#sc-score")
        assert page.locator("#sc-score").text_content().startswith(hint + ":")
        page.wait_for_function(f"JSON.parse(localStorage.getItem('scarab:save:{envelope['id']}'))"
                               ".state.meta.table.tentative !== undefined")


def challenge_seed(lex: Any) -> int:
    """A three-player deal in challenge mode where Anna (seat 1) starts."""
    for seed in range(1, 200):
        state = ScarabeoState.from_options({"players": 3, "names": ["Anna", "Scarabot", "Carla"],
                                            "check_mode": "challenge"}, seed, word_list=lex)
        if state.to_move() == 0:
            non_word(state, lex)
            return seed
    raise AssertionError("no deal where Anna starts")


class TestChallengeWindow:
    def test_people_decide_before_the_computer_plays(self, page: Any, open_site: Any, lex: Any,
                                                     gen: MoveGenerator) -> None:
        seed = challenge_seed(lex)
        new_game(page, open_site, seed, [("Anna", "person"), ("Scarabot", "computer:1"), ("Carla", "person")],
              mode="challenge")
        reveal_if_covered(page)
        # Anna lays a non-word: the computer, next, would challenge it, and does so at once
        state = engine_state(page, lex)
        word = non_word(state, lex)
        set_direction(page, True)
        page.locator(f"#sq-{square_name(CENTRE)}").focus()
        for letter in word:
            page.keyboard.press(letter.lower())
        page.keyboard.press("Enter")
        # the computer challenged, then played: its play is decided on Carla's cover (Anna may challenge too)
        page.wait_for_selector("#cover-title:has-text('Carla')", timeout=60_000)
        page.wait_for_selector("#sc-accept")
        moves = [engine_state(page, lex).move_text(m) for m in engine_state(page, lex).history()]
        assert moves[1] == "!challenge 2" and moves[2][0] not in "!-"  # upheld, then its own play
        assert page.locator("#reveal").count() == 0 and page.locator("#sc-rack").count() == 0
        # no button for its maker
        assert page.locator("#sc-challenge-2").count() == 0 and page.locator("#sc-challenge-1").count() == 1
        assert page.locator("#sc-challenge-3").count() == 1
        # the cover says in words what happened since Carla's last turn, as the message line would:
        # the computer's challenge of Anna's made-up word (upheld), then its own play (issue 26)
        cover_said(page, ("Scarabot challenged ", ": upheld, the play is taken back (", "Scarabot played "))
        page.click("#sc-accept")
        page.wait_for_selector("#reveal")
        reveal_if_covered(page)
        page.click("#sc-pass")
        page.locator("dialog[open] button.primary").click()  # Pass asks once (issue 26)
        page.wait_for_selector("#reveal")
        reveal_if_covered(page)
        # Anna plays real words: the computer would not challenge, Carla may: the table gets the window
        play_best(page, lex, gen)
        page.wait_for_selector("#sc-challenge-waiting", timeout=30_000)
        assert "Scarabot" in page.locator("#sc-challenge-waiting").text_content()
        assert page.locator("#sc-challenge-3").count() == 1 and page.locator("#sc-accept").count() == 1
        assert page.locator("#sc-challenge-1").count() == 0 and page.locator("#sc-challenge-2").count() == 0
        assert page.locator("#reveal").count() == 0 and page.locator("#thinking").count() == 0
        assert page.locator("#sc-rack").count() == 0  # two people at the table: no rack is shown
        assert "hidden" in page.locator(".sc-rack-hidden").text_content()
        # nor can one be worked out: the unseen tiles are then every tile not on the board
        assert page.locator("#sc-unseen-help").text_content().startswith("Not on the board")
        waiting_at = len(engine_state(page, lex).history())
        page.wait_for_timeout(1500)
        assert len(engine_state(page, lex).history()) == waiting_at  # the computer waits
        shot(page, "scarabeo-challenge-window")
        # Carla challenges: every word is valid, the play stands, then the computer plays
        page.click("#sc-challenge-3")
        page.wait_for_selector("#reveal", timeout=60_000)
        after = engine_state(page, lex)
        moves = [after.move_text(m) for m in after.history()]
        assert moves[waiting_at] == "!challenge 3"
        assert after.results()[waiting_at].note.startswith("challenge failed")
        assert after.scores[0] > 0 and len(moves) == waiting_at + 2  # Scarabot's own play followed
        assert "Carla" in page.locator("#cover-title").text_content()

    def test_the_cover_says_the_upheld_challenge_in_italian(self, booted: Any, open_site: Any, lex: Any) -> None:
        """A saved game where Anna's made-up word waits: opened on an Italian phone, the computer
        challenges it (upheld) and plays; Carla's cover says both in Italian, with its buttons in view."""
        from game.core import GameRecord

        seed = challenge_seed(lex)
        state = ScarabeoState.from_options({"players": 3, "names": ["Anna", "Scarabot", "Carla"],
                                            "check_mode": "challenge"}, seed, word_list=lex)
        word = non_word(state, lex)
        state.push(state.play_from_placements([(CENTRE - 1 + k, ch) for k, ch in enumerate(word)], []))
        assert state.pending is not None and state.pending.kind == "challenge"
        seats = [{"name": "Anna"}, {"name": "Scarabot", "computer": True, "level": 1}, {"name": "Carla"}]
        record = GameRecord.of(state, seats=seats, game_id="sc-upheld-it")
        envelope = json.dumps({"schema": 1, "id": "sc-upheld-it", "game": "scarabeo", "title": "sc-upheld-it",
                               "created": 1, "updated": 2, "revision": 1, "state": record.to_json()})
        page = booted(360, 640, locale="it-IT")
        open_site(page, "#/")
        page.evaluate("v => localStorage.setItem('scarab:save:sc-upheld-it', v)", envelope)
        page.evaluate("location.hash = '#/scarabeo/play/sc-upheld-it'")
        page.wait_for_selector("#cover-title:has-text('Carla')", timeout=60_000)
        page.wait_for_selector("#sc-accept")
        after = engine_state(page, lex)
        moves = [after.move_text(m) for m in after.history()]
        assert moves[1] == "!challenge 2" and len(moves) == 3  # upheld, then the computer's own play
        cover_said(page, ("Scarabot ha contestato ", ": contestazione accolta, la giocata è ritirata (",
                          "Scarabot ha giocato "))


#: the box of an element in the viewport, or null when it is not drawn
BOX = """(sel) => { const el = document.querySelector(sel); if (!el || !el.getClientRects().length) return null;
  const b = el.getBoundingClientRect(); return {left: b.left, top: b.top, right: b.right, bottom: b.bottom}; }"""


def cover_said(page: Any, parts: tuple[str, ...]) -> None:
    """On the pass-and-play cover with a play to decide: the message line holds ``parts`` in that
    order, no rack tile is drawn, and on a 360×640 phone at scroll 0 the message line, every
    challenge button and Accept lie inside the screen."""
    message = page.locator(".cover #play-message")
    assert message.is_visible()
    text = message.inner_text()
    at = [text.find(part) for part in parts]
    assert -1 not in at and at == sorted(at), text
    assert page.locator("#sc-rack, .sc-tile, #reveal").count() == 0
    size = page.viewport_size
    page.set_viewport_size({"width": 360, "height": 640})
    try:
        page.wait_for_function("innerWidth === 360 && innerHeight === 640")
        page.evaluate("scrollTo(0, 0)")
        shot(page, "scarabeo-cover-said-360x640", full_page=False)
        buttons = [f"#{b.get_attribute('id')}" for b in page.locator(".cover button").all()]
        assert "#sc-accept" in buttons and any(b.startswith("#sc-challenge-") for b in buttons), buttons
        for sel in ["#play-message", *buttons]:
            box = page.evaluate(BOX, sel)
            assert box is not None and box["left"] >= -1 and box["top"] >= -1 and box["right"] <= 361 \
                and box["bottom"] <= 641, (sel, box)
    finally:
        page.set_viewport_size(size)


def lay_non_word(page: Any, lex: Any) -> str:
    """The player to move lays three of their tiles across the centre, spelling no word; Enter."""
    word = non_word(engine_state(page, lex), lex)
    set_direction(page, True)
    page.locator(f"#sq-{square_name(CENTRE)}").focus()
    for letter in word:
        page.keyboard.press(letter.lower())
    page.keyboard.press("Enter")
    return word


def watch_rack(page: Any) -> None:
    """From now on, record whether a rack is ever drawn (``window.__rackSeen``)."""
    page.evaluate("""() => { window.__rackSeen = !!document.getElementById('sc-rack');
        if (!window.__rackObserver) {
            window.__rackObserver = new MutationObserver(() => {
                if (document.getElementById('sc-rack')) window.__rackSeen = true; });
            window.__rackObserver.observe(document.body, {childList: true, subtree: true});
        } }""")


def unwatch_rack(page: Any) -> None:
    """Stop recording (the shared page serves the next test)."""
    page.evaluate("() => { window.__rackObserver.disconnect(); delete window.__rackObserver; delete window.__rackSeen; }")


#: (element.evaluate) A cell's text without the play's word buttons (issue 40's word panel) after it.
CELL_TEXT = ("e => { const c = e.cloneNode(true); c.querySelectorAll('.sc-word-links').forEach(n => n.remove());"
             " return c.textContent; }")


def sheet_rows(page: Any) -> list[list[str]]:
    return [[(c.evaluate(CELL_TEXT) or "").strip() for c in row.locator("td").all()]
            for row in page.locator("#sc-sheet tbody tr").all()]


def play_best(page: Any, lex: Any, gen: MoveGenerator) -> None:
    """The player to move types the highest-scoring play and presses Enter."""
    state = engine_state(page, lex)
    p = best_play(state, gen)
    assert p is not None
    type_play(page, state, p)
    page.keyboard.press("Enter")


class TestChallengeOnTheCover:
    def test_three_people_decide_before_the_next_rack_shows(self, page: Any, open_site: Any, lex: Any,
                                                             gen: MoveGenerator) -> None:
        seed = challenge_seed(lex)
        new_game(page, open_site, seed, [("Anna", "person"), ("Bruno", "person"), ("Carla", "person")],
              mode="challenge")
        reveal_if_covered(page)
        # Anna lays a made-up word: the device goes to Bruno, but first the table decides
        word = lay_non_word(page, lex)
        page.wait_for_selector("#sc-challenge", timeout=30_000)
        watch_rack(page)
        assert "Bruno" in page.locator("#cover-title").text_content()
        panel = page.locator("#sc-challenge").text_content()
        score = engine_state(page, lex).pending.breakdown.total
        assert word in panel and f"{score} points" in panel
        assert page.locator("#sc-challenge-2").text_content() == "Bruno challenges"
        assert page.locator("#sc-challenge-3").text_content() == "Carla challenges"
        assert page.locator("#sc-challenge-1").count() == 0 and page.locator("#sc-accept").count() == 1
        # no rack, no board, no way to show them yet
        assert page.locator("#reveal").count() == 0
        assert page.locator("#sc-rack").count() == 0 and page.locator("#sc-board").count() == 0
        shot(page, "scarabeo-cover-challenge")
        page.click("#sc-challenge-3")  # Carla: upheld, the play is taken back, still Bruno's turn
        page.wait_for_selector("#reveal")
        message = page.locator("#play-message").text_content()
        assert "Carla challenged" in message and "upheld, the play is taken back" in message
        assert "Bruno" in page.locator("#cover-title").text_content()
        assert not page.evaluate("window.__rackSeen")
        reveal_if_covered(page)

        # Bruno plays a word; Carla's cover: Anna or Carla may challenge; they accept
        play_best(page, lex, gen)
        page.wait_for_selector("#sc-accept", timeout=30_000)
        watch_rack(page)
        assert "Carla" in page.locator("#cover-title").text_content()
        assert page.locator("#sc-challenge-1").count() == 1 and page.locator("#sc-challenge-3").count() == 1
        assert page.locator("#sc-challenge-2").count() == 0 and page.locator("#reveal").count() == 0
        page.click("#sc-accept")
        page.wait_for_selector("#reveal")
        assert not page.evaluate("window.__rackSeen")
        reveal_if_covered(page)

        # Carla plays; Anna's cover: Bruno challenges and fails
        play_best(page, lex, gen)
        page.wait_for_selector("#sc-challenge-2", timeout=30_000)
        watch_rack(page)
        assert "Anna" in page.locator("#cover-title").text_content()
        page.click("#sc-challenge-2")
        page.wait_for_selector("#reveal")
        message = page.locator("#play-message").text_content()
        assert "Bruno challenged" in message and "failed, the play stands" in message
        assert not page.evaluate("window.__rackSeen")
        reveal_if_covered(page)

        after = engine_state(page, lex)
        moves = [after.move_text(m) for m in after.history()]
        assert moves[1] == "!challenge 3" and moves[3] == "!accept" and moves[5] == "!challenge 2"
        # the sheet: each challenge under its challenger, the accept as a note on the play
        rows = sheet_rows(page)
        assert [r[1] for r in rows] == ["Anna", "Carla", "Bruno", "Carla", "Bruno"], rows
        assert rows[0][2].endswith("withdrawn")
        # each move in words, its notation beside it
        assert rows[1][2].startswith("Carla challenged") and "upheld" in rows[1][2]
        assert rows[1][2].endswith("!challenge 3")
        assert rows[2][2].endswith("accepted") and rows[3][2].endswith(moves[4])
        assert rows[4][2].startswith("Bruno challenged") and rows[4][2].endswith("!challenge 2")
        assert page.locator("#takeback").is_disabled()  # a dispute's decision is not taken back
        shot(page, "scarabeo-challenge-sheet")
        unwatch_rack(page)


class TestComputerChallenges:
    def test_a_computer_that_is_not_next_challenges_a_made_up_word(self, page: Any, open_site: Any,
                                                                   lex: Any) -> None:
        seed = challenge_seed(lex)
        new_game(page, open_site, seed, [("Anna", "person"), ("Bruno", "person"), ("Scarabot", "computer:1")],
              mode="challenge")
        reveal_if_covered(page)
        lay_non_word(page, lex)
        # Bruno is next, a person; Scarabot, after him, challenges at once: no dispute on the cover
        page.wait_for_selector("#reveal", timeout=30_000)
        assert "Bruno" in page.locator("#cover-title").text_content()
        message = page.locator("#play-message").text_content()
        assert "Scarabot challenged" in message and "upheld, the play is taken back" in message
        state = engine_state(page, lex)
        assert [state.move_text(m) for m in state.history()][1] == "!challenge 3"
        assert state.to_move() == 1 and not any(state.board)
        reveal_if_covered(page)
        rows = sheet_rows(page)
        assert [r[1] for r in rows] == ["Anna", "Scarabot"]
        assert rows[1][2].startswith("Scarabot challenged") and rows[1][2].endswith("!challenge 3")
        shot(page, "scarabeo-computer-challenge")


def vote_seed(lex: Any) -> int:
    """A three-player deal in vote mode where Anna (seat 1) starts."""
    for seed in range(1, 200):
        state = ScarabeoState.from_options({"players": 3, "names": ["Anna", "Bruno", "Carla"],
                                            "check_mode": "vote", "contest": True}, seed,
                                            word_list=lex)
        if state.to_move() == 0:
            return seed
    raise AssertionError("no deal where Anna starts")


class TestAnyWordCanBeContested:
    def test_vote_mode_a_lexicon_word_is_put_to_the_vote_and_refused_after(self, page: Any, open_site: Any,
                                                                           lex: Any, gen: MoveGenerator) -> None:
        seed = vote_seed(lex)
        new_game(page, open_site, seed, [("Anna", "person"), ("Bruno", "person"), ("Carla", "person")], mode="vote")
        reveal_if_covered(page)
        # Anna plays a lexicon word: it stands unless someone contests it, decided on Bruno's cover
        state = engine_state(page, lex)
        p = best_play(state, gen)
        assert p is not None and lex.contains(p[3].upper())
        type_play(page, state, p)
        page.keyboard.press("Enter")
        page.wait_for_selector("#sc-challenge[data-mode='contest']", timeout=30_000)
        watch_rack(page)
        assert "Bruno" in page.locator("#cover-title").text_content()
        assert page.locator("#sc-dispute-title").text_content() == "Put a word to the vote?"
        assert page.locator("#sc-challenge-2").text_content() == "Bruno puts it to the vote"
        assert page.locator("#sc-challenge-3").text_content() == "Carla puts it to the vote"
        assert page.locator("#sc-challenge-1").count() == 0 and page.locator("#sc-accept").count() == 1
        assert "even one in the lexicon" in page.locator("#sc-challenge").text_content()
        word = engine_state(page, lex).pending.breakdown.words[0].word
        shot(page, "scarabeo-contest")
        page.click("#sc-challenge-3")  # Carla contests the lexicon word: the table votes
        page.wait_for_selector("#reveal, #sc-vote", timeout=30_000)
        reveal_if_covered(page)
        page.wait_for_selector("#sc-vote")
        assert f"Carla contests Anna's play" in page.locator("#sc-vote").text_content()
        assert word in page.locator("#sc-vote").text_content()
        assert not page.evaluate("window.__rackSeen") or page.locator("#sc-vote").count() == 1
        for seat in range(3):
            page.check(f"#sc-vote-{seat}-N")
        page.click("#sc-vote-go")
        page.wait_for_selector("#reveal, #sc-play", timeout=30_000)
        reveal_if_covered(page)
        assert "rejected" in page.locator("#play-message").text_content()
        voted = engine_state(page, lex)
        moves = [voted.move_text(m) for m in voted.history()]
        assert moves[1] == f"!challenge 3 {word}" and moves[2] == "!vote NNN"
        assert voted.to_move() == 0 and not any(voted.board) and voted.rejected == {word}
        rows = sheet_rows(page)
        assert [r[1] for r in rows][:2] == ["Anna", "Carla"] and f"the table votes on {word}" in rows[1][2]
        # the same word again: refused for the rest of the game, already in the preview
        set_direction(page, p[2])
        page.locator(f"#sq-{square_name(p[1])}").focus()
        for _sq, letter in new_letters(voted, p):
            page.keyboard.press(letter.lower())
        page.wait_for_function("document.body.textContent.includes('Voted down earlier in this game: "
                               f"{word}')", timeout=10_000)
        page.keyboard.press("Enter")
        page.wait_for_timeout(500)
        assert len(engine_state(page, lex).history()) == 3
        # and the rules page says so, in the decisions
        open_site(page, "#/scarabeo/rules")
        page.wait_for_selector("#sc-rules-decisions")
        decisions = page.locator("#sc-rules-decisions").text_content()
        assert "GUIDERDONE" in decisions and "forget to draw" in decisions
        unwatch_rack(page)


def closing_record(lex: Any) -> str:
    """A two-person challenge-mode game played by the computer up to the play that empties the bag and
    its rack, waiting for the table's decision: its text record."""
    from game.scarabeo import ai, record

    for seed in range(1, 40):
        game = ScarabeoState.from_options({"players": 2, "names": ["Anna", "Bruno"], "check_mode": "challenge"},
                                          seed, word_list=lex)
        while not game.is_over():
            p = game.pending
            if p is not None and not game.bag and not game.racks[p.player]:
                return record.to_text(game)
            game.push(ai.choose(game, "greedy"))
    raise AssertionError("no game reached a closing play")


class TestClosingPlayAwaitingAChallenge:
    def test_a_move_before_the_decision_is_refused_as_pending_not_as_game_over(
            self, page: Any, open_site: Any, lex: Any, gen: MoveGenerator, tmp_path: Any) -> None:
        path = tmp_path / "closing.txt"
        path.write_text(closing_record(lex), encoding="utf-8")
        open_site(page, "#/scarabeo/new")
        page.wait_for_selector("#sc-import", state="attached", timeout=60_000)
        page.set_input_files("#sc-import", str(path))
        page.wait_for_selector("#reveal, #sc-board", timeout=30_000)
        reveal_if_covered(page)
        state = engine_state(page, lex)
        assert state.pending is not None and not state.is_over()
        page.wait_for_selector("#sc-accept")
        p = best_play(state, gen)
        assert p is not None
        # the next player lays a play instead of deciding: refused with the reason
        set_direction(page, p[2])
        page.locator(f"#sq-{square_name(p[1])}").focus()
        for _sq, letter in new_letters(state, p):
            page.keyboard.press(letter.lower())
        page.wait_for_function("document.body.textContent.includes("
                               "'This play closes the game: it must first be accepted or challenged')",
                               timeout=10_000)
        page.keyboard.press("Enter")
        page.wait_for_timeout(500)
        assert "game is over" not in (page.text_content("body") or "")
        assert len(engine_state(page, lex).history()) == len(state.history())
        page.click("#sc-accept")
        page.wait_for_function("document.body.textContent.includes('Play again')", timeout=30_000)
        assert engine_state(page, lex).is_over()
