"""``window.localStorage`` behind the ``KeyValueStore`` interface of ``web.storage``."""

from __future__ import annotations

from typing import Any

from web.storage import StorageFull


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
