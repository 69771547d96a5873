"""Player statistics, kept in ``localStorage`` per player name and game.

Recorded once per finished game (the save's id is remembered, so reopening a finished game never
counts it twice): games played, won, lost, drawn, best and mean score, the last 30 results, and per
game Scarabeo's best play and bonuses, Scarabya's perfect digs, Thot's margin of victory. The last
finished game's score after every move is kept for the score-per-turn chart. Pure Python: the page
passes the finished game's record; the figures come from replaying it with the engine.

A game by links (``remote_summary``) counts once it is over on this device. Its result counts as
played only when it is verified (Scarabeo: every seat's keys in and the deal checked): until then —
keys awaited after the end, a deal that failed its check, a game stopped on a proven cheat — it
counts as "unverified" for every seat, played but neither won, lost nor drawn, its score in no
total or best: a seat that withholds its keys (or cheats) wins nothing by it. When the keys come
and the deal verifies, the same game is counted again with its result (``record_game`` replaces the
unverified entry). A game left (no winner) is not counted.
"""

from __future__ import annotations

import json
from typing import Any, Mapping

from game.core import GameRecord
from game.core.safejson import JSONRefused, is_safe_int, loads

STATS_KEY = "scarab:stats"
STATS_VERSION = 1
LAST_RESULTS = 30
MAX_COUNTED = 500  # ids of counted games kept, to refuse counting one twice


def empty() -> dict[str, Any]:
    return {"version": STATS_VERSION, "players": {}, "last_game": None, "counted": [], "unverified": []}


MAX_STATS_CHARS = 1_000_000
GAME_NAMES = ("scarabeo", "thot", "scarabya")
COUNTS = ("played", "won", "lost", "drawn", "total", "best_play", "bonuses", "perfect_digs", "best_margin",
          "unverified")
RESULTS = ("win", "shared", "loss", "draw", "unverified")


class StatsProblem(ValueError):
    pass


def _game_figures(g: Any) -> dict[str, Any]:
    """One player's figures for one game, checked field by field; raises ``StatsProblem``."""
    if not isinstance(g, dict):
        raise StatsProblem("is not a record of figures")
    clean: dict[str, Any] = {}
    for name in COUNTS:
        value = g.get(name, 0)
        if not is_safe_int(value):
            raise StatsProblem(f"has {name} that is not an integer")
        clean[name] = value
    if g.get("best") is not None and not is_safe_int(g.get("best")):
        raise StatsProblem("has a best score that is not an integer")
    clean["best"] = g.get("best")
    results = g.get("results", [])
    if not isinstance(results, list):
        raise StatsProblem("has results that are not a list")
    clean["results"] = []
    for r in results[-LAST_RESULTS:]:
        if not (isinstance(r, dict) and all(is_safe_int(r.get(k)) for k in ("when", "score", "margin"))
                and r.get("result") in RESULTS):
            raise StatsProblem("has a malformed result")
        clean["results"].append({"when": r["when"], "score": r["score"], "result": r["result"], "margin": r["margin"]})
    return clean


def _player(p: Any) -> dict[str, Any]:
    if not isinstance(p, dict) or not isinstance(p.get("name"), str) or not isinstance(p.get("games"), dict):
        raise StatsProblem("is not a player record (a name and games)")
    games = {}
    for game, g in p["games"].items():
        if game not in GAME_NAMES:
            raise StatsProblem(f"has an unknown game {str(game)[:20]!r}")
        try:
            games[game] = _game_figures(g)
        except StatsProblem as err:
            raise StatsProblem(f"{game} {err}") from None
    return {"name": p["name"][:80], "games": games}


def _last_game(last: Any) -> dict[str, Any] | None:
    if not isinstance(last, dict) or last.get("game") not in GAME_NAMES or not is_safe_int(last.get("when")):
        return None
    names, timeline = last.get("names"), last.get("timeline")
    if not (isinstance(names, list) and all(isinstance(n, str) for n in names)):
        return None
    if not (isinstance(timeline, list) and all(
            isinstance(row, list) and len(row) == len(names) and all(is_safe_int(v) for v in row) for row in timeline)):
        return None
    return {"game": last["game"], "names": names, "timeline": timeline, "when": last["when"]}


