"""The Check a word panel's tools (issue 40, web/ui/wordcheck.run_tool): each tool's answer as the
page says it, from the real lexicon; the counts said before the words; a rack or pattern the tools
cannot read raises for the page to say in its language."""

from __future__ import annotations

from typing import Any, Iterator

import pytest

import lexicon
from lexicon.tools import ToolError
from web.platform.i18n import Messages, load_catalogue

from tests.web.standin import stand_in_pyscript


@pytest.fixture(scope="module")
def run_tool() -> Iterator[Any]:
    with stand_in_pyscript():
        from web.ui.wordcheck import run_tool as run
        yield run


@pytest.fixture(scope="module")
def lex() -> Any:
    return lexicon.load()


def said(lines: list[tuple[str, dict[str, Any]]], lang: str = "en") -> list[str]:
    t = Messages(load_catalogue(), lang)
    plural = ("wordtools.found", "wordtools.more", "wordtools.length", "wordtools.shown")
    return [t.plural(k, int(p["n"]), **{a: b for a, b in p.items() if a != "n"}) if k in plural else t(k, **p)
            for k, p in lines]


def test_anagrams_counted_then_by_length_longest_first(run_tool: Any, lex: Any) -> None:
    lines = said(run_tool(lex, "anagram", "cane?"))
    assert lines[0].endswith("results; the first 120:") and int(lines[0].split()[0]) > 120
    lengths = [int(line.split()[0]) for line in lines[1:]]
    assert lengths == sorted(lengths, reverse=True) and lengths[0] == 5
    assert "CANOE\u00a0(?O)" in lines[1] and "CANE," in next(line for line in lines if line.startswith("4 letters"))
    small = said(run_tool(lex, "anagram", "cane"))
    assert small[0].endswith("results.") and "(?" not in " ".join(small)  # no scarab, none shown


def test_a_pattern_with_a_length_and_the_first_ones_of_many(run_tool: Any, lex: Any) -> None:
    assert said(run_tool(lex, "pattern", "c?sa"))[1].split(", ") >= ["CASA", "COSA"]
    many = said(run_tool(lex, "pattern", "*are 6"))
    assert many[0] == "The first 120 results (there are more):"
    assert all(len(w) == 6 and w.endswith("ARE") for w in many[1].split(", "))
    assert said(run_tool(lex, "pattern", "qqq")) == ["No word found."]


def test_first_plays_best_first_in_italian_too(run_tool: Any, lex: Any) -> None:
    lines = run_tool(lex, "best", "casa")
    scores = [int(p["score"]) for k, p in lines[1:]]
    assert scores == sorted(scores, reverse=True) and lines[1][1]["word"] == "CASA"
    assert said(lines, "it")[1] == f"CASA — {lines[1][1]['move']}, {scores[0]} punti"


@pytest.mark.parametrize("tool, text", [("anagram", "casa???"), ("anagram", ""), ("best", "abcdefghi"),
                                        ("pattern", "c4sa"), ("pattern", "")])
def test_what_the_tools_cannot_read_raises_for_the_page_to_say(run_tool: Any, lex: Any, tool: str,
                                                                text: str) -> None:
    with pytest.raises(ToolError):
        run_tool(lex, tool, text)
