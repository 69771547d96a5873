"""Saved games in ``localStorage``: a versioned envelope per game, written so nothing is ever lost.

Each save is one key ``scarab:save:<id>`` holding
``{"schema", "id", "game", "title", "created", "updated", "revision", "state"}`` where ``state`` is the
engine's versioned game record. Rules that keep data safe:

- an entry that does not parse, or has a schema newer than this code, is listed as *damaged*: it can be
  exported (raw) or deleted, and never stops the rest from working;
- a write that hits the storage quota raises ``StorageFull`` and leaves the previous save untouched;
- a save written by another tab with a newer revision is never silently overwritten (``SaveConflict``);
- imports are size-capped and validated before anything is stored, and never replace an existing save.

A file says what it is (``"kind"``): ``"backup"``, the owner's own full copy of a game (every rack
and the seed of a Scarabeo game in progress: it is theirs, to keep or move between their devices),
or ``"watch"``, a watched game (``web.platform.watch.watch_json``: its public record, no rack, no seed). A
watch file never becomes a game: one that holds a whole record is refused as altered, and a file
of a game opened to be watched by an older version is imported as a watch (its seed dropped).

The storage itself is injected (``KeyValueStore``): ``window.localStorage`` in the page, ``MemoryStore``
in tests.
"""

from __future__ import annotations

import json
import re
import secrets
import time
from dataclasses import dataclass
from typing import Any, Callable, Protocol

from game.core.safejson import JSONRefused, is_safe_int, loads

SCHEMA_VERSION = 1
#: What an exported file holds (module docstring).
FILE_KINDS = ("backup", "watch")
PREFIX = "scarab:save:"
#: Games played inside an embedded frame are kept apart from the main site's.
EMBED_PREFIX = "scarab:embed:save:"
SETTINGS_KEY = "scarab:settings"
MAX_IMPORT_BYTES = 1_000_000
MAX_TITLE = 80
#: One stored entry is at most what an import may hold (with room for the envelope's own fields).
MAX_ENTRY_CHARS = 2 * MAX_IMPORT_BYTES
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


class SaveGone(StorageError):
    """The game was deleted (in another tab) since it was opened: it is not silently re-created."""

    def __init__(self, save_id: str) -> None:
        super().__init__(f"save {save_id} is no longer in storage")
        self.save_id = save_id


class SaveUnreadable(StorageError):
    """The stored entry is now one this code cannot read (damaged, or written by a newer version in
    another tab): it is never overwritten."""

    def __init__(self, save_id: str, reason: str) -> None:
        super().__init__(f"save {save_id} in storage cannot be read here: {reason}")
        self.save_id = save_id
        self.reason = reason


#: Ids are made by ``secrets.token_hex``; an imported or hand-made one must still fit in a key and a route.
ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,64}")


