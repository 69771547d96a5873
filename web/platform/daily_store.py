"""Today's challenge on this device: the day's puzzles kept in ``localStorage``, the attempts,
streaks, results and the text to share. Pure Python (the page passes the key-value store and the
date), so every rule here is tested in CPython (``tests/web/test_daily.py``).

Keys:

- ``scarab:daily:<YYYY-MM-DD>:<game>``: the puzzle ``game.daily.generate_one`` computed for that
  day (a cache, so reopening it is instant; only the latest days are kept);
- ``scarab:daily:attempts``: ``{"version": 1, "entries": [{"date", "game", "number", "percent",
  "score", "best", "marks", "save"}, …]}``, one entry per counted attempt (the first finished
  attempt of a puzzle; later ones are replays and are not counted).

Both are outside data: read with ``game.core.safejson`` within a size cap and checked field by
field; whatever is malformed is left out (a bad entry never breaks the chooser).
"""

from __future__ import annotations

import datetime
import json
import re
from typing import Any, Mapping

from game.core.safejson import JSONRefused, is_safe_int, loads

GAMES = ("scarabeo", "thot", "scarabya")
CACHE_PREFIX = "scarab:daily:"
ATTEMPTS_KEY = "scarab:daily:attempts"
#: A test hook: a date (YYYY-MM-DD) used instead of the device's, only when present and valid.
DATE_OVERRIDE_KEY = "scarab:daily:date"
ATTEMPTS_VERSION = 1
#: One cached puzzle is a few hundred bytes to 1 KB; anything much larger is not one of ours.
MAX_PUZZLE_CHARS = 20_000
MAX_ATTEMPTS_CHARS = 400_000
#: Attempts kept (three games a day for about three years).
MAX_ENTRIES = 3_000
#: Days of cached puzzles kept (today and the day before, for a puzzle begun before midnight).
CACHE_DAYS = 2
MARKS = ("🟩", "🟨", "⬜")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_SAVE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def parse_date(text: Any) -> datetime.date | None:
    """A strict ``YYYY-MM-DD`` date, or None (malformed, impossible)."""
    if not isinstance(text, str) or not _DATE.fullmatch(text):
        return None
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        return None


def cache_key(day: str, game: str) -> str:
    return f"{CACHE_PREFIX}{day}:{game}"


# --- the day's puzzles ----------------------------------------------------------------------
def _is_text(v: Any, limit: int = 2_000) -> bool:
    return isinstance(v, str) and 0 < len(v) <= limit


def _is_seed(v: Any) -> bool:
    """Seeds are 64-bit (``game.core.Rng``), beyond JavaScript's safe integers: Python reads them."""
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 1 << 64


def _plays(v: Any) -> bool:
    return isinstance(v, list) and len(v) <= 20 and all(
        isinstance(p, dict) and _is_text(p.get("move"), 80) and is_safe_int(p.get("score")) for p in v)


def valid_puzzle(p: Any, day: str, game: str) -> bool:
    """Is ``p`` a puzzle of ``game`` for ``day``, with every field the page reads well formed?"""
    if not isinstance(p, dict) or p.get("game") != game or p.get("date") != day:
        return False
    if not (is_safe_int(p.get("number")) and p["number"] >= 1 and _is_seed(p.get("seed"))):
        return False
    best = p.get("best")
    if game == "scarabeo":
        return (_is_text(p.get("position")) and isinstance(best, dict) and is_safe_int(best.get("score"))
                and _is_text(best.get("move"), 80) and _plays(p.get("top")))
    if game == "thot":
        line = p.get("line")
        return (_is_text(p.get("position")) and all(is_safe_int(p.get(k)) for k in
                                                    ("points", "plies", "to_move", "turns_on", "moves"))
                and 0 <= p["turns_on"] <= 64 and 1 <= p["plies"] <= 12 and p["to_move"] in (0, 1)
                and isinstance(line, list) and len(line) <= p["plies"] and all(_is_text(m, 12) for m in line))
    if game == "scarabya":
        return (_is_text(p.get("layout"), 200) and _is_text(p.get("deck"), 40) and isinstance(best, dict)
                and is_safe_int(best.get("score")) and isinstance(best.get("placements"), list)
                and all(_is_text(m, 20) for m in best["placements"]))
    return False


