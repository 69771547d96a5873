"""One voice (issue 26): Scarabya's one notation for a placement, the reason a placement does not fit,
the Ruins zone label and what it means, the review's unit in the singular for 1 ("Loss 1 point"),
in Italian and English, from the real engines and the real catalogue.

The views' modules are imported with a stand-in ``pyscript`` (module-level imports only, as in
tests/web/test_snapshot.py); the functions tested here touch no DOM.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from types import SimpleNamespace as NS
from typing import Any, Iterator

import pytest

from game.scarabya import DISCARD, ScarabyaState
from game.scarabya.grid import SITE
from game.scarabya.ruins import BOARD, RUINS_TILES, tile_value
from game.scarabya.sets import TILES
from web.platform.i18n import Messages, load_catalogue

from tests.scarabya.helpers import DECK, PLAIN
from tests.scarabya.test_ruins import game as ruins_game
from tests.web.standin import stand_in_pyscript

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = load_catalogue()
T = {lang: Messages(CATALOGUE, lang) for lang in ("it", "en")}


@pytest.fixture(scope="module")
def views() -> Iterator[dict[str, Any]]:
    """web.games.scarabya.board, .context and web.pages.review, imported with a stand-in ``pyscript``."""
    with stand_in_pyscript(drop=("web.games", "web.ui", "web.pages", "web.platform.router",
                                 "web.platform.tutorial")):
        yield {"board": importlib.import_module("web.games.scarabya.board"),
               "context": importlib.import_module("web.games.scarabya.context"),
               "review": importlib.import_module("web.pages.review")}


def page_on(state: Any, lang: str, **selection: Any) -> Any:
    """What the Scarabya view reads of its page here: the session's state, the messages, the selection."""
    return NS(session=NS(state=state), t=T[lang], selection=dict(selection))


# --- one notation for one placement ----------------------------------------------------------------
class TestOneNotation:
    def ghost(self, views: dict[str, Any], piece: str, k: int, anchor: tuple[int, int]) -> Any:
        board = object.__new__(views["board"].Board)  # the ghost's arithmetic, without drawing a board
        board.page, board.grid, board.piece, board.placing = page_on(None, "en", k=k, anchor=anchor), SITE, piece, None
        return board

    def test_a_symmetric_tile_turned_keeps_its_name(self, views: dict[str, Any]) -> None:
        # U flipped (orientation 7) looks like U turned (3): the page writes U3@B8, never U7@B8
        board = self.ghost(views, "U", 7, (1, 7))
        assert board.move_text() == "U7@B8"
        assert board.shown_text() == "U3@B8"

    def test_the_shown_name_is_the_engines_for_every_orientation(self, views: dict[str, Any]) -> None:
        # each tile in each of its 8 orientations, on the squares the engine would write: the same name
        state = ScarabyaState.new(1, PLAIN, DECK)
        for name, tile in TILES.items():
            for k in range(8):
                board = self.ghost(views, name, k, (2, 2))
                shown = board.shown_text()
                assert shown is not None
                engine_k, square = int(shown[len(name)]), shown.split("@")[1]
                assert engine_k == tile.canonical[k] and square == "C3", (name, k, shown)
                # same squares covered by the written and the shown orientation
                move, written = state.parse_move(board.move_text()), state.parse_move(shown)
                assert (TILES[name].mask_at(SITE, move.orientation, move.anchor)
                        == TILES[name].mask_at(SITE, written.orientation, written.anchor)), (name, k)

    def test_a_ruins_piece_keeps_its_name(self, views: dict[str, Any]) -> None:
        board = self.ghost(views, "4O", 5, (0, 0))
        board.grid = BOARD
        assert board.move_text() == "4O5@A1" and board.shown_text() == "4O0@A1"


# --- the reason a placement does not fit -----------------------------------------------------------
def reasons(views: dict[str, Any], state: Any, move: str) -> dict[str, str]:
    return {lang: views["context"].why_not(page_on(state, lang), move) for lang in ("en", "it")}


