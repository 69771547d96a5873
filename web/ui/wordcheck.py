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


#: The panel's tools (issue 40): check words, anagrams of a rack, words matching a pattern, the best
#: first plays of a rack. Each reads the one field; the lexicon's automaton answers offline.
TOOLS = ("check", "anagram", "pattern", "best")
#: Words shown at most for one answer (a rack of common letters spells hundreds).
SHOWN = 120


def run_tool(lex: Any, tool: str, text: str) -> list[tuple[str, dict[str, Any]]]:
    """One tool's answer as (catalogue key, parameters) lines, for the page to put in words.
    ``lexicon.tools.ToolError`` for a rack or pattern the tools cannot read."""
    from lexicon import tools

    if tool == "check":
        return [(f"wordcheck.{verdict}", {"word": raw.upper(), "meaning": meaning or ""})
                for raw, verdict, meaning in check_words(lex, text)]
    if tool == "anagram":
        found = tools.anagrams(lex, text)
        by_length: dict[int, list[str]] = {}
        for a in found[:SHOWN]:  # the letters the scarabs stand for beside the word: CASA (?A)
            by_length.setdefault(len(a.word), []).append(f"{a.word}\u00a0(?{a.scarabs})" if a.scarabs else a.word)
        lines = [("wordtools.length", {"n": n, "words": ", ".join(words)})
                 for n, words in sorted(by_length.items(), reverse=True)]
        if len(found) > SHOWN:  # all counted, the first ones shown
            return [("wordtools.shown", {"n": len(found), "shown": SHOWN}), *lines]
        return _counted(lines, len(found), False)
    if tool == "pattern":
        words_, length = text.split(), None
        if len(words_) > 1 and words_[-1].isdigit():
            length = int(words_[-1])
            text = " ".join(words_[:-1])
        matched, more = tools.pattern(lex, text, length, limit=SHOWN)
        return _counted([("wordtools.words", {"words": ", ".join(matched)})] if matched else [],
                        len(matched), more)
    if tool == "best":
        plays = tools.best_plays(lex, text)
        return _counted([("wordtools.play", {"word": p.word, "move": p.move, "score": p.score}) for p in plays],
                        len(plays), False)
    raise ValueError(f"no tool {tool!r}")


def _counted(lines: list[tuple[str, dict[str, Any]]], n: int, more: bool) -> list[tuple[str, dict[str, Any]]]:
    """The answer's lines after a first one that says how many were found (and that more exist)."""
    head = ("wordtools.none", {}) if n == 0 else ("wordtools.more" if more else "wordtools.found", {"n": n})
    return [head, *lines]


async def open_panel(app: Any) -> None:
    t = app.t
    scope = Scope()
    field = h("input", {"type": "text", "id": "wordcheck-field", "autocomplete": "off", "autocapitalize": "characters",
                        "spellcheck": "false", "aria-label": t("wordcheck.field"), "aria-describedby": "wordtools-help"})
    out = h("ul", {"id": "wordcheck-results", "class": "wordcheck-results", "aria-live": "polite"})
    help_ = h("p", {"class": "muted", "id": "wordtools-help", "text": t("wordcheck.help")})
    chosen = {"tool": "check"}

    def choose(tool: str) -> None:
        chosen["tool"] = tool
        help_.textContent = t("wordcheck.help" if tool == "check" else f"wordtools.{tool}.help")
        field.setAttribute("aria-label", t("wordcheck.field" if tool == "check" else f"wordtools.{tool}.field"))
        check.textContent = t("wordcheck.check" if tool == "check" else "wordtools.go")
        clear(out)

    radios = h("fieldset", {"class": "wordtools-choice", "id": "wordtools-choice"},
               h("legend", {"class": "visually-hidden", "text": t("wordtools.choice")}))
    for tool in TOOLS:
        radio = h("input", {"type": "radio", "name": "wordtool", "id": f"wordtool-{tool}", "value": tool,
                            "checked": tool == "check"})
        scope.on(radio, "change", lambda _e, tool=tool: choose(tool))
        append(radios, h("label", {"for": f"wordtool-{tool}", "class": "wordtools-option"}, radio,
                         h("span", {"text": t(f"wordtools.{tool}")})))

    async def run(_e: Any = None) -> None:
        from lexicon.tools import ToolError

        clear(out)
        append(out, h("li", {"class": "muted", "text": t("wordcheck.loading")}))
        try:
            lex = await lexicon()
        except Exception as err:  # a missing or corrupt file: say so, keep the page working
            clear(out)
            append(out, h("li", {"class": "error", "text": t("wordcheck.unavailable", error=err)}))
            return
        tool = chosen["tool"]
        try:
            lines = run_tool(lex, tool, str(field.value))
        except ToolError:  # what the tool reads, in the page's language
            clear(out)
            append(out, h("li", {"class": "verdict invalid", "text": t(f"wordtools.{tool}.bad")}))
            return
        clear(out)
        for key, params in lines:
            css = key.split(".", 1)[1] if tool == "check" else "muted" if key in (
                "wordtools.found", "wordtools.more", "wordtools.none", "wordtools.shown") else "tool"
            text = t.plural(key, int(params["n"]), **{k: v for k, v in params.items() if k != "n"}) \
                if key in ("wordtools.found", "wordtools.more", "wordtools.length", "wordtools.shown") \
                else t(key, **params)
            append(out, h("li", {"class": f"verdict {css}", "text": text}))

    def on_key(event: Any) -> None:
        if event.key == "Enter":
            event.preventDefault()
            asyncio.ensure_future(run())

    scope.on(field, "keydown", on_key)
    check = h("button", {"type": "button", "class": "primary", "id": "wordcheck-go", "text": t("wordcheck.check"),
                         "on_click": lambda _e: asyncio.ensure_future(run())}, scope=scope)
    body = h("div", {"class": "wordcheck"}, radios, help_, h("div", {"class": "row"}, field, check), out)
    # the field stays in its row (``modal``'s field would be moved below the answer), focused once shown
    asyncio.get_event_loop().call_soon(field.focus)
    try:
        await modal(t("wordcheck.title"), body, [("close", t("dialog.close"), "")], scope)
    finally:
        scope.close()


