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
from web.ui.vdom import Child, Event, Tree, VNode, encode, h

#: The trees on the page, by root id: an event message names an element, and its tree handles it.
MOUNTS: dict[int, "Mount"] = {}
_listener: list[Any] = []  # the one proxy patch.js calls, made once


class Mount:
    """``element`` shows ``render()``'s tree from now on; ``scope`` unmounts it when the view goes."""

    def __init__(self, element: Any, render: Callable[[], Child], scope: Scope | None = None) -> None:
        self.tree = Tree()
        self.render = render
        self.closed = False
        #: Dialogs open over the view (``ask``), drawn after it.
        self.dialogs: list[VNode] = []
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
        patch = self.tree.update(self.render(), self.dialogs, focus=focus, title=title, lang=lang)
        if patch["ops"] or "after" in patch:
            window.scarabPatch.apply(encode(patch))

    async def ask(self, title: str, body: Child, buttons: list[tuple[str, str, str]],
                  field: VNode | None = None) -> tuple[str | None, str]:
        """A modal dialog over the view until a button is chosen: ``buttons`` are (value, label, css
        class). Returns the value chosen (None when dismissed with Escape) and what ``field`` (an
        ``input`` with an id) holds then. patch.js opens it with showModal() and gives focus back where
        it was when the dialog goes."""
        future: asyncio.Future[str | None] = asyncio.get_event_loop().create_future()
        typed = {"value": str(field.props.get("value", "")) if field is not None else ""}

        def choose(value: str | None) -> Callable[[Event], None]:
            def handler(_event: Event) -> None:
                if not future.done():
                    future.set_result(value)
            return handler

        if field is not None:
            field.on["input"] = lambda e: typed.__setitem__("value", e.value or "")
        dialog = h("dialog", {"aria-labelledby": "dialog-title", "modal": True,
                              "on_cancel": choose(None), "on_close": choose(None)},
                   h("h2", {"id": "dialog-title", "text": title}), body, field,
                   h("div", {"class": "row"},
                     [h("button", {"type": "button", "class": css or None, "text": label, "on_click": choose(value)})
                      for value, label, css in buttons]))
        self.dialogs.append(dialog)
        self.refresh(focus=field.id if field is not None else None)
        try:
            return await future, typed["value"]
        finally:
            self.dialogs.remove(dialog)
            self.refresh()

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
