"""Issue 38 step 1 in Chromium: web/shell/patch.js, the main thread's half of the view tree — ops
applied to the DOM (ids in pre-order, attributes, user-owned props, CSSOM style, SVG, moves, removal,
validation, dialogs, after-directives) and DOM events turned into messages (delegation, data-*,
declared preventDefault, form values, the queue before listen, coalesced pointer moves).

No Python here: one context for the module and a blank page of the site's origin, under the site's
CSP less 'unsafe-eval', loaded afresh for each test with patch.js added as a script."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterator

import pytest

from tests.e2e.conftest import ROOT, Guard, watch

pytestmark = pytest.mark.e2e

PATCH_JS = ROOT / "web" / "shell" / "patch.js"
HOST_PATH = "__patch_test.html"


def host_html() -> str:
    """A blank page with the site's own CSP, less 'unsafe-eval': patch.js must not need it."""
    index = (ROOT / "index.html").read_text(encoding="utf-8")
    csp = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', index)
    assert csp, "index.html has no CSP meta"
    policy = csp.group(1).replace(" 'unsafe-eval'", "")
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
            f'<meta http-equiv="Content-Security-Policy" content="{policy}"><title>patch</title></head>'
            '<body><div id="app"></div><div id="other"><p>old</p></div>'
            '<button id="outside">outside</button></body></html>')


@pytest.fixture(scope="module")
def tab(browser: Any, server: str) -> Iterator[tuple[Any, Guard]]:
    guard = Guard()
    ctx = browser.new_context(viewport={"width": 800, "height": 600}, locale="en-GB", service_workers="block")
    ctx.route("**/*", guard.route)
    page = watch(ctx.new_page(), guard)
    body = host_html()
    page.route(server + HOST_PATH, lambda route: route.fulfill(status=200, content_type="text/html", body=body))
    yield page, guard
    ctx.close()


@pytest.fixture
def blank(tab: tuple[Any, Guard], server: str) -> Iterator[Any]:
    """The blank page, loaded afresh, with patch.js and #app mounted as node 1."""
    page, guard = tab
    guard.blocked.clear()
    guard.errors.clear()
    page.goto(server + HOST_PATH)
    page.add_script_tag(url=server + "web/shell/patch.js")
    page.evaluate("() => scarabPatch.mount(1, document.getElementById('app'))")
    yield page
    assert guard.blocked == [], f"the page tried to reach the network: {guard.blocked}"
    assert guard.errors == [], f"console errors: {guard.errors}"


def patch(page: Any, *ops: Any, after: dict[str, Any] | None = None) -> None:
    message: dict[str, Any] = {"ops": list(ops)}
    if after is not None:
        message["after"] = after
    page.evaluate("p => scarabPatch.apply(p)", json.dumps(message))


def refused(page: Any, *ops: Any) -> str:
    """The error message of a patch that must be refused."""
    error = page.evaluate("p => { try { scarabPatch.apply(p); } catch (e) { return String(e.message); } return null; }",
                          json.dumps({"ops": list(ops)}))
    assert error is not None, f"accepted: {ops}"
    return str(error)


def markup(page: Any, selector: str = "#app") -> str:
    return str(page.evaluate("s => document.querySelector(s).innerHTML", selector))


def listen(page: Any) -> None:
    page.evaluate("""() => { window.got = [];
      scarabPatch.listen(m => { if (typeof m !== 'string') throw new Error('not a string');
                                window.got.push(JSON.parse(m)); }); }""")


def messages(page: Any) -> list[dict[str, Any]]:
    """Every message delivered so far (after the pending tasks and microtasks have run)."""
    return list(page.evaluate("async () => { await new Promise(r => setTimeout(r, 0)); return window.got; }"))


def el(tag: str, attrs: dict[str, str] | None = None, children: list[Any] | None = None, **extra: Any) -> list[Any]:
    node: list[Any] = [tag, attrs or {}, children or []]
    if extra:
        node.append(extra)
    return node


