"""The word tools (lexicon/tools.py): anagrams, patterns and the best first plays, against brute
force over small word lists (hypothesis) and on the real lexicon; their command lines."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lexicon
from game.scarabeo.board import new_board
from game.scarabeo.movegen import MoveGenerator
from game.scarabeo.moves import Play, move_text
from lexicon import Lexicon
from lexicon.__main__ import main
from lexicon.dawg import build_dawg, serialise
from lexicon.tools import ToolError, anagrams, best_plays, parse_pattern, parse_rack, pattern

LETTERS = "ACEILNORSZ"
words_strategy = st.sets(st.text(alphabet=LETTERS, min_size=2, max_size=8), min_size=1, max_size=80)
rack_strategy = st.tuples(st.text(alphabet=LETTERS, min_size=0, max_size=8), st.integers(0, 2)).map(
    lambda t: (t[0] + "?" * t[1])[:8]).filter(bool)


def make(words: set[str]) -> Lexicon:
    nodes, root, count = build_dawg(sorted(words))
    return Lexicon.from_bytes(serialise(nodes, root, count, {}))


def spells(word: str, rack: str) -> str | None:
    """The letters scarabs must stand for if ``rack`` spells ``word`` (sorted), else None."""
    have = Counter(c for c in rack if c != "?")
    missing = Counter(word) - have
    if sum(missing.values()) > rack.count("?"):
        return None
    return "".join(sorted(missing.elements()))


# -- brute force over small word lists -------------------------------------------------------------

class TestAgainstBruteForce:
    @settings(max_examples=200, deadline=None)
    @given(words_strategy, rack_strategy)
    def test_anagrams_are_every_word_the_rack_spells(self, words: set[str], rack: str) -> None:
        lex = make(words)
        found = anagrams(lex, rack)
        expected = sorted((w for w in words if spells(w, rack) is not None), key=lambda w: (-len(w), w))
        assert [a.word for a in found] == expected
        for a in found:
            # The scarabs stand for exactly the letters the rack lacks.
            assert "".join(sorted(a.scarabs)) == spells(a.word, rack)

    @settings(max_examples=200, deadline=None)
    @given(words_strategy, st.text(alphabet="ACE?*", min_size=1, max_size=6), st.one_of(st.none(), st.integers(1, 9)))
    def test_pattern_is_the_regular_expression(self, words: set[str], pat: str, length: int | None) -> None:
        lex = make(words)
        regex = re.compile("".join("." if c == "?" else ".*" if c == "*" else c for c in pat))
        expected = sorted(w for w in words if regex.fullmatch(w) and (length is None or len(w) == length))
        got, more = pattern(lex, pat, length, limit=1000)
        assert got == expected and more is False
        # A limit cuts the alphabetical list and says there is more.
        if len(expected) > 2:
            assert pattern(lex, pat, length, limit=2) == (expected[:2], True)

    @settings(max_examples=80, deadline=None)
    @given(st.data(), rack_strategy, st.integers(1, 6))
    def test_best_plays_are_the_move_generators_best(self, data: st.DataObject, rack: str, limit: int) -> None:
        # Words the rack spells (its letters shuffled and cut, a scarab as any letter), long ones
        # too, so that plays reach the 2L squares and the bonuses, and a few others.
        pool = [c for c in rack if c != "?"] + [data.draw(st.sampled_from(LETTERS)) for c in rack if c == "?"]
        spelled = st.permutations(pool).flatmap(lambda p: st.integers(2, max(2, len(p))).map(lambda k: "".join(p[:k])))
        words = data.draw(st.sets(spelled.filter(lambda w: len(w) >= 2), max_size=30)) | data.draw(words_strategy)
        lex = make(words)
        board = new_board()
        # Every first play of the engine's move generator, across; the best score of each word.
        plays = [p for p in MoveGenerator(lex).plays(board, list(rack), first_play=True, swaps=False) if p[2]]
        best_of: dict[str, int] = {}
        notations: dict[str, int] = {}
        for score, start, _across, word, _swaps in plays:
            best_of[word.upper()] = max(best_of.get(word.upper(), 0), score)
            notations[move_text(Play(start, True, word))] = score
        expected = sorted(best_of.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]
        got = best_plays(lex, rack, limit)
        assert [(p.word, p.score) for p in got] == expected
        for p in got:
            # The notation shown is one of the generator's plays, with that score.
            assert notations[p.move] == p.score


# -- the real lexicon ---------------------------------------------------------------------------------

def test_anagrams_of_a_real_rack(lex: lexicon.Lexicon) -> None:
    found = {a.word: a.scarabs for a in anagrams(lex, "casa")}
    assert found["CASA"] == "" and "ASCA" not in found
    with_scarabs = {a.word: a.scarabs for a in anagrams(lex, "SCARAB??")}
    assert with_scarabs["SCARABEO"] == "EO" and with_scarabs["SCARABEI"] == "EI"
    assert all(lex.contains(w) for w in with_scarabs)


def test_patterns_on_the_real_lexicon(lex: lexicon.Lexicon) -> None:
    assert pattern(lex, "c?sa") == (["CASA", "COSA"], False)
    words, more = pattern(lex, "*ARE", limit=50)
    assert more and len(words) == 50 and all(w.endswith("ARE") for w in words) and words == sorted(words)
    six, _ = pattern(lex, "*ARE", 6)
    assert "ANDARE" in six and all(len(w) == 6 and w.endswith("ARE") for w in six)
    assert pattern(lex, "??", limit=1000)[0] == sorted(w for w in lex.words() if len(w) == 2)
    assert pattern(lex, "*QQQ") == ([], False)


def test_best_first_play_of_scarab(lex: lexicon.Lexicon) -> None:
    plays = best_plays(lex, "SCARAB??", 3)
    # SCARABEI and SCARABEO through the centre: 8 tiles doubled, with the SCARABEO bonus.
    assert [(p.word, p.score, p.tiles) for p in plays[:2]] == [("SCARABEI", 180, 8), ("SCARABEO", 180, 8)]
    assert plays[0].move == "9I SCARABei"


@pytest.mark.parametrize("rack, message", [
    ("", "empty"), ("ABCDEFGHI", "at most 8"), ("CASA???", "2 scarabs"), ("JAZZ", "not a tile"),
])
def test_racks_refused(rack: str, message: str) -> None:
    with pytest.raises(ToolError, match=message):
        parse_rack(rack)


@pytest.mark.parametrize("text, message", [("", "empty"), ("CA.A", "cannot be"), ("?" * 41, "at most")])
def test_patterns_refused(text: str, message: str) -> None:
    with pytest.raises(ToolError, match=message):
        parse_pattern(text)


def test_pattern_reading() -> None:
    assert parse_pattern(" càsa ") == "CASA"
    assert parse_pattern("**ARE") == "*ARE"


# -- command line ---------------------------------------------------------------------------------------

def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.strip() else {}), err


def test_cli_anagram(capsys: pytest.CaptureFixture[str], lex: lexicon.Lexicon) -> None:
    code, out, _ = run(capsys, "anagram", "casa")
    assert code == 0 and out["rack"] == "CASA" and out["count"] == len(out["words"])
    assert {"word": "CASA", "scarabs": ""} in out["words"]
    assert run(capsys, "anagram", "casa???")[0] == 2


def test_cli_pattern(capsys: pytest.CaptureFixture[str], lex: lexicon.Lexicon) -> None:
    code, out, _ = run(capsys, "pattern", "C?SA")
    assert code == 0 and out == {"pattern": "C?SA", "length": None, "count": 2, "more": False, "words": ["CASA", "COSA"]}
    code, out, _ = run(capsys, "pattern", "*ARE", "--length", "6", "--limit", "3")
    assert code == 0 and out["more"] is True and len(out["words"]) == 3
    code, _, err = run(capsys, "pattern", "C.SA")
    assert code == 2 and "cannot be in a pattern" in err


def test_cli_best(capsys: pytest.CaptureFixture[str], lex: lexicon.Lexicon) -> None:
    code, out, _ = run(capsys, "best", "SCARAB??", "--limit", "2")
    assert code == 0 and out["plays"][0] == {"move": "9I SCARABei", "word": "SCARABEI", "score": 180, "tiles": 8}
    assert len(out["plays"]) == 2


def test_cli_bench_tools(capsys: pytest.CaptureFixture[str], lex: lexicon.Lexicon) -> None:
    code, out, _ = run(capsys, "bench-tools", "--runs", "1", "--no-baseline")
    assert code == 0 and out["baseline_contains_per_second"] > 0 and "loadavg" in out
    assert out["best"]["SCARAB??"]["top"]["score"] == 180 and out["anagram"]["AEIOR??S"]["words"] > 1000
