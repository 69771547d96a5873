"""A view tree mounted on the page (issue 38, step 1: Python is still on the main thread).

``Mount(element, render)`` gives ``element`` to ``web/shell/patch.js``, draws ``render()`` into it and
draws it again after each of its handlers (and when an awaited handler finishes), sending only the
ops ``web.ui.vdom.Tree`` finds. Events come back through one listener for the whole page. This is
the only module that passes view trees through the FFI; once Python moves to a worker, the same two
strings (a patch, an event) travel by ``postMessage`` instead.
"""

from __future__ import annotations

import asyncio
import inspect
import json
from typing import Any, Callable

from pyscript import window
from pyscript.ffi import create_proxy

from web.ui.dom import Scope
from web.ui.vdom import Child, Tree, encode

#: The trees on the page, by root id: an event message names an element, and its tree handles it.
MOUNTS: dict[int, "Mount"] = {}
_listener: list[Any] = []  # the one proxy patch.js calls, made once


class Mount:
    """``element`` shows ``render()``'s tree from now on; ``scope`` unmounts it when the view goes."""

    def __init__(self, element: Any, render: Callable[[], Child], scope: Scope | None = None) -> None:
        self.tree = Tree()
        self.render = render
        self.closed = False
        window.scarabPatch.mount(self.tree.root, element)
        MOUNTS[self.tree.root] = self
        if not _listener:
            _listener.append(create_proxy(dispatch))
            window.scarabPatch.listen(_listener[0])
        if scope is not None:
            scope.defer(self.close)
        self.refresh()

    def refresh(self, focus: str | None = None, title: str | None = None, lang: str | None = None) -> None:
        if self.closed:
            return
        patch = self.tree.update(self.render(), focus=focus, title=title, lang=lang)
        if patch["ops"] or "after" in patch:
            window.scarabPatch.apply(encode(patch))

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            MOUNTS.pop(self.tree.root, None)
            window.scarabPatch.unmount(self.tree.root)


def dispatch(text: Any) -> None:
    """An event message from patch.js: call its handler, then draw its tree again. A message that is
    not one (or names an element a patch has removed since) is dropped and said on the console."""
    try:
        message = json.loads(str(text))
        if not isinstance(message, dict):
            raise ValueError("not an object")
        mount = next((m for m in list(MOUNTS.values()) if m.tree.owns(message)), None)
        found = mount.tree.handler(message) if mount is not None else None
    except ValueError as err:
        window.console.warn(f"event dropped: {err}")
        return
    if mount is None or found is None:
        return
    handler, event = found
    result = handler(event)
    if inspect.isawaitable(result):
        def done(task: asyncio.Future[Any]) -> None:
            mount.refresh()
            if not task.cancelled() and task.exception() is not None:
                window.console.error(f"handler failed: {task.exception()!r}")

        asyncio.ensure_future(result).add_done_callback(done)
    mount.refresh()
