"""Issue 42: the daily challenge's best plays say what an abbreviation stands for ("PN" alone means
nothing to a player)."""

from __future__ import annotations

import importlib
from typing import Any, Iterator

import pytest

from game.scarabeo.lexicon_file import load_lexicon
from tests.web.standin import stand_in_pyscript
from web.platform.i18n import Messages, load_catalogue

CATALOGUE = load_catalogue()
T = {lang: Messages(CATALOGUE, lang) for lang in ("it", "en")}


@pytest.fixture(scope="module")
def daily_page() -> Iterator[Any]:
    with stand_in_pyscript(drop=("web.games", "web.ui", "web.pages", "web.platform.router", "web.platform.tutorial")):
        yield importlib.import_module("web.pages.daily")


@pytest.fixture(scope="module")
def lexicon() -> Any:
    lex = load_lexicon(otherwise="")
    if lex is None:
        pytest.skip("the lexicon is not built")
    return lex


def test_an_abbreviation_says_what_it_stands_for(daily_page: Any, lexicon: Any) -> None:
    assert daily_page.top_item(T["en"], "C15 PN", 42, lexicon) == \
        "C15 PN — 42 points (PN: an allowed abbreviation, for Pordenone)"
    assert daily_page.top_item(T["it"], "C15 PN", 42, lexicon) == \
        "C15 PN — 42 punti (PN: sigla ammessa, sta per Pordenone)"


def test_a_word_is_shown_as_it_is(daily_page: Any, lexicon: Any) -> None:
    assert daily_page.top_item(T["en"], "O10 GRAVARCI", 76, lexicon) == "O10 GRAVARCI — 76 points"
    assert daily_page.top_item(T["en"], "C15 PN", 1, None) == "C15 PN — 1 point"  # no lexicon yet: the play
