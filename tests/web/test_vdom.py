"""The view tree's differ (web/ui/vdom.py): every patch, applied by a model of patch.js, makes the page
show exactly the next tree, keeps what it can (elements, their ids, handlers) and moves as little as
possible. tests/e2e/test_patch_vdom.py applies the same patches with the real patch.js in Chromium."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from web.ui.vdom import Event, Ids, Tree, VNode, encode, h, svg


class Model:
    """What patch.js does with ops, on Python objects: the reference the differ is tested against."""

    def __init__(self, root: int) -> None:
        self.root = {"id": root, "tag": "#root", "children": []}
        self.nodes: dict[int, dict[str, Any]] = {root: self.root}
        self.created = 0
        self.moved = 0

    def build(self, wire: Any, ident: int) -> tuple[dict[str, Any], int]:
        if isinstance(wire, str):
            node = {"id": ident, "tag": "#text", "text": wire}
            self.nodes[ident] = node
            return node, ident + 1
        tag, attrs, children, *rest = wire
        extra = rest[0] if rest else {}
        assert set(extra) <= {"p", "s", "o", "x", "n"} and all(extra.values()) or extra == {}
        node = {"id": ident, "tag": tag, "attrs": dict(attrs), "props": dict(extra.get("p", {})),
                "style": extra.get("s"), "on": dict(extra.get("o", {})), "prevent": dict(extra.get("x", {})),
                "ns": extra.get("n"), "children": []}
        self.nodes[ident] = node
        nxt = ident + 1
        for child in children:
            sub, nxt = self.build(child, nxt)
            sub["parent"] = node
            node["children"].append(sub)
        return node, nxt

    def place(self, node: dict[str, Any], parent: dict[str, Any], before: int | None) -> None:
        if "parent" in node and node in node["parent"]["children"]:
            node["parent"]["children"].remove(node)
        siblings = parent["children"]
        at = len(siblings) if before is None else siblings.index(self.nodes[before])
        siblings.insert(at, node)
        node["parent"] = parent

    def forget(self, node: dict[str, Any]) -> None:
        del self.nodes[node["id"]]
        for child in node.get("children", []):
            self.forget(child)

    def apply(self, patch: dict[str, Any]) -> None:
        patch = json.loads(encode(patch))  # what crosses to the page is JSON
        for op in patch["ops"]:
            kind = op[0]
            if kind == "+":
                _, parent, before, first, wire = op
                assert first not in self.nodes
                node, _ = self.build(wire, first)
                self.place(node, self.nodes[parent], before)
                self.created += 1
            elif kind == "-":
                node = self.nodes[op[1]]
                node["parent"]["children"].remove(node)
                self.forget(node)
            elif kind == ">":
                self.place(self.nodes[op[1]], self.nodes[op[2]], op[3])
                self.moved += 1
            elif kind == "a":
                attrs = self.nodes[op[1]]["attrs"]
                if op[3] is None:
                    del attrs[op[2]]
                else:
                    attrs[op[2]] = op[3]
            elif kind == "p":
                self.nodes[op[1]]["props"][op[2]] = op[3]
            elif kind == "t":
                assert self.nodes[op[1]]["tag"] == "#text"
                self.nodes[op[1]]["text"] = op[2]
            elif kind == "s":
                self.nodes[op[1]]["style"] = op[2] or None
            elif kind == "o":
                self.nodes[op[1]]["on"], self.nodes[op[1]]["prevent"] = op[2], op[3]
            else:
                raise AssertionError(op)

    def shape(self) -> list[Any]:
        return [_shape_model(c) for c in self.root["children"]]


def _shape_model(node: dict[str, Any]) -> Any:
    if node["tag"] == "#text":
        return node["text"]
    return (node["tag"], node["ns"], node["attrs"], node["props"], node["style"] or None, sorted(node["on"]),
            {k: (v if isinstance(v, bool) else list(v)) for k, v in node["prevent"].items()},
            [_shape_model(c) for c in node["children"]])


def _shape(node: VNode | str) -> Any:
    if isinstance(node, str):
        return node
    return (node.tag, node.ns, node.attrs, node.props, node.style, sorted(node.on),
            {k: (v if isinstance(v, bool) else list(v)) for k, v in node.prevent.items()},
            [_shape(c) for c in node.children])


def told(model_node: Any, node: VNode | str) -> None:
    """Every property the view sets is the page's; one the view stops setting stays as the page has it
    (the player's), so properties are compared only where the view sets them."""
    if isinstance(node, str):
        return
    assert {k: model_node[3].get(k) for k in node.props} == node.props
    for m, c in zip(model_node[7], node.children):
        told(m, c)


def unprop(shape: Any) -> Any:
    return shape if isinstance(shape, str) else (*shape[:3], *shape[4:7], [unprop(c) for c in shape[7]])


def show(tree: Tree, model: Model, *children: VNode | str) -> dict[str, Any]:
    patch = tree.update(*children)
    model.apply(patch)
    shape = model.shape()
    assert [unprop(s) for s in shape] == [unprop(_shape(c)) for c in children]
    for s, c in zip(shape, children):
        told(s, c)
    # ids the differ keeps are the ids the page has, element for element
    assert set(tree.shown) == set(model.nodes) - {tree.root}
    return patch


def fresh() -> tuple[Tree, Model]:
    tree = Tree(Ids(100))
    return tree, Model(tree.root)


# --- building ----------------------------------------------------------------------------------
def test_h_keeps_the_builders_signature() -> None:
    def click(_e: Event) -> None:
        pass

    node = h("input", {"type": "checkbox", "checked": False, "hidden": True, "disabled": None, "class": "x",
                       "data-sq": 12, "aria-label": "twelve", "on_change": click, "style": "--n: 3",
                       "prevent": {"keydown": ["Enter"]}, "value": 4}, key="k")
    assert node.attrs == {"type": "checkbox", "hidden": "", "class": "x", "data-sq": "12", "aria-label": "twelve"}
    assert node.props == {"checked": False, "value": "4"}
    assert node.style == "--n: 3" and node.on == {"change": click} and node.prevent == {"keydown": ("Enter",)}
    assert node.key == "k"
    para = h("p", {"text": "Hello"}, [" ", None, h("b", {"text": "you"})], None)
    assert para.text == "Hello you" and [type(c).__name__ for c in para.children] == ["str", "str", "VNode"]
    assert svg("circle", {"r": 3}).ns == "svg"


@pytest.mark.parametrize("name", ["onclick", "ONLOAD", "style", "x y", "<b>", ""])
def test_no_handler_attribute_and_no_markup(name: str) -> None:
    if name != "style":  # h()'s style is set through CSSOM, never as an attribute
        with pytest.raises(ValueError):
            h("div", {name: "alert(1)"})
    with pytest.raises(ValueError):
        h("div").set_attribute(name, "x")


def test_bad_tag_and_bad_child() -> None:
    with pytest.raises(ValueError):
        h("<script>")
    with pytest.raises(TypeError):
        h("div", None, 3)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        h("div", {"on_click": "alert(1)"})


# --- diffing -----------------------------------------------------------------------------------
def test_first_render_creates_the_subtree_numbered_in_pre_order() -> None:
    tree, model = fresh()
    patch = show(tree, model, h("ul", {"id": "l"}, h("li", {"text": "a"}), h("li", {"text": "b"})), "tail")
    ops = patch["ops"]
    # built from the end, each before the one already placed
    assert [op[0] for op in ops] == ["+", "+"]
    assert ops[0][1:5] == [tree.root, None, 101, "tail"] and ops[1][1:4] == [tree.root, 101, 102]
    assert ops[1][4] == ["ul", {"id": "l"}, [["li", {}, ["a"]], ["li", {}, ["b"]]]]
    # pre-order: ul 102, li 103, "a" 104, li 105, "b" 106
    assert model.nodes[104]["text"] == "a" and model.nodes[105]["tag"] == "li" and model.nodes[106]["text"] == "b"


def test_a_redraw_with_nothing_changed_sends_nothing() -> None:
    tree, model = fresh()
    view = lambda: h("div", {"class": "c", "on_click": lambda e: None}, h("span", {"text": "x"}))
    show(tree, model, view())
    assert tree.update(view()) == {"ops": []}


def test_changes_are_ops_on_kept_elements() -> None:
    tree, model = fresh()
    show(tree, model, h("div", {"id": "d", "class": "a", "title": "t"}, "one", h("input", {"value": "x"})))
    patch = show(tree, model, h("div", {"id": "d", "class": "b", "data-n": 1, "style": "--w: 2"}, "two",
                                h("input", {"value": "y"})))
    assert sorted(op[0] for op in patch["ops"]) == ["a", "a", "a", "p", "s", "t"]
    assert model.created == 1


def test_a_property_is_sent_only_when_the_view_changes_it() -> None:
    # the player's typing lives in the page; a redraw with the same value must not write it back
    tree, model = fresh()
    show(tree, model, h("input", {"id": "name", "value": ""}))
    assert tree.update(h("input", {"id": "name", "value": ""})) == {"ops": []}
    assert tree.update(h("input", {"id": "name", "value": "Anna"}))["ops"] == [["p", 101, "value", "Anna"]]


def test_keyed_children_move_instead_of_being_rebuilt() -> None:
    tree, model = fresh()
    row = lambda keys: h("div", None, *[h("b", {"text": str(k)}, key=k) for k in keys])
    show(tree, model, row(range(10)))
    model.created = 0
    patch = show(tree, model, row([9, 0, 1, 2, 3, 4, 5, 6, 7, 8]))
    assert model.created == 0 and model.moved == 1 and len(patch["ops"]) == 1
    model.moved = 0
    show(tree, model, row([0, 2, 1, 3, 4, 5, 6, 7, 8, 9]))  # the last back, and a swap: two moves
    assert model.moved == 2 and model.created == 0


def test_handlers_are_named_by_their_element_and_survive_redraws() -> None:
    tree, model = fresh()
    calls: list[tuple[str, Event]] = []
    view = lambda n: h("div", {"id": "board"},
                       *[h("button", {"data-sq": i, "on_click": lambda e, i=i: calls.append((f"{n}:{i}", e))}, key=i)
                         for i in range(3)])
    show(tree, model, view(1))
    button = model.root["children"][0]["children"][1]
    hid = button["on"]["click"]
    assert hid == str(button["id"])
    show(tree, model, view(2))  # new lambdas, the same ids on the page
    assert model.root["children"][0]["children"][1]["on"]["click"] == hid
    found = tree.handler({"h": hid, "type": "click", "data": {"sq": "1"}, "key": None})
    assert found is not None
    fn, event = found
    fn(event)
    assert calls == [("2:1", event)] and event.data == {"sq": "1"}
    assert tree.handler({"h": hid, "type": "keydown"}) is None
    show(tree, model, h("div", {"id": "board"}))
    assert tree.handler({"h": hid, "type": "click"}) is None  # the element is gone: the event is dropped


def test_prevent_is_declared_and_changes_with_state() -> None:
    tree, model = fresh()
    keys = ("ArrowUp", "Enter")
    show(tree, model, h("div", {"on_keydown": lambda e: None, "prevent": {"keydown": keys}}))
    patch = show(tree, model, h("div", {"on_keydown": lambda e: None, "prevent": {"keydown": keys + ("Escape",)}}))
    assert patch["ops"] == [["o", 101, {"keydown": "101"}, {"keydown": ["ArrowUp", "Enter", "Escape"]}]]


def test_an_unchanged_memoized_subtree_is_skipped_and_a_mutated_one_is_not() -> None:
    tree, model = fresh()
    squares = [h("div", {"class": "sq", "data-sq": i}, h("span", {"text": "."}), key=i) for i in range(289)]
    show(tree, model, h("div", {"id": "grid"}, squares))
    assert tree.update(h("div", {"id": "grid"}, squares)) == {"ops": []}
    squares[7].children[0].set_text("C")  # through a method: the square and its parents are marked
    squares[8] = h("div", {"class": "sq tile", "data-sq": 8}, h("span", {"text": "A"}), key=8)
    patch = show(tree, model, h("div", {"id": "grid"}, squares))
    # the new square 8 is matched by its key: its element is kept, its class and letter changed
    assert sorted(op[0] for op in patch["ops"]) == ["a", "t", "t"]


def test_an_input_that_changes_type_is_made_anew() -> None:
    # kept, a text box turned checkbox would keep what was typed as its value attribute
    tree, model = fresh()
    show(tree, model, h("input", {"type": "text", "value": "v"}))
    patch = show(tree, model, h("input", {"type": "checkbox"}))
    assert [op[0] for op in patch["ops"]] == ["-", "+"]


def test_duplicate_keys_are_refused() -> None:
    tree, _ = fresh()
    with pytest.raises(ValueError):
        tree.update(h("ul", None, h("li", key=1), h("li", key=1)))


def test_svg_keeps_its_namespace() -> None:
    tree, model = fresh()
    patch = show(tree, model, svg("svg", {"viewBox": "0 0 4 4"}, svg("circle", {"r": 1})))
    assert patch["ops"][0][4] == ["svg", {"viewBox": "0 0 4 4"}, [["circle", {"r": "1"}, [], {"n": "svg"}]], {"n": "svg"}]
    # an html element of the same tag name is another element
    show(tree, model, h("svg", {"viewBox": "0 0 4 4"}))
    assert model.created == 2


def test_after_directives() -> None:
    tree, _ = fresh()
    assert tree.update(h("p"), focus="sq-H8", title="Scarab", lang="it")["after"] == {
        "focus": "sq-H8", "title": "Scarab", "lang": "it"}


# --- events from the page ----------------------------------------------------------------------
def test_event_from_the_wire() -> None:
    e = Event.from_wire({"h": "3", "type": "submit", "data": {"sq": "7"}, "mods": ["shift"], "x": 3, "y": 4.5,
                         "values": {"seed": "12", "sounds": True}, "focus": "seed", "time": 12.5,
                         "rect": {"x": 1, "y": 2, "w": 3, "h": 4}})
    assert e.values == {"seed": "12", "sounds": True} and e.mods == {"shift"} and e.rect is not None
    assert e.rect.w == 3 and e.x == 3 and e.focus == "seed"


@pytest.mark.parametrize("bad", [{"type": "click", "data": {"sq": 3}}, {"type": "click", "key": 5},
                                 {"type": "click", "mods": ["hyper"]}, {"type": "click", "checked": "yes"},
                                 {"type": "click", "button": True}, {"type": "click", "values": {"a": [1]}}])
def test_a_damaged_event_is_refused(bad: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        Event.from_wire(bad)


# --- properties: any sequence of trees -----------------------------------------------------------
TAGS = ["div", "span", "p", "b"]
words = st.sampled_from(["", "a", "b", "scarab", "Ü", "<b>"])


@st.composite
def trees(draw: Any, depth: int = 0) -> VNode | str:
    if depth >= 3 or draw(st.integers(0, 3)) == 0:
        return draw(words)
    tag = draw(st.sampled_from(TAGS))
    attrs: dict[str, Any] = {}
    if draw(st.booleans()):
        attrs["class"] = draw(st.sampled_from(["x", "y", "x y"]))
    if draw(st.booleans()):
        attrs["data-v"] = draw(st.integers(0, 3))
    if draw(st.integers(0, 4)) == 0:
        attrs["style"] = draw(st.sampled_from(["--a: 1", "--a: 2"]))
    if draw(st.integers(0, 4)) == 0:
        attrs["value"] = draw(words)
    if draw(st.integers(0, 3)) == 0:
        attrs["on_click"] = lambda e: None
    if draw(st.integers(0, 5)) == 0:
        attrs["prevent"] = {"keydown": draw(st.sampled_from([("Enter",), ("Enter", "Escape")]))}
    children = draw(st.lists(trees(depth + 1), max_size=5))
    keyed = draw(st.booleans())
    if keyed:
        picked = draw(st.lists(st.integers(0, 6), min_size=len(children), max_size=len(children), unique=True))
        children = [h(c.tag, None, c.children, key=k) if isinstance(c, VNode) else c for c, k in zip(children, picked)]
        for c in children:
            if isinstance(c, VNode):
                for g in c.children:
                    if isinstance(g, VNode):
                        g.parent = c
    node = svg(tag, {k: v for k, v in attrs.items() if k in ("class", "data-v")}, children) if tag == "b" and \
        draw(st.integers(0, 4)) == 0 else h(tag, attrs, children)
    return node


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(trees(), max_size=4), min_size=1, max_size=5))
def test_any_sequence_of_renders_shows_the_last_tree(renders: list[list[VNode | str]]) -> None:
    tree, model = fresh()
    for children in renders:
        show(tree, model, *children)
    # and drawing the same again changes nothing
    assert tree.update(*renders[-1]) == {"ops": []}


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 30), unique=True, max_size=30), st.randoms(use_true_random=False))
def test_a_reordered_keyed_list_moves_the_fewest(keys: list[int], rnd: Any) -> None:
    tree, model = fresh()
    show(tree, model, h("ol", None, [h("li", {"text": str(k)}, key=k) for k in keys]))
    order = list(keys)
    rnd.shuffle(order)
    model.created = model.moved = 0
    show(tree, model, h("ol", None, [h("li", {"text": str(k)}, key=k) for k in order]))
    assert model.created == 0
    # the fewest moves is the length less a longest run kept in order
    pos = {k: i for i, k in enumerate(keys)}
    seq = [pos[k] for k in order]
    best = [1] * len(seq)
    for i in range(len(seq)):
        for j in range(i):
            if seq[j] < seq[i]:
                best[i] = max(best[i], best[j] + 1)
    assert model.moved == len(seq) - max(best, default=0)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 11), st.sampled_from(["text", "class", "drop", "add"])), max_size=12))
def test_mutations_of_a_sent_tree_are_sent(changes: list[tuple[int, str]]) -> None:
    """The imperative way the views work today: build once, change nodes in place, redraw the same root."""
    tree, model = fresh()
    cells = [h("span", {"class": "c"}, str(i), key=i) for i in range(12)]
    grid = h("div", {"id": "g"}, cells)
    show(tree, model, grid)
    for i, what in changes:
        cell = next((c for c in grid.children if isinstance(c, VNode) and c.key == i), None)
        if cell is None:
            if what == "add":
                grid.append(h("span", {"class": "c"}, str(i), key=i))
            continue
        if what == "text":
            cell.set_text(f"t{i}")
        elif what == "class":
            cell.toggle_class("on", "on" not in cell.attrs.get("class", ""))
        elif what == "drop":
            cell.remove()
        show(tree, model, grid)
    show(tree, model, grid)
