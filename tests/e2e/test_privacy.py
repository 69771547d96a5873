"""Issue 24 in the browser: what leaves a device reveals no rack and no puzzle answer.

- the Scarabeo share link of an unfinished three-person game opens as a watch; decoding it yields
  no rack; an edited link or an edited import cannot show a rack;
- the daily share opened in a fresh browser shows the puzzle to play, unspoiled;
- a vote in pass-and-play is cast with every rack covered;
- a tampered analysis (in a link, in a save) shows "cannot be opened", and the rest of the site works.

Each browser context stands for a device of its own (its own localStorage).
"""

from __future__ import annotations

import base64
import copy
import json
import zlib
from typing import Any

import pytest

from game.core import GameRecord
from game.core.analysis import Progress, run
from tests.e2e.conftest import shot, watch
from tests.e2e.test_scarabeo import engine_state, new_game, non_word

pytestmark = pytest.mark.e2e

NAMES = ["Anna", "Bruno", "Carla"]
RACK = "#sc-rack, #sc-rack .sc-tile"


def scarabeo_game(lex: Any, moves: int = 4) -> Any:
    """Issue 24's game: three people, seed 777, four moves (the engine's greedy plays)."""
    from game.scarabeo import ai
    from game.scarabeo.game import ScarabeoState

    state = ScarabeoState.from_options({"players": 3, "names": NAMES}, 777, word_list=lex)
    for _ in range(moves):
        state.push(ai.choose(state, "greedy"))
    return state


def seats() -> list[dict[str, Any]]:
    return [{"name": n, "computer": False, "level": 2} for n in NAMES]


def unpack(payload: str) -> dict[str, Any]:
    body = payload[3:]
    return json.loads(zlib.decompress(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))))


def repack(payload: dict[str, Any]) -> str:
    """A link edited by hand, its check recomputed (the check is no secret)."""
    from web.platform import share

    payload = {k: v for k, v in payload.items() if k != "check"}
    payload["check"] = share._check(payload)
    return share.PREFIX + base64.urlsafe_b64encode(zlib.compress(share._canonical(payload))).decode().rstrip("=")


def open_link(page: Any, open_site: Any, payload: str) -> None:
    open_site(page)
    page.evaluate("d => { location.hash = '#/open?d=' + d; }", payload)


def no_rack_shown(page: Any) -> None:
    assert page.locator(RACK).count() == 0
    assert page.locator("#reveal").count() == 0  # nobody's tiles to show


