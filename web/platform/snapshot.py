"""Instant resume: a static snapshot of a game page, drawn by ``web/shell/boot.js`` before Python starts.

At every autosave (``Session.after_save``) the game page stores, under its own key
(``scarab:snap:<id>``, ``scarab:embed:snap:<id>`` in an embedded frame), a small JSON description of
what the page shows: the head (whose turn, the scores, the last move), the board and — only where
the page itself would show it — the hand. ``boot.js`` turns it into DOM with ``textContent`` only,
from a short list of tags, classes and attributes, so a snapshot is outside data that can never
become markup, and Python replaces it once it is ready.

A node is a list ``[tag, class, text, children, attrs]`` (trailing empties left out); ``el`` makes one.
A view offers the optional hook ``UI.snapshot(page) -> dict`` with ``board`` and ``hand`` nodes and,
optionally, ``status`` / ``scores`` / ``last``; it draws from the state the way its ``render`` does and
decides no rule. Privacy is decided here, the way ``GamePage.needs_cover`` does: in a private game
(Scarabeo's racks) with two or more people, a person to move gets the cover ("Pass the device to
NAME") and nothing else; no hand is kept unless exactly one person plays.

Pure Python: tested in CPython (``tests/web/test_snapshot.py``).
"""

from __future__ import annotations

import json
from typing import Any, Callable

VERSION = 1
#: A snapshot is at most this many characters (Scarabeo's 17×17 board is about 15,000).
MAX_CHARS = 120_000
#: At most this many games keep a snapshot (the most recently saved): snapshots never crowd out saves.
MAX_SNAPSHOTS = 8
MAX_TEXT = 300
TAGS = ("div", "span", "p", "ul", "li", "b", "strong", "small", "h2", "section")
ATTRS = ("role", "aria-label", "aria-hidden")

Node = list[Any]


def snap_prefix(save_prefix: str) -> str:
    """``scarab:save:`` → ``scarab:snap:`` (and ``scarab:embed:save:`` → ``scarab:embed:snap:``)."""
    return save_prefix[: -len("save:")] + "snap:" if save_prefix.endswith("save:") else save_prefix + "snap:"


def el(tag: str, cls: str | None = None, text: Any = None, *children: Any, **attrs: Any) -> Node:
    """One node; ``aria_label="…"`` becomes ``aria-label``; ``None`` children are left out."""
    if tag not in TAGS:
        raise ValueError(f"tag {tag!r} is not drawn by boot.js")
    kids = [c for c in children if c is not None]
    node: Node = [tag, cls or "", None if text is None else str(text)[:MAX_TEXT], kids,
                  {k.replace("_", "-") if not k.startswith("__") else "--" + k[2:]: str(v)
                   for k, v in attrs.items() if v is not None}]
    while node and node[-1] in (None, "", [], {}) and len(node) > 1:
        node.pop()
    return node


def _scoreline(t: Callable[..., str], names: list[str], scores: list[Any], mover: int | None,
               last: str | None) -> Node:
    """The same one line of scores as ``GamePage.scoreline``."""
    seats = el("ul", "scoreline-seats", None,
               *[el("li", "to-move" if i == mover else None, None,
                    el("span", "sl-name", name), el("span", None, " "), el("b", "sl-score", score))
                 for i, (name, score) in enumerate(zip(names, scores))],
               aria_label=t("play.scoreline"))
    return el("div", "scoreline", None, seats, el("p", "sl-last", t("play.last", text=last)) if last else None)


def build(page: Any) -> dict[str, Any] | None:
    """The snapshot of a game page now (``page.session``, ``page.ui``, ``page.t``), or None."""
    session = page.session
    if session is None:
        return None
    ui, t, state = page.ui, page.t, session.state
    over = state.is_over()
    mover = None if over else state.to_move()
    names = [seat.name for seat in session.seats]
    snap: dict[str, Any] = {"v": VERSION, "game": session.game, "id": session.save.id,
                            "title": session.save.title, "updated": session.save.updated,
                            "lang": getattr(t, "lang", "en"), "cls": f"{ui.GAME}-snap"}
    # the Continue list drawn before Python starts names the game as Python's list does (optional
    # ``page.listing()``: ``web.platform.session.Listing``); without it boot.js shows the title
    shown = page.listing() if hasattr(page, "listing") else None
    if shown is not None:
        snap["heading"], snap["line"] = shown.heading, shown.line
    private = bool(getattr(ui, "PRIVATE", False))
    humans = session.humans()
    if (private and not over and not session.replay_only and humans >= 2 and mover is not None
            and not session.seats[mover].computer):
        # the pass-and-play cover, exactly: nothing of the board or of any rack
        snap["cover"] = {"title": t("play.cover.title", name=names[mover]), "body": t("play.cover.body")}
        return snap
    hook = getattr(ui, "snapshot", None)
    parts: dict[str, Any] = hook(page) if hook is not None else {}
    status = parts.get("status")
    if status is None:
        status = t("play.over") if over else t("play.turn", name=names[mover]) if mover is not None else ""
    scores = parts.get("scores")
    head = el("div", "game-head", None, el("p", "snap-status", status),
              _scoreline(t, names, list(scores), mover, parts.get("last")) if scores is not None else None)
    snap["head"] = head
    if isinstance(parts.get("page_class"), str):
        snap["cls"] = parts["page_class"]
    if parts.get("board") is not None:
        snap["board"] = parts["board"]
    # a private game shows a hand only to its one person (the view's own rule, kept here too)
    if parts.get("hand") is not None and (not private or (humans == 1 and not over and not session.replay_only)):
        snap["hand"] = parts["hand"]
    return snap


def encode(snap: dict[str, Any]) -> str | None:
    """The stored text, or None when it is over ``MAX_CHARS`` (a snapshot too big is not kept)."""
    text = json.dumps(snap, ensure_ascii=False, separators=(",", ":"))
    return text if len(text) <= MAX_CHARS else None


def store(kv: Any, save_prefix: str, page: Any) -> bool:
    """Build and store the page's snapshot; prune the oldest beyond ``MAX_SNAPSHOTS``. Never raises:
    a snapshot is a convenience, and its failure must not fail the save it follows."""
    try:
        session = page.session
        prefix = snap_prefix(save_prefix)
        key = prefix + session.save.id
        snap = build(page)
        text = encode(snap) if snap is not None else None
        if text is None:
            kv.remove(key)  # never leave an older picture of this game behind
            return False
        kv.set(key, text)
        prune(kv, save_prefix)
        return True
    except Exception:
        try:
            kv.remove(prefix + page.session.save.id)
        except Exception:
            pass
        return False


def prune(kv: Any, save_prefix: str, keep: int = MAX_SNAPSHOTS) -> None:
    """Keep the ``keep`` most recently saved snapshots, and none of a game that is gone."""
    prefix = snap_prefix(save_prefix)
    dated = []
    for key in kv.keys():
        if not key.startswith(prefix):
            continue
        save_id = key[len(prefix):]
        if kv.get(save_prefix + save_id) is None:
            kv.remove(key)
            continue
        try:
            updated = json.loads(kv.get(key) or "{}").get("updated", 0)
            updated = updated if isinstance(updated, int) else 0
        except (ValueError, AttributeError):
            updated = 0
        dated.append((updated, key))
    dated.sort(reverse=True)
    for _updated, key in dated[keep:]:
        kv.remove(key)


def drop_all(kv: Any, save_prefix: str) -> None:
    """Free the room snapshots take (the storage is full and a save comes first)."""
    prefix = snap_prefix(save_prefix)
    for key in list(kv.keys()):
        if key.startswith(prefix):
            kv.remove(key)
