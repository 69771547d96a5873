"""Today's challenge on the device (web/platform/daily_store.py): the cached puzzles, one counted attempt a
day per puzzle, streaks across days, results and share text, malformed storage. Pure Python."""

from __future__ import annotations

import datetime
import json

import pytest

from game import daily
from game.core import GameRecord
from web.platform import daily_store as ds
from web.platform.storage import MemoryStore

D = datetime.date


def entry(day: str, game: str = "thot", pct: int = 80, save: str = "abc") -> dict:
    return {"date": day, "game": game, "number": daily.puzzle_number(D.fromisoformat(day)), "percent": pct,
            "score": pct, "best": 100, "marks": "🟩🟩🟩🟩⬜", "save": save}


def attempts(*entries: dict) -> dict:
    data = ds.empty()
    for e in entries:
        ds.record_attempt(data, e)
    return data


class TestAttempts:
    def test_one_counted_attempt_per_puzzle(self) -> None:
        data = ds.empty()
        assert ds.record_attempt(data, entry("2026-12-01", save="first"))
        assert not ds.record_attempt(data, entry("2026-12-01", pct=100, save="second"))  # a replay
        assert ds.counted(data, "2026-12-01", "thot")["save"] == "first"
        assert ds.counted(data, "2026-12-01", "thot")["percent"] == 80
        assert ds.record_attempt(data, entry("2026-12-01", game="scarabya"))  # another game's puzzle
        assert ds.record_attempt(data, entry("2026-12-02"))  # another day's
        assert len(data["entries"]) == 3

    def test_round_trip_through_storage(self) -> None:
        kv = MemoryStore()
        data = attempts(entry("2026-12-01"), entry("2026-12-02", game="scarabeo"))
        ds.save_attempts(kv, data)
        assert ds.load_attempts(kv) == data

    def test_malformed_entry_is_refused_when_recorded(self) -> None:
        with pytest.raises(ValueError):
            ds.record_attempt(ds.empty(), {**entry("2026-12-01"), "percent": "80"})

    @pytest.mark.parametrize("raw", [None, "", "not json", "[]", "{}", '{"version": 2, "entries": []}',
                                     '{"version": 1, "entries": {}}', '{"version": 1, "entries": [1, null, "x"]}',
                                     "[" * 10_000, '{"version": 1, "entries": []}' + " " * ds.MAX_ATTEMPTS_CHARS])
    def test_unreadable_storage_is_no_attempts(self, raw: str | None) -> None:
        assert ds.parse_attempts(raw) == ds.empty()

    def test_malformed_entries_are_left_out_the_rest_kept(self) -> None:
        good = entry("2026-12-03")
        bad = [
            {**good, "date": "2026-13-01"}, {**good, "date": "yesterday"}, {**good, "game": "chess"},
            {**good, "percent": True}, {**good, "percent": -1}, {**good, "number": 0}, {**good, "score": 1.5},
            {**good, "marks": "<b>"}, {**good, "marks": "🟩" * 41}, {**good, "save": "../x"}, "entry", None,
        ]
        raw = json.dumps({"version": 1, "entries": bad + [good, {**good, "percent": 10}]})
        data = ds.parse_attempts(raw)
        assert data["entries"] == [good]  # the duplicate of a counted puzzle is left out too

    def test_storage_that_refuses_reading(self) -> None:
        class Refusing(MemoryStore):
            def get(self, key: str) -> str | None:
                raise RuntimeError("SecurityError")

        assert ds.load_attempts(Refusing()) == ds.empty()
        assert ds.read_puzzle(Refusing(), "2026-12-01", "thot") is None