class TestScarabeoWatch:
    def test_the_link_of_an_unfinished_game_opens_as_a_watch_with_no_rack(self, page: Any, open_site: Any,
                                                                           lex: Any) -> None:
        from web.platform.share import decode, link_for

        state = scarabeo_game(lex)
        record = GameRecord.of(state, seats=seats())
        payload = link_for(state, record, "issue24")
        # decoding the link, as anyone could: the public record and the seats, no rack, no seed
        shared = decode(payload)
        assert shared.kind == "watch" and shared.record is None
        text = json.dumps(unpack(payload))
        assert '"seed"' not in text and '"racks"' not in text
        for rack in state.racks:
            assert "".join(sorted(rack)) not in text
        open_link(page, open_site, payload)
        page.wait_for_selector(".replay-note", timeout=60_000)
        page.wait_for_selector("#sc-board")
        no_rack_shown(page)
        assert "watch" in page.inner_text(".replay-note")
        assert page.locator("#sc-board .sc-sq.tile").count() == sum(1 for c in state.board if c)
        scores = [int(x) for x in page.locator("#scoreline .sl-score").all_inner_texts()]
        assert scores == list(state.view()["scores"])
        stored = page.evaluate("() => Object.keys(localStorage).filter(k => k.startsWith('scarab:save:'))"
                               ".map(k => localStorage.getItem(k))")
        assert len(stored) == 1 and '"seed"' not in stored[0] and json.loads(stored[0])["state"]["format"] == "scarab-watch"
        shot(page, "privacy-watch")
        # its review steps through the moves as the table saw them
        page.click("#review")
        page.wait_for_selector("#review[data-total='4']", timeout=30_000)
        assert page.locator("#review-analyse").count() == 0

    def test_the_share_dialog_gives_a_watch_link_and_a_separate_move_link(self, page: Any, open_site: Any) -> None:
        from web.platform.share import decode

        new_game(page, open_site, 777, [(n, "person") for n in NAMES])
        page.wait_for_selector("#reveal")
        page.click("#reveal")
        page.click("#share")
        watch_link = page.locator("#share-link").input_value()
        shared = decode(watch_link.split("d=", 1)[1])
        assert shared.kind == "watch" and "seed" not in json.dumps(unpack(watch_link.split("d=", 1)[1]))
        assert "watch the game" in page.inner_text("#share-note")
        # moving the game to another device: said plainly, confirmed, and only then the seed
        page.click("#share-move")
        assert "every rack will be visible" in page.inner_text("#share-move-confirm")
        shot(page, "privacy-share-move")
        assert page.locator("#share-link").input_value() == watch_link
        page.click("#share-move-yes")
        move_link = page.locator("#share-link").input_value()
        moved = decode(move_link.split("d=", 1)[1])
        assert moved.kind == "move" and moved.record is not None and moved.record.seed == 777

    def test_an_edited_link_cannot_show_a_rack(self, page: Any, open_site: Any, lex: Any) -> None:
        from web.platform.share import link_for

        state = scarabeo_game(lex)
        payload = unpack(link_for(state, GameRecord.of(state, seats=seats()), "issue24"))
        for edit in ({"kind": "move"}, {"kind": "game"}):
            forged = repack({**copy.deepcopy(payload), **edit})
            open_link(page, open_site, forged)
            page.get_by_role("heading", name="Link refused").wait_for(timeout=60_000)
            no_rack_shown(page)
        revealed = copy.deepcopy(payload)
        revealed["meta"]["revealed"] = True
        open_link(page, open_site, repack(revealed))
        page.get_by_role("heading", name="Link refused").wait_for(timeout=60_000)
        no_rack_shown(page)
        shot(page, "privacy-edited-link")

    def test_an_edited_import_cannot_show_a_rack(self, page: Any, open_site: Any, lex: Any, tmp_path: Any) -> None:
        from web.platform import share

        state = scarabeo_game(lex)
        public = share.public_of(state)
        watched = {"kind": "watch", "schema": 1, "id": "w1", "game": "scarabeo", "title": "watched", "created": 1,
                   "updated": 2, "revision": 1,
                   "state": share.watch_json(public, {"game_id": "issue24", "seats": seats()})}
        # the edit: "replay": true removed, and the file called a backup
        edited = copy.deepcopy(watched)
        edited["kind"] = "backup"
        edited["state"]["meta"].pop("replay")
        path = tmp_path / "edited.json"
        path.write_text(json.dumps(edited), encoding="utf-8")
        open_site(page)
        page.set_input_files("#import-file", str(path))
        page.wait_for_selector(".saves li.save a.title", timeout=30_000)
        page.click(".saves li.save a.title")
        page.wait_for_selector(".replay-note", timeout=60_000)
        page.wait_for_selector("#sc-board")
        no_rack_shown(page)
        # a "watch" file holding a whole game (the seed put back by hand) is refused
        whole = copy.deepcopy(watched)
        whole["state"] = GameRecord.of(state, seats=seats(), game_id="issue24").to_json()
        path.write_text(json.dumps(whole), encoding="utf-8")
        open_site(page, "#/")
        page.set_input_files("#import-file", str(path))
        page.wait_for_function("document.body.innerText.includes('has been altered')", timeout=30_000)
        assert page.locator(".saves li.save").count() == 1


class TestDailyShare:
    def test_the_daily_share_opens_the_puzzle_unspoiled(self, fresh_page: Any, server: str) -> None:
        from game import daily
        from web.platform import daily_store as ds

        import datetime

        day = datetime.date(2026, 12, 1)
        puzzle = daily.run(daily.generate_one("thot", day))
        query = ds.share_query(day.isoformat(), puzzle["points"], puzzle["points"], 100, "🟩🟩🟩")
        link = f"{server}#/daily/thot?{query}"
        assert not any(move in link for move in puzzle["line"])
        page = fresh_page
        page.goto(link)
        page.wait_for_selector("body[data-ready='1']", timeout=60_000)
        page.wait_for_selector("#daily-banner #daily-task", timeout=60_000)
        assert page.locator("#daily-result, #daily-line").count() == 0
        assert "perfect line" not in page.inner_text("#app").lower()
        assert page.locator("#daily-friend-later").count() == 1
        assert page.locator("#daily-show-answer").count() == 1
        assert page.locator("#review").count() == 0  # its analysis would give the answer away
        shot(page, "privacy-daily-unspoiled")
        # "Show the answer", confirmed: the line is shown and the attempt is not counted
        page.click("#daily-show-answer")
        page.get_by_role("dialog").get_by_role("button", name="Show the answer").click()
        page.wait_for_selector("#daily-line")
        assert page.locator("#daily-spoiled").count() == 1