# --- ops ---------------------------------------------------------------------------------------------
def test_a_subtree_is_numbered_in_pre_order(blank: Any) -> None:
    # div 2, "hello" 3, span 4, "x" 5, b 6, "deep" 7, "tail" 8
    tree = el("div", {"id": "outer"}, ["hello", el("span", {"id": "inner"}, ["x", el("b", {}, ["deep"])]), "tail"])
    patch(blank, ["+", 1, None, 2, tree])
    assert markup(blank) == '<div id="outer">hello<span id="inner">x<b>deep</b></span>tail</div>'
    patch(blank, ["t", 7, "DEEP"], ["a", 6, "title", "six"], ["t", 3, "hi"], ["t", 8, "end"], ["a", 4, "data-k", "v"],
          ["t", 5, "y"])
    assert markup(blank) == '<div id="outer">hi<span id="inner" data-k="v">y<b title="six">DEEP</b></span>end</div>'
    # a bare text node is a subtree of one id; before places it
    patch(blank, ["+", 2, 4, 9, "mid"], ["+", 1, 2, 10, "first"])
    assert markup(blank) == 'first<div id="outer">himid<span id="inner" data-k="v">y<b title="six">DEEP</b></span>end</div>'
    patch(blank, ["t", 9, "MID"])
    assert "hiMID<span" in markup(blank)
    assert "is not text" in refused(blank, ["t", 4, "no"])
    assert "in use" in refused(blank, ["+", 1, None, 11, el("p", {}, ["a"])], ["+", 1, None, 12, "b"])


def test_attributes_are_set_and_removed(blank: Any) -> None:
    patch(blank, ["+", 1, None, 2, el("a", {"href": "#x", "aria-label": "go", "data-seat-id": "3", "xml:lang": "it"})])
    patch(blank, ["a", 2, "aria-label", "went"], ["a", 2, "href", None], ["a", 2, "role", "link"], ["a", 2, "tabindex", 0])
    attrs = blank.evaluate("() => Object.fromEntries([...document.querySelector('#app a').attributes].map(a => [a.name, a.value]))")
    assert attrs == {"aria-label": "went", "data-seat-id": "3", "xml:lang": "it", "role": "link", "tabindex": "0"}


def test_props_are_set(blank: Any) -> None:
    form = el("form", {}, [
        el("input", {"id": "t"}, [], p={"value": "abc"}),
        el("input", {"id": "c", "type": "checkbox"}, [], p={"checked": True, "indeterminate": True}),
        el("select", {"id": "s"}, [el("option", {}, ["a"]), el("option", {}, ["b"]), el("option", {}, ["c"])], p={"value": "b"}),
        el("details", {"id": "d"}, [el("summary", {}, ["more"]), "body"], p={"open": True}),
    ])
    patch(blank, ["+", 1, None, 2, form])
    state = "() => ({t: t.value, c: c.checked, ci: c.indeterminate, s: s.value, d: d.open, attr: t.getAttribute('value')})"
    assert blank.evaluate(state) == {"t": "abc", "c": True, "ci": True, "s": "b", "d": True, "attr": None}
    # ids: form 2, t 3, c 4, s 5, options 6 7 8 with texts 7 9 11… (option a 6, "a" 7, b 8, "b" 9, c 10, "c" 11)
    patch(blank, ["p", 3, "value", "xyz"], ["p", 4, "checked", False], ["p", 4, "indeterminate", False],
          ["p", 5, "value", "c"], ["p", 12, "open", False], ["p", 10, "selected", True])
    assert blank.evaluate(state) == {"t": "xyz", "c": False, "ci": False, "s": "c", "d": False, "attr": None}


def test_a_prop_equal_to_what_the_user_typed_is_not_written(blank: Any) -> None:
    patch(blank, ["+", 1, None, 2, el("input", {"id": "t"}, [], p={"value": ""})],
          ["+", 1, None, 3, el("input", {"id": "c", "type": "checkbox"})])
    blank.type("#t", "hello")
    blank.click("#c")
    # count the writes the patcher makes from now on, and put the caret inside the typed text
    blank.evaluate("""() => {
      window.writes = [];
      for (const [id, name] of [['t', 'value'], ['c', 'checked']]) {
        const el = document.getElementById(id);
        const proto = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, name);
        Object.defineProperty(el, name, {configurable: true, get() { return proto.get.call(this); },
                                         set(v) { window.writes.push([id, v]); proto.set.call(this, v); }});
      }
      t.focus(); t.setSelectionRange(2, 2);
    }""")
    # the worker learnt the typed value from the input event and renders it back: nothing is written
    patch(blank, ["p", 2, "value", "hello"], ["p", 3, "checked", True])
    blank.keyboard.type("X")
    assert blank.evaluate("() => [t.value, c.checked, window.writes]") == ["heXllo", True, []]
    # a different value is written
    patch(blank, ["p", 2, "value", "bye"], ["p", 3, "checked", False])
    assert blank.evaluate("() => [t.value, c.checked, window.writes]") == ["bye", False, [["t", "bye"], ["c", False]]]


