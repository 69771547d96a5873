"""The view tree: plain-data nodes, the differ that turns the next tree into patch ops, and the
events that come back (issue 38; the design is docs/worker.md, section 2).

Views build ``VNode`` trees with ``h()`` and ``svg()``; nothing here touches a browser, so the same
code runs on the page today and in a worker later, and is tested in CPython. A ``Tree`` is one mounted
root: it keeps a record of what the page shows (node ids, attributes, properties, handlers), and
``update()`` compares the next tree with that record and returns the ops that ``web/shell/patch.js``
applies. Elements are kept, not rebuilt, so focus, scroll position and a player's typing survive a
redraw; keyed children are moved, not recreated.

The wire format (a contract with ``patch.js``):

* a text node is a JSON string; an element is ``[tag, attrs, children]`` plus, only when needed,
  ``{"p": props, "s": cssText, "o": {type: handler id}, "x": {type: true | [keys]}, "n": "svg"}``;
* ``["+", parent, before, first, node]`` creates a subtree numbered in pre-order from ``first`` (text
  nodes count); ``["-", id]``, ``[">", id, parent, before]``, ``["a", id, name, value | None]``,
  ``["p", id, name, value]``, ``["t", id, text]``, ``["s", id, cssText]``, ``["o", id, on, prevent]``;
* ``after``: ``focus`` (an element id), ``title``, ``lang``, applied after the ops.

A handler's id is the number of the element it is bound to: it stays the same for as long as the
element is kept, so a new lambda at every render changes nothing on the page.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Mapping, Union

#: What the user can change is set as a property, and only when the view changes it, so that typing
#: or a click is never overwritten by an older render. ``modal`` opens a ``dialog`` with showModal().
PROPS = frozenset({"value", "checked", "selected", "open", "indeterminate", "modal"})
#: Attributes whose presence is the value (``hidden=True`` → ``hidden=""``).
TAG = re.compile(r"[a-zA-Z][a-zA-Z0-9-]*\Z")
ATTR = re.compile(r"[a-zA-Z_:][-a-zA-Z0-9_:.]*\Z")

Handler = Callable[["Event"], object]
Prevent = Union[bool, tuple[str, ...]]
Child = Union["VNode", str, None, Iterable[Any]]


class VNode:
    """One element of the view tree. Build it with ``h()``/``svg()``; change a node that may already be
    on the page only through its methods, which mark it (and its ancestors) as changed: the differ skips
    a subtree it has already sent when it is the very same, unchanged object."""

    __slots__ = ("tag", "attrs", "props", "style", "on", "prevent", "children", "key", "ns", "ver", "parent")

    def __init__(self, tag: str, *, attrs: dict[str, str] | None = None, props: dict[str, Any] | None = None,
                 style: str | None = None, on: dict[str, Handler] | None = None,
                 prevent: dict[str, Prevent] | None = None, key: str | int | None = None, ns: str | None = None) -> None:
        if not TAG.match(tag):
            raise ValueError(f"not a tag name: {tag!r}")
        self.tag = tag
        self.attrs: dict[str, str] = attrs if attrs is not None else {}
        self.props: dict[str, Any] = props if props is not None else {}
        self.style = style
        self.on: dict[str, Handler] = on if on is not None else {}
        self.prevent: dict[str, Prevent] = prevent if prevent is not None else {}
        self.children: list[VNode | str] = []
        self.key = key
        self.ns = ns
        self.ver = 0
        self.parent: VNode | None = None

    def __repr__(self) -> str:
        ident = f"#{self.attrs['id']}" if "id" in self.attrs else ""
        return f"<{self.tag}{ident} {len(self.children)} children>"

    # --- changes after building (the subset of Element the views use) ---------------------------
    def touch(self) -> None:
        """Mark this node and its ancestors changed (every method below does)."""
        node: VNode | None = self
        while node is not None:
            node.ver += 1
            node = node.parent

    def append(self, *children: Child) -> VNode:
        for child in _flatten(children):
            self._adopt(child)
            self.children.append(child)
        self.touch()
        return self

    def insert(self, index: int, child: VNode | str) -> None:
        self._adopt(child)
        self.children.insert(index, child)
        self.touch()

    def clear(self) -> None:
        for child in self.children:
            if isinstance(child, VNode):
                child.parent = None
        self.children.clear()
        self.touch()

    def remove(self) -> None:
        parent = self.parent
        if parent is not None:
            parent.children.remove(self)
            self.parent = None
            parent.touch()

    def replace_with(self, other: VNode) -> None:
        parent = self.parent
        if parent is None:
            return
        index = next(i for i, c in enumerate(parent.children) if c is self)
        self.parent = None
        parent._adopt(other)
        parent.children[index] = other
        parent.touch()

    def set_attribute(self, name: str, value: Any) -> None:
        if name in PROPS:
            self.props[name] = value
        elif value is None or value is False:
            self.attrs.pop(name, None)
        else:
            self.attrs[name] = _attr_value(name, value)
        self.touch()

    def remove_attribute(self, name: str) -> None:
        self.set_attribute(name, None)

    def get_attribute(self, name: str) -> str | None:
        return self.attrs.get(name)

    def set_text(self, text: str) -> None:
        self.clear()
        self.append(text)

    @property
    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text for c in self.children)

    @property
    def id(self) -> str | None:
        return self.attrs.get("id")

    def toggle_class(self, name: str, on: bool) -> None:
        classes = self.attrs.get("class", "").split()
        if on and name not in classes:
            classes.append(name)
        elif not on and name in classes:
            classes.remove(name)
        self.set_attribute("class", " ".join(classes) or None)

    def walk(self) -> Iterator[VNode]:
        yield self
        for child in self.children:
            if isinstance(child, VNode):
                yield from child.walk()

    def find(self, element_id: str) -> VNode | None:
        return next((n for n in self.walk() if n.attrs.get("id") == element_id), None)

    def _adopt(self, child: VNode | str) -> None:
        # A memoized node moves into each render's fresh parent: its last parent is discarded.
        if isinstance(child, VNode):
            child.parent = self


def _flatten(children: Iterable[Any]) -> Iterator[VNode | str]:
    for child in children:
        if child is None or child is False:
            continue
        if isinstance(child, (VNode, str)):
            yield child
        elif isinstance(child, (list, tuple)):
            yield from _flatten(child)
        else:
            raise TypeError(f"a child is a node, a string, None or a list of those, not {type(child).__name__}")


def _attr_value(name: str, value: Any) -> str:
    if not ATTR.match(name) or name.lower().startswith("on") or name == "style":
        raise ValueError(f"not an attribute a view may set: {name!r}")
    return "" if value is True else str(value)


def h(tag: str, attrs: Mapping[str, Any] | None = None, *children: Child, scope: object = None,
      key: str | int | None = None) -> VNode:
    """``<tag>`` as data, with the signature of ``web.ui.dom.h``: attrs map to attributes (``class``,
    ``aria-*``, ``data-*``; ``True`` → present, ``None``/``False`` → absent); ``text`` is a first text
    child; ``on_<type>`` binds a handler (it receives an ``Event``); ``prevent`` declares which events
    the page cancels (``{"submit": True, "keydown": ("ArrowUp", …)}``), because the handler runs too late
    to; ``value``, ``checked``, ``selected``, ``open`` are properties; ``style`` is set through CSSOM.
    ``scope`` is accepted for the imperative builder's callers and not needed: handlers live with the
    tree. ``key`` identifies the node among its siblings (default: its ``id``)."""
    node = VNode(tag, key=key)
    text = None
    for name, value in (attrs or {}).items():
        if value is None or (value is False and name not in PROPS):
            continue  # an unchecked box is a property set to False; any other False is absent
        if name == "text":
            text = str(value)
        elif name.startswith("on_"):
            if not callable(value):
                raise TypeError(f"{name} needs a callable")
            node.on[name[3:]] = value
        elif name == "prevent":
            node.prevent = {t: (v if isinstance(v, bool) else tuple(v)) for t, v in dict(value).items()}
        elif name == "style":
            node.style = str(value)
        elif name in PROPS:
            node.props[name] = value if isinstance(value, bool) else str(value)
        else:
            node.attrs[name] = _attr_value(name, value)
    if text is not None:
        node.children.append(text)
    for child in _flatten(children):
        node._adopt(child)
        node.children.append(child)
    return node


def svg(tag: str, attrs: Mapping[str, Any] | None = None, *children: Child, key: str | int | None = None) -> VNode:
    """An SVG element (charts, diagrams): attributes as given, text through ``text``."""
    node = h(tag, attrs, *children, key=key)
    node.ns = "svg"
    return node


# --- events ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class Event:
    """What the page tells a handler: the event's own fields, and what the view needs of the page —
    the ``data-*`` of the target and its ancestors up to the handler's element (nearest first), the
    control's value, a form's values on submit, where focus is."""

    type: str
    data: Mapping[str, str] = field(default_factory=dict)
    key: str | None = None
    mods: frozenset[str] = frozenset()
    x: float | None = None
    y: float | None = None
    button: int | None = None
    detail: int | None = None
    pointer: str | None = None
    time: float = 0.0
    value: str | None = None
    checked: bool | None = None
    values: Mapping[str, str | bool] = field(default_factory=dict)
    focus: str | None = None
    rect: Rect | None = None

    @classmethod
    def from_wire(cls, message: Mapping[str, Any]) -> Event:
        """An event message as ``patch.js`` sends it; a field of the wrong type is a ``ValueError``."""
        def opt(name: str, kind: type | tuple[type, ...]) -> Any:
            value = message.get(name)
            if value is not None and (not isinstance(value, kind) or isinstance(value, bool) and bool not in
                                      (kind if isinstance(kind, tuple) else (kind,))):
                raise ValueError(f"event field {name!r}: {value!r}")
            return value

        data = message.get("data") or {}
        values = message.get("values") or {}
        mods = message.get("mods") or []
        rect = message.get("rect")
        if not (isinstance(data, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in data.items())):
            raise ValueError("event data must map names to strings")
        if not (isinstance(values, dict) and all(isinstance(v, (str, bool)) for v in values.values())):
            raise ValueError("form values must be strings or booleans")
        if not (isinstance(mods, list) and set(mods) <= {"alt", "ctrl", "meta", "shift"}):
            raise ValueError(f"event mods: {mods!r}")
        number = (int, float)
        return cls(type=str(opt("type", str) or ""), data=data, key=opt("key", str), mods=frozenset(mods),
                   x=opt("x", number), y=opt("y", number), button=opt("button", int), detail=opt("detail", int),
                   pointer=opt("pointer", str), time=float(opt("time", number) or 0.0), value=opt("value", str),
                   checked=opt("checked", bool), values=values, focus=opt("focus", str),
                   rect=Rect(*(float(rect[k]) for k in "xywh")) if isinstance(rect, dict) else None)


# --- the differ -------------------------------------------------------------------------------
class Ids:
    """Node numbers for every tree of one page (``patch.js`` keeps one map of them)."""

    def __init__(self, start: int = 1) -> None:
        self.next = start

    def take(self, count: int = 1) -> int:
        first = self.next
        self.next += count
        return first


IDS = Ids()


class Shown:
    """What the page shows of one node, as last sent: its id, and for an element what the ops set."""

    __slots__ = ("id", "src", "ver", "tag", "ns", "kind", "key", "attrs", "props", "style", "on", "prevent",
                 "handlers", "children", "text")

    def __init__(self, node_id: int, src: VNode | None, text: str | None = None) -> None:
        self.id = node_id
        self.src = src
        self.text = text
        self.ver = src.ver if src is not None else 0
        self.tag = src.tag if src is not None else "#text"
        self.ns = src.ns if src is not None else None
        self.kind = _kind(src) if src is not None else ("#text",)
        self.key: str | int | None = _key(src) if src is not None else None
        self.attrs: dict[str, str] = dict(src.attrs) if src is not None else {}
        self.props: dict[str, Any] = dict(src.props) if src is not None else {}
        self.style = src.style if src is not None else None
        self.on: dict[str, str] = {t: str(node_id) for t in src.on} if src is not None else {}
        self.prevent: dict[str, Prevent] = dict(src.prevent) if src is not None else {}
        self.handlers: dict[str, Handler] = dict(src.on) if src is not None else {}
        self.children: list[Shown] = []


def _key(node: VNode) -> str | int | None:
    return node.key if node.key is not None else node.attrs.get("id")


def _prevent_wire(prevent: Mapping[str, Prevent]) -> dict[str, Any]:
    return {t: (v if isinstance(v, bool) else list(v)) for t, v in prevent.items()}


Op = list[Any]


class Tree:
    """One mounted root (an element the page already has, numbered ``root``): ``update(children)``
    returns the patch that makes the page show them; ``handler(message)`` finds what an event calls."""

    def __init__(self, ids: Ids = IDS) -> None:
        self.ids = ids
        self.root = ids.take()
        self.top = Shown(self.root, None)
        self.top.tag = "#root"
        self.shown: dict[int, Shown] = {}

    def update(self, *children: Child, focus: str | None = None, title: str | None = None,
               lang: str | None = None) -> dict[str, Any]:
        ops: list[Op] = []
        self._children(self.top, list(_flatten(children)), ops)
        after = {k: v for k, v in (("focus", focus), ("title", title), ("lang", lang)) if v is not None}
        return {"ops": ops, "after": after} if after else {"ops": ops}

    def handler(self, message: Mapping[str, Any]) -> tuple[Handler, Event] | None:
        """The handler an event message names and the event, or None when the element or its handler
        is gone (an event sent before a patch removed it)."""
        node = self._named(message)
        fn = node.handlers.get(str(message.get("type"))) if node is not None else None
        return None if fn is None else (fn, Event.from_wire(message))

    def owns(self, message: Mapping[str, Any]) -> bool:
        return self._named(message) is not None

    def _named(self, message: Mapping[str, Any]) -> Shown | None:
        try:
            return self.shown.get(int(message["h"]))
        except (KeyError, ValueError, TypeError):
            return None

    # -- creating --
    def _create(self, node: VNode | str, first: int) -> tuple[Any, Shown, int]:
        """The wire form of a new subtree numbered from ``first``, its record, and the next free id."""
        if isinstance(node, str):
            shown = Shown(first, None, node)
            self.shown[first] = shown
            return node, shown, first + 1
        shown = Shown(first, node)
        self.shown[first] = shown
        nxt = first + 1
        wire_children = []
        _unique_keys(node)
        for child in node.children:
            wire, sub, nxt = self._create(child, nxt)
            wire_children.append(wire)
            shown.children.append(sub)
        extra = _extra(shown)
        return ([node.tag, shown.attrs, wire_children, extra] if extra else [node.tag, shown.attrs, wire_children]), \
            shown, nxt

    def _forget(self, shown: Shown) -> None:
        self.shown.pop(shown.id, None)
        for child in shown.children:
            self._forget(child)

    # -- comparing --
    def _element(self, old: Shown, new: VNode, ops: list[Op]) -> None:
        if new is old.src and new.ver == old.ver:
            return  # the same object, unchanged since it was sent: nothing below it changed either
        if new.attrs != old.attrs:
            for name, value in new.attrs.items():
                if old.attrs.get(name) != value:
                    ops.append(["a", old.id, name, value])
            for name in old.attrs.keys() - new.attrs.keys():
                ops.append(["a", old.id, name, None])
            old.attrs = dict(new.attrs)
        if new.props != old.props:
            for name, value in new.props.items():
                if name not in old.props or old.props[name] != value:
                    ops.append(["p", old.id, name, value])
            old.props = dict(new.props)
        if new.style != old.style:
            ops.append(["s", old.id, new.style or ""])
            old.style = new.style
        on = {t: str(old.id) for t in new.on}
        if on != old.on or new.prevent != old.prevent:
            ops.append(["o", old.id, on, _prevent_wire(new.prevent)])
            old.on, old.prevent = on, dict(new.prevent)
        old.handlers = dict(new.on)
        self._children(old, new.children, ops)
        old.src, old.ver = new, new.ver

    def _children(self, parent: Shown, new: list[VNode | str], ops: list[Op]) -> None:
        old = parent.children
        if not old and not new:
            return
        keyed = {s.key: i for i, s in enumerate(old) if s.key is not None}
        unkeyed = [i for i, s in enumerate(old) if s.key is None]
        seen_keys: set[str | int] = set()
        match: list[int | None] = []  # for each new child, the index of the old one it keeps
        u = 0
        for child in new:
            if isinstance(child, VNode) and _key(child) is not None:
                k = _key(child)
                assert k is not None
                if k in seen_keys:
                    raise ValueError(f"two children of {parent.tag} have the key {k!r}")
                seen_keys.add(k)
                i = keyed.get(k)
                match.append(i if i is not None and old[i].kind == _kind(child) else None)
            else:
                i = unkeyed[u] if u < len(unkeyed) else None
                u += 1
                if i is not None and _same_kind(old[i], child):
                    match.append(i)
                else:
                    match.append(None)
        kept = {i for i in match if i is not None}
        for i, s in enumerate(old):
            if i not in kept:
                ops.append(["-", s.id])
                self._forget(s)
        stay = _increasing([i for i in match if i is not None])
        result: list[Shown] = [None] * len(new)  # type: ignore[list-item]
        before: int | None = None
        for j in range(len(new) - 1, -1, -1):
            child, i = new[j], match[j]
            if i is None:
                first = self.ids.take(_count(child))
                wire, shown, _ = self._create(child, first)
                ops.append(["+", parent.id, before, first, wire])
            else:
                shown = old[i]
                if i not in stay:
                    ops.append([">", shown.id, parent.id, before])
                if isinstance(child, str):
                    if child != shown.text:
                        ops.append(["t", shown.id, child])
                        shown.text = child
                else:
                    self._element(shown, child, ops)
            result[j] = shown
            before = shown.id
        parent.children = result


def _unique_keys(node: VNode) -> None:
    keys = [k for c in node.children if isinstance(c, VNode) and (k := _key(c)) is not None]
    if len(keys) != len(set(keys)):
        raise ValueError(f"two children of {node!r} have the same key")


def _kind(node: VNode) -> tuple[str, ...]:
    """What an element must share with the next tree's to be kept: its tag and namespace, and an
    input's type — a text box turned checkbox would keep what was typed as its value attribute (the
    HTML standard's value mode change), so it is made anew."""
    if node.tag == "input":
        return (node.tag, node.attrs.get("type", "text"))
    return (node.tag, node.ns or "")


