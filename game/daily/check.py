"""The criteria sweep: does each day's puzzle meet what docs/daily.md states? (``daily --check``)

Each puzzle is checked again from its own fields, with the engines, not by trusting the
generator's verdict: Scarabeo's plays are generated anew for the position and rack and judged, and
the claimed plays are scored by the rules (``preview``); Thot's first moves are searched exactly
again, the criteria applied, and the perfect line replayed for its points; Scarabya's dig is
replayed on the day's deal to its claimed score. A day that needed the relaxed fallback fails.
"""

from __future__ import annotations

import datetime
from typing import Any

from game import daily


def scarabeo(p: dict[str, Any], lexicon: Any) -> list[str]:
    from game.daily import scarabeo as ds
    from game.scarabeo import ai
    from game.scarabeo.game import ScarabeoState
    from game.scarabeo.movegen import to_play
    from game.scarabeo.moves import move_text
    from game.scarabeo.tiles import SCARAB

    out: list[str] = []
    state = ScarabeoState.from_position(p["position"], word_list=lexicon)
    rack = list(state.racks[state.turn])
    if "".join(rack) != p["rack"]:
        out.append("the rack is not the position's rack to move")
    if SCARAB in rack or any(c.islower() for c in state.board if c):
        out.append("a scarab in the rack or on the board")
    plays = ds.ranked(ai.generator_for(lexicon).plays(state.board, rack, state.first_play))
    why = ds.judge(state.board, plays)
    if why is not None:
        out.append(f"criteria: {why}")
    if plays and (move_text(to_play(plays[0])), plays[0][0]) != (p["best"]["move"], p["best"]["score"]):
        out.append(f"the best play is {move_text(to_play(plays[0]))} ({plays[0][0]}), not {p['best']['move']}")
    for item in p["top"] + ([p["obvious"]] if p["obvious"] else []):
        score = state.preview(state.parse_move(item["move"])).score
        if score != item["score"]:
            out.append(f"{item['move']} scores {score}, not {item['score']}")
    if len(plays) != p["plays"]:
        out.append(f"{len(plays)} legal plays, not {p['plays']}")
    return out


def thot(p: dict[str, Any]) -> list[str]:
    from game.daily import thot as dt
    from game.thot.moves import ThotMove
    from game.thot.state import ThotState

    out: list[str] = []
    state = ThotState.from_position(p["position"])
    why = dt.reject(state)
    if why is not None:
        return [f"position: {why}"]
    values = daily.run(dt.root_values(state, p["plies"]))
    why = dt.judge(state, values)
    if why is not None:
        out.append(f"criteria: {why}")
    if values and values[0][0] != p["points"]:
        out.append(f"the exact value is {values[0][0]}, not {p['points']}")
    if values and state.move_text(ThotMove.from_code(values[0][1])) != p["line"][0]:
        out.append("the line does not start with the best first move")
    s, me, got = state.copy(), state.mover, [0, 0]
    for i, text in enumerate(p["line"]):
        seat = (me + i) % 2
        before = s.score[seat]
        try:
            s.push(s.parse_move(text))
        except ValueError as err:
            return out + [f"the line's move {i + 1} ({text}) is illegal: {err}"]
        got[i % 2] += s.score[seat] - before
    if got != [p["player_points"], p["computer_points"]] or got[0] - got[1] != p["points"]:
        out.append(f"the line collects {got}, not what is claimed")
    return out


def scarabya(p: dict[str, Any]) -> list[str]:
    from game.daily import scarabya as dy

    state = dy.new_game(p["seed"])
    if state.position() != p["position"] or state.deck != p["deck"]:
        return ["the deal is not the seed's"]
    for text in p["best"]["placements"]:
        try:
            state.push_text(text)
        except ValueError as err:
            return [f"the dig's placement {text} is illegal: {err}"]
    if not state.is_over() or state.scores[0] != p["best"]["score"]:
        return [f"the dig scores {state.scores[0]}, not {p['best']['score']}"]
    return []


def problems(game: str, p: dict[str, Any], lexicon: Any = None) -> list[str]:
    """What is wrong with ``p``, a day's puzzle of ``game`` (empty: it meets the criteria)."""
    out = ["relaxed: no candidate met the criteria"] if p.get("relaxed") else []
    if game == "scarabeo":
        return out + scarabeo(p, lexicon)
    if game == "thot":
        return out + thot(p)
    return out + scarabya(p)


def sweep(first: datetime.date, days: int, games: tuple[str, ...], lexicon: Any) -> dict[str, Any]:
    """Every puzzle of ``days`` dates from ``first``: the failures, and per game the furthest
    candidate used (how close the bounded tries came to the fallback)."""
    failures: list[dict[str, Any]] = []
    furthest: dict[str, dict[str, int]] = {g: {"attempt": 0, "turns_on": 0} for g in games}
    for k in range(days):
        day = first + datetime.timedelta(days=k)
        for game in games:
            p = daily.run(daily.generate_one(game, day, lexicon))
            found = problems(game, p, lexicon)
            if found:
                failures.append({"date": day.isoformat(), "game": game, "problems": found})
            for key in furthest[game]:
                furthest[game][key] = max(furthest[game][key], int(p.get(key, 0)))
    return {"first": first.isoformat(), "days": days, "games": list(games), "checked": days * len(games),
            "failed": len(failures), "failures": failures, "furthest": furthest}