def read_puzzle(kv: Any, day: str, game: str) -> dict[str, Any] | None:
    """The cached puzzle of ``game`` for ``day``; None when absent, too large or malformed."""
    try:
        raw = kv.get(cache_key(day, game))
    except Exception:  # storage refused: as if nothing were cached
        return None
    data = _stored_json(raw, MAX_PUZZLE_CHARS)
    return data if valid_puzzle(data, day, game) else None


def _stored_json(raw: Any, limit: int) -> Any:
    """A stored value read back: its JSON when it is text of at most ``limit`` characters, else None."""
    if not isinstance(raw, str) or len(raw) > limit:
        return None
    try:
        return loads(raw, max_bytes=limit)
    except JSONRefused:
        return None


def write_puzzle(kv: Any, puzzle: Mapping[str, Any]) -> bool:
    """Cache a puzzle (and forget the puzzles of older days); False when not stored (too large,
    storage full): the page then computes it again next time, nothing else is lost."""
    day, game = str(puzzle.get("date")), str(puzzle.get("game"))
    text = json.dumps(puzzle, ensure_ascii=False, separators=(",", ":"))
    if len(text) > MAX_PUZZLE_CHARS:
        return False
    try:
        prune_cache(kv, day)
        kv.set(cache_key(day, game), text)
        return True
    except Exception:
        return False


def prune_cache(kv: Any, today: str) -> None:
    """Remove cached puzzles of days other than the last ``CACHE_DAYS`` up to ``today``."""
    now = parse_date(today)
    if now is None:
        return
    keep = {(now - datetime.timedelta(days=k)).isoformat() for k in range(CACHE_DAYS)}
    for key in list(kv.keys()):
        if not key.startswith(CACHE_PREFIX) or key in (ATTEMPTS_KEY, DATE_OVERRIDE_KEY):
            continue
        day = key[len(CACHE_PREFIX):].split(":", 1)[0]
        if day not in keep:
            kv.remove(key)


# --- attempts ---------------------------------------------------------------------------
def empty() -> dict[str, Any]:
    return {"version": ATTEMPTS_VERSION, "entries": []}


def _entry(e: Any) -> dict[str, Any] | None:
    if not isinstance(e, dict) or e.get("game") not in GAMES or parse_date(e.get("date")) is None:
        return None
    if not all(is_safe_int(e.get(k)) for k in ("number", "percent", "score", "best")):
        return None
    if not (e["number"] >= 1 and 0 <= e["percent"] <= 1000):
        return None
    marks = e.get("marks", "")
    if not isinstance(marks, str) or len(marks) > 40 or any(c not in MARKS for c in marks):
        return None
    save = e.get("save")
    if save is not None and not (isinstance(save, str) and _SAVE_ID.fullmatch(save)):
        return None
    return {"date": e["date"], "game": e["game"], "number": e["number"], "percent": e["percent"],
            "score": e["score"], "best": e["best"], "marks": marks, "save": save}


def parse_attempts(raw: Any) -> dict[str, Any]:
    """Stored attempts, every entry checked; malformed entries (and a second entry for the same
    puzzle) are left out, an unreadable whole is no attempts."""
    out = empty()
    data = _stored_json(raw, MAX_ATTEMPTS_CHARS)
    if not isinstance(data, dict) or data.get("version") != ATTEMPTS_VERSION or not isinstance(data.get("entries"), list):
        return out
    seen: set[tuple[str, str]] = set()
    for e in data["entries"][-MAX_ENTRIES:]:
        clean = _entry(e)
        if clean is not None and (clean["date"], clean["game"]) not in seen:
            seen.add((clean["date"], clean["game"]))
            out["entries"].append(clean)
    return out


def load_attempts(kv: Any) -> dict[str, Any]:
    try:
        return parse_attempts(kv.get(ATTEMPTS_KEY))
    except Exception:  # storage refused reading: no attempts shown, nothing broken
        return empty()


def save_attempts(kv: Any, data: Mapping[str, Any]) -> None:
    """Raises the store's error (StorageFull …): the page says the attempt was not kept."""
    kv.set(ATTEMPTS_KEY, json.dumps(data, ensure_ascii=False, separators=(",", ":")))


def counted(data: Mapping[str, Any], day: str, game: str) -> dict[str, Any] | None:
    """The counted attempt of a puzzle, if there is one."""
    return next((e for e in data["entries"] if e["date"] == day and e["game"] == game), None)


