"""An analysis from outside (a save, a review link) is checked field by field: against the game's
bounds always (``Analysis.from_json``), and against its record move by move when the record is
given. Every tampering is an ``AnalysisError`` with a one-line reason, never another exception."""

from __future__ import annotations

import copy
import json
import math
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.core import GameRecord
from game.core.analysis import (
    CLASSES, MAX_SAFE_INT, REASONS, Analysis, AnalysisError, MoveAnalysis, record_digest,
    rules_for, summarise,
)
from game.scarabeo import ScarabeoState, ai, cli as scarabeo_cli
from game.scarabeo import analysis as scarabeo_analysis
from game.scarabeo.record import to_record
from game.scarabya import analysis as scarabya_analysis
from game.scarabya import new as scarabya_new
from game.scarabya import record as scarabya_record
from game.scarabya import solver
from game.thot import ThotState
from game.thot import analysis as thot_analysis

from tests.scarabeo.test_cli import real_lexicon

Case = tuple[GameRecord, dict[str, Any], Any]  # record, analysis JSON, lexicon


def _scarabya(variant: str, plies: int) -> Case:
    state = scarabya_new(2, seed=3 if variant == "classic" else 2, variant=variant)
    for _ in range(plies):
        solver.play(state, 2)
    rec = scarabya_record(state)
    return rec, scarabya_analysis.analyse(rec, finished=True).to_json(), None


def _thot() -> Case:
    state = ThotState.new(seed=3, short=True)
    lv = thot_analysis.engine_level(nodes=400)
    from game.thot.search import Search

    for _ in range(4):
        res = Search(state, lv, search_forced=True).run()
        assert res.move is not None
        state.push(res.move)
    rec = state.record()
    return rec, thot_analysis.analyse(rec, nodes=400, finished=True).to_json(), None


def _scarabeo() -> Case:
    real_lexicon()
    lex = scarabeo_cli.load_lexicon()
    state = ScarabeoState.new(2, 5, word_list=lex)
    for _ in range(3):
        state.push(ai.choose(state, "champion"))
    rec = to_record(state)
    return rec, scarabeo_analysis.analyse(rec, lex, finished=True, top=3).to_json(), lex


def _scarabeo_dispute() -> Case:
    """A challenge-mode turn, then the table's "!accept" (a move without a mover), then a turn."""
    real_lexicon()
    lex = scarabeo_cli.load_lexicon()
    state = ScarabeoState.new(2, 5, word_list=lex, check_mode="challenge")
    state.push(ai.choose(state, "champion"))
    state.push_text("!accept")
    state.push(ai.choose(state, "champion"))
    rec = to_record(state)
    return rec, scarabeo_analysis.analyse(rec, lex, finished=True, top=2).to_json(), lex


@pytest.fixture(scope="module")
def cases() -> dict[str, Case]:
    return {"classic": _scarabya("classic", 4), "ruins": _scarabya("ruins", 4), "thot": _thot(),
            "scarabeo": _scarabeo(), "dispute": _scarabeo_dispute()}


def refused(case: Case, change: Callable[[dict[str, Any]], Any], with_record: bool = True) -> str:
    """The reason ``change`` (applied to a copy of the analysis) is refused, without and with
    the record; a reason is one short line."""
    rec, data, lex = case
    bad = copy.deepcopy(data)
    change(bad)
    reasons = []
    for record in ((None, rec) if with_record else (None,)):
        with pytest.raises(AnalysisError) as err:
            Analysis.from_json(bad, record, lex)
        reasons.append(str(err.value))
    for reason in reasons:
        assert "\n" not in reason and 0 < len(reason) <= 300, reason
    return reasons[-1]


def refused_with_record(case: Case, change: Callable[[dict[str, Any]], Any]) -> str:
    """Well-formed but not what the engine says of the record: accepted alone, refused with it."""
    rec, data, lex = case
    bad = copy.deepcopy(data)
    change(bad)
    Analysis.from_json(bad)
    with pytest.raises(AnalysisError) as err:
        Analysis.from_json(bad, rec, lex)
    reason = str(err.value)
    assert "\n" not in reason and 0 < len(reason) <= 300, reason
    return reason


def analysed(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for m in data["moves"] if m["analysed"]]