def valid_id(save_id: Any) -> bool:
    return isinstance(save_id, str) and ID_PATTERN.fullmatch(save_id) is not None


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
        data = loads(raw, max_bytes=MAX_ENTRY_CHARS)
    except JSONRefused as err:
        raise InvalidSave(str(err)) from None
    if not isinstance(data, dict):
        raise InvalidSave("not a saved game object")
    schema = data.get("schema", 0)
    if not is_safe_int(schema) or schema < 0:
        raise InvalidSave(f"schema {_short(schema)} is not a version number")
    if schema > SCHEMA_VERSION:
        raise InvalidSave(f"saved by a newer version of Scarab (schema {schema}, this one reads {SCHEMA_VERSION})")
    while schema < SCHEMA_VERSION:
        data = MIGRATIONS[schema](data)
        schema = data["schema"]
    problems = []
    for name, kind in (("id", str), ("game", str), ("title", str), ("state", dict)):
        if not isinstance(data.get(name), kind):
            problems.append(f"{name} should be {kind.__name__}")
    for name in ("created", "updated", "revision"):
        # The page turns these into JavaScript numbers (dates): beyond 2**53 they would not survive.
        if not is_safe_int(data.get(name)):
            problems.append(f"{name} should be an integer of at most 16 digits")
    if problems:
        raise InvalidSave("; ".join(problems))
    if data["game"] not in GAMES:
        raise InvalidSave(f"unknown game {_short(data['game'])}")
    if expected_id is not None and data["id"] != expected_id:
        raise InvalidSave(f"id {_short(data['id'])} does not match its key")
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

    def _check_unchanged(self, save: Save) -> None:
        """Refuse to write over what another tab did since ``save`` was read: a newer revision, a
        deletion, or an entry this code cannot read (damaged, or from a newer version)."""
        raw = self.kv.get(self.prefix + save.id)
        if raw is None:
            raise SaveGone(save.id)
        try:
            stored = parse_envelope(raw, save.id)
        except InvalidSave as err:
            raise SaveUnreadable(save.id, str(err)) from None
        if stored.revision > save.revision:
            raise SaveConflict(save.id, stored.revision, save.revision)

    def save_as_new(self, save: Save, state: dict[str, Any]) -> Save:
        """Keep a game whose entry can no longer be written (see ``update``) as a new game beside it."""
        return self.create(save.game, save.title, state)

    # --- writing ---------------------------------------------------------------------
    def _write(self, save: Save) -> Save:
        text = json.dumps(save.envelope(), ensure_ascii=False, separators=(",", ":"))
        self.kv.set(self.prefix + save.id, text)  # StorageFull leaves the previous value in place
        return save

    def create(self, game: str, title: str, state: dict[str, Any]) -> Save:
        if game not in GAMES:
            raise InvalidSave(f"unknown game {game!r}")
        now = self.clock()
        return self._write(Save(self._unused_id(), game, _title(title), now, now, 1, state))

    def _unused_id(self) -> str:
        save_id = self.new_id()
        while self.kv.get(self.prefix + save_id) is not None:
            save_id = self.new_id()
        return save_id

    def update(self, save: Save, state: dict[str, Any]) -> Save:
        """Autosave: write ``state`` as the next revision of ``save`` unless another tab got there first."""
        self._check_unchanged(save)
        return self._write(Save(save.id, save.game, save.title, save.created, self.clock(), save.revision + 1, state))

    def rename(self, save_id: str, title: str) -> Save:
        save = self.load(save_id)
        self._check_unchanged(save)
        return self._write(Save(save.id, save.game, _title(title), save.created, self.clock(), save.revision + 1,
                                save.state))

    def delete(self, save_id: str) -> None:
        self.kv.remove(self.prefix + save_id)
        # its resume snapshot (web/platform/snapshot.py) goes with it: boot.js must never draw a deleted game
        self.kv.remove(self.prefix[: -len("save:")] + "snap:" + save_id)
        # and a remote game's own device state, its keys (web/platform/remote.py)
        self.kv.remove(self.prefix[: -len("save:")] + "remote:" + save_id)

    # --- files -----------------------------------------------------------------------
    def export(self, save_id: str) -> str:
        """The save as a file's text, with its ``kind`` ("backup", or "watch" for a watched game); a
        damaged entry is exported exactly as stored so it can be repaired."""
        from web.platform.watch import is_watch

        raw = self.kv.get(self.prefix + save_id)
        if raw is None:
            raise InvalidSave(f"there is no saved game {save_id!r}")
        try:
            save = parse_envelope(raw, save_id)
        except InvalidSave:
            return raw
        kind = "watch" if is_watch(save.state) else "backup"
        return json.dumps({"kind": kind, **save.envelope()}, ensure_ascii=False, indent=1)

    def import_text(self, text: str) -> Save:
        """Validate an exported save and store it as a new game (never overwriting one)."""
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > MAX_IMPORT_BYTES:
            raise InvalidSave(too_big(size))
        save = _as_kind(parse_envelope(text), _file_kind(text))
        if self.validate_state is not None:
            try:
                self.validate_state(save.game, save.state)
            except Exception as err:  # any failure of a replay of outside data is a refusal, never a crash
                raise InvalidSave(f"the game inside does not replay: {_reason(err)}") from None
        now = self.clock()
        fresh = valid_id(save.id) and self.kv.get(self.prefix + save.id) is None
        save_id = save.id if fresh else self._unused_id()
        return self._write(Save(save_id, save.game, _title(save.title), save.created, now, 1, save.state))

    # --- settings --------------------------------------------------------------------
    def settings(self) -> dict[str, Any]:
        """The stored settings, each kept only if it has a value this code understands."""
        try:
            data = loads(self.kv.get(SETTINGS_KEY) or "{}", max_bytes=MAX_SETTINGS_CHARS)
        except JSONRefused:
            return {}
        return clean_settings(data)

    def save_settings(self, settings: dict[str, Any]) -> None:
        """Raises ``StorageFull`` when nothing was stored (the caller must not say "saved")."""
        self.kv.set(SETTINGS_KEY, json.dumps(clean_settings(settings)))


