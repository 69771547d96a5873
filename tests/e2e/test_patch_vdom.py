"""The differ (web/ui/vdom.py) and the patcher (web/shell/patch.js) together, in Chromium: random
sequences of view trees, each diffed in CPython and applied by the real patch.js, leave the page showing
exactly the last tree — and keep the elements the differ says it keeps."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from web.ui.vdom import Ids, Tree, VNode, encode, h, svg

pytestmark = pytest.mark.e2e

#: The page's DOM under the root as data: tag, namespace, attributes, the properties the views set,
#: style, children (text as strings). Properties are read only where the tree sets them.
SHAPE = """(root) => {
  const shape = (n) => n.nodeType === 3 ? n.data : [
    n.localName, n.namespaceURI === "http://www.w3.org/2000/svg" ? "svg" : null,
    Object.fromEntries([...n.attributes].filter(a => a.name !== "style").map(a => [a.name, a.value])),
    {value: "value" in n && n.localName === "input" ? n.value : null,
     checked: n.localName === "input" ? n.checked : null},
    n.style ? n.style.cssText : "",
    [...n.childNodes].map(shape)];
  return [...root.childNodes].map(shape);
}"""


def expected(node: VNode | str) -> Any:
    if isinstance(node, str):
        return node
    return [node.tag, node.ns, node.attrs, _css(node.style), [expected(c) for c in node.children]]


def without_props(shape: Any) -> Any:
    return shape if isinstance(shape, str) else [*shape[:3], shape[4], [without_props(c) for c in shape[5]]]


def told(shape: Any, node: VNode | str) -> None:
    """A property is the view's where the view sets it; where it does not, the page keeps its own (a
    box the player ticked), so properties are compared only where the tree sets them."""
    if isinstance(node, str):
        return
    assert {k: shape[3][k] for k in node.props} == node.props
    for s, c in zip(shape[5], node.children):
        told(s, c)


def _css(style: str | None) -> str:
    # what CSSOM gives back for the custom properties used here: "--a: 1;"
    return f"{style};" if style else ""


def random_tree(rnd: random.Random, depth: int = 0) -> VNode | str:
    if depth >= 3 or rnd.random() < 0.25:
        return rnd.choice(["", "a", "scarab", "Ü", "<b>x</b>", "&amp;"])
    tag = rnd.choice(["div", "span", "p", "input", "svg"])
    if tag == "input":
        attrs: dict[str, Any] = {"type": rnd.choice(["text", "checkbox"]), "class": rnd.choice([None, "x"])}
        if attrs["type"] == "text":
            attrs["value"] = rnd.choice(["", "v", "w"])
        else:
            attrs["checked"] = rnd.choice([True, False])
        return h("input", attrs, key=rnd.choice([None, None, rnd.randrange(8)]))
    if tag == "svg":
        return svg("svg", {"viewBox": "0 0 4 4"}, *[svg("circle", {"r": rnd.randrange(3)})
                                                    for _ in range(rnd.randrange(3))])
    children = [random_tree(rnd, depth + 1) for _ in range(rnd.randrange(5))]
    keys = rnd.sample(range(10), len(children))
    keyed = rnd.random() < 0.5
    built = [h(c.tag, {"class": c.attrs.get("class")}, c.children, key=k)
             if keyed and isinstance(c, VNode) and c.tag in ("div", "span", "p") else c
             for c, k in zip(children, keys)]
    return h(tag, {"class": rnd.choice([None, "a", "a b"]), "data-v": rnd.choice([None, 1, 2]),
                   "style": rnd.choice([None, None, "--a: 1", "--a: 2"]),
                   "hidden": rnd.random() < 0.1}, built)


@pytest.fixture
def page(context_factory: Any, server: str) -> Any:
    page = context_factory().new_page()
    page.goto(server + "/icon.svg")
    page.set_content("<!doctype html><html><body><div id='root'></div></body></html>")
    page.add_script_tag(url=server + "/web/shell/patch.js")
    return page


def test_random_renders_show_the_last_tree_and_keep_elements(page: Any) -> None:
    rnd = random.Random(38)
    tree = Tree(Ids(1))
    page.evaluate("(id) => scarabPatch.mount(id, document.getElementById('root'))", tree.root)
    for step in range(150):
        children = [random_tree(rnd) for _ in range(rnd.randrange(4))]
        page.evaluate("([text]) => scarabPatch.apply(text)", [encode(tree.update(*children))])
        shown = page.evaluate(SHAPE, page.query_selector("#root"))
        assert [without_props(s) for s in shown] == [expected(c) for c in children], step
        for s, c in zip(shown, children):
            told(s, c)


def test_kept_elements_are_the_same_objects(page: Any) -> None:
    tree = Tree(Ids(1))
    page.evaluate("(id) => scarabPatch.mount(id, document.getElementById('root'))", tree.root)
    row = lambda keys: h("ol", {"id": "l"}, [h("li", {"text": str(k)}, key=k) for k in keys])
    page.evaluate("([t]) => scarabPatch.apply(t)", [encode(tree.update(row(range(6))))])
    page.evaluate("() => document.querySelectorAll('li').forEach((li, i) => li.__mark = i)")
    page.focus("body")
    page.evaluate("([t]) => scarabPatch.apply(t)", [encode(tree.update(row([5, 0, 1, 2, 3, 4])))])
    assert page.evaluate("() => [...document.querySelectorAll('li')].map(li => [li.textContent, li.__mark])") == [
        [str(k), k] for k in [5, 0, 1, 2, 3, 4]]


def test_typing_survives_a_redraw_and_events_reach_the_handler(page: Any) -> None:
    tree = Tree(Ids(1))
    got: list[Any] = []
    page.expose_function("deliver", lambda text: got.append(text))
    page.evaluate("(id) => { scarabPatch.mount(id, document.getElementById('root')); scarabPatch.listen(deliver); }",
                  tree.root)
    view = lambda label: h("form", {"id": "f", "on_submit": lambda e: None, "prevent": {"submit": True}},
                           h("label", {"for": "name", "text": label}),
                           h("input", {"id": "name", "type": "text", "value": ""}),
                           h("button", {"type": "submit", "data-act": "go", "text": "Go"}))
    page.evaluate("([t]) => scarabPatch.apply(t)", [encode(tree.update(view("Name")))])
    page.fill("#name", "Anna")
    page.evaluate("([t]) => scarabPatch.apply(t)", [encode(tree.update(view("Your name")))])
    assert page.input_value("#name") == "Anna" and page.inner_text("label") == "Your name"
    page.click("button")
    for _ in range(100):
        if got:
            break
        page.wait_for_timeout(20)
    message = json.loads(got[-1])
    found = tree.handler(message)
    assert found is not None
    _, event = found
    assert event.type == "submit" and event.values == {"name": "Anna"} and page.url.endswith("/icon.svg")
