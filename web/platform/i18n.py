"""One message catalogue for every text on the site, Italian and English.

The catalogue is ``{key: {"it": …, "en": …}}``, kept in ``web/platform/messages/*.json`` (the shell's texts and
one file per game, so each game's texts sit beside each other) and merged into one: the build inlines
it into the page so first paint is already translated, and Python reads the same data from there.
"""

from __future__ import annotations

import datetime
import json
import re
from pathlib import Path
from typing import Mapping

LANGUAGES = ("it", "en")
#: The locale each interface language writes dates in (``Date.toLocaleString``): a bare "en" is the
#: browser's US English (month first), so English is British: "1 Dec 2026"; Italian "1 dic 2026".
LOCALES = {"it": "it-IT", "en": "en-GB"}
#: Italian euphony: the preposition "a" before a name that begins with "a" becomes "ad" ("ad Anna").
_ELIDE = re.compile(r"(?<![\w'])([Aa]) (?=\{(\w+)\})")
Catalogue = Mapping[str, Mapping[str, str]]


def load_catalogue(folder: Path | None = None) -> dict[str, dict[str, str]]:
    """Merge every ``*.json`` of the folder; a key defined twice is an error."""
    merged: dict[str, dict[str, str]] = {}
    for path in sorted((folder or Path(__file__).with_name("messages")).glob("*.json")):
        for key, entry in json.loads(path.read_text(encoding="utf-8")).items():
            if key in merged:
                raise ValueError(f"message key {key!r} is defined twice (again in {path.name})")
            merged[str(key)] = dict(entry)
    return merged


def preferred_language(saved: str | None, browser_languages: list[str]) -> str:
    """The saved choice, else the browser's first preference between Italian and English."""
    if saved in LANGUAGES:
        return saved
    for lang in browser_languages:
        lang = lang.lower()
        if lang.startswith("it"):
            return "it"
        if lang.startswith("en"):
            return "en"
    return "en"


class Messages:
    def __init__(self, catalogue: Catalogue, lang: str = "en") -> None:
        if lang not in LANGUAGES:
            raise ValueError(f"unknown language {lang!r}")
        self.catalogue = catalogue
        self.lang = lang

    def __call__(self, key: str, **params: object) -> str:
        entry = self.catalogue.get(key)
        if entry is None:
            # A missing key shows itself rather than crashing the page; tests walk the catalogue.
            return key
        text = entry.get(self.lang) or entry.get("en") or key
        if self.lang == "it" and params:
            text = euphonic(text, params)
        for name, value in params.items():
            text = text.replace("{" + name + "}", str(value))
        return text

    def has(self, key: str) -> bool:
        return key in self.catalogue

    @property
    def locale(self) -> str:
        """The locale for ``toLocaleString`` / ``toLocaleDateString`` (``LOCALES``)."""
        return LOCALES[self.lang]

    def plural(self, key: str, n: int, **params: object) -> str:
        """``key.one`` when ``n`` is 1 or -1, else ``key.other`` ("1 punto", "2 punti", "0 points");
        Italian and English both have these two forms. ``n`` is passed as ``{n}``."""
        return self(f"{key}.{'one' if abs(n) == 1 else 'other'}", n=n, **params)

    def form(self, key: str, you: bool = False, n: int | None = None, **params: object) -> str:
        """The catalogue's person and plural forms: ``key.you`` when the subject is the reader
        ("You played", "Hai giocato"; never "You plays"), then ``.one``/``.other`` by ``n`` (passed
        as ``{n}``, with the minus sign)."""
        key = f"{key}.you" if you else key
        if n is None:
            return self(key, **params)
        return self(f"{key}.{'one' if abs(n) == 1 else 'other'}", **{"n": signed(n, plus=False), **params})


#: Month abbreviations as ``Intl.DateTimeFormat(LOCALES[lang], {dateStyle: "medium"})`` writes them, so
#: that a date written in Python ("2 dic 2026", "2 Dec 2026") reads like one written by the browser.
_MONTHS = {"it": ("gen", "feb", "mar", "apr", "mag", "giu", "lug", "ago", "set", "ott", "nov", "dic"),
           "en": ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")}


def date_text(day: "datetime.date", lang: str) -> str:
    """The one date format of each language: "2 dic 2026", "2 Dec 2026" (never "12/2/2026")."""
    return f"{day.day} {_MONTHS[lang if lang in _MONTHS else 'en'][day.month - 1]} {day.year}"


def shown_title(catalogue: Catalogue, title: str, game: str, lang: str) -> str:
    """A save's title as the site made it ("Scarab — il gioco di Thot del 2 dic 2026", "Scarabeo:
    prima partita guidata"), in the language of the page now ("Scarab — the Game of Thot on 2 Dec
    2026"); a title the player wrote is theirs and shown as it is."""
    name_now = catalogue.get(f"game.{game}.name", {}).get(lang)
    if not name_now:
        return title
    for made_in in LANGUAGES:
        name = catalogue.get(f"game.{game}.name", {}).get(made_in, "")
        for key in ("play.title.default", "tutorial.title"):
            template = catalogue.get(key, {}).get(made_in, "")
            if "{game}" not in template or not name:
                continue
            pattern = re.escape(template).replace(re.escape("{game}"), re.escape(name))
            pattern = pattern.replace(re.escape("{date}"), r"(\d{1,2}) (\w+) (\d{4})")
            found = re.fullmatch(pattern, title)
            if found is None:
                continue
            params: dict[str, str] = {"game": name_now}
            if found.groups():
                day, month, year = found.groups()
                months = _MONTHS[made_in]
                if month not in months:
                    return title
                params["date"] = date_text(datetime.date(int(year), months.index(month) + 1, int(day)), lang)
            text = catalogue.get(key, {}).get(lang, template)
            for k, v in params.items():
                text = text.replace("{" + k + "}", v)
            return text
    return title


def sentence(text: str) -> str:
    """Sentence case for a line made of fragments ("closes an area…; covers…"): a capital first
    letter and a full stop ("" stays "")."""
    text = text.strip()
    if not text:
        return ""
    return text[0].upper() + text[1:] + ("" if text[-1] in ".!?…" else ".")


#: The minus sign (U+2212) every negative number is shown with, never the ASCII hyphen-minus.
MINUS = "\u2212"


def signed(n: int | float, plus: bool = True) -> str:
    """A number as shown: "−14" (U+2212), "+3" (with ``plus``), "0"."""
    text = f"{abs(n):g}" if isinstance(n, float) else str(abs(n))
    return (MINUS if n < 0 else "+" if plus and n > 0 else "") + text


def euphonic(text: str, params: Mapping[str, object]) -> str:
    """Italian: "a {name}" reads "ad {name}" when the name begins with an a ("Tocca ad Anna",
    "Passa il dispositivo ad Alberto"), as modern usage has it (not before other vowels: "a Elena")."""
    def repl(match: re.Match[str]) -> str:
        value = str(params.get(match.group(2), ""))
        return match.group(1) + ("d " if value[:1].lower() in ("a", "à") else " ")

    return _ELIDE.sub(repl, text)


def missing_translations(catalogue: Catalogue) -> list[str]:
    return [f"{key}:{lang}" for key, entry in catalogue.items() for lang in LANGUAGES if not entry.get(lang)]
