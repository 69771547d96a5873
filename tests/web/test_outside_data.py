"""Every kind of outside data — saves, settings, statistics, links, imports — through one guarded path:
whatever it holds, a clean refusal with a reason, and nothing already saved is lost (issue 14)."""

from __future__ import annotations

import base64
import json
import zlib
from itertools import count
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.core import GameRecord, RecordError
from game.core.safejson import MAX_DEPTH, JSONRefused, loads, nesting_depth
from web.platform import engines, stats
from web.platform.session import Seat, Session
from web.platform.share import ShareError, decode, encode, receive
from web.platform.storage import (
    PREFIX,
    SETTINGS_KEY,
    DamagedSave,
    InvalidSave,
    MemoryStore,
    Save,
    SaveConflict,
    SaveGone,
    SaveStore,
    SaveUnreadable,
    clean_settings,
)

RECORD = {"format": "scarab-record", "version": 1, "game": "thot", "options": {"players": 2}, "seed": 1,
          "moves": [], "meta": {"seats": [{"name": "Ada"}, {"name": "Bo"}]}}
DEEP = "[" * 5000 + "]" * 5000


def make_store(kv: MemoryStore | None = None) -> SaveStore:
    ticks, ids = count(1000), count(1)
    return SaveStore(kv or MemoryStore(), clock=lambda: next(ticks), new_id=lambda: f"id{next(ids)}",
                     validate_state=engines.validate_state)


def link_of(payload_text: str) -> str:
    return "s1." + base64.urlsafe_b64encode(zlib.compress(payload_text.encode("utf-8", "surrogatepass"))).decode().rstrip("=")


# Any JSON value, and text around it: what a hand-edited entry or a hostile file can hold.
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20)
hostile_text = st.one_of(
    json_values.map(json.dumps),
    st.integers(1, 20_000).map(lambda n: "[" * n + "]" * n),
    st.integers(1, 20_000).map(lambda n: '{"a":' * n + "1" + "}" * n),
    st.integers(41, 10_000).map(lambda n: "9" * n),
    st.sampled_from(["NaN", "Infinity", "-Infinity", "[1e400]", '{"updated": 1e20}', "\ud800", "", "{", '"\\']),
    st.text(max_size=50),
)


class TestSafeJson:
    def test_deep_nesting_refused_before_parsing(self) -> None:
        with pytest.raises(JSONRefused, match="nested 5000 levels"):
            loads(DEEP)

    def test_brackets_inside_strings_do_not_count(self) -> None:
        assert loads(json.dumps({"a": "[" * 500})) == {"a": "[" * 500}
        assert nesting_depth('["]]]]", ["\\"[[["]]') == 2

    def test_huge_integer_refused_with_a_message(self) -> None:
        with pytest.raises(JSONRefused, match="more than 40 digits"):
            loads('{"updated": ' + "1" * 5000 + "}")

    def test_nan_refused(self) -> None:
        with pytest.raises(JSONRefused, match="NaN"):
            loads("[NaN]")

    def test_depth_at_the_limit_parses(self) -> None:
        assert nesting_depth(json.dumps(loads("[" * MAX_DEPTH + "]" * MAX_DEPTH))) == MAX_DEPTH

    @settings(max_examples=150, deadline=None)
    @given(hostile_text)
    def test_only_refusals_or_values(self, text: str) -> None:
        try:
            loads(text)
        except JSONRefused as err:
            assert str(err)


class TestSavesSurviveAnyEntry:
    @pytest.mark.parametrize("raw, reason", [
        (DEEP, "nested"),
        (json.dumps({**Save("x", "thot", "t", 1, 2**53 + 1, 1, RECORD).envelope()}), "updated"),
        (json.dumps({**Save("x", "thot", "t", 1, 1, 1, RECORD).envelope(), "updated": 1e20}), "updated"),
        (json.dumps({**Save("x", "thot", "t", 1, 1, 1, RECORD).envelope(), "updated": -1e20}), "updated"),
        ('{"schema":1,"id":"x","seed":' + "7" * 5000 + "}", "digits"),
    ])
    def test_odd_entry_listed_as_damaged_the_others_listed(self, raw: str, reason: str) -> None:
        store = make_store()
        real = [store.create("thot", f"g{i}", RECORD) for i in range(3)]
        store.kv.set(PREFIX + "x", raw)
        listed = store.list()
        assert {s.id for s in listed if isinstance(s, Save)} == {s.id for s in real}
        damaged = [s for s in listed if isinstance(s, DamagedSave)]
        assert [d.id for d in damaged] == ["x"] and reason in damaged[0].reason
        assert store.export("x") == raw

    @settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(hostile_text)
    def test_any_text_as_an_entry(self, raw: str) -> None:
        store = make_store()
        good = store.create("thot", "good", RECORD)
        store.kv.set(PREFIX + "zz", raw)
        listed = store.list()
        assert any(isinstance(s, Save) and s.id == good.id for s in listed)
        assert len(listed) == 2

    @settings(max_examples=120, deadline=None)
    @given(st.sampled_from(["id", "game", "title", "created", "updated", "revision", "state", "schema"]), json_values)
    def test_wrong_type_in_every_field(self, name: str, value: Any) -> None:
        store = make_store()
        envelope = {**Save("x", "thot", "t", 1, 1, 1, RECORD).envelope(), name: value}
        store.kv.set(PREFIX + "x", json.dumps(envelope))
        for save in store.list():
            if isinstance(save, Save):
                assert -(2**53) < save.updated < 2**53 and isinstance(save.title, str)