class TestStreaks:
    def test_empty(self) -> None:
        assert ds.streaks(ds.empty(), D(2026, 12, 5)) == {"played": 0, "current": 0, "best": 0, "mean": None}

    def test_streak_counting_across_days(self) -> None:
        data = attempts(*(entry(f"2026-12-{d:02d}") for d in (1, 2, 3, 5, 6)))
        s = ds.streaks(data, D(2026, 12, 6))
        assert (s["played"], s["current"], s["best"]) == (5, 2, 3)
        # today not yet played: the streak up to yesterday still stands
        assert ds.streaks(data, D(2026, 12, 7))["current"] == 2
        # a day missed: broken
        assert ds.streaks(data, D(2026, 12, 8))["current"] == 0
        assert ds.streaks(data, D(2026, 12, 8))["best"] == 3

    def test_across_a_month_and_a_year(self) -> None:
        data = attempts(*(entry(day) for day in ("2026-12-30", "2026-12-31", "2027-01-01", "2027-01-02")))
        assert ds.streaks(data, D(2027, 1, 2))["current"] == 4

    def test_per_game_and_all_games(self) -> None:
        data = attempts(entry("2026-12-01", "thot", 100), entry("2026-12-02", "scarabeo", 50),
                        entry("2026-12-03", "thot", 60), entry("2026-12-03", "scarabya", 120))
        assert ds.streaks(data, D(2026, 12, 3), "thot") == {"played": 2, "current": 1, "best": 1, "mean": 80}
        every = ds.streaks(data, D(2026, 12, 3))
        assert (every["played"], every["current"], every["best"]) == (3, 3, 3)
        assert every["mean"] == pytest.approx((100 + 50 + 60 + 100) / 4)  # above 100 counts as 100
        assert ds.streaks(data, D(2026, 12, 3), "scarabya")["mean"] == 100

    def test_history_of_the_last_days(self) -> None:
        data = attempts(entry("2026-12-01", "thot", 70), entry("2026-12-03", "scarabeo", 40))
        rows = ds.history(data, D(2026, 12, 3), 3)
        assert rows == [(D(2026, 12, 1), {"thot": 70}), (D(2026, 12, 2), {}), (D(2026, 12, 3), {"scarabeo": 40})]


class TestResults:
    def test_percent(self) -> None:
        assert ds.percent(52, 78) == 67
        assert ds.percent(78, 78) == 100
        assert ds.percent(-3, 5) == 0
        assert ds.percent(55, 51) == 108  # Scarabya's answer is the best found, not an optimum

    def test_marks(self) -> None:
        assert ds.bar_marks(100) == "🟩" * 5
        assert ds.bar_marks(0) == "⬜" * 5
        assert ds.bar_marks(67) == "🟩🟩🟩⬜⬜"
        assert ds.bar_marks(70) == "🟩🟩🟩🟨⬜"
        assert ds.bar_marks(150) == "🟩" * 5
        assert ds.move_marks([0, 2, 5]) == "🟩🟨⬜"

    def test_share_text(self) -> None:
        text = ds.share_text("Scarab — Thot", 1, "5/5 (100%)", "🟩🟩🟩", "http://x/#/open?d=s1.abc")
        assert text.splitlines() == ["Scarab — Thot #1: 5/5 (100%)", "🟩🟩🟩", "http://x/#/open?d=s1.abc"]
        assert ds.share_text("T", 2, "1/5 (20%)", "⬜", "L", "replay").startswith("T #2: 1/5 (20%) (replay)")


