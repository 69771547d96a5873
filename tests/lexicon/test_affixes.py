"""The hunspell affix expander: hand-written .aff/.dic cases, a reference model, it_IT expansions."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexicon.affixes import AffixError, AffixFile, compile_condition, parse_dic

SIMPLE_AFF = """\
SET UTF-8
# a comment
SFX A Y 3
SFX A o i [^c]o
SFX A co chi co
SFX A 0 ne .

SFX B N 1
SFX B are iamo are

PFX R Y 1
PFX R 0 ri .

PFX S N 1
PFX S 0 s [^s]
"""


def expand(aff_text: str, root: str, flags: str) -> set[str]:
    return AffixFile.parse(aff_text).expand(root, flags)


class TestSuffixes:
    def test_strip_append_and_condition(self) -> None:
        assert expand(SIMPLE_AFF, "gatto", "A") == {"gatto", "gatti", "gattone"}

    def test_condition_selects_rule(self) -> None:
        # -co takes -chi, not -ci: the [^c]o rule must not fire.
        assert expand(SIMPLE_AFF, "fuoco", "A") == {"fuoco", "fuochi", "fuocone"}

    def test_root_without_flags_is_itself(self) -> None:
        assert expand(SIMPLE_AFF, "blu", "") == {"blu"}

    def test_unknown_flag_is_ignored(self) -> None:
        assert expand(SIMPLE_AFF, "blu", "Q") == {"blu"}

    def test_strip_must_leave_a_character(self) -> None:
        aff = "SFX A Y 1\nSFX A are iamo are\n"
        assert expand(aff, "are", "A") == {"are"}
        assert expand(aff, "dare", "A") == {"dare", "diamo"}

    def test_condition_longer_than_word_fails(self) -> None:
        aff = "SFX A Y 1\nSFX A 0 x abc\n"
        assert expand(aff, "bc", "A") == {"bc"}
        assert expand(aff, "abc", "A") == {"abc", "abcx"}


class TestPrefixes:
    def test_prefix(self) -> None:
        assert expand(SIMPLE_AFF, "fare", "R") == {"fare", "rifare"}

    def test_prefix_condition(self) -> None:
        assert expand(SIMPLE_AFF, "contare", "S") == {"contare", "scontare"}
        assert expand(SIMPLE_AFF, "salire", "S") == {"salire"}

    def test_cross_product_both_yes(self) -> None:
        assert expand(SIMPLE_AFF, "gatto", "AR") == {
            "gatto", "gatti", "gattone", "rigatto", "rigatti", "rigattone"}

    def test_no_cross_product_when_suffix_says_no(self) -> None:
        assert expand(SIMPLE_AFF, "contare", "BR") == {"contare", "contiamo", "ricontare"}

    def test_no_cross_product_when_prefix_says_no(self) -> None:
        assert expand(SIMPLE_AFF, "gatto", "AS") == {"gatto", "gatti", "gattone", "sgatto"}

    def test_prefix_condition_tested_on_the_suffixed_form(self) -> None:
        # unmunch semantics: the cross-product prefix sees the suffixed word.
        aff = "SFX A Y 1\nSFX A a e a\nPFX P Y 1\nPFX P e x e\n"
        assert expand(aff, "ea", "AP") == {"ea", "ee", "xa", "xe"}
        aff2 = "SFX A Y 1\nSFX A b cd b\nPFX P Y 1\nPFX P 0 x ac\n"
        assert expand(aff2, "ab", "AP") == {"ab", "acd", "xacd"}


class TestConditions:
    @pytest.mark.parametrize("cond, word, ok", [
        (".", "x", True), ("[aeiou]", "ca", True), ("[aeiou]", "cb", False),
        ("[^aeiou]", "cb", True), ("[^aeiou]", "ca", False), ("[cg]are", "pagare", True),
        ("[cg]are", "parlare", False), ("a.e", "are", True), ("a.e", "ave", True),
    ])
    def test_suffix_condition(self, cond: str, word: str, ok: bool) -> None:
        pattern, _ = compile_condition(cond, is_prefix=False)
        assert bool(pattern.search(word)) is ok

    def test_special_regex_characters_are_literal(self) -> None:
        pattern, n = compile_condition("a+", is_prefix=True)
        assert n == 2 and pattern.match("a+b") and not pattern.match("aab")

    @pytest.mark.parametrize("bad", ["[abc", "a]", "[]"])
    def test_malformed_condition(self, bad: str) -> None:
        with pytest.raises(AffixError):
            compile_condition(bad, is_prefix=False)


class TestRefusals:
    @pytest.mark.parametrize("text, message", [
        ("FLAG long\n", "FLAG"),
        ("COMPOUNDFLAG X\n", "COMPOUNDFLAG"),
        ("NEEDAFFIX X\n", "NEEDAFFIX"),
        ("SFX A Y 1\nSFX A 0 s/B .\n", "continuation"),
        ("SFX A Y 2\nSFX A 0 s .\n", "fewer rules"),
        ("SFX A Y 1\nSFX A 0 s .\nSFX A 0 t .\n", "more SFX A rules"),
        ("SFX AB Y 1\n", "single character"),
        ("SFX A Y 1\nSFX A 0 s . po:noun\n", "morphological"),
        ("SFX A Y 1\nPFX A 0 s .\n", "both PFX and SFX"),
    ])
    def test_unsupported_or_malformed(self, text: str, message: str) -> None:
        with pytest.raises(AffixError, match=message):
            AffixFile.parse(text)

    def test_keep_entry_filter_drops_rules(self) -> None:
        aff = AffixFile.parse("PFX T Y 2\nPFX T 0 l' [aeiou]\nPFX T 0 ri .\n",
                              keep_entry=lambda kind, flag, append: "'" not in append)
        assert aff.expand("amo", "T") == {"amo", "riamo"}


class TestDic:
    def test_count_line_flags_and_morphology(self) -> None:
        text = "3\ngatto/AR\nblu\nfoo/A\tpo:noun\n"
        assert list(parse_dic(text)) == [("gatto", "AR"), ("blu", ""), ("foo", "A")]

    def test_escaped_slash(self) -> None:
        assert list(parse_dic("1\n1\\/2/A\n")) == [("1/2", "A")]


# -- a reference model: the rules applied literally, no memoisation -------------------

def reference_expand(aff: AffixFile, root: str, flags: str) -> set[str]:
    out = {root}
    suffixed = []
    for f in flags:
        k = aff.classes.get(f)
        if k is None or k.is_prefix:
            continue
        for e in k.entries:
            if len(root) > len(e.strip) and len(root) >= e.n_conditions and root.endswith(e.strip) \
                    and re.search("(?:" + _cond_regex(e.condition) + r")\Z", root):
                w = root[: len(root) - len(e.strip)] + e.append
                out.add(w)
                if k.cross_product:
                    suffixed.append(w)
    for f in flags:
        k = aff.classes.get(f)
        if k is None or not k.is_prefix:
            continue
        for base in [root] + (suffixed if k.cross_product else []):
            for e in k.entries:
                if len(base) > len(e.strip) and len(base) >= e.n_conditions and base.startswith(e.strip) \
                        and re.match(_cond_regex(e.condition), base):
                    out.add(e.append + base[len(e.strip):])
    return out


def _cond_regex(cond: str) -> str:
    return "" if cond == "." else cond


RANDOM_AFF = """\
SFX A Y 4
SFX A a e [^c]a
SFX A ca che ca
SFX A 0 mente .
SFX A ab x ab
SFX B N 2
SFX B o i o
SFX B 0 ne [aeiou]
PFX P Y 2
PFX P 0 ri .
PFX P a s a
PFX Q N 1
PFX Q 0 pre [^p]
"""


@settings(max_examples=300, deadline=None)
@given(root=st.text(alphabet="abcop", min_size=1, max_size=6),
       flags=st.text(alphabet="ABPQZ", max_size=4))
def test_expander_matches_reference_model(root: str, flags: str) -> None:
    aff = AffixFile.parse(RANDOM_AFF)
    assert aff.expand(root, flags) == reference_expand(aff, root, flags)


# -- known expansions of the real it_IT files ------------------------------------------

@pytest.fixture(scope="module")
def it_aff() -> AffixFile:
    from lexicon.build import DEFAULT_SOURCE, keep_affix_rule
    return AffixFile.parse((DEFAULT_SOURCE / "index.aff").read_text(encoding="utf-8"), keep_entry=keep_affix_rule)


class TestItalianExpansions:
    def test_first_conjugation(self, it_aff: AffixFile) -> None:
        forms = it_aff.expand("abbaiare", "ALKhlTXI")
        for f in ("abbaio", "abbaia", "abbaiamo", "abbaiate", "abbaiano", "abbaiavo", "abbaierò",
                  "abbaierebbe", "abbaiasse", "abbaiò", "abbaiante", "abbaiarlo", "abbaiatelo"):
            assert f in forms, f
        assert not any("'" in f for f in forms)

    def test_gerund_enclitics(self, it_aff: AffixFile) -> None:
        forms = it_aff.expand("partendo", "D")
        assert {"partendo", "partendosene", "partendoci"} <= forms

    def test_noun_plural(self, it_aff: AffixFile) -> None:
        assert "scarabei" in it_aff.expand("scarabeo", "O")

    def test_matches_reference_on_real_roots(self, it_aff: AffixFile) -> None:
        from lexicon.build import DEFAULT_SOURCE
        entries = list(parse_dic((DEFAULT_SOURCE / "index.dic").read_text(encoding="utf-8")))
        for root, flags in entries[40::997]:
            assert it_aff.expand(root, flags) == reference_expand(it_aff, root, flags), root


def _cleaned_aff_text(text: str) -> str:
    """The it_IT affix file without apostrophe rules, with corrected rule counts (for unmunch)."""
    headers: dict[tuple[str, str], list[str]] = {}
    rules: dict[tuple[str, str], list[str]] = {}
    other = []
    for line in text.splitlines():
        f = line.split()
        if f and f[0] in ("PFX", "SFX") and len(f) >= 4:
            key = (f[0], f[1])
            if key not in headers:
                headers[key], rules[key] = f, []
            elif "'" not in f[3]:
                rules[key].append(line)
        else:
            other.append(line)
    for key, f in headers.items():
        other.append(f"{f[0]} {f[1]} {f[2]} {len(rules[key])}")
        other.extend(rules[key])
    return "\n".join(other) + "\n"


@pytest.mark.skipif(shutil.which("unmunch") is None, reason="hunspell's unmunch not installed (apt hunspell-tools)")
def test_matches_unmunch(tmp_path, it_aff: AffixFile) -> None:
    from lexicon.build import DEFAULT_SOURCE, root_drop_reason
    entries = [(r, f) for r, f in parse_dic((DEFAULT_SOURCE / "index.dic").read_text(encoding="utf-8"))
               if root_drop_reason(r, f) is None][::20]
    (tmp_path / "c.aff").write_text(_cleaned_aff_text((DEFAULT_SOURCE / "index.aff").read_text(encoding="utf-8")),
                                    encoding="utf-8")
    (tmp_path / "c.dic").write_text(f"{len(entries)}\n" + "".join(f"{r}/{f}\n" if f else f"{r}\n" for r, f in entries),
                                    encoding="utf-8")
    proc = subprocess.run(["unmunch", str(tmp_path / "c.dic"), str(tmp_path / "c.aff")],
                          capture_output=True, check=True)
    theirs = set(proc.stdout.decode("utf-8").split())
    ours: set[str] = set()
    for root, flags in entries:
        ours |= it_aff.expand(root, flags)
    assert ours == theirs
