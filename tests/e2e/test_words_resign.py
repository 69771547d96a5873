"""Issue 42, "Words" and resigning against the computer, in the page at 360×640 and 390×844: who won
with the reader's own form ("You win", never "You wins") and as an Italian would say it ("Ha vinto il
computer (intermedio)"); Scarabya's one player named once; the daily's abbreviations explained; a
"Settings saved." that goes away; Resign in each game's tools, confirmed once, the end said, kept by
the save and the review, counted as a loss."""

from __future__ import annotations

import json
from typing import Any

import pytest

from game.core import GameRecord, Rng
from web.platform import engines

pytestmark = pytest.mark.e2e

PHONE, TALL = (360, 640), (390, 844)
COMPUTER = {"name": "Computer (intermediate)", "computer": True, "level": 2}


def envelope(save_id: str, game: str, record: GameRecord) -> str:
    return json.dumps({"schema": 1, "id": save_id, "game": game, "title": save_id, "created": 1, "updated": 2,
                       "revision": 1, "state": record.to_json()})


def finished(game: str, you: str, winner: int, players: int = 2) -> GameRecord:
    """A game played to its end by random legal moves, in which seat ``winner`` alone won."""
    options: dict[str, Any] = {"players": players, "short": True} if game == "thot" else {"players": players}
    for seed in range(1, 200):
        state = engines.factory(game)(options, seed)
        rng = Rng(seed)
        while not state.is_over():
            state.push(rng.choice(list(state.legal_moves())))
        outcome = state.outcome()
        if outcome is not None and list(outcome.winners) == [winner]:
            seats = [{"name": you}] + ([COMPUTER] if players == 2 else [])
            return GameRecord.of(state, seats=seats, game_id=f"{game}{seed}")
    raise AssertionError("no such game")


def scarabeo_finished(you: str, winner: int) -> GameRecord:
    """Scarabeo ended by passes (everyone twice): the smaller rack wins."""
    from game.scarabeo import Pass
    from game.scarabeo.game import ScarabeoState
    from game.scarabeo.lexicon_file import load_lexicon

    lex = load_lexicon(otherwise="")
    for seed in range(1, 200):
        state = ScarabeoState.from_options({"players": 2}, seed, word_list=lex)
        while not state.is_over():
            state.push(Pass())
        outcome = state.outcome()
        if outcome is not None and list(outcome.winners) == [winner]:
            return GameRecord.of(state, seats=[{"name": you}, COMPUTER], game_id=f"sc{seed}")
    raise AssertionError("no such game")


def open_save(page: Any, open_site: Any, game: str, record: GameRecord, save_id: str = "g1") -> None:
    open_site(page, "#/")
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"scarab:save:{save_id}", envelope(save_id, game, record)])
    page.evaluate(f"location.hash = '#/{game}/play/{save_id}'")


RESULT = {"scarabeo": "#sc-result", "thot": "#thot-result", "scarabya": "#sy-end .sy-final"}


class TestWhoWon:
    @pytest.mark.parametrize("game", ["scarabeo", "thot", "scarabya"])
    def test_you_win_in_english_at_360(self, booted: Any, open_site: Any, game: str) -> None:
        page = booted(*PHONE, has_touch=True, is_mobile=True)
        record = scarabeo_finished("You", 0) if game == "scarabeo" else finished(game, "You", 0)
        open_save(page, open_site, game, record)
        page.wait_for_selector(RESULT[game], state="attached", timeout=30_000)
        assert (page.locator(RESULT[game]).text_content() or "").strip() == "You win"

    @pytest.mark.parametrize("game", ["scarabeo", "thot", "scarabya"])
    def test_the_computer_wins_in_italian_at_390(self, booted: Any, open_site: Any, game: str) -> None:
        page = booted(*TALL, locale="it-IT", has_touch=True, is_mobile=True)
        record = scarabeo_finished("Tu", 1) if game == "scarabeo" else finished(game, "Tu", 1)
        open_save(page, open_site, game, record)
        page.wait_for_selector(RESULT[game], state="attached", timeout=30_000)
        assert (page.locator(RESULT[game]).text_content() or "").strip() == "Ha vinto il computer (intermedio)"


class TestScarabyaOnePlayer:
    def test_one_name_for_one_person(self, booted: Any, open_site: Any) -> None:
        page = booted(*PHONE, has_touch=True, is_mobile=True)
        open_site(page, "#/scarabya/new")
        page.locator("#players").select_option("1")
        assert page.locator("#seat-0-name").input_value() == "You"  # not "Player 1" above and "You" below
        # a solo game saved with the name "Player 1": the end says "Player 1", as the header does
        open_save(page, open_site, "scarabya", finished("scarabya", "Player 1", 0, players=1), "solo")
        page.wait_for_selector("#sy-end .sy-final", timeout=30_000)
        final = page.locator("#sy-end .sy-final").inner_text()
        assert final.startswith("Player 1 scored "), final
        assert "Player 1" in page.locator("#scoreline").inner_text()