class TestOtherTabs:
    def test_newer_schema_written_elsewhere_is_not_overwritten(self) -> None:
        store = make_store()
        mine = store.create("thot", "g", RECORD)
        newer = {**mine.envelope(), "schema": 2, "revision": 5, "extra": {"from": "a newer release"}}
        store.kv.set(PREFIX + mine.id, json.dumps(newer))
        with pytest.raises(SaveUnreadable, match="newer version"):
            store.update(mine, {**RECORD, "moves": ["C7"]})
        assert json.loads(store.kv.get(PREFIX + mine.id) or "") == newer

    def test_deleted_elsewhere_is_not_recreated(self) -> None:
        store = make_store()
        mine = store.create("thot", "g", RECORD)
        store.delete(mine.id)
        with pytest.raises(SaveGone):
            store.update(mine, {**RECORD, "moves": ["C7"]})
        assert store.list() == []

    def test_damaged_elsewhere_is_not_replaced(self) -> None:
        store = make_store()
        mine = store.create("thot", "g", RECORD)
        store.kv.set(PREFIX + mine.id, "{half a save")
        with pytest.raises(SaveUnreadable):
            store.update(mine, RECORD)
        assert store.kv.get(PREFIX + mine.id) == "{half a save"

    def test_rename_respects_other_tabs_too(self) -> None:
        store = make_store()
        mine = store.create("thot", "g", RECORD)
        store.update(store.load(mine.id), RECORD)
        store.kv.set(PREFIX + mine.id, json.dumps({**store.load(mine.id).envelope(), "schema": 9}))
        with pytest.raises(InvalidSave):
            store.rename(mine.id, "new name")

    def test_the_game_on_screen_can_be_kept_as_a_new_one(self) -> None:
        store = make_store()
        session = Session.create(store, "thot", {"players": 2}, 7, [Seat("Ada"), Seat("Bo")], "Thot")
        store.delete(session.save.id)
        with pytest.raises(SaveGone):
            session.play(session.state.move_text(session.state.legal_moves()[0]))
        copy = store.save_as_new(session.save, session.record().to_json())
        assert Session.open(store, copy.id).state.history() == session.state.history()

    def test_conflict_is_still_a_conflict(self) -> None:
        store = make_store()
        mine = store.create("thot", "g", RECORD)
        store.update(store.load(mine.id), RECORD)
        with pytest.raises(SaveConflict):
            store.update(mine, RECORD)


class TestSettings:
    def test_tutorials_seen_of_the_wrong_type_is_ignored(self) -> None:
        store = make_store()
        store.kv.set(SETTINGS_KEY, json.dumps({"tutorials_seen": 5, "language": "it"}))
        assert store.settings() == {"language": "it"}

    def test_unknown_keys_of_a_newer_version_are_kept(self) -> None:
        assert clean_settings({"zoom": 2, "theme": "purple"}) == {"zoom": 2}

    @settings(max_examples=150, deadline=None)
    @given(st.one_of(hostile_text, st.dictionaries(
        st.sampled_from(["language", "theme", "sounds", "tutorials_seen"]), json_values).map(json.dumps)))
    def test_any_settings_text(self, raw: str) -> None:
        store = make_store()
        store.kv.set(SETTINGS_KEY, raw)
        got = store.settings()
        assert got.get("language", "it") in ("it", "en") and got.get("theme", "dark") in ("light", "dark")
        assert isinstance(got.get("tutorials_seen", []), list) and isinstance(got.get("sounds", False), bool)
        store.save_settings(got)


def finished_thot() -> GameRecord:
    from game.core import Rng

    state = engines.factory("thot")({"players": 2, "short": True}, 5)
    rng = Rng(5)
    while not state.is_over():
        state.push(rng.choice(list(state.legal_moves())))
    return GameRecord.of(state)


