"""The Italian lexicon in the page: loaded once, in the background after first paint, and the
"check a word" panel that any page can open from the top bar."""

from __future__ import annotations

import asyncio
from typing import Any

from pyscript import document, window

from web.ui.dom import Scope, append, clear, h, modal

LEXICON_URL = "./data/it.dawg"
_loading: asyncio.Future[Any] | None = None


def lexicon() -> asyncio.Future[Any]:
    """The shared lexicon future: the first call starts the download, later calls wait for it."""
    global _loading
    if _loading is None:
        _loading = asyncio.ensure_future(_load())
    return _loading


async def _load() -> Any:
    from lexicon import Lexicon
    from web.platform import engines

    started = window.performance.now()
    response = await window.fetch(LEXICON_URL)
    if not response.ok:
        raise RuntimeError(f"{LEXICON_URL}: HTTP {response.status}")
    data = (await response.arrayBuffer()).to_bytes()
    fetched = window.performance.now()
    lex = Lexicon.from_bytes(data)
    # Kept for the start-up benchmark: download and load (bytes → automaton) times.
    window.scarabBoot.lexiconMs = f"{fetched - started:.1f},{window.performance.now() - fetched:.1f}"
    engines.FACTORY_KWARGS["scarabeo"] = {"word_list": lex}
    return lex


def check_words(lex: Any, text: str) -> list[tuple[str, str, str | None]]:
    """(word as typed, verdict 'valid' | 'abbreviation' | 'invalid', meaning) for each word typed."""
    from lexicon import normalise

    results = []
    for raw in text.replace(",", " ").split()[:20]:
        word = normalise(raw)
        meaning = lex.abbreviation(word) if word else None
        if meaning:
            results.append((raw, "abbreviation", meaning))
        elif word and lex.contains(word):
            results.append((raw, "valid", None))
        else:
            results.append((raw, "invalid", None))
    return results


async def open_panel(app: Any) -> None:
    t = app.t
    scope = Scope()
    field = h("input", {"type": "text", "id": "wordcheck-field", "autocomplete": "off", "autocapitalize": "characters",
                        "spellcheck": "false", "aria-label": t("wordcheck.field")})
    out = h("ul", {"id": "wordcheck-results", "class": "wordcheck-results", "aria-live": "polite"})

    async def run(_e: Any = None) -> None:
        clear(out)
        append(out, h("li", {"class": "muted", "text": t("wordcheck.loading")}))
        try:
            lex = await lexicon()
        except Exception as err:  # a missing or corrupt file: say so, keep the page working
            clear(out)
            append(out, h("li", {"class": "error", "text": t("wordcheck.unavailable", error=err)}))
            return
        clear(out)
        for raw, verdict, meaning in check_words(lex, str(field.value)):
            text = t(f"wordcheck.{verdict}", word=raw.upper(), meaning=meaning or "")
            append(out, h("li", {"class": f"verdict {verdict}", "text": text}))

    def on_key(event: Any) -> None:
        if event.key == "Enter":
            event.preventDefault()
            asyncio.ensure_future(run())

    scope.on(field, "keydown", on_key)
    check = h("button", {"type": "button", "class": "primary", "id": "wordcheck-go", "text": t("wordcheck.check"),
                         "on_click": lambda _e: asyncio.ensure_future(run())}, scope=scope)
    body = h("div", {"class": "wordcheck"}, h("p", {"class": "muted", "text": t("wordcheck.help")}),
             h("div", {"class": "row"}, field, check), out)
    try:
        await modal(t("wordcheck.title"), body, [("close", t("dialog.close"), "")], scope, field)
    finally:
        scope.close()


def install_button(app: Any) -> None:
    """Add the panel's button to the top bar (it needs Python, so it appears when Python is ready)."""
    nav = document.querySelector(".topbar nav")
    if not nav:  # an embedded frame has no top bar (JS null)
        return
    button = h("button", {"type": "button", "id": "wordcheck-open", "class": "nav-button",
                          "text": app.t("wordcheck.open"),
                          "on_click": lambda _e: asyncio.ensure_future(open_panel(app))}, scope=app.shell_scope)
    nav.appendChild(button)