class TestCachedPuzzles:
    def test_cache_round_trip_and_pruning(self) -> None:
        kv = MemoryStore()
        p = json.loads(json.dumps(daily.run(daily.generate_one("thot", D(2026, 12, 1)))))
        assert ds.write_puzzle(kv, p)
        assert ds.read_puzzle(kv, "2026-12-01", "thot") == p
        assert ds.read_puzzle(kv, "2026-12-01", "scarabya") is None
        assert ds.read_puzzle(kv, "2026-12-02", "thot") is None
        later = {**p, "date": "2026-12-05", "number": 5}
        kv.set(ds.ATTEMPTS_KEY, "{}")
        ds.write_puzzle(kv, later)
        assert ds.cache_key("2026-12-01", "thot") not in kv.keys()  # older days are forgotten
        assert ds.ATTEMPTS_KEY in kv.keys()  # the attempts are not a cached puzzle

    @pytest.mark.parametrize("raw", ["x", "{}", "[" * 5000, json.dumps({"game": "thot", "date": "2026-12-01"}),
                                     "{" + " " * ds.MAX_PUZZLE_CHARS + "}"])
    def test_malformed_cache_is_computed_again(self, raw: str) -> None:
        kv = MemoryStore()
        kv.set(ds.cache_key("2026-12-01", "thot"), raw)
        assert ds.read_puzzle(kv, "2026-12-01", "thot") is None

    def test_a_field_of_the_wrong_type_is_refused(self) -> None:
        p = json.loads(json.dumps(daily.run(daily.generate_one("thot", D(2026, 12, 1)))))
        assert ds.valid_puzzle(p, "2026-12-01", "thot")
        for bad in ({"points": "5"}, {"line": "B2"}, {"plies": 99}, {"turns_on": -1}, {"seed": -1}, {"number": 0}):
            assert not ds.valid_puzzle({**p, **bad}, "2026-12-01", "thot"), bad
        sy = json.loads(json.dumps(daily.run(daily.generate_one("scarabya", D(2026, 12, 1)))))
        assert ds.valid_puzzle(sy, "2026-12-01", "scarabya")
        assert not ds.valid_puzzle({**sy, "best": {"score": None}}, "2026-12-01", "scarabya")


class TestAttemptMeta:
    META = {"game": "thot", "date": "2026-12-01", "number": 1, "start": 54, "me": 0, "best": 5, "plies": 6,
            "base": [107, 106], "top": [], "line": ["B2", "A2"], "again": False}

    def test_valid(self) -> None:
        assert ds.daily_meta({"daily": self.META}) == {**self.META, "received": False, "shown": False, "friend": None}
        assert ds.daily_meta({"daily": {**self.META, "received": True}})["received"] is True
        assert ds.daily_meta({"daily": {**self.META, "received": "yes"}})["received"] is False

    def test_an_attempt_in_a_link_opens_the_puzzle_not_the_attempt(self) -> None:
        """Issue 24: an attempt's record (its moves and meta's best plays are the answer) in a link
        of the older kind is not opened: the puzzle of that date opens instead, unplayed."""
        from web.platform.session import Seat, Session
        from web.platform.share import DailyLink, encode, receive
        from web.platform.storage import SaveStore

        home = SaveStore(MemoryStore())
        session = Session.create(home, "thot", {"short": True}, 3, [Seat("You"), Seat("Computer", True, 4)], "daily")
        session.meta["daily"] = {**self.META, "start": 0, "base": [0, 0]}
        session.play(session.state.move_text(session.state.legal_moves()[0]))
        link = encode(session.record(shared=True), session.game_id)
        other = SaveStore(MemoryStore())
        with pytest.raises(DailyLink) as err:
            receive(other, link, "received")
        assert err.value.href == "#/daily/thot?date=2026-12-01"
        assert other.list() == []

    @pytest.mark.parametrize("bad", [{"game": "chess"}, {"date": "2026-02-30"}, {"start": -1}, {"me": 2},
                                     {"base": []}, {"base": [1, "2"]}, {"top": [{"move": 1}]}, {"line": "B2"},
                                     {"plies": 40}, {"best": 1.5}])
    def test_malformed_meta_opens_as_an_ordinary_game(self, bad: dict) -> None:
        assert ds.daily_meta({"daily": {**self.META, **bad}}) is None
        assert ds.daily_meta({"daily": "x"}) is None and ds.daily_meta(None) is None

    def test_puzzle_end_and_result_from_the_engine(self) -> None:
        """The Thot attempt's record replays to the puzzle's position (the page's start), and the
        perfect line's result read from the engine's scores is the puzzle's points."""
        from game.core import Rng
        from game.daily import thot as dthot
        from game.thot.search import greedy_move
        from game.thot.state import ThotState

        p = daily.run(daily.generate_one("thot", D(2026, 12, 1)))
        state = dthot.candidate(p["seed"])
        rng = Rng(p["seed"] ^ dthot.GO_ON)
        for _ in range(p["turns_on"]):
            state.push(greedy_move(state, rng))
        record = GameRecord.of(state)
        game = record.replay(ThotState.from_options)
        assert game.position() == p["position"]
        d = {**self.META, "start": len(record.moves), "me": game.to_move(), "base": list(game.view()["scores"]),
             "best": p["points"]}
        for k, move in enumerate(p["line"]):
            assert not ds.puzzle_over(d, len(record.moves) + k, False)
            game.push(game.parse_move(move))
        assert ds.puzzle_over(d, len(record.moves) + len(p["line"]), False)
        assert ds.result_score(d, list(game.view()["scores"])) == p["points"]

    def test_scarabeo_ends_after_one_play(self) -> None:
        d = {**self.META, "game": "scarabeo", "start": 0, "plies": 0, "base": [447, 282]}
        assert not ds.puzzle_over(d, 0, False) and ds.puzzle_over(d, 1, False)
        assert ds.result_score(d, [447 + 52, 282]) == 52
        assert ds.puzzle_over({**d, "game": "scarabya"}, 11, True)
        assert not ds.puzzle_over({**d, "game": "scarabya"}, 11, False)