def test_style_goes_through_cssom(blank: Any) -> None:
    patch(blank, ["+", 1, None, 2, el("div", {"id": "box"}, ["x"], s="color: rgb(255, 0, 0); margin-left: 3px")])
    computed = "() => { const s = getComputedStyle(box); return [s.color, s.marginLeft]; }"
    assert blank.evaluate(computed) == ["rgb(255, 0, 0)", "3px"]
    patch(blank, ["s", 2, "color: rgb(0, 0, 255)"])
    assert blank.evaluate(computed) == ["rgb(0, 0, 255)", "0px"]
    patch(blank, ["s", 2, ""])
    assert blank.evaluate("() => box.style.cssText") == ""


def test_svg_elements_are_in_the_svg_namespace(blank: Any) -> None:
    tree = el("svg", {"viewBox": "0 0 10 10", "width": "40"}, [
        el("circle", {"cx": "5", "cy": "5", "r": "3", "class": "dot"}, [], n="svg", s="fill: rgb(0, 128, 0)"),
        el("text", {"x": "1", "y": "9"}, ["A"], n="svg"),
        el("foreignObject", {}, [], n="svg"),
    ], n="svg")
    patch(blank, ["+", 1, None, 2, tree], ["+", 1, None, 10, el("div")])
    ns = blank.evaluate("() => [...document.querySelectorAll('#app *')].map(e => [e.localName, e.namespaceURI])")
    svg, html = "http://www.w3.org/2000/svg", "http://www.w3.org/1999/xhtml"
    assert ns == [["svg", svg], ["circle", svg], ["text", svg], ["foreignObject", svg], ["div", html]]
    assert blank.evaluate("() => document.querySelector('circle').getBBox().width") == 6
    assert blank.evaluate("() => getComputedStyle(document.querySelector('circle')).fill") == "rgb(0, 128, 0)"
    patch(blank, ["a", 3, "r", "4"], ["t", 5, "B"])
    assert blank.evaluate("() => [document.querySelector('circle').getAttribute('r'),"
                          " document.querySelector('text').textContent]") == ["4", "B"]


def test_moves_reorder_children_and_keep_focus(blank: Any) -> None:
    items = [el("li", {"id": name}, [el("button", {"id": "b" + name}, [name])]) for name in "abc"]
    patch(blank, ["+", 1, None, 2, el("ul", {}, items)], ["+", 1, None, 12, el("ol")])
    # ul 2; li a 3, button 4, "a" 5; li b 6 …; li c 9 …
    order = "() => [...document.querySelectorAll('#app ul > li')].map(li => li.id).join('')"
    blank.focus("#bb")
    patch(blank, [">", 9, 2, 3])
    assert blank.evaluate(order) == "cab"
    patch(blank, [">", 3, 2, None], [">", 6, 2, 9])
    assert blank.evaluate(order) == "bca"
    assert blank.evaluate("() => document.activeElement.id") == "bb"
    patch(blank, [">", 6, 12, None])
    assert blank.evaluate(order) == "ca"
    assert blank.evaluate("() => [document.querySelector('ol > li').id, document.activeElement.id]") == ["b", "bb"]
    patch(blank, ["t", 8, "moved"])
    assert blank.evaluate("() => bb.textContent") == "moved"


def test_removal_forgets_the_subtree_ids(blank: Any) -> None:
    patch(blank, ["+", 1, None, 2, el("div", {"id": "gone"}, [el("span", {}, ["t"])])], ["+", 1, None, 5, el("p", {}, ["kept"])])
    patch(blank, ["-", 2])
    assert markup(blank) == "<p>kept</p>"
    for op in (["t", 4, "x"], ["a", 3, "title", "x"], ["-", 2], [">", 5, 2, None], ["+", 3, None, 9, "x"]):
        error = refused(blank, op)
        assert "unknown id" in error and json.dumps(op, separators=(",", ":")) in error, error
    # the numbers are free again
    patch(blank, ["+", 1, None, 2, el("i", {}, ["new"])], ["t", 3, "renewed"], ["-", 6])
    assert markup(blank) == "<p></p><i>renewed</i>"


