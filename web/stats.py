"""Player statistics, kept in ``localStorage`` per player name and game.

Recorded once per finished game (the save's id is remembered, so reopening a finished game never
counts it twice): games played, won, lost, drawn, best and mean score, the last 30 results, and per
game Scarabeo's best play and bonuses, Scarabya's perfect digs, Thot's margin of victory. The last
finished game's score after every move is kept for the score-per-turn chart. Pure Python: the page
passes the finished game's record; the figures come from replaying it with the engine.
"""

from __future__ import annotations

import json
from typing import Any, Mapping

from game.core import GameRecord

STATS_KEY = "scarab:stats"
STATS_VERSION = 1
LAST_RESULTS = 30
MAX_COUNTED = 500  # ids of counted games kept, to refuse counting one twice


def empty() -> dict[str, Any]:
    return {"version": STATS_VERSION, "players": {}, "last_game": None, "counted": []}


def load(raw: str | None) -> dict[str, Any]:
    """Read stored statistics; anything unreadable starts afresh rather than breaking the page."""
    try:
        data = json.loads(raw or "")
    except ValueError:
        return empty()
    if not isinstance(data, dict) or data.get("version") != STATS_VERSION or not isinstance(data.get("players"), dict):
        return empty()
    data.setdefault("counted", [])
    data.setdefault("last_game", None)
    return data


def dumps(stats: Mapping[str, Any]) -> str:
    return json.dumps(stats, ensure_ascii=False, separators=(",", ":"))


def player_key(name: str) -> str:
    return " ".join(name.split()).casefold()


def summarise(record: GameRecord, new_state: Any) -> dict[str, Any]:
    """Replay a finished game: scores after every move, per-seat extras, the outcome."""
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
    outcome = state.outcome()
    if outcome is None:
        raise ValueError("the game is not over")
    view = state.view()
    perfect = [False] * n
    sites = view.get("outcome", {}).get("players") if isinstance(view.get("outcome"), dict) else None
    if isinstance(sites, list):
        perfect = [bool(p.get("perfect_dig")) for p in sites][:n] + [False] * (n - len(sites))
    return {"scores": list(outcome.scores), "winners": list(outcome.winners), "timeline": timeline,
            "best_play": best_play, "bonuses": bonuses, "perfect_dig": perfect}


def record_game(stats: dict[str, Any], save_id: str, game: str, names: list[str], summary: Mapping[str, Any],
                when: int) -> bool:
    """Add a finished game to everyone's statistics; False if this save was already counted."""
    if save_id in stats["counted"]:
        return False
    scores: list[int] = summary["scores"]
    winners: list[int] = summary["winners"]
    for seat, name in enumerate(names):
        key = player_key(name)
        player = stats["players"].setdefault(key, {"name": name, "games": {}})
        g = player["games"].setdefault(game, {"played": 0, "won": 0, "lost": 0, "drawn": 0, "total": 0,
                                              "best": None, "results": [], "best_play": 0, "bonuses": 0,
                                              "perfect_digs": 0, "best_margin": 0})
        score = scores[seat]
        if not winners:
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
        g["total"] += score
        g["best"] = score if g["best"] is None else max(g["best"], score)
        g["best_play"] = max(g["best_play"], summary["best_play"][seat])
        g["bonuses"] += summary["bonuses"][seat]
        g["perfect_digs"] += bool(summary["perfect_dig"][seat])
        if result == "win":
            g["best_margin"] = max(g["best_margin"], margin)
        g["results"] = (g["results"] + [{"when": when, "score": score, "result": result, "margin": margin}])[-LAST_RESULTS:]
    stats["last_game"] = {"game": game, "names": list(names), "timeline": summary["timeline"], "when": when}
    stats["counted"] = (stats["counted"] + [save_id])[-MAX_COUNTED:]
    return True


def mean(g: Mapping[str, Any]) -> float:
    return g["total"] / g["played"] if g["played"] else 0.0


def reset_player(stats: dict[str, Any], name: str) -> bool:
    return stats["players"].pop(player_key(name), None) is not None


def import_stats(current: dict[str, Any], text: str) -> dict[str, Any]:
    """Merge exported statistics: players not known here are added; known players keep the larger record."""
    if len(text) > 1_000_000:
        raise ValueError("the statistics file is larger than 1 MB")
    incoming = load(text)
    if not incoming["players"] and '"players"' not in text:
        raise ValueError("this file holds no Scarab statistics")
    for key, player in incoming["players"].items():
        if not isinstance(player, dict) or not isinstance(player.get("games"), dict):
            raise ValueError(f"player {key!r} is malformed")
        mine = current["players"].get(key)
        if mine is None or sum(g.get("played", 0) for g in player["games"].values()) > sum(
                g.get("played", 0) for g in mine["games"].values()):
            current["players"][key] = player
    current["counted"] = sorted(set(current["counted"]) | set(incoming["counted"]))[-MAX_COUNTED:]
    return current