class TestSharedResult:
    """Issue 24: a shared result carries the puzzle's date, the result and the marks — never the
    answer (the best plays, the perfect line, the sender's moves)."""

    def test_the_query_round_trips_the_result_and_nothing_else(self) -> None:
        query = ds.share_query("2026-12-01", 65, 78, 83, "🟩🟩🟩🟩⬜")
        assert query == "date=2026-12-01&r=65.78.83.ggggw"
        friend = ds.parse_friend(query.split("r=", 1)[1])
        assert friend == {"score": 65, "best": 78, "percent": 83, "marks": "🟩🟩🟩🟩⬜"}
        thot = ds.share_query("2026-12-01", -2, 5, 0, "🟩🟨⬜")
        assert ds.parse_friend(thot.split("r=", 1)[1]) == {"score": -2, "best": 5, "percent": 0, "marks": "🟩🟨⬜"}

    @pytest.mark.parametrize("raw", [None, "", "65.78.83", "65.78.83.ggx", "a.b.c.g", "65.78.2000.g",
                                     "1" * 9 + ".1.1.g", "65.78.83." + "g" * 41, "65.78.83.g<script>"])
    def test_a_malformed_result_is_none(self, raw: object) -> None:
        assert ds.parse_friend(raw) is None

    def test_the_link_of_a_perfect_attempt_holds_no_answer(self) -> None:
        """The Thot puzzle of 2026-12-01 (its perfect line B2 A2 A8 I8 I3 C3, issue 24's case): the
        query of a 100 % result has the date, numbers and mark letters only — no square, no move."""
        import re

        day = D(2026, 12, 1)
        puzzle = daily.run(daily.generate_one("thot", day))
        query = ds.share_query(day.isoformat(), puzzle["points"], puzzle["points"], 100, ds.move_marks([0] * 3))
        assert re.fullmatch(r"date=\d{4}-\d\d-\d\d&r=-?\d+\.-?\d+\.\d+\.[gyw]*", query)
        assert not any(move in query for move in puzzle["line"])

    def test_a_friend_in_the_meta_is_checked(self) -> None:
        meta = {**TestAttemptMeta.META, "friend": {"score": 1, "best": 2, "percent": 50, "marks": "🟩"}}
        assert ds.daily_meta({"daily": meta})["friend"] == {"score": 1, "best": 2, "percent": 50, "marks": "🟩"}
        for bad in ({"score": "1", "best": 2, "percent": 50, "marks": ""}, {"score": 1, "best": 2, "percent": 5000,
                                                                              "marks": ""}, [1], "x"):
            assert ds.daily_meta({"daily": {**TestAttemptMeta.META, "friend": bad}})["friend"] is None

    def test_an_attempt_whose_answer_was_shown_does_not_count(self) -> None:
        d = ds.daily_meta({"daily": TestAttemptMeta.META})
        assert d is not None and ds.counts(d)
        shown = ds.daily_meta({"daily": {**TestAttemptMeta.META, "shown": True}})
        assert shown is not None and shown["shown"] and not ds.counts(shown)
        assert not ds.counts({**d, "again": True}) and not ds.counts({**d, "received": True})