class TestStatistics:
    @pytest.mark.parametrize("raw", [
        json.dumps({"version": 1, "players": {}, "counted": 5}),
        json.dumps({"version": 1, "players": {"ada": "x"}}),
        json.dumps({"version": 1, "players": {"ada": {"name": "Ada", "games": {"thot": "x"}}}}),
        json.dumps({"version": 1, "players": {"ada": {"name": "Ada", "games": {"thot": {"played": "2"}}}}}),
        json.dumps({"version": 1, "players": {}, "last_game": {"game": "thot", "names": 3}}),
        DEEP,
    ])
    def test_a_finished_game_is_counted_whatever_is_stored(self, raw: str) -> None:
        data = stats.load(raw)
        summary = stats.summarise(finished_thot(), engines.factory("thot"))
        assert stats.record_game(data, "s1", "thot", ["Ada", "Bo"], summary, 1)
        assert stats.load(stats.dumps(data))["players"]["ada"]["games"]["thot"]["played"] == 1

    def test_import_with_a_malformed_game_changes_nothing(self) -> None:
        current = stats.empty()
        bad = json.dumps({"version": 1, "players": {"x": {"name": "X", "games": {"thot": "x"}}}})
        with pytest.raises(ValueError, match="thot"):
            stats.import_stats(current, bad)
        assert current == stats.empty()

    @settings(max_examples=150, deadline=None)
    @given(st.one_of(hostile_text, st.builds(
        lambda p: json.dumps({"version": 1, "players": p}),
        st.dictionaries(st.text(max_size=5), json_values, max_size=3))))
    def test_any_statistics_text(self, raw: str) -> None:
        data = stats.load(raw)
        for player in data["players"].values():
            for g in player["games"].values():
                assert stats.mean(g) >= 0 or g["total"] < 0
        try:
            stats.import_stats(stats.empty(), raw)
        except ValueError as err:
            assert str(err)


class TestRecordsTheEnginesRefuse:
    @pytest.mark.parametrize("game, options", [
        ("scarabya", {"players": 1, "layout": []}),
        ("scarabya", {"players": 1, "deck": [1]}),
        ("scarabya", {"players": "two"}),
        ("thot", {"players": [2]}),
        ("scarabeo", {"players": 2, "position": "1" * 30}),
    ])
    def test_bad_options_are_a_refusal_with_a_reason(self, game: str, options: dict[str, Any]) -> None:
        record = {**RECORD, "game": game, "options": options}
        text = json.dumps(Save("x", game, "t", 1, 1, 1, record).envelope())
        with pytest.raises(InvalidSave, match="does not replay"):
            make_store().import_text(text)
        with pytest.raises(ShareError):
            receive(make_store(), encode(GameRecord.from_json(record), "g"), "t")

    def test_seats_true_refused_on_open_and_in_links(self) -> None:
        store = make_store()
        record = {**RECORD, "meta": {"seats": True}}
        store.kv.set(PREFIX + "x", json.dumps(Save("x", "thot", "t", 1, 1, 1, record).envelope()))
        with pytest.raises(RecordError, match="seats"):
            Session.open(store, "x")
        with pytest.raises(ShareError, match="seats"):
            receive(store, encode(GameRecord.from_json(record), "g"), "t")

    @settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.sampled_from(["thot", "scarabya"]), st.sampled_from(["options", "seed", "moves", "meta"]), json_values)
    def test_wrong_types_in_every_record_field(self, game: str, name: str, value: Any) -> None:
        record = {**RECORD, "game": game, name: value}
        store = make_store()
        try:
            store.import_text(json.dumps(Save("x", game, "t", 1, 1, 1, record).envelope()))
        except InvalidSave as err:
            assert str(err)


class TestImports:
    def test_empty_id_gets_a_new_one(self) -> None:
        store = make_store()
        save = store.import_text(json.dumps(Save("", "thot", "t", 1, 1, 1, RECORD).envelope()))
        assert save.id and store.load(save.id).state == RECORD

    def test_id_that_is_no_route_gets_a_new_one(self) -> None:
        store = make_store()
        save = store.import_text(json.dumps(Save("a/../b#c", "thot", "t", 1, 1, 1, RECORD).envelope()))
        assert save.id == "id1"

    def test_deep_file_refused_and_nothing_stored(self) -> None:
        store = make_store()
        with pytest.raises(InvalidSave, match="nested"):
            store.import_text(DEEP)
        assert store.list() == []


class TestLinks:
    def test_a_51_character_link_of_deep_nesting_is_refused(self) -> None:
        link = link_of(DEEP)
        with pytest.raises(ShareError, match="nested"):
            decode(link)

    @settings(max_examples=100, deadline=None)
    @given(hostile_text)
    def test_any_packed_payload(self, text: str) -> None:
        try:
            decode(link_of(text))
        except ShareError as err:
            assert str(err)

    @settings(max_examples=100, deadline=None)
    @given(st.text(max_size=200))
    def test_truncated_and_garbled_links(self, tail: str) -> None:
        good = encode(GameRecord.from_json(RECORD), "g")
        for text in (good[: len(good) // 2], good + tail, "s1." + tail):
            try:
                decode(text)
            except ShareError as err:
                assert str(err)