SOURCES_URL = "./data/it.sources.tsv"
#: A word's lemma and its other forms (the dictionary's roots and rules), and the rule that excludes a word
#: left out: both written by the lexicon's build, fetched with the source list when a panel first opens.
FORMS_URL = "./data/it.forms"
EXCLUDED_URL = "./data/it.excluded.tsv"
_sources: asyncio.Future[Any] | None = None
_details: asyncio.Future[Any] | None = None
#: Where "Look it up" goes: a page a person opens in a new tab (the site itself requests nothing).
DICTIONARY_URL = "https://it.wiktionary.org/wiki/{word}"
#: A lemma's forms the panel names (its count says how many there are), and the lemmas of one word.
FORMS_SHOWN = 8
LEMMAS_SHOWN = 3


def sources() -> asyncio.Future[Any]:
    """The build's source list ({word: (source, note)}), fetched the first time a word panel opens."""
    global _sources
    if _sources is None:
        _sources = asyncio.ensure_future(_load_sources())
    return _sources


async def _load_sources() -> dict[str, tuple[str, str]]:
    from lexicon.sources import parse_sources

    return parse_sources(await _text(SOURCES_URL))


async def _fetched(url: str) -> Any:
    response = await window.fetch(url)
    if not response.ok:
        raise RuntimeError(f"{url}: HTTP {response.status}")
    return response


async def _text(url: str) -> str:
    return str(await (await _fetched(url)).text())


async def _bytes(url: str) -> bytes:
    return bytes((await (await _fetched(url)).arrayBuffer()).to_bytes())


def details() -> asyncio.Future[Any]:
    """(forms, excluded) for the word panel, fetched the first time a panel opens: the lexicon's
    ``Forms`` (None if its file cannot be had) and the excluded list ({} then)."""
    global _details
    if _details is None:
        _details = asyncio.ensure_future(_load_details())
    return _details


async def _load_details() -> tuple[Any, dict[str, tuple[str, str]]]:
    from lexicon.forms import Forms
    from lexicon.sources import parse_exclusions

    lex = await lexicon()
    data, text = await asyncio.gather(_bytes(FORMS_URL), _text(EXCLUDED_URL), return_exceptions=True)
    # each is a detail of the panel: without one the panel says the rest (a word's verdict never depends on them)
    forms = None
    if isinstance(data, bytes):
        try:
            forms = Forms.from_bytes(data, lex)
        except Exception as err:  # a damaged file or one of another build
            window.console.warn(f"{FORMS_URL}: {err}")
    excluded = parse_exclusions(text) if isinstance(text, str) else {}
    return forms, excluded


def word_facts(lex: Any, table: dict[str, tuple[str, str]], word: str, forms: Any = None,
               excluded: dict[str, tuple[str, str]] | None = None) -> dict[str, Any]:
    """What the lexicon says of ``word``: valid or not, the abbreviation's meaning, its source and the
    source's note (a word the source list does not name is the dictionary's: ``it_IT``); with the forms
    file, the lemmas it is a form of (``lexicon.forms.Lemma``); with the excluded list, the rule that
    leaves an invalid word out and its note."""
    from lexicon import normalise
    from lexicon.sources import exclusion

    norm = normalise(word)
    meaning = lex.abbreviation(norm) if norm else None
    valid = bool(norm) and (bool(meaning) or lex.contains(norm))
    source, note = table.get(norm, ("it_IT" if valid else "", ""))
    lemmas = forms.lemmas(norm, own_root=source == "it_IT") if valid and forms is not None else []
    rule, rule_note = ("", "") if valid else exclusion(lex, excluded or {}, norm) or ("unknown", "")
    return {"word": norm, "valid": valid, "meaning": meaning or "", "source": source if valid else "",
            "note": note if valid else "", "lemmas": lemmas, "rule": rule, "rule_note": rule_note}