class TestWhyNot:
    def test_every_refusal_of_the_classic_game_says_why(self, views: dict[str, Any]) -> None:
        s = ScarabyaState.new(1, PLAIN, DECK)  # tile I first; B2 is a rock
        assert reasons(views, s, "I0@A1") == {"en": "The first tile must cover E5, F5, E6 or F6.",
                                              "it": "La prima tessera deve coprire E5, F5, E6 o F6."}
        assert reasons(views, s, "I1@B1") == {"en": "I1@B1 would cover a rock.", "it": "I1@B1 coprirebbe una roccia."}
        assert reasons(views, s, "I0@H1") == {"en": "I0@H1 would stick out of the frame.",
                                              "it": "I0@H1 uscirebbe dalla cornice."}
        assert reasons(views, s, "X0@E5") == {"en": "This round's tile is the one on the mission card.",
                                              "it": "Questo turno si posa la tessera della carta missione."}
        assert reasons(views, s, DISCARD.text()) == {"en": "The tile fits somewhere, so it must be placed.",
                                                     "it": "La tessera entra da qualche parte, quindi va posata."}
        assert reasons(views, s, "I0@E5") == {"en": "", "it": ""}  # it fits
        s.push(s.parse_move("I0@E5"))
        assert reasons(views, s, "X0@A8") == {"en": "X0@A8 must share an edge with a tile already placed.",
                                              "it": "X0@A8 deve toccare di lato una tessera già posata."}
        assert reasons(views, s, "X0@D4") == {"en": "X0@D4 would overlap a tile already placed.",
                                              "it": "X0@D4 si sovrapporrebbe a una tessera già posata."}

    def test_every_refusal_of_the_ruins_says_why(self, views: dict[str, Any]) -> None:
        s = ruins_game()
        s.push(s.parse_move("2I0@A1"))
        # the Ruins are played with pieces on one shared board
        assert reasons(views, s, "3I0@A1") == {"en": "3I0@A1 would overlap a piece already placed.",
                                               "it": "3I0@A1 si sovrapporrebbe a un pezzo già posato."}
        assert reasons(views, s, "4I0@D1") == {"en": "4I0@D1 would stick out of the board.",
                                               "it": "4I0@D1 uscirebbe dalla tavola."}
        s.push(s.parse_move("2I0@C1"))
        assert reasons(views, s, "2I0@E5") == {"en": "You have already placed that piece this round.",
                                               "it": "Hai già posato quel pezzo in questo turno."}

    def test_every_code_the_engines_refuse_with_has_its_words(self) -> None:
        codes = set()
        for path in (ROOT / "game" / "scarabya").glob("*.py"):
            codes |= set(re.findall(r'IllegalMove\(\s*"([\w-]+)"', path.read_text(encoding="utf-8")))
        assert {"rock", "overlap", "centre", "no-contact", "outside-frame", "outside-board"} <= codes
        for code in codes:
            entry = CATALOGUE.get(f"scarabya.why.{code}")
            assert entry and entry.get("it") and entry.get("en"), code


