"""``window.localStorage`` behind the ``KeyValueStore`` interface of ``web.platform.storage``."""

from __future__ import annotations

from typing import Any

from web.platform.storage import StorageFull


class LocalStorage:
    def __init__(self, local_storage: Any) -> None:
        self.ls = local_storage

    def get(self, key: str) -> str | None:
        value = self.ls.getItem(key)
        return value if isinstance(value, str) else None  # Pyodide gives null as jsnull, not None

    def set(self, key: str, value: str) -> None:
        try:
            self.ls.setItem(key, value)
        except Exception as err:  # a JsException; browsers name it QuotaExceededError
            if "quota" in str(err).lower() or "QuotaExceeded" in repr(err):
                raise StorageFull(str(err)) from None
            raise

    def remove(self, key: str) -> None:
        self.ls.removeItem(key)

    def keys(self) -> list[str]:
        return [str(self.ls.key(i)) for i in range(int(self.ls.length))]


def open_storage() -> tuple[Any, bool]:
    """``(store, ephemeral)``: the page's ``localStorage``, or — where the browser refuses it, as
    Safari, Brave and strict Firefox do for a game embedded in another site's page (a SecurityError
    on first touch) — an in-memory store, so the game still starts and plays, kept for this visit only.
    A full storage is not a refusal: reading works, and writes say the storage is full."""
    from pyscript import window

    from web.platform.storage import MemoryStore

    try:
        ls = window.localStorage
        store = LocalStorage(ls)
        store.keys()
        store.get("scarab:settings")
    except Exception:  # SecurityError (storage blocked), or no localStorage at all
        return MemoryStore(), True
    try:
        ls.setItem("scarab-probe", "1")
        ls.removeItem("scarab-probe")
    except Exception as err:
        if not ("quota" in str(err).lower() or "QuotaExceeded" in repr(err)):
            return MemoryStore(), True
    return store, False