def every_alternative(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [a for m in analysed(data) for a in [*m["best"], m["played"]]]


class TestRealAnalysesPass:
    @pytest.mark.parametrize("name", ["classic", "ruins", "thot", "scarabeo", "dispute"])
    def test_round_trip_with_and_without_the_record(self, cases: dict[str, Case], name: str) -> None:
        rec, data, lex = cases[name]
        assert analysed(data), "the fixture analyses something"
        assert Analysis.from_json(data).to_json() == data
        assert Analysis.from_json(data, rec, lex).to_json() == data
        assert Analysis.loads(json.dumps(data), rec, lex).to_json() == data

    def test_an_analysis_of_an_unfinished_game_for_its_viewer(self) -> None:
        state = scarabya_new(2, seed=3)
        for _ in range(4):
            solver.play(state, 2)
        rec = scarabya_record(state)
        a = scarabya_analysis.analyse(rec, viewer=1)
        assert [m.reason for m in a.moves] == ["hidden", None, "hidden", None]
        assert Analysis.from_json(a.to_json(), rec) == a

    def test_scarabeo_without_its_lexicon(self, cases: dict[str, Case]) -> None:
        rec, data, _ = cases["scarabeo"]
        assert Analysis.from_json(data, rec).to_json() == data


class TestTamperingReportedInIssue24:
    @pytest.mark.parametrize("name", ["classic", "ruins"])
    def test_squares_set_to_a_number(self, cases: dict[str, Case], name: str) -> None:
        def change(d: dict[str, Any]) -> None:
            for alt in every_alternative(d):
                alt["squares"] = 5
        assert "squares" in refused(cases[name], change)

    @pytest.mark.parametrize("seat", [99, -5, 2])
    def test_seats_out_of_the_game(self, cases: dict[str, Case], seat: int) -> None:
        for name in ("classic", "thot", "scarabeo"):
            assert "seat" in refused(cases[name], lambda d: d["moves"][0].__setitem__("seat", seat))
            assert "seat" in refused(cases[name], lambda d: d["summary"][0].__setitem__("seat", seat)) \
                or "summary" in refused(cases[name], lambda d: d["summary"][0].__setitem__("seat", seat))

    def test_forty_digit_scores(self, cases: dict[str, Case]) -> None:
        for name in cases:
            refused(cases[name], lambda d: d["moves"][0].__setitem__("scores", [10**40, 0]))
            refused(cases[name], lambda d: d["moves"][0]["scores"].__setitem__(0, 10**39))

    def test_a_150000_character_move(self, cases: dict[str, Case]) -> None:
        long = "W0@E5" + "x" * 150_000
        for name in cases:
            reason = refused(cases[name], lambda d: d["moves"][0].__setitem__("move", long))
            assert "x" * 100 not in reason
            refused(cases[name], lambda d: analysed(d)[0]["best"][0].__setitem__("move", long))

    @pytest.mark.parametrize("value", [1e308, -1e308, math.inf, math.nan, 10**400])
    def test_huge_values(self, cases: dict[str, Case], value: float) -> None:
        for name in cases:
            refused(cases[name], lambda d: analysed(d)[0]["best"][0].__setitem__("value", value))
            refused(cases[name], lambda d: analysed(d)[0].__setitem__("loss", value))
            refused(cases[name], lambda d: d["thresholds"].__setitem__("mistake", value))
            refused(cases[name], lambda d: d["summary"][0].__setitem__("mean_loss", value))
        refused(cases["thot"], lambda d: analysed(d)[0]["evaluation"].__setitem__(0, value))


class TestFieldByField:
    def test_players_and_viewer(self, cases: dict[str, Case]) -> None:
        for players in (0, 5, 10**30, True):
            refused(cases["thot"], lambda d: d.__setitem__("players", players))
        refused(cases["thot"], lambda d: d.__setitem__("viewer", 2))
        refused(cases["thot"], lambda d: d.__setitem__("viewer", -1))

    def test_the_hidden_information_rule_is_kept(self, cases: dict[str, Case]) -> None:
        # An analysis claiming to be for seat 1 of a game in progress may not analyse seat 0's moves.
        def change(d: dict[str, Any]) -> None:
            d["finished"], d["viewer"] = False, 1
        assert "who may see" in refused(cases["classic"], change)
        assert "reason" in refused(cases["classic"], lambda d: d["moves"][0].__setitem__("reason", "nope"))

    def test_plies_moves_and_kinds(self, cases: dict[str, Case]) -> None:
        refused(cases["thot"], lambda d: d["moves"][1].__setitem__("ply", 7))
        refused(cases["thot"], lambda d: d["moves"].pop())
        refused(cases["thot"], lambda d: d["moves"][0].__setitem__("seat", None))  # Thot has no disputes
        refused(cases["thot"], lambda d: d["moves"][0].__setitem__("reason", "dispute"))
        refused(cases["thot"], lambda d: d["moves"].extend(d["moves"] * 2000))

    def test_move_texts_are_moves_of_the_game(self, cases: dict[str, Case]) -> None:
        for name, text in (("thot", "Z9"), ("thot", "H5>"), ("classic", "Q0@E5"), ("ruins", "4O0@Z1"),
                           ("scarabeo", "H8 QU@RTO"), ("scarabeo", "<img src=x>")):
            assert "move" in refused(cases[name], lambda d: d["moves"][0].__setitem__("move", text))
            refused(cases[name], lambda d: analysed(d)[0]["best"][0].__setitem__("move", text))
        for name, text in (("thot", "H5 H1"), ("thot", "<b>")):
            refused(cases[name], lambda d: analysed(d)[0]["best"][0]["pv"].__setitem__(0, text))

    def test_kinds_of_moves(self, cases: dict[str, Case]) -> None:
        case = cases["dispute"]
        assert case[1]["moves"][1]["seat"] is None and case[1]["moves"][1]["reason"] == "dispute"
        # a dispute given a mover; a turn without one; a dispute listed as an alternative
        refused(case, lambda d: d["moves"][1].update(seat=0, reason=None))
        refused(case, lambda d: d["moves"][0].update(seat=None, reason="dispute"))
        refused(case, lambda d: analysed(d)[0]["best"][0].__setitem__("move", "!accept"))
        # a dispute where the record has a turn (and a turn where it has the dispute)
        refused(case, lambda d: d["moves"][2].update(move="!challenge"))

    def test_analysed_moves_are_complete_and_the_others_empty(self, cases: dict[str, Case]) -> None:
        refused(cases["classic"], lambda d: analysed(d)[0].__setitem__("best", []))
        refused(cases["classic"], lambda d: analysed(d)[0].__setitem__("played", None))
        refused(cases["classic"], lambda d: analysed(d)[0].__setitem__("best", analysed(d)[0]["best"] * 20))

        def hidden_with_analysis(d: dict[str, Any]) -> None:
            d["finished"], d["viewer"] = False, 1
            for m in d["moves"]:
                if m["seat"] == 0:
                    m["analysed"], m["reason"] = False, "hidden"
        assert "not analysed" in refused(cases["classic"], hidden_with_analysis)

    def test_classes_and_summary_follow_the_losses(self, cases: dict[str, Case]) -> None:
        refused(cases["thot"], lambda d: analysed(d)[0].__setitem__("class", "blunder"))
        refused(cases["thot"], lambda d: analysed(d)[0].__setitem__("class", "genius"))
        refused(cases["thot"], lambda d: analysed(d)[0].__setitem__("loss", -1))
        refused(cases["thot"], lambda d: d["summary"][0]["classes"].__setitem__("best", 99))
        refused(cases["thot"], lambda d: d["summary"].pop())
        refused(cases["thot"], lambda d: d["thresholds"].__setitem__("good", -3))
        refused(cases["thot"], lambda d: d["thresholds"].__setitem__("best", 5.0))  # above good

    def test_strings_and_settings_are_bounded(self, cases: dict[str, Case]) -> None:
        refused(cases["thot"], lambda d: d["thresholds"].__setitem__("unit", "u" * 1000))
        refused(cases["thot"], lambda d: d["thresholds"].__setitem__("unit", "two\nlines"))
        refused(cases["thot"], lambda d: d.__setitem__("game", "chess"))
        refused(cases["thot"], lambda d: d.__setitem__("record", "sha256:" + "z" * 64))
        refused(cases["thot"], lambda d: d["engine"].update({f"k{i}": i for i in range(100)}))
        refused(cases["thot"], lambda d: d["engine"].__setitem__("level", "x" * 10_000))
        refused(cases["thot"], lambda d: d["engine"].__setitem__("level", [1, 2]))

    def test_squares_on_the_board(self, cases: dict[str, Case]) -> None:
        for square in ("K1", "A11", "a1", "E5'", "", "Z99", "E05"):
            refused(cases["classic"], lambda d: analysed(d)[0]["best"][0]["squares"].__setitem__(0, square))
        refused(cases["classic"], lambda d: analysed(d)[0]["best"][0].__setitem__("squares", ["A1"] * 30))
        for square in ("R1", "A18", "I0"):
            refused(cases["scarabeo"], lambda d: analysed(d)[0]["best"][0]["placements"][0].__setitem__(0, square))

    def test_game_specific_detail(self, cases: dict[str, Case]) -> None:
        refused(cases["classic"], lambda d: analysed(d)[0]["best"][0].__setitem__("now", -1))
        refused(cases["classic"], lambda d: analysed(d)[0]["best"][0].__setitem__("later", "8"))
        refused(cases["thot"], lambda d: analysed(d)[0]["best"][0].__setitem__("depth", 10**6))
        refused(cases["thot"], lambda d: analysed(d)[0]["best"][0].__setitem__("pv", "H5 H1"))
        refused(cases["thot"], lambda d: analysed(d)[0]["best"][0].__setitem__("pv", ["<b>"]))
        refused(cases["scarabeo"], lambda d: analysed(d)[0]["best"][0].__setitem__("leave", "<img>"))
        refused(cases["scarabeo"], lambda d: analysed(d)[0]["best"][0].__setitem__("placements", [["I8"]]))
        refused(cases["scarabeo"], lambda d: analysed(d)[0]["best"][0].__setitem__("words", ["A" * 40]))

    def test_unknown_detail_keys_are_dropped(self, cases: dict[str, Case]) -> None:
        rec, data, lex = cases["thot"]
        extra = copy.deepcopy(data)
        analysed(extra)[0]["best"][0]["junk"] = "x" * 1000
        assert Analysis.from_json(extra, rec, lex).to_json() == data


class TestAgainstTheRecord:
    def test_another_records_analysis(self, cases: dict[str, Case]) -> None:
        rec, data, _ = cases["thot"]
        other = GameRecord(rec.game, rec.options, rec.seed + 1, list(rec.moves), {})
        with pytest.raises(AnalysisError, match="not of this game"):
            Analysis.from_json(data, other)

    def test_moves_and_scores_as_the_engine_replays_them(self, cases: dict[str, Case]) -> None:
        def swap_seats(d: dict[str, Any]) -> None:
            d["moves"][0]["seat"] = 1
            d["moves"][1]["seat"] = 0
            # with a summary that agrees, so that only the record can tell
            moves = [MoveAnalysis.from_json(m, rules_for(d["game"])) for m in d["moves"]]
            d["summary"] = [s.to_json() for s in summarise(moves, d["players"])]

        def wrong_move(d: dict[str, Any]) -> None:
            d["moves"][0]["move"] = d["moves"][1]["move"]
        def wrong_score(d: dict[str, Any]) -> None:
            d["moves"][-1]["scores"][0] += 1
        assert "scores" in refused_with_record(cases["dispute"], wrong_score)
        for name in ("classic", "ruins", "thot", "scarabeo"):
            assert "scores" in refused_with_record(cases[name], wrong_score)
            refused_with_record(cases[name], wrong_move)
            assert "seat" in refused_with_record(cases[name], swap_seats)

    def test_alternatives_must_be_legal_where_they_are_listed(self, cases: dict[str, Case]) -> None:
        # The first move played, listed again as the best at the second: its squares are taken.
        def again(d: dict[str, Any]) -> None:
            d["moves"][1]["best"][0] = copy.deepcopy(d["moves"][0]["played"])
        for name in ("thot", "scarabeo"):
            assert "cannot be played" in refused_with_record(cases[name], again)
        # Another tile than the round's mission card; a piece off the 6x6 board.
        tile = cases["classic"][0].moves[0][0]
        other = next(t for t in "WUTPXINVFZLY" if t != tile)
        assert "cannot be played" in refused_with_record(
            cases["classic"], lambda d: analysed(d)[0]["best"][0].__setitem__("move", other + "0@E5"))
        assert "cannot be played" in refused_with_record(
            cases["ruins"], lambda d: analysed(d)[0]["best"][0].__setitem__("move", "4O0@F6"))

    def test_squares_must_be_the_moves_own(self, cases: dict[str, Case]) -> None:
        for name in ("classic", "ruins"):
            def shift(d: dict[str, Any]) -> None:
                alt = analysed(d)[0]["best"][0]
                elsewhere = next(s for s in ("F6", "A6", "F1") if s not in alt["squares"])
                alt["squares"] = [elsewhere, *alt["squares"][1:]]
            assert "squares" in refused_with_record(cases[name], shift)

    def test_scarabeo_detail_must_be_the_engines(self, cases: dict[str, Case]) -> None:
        case = cases["scarabeo"]
        refused_with_record(case, lambda d: analysed(d)[0]["best"][0].__setitem__("score", 999))
        refused_with_record(case, lambda d: analysed(d)[0]["best"][0].__setitem__("leave", "ZZ"))
        refused_with_record(case, lambda d: analysed(d)[0]["best"][0]["placements"][0].__setitem__(1, "Q"))
        refused_with_record(case, lambda d: analysed(d)[0]["best"][0].__setitem__("move", "H8 QQQ"))

    def test_thot_line_must_be_playable(self, cases: dict[str, Case]) -> None:
        case = cases["thot"]
        refused_with_record(case, lambda d: analysed(d)[0]["best"][0]["pv"].append(analysed(d)[0]["best"][0]["pv"][0]))
        refused_with_record(case, lambda d: analysed(d)[0]["best"][0].__setitem__("move", "A1"))

    def test_the_move_valued_is_the_move_played(self, cases: dict[str, Case]) -> None:
        rec, data, lex = cases["classic"]
        m = analysed(data)[0]
        other = next(a for a in m["best"] if a["move"] != m["move"])

        def change(d: dict[str, Any]) -> None:
            analysed(d)[0]["played"] = copy.deepcopy(other)
        assert "another move" in refused_with_record(cases["classic"], change) \
            or "loss" in refused(cases["classic"], change)


# --- random mutations ----------------------------------------------------------------------------
_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-10**45, max_value=10**45),
    st.sampled_from([0, 1, -1, 2, 3, 4, 99, -5, MAX_SAFE_INT + 1, 10**40]),
    st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([1e308, -1e308, 0.5]),
    st.text(max_size=12), st.sampled_from(["", "A1", "E5", "K11", "W0@E5", "x" * 150_000, "-",
                                           *CLASSES, *REASONS, "sha256:" + "0" * 64]),
)
_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=3)), max_leaves=6)