class TestDailyAbbreviation:
    def test_a_best_play_says_what_its_abbreviation_stands_for(self, booted: Any, open_site: Any) -> None:
        page = booted(*TALL, has_touch=True, is_mobile=True)
        open_site(page, "#/daily/scarabeo?date=2026-12-04")  # its best plays include C15 BG
        page.wait_for_selector("#daily-banner #daily-task", timeout=90_000)
        page.locator("#daily-show-answer").tap()
        page.get_by_role("dialog").get_by_role("button", name="Show the answer").tap()
        page.wait_for_selector(".daily-top li", timeout=30_000)
        items = page.locator(".daily-top li").all_inner_texts()
        assert any("C15 BG" in i and "(BG: an allowed abbreviation, for Bergamo)" in i for i in items), items


class TestSettingsSaved:
    def test_the_notice_goes_away(self, booted: Any, open_site: Any) -> None:
        page = booted(*PHONE, has_touch=True, is_mobile=True)
        open_site(page, "#/settings")
        page.locator("input[name=theme][value=dark]").check()
        toast = page.locator("#toast")
        assert toast.is_visible() and toast.inner_text() == "Settings saved."
        toast.wait_for(state="hidden", timeout=5_000)  # it goes by itself, and soon
        page.locator("input[name=theme][value=light]").check()
        assert toast.is_visible()
        toast.tap()  # or at a tap
        toast.wait_for(state="hidden", timeout=1_000)
        # what the live settings say is what the server does for players, not its protocol's name
        label = page.locator("label[for=ice-server]").inner_text()
        assert "STUN" not in label and "different networks" in label


def new_against_computer(page: Any, open_site: Any, game: str) -> None:
    open_site(page, f"#/{game}/new")
    page.locator("#mode-computer").check()
    assert page.locator("#seat-0-name").input_value() == "You"
    page.locator("#start").tap()
    page.wait_for_selector({"scarabeo": "#sc-board", "thot": "#thot-board", "scarabya": ".sy-game"}[game],
                           timeout=60_000)


def stats_of(page: Any, game: str) -> dict[str, Any]:
    data = json.loads(page.evaluate("localStorage.getItem('scarab:stats')") or "{}")
    return dict(data.get("players", {}).get("you", {}).get("games", {}).get(game, {}))


class TestResign:
    @pytest.mark.parametrize("game", ["scarabeo", "thot", "scarabya"])
    def test_resign_from_the_phone_menu_confirmed_once(self, booted: Any, open_site: Any, game: str) -> None:
        page = booted(*PHONE, has_touch=True, is_mobile=True)
        new_against_computer(page, open_site, game)
        # the phone's menu lists the game's tools, Resign among them
        page.locator("#menu-button").tap()
        page.locator("#bar-game").get_by_role("button", name="Resign").tap()
        dialog = page.get_by_role("dialog")
        assert "counts as a loss" in dialog.inner_text()
        dialog.get_by_role("button", name="Cancel").tap()  # changed one's mind: the game goes on
        assert page.locator("#resigned-end").count() == 0 and stats_of(page, game) == {}
        page.locator("#menu-button").tap()
        page.locator("#bar-game").get_by_role("button", name="Resign").tap()
        page.get_by_role("dialog").get_by_role("button", name="Resign").tap()
        page.wait_for_selector("#resigned-result")
        # the form's level: the ladder's middle (Thot's intermediate, the others' expert)
        level = "intermediate" if game == "thot" else "expert"
        assert page.locator("#resigned-result").inner_text() == f"You resigned. The computer ({level}) wins."
        assert page.locator("#resign").count() == 0
        figures = stats_of(page, game)
        assert (figures["played"], figures["lost"], figures["won"]) == (1, 1, 0)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        # the save keeps it: reloaded, still over, nothing to play, counted once
        page.reload()
        page.wait_for_selector("#resigned-result", timeout=60_000)
        assert page.title().startswith("Game over")
        assert stats_of(page, game)["played"] == 1
        # and the review says it after the last move
        page.locator("#resigned-end #end-review").tap()
        page.wait_for_selector("#review-caption", timeout=60_000)
        page.keyboard.press("End")
        page.wait_for_function("document.getElementById('review-caption').textContent.endsWith('You resigned.')")

    def test_resign_with_the_keyboard_in_italian(self, booted: Any, open_site: Any) -> None:
        page = booted(1280, 800, locale="it-IT")
        new_against_computer_it = "#/thot/new"
        open_site(page, new_against_computer_it)
        page.locator("#start").click()
        page.wait_for_selector("#thot-board", timeout=60_000)
        resign = page.get_by_role("button", name="Abbandona")
        resign.focus()
        page.keyboard.press("Enter")
        page.get_by_role("dialog").wait_for()
        page.keyboard.press("Escape")  # dismissed: nothing happens
        assert page.locator("#resigned-end").count() == 0
        resign.focus()
        page.keyboard.press("Enter")
        page.get_by_role("dialog").get_by_role("button", name="Abbandona").focus()
        page.keyboard.press("Enter")
        page.wait_for_selector("#resigned-result")
        assert page.locator("#resigned-result").inner_text() == "Hai abbandonato. Ha vinto il computer (intermedio)."
        assert stats_of(page, "thot") == {} and (json.loads(page.evaluate(
            "localStorage.getItem('scarab:stats')"))["players"]["tu"]["games"]["thot"]["lost"] == 1)