MAX_SETTINGS_CHARS = 10_000
LANGUAGES = ("it", "en")
THEMES = ("light", "dark")


def clean_settings(data: Any) -> dict[str, Any]:
    """A known setting with a wrong type or value is dropped (its default applies), never fatal; keys
    this version does not know (a newer one's) are kept as they are."""
    if not isinstance(data, dict):
        return {}
    known = ("language", "theme", "sounds", "tutorials_seen")
    clean: dict[str, Any] = {k: v for k, v in data.items() if k not in known}
    if data.get("language") in LANGUAGES:
        clean["language"] = data["language"]
    if data.get("theme") in THEMES:
        clean["theme"] = data["theme"]
    if isinstance(data.get("sounds"), bool):
        clean["sounds"] = data["sounds"]
    seen = data.get("tutorials_seen")
    if isinstance(seen, list):
        clean["tutorials_seen"] = [g for g in GAMES if g in seen]
    return clean


def _file_kind(text: str) -> str:
    """The file's ``kind`` (a file without one, from an older version, is a backup)."""
    try:
        data = loads(text, max_bytes=MAX_ENTRY_CHARS)
    except JSONRefused as err:
        raise InvalidSave(str(err)) from None
    kind = data.get("kind", "backup") if isinstance(data, dict) else "backup"
    if kind not in FILE_KINDS:
        raise InvalidSave(f"the file's kind {_short(kind)} is not one this version reads")
    return str(kind)


def _as_kind(save: Save, kind: str) -> Save:
    """A watch file must hold a watch; a whole game opened to be watched (an older version's file)
    is kept as its public record. Never a game to continue from a file meant for watching."""
    from web.platform.watch import is_private, is_watch

    if is_watch(save.state):
        return save
    if kind == "watch":
        raise InvalidSave("this file was made to watch a game, yet it holds a whole game: it has been altered")
    meta = save.state.get("meta")
    if isinstance(meta, dict) and meta.get("replay") and is_private(save.game):
        from game.core import GameRecord
        from web.platform import engines
        from web.platform.watch import watch_of_record

        try:
            record = GameRecord.from_json(save.state)
            state = engines.replay_record(record)
        except ValueError as err:
            raise InvalidSave(f"the game inside does not replay: {_reason(err)}") from None
        if not state.is_over():
            return Save(save.id, save.game, save.title, save.created, save.updated, save.revision,
                        watch_of_record(state, record))
    return save


def too_big(size: int) -> str:
    return f"the file is {size:,} bytes; saved games are at most {MAX_IMPORT_BYTES:,} bytes"


def _short(value: Any) -> str:
    """A value named in a message, cut short (it may be huge)."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "…"


def _reason(err: BaseException) -> str:
    text = str(err) or type(err).__name__
    return text if len(text) <= 300 else text[:297] + "…"


def _title(title: str) -> str:
    title = " ".join(str(title).split())[:MAX_TITLE]
    return title or "—"