def _paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*path, i))
    return out


def _mutate(data: dict[str, Any], path: tuple[Any, ...], action: str, value: Any) -> dict[str, Any]:
    bad = copy.deepcopy(data)
    if not path:
        return bad if action == "delete" else value
    parent = bad
    for step in path[:-1]:
        parent = parent[step]
    if action == "delete":
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return bad


def _well_formed(a: Analysis, record: GameRecord | None) -> None:
    """Every field of an accepted analysis is of its type and within its game's bounds."""
    rules = rules_for(a.game)
    assert rules.min_players <= a.players <= rules.max_players
    assert a.viewer is None or 0 <= a.viewer < a.players
    assert len(a.summary) == a.players and len(a.moves) <= 5000
    if record is not None:
        assert a.record == record_digest(record) and [m.move for m in a.moves] == record.moves

    def num(x: Any, bound: float) -> None:
        assert isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) and abs(x) <= bound

    def text(x: Any, limit: int = 64) -> None:
        assert isinstance(x, str) and len(x) <= limit and x.isprintable()

    def plain(x: Any) -> None:
        if isinstance(x, list):
            assert len(x) <= 256
            for y in x:
                plain(y)
        elif isinstance(x, str):
            text(x)
        elif x is not None and not isinstance(x, bool):
            num(x, 2**53)

    for m in a.moves:
        text(m.move)
        assert m.seat is None or 0 <= m.seat < a.players
        assert len(m.scores) == a.players
        for s in m.scores:
            num(s, rules.max_score)
        for alt in (*m.best, *([m.played] if m.played else [])):
            text(alt.move)
            num(alt.value, rules.max_value)
            for v in alt.detail.values():
                plain(v)
        if m.loss is not None:
            num(m.loss, 2 * rules.max_value)
        assert m.klass is None or m.klass in CLASSES
        for ev in m.evaluation or ():
            if ev is not None:
                num(ev, rules.max_value)
    for k, v in a.engine.items():
        text(k, 40)
        plain(v)


@pytest.mark.parametrize("name", ["classic", "ruins", "thot", "scarabeo", "dispute"])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_mutations_are_refused_or_well_formed(cases: dict[str, Case], name: str, data: st.DataObject) -> None:
    rec, original, lex = cases[name]
    paths = _paths(original)
    path = data.draw(st.sampled_from(paths))
    action = data.draw(st.sampled_from(["set", "set", "delete"]))
    value = data.draw(_VALUES) if action == "set" else None
    bad = _mutate(original, path, action, value)
    for record in (None, rec):
        try:
            a = Analysis.from_json(bad, record, lex)
        except AnalysisError as err:
            assert "\n" not in str(err) and len(str(err)) <= 300
            continue
        _well_formed(a, record)
