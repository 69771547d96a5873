"""The save envelope in CPython, against an in-memory stand-in for localStorage."""

from __future__ import annotations

import json
from itertools import count

import pytest

from web.platform.storage import (
    MAX_IMPORT_BYTES,
    PREFIX,
    SCHEMA_VERSION,
    DamagedSave,
    InvalidSave,
    MemoryStore,
    Save,
    SaveConflict,
    SaveStore,
    StorageFull,
)

RECORD = {"format": "scarab-record", "version": 1, "game": "thot", "options": {}, "seed": 1, "moves": []}


def make_store(kv: MemoryStore | None = None) -> SaveStore:
    ticks = count(1000)
    ids = count(1)
    return SaveStore(kv or MemoryStore(), clock=lambda: next(ticks), new_id=lambda: f"id{next(ids)}")


class TestEnvelope:
    def test_create_and_load(self) -> None:
        store = make_store()
        save = store.create("thot", "  Friday   game ", RECORD)
        again = store.load(save.id)
        assert again == save
        assert again.title == "Friday game"
        assert json.loads(store.kv.get(PREFIX + save.id) or "")["schema"] == SCHEMA_VERSION

    def test_update_bumps_revision_and_time(self) -> None:
        store = make_store()
        save = store.create("thot", "g", RECORD)
        newer = store.update(save, {**RECORD, "moves": ["C7"]})
        assert newer.revision == save.revision + 1
        assert newer.updated > save.updated
        assert store.load(save.id).state["moves"] == ["C7"]

    def test_list_newest_first(self) -> None:
        store = make_store()
        a = store.create("thot", "a", RECORD)
        b = store.create("scarabya", "b", RECORD)
        store.update(a, RECORD)
        assert [s.id for s in store.list()] == [a.id, b.id]

    def test_unknown_game_refused(self) -> None:
        with pytest.raises(InvalidSave, match="unknown game"):
            make_store().create("chess", "x", RECORD)


class TestDamaged:
    @pytest.mark.parametrize(
        "raw, reason",
        [
            ("{not json", "not valid JSON"),
            ("[1,2]", "not a saved game"),
            (json.dumps({"schema": 99, "id": "x"}), "newer version"),
            (json.dumps({"schema": 1, "id": "bad", "game": "thot"}), "should be"),
        ],
    )
    def test_damaged_entry_listed_others_work(self, raw: str, reason: str) -> None:
        store = make_store()
        good = store.create("thot", "good", RECORD)
        store.kv.set(PREFIX + "bad", raw)
        listed = store.list()
        damaged = [s for s in listed if isinstance(s, DamagedSave)]
        assert [d.id for d in damaged] == ["bad"]
        assert reason in damaged[0].reason
        assert any(isinstance(s, Save) and s.id == good.id for s in listed)
        assert store.export("bad") == raw  # exported exactly as stored, to be repaired
        store.delete("bad")
        assert all(isinstance(s, Save) for s in store.list())

    def test_migrates_schema_0(self) -> None:
        store = make_store()
        old = {"id": "old", "game": "thot", "title": "t", "created": 1, "updated": 2, "record": RECORD}
        store.kv.set(PREFIX + "old", json.dumps(old))
        save = store.load("old")
        assert save.state == RECORD and save.revision == 1


class TestSafety:
    def test_quota_keeps_previous_save(self) -> None:
        kv = MemoryStore(quota=600)
        store = make_store(kv)
        save = store.create("thot", "g", RECORD)
        before = kv.get(PREFIX + save.id)
        with pytest.raises(StorageFull):
            store.update(save, {**RECORD, "moves": ["C7"] * 200})
        assert kv.get(PREFIX + save.id) == before

    def test_newer_revision_from_other_tab_not_overwritten(self) -> None:
        store = make_store()
        mine = store.create("thot", "g", RECORD)
        other_tab = store.update(store.load(mine.id), {**RECORD, "moves": ["A1"]})
        with pytest.raises(SaveConflict):
            store.update(mine, {**RECORD, "moves": ["B2"]})
        assert store.load(mine.id) == other_tab

    def test_settings_round_trip_and_corrupt_settings(self) -> None:
        store = make_store()
        store.save_settings({"language": "it"})
        assert store.settings() == {"language": "it"}
        store.kv.set("scarab:settings", "{oops")
        assert store.settings() == {}


class TestImport:
    def test_export_import_round_trip_as_new_game(self) -> None:
        store = make_store()
        save = store.create("thot", "g", RECORD)
        text = store.export(save.id)
        imported = store.import_text(text)
        assert imported.id != save.id  # never overwrites
        assert imported.state == save.state and imported.title == "g"

    def test_oversized_import_refused(self) -> None:
        store = make_store()
        with pytest.raises(InvalidSave, match="1,000,001 bytes"):
            store.import_text(" " * (MAX_IMPORT_BYTES + 1))
        assert store.list() == []

    def test_validator_rejects_bad_state(self) -> None:
        def validate(game: str, state: dict) -> None:
            raise ValueError("turn 3: illegal move")

        store = SaveStore(MemoryStore(), validate_state=validate)
        text = json.dumps(Save("x", "thot", "t", 1, 1, 1, RECORD).envelope())
        with pytest.raises(InvalidSave, match="turn 3"):
            store.import_text(text)
        assert store.list() == []

    def test_garbage_import_refused(self) -> None:
        with pytest.raises(InvalidSave):
            make_store().import_text("<html>")
