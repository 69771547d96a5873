"""Saved games in ``localStorage``: a versioned envelope per game, written so nothing is ever lost.

Each save is one key ``scarab:save:<id>`` holding
``{"schema", "id", "game", "title", "created", "updated", "revision", "state"}`` where ``state`` is the
engine's versioned game record. Rules that keep data safe:

- an entry that does not parse, or has a schema newer than this code, is listed as *damaged*: it can be
  exported (raw) or deleted, and never stops the rest from working;
- a write that hits the storage quota raises ``StorageFull`` and leaves the previous save untouched;
- a save written by another tab with a newer revision is never silently overwritten (``SaveConflict``);
- imports are size-capped and validated before anything is stored, and never replace an existing save.

The storage itself is injected (``KeyValueStore``): ``window.localStorage`` in the page, ``MemoryStore``
in tests.
"""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass
from typing import Any, Callable, Protocol

SCHEMA_VERSION = 1
PREFIX = "scarab:save:"
#: Games played inside an embedded frame are kept apart from the main site's.
EMBED_PREFIX = "scarab:embed:save:"
SETTINGS_KEY = "scarab:settings"
MAX_IMPORT_BYTES = 1_000_000
MAX_TITLE = 80
GAMES = ("scarabeo", "thot", "scarabya")


class StorageError(Exception):
    """Base class: a message fit to show to the player."""


class StorageFull(StorageError):
    pass


class SaveConflict(StorageError):
    def __init__(self, save_id: str, stored_revision: int, our_revision: int) -> None:
        super().__init__(f"save {save_id} has revision {stored_revision} in storage, newer than {our_revision}")
        self.save_id = save_id
        self.stored_revision = stored_revision


class InvalidSave(StorageError):
    pass


class KeyValueStore(Protocol):
    def get(self, key: str) -> str | None: ...
    def set(self, key: str, value: str) -> None:
        """Store the value or raise ``StorageFull`` leaving the old value in place."""
    def remove(self, key: str) -> None: ...
    def keys(self) -> list[str]: ...


class MemoryStore:
    """An in-memory stand-in for localStorage with an optional quota (in characters, as browsers count)."""

    def __init__(self, quota: int | None = None) -> None:
        self.data: dict[str, str] = {}
        self.quota = quota

    def get(self, key: str) -> str | None:
        return self.data.get(key)

    def set(self, key: str, value: str) -> None:
        if self.quota is not None:
            used = sum(len(k) + len(v) for k, v in self.data.items() if k != key)
            if used + len(key) + len(value) > self.quota:
                raise StorageFull("storage quota exceeded")
        self.data[key] = value

    def remove(self, key: str) -> None:
        self.data.pop(key, None)

    def keys(self) -> list[str]:
        return list(self.data)


@dataclass(frozen=True)
class Save:
    id: str
    game: str
    title: str
    created: int
    updated: int
    revision: int
    state: dict[str, Any]

    def envelope(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA_VERSION,
            "id": self.id,
            "game": self.game,
            "title": self.title,
            "created": self.created,
            "updated": self.updated,
            "revision": self.revision,
            "state": self.state,
        }


@dataclass(frozen=True)
class DamagedSave:
    id: str
    raw: str
    reason: str


def _migrate_0_to_1(data: dict[str, Any]) -> dict[str, Any]:
    # Schema 0 (before envelopes had a version) named the record "record" and had no revision.
    data = dict(data)
    if "state" not in data and "record" in data:
        data["state"] = data.pop("record")
    data.setdefault("revision", 1)
    data["schema"] = 1
    return data


MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {0: _migrate_0_to_1}


def parse_envelope(raw: str, expected_id: str | None = None) -> Save:
    """Read and migrate an envelope; raise ``InvalidSave`` saying what is wrong."""
    try:
        data = json.loads(raw)
    except ValueError as err:
        raise InvalidSave(f"not valid JSON ({err.msg} at line {err.lineno})") from None
    if not isinstance(data, dict):
        raise InvalidSave("not a saved game object")
    schema = data.get("schema", 0)
    if not isinstance(schema, int) or schema < 0:
        raise InvalidSave(f"schema {schema!r} is not a version number")
    if schema > SCHEMA_VERSION:
        raise InvalidSave(f"saved by a newer version of Scarab (schema {schema}, this one reads {SCHEMA_VERSION})")
    while schema < SCHEMA_VERSION:
        data = MIGRATIONS[schema](data)
        schema = data["schema"]
    problems = []
    for name, kind in (("id", str), ("game", str), ("title", str), ("created", int), ("updated", int),
                       ("revision", int), ("state", dict)):
        if not isinstance(data.get(name), kind) or isinstance(data.get(name), bool):
            problems.append(f"{name} should be {kind.__name__}")
    if problems:
        raise InvalidSave("; ".join(problems))
    if data["game"] not in GAMES:
        raise InvalidSave(f"unknown game {data['game']!r}")
    if expected_id is not None and data["id"] != expected_id:
        raise InvalidSave(f"id {data['id']!r} does not match its key")
    return Save(data["id"], data["game"], data["title"][:MAX_TITLE], data["created"], data["updated"],
                data["revision"], data["state"])


