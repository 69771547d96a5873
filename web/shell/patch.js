// The main thread's half of the view tree (issue 38, docs/worker.md section 2): Python diffs its tree
// of plain-data nodes and sends ops; this applies them to the DOM and turns DOM events into messages.
// Never markup: elements are made one by one and attributes set by name, so a view's string can only
// ever be text; style goes through CSSOM because the site's CSP refuses style attributes.
(() => {
  "use strict";
  if (window.scarabPatch) return; // loaded twice: the first keeps its ids, and events are heard once

  const SVG_NS = "http://www.w3.org/2000/svg";
  const TAG = /^[a-zA-Z][a-zA-Z0-9-]*$/;
  const ATTR = /^[a-zA-Z_:][-a-zA-Z0-9_:.]*$/;
  const PROPS = new Set(["value", "checked", "selected", "open", "indeterminate"]);
  const EVENTS = ["click", "dblclick", "input", "change", "submit", "keydown", "keyup", "focusin", "focusout",
    "pointerdown", "pointermove", "pointerup", "pointercancel", "contextmenu", "toggle", "cancel", "close"];
  const MODS = [["alt", "altKey"], ["ctrl", "ctrlKey"], ["meta", "metaKey"], ["shift", "shiftKey"]];
  const QUEUE_MAX = 200;

  const nodes = new Map(); // id → Node
  const ids = new WeakMap(); // Node → id: events ask "is this ours?" without a lookup by number
  const handlers = new WeakMap(); // Element → {on, prevent}
  const opened = new Set(); // dialogs this patcher opened with showModal
  const returnTo = new WeakMap(); // dialog → the element that had focus before it opened
  let modal = new Map(); // this apply's modal requests, dialog → wanted; settled after the ops
  let refocus = []; // elements to give focus back to once this apply's dialogs are closed

  const has = (obj, key) => obj != null && Object.prototype.hasOwnProperty.call(obj, key);
  const brief = (value) => { const s = JSON.stringify(value); return s.length > 200 ? s.slice(0, 200) + "…" : s; };
  function fail(what) { throw new Error(what); }

  const node = (id) => nodes.get(id) || fail("unknown id " + brief(id));
  const isElement = (n) => n.nodeType === Node.ELEMENT_NODE;
  const element = (id) => { const n = node(id); return isElement(n) ? n : fail("node " + id + " is not an element"); };
  const given = (v) => v !== null && v !== undefined;
  function remember(id, n) { nodes.set(id, n); ids.set(n, id); }
  // Walks the DOM rather than trusting a list of ids: what was moved out of the subtree stays known.
  function forget(root) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let n = root; n; n = walker.nextNode()) {
      const id = ids.get(n);
      if (id !== undefined && nodes.get(id) === n) nodes.delete(id);
      ids.delete(n);
      handlers.delete(n);
    }
    for (const d of opened) if (root.contains(d)) opened.delete(d);
  }

  function setAttr(el, name, value) {
    // on* would be script; style is refused by the CSP (and would bypass "s"): both are errors, not skips
    if (typeof name !== "string" || !ATTR.test(name) || /^on/i.test(name) || name.toLowerCase() === "style") {
      fail("attribute " + brief(name) + " refused");
    }
    if (given(value)) el.setAttribute(name, String(value));
    else el.removeAttribute(name);
  }

  // Set only when different from what the element holds now: the user may have typed that very value
  // already, and the field is theirs while they type.
  function setProp(el, name, value) {
    if (name === "modal") {
      if (el.localName !== "dialog" || el.namespaceURI === SVG_NS) fail("prop modal on <" + el.localName + ">");
      modal.set(el, Boolean(value));
    } else if (!PROPS.has(name)) {
      fail("prop " + brief(name) + " refused");
    } else if (name === "value") {
      const text = given(value) ? String(value) : "";
      if (String(el.value) !== text) el.value = text;
    } else if (el[name] !== Boolean(value)) {
      el[name] = Boolean(value);
    }
  }

  function setHandlers(el, on, prevent) {
    on = on || {};
    prevent = prevent || {};
    if (typeof on !== "object" || typeof prevent !== "object") fail("handler maps must be objects");
    for (const type in on) if (typeof on[type] !== "string") fail("handler id for " + brief(type) + " is not a string");
    for (const [type, p] of Object.entries(prevent)) {
      const ok = typeof p === "boolean" || (Array.isArray(p) && p.every((k) => typeof k === "string"));
      if (!ok) fail("prevent for " + brief(type) + " must be true or a list of keys");
    }
    if (Object.keys(on).length || Object.keys(prevent).length) handlers.set(el, { on, prevent });
    else handlers.delete(el);
  }

  // Builds a detached subtree and lists its nodes in pre-order (the order the worker numbered them);
  // nothing is inserted or numbered until the whole subtree has passed validation.
  function build(spec, made) {
    if (typeof spec === "string") return made[made.push(document.createTextNode(spec)) - 1];
    if (!Array.isArray(spec) || spec.length < 3 || spec.length > 4) fail("bad node " + brief(spec));
    const [tag, attrs, children] = spec;
    const extra = spec[3] || {};
    if (typeof tag !== "string" || !TAG.test(tag)) fail("tag " + brief(tag) + " refused");
    if (extra.n !== undefined && extra.n !== "svg") fail("namespace " + brief(extra.n) + " refused");
    if (attrs !== null && (typeof attrs !== "object" || Array.isArray(attrs))) fail("attributes of <" + tag + "> refused");
    if (!Array.isArray(children)) fail("children of <" + tag + "> are not a list");
    const el = extra.n === "svg" ? document.createElementNS(SVG_NS, tag) : document.createElement(tag);
    made.push(el);
    for (const name in attrs) if (attrs[name] !== null) setAttr(el, name, attrs[name]);
    for (const child of children) el.appendChild(build(child, made));
    // props after the children: a select's value needs its options
    for (const name in extra.p) setProp(el, name, extra.p[name]);
    if (given(extra.s)) el.style.cssText = String(extra.s);
    if (extra.o || extra.x) setHandlers(el, extra.o, extra.x);
    return el;
  }

  // moveBefore keeps focus, scroll position and running animations; insertBefore (the fallback:
  // older browsers, or a node in another tree) loses focus, which is given back.
  function place(parent, n, before) {
    if (parent.moveBefore && n.isConnected && parent.isConnected) return parent.moveBefore(n, before);
    const focused = document.activeElement, hadFocus = focused && n.contains(focused);
    parent.insertBefore(n, before);
    if (hadFocus && focused.isConnected && document.activeElement !== focused) focused.focus({ preventScroll: true });
  }

  function closeModal(d) {
    opened.delete(d);
    const back = returnTo.get(d);
    returnTo.delete(d);
    if (!d.open) return; // closed by the user (Escape): the browser gave focus back already
    d.close();
    if (back) refocus.push(back);
  }

  function run(op) {
    if (!Array.isArray(op)) fail("an op must be a list");
    const before = (id) => (given(id) ? node(id) : null);
    switch (op[0]) {
      case "+": {
        const parent = element(op[1]), next = before(op[2]), first = op[3];
        if (!Number.isInteger(first)) fail("first id " + brief(first) + " is not an integer");
        const made = [];
        const root = build(op[4], made);
        for (let i = 0; i < made.length; i++) if (nodes.has(first + i)) fail("id " + (first + i) + " is in use");
        parent.insertBefore(root, next);
        made.forEach((n, i) => remember(first + i, n));
        break;
      }
      case "-": {
        const n = node(op[1]);
        // a dialog removed while open would take focus with it: closed first, focus goes back
        for (const d of opened) if (n.contains(d)) closeModal(d);
        n.remove();
        forget(n);
        break;
      }
      case ">": place(element(op[2]), node(op[1]), before(op[3])); break;
      case "a": setAttr(element(op[1]), op[2], op[3]); break;
      case "p": setProp(element(op[1]), op[2], op[3]); break;
      case "t": {
        const n = node(op[1]), text = String(op[2]);
        if (n.nodeType !== Node.TEXT_NODE) fail("node " + op[1] + " is not text");
        if (n.data !== text) n.data = text;
        break;
      }
      case "s": element(op[1]).style.cssText = given(op[2]) ? String(op[2]) : ""; break;
      case "o": setHandlers(element(op[1]), op[2], op[3]); break;
      default: fail("unknown op");
    }
  }

  // After all the ops, so that a dialog created and filled by one patch opens once, whole.
  function settleDialogs() {
    for (const [d, wanted] of modal) {
      if (!wanted) {
        if (opened.has(d) || d.open) closeModal(d);
      } else if (d.isConnected && !d.open) {
        returnTo.set(d, document.activeElement);
        opened.add(d);
        d.showModal();
      }
    }
    for (const el of refocus) if (el.isConnected) el.focus({ preventScroll: true });
  }

  function apply(json) {
    const patch = typeof json === "string" ? JSON.parse(json) : json;
    if (patch === null || typeof patch !== "object") fail("scarabPatch: a patch must be an object");
    const ops = patch.ops === undefined ? [] : patch.ops;
    if (!Array.isArray(ops)) fail("scarabPatch: ops must be a list");
    modal = new Map();
    refocus = [];
    for (const op of ops) {
      try { run(op); } catch (e) { throw new Error("scarabPatch: " + e.message + " in op " + brief(op), { cause: e }); }
    }
    settleDialogs();
    const after = patch.after || {};
    if (given(after.focus)) document.getElementById(String(after.focus))?.focus({ preventScroll: true });
    if (given(after.title)) document.title = String(after.title);
    if (given(after.lang)) document.documentElement.lang = String(after.lang);
  }

  function mount(rootId, el) {
    if (!Number.isInteger(rootId)) fail("scarabPatch.mount: id " + brief(rootId) + " is not an integer");
    if (!(el instanceof Element)) fail("scarabPatch.mount: not an element");
    unmount(rootId);
    forget(el); // mounted before under another id, or holding another root
    el.replaceChildren();
    remember(rootId, el);
  }

  function unmount(rootId) {
    if (nodes.has(rootId)) forget(nodes.get(rootId));
  }

  // --- events → messages ---------------------------------------------------------------------------
  const outbox = [];
  let listener = null, scheduled = false, lastMove = null;

  // Delivered in a microtask, never from inside apply() or listen(): a focus() or showModal() in a
  // patch fires focusin at once, and the caller must not be re-entered in the middle of its own patch.
  function schedule() {
    if (!listener || !outbox.length || scheduled) return;
    scheduled = true;
    queueMicrotask(flush);
  }
  function flush() {
    scheduled = false;
    try {
      while (listener && outbox.length) listener(outbox.shift());
    } finally {
      schedule(); // a listener that threw leaves the rest for the next turn
    }
  }
  function send(message) {
    outbox.push(message);
    if (outbox.length > QUEUE_MAX) outbox.shift(); // the newest say where the user is now
    schedule();
  }

  function formValues(form) {
    const values = {};
    for (const control of form.elements) {
      if (!control.id) continue;
      if (control.type === "checkbox" || control.type === "radio") values[control.id] = control.checked;
      else if ("value" in control) values[control.id] = String(control.value);
    }
    return values;
  }

  function onEvent(event) {
    const target = event.target;
    let el = target && target.nodeType === Node.TEXT_NODE ? target.parentNode : target;
    const data = {};
    let handler = null, boxed = null; // boxed: the nearest element with data-*, whose box is sent
    for (; el && isElement(el) && ids.has(el); el = el.parentNode) {
      for (const attr of el.attributes) {
        if (!attr.name.startsWith("data-")) continue;
        const key = attr.name.slice(5);
        if (!has(data, key)) data[key] = attr.value;
        boxed = boxed || el;
      }
      const h = handlers.get(el);
      if (h === undefined) continue;
      // declared, never decided later: the message is answered after the event is gone
      const p = has(h.prevent, event.type) ? h.prevent[event.type] : false;
      if (p === true || (Array.isArray(p) && p.includes(event.key))) event.preventDefault();
      if (has(h.on, event.type)) {
        handler = h.on[event.type];
        break;
      }
    }
    if (handler === null) return;
    if (event.type === "pointermove") {
      const where = JSON.stringify([handler, data]);
      if (where === lastMove) return; // one message per change of what is under the pointer
      lastMove = where;
    }
    const active = document.activeElement;
    const msg = { h: handler, type: event.type, data, focus: (active && active.id) || null, time: event.timeStamp };
    if (typeof event.key === "string") msg.key = event.key;
    const mods = MODS.filter(([, prop]) => event[prop] === true).map(([name]) => name);
    if (mods.length) msg.mods = mods;
    if (event instanceof MouseEvent) Object.assign(msg, { x: event.clientX, y: event.clientY, button: event.button });
    if (typeof event.detail === "number") msg.detail = event.detail;
    if (typeof event.pointerType === "string" && event.pointerType) msg.pointer = event.pointerType;
    if ([HTMLInputElement, HTMLSelectElement, HTMLTextAreaElement].some((kind) => target instanceof kind)) {
      msg.value = String(target.value);
      if (target.type === "checkbox" || target.type === "radio") msg.checked = target.checked;
    }
    if (event.type === "submit" && target instanceof HTMLFormElement) msg.values = formValues(target);
    if (boxed) {
      const r = boxed.getBoundingClientRect();
      msg.rect = { x: r.x, y: r.y, w: r.width, h: r.height };
    }
    send(JSON.stringify(msg));
  }

  for (const type of EVENTS) document.addEventListener(type, onEvent, true);

  window.scarabPatch = Object.freeze({
    mount, unmount, apply,
    listen(fn) { // a new listener replaces the old; null queues the messages again until the next
      listener = fn || null;
      schedule();
    },
  });
})();