def parse(raw: str | None, strict: bool = False) -> dict[str, Any]:
    """Statistics from text, every field checked. Lenient (``strict=False``, for what is stored): a
    malformed player or game is left out rather than breaking the page. Strict (imports): any
    problem raises ``StatsProblem`` naming it, and nothing is merged."""
    try:
        data = loads(raw or "", max_bytes=MAX_STATS_CHARS)
    except JSONRefused as err:
        if strict:
            raise StatsProblem(f"the file is not readable: {err}") from None
        return empty()
    if not isinstance(data, dict) or data.get("version") != STATS_VERSION or not isinstance(data.get("players"), dict):
        if strict:
            raise StatsProblem("this file holds no Scarab statistics")
        return empty()
    out = empty()
    for key, player in data["players"].items():
        try:
            out["players"][player_key(key)] = _player(player)
        except StatsProblem as err:
            if strict:
                raise StatsProblem(f"player {str(key)[:40]!r} {err}") from None
    counted = data.get("counted", [])
    if isinstance(counted, list):
        out["counted"] = [c for c in counted if isinstance(c, str)][-MAX_COUNTED:]
    elif strict:
        raise StatsProblem("the list of counted games is malformed")
    out["last_game"] = _last_game(data.get("last_game"))
    pending = data.get("unverified", [])  # absent from statistics kept before games by links counted
    if isinstance(pending, list):
        out["unverified"] = [p for p in (_pending(p) for p in pending) if p is not None][-MAX_COUNTED:]
    elif strict:
        raise StatsProblem("the list of unverified games is malformed")
    return out


def _pending(p: Any) -> dict[str, Any] | None:
    """A game counted as unverified, as ``record_game`` notes it (to count it again once verified)."""
    if not isinstance(p, dict) or not isinstance(p.get("id"), str) or p.get("game") not in GAME_NAMES \
            or not is_safe_int(p.get("when")) or not isinstance(p.get("names"), list) \
            or not all(isinstance(n, str) for n in p["names"]):
        return None
    return {"id": p["id"], "game": p["game"], "names": list(p["names"]), "when": p["when"]}


def load(raw: str | None) -> dict[str, Any]:
    """Read stored statistics; anything unreadable is left out rather than breaking the page."""
    return parse(raw)


def dumps(stats: Mapping[str, Any]) -> str:
    return json.dumps(stats, ensure_ascii=False, separators=(",", ":"))


def player_key(name: str) -> str:
    return " ".join(name.split()).casefold()


def summarise(record: GameRecord, new_state: Any, resigned: int | None = None) -> dict[str, Any]:
    """Replay a finished game: scores after every move, per-seat extras, the outcome. A game that
    seat ``resigned`` ended (``web.platform.session.RESIGNED``) is that seat's loss and every other
    seat's win, whatever the scores said then; its scores are those at the resignation."""
    state = new_state(record.options, record.seed)
    n = state.num_players
    timeline = [list(state.view()["scores"])]
    best_play = [0] * n
    bonuses = [0] * n
    for text in record.moves:
        result = state.push(state.parse_move(text))
        breakdown = getattr(result, "breakdown", None)
        player = getattr(result, "player", None)
        if breakdown is not None and isinstance(player, int):
            best_play[player] = max(best_play[player], int(getattr(result, "score", 0)))
            bonuses[player] += len(getattr(breakdown, "bonuses", ()))
        timeline.append(list(state.view()["scores"]))
    view = state.view()
    if resigned is not None:
        if not 0 <= resigned < n:
            raise ValueError(f"seat {resigned} resigned in a game of {n}")
        return {"scores": [int(x) for x in view["scores"]], "winners": [s for s in range(n) if s != resigned],
                "timeline": timeline, "best_play": best_play, "bonuses": bonuses, "perfect_dig": [False] * n}
    outcome = state.outcome()
    if outcome is None:
        raise ValueError("the game is not over")
    perfect = [False] * n
    sites = view.get("outcome", {}).get("players") if isinstance(view.get("outcome"), dict) else None
    if isinstance(sites, list):
        perfect = [bool(p.get("perfect_dig")) for p in sites][:n] + [False] * (n - len(sites))
    return {"scores": list(outcome.scores), "winners": list(outcome.winners), "timeline": timeline,
            "best_play": best_play, "bonuses": bonuses, "perfect_dig": perfect}


def remote_summary(shown: Mapping[str, Any]) -> dict[str, Any] | None:
    """What a game by links counts as (``record_game``'s summary) from its device's ``show()``:
    None while it is not over (nor stopped) or when it was left; ``unverified`` unless verified."""
    stopped = shown.get("stopped") is not None
    result = shown.get("result")
    if not stopped and (not shown.get("over") or not isinstance(result, Mapping)):
        return None
    if isinstance(result, Mapping) and result.get("reason") == "left":
        return None
    scores = [int(v) for v in (result["scores"] if isinstance(result, Mapping) else shown.get("scores") or [])]
    n = len(scores)
    verified = shown.get("verified") is True and not stopped
    return {"scores": scores, "winners": list(result["winners"]) if verified and isinstance(result, Mapping) else [],
            "timeline": None, "best_play": [0] * n, "bonuses": [0] * n, "perfect_dig": [False] * n,
            "unverified": not verified}