REFUSED = [
    (["+", 1, None, 2, el("button", {"onclick": "alert(1)"}, ["x"])], "onclick"),
    (["+", 1, None, 2, el("div", {}, [el("img", {"OnError": "alert(1)"})])], "OnError"),
    (["+", 1, None, 2, el("div", {"style": "color: red"})], "style"),
    (["+", 1, None, 2, el("div", {"a b": "1"})], "a b"),
    (["+", 1, None, 2, el("img src=x", {})], "img src=x"),
    (["+", 1, None, 2, el("1div", {})], "1div"),
    (["+", 1, None, 2, el("<b>", {})], "<b>"),
    (["+", 1, None, 2, el("div", {}, [el("input", {}, [], p={"innerHTML": "<b>x</b>"})])], "innerHTML"),
    (["+", 1, None, 2, el("div", {}, [], p={"modal": True})], "modal"),
    (["+", 1, None, 2, el("div", {}, [], n="math")], "math"),
    (["+", 1, None, 2, el("div", {}, [7])], "7"),
    (["a", 1, "onclick", "alert(1)"], "onclick"),
    (["a", 1, "STYLE", "color: red"], "STYLE"),
    (["p", 1, "outerHTML", "<b>x</b>"], "outerHTML"),
    (["z", 1], "unknown op"),
    ("+", "an op must be a list"),
    (["+", 1, None, "2", "x"], "not an integer"),
]


def test_invalid_ops_are_refused(blank: Any) -> None:
    patch(blank, ["+", 1, None, 20, el("p", {}, ["before"])])
    for bad, why in REFUSED:
        error = refused(blank, bad, ["a", 1, "data-after", "applied"], ["+", 1, None, 30, "after"])
        assert why in error and "scarabPatch" in error, error
        # the refused op applied nothing, and nothing after it ran
        assert markup(blank) == "<p>before</p>", bad
        assert blank.evaluate("() => [document.querySelectorAll('[onclick], [onerror], [style]').length,"
                              " app.hasAttribute('data-after')]") == [0, False], bad
    # the ops before a refused one stay
    assert "unknown op" in refused(blank, ["t", 21, "before!"], ["z"]) and markup(blank) == "<p>before!</p>"


def test_the_script_has_no_eval_nor_markup() -> None:
    code = PATCH_JS.read_text(encoding="utf-8")
    for word in ("eval(", "new Function", "Function(", "innerHTML", "outerHTML", "insertAdjacentHTML", "document.write"):
        assert word not in code, word
    assert code.count("\n") <= 300, "patch.js is meant to stay small (about 300 lines)"


def test_the_pages_load_it_and_the_build_ships_it(server: str) -> None:
    for page in ("index.html", "embed.html"):
        text = (ROOT / page).read_text(encoding="utf-8")
        assert '<script src="./web/shell/patch.js"></script>\n  <script src="./web/shell/boot.js"></script>' in text, page
    dist = ROOT / "dist"
    assert (dist / "web" / "shell" / "patch.js").read_bytes() == PATCH_JS.read_bytes()
    assert '"web/shell/patch.js"' in (dist / "sw.js").read_text(encoding="utf-8")


# --- after-directives, dialogs, mounting ---------------------------------------------------------------
def test_after_focus_title_and_lang(blank: Any) -> None:
    patch(blank, ["+", 1, None, 2, el("button", {"id": "later"}, ["x"])],
          after={"focus": "later", "title": "Scarab — t", "lang": "it"})
    assert blank.evaluate("() => [document.activeElement.id, document.title, document.documentElement.lang]") == \
        ["later", "Scarab — t", "it"]
    patch(blank, after={"focus": "nowhere"})
    assert blank.evaluate("() => document.activeElement.id") == "later"


