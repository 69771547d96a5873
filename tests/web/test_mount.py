"""web/ui/mount.py in CPython: a view tree mounted on a stand-in page whose patcher is the model of
patch.js (tests/web/test_vdom.py). Events in, the view drawn again; dialogs asked over the view; bad
messages dropped."""

from __future__ import annotations

import asyncio
import importlib
import json
import sys
import types
from typing import Any, Iterator

import pytest

from tests.web.standin import run_alone, stand_in_pyscript
from tests.web.test_vdom import Model
from web.ui.vdom import VNode, h


class Page:
    """``window`` with a ``scarabPatch`` that applies patches to the model, and a console."""

    def __init__(self) -> None:
        self.models: dict[int, Model] = {}
        self.listener: Any = None
        self.warnings: list[str] = []
        self.errors: list[str] = []
        self.scarabPatch = types.SimpleNamespace(mount=self.mount, unmount=self.unmount, apply=self.apply,
                                                 listen=self.listen)
        self.console = types.SimpleNamespace(warn=self.warnings.append, error=self.errors.append)

    def mount(self, root: int, _element: Any) -> None:
        self.models[root] = Model(root)

    def unmount(self, root: int) -> None:
        del self.models[root]

    def listen(self, fn: Any) -> None:
        self.listener = fn

    def apply(self, text: str) -> None:
        patch = json.loads(text)
        for model in self.models.values():
            targets = {op[1] for op in patch["ops"]}
            if targets & set(model.nodes):
                model.apply(patch)
                return
        assert not patch["ops"], patch

    def find(self, pred: Any) -> dict[str, Any]:
        for model in self.models.values():
            for node in model.nodes.values():
                if node["tag"] not in ("#text", "#root") and pred(node):
                    return node
        raise LookupError

    def by_text(self, text: str) -> dict[str, Any]:
        return self.find(lambda n: [c.get("text") for c in n["children"]] == [text])

    def send(self, node: dict[str, Any], kind: str, **fields: Any) -> None:
        self.listener(json.dumps({"h": node["on"][kind], "type": kind, **fields}))


@pytest.fixture
def page() -> Iterator[tuple[Page, Any]]:
    window = Page()
    # imported afresh for each page: another module's stand-in may have left one bound to its own page
    # (test_slices and test_snapshot keep web.ui's modules), and ``from web.ui import mount`` would find
    # the last one on the package
    kept = sys.modules.pop("web.ui.mount", None)
    try:
        with stand_in_pyscript(window):
            yield window, importlib.import_module("web.ui.mount")
    finally:
        if kept is not None:
            sys.modules["web.ui.mount"] = kept


def test_a_handler_changes_state_and_the_view_is_drawn_again(page: tuple[Page, Any]) -> None:
    window, mount = page
    count = [0]
    view = lambda: h("p", {}, h("button", {"text": f"{count[0]} taps",
                                           "on_click": lambda e: count.__setitem__(0, count[0] + 1)}))
    m = mount.Mount(object(), view)
    window.send(window.by_text("0 taps"), "click")
    window.send(window.by_text("1 taps"), "click")
    assert window.by_text("2 taps")["tag"] == "button"
    m.close()
    assert not window.models and m.tree.root not in mount.MOUNTS


def test_an_awaited_handler_draws_when_it_is_done(page: tuple[Page, Any]) -> None:
    window, mount = page
    said = ["waiting"]

    async def later(_e: Any) -> None:
        await asyncio.sleep(0)
        said[0] = "done"

    async def run() -> None:
        mount.Mount(object(), lambda: h("button", {"text": said[0], "on_click": later}))
        window.send(window.by_text("waiting"), "click")
        for _ in range(5):
            await asyncio.sleep(0)

    run_alone(run())
    assert window.by_text("done")


def test_ask_opens_a_dialog_over_the_view_and_returns_the_choice_and_the_field(page: tuple[Page, Any]) -> None:
    window, mount = page
    answers: list[Any] = []

    async def run() -> None:
        m = mount.Mount(object(), lambda: h("p", {"text": "the view"}))
        field = h("input", {"type": "text", "id": "rename-field", "value": "Old"})
        asking = asyncio.ensure_future(m.ask("Rename", None, [("cancel", "Cancel", ""), ("ok", "OK", "primary")],
                                             field))
        await asyncio.sleep(0)
        dialog = window.find(lambda n: n["tag"] == "dialog")
        assert dialog["props"] == {"modal": True} and dialog["attrs"] == {"aria-labelledby": "dialog-title"}
        box = window.find(lambda n: n["attrs"].get("id") == "rename-field")
        window.listener(json.dumps({"h": box["on"]["input"], "type": "input", "value": "New name"}))
        window.send(window.by_text("OK"), "click")
        answers.append(await asking)
        # the dialog is gone, the view stays
        with pytest.raises(LookupError):
            window.find(lambda n: n["tag"] == "dialog")
        assert window.by_text("the view")
        # Escape: the dialog's cancel event answers None
        asking = asyncio.ensure_future(m.ask("Delete?", h("p", {"text": "Sure?"}), [("delete", "Delete", "danger")]))
        await asyncio.sleep(0)
        window.send(window.find(lambda n: n["tag"] == "dialog"), "cancel")
        answers.append(await asking)

    run_alone(run())
    assert answers == [("ok", "New name"), (None, "")]


@pytest.mark.parametrize("message", ["not json", "[1, 2]", '{"h": "1", "type": "click", "data": {"sq": 3}}'])
def test_a_bad_message_is_dropped_and_said(page: tuple[Page, Any], message: str) -> None:
    window, mount = page
    taps = []
    mount.Mount(object(), lambda: h("button", {"text": "b", "on_click": taps.append}))
    button = window.by_text("b")
    window.listener(message.replace('"1"', json.dumps(button["on"]["click"])))
    assert not taps and window.warnings


def test_an_event_for_an_element_gone_is_ignored(page: tuple[Page, Any]) -> None:
    window, mount = page
    shown = [True]
    taps: list[Any] = []
    mount.Mount(object(), lambda: h("div", {}, h("button", {"text": "b", "on_click": lambda e: (
        taps.append(e), shown.__setitem__(0, False))}) if shown[0] else None))
    button = window.by_text("b")
    window.send(button, "click")
    window.send(button, "click")  # a second tap sent before the patch that removed it arrived
    assert len(taps) == 1 and not window.warnings