def _same_kind(shown: Shown, node: VNode | str) -> bool:
    if isinstance(node, str):
        return shown.tag == "#text"
    return shown.kind == _kind(node) and shown.key is None


def _count(node: VNode | str) -> int:
    if isinstance(node, str):
        return 1
    return 1 + sum(_count(c) for c in node.children)


def _extra(shown: Shown) -> dict[str, Any]:
    extra: dict[str, Any] = {}
    if shown.props:
        extra["p"] = dict(shown.props)
    if shown.style is not None:
        extra["s"] = shown.style
    if shown.on:
        extra["o"] = dict(shown.on)
    if shown.prevent:
        extra["x"] = _prevent_wire(shown.prevent)
    if shown.ns:
        extra["n"] = shown.ns
    return extra


def _increasing(seq: list[int]) -> set[int]:
    """The values of a longest strictly increasing subsequence: the kept children that need not move."""
    tails: list[int] = []  # index into seq of the smallest tail of an increasing run of each length
    prev = [-1] * len(seq)
    for i, value in enumerate(seq):
        lo, hi = 0, len(tails)
        while lo < hi:
            mid = (lo + hi) // 2
            if seq[tails[mid]] < value:
                lo = mid + 1
            else:
                hi = mid
        prev[i] = tails[lo - 1] if lo else -1
        if lo == len(tails):
            tails.append(i)
        else:
            tails[lo] = i
    out: set[int] = set()
    i = tails[-1] if tails else -1
    while i != -1:
        out.add(seq[i])
        i = prev[i]
    return out


def encode(patch: Mapping[str, Any]) -> str:
    """A patch as the one string ``patch.js`` takes (no spaces: it crosses to the page at every render)."""
    return json.dumps(patch, separators=(",", ":"), ensure_ascii=False)
