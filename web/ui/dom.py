"""A small DOM builder for Python views: elements, text (never markup), events, dialogs.

Everything a player typed (names, titles) goes in as text nodes, so it can never become markup.
Event handlers are wrapped with ``create_proxy``; each ``Scope`` keeps its proxies and destroys them
when its view is torn down, so re-rendering does not leak.
"""

from __future__ import annotations

import asyncio
from typing import Any, Callable

from pyscript import document, window
from pyscript.ffi import create_proxy

Child = Any  # an element, a string, None, or a list of those


class Scope:
    """Owns the event proxies created while rendering one view."""

    def __init__(self) -> None:
        self._proxies: list[Any] = []
        self._listeners: list[tuple[Any, str, Any]] = []
        self._closers: list[Callable[[], None]] = []

    def on(self, node: Any, event: str, handler: Callable[..., Any]) -> Any:
        proxy = create_proxy(handler)
        node.addEventListener(event, proxy)
        self._proxies.append(proxy)
        self._listeners.append((node, event, proxy))
        return node

    def defer(self, closer: Callable[[], None]) -> None:
        """Call ``closer`` when the view is torn down (a view tree mounted in it: ``web.ui.mount``)."""
        self._closers.append(closer)

    def close(self) -> None:
        closers, self._closers = self._closers, []
        for closer in closers:
            closer()
        for node, event, proxy in self._listeners:
            node.removeEventListener(event, proxy)
        for proxy in self._proxies:
            proxy.destroy()
        self._proxies.clear()
        self._listeners.clear()


def h(tag: str, attrs: dict[str, Any] | None = None, *children: Child, scope: Scope | None = None) -> Any:
    """Create ``<tag>``: attrs map to attributes (``class``, ``aria-*``, ``data-*`` …); ``text`` sets the
    text content; ``on_<event>`` binds a handler (needs ``scope``); booleans toggle attributes."""
    node = document.createElement(tag)
    for name, value in (attrs or {}).items():
        if value is None or value is False:
            continue
        if name == "text":
            node.textContent = str(value)
        elif name.startswith("on_"):
            if scope is None:
                raise ValueError("event handlers need a scope")
            scope.on(node, name[3:], value)
        elif name == "style":
            # Through CSSOM: the Content-Security-Policy forbids style attributes, not style properties.
            node.style.cssText = str(value)
        elif name in ("value", "checked", "hidden", "disabled", "selected"):
            setattr(node, name, value)
            if value is True:
                node.setAttribute(name, "")
        else:
            node.setAttribute(name, "" if value is True else str(value))
    append(node, *children)
    return node


SVG_NS = "http://www.w3.org/2000/svg"


def svg(tag: str, attrs: dict[str, Any] | None = None, *children: Child) -> Any:
    """Create an SVG element (charts, diagrams); attributes as given, text through ``text``."""
    node = document.createElementNS(SVG_NS, tag)
    for name, value in (attrs or {}).items():
        if value is None:
            continue
        if name == "text":
            node.textContent = str(value)
        else:
            node.setAttribute(name, str(value))
    append(node, *children)
    return node


def append(node: Any, *children: Child) -> Any:
    for child in children:
        if child is None:
            continue
        if isinstance(child, (list, tuple)):
            append(node, *child)
        elif isinstance(child, str):
            node.appendChild(document.createTextNode(child))
        else:
            node.appendChild(child)
    return node


def clear(node: Any) -> None:
    while node.firstChild:
        node.removeChild(node.firstChild)


def by_id(element_id: str) -> Any:
    return document.getElementById(element_id)


async def modal(title: str, body: Child, buttons: list[tuple[str, str, str]], scope: Scope,
                field: Any = None) -> str | None:
    """Show a modal ``<dialog>`` and wait for a button: ``buttons`` are (value, label, css class).
    Returns the value chosen, or None when dismissed with Escape."""
    future: asyncio.Future[str | None] = asyncio.get_event_loop().create_future()
    dialog = h("dialog", {"aria-labelledby": "dialog-title"})

    def choose(value: str | None) -> Callable[[Any], None]:
        def handler(event: Any) -> None:
            event.preventDefault()
            if not future.done():
                future.set_result(value)
        return handler

    row = h("div", {"class": "row"})
    for value, label, css in buttons:
        append(row, h("button", {"type": "button", "class": css, "text": label, "on_click": choose(value)}, scope=scope))
    append(dialog, h("h2", {"id": "dialog-title", "text": title}), body, field, row)
    scope.on(dialog, "cancel", choose(None))
    opener = document.activeElement
    document.body.appendChild(dialog)
    dialog.showModal()
    if field is not None:
        field.focus()
    try:
        return await future
    finally:
        dialog.close()
        dialog.remove()
        if opener and opener.isConnected:  # focus goes back where the dialog was opened from
            opener.focus()


def download(filename: str, text: str, mime: str = "application/json") -> None:
    """Offer ``text`` as a file download, entirely in the page."""
    from pyscript.ffi import to_js

    blob = window.Blob.new([text], to_js({"type": mime}))
    url = window.URL.createObjectURL(blob)
    link = h("a", {"href": url, "download": filename, "hidden": True})
    document.body.appendChild(link)
    link.click()
    link.remove()
    window.setTimeout(create_proxy(lambda: window.URL.revokeObjectURL(url)), 1000)