def test_a_modal_dialog_opens_closes_and_gives_focus_back(blank: Any) -> None:
    blank.focus("#outside")
    dialog = el("dialog", {"id": "dlg"}, [el("p", {}, ["Sure?"]), el("input", {"id": "field"}), el("button", {"id": "ok"}, ["OK"])],
                p={"modal": True})
    patch(blank, ["+", 1, None, 2, dialog], after={"focus": "ok"})
    state = "() => [dlg.open, dlg.matches(':modal'), document.activeElement.id]"
    assert blank.evaluate(state) == [True, True, "ok"]
    patch(blank, ["p", 2, "modal", True])  # already open: nothing happens
    assert blank.evaluate(state) == [True, True, "ok"]
    patch(blank, ["p", 2, "modal", False])
    assert blank.evaluate(state) == [False, False, "outside"]
    patch(blank, ["p", 2, "modal", True])
    assert blank.evaluate(state) == [True, True, "field"]
    # removed while open: closed first, focus back where it was before it opened
    patch(blank, ["-", 2])
    assert blank.evaluate("() => [document.querySelector(':modal, dialog'), document.activeElement.id]") == [None, "outside"]
    # a dialog created and removed by one patch never opens
    patch(blank, ["+", 1, None, 10, el("div", {}, [el("dialog", {"id": "dlg"}, ["x"], p={"modal": True})])], ["-", 10])
    assert blank.evaluate("() => document.querySelector('dialog')") is None


def test_mount_and_unmount(blank: Any) -> None:
    listen(blank)
    blank.evaluate("() => scarabPatch.mount(100, other)")
    assert markup(blank, "#other") == ""
    patch(blank, ["+", 100, None, 101, el("button", {"id": "ob"}, ["b"], o={"click": "ob.click"})],
          ["o", 100, {"click": "other.click"}, {}])
    blank.click("#ob")
    blank.click("#other", position={"x": 300, "y": 5})
    assert [m["h"] for m in messages(blank)] == ["ob.click", "other.click"]
    blank.evaluate("() => scarabPatch.unmount(100)")
    assert markup(blank, "#other") == '<button id="ob">b</button>'  # the DOM stays, the ids go
    assert "unknown id 102" in refused(blank, ["t", 102, "x"])
    assert "unknown id 100" in refused(blank, ["+", 100, None, 103, "x"])
    blank.click("#ob")
    assert len(messages(blank)) == 2
    # #app (node 1) is untouched; mounting again clears and numbers afresh
    patch(blank, ["+", 1, None, 2, "app"])
    blank.evaluate("() => scarabPatch.mount(100, other)")
    patch(blank, ["+", 100, None, 101, "again"])
    assert [markup(blank, "#other"), markup(blank)] == ["again", "app"]
    # mounting an id again moves it to the new element, forgetting the old one's subtree
    blank.evaluate("() => scarabPatch.mount(1, other)")
    assert "unknown id 2" in refused(blank, ["t", 2, "x"])
    patch(blank, ["+", 1, None, 2, "here"])
    assert [markup(blank, "#other"), markup(blank)] == ["here", "app"]


# --- events → messages -------------------------------------------------------------------------------------
def test_a_click_finds_the_nearest_handler_and_collects_data_nearest_first(blank: Any) -> None:
    listen(blank)
    tree = el("div", {"data-board": "thot", "data-sq": "outer"}, [
        el("button", {"id": "btn", "data-sq": "7", "data-x": "btn"}, [
            el("div", {"data-sq": "inner"}, [el("span", {"id": "label", "data-seat-id": "s1"}, ["press"])]),
        ], o={"click": "h.btn"}),
    ], o={"click": "h.outer", "keydown": "h.key"})
    patch(blank, ["+", 1, None, 2, tree])
    blank.click("#label")
    blank.click("#label", modifiers=["Shift", "Alt"])
    got = messages(blank)
    first, second = (m for m in got if m["type"] == "click")
    # the modifiers' keydowns go up past the button (no keydown handler) to the outer div's
    alt = next(m for m in got if m["type"] == "keydown")
    assert alt["h"] == "h.key" and alt["key"] == "Alt" and alt["data"] == {"sq": "7", "x": "btn", "board": "thot"}
    box = blank.evaluate("() => { const r = label.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; }")
    assert first["h"] == "h.btn" and first["type"] == "click"
    assert first["data"] == {"seat-id": "s1", "sq": "inner", "x": "btn"}  # not the outer div's: the walk stops at the handler
    assert list(first["data"]) == ["seat-id", "sq", "x"]
    assert first["focus"] == "btn" and first["button"] == 0 and first["detail"] == 1 and first["pointer"] == "mouse"
    assert first["rect"] == box
    assert box["x"] <= first["x"] <= box["x"] + box["w"] and box["y"] <= first["y"] <= box["y"] + box["h"]
    assert isinstance(first["time"], (int, float)) and first["time"] > 0
    assert "mods" not in first and "key" not in first and "value" not in first
    assert second["mods"] == ["alt", "shift"]
    # a click on the text node itself starts from its element
    blank.evaluate("() => label.firstChild.dispatchEvent(new MouseEvent('click', {bubbles: true}))")
    assert messages(blank)[-1]["data"]["seat-id"] == "s1"