def record_attempt(data: dict[str, Any], entry: Mapping[str, Any]) -> bool:
    """Count an attempt: True when it is the puzzle's first (counted), False when the puzzle was
    already attempted (a replay: nothing changes). Raises ValueError on a malformed entry."""
    clean = _entry(dict(entry))
    if clean is None:
        raise ValueError("malformed attempt")
    if counted(data, clean["date"], clean["game"]) is not None:
        return False
    data["entries"] = (data["entries"] + [clean])[-MAX_ENTRIES:]
    return True


# --- results ----------------------------------------------------------------------------
def percent(score: int, best: int) -> int:
    """The result as a percentage of the best (0 at worst; above 100 when the player beat the
    answer, which only Scarabya's bounded search allows)."""
    if best <= 0:
        return 100 if score >= best else 0
    return max(0, min(1000, round(100 * score / best)))


def bar_marks(pct: int, cells: int = 5) -> str:
    """A percentage as a row of marks: a green per full fifth, a yellow for a half fifth or more."""
    pct = max(0, min(100, pct))
    step = 100 / cells
    full = int(pct // step)
    half = 1 if full < cells and pct - full * step >= step / 2 else 0
    return MARKS[0] * full + MARKS[1] * half + MARKS[2] * (cells - full - half)


def move_marks(lost: list[int]) -> str:
    """One mark per move: green for a move that kept the best result, yellow for one that lost
    a little (1–2 points), white for more."""
    return "".join(MARKS[0] if x <= 0 else MARKS[1] if x <= 2 else MARKS[2] for x in lost)


# --- sharing a result, never the answer ------------------------------------------------------
#: Marks in a link, one letter each (the emoji would be three percent-escapes apiece).
_MARK_LETTERS = {"🟩": "g", "🟨": "y", "⬜": "w"}
_FRIEND = re.compile(r"(-?\d{1,7})\.(-?\d{1,7})\.(\d{1,4})\.([gyw]{0,40})")


def share_query(day: str, score: int, best: int, pct: int, marks: str) -> str:
    """The query of a shared result's link (``#/daily/<game>?…``): the puzzle's date and the
    sender's result and marks — nothing the answer could be read from (not the sender's moves, not
    the best plays: the receiver's own device computes the puzzle from the date, and its answer
    only after their attempt)."""
    letters = "".join(_MARK_LETTERS.get(c, "w") for c in marks)[:40]
    return f"date={day}&r={score}.{best}.{max(0, min(1000, pct))}.{letters}"


def parse_friend(text: Any) -> dict[str, Any] | None:
    """A shared result from a link's ``r`` (outside data): ``{"score", "best", "percent", "marks"}``
    or None when it is not one."""
    if not isinstance(text, str) or len(text) > 80:
        return None
    m = _FRIEND.fullmatch(text)
    if m is None or int(m.group(3)) > 1000:
        return None
    marks = "".join(MARKS["gyw".index(c)] for c in m.group(4))
    return {"score": int(m.group(1)), "best": int(m.group(2)), "percent": int(m.group(3)), "marks": marks}


def _friend(v: Any) -> dict[str, Any] | None:
    """A friend's result kept in an attempt's meta, checked again (the save is outside data too)."""
    if not isinstance(v, dict) or not all(is_safe_int(v.get(k)) for k in ("score", "best", "percent")):
        return None
    marks = v.get("marks")
    if not (isinstance(marks, str) and len(marks) <= 40 and all(c in MARKS for c in marks)):
        return None
    if not (abs(v["score"]) < 10**7 and abs(v["best"]) < 10**7 and 0 <= v["percent"] <= 1000):
        return None
    return {"score": v["score"], "best": v["best"], "percent": v["percent"], "marks": marks}


def counts(d: Mapping[str, Any]) -> bool:
    """May this attempt be counted? Not a replay, not one received in a link, and not one whose
    answer the player chose to see before finishing it ("Show the answer")."""
    return not (d["again"] or d["received"] or d["shown"])


def share_text(title: str, number: int, result: str, marks: str, link: str, replay_note: str = "") -> str:
    """The text to paste in a chat: ``Scarab — Thot #1: 5/5 (100%)``, the marks, the link."""
    head = f"{title} #{number}: {result}"
    if replay_note:
        head += f" ({replay_note})"
    return "\n".join(x for x in (head, marks, link) if x)


# --- streaks and history ----------------------------------------------------------------
def days_played(data: Mapping[str, Any], game: str | None = None) -> list[datetime.date]:
    days = {parse_date(e["date"]) for e in data["entries"] if game is None or e["game"] == game}
    return sorted(d for d in days if d is not None)


def streaks(data: Mapping[str, Any], today: datetime.date, game: str | None = None) -> dict[str, Any]:
    """Days played, the current streak (consecutive days up to today — or up to yesterday while
    today's puzzle is still to play), the best streak, the mean percentage; of one game, or of any
    game (``game=None``: a day counts when any of its puzzles was attempted)."""
    days = days_played(data, game)
    best = run = 0
    prev: datetime.date | None = None
    for d in days:
        run = run + 1 if prev is not None and (d - prev).days == 1 else 1
        best = max(best, run)
        prev = d
    have = set(days)
    current = 0
    cursor = today if today in have else today - datetime.timedelta(days=1)
    while cursor in have:
        current += 1
        cursor -= datetime.timedelta(days=1)
    pcts = [min(100, e["percent"]) for e in data["entries"] if game is None or e["game"] == game]
    return {"played": len(days), "current": current, "best": best,
            "mean": sum(pcts) / len(pcts) if pcts else None}


def history(data: Mapping[str, Any], today: datetime.date, days: int = 30) -> list[tuple[datetime.date, dict[str, int]]]:
    """The last ``days`` days up to today: (date, {game: percent}) for the chart and its table."""
    by_day: dict[str, dict[str, int]] = {}
    for e in data["entries"]:
        by_day.setdefault(e["date"], {})[e["game"]] = e["percent"]
    out = []
    for k in range(days - 1, -1, -1):
        d = today - datetime.timedelta(days=k)
        out.append((d, by_day.get(d.isoformat(), {})))
    return out


# --- a puzzle's attempt in a save's record meta -------------------------------------------
def daily_meta(meta: Any) -> dict[str, Any] | None:
    """The ``daily`` part of a record's meta, checked (None: not a daily attempt, or malformed,
    and the game then opens as an ordinary one)."""
    d = meta.get("daily") if isinstance(meta, Mapping) else None
    if not isinstance(d, dict) or d.get("game") not in GAMES or parse_date(d.get("date")) is None:
        return None
    if not all(is_safe_int(d.get(k)) for k in ("number", "start", "me", "best", "plies")):
        return None
    if not (d["number"] >= 1 and 0 <= d["start"] <= 10_000 and d["me"] in (0, 1) and 0 <= d["plies"] <= 12):
        return None
    base = d.get("base")
    if not (isinstance(base, list) and 1 <= len(base) <= 2 and all(is_safe_int(v) for v in base)):
        return None
    top = d.get("top", [])
    line = d.get("line", [])
    if not _plays(top) or not (isinstance(line, list) and len(line) <= 20 and all(_is_text(m, 20) for m in line)):
        return None
    return {"game": d["game"], "date": d["date"], "number": d["number"], "start": d["start"], "me": d["me"],
            "best": d["best"], "plies": d["plies"], "base": list(base), "top": list(top), "line": list(line),
            "again": bool(d.get("again", False)), "received": d.get("received") is True,
            "shown": d.get("shown") is True, "friend": _friend(d.get("friend"))}


def puzzle_over(d: Mapping[str, Any], moves: int, game_over: bool) -> bool:
    """Has the attempt reached its end? Scarabeo: after the player's one play; Thot: after the
    puzzle's plies (the player's moves and the computer's answers); Scarabya: at the game's end."""
    played = moves - int(d["start"])
    if game_over:
        return True
    if d["game"] == "scarabeo":
        return played >= 1
    if d["game"] == "thot":
        return played >= int(d["plies"])
    return False


def result_score(d: Mapping[str, Any], scores: list[int]) -> int:
    """The player's result from the scores now and at the puzzle's start: Scarabeo the play's
    score, Thot the points collected minus the computer's, Scarabya the score."""
    me = int(d["me"])
    base = [int(x) for x in d["base"]]
    gained = scores[me] - base[me]
    if d["game"] == "thot":
        other = 1 - me
        return gained - (scores[other] - base[other])
    return gained