# --- the Ruins zones: the label and what it means ---------------------------------------------------
class TestRuinsZones:
    def test_the_label_and_its_explanation(self, views: dict[str, Any]) -> None:
        board = views["board"]
        tile = RUINS_TILES.index("PSS")
        ruin = {"zone": 5, "symbols": "PSS", "value": tile_value(tile), "squares": ["C3", "D3", "C4", "D4"]}
        assert ruin["value"] == 7
        assert board.zone_label(T["en"], ruin) == "5·PSS"
        assert board.zone_label(T["it"], ruin) == "5·VSS"  # vaso, scarabeo, scarabeo
        head = board.ruins_square(T["en"], BOARD.parse_square("C3"), ".", ruin, lambda seat: f"P{seat + 1}")
        # the square shows the label; its name (and title) starts with it and says what it means
        assert head.text == "5·PSS" and "zone-head" in head.css
        assert head.desc == "5·PSS, Zone 5: pot, scarab, scarab = 7, empty"
        it = board.ruins_square(T["it"], BOARD.parse_square("C3"), "2", ruin, lambda seat: f"pezzo di G{seat + 1}")
        assert it.desc == "5·VSS, Zona 5: vaso, scarabeo, scarabeo = 7, pezzo di G2"
        other = board.ruins_square(T["en"], BOARD.parse_square("D4"), ".", ruin, lambda seat: "")
        assert other.text == "" and other.desc == "Zone 5: pot, scarab, scarab = 7, empty"

    def test_every_symbol_has_its_initial_and_word_in_both_languages(self) -> None:
        for symbol in set("".join(RUINS_TILES)):
            for lang in ("it", "en"):
                abbr = CATALOGUE[f"scarabya.ruins.abbr.{symbol}"][lang]
                word = CATALOGUE[f"scarabya.ruins.sym.{symbol}"][lang]
                assert len(abbr) == 1 and word[0].casefold() == abbr.casefold(), (symbol, lang)


# --- the review's unit ------------------------------------------------------------------------------
class TestReviewUnit:
    def review(self, views: dict[str, Any], game: str, lang: str) -> Any:
        review = object.__new__(views["review"].Review)
        review.t, review.game, review.analysis, review.end_state = T[lang], game, None, None
        return review

    @pytest.mark.parametrize("loss, en, it", [(1, "point", "punto"), (1.0, "point", "punto"),
                                              (0.999, "point", "punto"),  # shown as "1"
                                              (2, "points", "punti"), (0.5, "points", "punti"),
                                              (1.5, "points", "punti"), (0, "points", "punti")])
    def test_thot_loss_of_one_point_is_singular(self, views: dict[str, Any], loss: float, en: str, it: str) -> None:
        assert self.review(views, "thot", "en").unit(loss) == en
        assert self.review(views, "thot", "it").unit(loss) == it

    def test_the_loss_line(self, views: dict[str, Any]) -> None:
        from web.platform import review_model

        for lang, expected in (("en", "Loss 1 point against the best"), ("it", "Perdita 1 punto rispetto alla migliore")):
            review = self.review(views, "thot", lang)
            assert T[lang]("review.loss", loss=review_model.number(1.0, lang), unit=review.unit(1.0)) == expected
        scarabeo = self.review(views, "scarabeo", "en")
        assert scarabeo.unit(1) == "equity point" and scarabeo.unit(3) == "equity points"
        assert scarabeo.unit() == "equity points"  # the thresholds' line: no value, the plural


# --- sentence case of the hints ------------------------------------------------------------------------
#: Hint texts that stand inside another (the said play inside "Hint 1 of 3: …", the reasons joined with
#: "; " and put in sentence case by ``web.platform.i18n.sentence``): lower case by design.
FRAGMENTS = {"scarabeo.hint.said", "scarabeo.hint.also", "scarabya.reason.area.one", "scarabya.reason.area.other",
             "scarabya.reason.empty", "scarabya.reason.covers.one", "scarabya.reason.covers.other"}


def test_the_hint_texts_shown_alone_are_in_sentence_case() -> None:
    keys = [k for k in CATALOGUE if re.match(r"(scarabeo|thot|scarabya)\.(hint|reason)\.", k) and k not in FRAGMENTS]
    keys.append("scarabya.ruins.clear")  # the Ruins hint's reason when the piece keeps off the zones
    assert {"scarabeo.hint.laid", "thot.hint.result", "scarabya.hint.title", "scarabya.reason.quiet"} <= set(keys)
    for key in keys:
        for lang in ("it", "en"):
            text = CATALOGUE[key][lang]
            assert text[0].isupper(), (key, lang, text)
    assert FRAGMENTS <= set(CATALOGUE)