def _uncount(stats: dict[str, Any], pending: Mapping[str, Any]) -> None:
    """Take back a game counted as unverified (it is counted again with its result)."""
    for name in pending["names"]:
        g = stats["players"].get(player_key(name), {}).get("games", {}).get(pending["game"])
        if not g:
            continue
        g["played"] = max(0, g["played"] - 1)
        g["unverified"] = max(0, g.get("unverified", 0) - 1)
        at = next((i for i, r in enumerate(g["results"])
                   if r["result"] == "unverified" and r["when"] == pending["when"]), None)
        if at is not None:
            del g["results"][at]


def record_game(stats: dict[str, Any], save_id: str, game: str, names: list[str], summary: Mapping[str, Any],
                when: int) -> bool:
    """Add a finished game to everyone's statistics; False if this save was already counted (a game
    counted as unverified is counted again once a summary says it is verified)."""
    unverified = bool(summary.get("unverified"))
    pending = next((p for p in stats.setdefault("unverified", []) if p["id"] == save_id), None)
    if save_id in stats["counted"]:
        if pending is None or unverified:
            return False
        _uncount(stats, pending)
        stats["unverified"] = [p for p in stats["unverified"] if p is not pending]
        stats["counted"] = [c for c in stats["counted"] if c != save_id]
    scores: list[int] = summary["scores"]
    winners: list[int] = summary["winners"]
    for seat, name in enumerate(names):
        key = player_key(name)
        player = stats["players"].setdefault(key, {"name": name, "games": {}})
        g = player["games"].setdefault(game, {"played": 0, "won": 0, "lost": 0, "drawn": 0, "total": 0,
                                              "best": None, "results": [], "best_play": 0, "bonuses": 0,
                                              "perfect_digs": 0, "best_margin": 0, "unverified": 0})
        score = scores[seat]
        if unverified:
            result = "unverified"
        elif not winners:
            result = "draw"
        elif seat in winners:
            result = "win" if len(winners) == 1 or len(names) == 1 else "shared"
        else:
            result = "loss"
        others = [s for i, s in enumerate(scores) if i != seat]
        margin = score - max(others) if others else 0
        g["played"] += 1
        g["won"] += result in ("win", "shared")
        g["lost"] += result == "loss"
        g["drawn"] += result == "draw"
        g["unverified"] = g.get("unverified", 0) + (result == "unverified")
        if result == "unverified":  # a score nobody could check counts in no total or best
            margin = 0
        else:
            g["total"] += score
            g["best"] = score if g["best"] is None else max(g["best"], score)
        g["best_play"] = max(g["best_play"], summary["best_play"][seat])
        g["bonuses"] += summary["bonuses"][seat]
        g["perfect_digs"] += bool(summary["perfect_dig"][seat])
        if result == "win":
            g["best_margin"] = max(g["best_margin"], margin)
        g["results"] = (g["results"] + [{"when": when, "score": score, "result": result, "margin": margin}])[-LAST_RESULTS:]
    if summary["timeline"] is not None:  # a game by links keeps no score per turn here
        stats["last_game"] = {"game": game, "names": list(names), "timeline": summary["timeline"], "when": when}
    stats["counted"] = (stats["counted"] + [save_id])[-MAX_COUNTED:]
    if unverified:
        stats["unverified"] = (stats["unverified"] + [{"id": save_id, "game": game, "names": list(names),
                                                        "when": when}])[-MAX_COUNTED:]
    return True


def mean(g: Mapping[str, Any]) -> float:
    """The mean score of the games whose score counts (an unverified game's does not)."""
    counted = g["played"] - g.get("unverified", 0)
    return g["total"] / counted if counted > 0 else 0.0


def reset_player(stats: dict[str, Any], name: str) -> bool:
    return stats["players"].pop(player_key(name), None) is not None


def import_stats(current: dict[str, Any], text: str) -> dict[str, Any]:
    """Merge exported statistics: players not known here are added; known players keep the larger record."""
    if len(text) > MAX_STATS_CHARS:
        raise ValueError("the statistics file is larger than 1 MB")
    incoming = parse(text, strict=True)
    for key, player in incoming["players"].items():
        mine = current["players"].get(key)
        if mine is None or sum(g.get("played", 0) for g in player["games"].values()) > sum(
                g.get("played", 0) for g in mine["games"].values()):
            current["players"][key] = player
    current["counted"] = sorted(set(current["counted"]) | set(incoming["counted"]))[-MAX_COUNTED:]
    known = {p["id"] for p in current.setdefault("unverified", [])}
    current["unverified"] = (current["unverified"]
                             + [p for p in incoming["unverified"] if p["id"] not in known])[-MAX_COUNTED:]
    return current