def test_no_message_without_a_handler(blank: Any) -> None:
    listen(blank)
    patch(blank, ["+", 1, None, 2, el("div", {"data-sq": "1"}, [el("button", {"id": "plain"}, ["x"])], o={"keydown": "k"})])
    blank.click("#plain")
    blank.click("#outside")
    blank.dispatch_event("#app", "click")
    assert messages(blank) == []


def test_keydown_prevents_only_the_declared_keys(blank: Any) -> None:
    listen(blank)
    tree = el("div", {"id": "outer"}, [
        el("div", {"id": "board", "tabindex": "0"}, [
            el("div", {"id": "cell", "tabindex": "0", "data-sq": "3"}, ["c"], x={"keydown": ["Enter"]}),
        ], o={"keydown": "board/keydown"}, x={"keydown": ["ArrowUp", "Escape"], "keyup": True}),
    ], x={"keydown": ["PageDown"]})
    patch(blank, ["+", 1, None, 2, tree])
    blank.evaluate("() => { window.seen = []; window.addEventListener('keydown', e => seen.push([e.key, e.defaultPrevented])); }")
    blank.focus("#board")
    for key in ("ArrowUp", "ArrowDown", "Shift+Escape", "PageDown"):
        blank.keyboard.press(key)
    blank.focus("#cell")
    blank.keyboard.press("Enter")
    blank.keyboard.press("ArrowUp")
    # the outer div's PageDown is above the handler: not reached
    assert blank.evaluate("() => seen") == [["ArrowUp", True], ["ArrowDown", False], ["Shift", False], ["Escape", True],
                                           ["PageDown", False], ["Enter", True], ["ArrowUp", True]]
    got = messages(blank)
    assert [(m["h"], m["key"], m.get("mods")) for m in got] == [
        ("board/keydown", "ArrowUp", None), ("board/keydown", "ArrowDown", None), ("board/keydown", "Shift", ["shift"]),
        ("board/keydown", "Escape", ["shift"]), ("board/keydown", "PageDown", None),
        ("board/keydown", "Enter", None), ("board/keydown", "ArrowUp", None)]
    assert got[0]["focus"] == "board" and got[0]["data"] == {} and "rect" not in got[0]
    assert got[-1]["focus"] == "cell" and got[-1]["data"] == {"sq": "3"} and "x" not in got[-1]


def test_submit_carries_the_form_values(blank: Any) -> None:
    listen(blank)
    form = el("form", {"id": "f", "data-form": "seats"}, [
        el("input", {"id": "name"}, [], p={"value": "Ann"}),
        el("input", {"id": "agree", "type": "checkbox"}, [], p={"checked": True}),
        el("input", {"id": "r1", "type": "radio", "name": "r"}),
        el("input", {"id": "r2", "type": "radio", "name": "r"}, [], p={"checked": True}),
        el("select", {"id": "sel"}, [el("option", {}, ["a"]), el("option", {}, ["b"])], p={"value": "b"}),
        el("textarea", {"id": "notes"}, [], p={"value": "n"}),
        el("fieldset", {"id": "fs"}, [el("input", {}, [], p={"value": "no id"})]),
        el("button", {"id": "go", "type": "submit"}, ["Go"]),
    ], o={"submit": "f/submit"}, x={"submit": True})
    patch(blank, ["+", 1, None, 2, form])
    blank.fill("#name", "Bea")
    blank.click("#go")
    (msg,) = messages(blank)
    assert msg["h"] == "f/submit" and msg["type"] == "submit" and msg["data"] == {"form": "seats"}
    assert msg["values"] == {"name": "Bea", "agree": True, "r1": False, "r2": True, "sel": "b", "notes": "n", "go": ""}
    assert "value" not in msg and "x" not in msg
    assert blank.evaluate("() => location.pathname") == "/" + HOST_PATH