class TestVote:
    def test_a_vote_covers_every_rack(self, page: Any, open_site: Any, lex: Any) -> None:
        new_game(page, open_site, 7, [(n, "person") for n in NAMES], mode="vote")
        page.wait_for_selector("#reveal")
        page.click("#reveal")
        page.wait_for_selector("#sc-rack")
        state = engine_state(page, lex)
        page.locator("#sq-I9").focus()  # across from the centre, a word the lexicon does not know
        page.keyboard.type(non_word(state, lex).lower())
        page.keyboard.press("Enter")
        # the table votes on the cover: no rack, no board, no way to show the tiles before the vote
        page.wait_for_selector("#sc-vote", timeout=30_000)
        assert page.locator(".cover #sc-vote").count() == 1
        assert page.locator("#sc-rack, .sc-tile, #sc-board, #reveal").count() == 0
        shot(page, "privacy-vote-cover")
        for seat in range(3):
            page.check(f"#sc-vote-{seat}-N")
        page.click("#sc-vote-go")
        page.wait_for_selector("#reveal", timeout=30_000)  # the player may then show their tiles again
        assert page.locator("#sc-rack").count() == 0


class TestTamperedAnalysis:
    def finished_thot(self) -> tuple[GameRecord, dict[str, Any]]:
        from game.core import Rng
        from game.thot import match
        from web.platform import engines, review_model

        state = engines.factory("thot")({"players": 2, "short": True}, 5)
        rng = Rng(5)
        while not state.is_over():
            state.push(match.choose(state, "greedy", rng))
        record = GameRecord.of(state, seats=[{"name": "Ada"}, {"name": "Bo"}], game_id="tamper")
        analysis = run(review_model.analyse_steps(record, review_model.Scope(True, None), Progress()))
        return record, analysis.to_json()

    def test_a_tampered_review_link_cannot_be_opened_and_the_site_works(self, page: Any, open_site: Any) -> None:
        from web.platform.review_model import CACHE_KEY
        from web.platform.share import encode

        record, analysis = self.finished_thot()
        bad = copy.deepcopy(analysis)
        for m in bad["moves"]:
            m["seat"] = 99
        record.meta[CACHE_KEY] = bad
        open_link(page, open_site, encode(record, "tamper"))
        page.get_by_role("heading", name="Link refused").wait_for(timeout=60_000)
        assert "cannot be opened" in page.inner_text(".link-refused p")
        assert "Traceback" not in page.inner_text("#app") and "PythonError" not in page.inner_text("body")
        shot(page, "privacy-tampered-link")
        # the rest of the site works: home, a new game
        page.click(".link-refused a.button")
        page.wait_for_selector("#continue-title")
        page.evaluate("location.hash = '#/thot/new'")
        page.wait_for_selector("#start")

    def test_a_tampered_stored_analysis_cannot_be_opened_and_the_review_goes_on(self, page: Any,
                                                                              open_site: Any) -> None:
        from web.platform.review_model import CACHE_KEY

        record, analysis = self.finished_thot()
        bad = copy.deepcopy(analysis)
        bad["moves"][0]["scores"] = [10 ** 39, 0]  # 40 digits: within the JSON guard, beyond any score
        record.meta[CACHE_KEY] = bad
        envelope = json.dumps({"schema": 1, "id": "tamper", "game": "thot", "title": "tampered", "created": 1,
                               "updated": 2, "revision": 1, "state": record.to_json()})
        open_site(page)
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", ["scarab:save:tamper", envelope])
        open_site(page, "#/thot/review/tamper")
        page.wait_for_selector("#review-refused", timeout=60_000)
        assert page.inner_text("#review-refused").startswith("This analysis cannot be opened:")
        page.click("#review-first")
        page.wait_for_selector("#review[data-step='0']")
        assert page.locator("#review-analyse").count() == 1  # analysing again replaces it
        assert "Traceback" not in page.inner_text("body") and "PythonError" not in page.inner_text("body")
        shot(page, "privacy-tampered-analysis")