class SaveStore:
    def __init__(
        self,
        kv: KeyValueStore,
        clock: Callable[[], int] = lambda: int(time.time() * 1000),
        new_id: Callable[[], str] = lambda: secrets.token_hex(6),
        validate_state: Callable[[str, dict[str, Any]], None] | None = None,
        prefix: str = PREFIX,
    ) -> None:
        self.kv = kv
        self.prefix = prefix
        self.clock = clock
        self.new_id = new_id
        #: Checks a game's state (e.g. replays the record); raises ValueError with a reason.
        self.validate_state = validate_state

    # --- reading ---------------------------------------------------------------------
    def list(self) -> list[Save | DamagedSave]:
        saves: list[Save | DamagedSave] = []
        for key in sorted(self.kv.keys()):
            if not key.startswith(self.prefix):
                continue
            save_id = key[len(self.prefix):]
            raw = self.kv.get(key) or ""
            try:
                saves.append(parse_envelope(raw, save_id))
            except InvalidSave as err:
                saves.append(DamagedSave(save_id, raw, str(err)))
        return sorted(saves, key=lambda s: -s.updated if isinstance(s, Save) else 0)

    def load(self, save_id: str) -> Save:
        raw = self.kv.get(self.prefix + save_id)
        if raw is None:
            raise InvalidSave(f"there is no saved game {save_id!r}")
        return parse_envelope(raw, save_id)

    def revision(self, save_id: str) -> int | None:
        try:
            return self.load(save_id).revision
        except InvalidSave:
            return None

    # --- writing ---------------------------------------------------------------------
    def _write(self, save: Save) -> Save:
        text = json.dumps(save.envelope(), ensure_ascii=False, separators=(",", ":"))
        self.kv.set(self.prefix + save.id, text)  # StorageFull leaves the previous value in place
        return save

    def create(self, game: str, title: str, state: dict[str, Any]) -> Save:
        if game not in GAMES:
            raise InvalidSave(f"unknown game {game!r}")
        now = self.clock()
        save_id = self.new_id()
        while self.kv.get(self.prefix + save_id) is not None:
            save_id = self.new_id()
        return self._write(Save(save_id, game, _title(title), now, now, 1, state))

    def update(self, save: Save, state: dict[str, Any]) -> Save:
        """Autosave: write ``state`` as the next revision of ``save`` unless another tab got there first."""
        stored = self.revision(save.id)
        if stored is not None and stored > save.revision:
            raise SaveConflict(save.id, stored, save.revision)
        return self._write(Save(save.id, save.game, save.title, save.created, self.clock(), save.revision + 1, state))

    def rename(self, save_id: str, title: str) -> Save:
        save = self.load(save_id)
        return self._write(Save(save.id, save.game, _title(title), save.created, self.clock(), save.revision + 1,
                                save.state))

    def delete(self, save_id: str) -> None:
        self.kv.remove(self.prefix + save_id)

    # --- files -----------------------------------------------------------------------
    def export(self, save_id: str) -> str:
        """The save as a file's text; a damaged entry is exported exactly as stored so it can be repaired."""
        raw = self.kv.get(self.prefix + save_id)
        if raw is None:
            raise InvalidSave(f"there is no saved game {save_id!r}")
        try:
            return json.dumps(parse_envelope(raw, save_id).envelope(), ensure_ascii=False, indent=1)
        except InvalidSave:
            return raw

    def import_text(self, text: str) -> Save:
        """Validate an exported save and store it as a new game (never overwriting one)."""
        size = len(text.encode("utf-8"))
        if size > MAX_IMPORT_BYTES:
            raise InvalidSave(f"the file is {size // 1024} KB; saved games are at most {MAX_IMPORT_BYTES // 1024} KB")
        save = parse_envelope(text)
        if self.validate_state is not None:
            try:
                self.validate_state(save.game, save.state)
            except ValueError as err:
                raise InvalidSave(f"the game inside does not replay: {err}") from None
        now = self.clock()
        save_id = save.id if self.kv.get(self.prefix + save.id) is None else self.new_id()
        return self._write(Save(save_id, save.game, _title(save.title), save.created, now, 1, save.state))

    # --- settings --------------------------------------------------------------------
    def settings(self) -> dict[str, Any]:
        try:
            data = json.loads(self.kv.get(SETTINGS_KEY) or "{}")
        except ValueError:
            return {}
        return data if isinstance(data, dict) else {}

    def save_settings(self, settings: dict[str, Any]) -> None:
        self.kv.set(SETTINGS_KEY, json.dumps(settings))


def _title(title: str) -> str:
    title = " ".join(str(title).split())[:MAX_TITLE]
    return title or "—"