def test_input_and_change_carry_the_control_value(blank: Any) -> None:
    listen(blank)
    patch(blank, ["+", 1, None, 2, el("div", {}, [
        el("input", {"id": "q", "data-field": "query"}, [], o={"input": "q/input"}),
        el("input", {"id": "c", "type": "checkbox"}, [], o={"change": "c/change"}),
        el("select", {"id": "s"}, [el("option", {}, ["a"]), el("option", {}, ["b"])], o={"change": "s/change"}),
    ])])
    blank.type("#q", "abc")
    blank.click("#c")
    blank.click("#c")
    blank.select_option("#s", "b")
    got = messages(blank)
    assert [(m["h"], m["value"], m.get("checked")) for m in got] == [
        ("q/input", "a", None), ("q/input", "ab", None), ("q/input", "abc", None),
        ("c/change", "on", True), ("c/change", "on", False), ("s/change", "b", None)]
    assert got[0]["focus"] == "q" and got[0]["data"] == {"field": "query"} and set(got[0]["rect"]) == {"x", "y", "w", "h"}


def test_events_before_listen_are_queued(blank: Any) -> None:
    patch(blank, ["+", 1, None, 2, el("button", {"id": "b"}, ["x"], o={"click": "b/click"})])
    blank.click("#b")
    blank.click("#b", click_count=2)
    listen(blank)
    assert [(m["h"], m["detail"]) for m in messages(blank)] == [("b/click", 1), ("b/click", 1), ("b/click", 2)]
    # at most 200 wait, the oldest dropped
    blank.evaluate("() => scarabPatch.listen(null)")
    blank.evaluate("() => { for (let i = 0; i < 205; i++) { b.setAttribute('data-i', String(i)); b.click(); } }")
    listen(blank)
    got = messages(blank)
    assert len(got) == 200 and got[0]["data"] == {"i": "5"} and got[-1]["data"] == {"i": "204"}


def test_pointer_moves_are_sent_when_what_is_under_the_pointer_changes(blank: Any) -> None:
    listen(blank)
    squares = [el("div", {"data-sq": str(i)}, [], s="width: 100px; height: 100px") for i in range(2)]
    tree = el("div", {"id": "grid"}, [*squares, el("div", {}, [], s="width: 100px; height: 100px")],
              o={"pointermove": "grid/move", "pointerdown": "grid/down"})
    patch(blank, ["+", 1, None, 2, tree])
    blank.mouse.move(10, 10)
    blank.mouse.move(90, 90, steps=5)  # the same square
    blank.mouse.move(50, 150, steps=5)  # the second square
    blank.mouse.down()
    blank.mouse.move(50, 250, steps=5)  # no data-*
    blank.mouse.move(50, 50)  # the first again
    blank.mouse.up()
    got = messages(blank)
    assert [(m["type"], m["data"].get("sq")) for m in got] == [
        ("pointermove", "0"), ("pointermove", "1"), ("pointerdown", "1"), ("pointermove", None), ("pointermove", "0")]
    assert got[0]["pointer"] == "mouse" and got[1]["rect"]["h"] == 100


def test_events_that_do_not_bubble_are_seen(blank: Any) -> None:
    listen(blank)
    details = el("details", {"id": "more", "data-part": "rules"}, [el("summary", {"id": "sum"}, ["More"])],
                 o={"toggle": "more/toggle"})
    patch(blank, ["+", 1, None, 2, details],
          ["+", 1, None, 5, el("dialog", {"id": "dlg"}, [el("button", {"id": "ok"}, ["OK"])], p={"modal": True},
                               o={"cancel": "dlg/cancel", "close": "dlg/close"}, x={"cancel": True})])
    blank.keyboard.press("Escape")
    assert blank.evaluate("() => dlg.open") is True  # the cancel was declared prevented
    patch(blank, ["p", 5, "modal", False])
    blank.click("#sum")
    blank.wait_for_function("() => window.got.length >= 3")
    got = messages(blank)
    # the close is the patcher's own (modal false): a handler of close hears it too
    assert [(m["h"], m["type"]) for m in got] == [("dlg/cancel", "cancel"), ("dlg/close", "close"),
                                                  ("more/toggle", "toggle")]
    assert got[2]["data"] == {"part": "rules"} and blank.evaluate("() => more.open") is True