def explain(t: Any, facts: dict[str, Any]) -> list[tuple[str, str]]:
    """The panel's lines on a word's lemma and forms, or on the rule that excludes it: (css class, text)."""
    word = facts["word"]
    lines: list[tuple[str, str]] = []
    if not facts["valid"]:
        rule, note = facts["rule"] or "unknown", facts["rule_note"]
        text = t("wordpanel.why.unknown") if rule == "unknown" else \
            t(f"wordpanel.rule.{rule}", detail=f" ({note})" if note else "")
        return [("wordpanel-source wordpanel-rule", text)]
    for lemma in facts["lemmas"][:LEMMAS_SHOWN]:
        prefix = t("wordpanel.lemma.prefix", prefix=lemma.prefix) if lemma.prefix else ""
        own = lemma.root == word and not lemma.prefix
        lines.append(("wordpanel-lemma", t(f"wordpanel.lemma.{'self.' if own else ''}{lemma.kind}", word=word,
                                           lemma=lemma.lemma, root=lemma.root, prefix=prefix)))
        shown = lemma.shortest(FORMS_SHOWN, leave_out=word)
        if not shown:
            lines.append(("wordpanel-forms", t("wordpanel.forms.none", root=lemma.root)))
            continue
        every = len(shown) + (word in lemma.forms) == len(lemma.forms) == lemma.form_count
        lines.append(("wordpanel-forms", t("wordpanel.forms.all" if every else "wordpanel.forms.some", root=lemma.root,
                                           n=grouped(lemma.form_count, t.lang), forms=", ".join(shown))))
    return lines


def grouped(n: int, lang: str) -> str:
    """A count with its thousands marked as the language does (1.387, 1,387)."""
    text = f"{n:,}"
    return text.replace(",", ".") if lang == "it" else text


async def open_words(app: Any, entries: list[dict[str, Any]]) -> None:
    """The word panel (issue 40): for each word tapped (on the board, in the log, in a refusal) whether
    it counts and why — its source, an abbreviation's meaning, its lemma and other forms, or the rule
    that leaves it out — who played it, on which move, where and for how many points, and a link to
    look it up in an online dictionary (opened by the person, in a new tab; nothing is fetched from
    elsewhere)."""
    t = app.t
    scope = Scope()
    out = h("div", {"class": "wordpanel", "id": "wordpanel", "aria-live": "polite"},
            h("p", {"class": "muted", "text": t("wordcheck.loading")}))

    async def fill() -> None:
        try:
            lex = await lexicon()
        except Exception as err:  # a missing or corrupt file: said, the game goes on
            clear(out)
            append(out, h("p", {"class": "error", "text": t("wordcheck.unavailable", error=err)}))
            return
        try:
            table = await sources()
        except Exception:  # the list is a detail: without it every valid word is said to be the dictionary's
            table = {}
        forms, excluded = await details()
        clear(out)
        for entry in entries:
            facts = word_facts(lex, table, str(entry["word"]), forms, excluded)
            word = facts["word"]
            verdict = "abbreviation" if facts["meaning"] else "valid" if facts["valid"] else "invalid"
            section = h("section", {"class": "wordpanel-word", "aria-label": word},
                        h("h3", {"class": "wordpanel-title", "text": word}),
                        h("p", {"class": f"verdict {verdict}",
                                "text": t(f"wordcheck.{verdict}", word=word, meaning=facts["meaning"])}))
            source = facts["source"]
            if source:
                key = f"wordpanel.source.{source}" if source in ("it_IT", "additions", "appendix") \
                    else "wordpanel.source.other"
                append(section, h("p", {"class": "wordpanel-source",
                                        "text": t(key, source=source, note=facts["note"])}))
            for css, text in explain(t, facts):  # its lemma and forms, or the rule that leaves it out
                append(section, h("p", {"class": css, "text": text,
                                        "data-rule": facts["rule"] if "wordpanel-rule" in css else None}))
            if entry.get("turn"):
                append(section, h("p", {"class": "wordpanel-played",
                                        "text": t.form("wordpanel.played", you=bool(entry.get("you")),
                                                       name=entry.get("by") or "", move=entry["turn"],
                                                       where=entry.get("where") or "",
                                                       points=t.plural("wordpanel.points", int(entry["points"])))}))
            append(section, h("a", {"class": "button wordpanel-look", "href": DICTIONARY_URL.format(word=word.lower()),
                                    "target": "_blank", "rel": "noopener noreferrer",
                                    "text": t("wordpanel.look"), "aria-label": t("wordpanel.look.label", word=word)}))
            append(out, section)

    asyncio.ensure_future(fill())
    title = entries[0]["word"] if len(entries) == 1 else t("wordpanel.title")
    try:
        await modal(str(title).upper(), out, [("close", t("dialog.close"), "")], scope)
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
