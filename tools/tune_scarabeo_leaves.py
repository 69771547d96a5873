"""Fit the Scarabeo rack-leave values (game/scarabeo/leaves.py) by self-play.

    # 1. play: seeded champion self-play games, each turn's score, leave and bag size saved
    #    (two processes; --weights: the leave weights to play with, default leaves.TUNED)
    .venv/bin/python tools/tune_scarabeo_leaves.py --games 250 --seed 20000 --weights round0 --save /tmp/h0.json
    .venv/bin/python tools/tune_scarabeo_leaves.py --games 250 --seed 20250 --weights round0 --save /tmp/h1.json
    # 2. fit (no game played): prints the weights for ``leaves.TUNED`` and the fit's figures
    .venv/bin/python tools/tune_scarabeo_leaves.py --fit /tmp/h0.json /tmp/h1.json
    # 3. a second round played with the first round's fit (``round1``) and the board-danger
    #    charge at 12 (ai.DANGER_WEIGHT, off by default), fitted together with the first
    .venv/bin/python tools/tune_scarabeo_leaves.py --games 250 --seed 21000 --weights round1 --danger 12 --save /tmp/h2.json
    .venv/bin/python tools/tune_scarabeo_leaves.py --games 250 --seed 21250 --weights round1 --danger 12 --save /tmp/h3.json
    .venv/bin/python tools/tune_scarabeo_leaves.py --fit /tmp/h0.json /tmp/h1.json /tmp/h2.json /tmp/h3.json

    # 4. a champion variant against greedy (seats alternating with the seed's parity, as
    #    ``selfplay``), each game's scores saved for paired comparisons: --set NAME=VALUE sets a
    #    constant of game.scarabeo.ai, --leave-scale multiplies the champion's leave weight
    .venv/bin/python tools/tune_scarabeo_leaves.py --match --games 300 --seed 31000 --set SCARAB_EXPOSURE=16 --save /tmp/m.json
    .venv/bin/python tools/tune_scarabeo_leaves.py --compare /tmp/base.json /tmp/m.json

Method: the given level (champion: equity with the current leave weights) plays both seats of
seeded 2-player games; the histories record, for every turn, the player, the points scored, the
tiles kept after a play (the leave, after any swap) and the tiles left in the bag. A sample is
every play that leaves at least 8 tiles in the bag and is followed by another turn of the same
player. Its features are ``leaves.features(leave)``; its target is

- ``--target td`` (default): the points of the player's next turn plus ``--gamma`` × the value
  of the leave that next turn kept (with the weight the opponent gives it at that bag size:
  full, half with fewer than 8 tiles in the bag, none when empty), the value coming from the
  previous iteration's fit (``--iterations``, the first one without it). This is a temporal-
  difference target: a tile kept for later (a scarab held for a bonus) is credited with what it
  brings on the turns after the next one too, not only on the next.
- ``--target next``: the points of the next turn alone (the first tuning's target).

A ridge least-squares fit ``target ≈ b + Σ w_f × feature_f`` (ridge ``--ridge`` toward
``leaves.PRIOR``, so a rare tile kind keeps about its prior value) gives w: what each feature of
the leave adds to the coming turns' points above the average. R² is reported on the games whose
seed is a multiple of 5 with the weights fitted on the others (held out), and on all; the
printed weights are fitted on all. Games are deterministic, so runs over seed ranges can be
split, saved and fitted together.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.scarabeo import ai, leaves  # noqa: E402
from game.scarabeo.game import ScarabeoState  # noqa: E402
from game.scarabeo.moves import Play  # noqa: E402
from game.scarabeo.rules import apply_swaps, resolve_play  # noqa: E402

#: One turn of a history: player, points, the leave of a play (None otherwise), bag after.
Turn = tuple[int, int, "str | None", int]
Sample = tuple[dict[str, int], float, int]  # features, target, game seed


#: The weights the tuning rounds played with, in today's features. ``round0``: the first tuning
#: (45 games, next-turn target; its "duplicates" and "imbalance" weights are the same for vowels
#: and consonants); ``round1``: the first round's fit (``--fit h0 h1``).
ROUNDS: dict[str, dict[str, float]] = {
    "round0": {
        "A": 1.04, "B": -4.73, "C": -0.45, "D": 1.45, "E": 1.07, "F": -1.78, "G": -1.11,
        "H": 4.07, "I": 3.75, "L": 0.24, "M": -5.71, "N": -2.03, "O": -0.73, "P": -6.75,
        "Q": -3.38, "R": 4.27, "S": -1.09, "T": -2.51, "U": -4.15, "V": -5.93, "Z": 1.29,
        "?": 13.52, "vowel_dups": -5.1, "consonant_dups": -5.1, "triples": 0.0,
        "more_vowels": -4.88, "more_consonants": -4.88, "q_without_u": -3.34, "two_scarabs": 0.0,
    },
    "round1": {
        "A": 7.48, "B": -8.79, "C": -5.05, "D": -1.88, "E": 1.28, "F": -10.22, "G": -4.85,
        "H": -9.03, "I": 8.93, "L": -1.52, "M": -1.99, "N": 0.28, "O": 0.76, "P": -10.03,
        "Q": -20.43, "R": 5.26, "S": -2.35, "T": -4.52, "U": -1.69, "V": -4.08, "Z": -9.11,
        "?": 17.62, "vowel_dups": -4.6, "consonant_dups": -5.41, "triples": -7.89,
        "more_vowels": -5.24, "more_consonants": -3.39, "q_without_u": 1.93, "two_scarabs": 18.78,
    },
}


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the matrix is small and well conditioned)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[piv] = m[piv], m[col]
        p = m[col][col]
        for r in range(n):
            if r != col and m[r][col]:
                f = m[r][col] / p
                for c in range(col, n + 1):
                    m[r][c] -= f * m[col][c]
    return [m[i][n] / m[i][i] for i in range(n)]


def collect(games: int, seed: int, level: str) -> list[dict[str, Any]]:
    """Seeded self-play games of ``level`` against itself, as histories."""
    import lexicon  # noqa: PLC0415 - only playing needs the lexicon file

    lex = lexicon.load()
    out: list[dict[str, Any]] = []
    for g in range(games):
        state = ScarabeoState.new(2, seed + g, word_list=lex)
        turns: list[Turn] = []
        while not state.is_over():
            player = state.turn
            move = ai.choose(state, level)
            left = "".join(leave_of(state, move)) if isinstance(move, Play) else None
            result = state.push(move)
            turns.append((player, result.score, left, len(state.bag)))
        outcome = state.outcome()
        assert outcome is not None
        out.append({"seed": seed + g, "turns": turns, "final": list(outcome.scores)})
        print(f"game {g + 1}/{games}: {outcome.scores}", file=sys.stderr, flush=True)
    return out


def leave_of(state: ScarabeoState, play: Play) -> list[str]:
    """The tiles the player keeps after ``play`` (swaps first: letter out, scarab in)."""
    board = state.board[:]
    rack = state.racks[state.turn][:]
    apply_swaps(board, rack, play.swaps)
    for _, ch in resolve_play(board, play):
        rack.remove("?" if ch.islower() else ch)
    return rack


def bag_weight(bag: int) -> float:
    """The leave's weight in the champion's equity at this bag size (as ``ai.rank_plays``)."""
    return 1.0 if bag >= 8 else ai.NEAR_END_LEAVE if bag > 0 else 0.0


def samples(histories: list[dict[str, Any]], target: str, gamma: float,
            value: Callable[[str], float] | None) -> list[Sample]:
    out: list[Sample] = []
    for h in histories:
        turns = h["turns"]
        for i, (player, _, leave, bag) in enumerate(turns):
            if leave is None or bag < 8:
                continue
            nxt = next((t for t in turns[i + 1:] if t[0] == player), None)
            if nxt is None:
                continue
            y = float(nxt[1])
            if target == "td" and value is not None and nxt[2] is not None:
                y += gamma * bag_weight(nxt[3]) * value(nxt[2])
            out.append((leaves.features(leave), y, h["seed"]))
    return out


def fit_weights(data: list[Sample], ridge: float,
                toward: dict[str, float] | None = None) -> tuple[float, dict[str, float]]:
    """Ridge least squares of the target on the features, shrunk toward ``toward`` (default
    ``leaves.PRIOR``)."""
    names = list(leaves.FEATURES)
    centre = leaves.PRIOR if toward is None else toward
    prior = [centre.get(n, 0.0) for n in names]
    k = len(names) + 1
    xtx = [[0.0] * k for _ in range(k)]
    xty = [0.0] * k
    for feats, y0, _ in data:
        x = [1.0] + [float(feats.get(n, 0)) for n in names]
        y = y0 - sum(prior[i] * x[i + 1] for i in range(len(names)))
        nz = [i for i in range(k) if x[i]]
        for i in nz:
            xty[i] += x[i] * y
            for j in nz:
                xtx[i][j] += x[i] * x[j]
    for i in range(1, k):
        xtx[i][i] += ridge
    w = solve(xtx, xty)
    return w[0], {n: w[i + 1] + prior[i] for i, n in enumerate(names)}


def r2(data: list[Sample], b: float, w: dict[str, float]) -> float:
    ys = [y for _, y, _ in data]
    mean = sum(ys) / len(ys)
    ss_tot = sum((y - mean) ** 2 for y in ys)
    ss_res = sum((y - b - sum(w.get(n, 0.0) * v for n, v in f.items())) ** 2 for f, y, _ in data)
    return 1 - ss_res / ss_tot if ss_tot else 0.0


def fit(histories: list[dict[str, Any]], target: str = "td", gamma: float = 0.8,
        iterations: int = 4, ridge: float = 5.0,
        toward: dict[str, float] | None = None) -> dict[str, object]:
    """The fit's figures and weights; ``toward``: the weights the ridge shrinks toward (default
    ``leaves.PRIOR``); given, the TD target's first iteration values the next leave with them
    too (a further round from those weights)."""
    value: Callable[[str], float] | None = None
    if toward is not None:
        value = (lambda wt: lambda leave: leaves.value(leave, wt))(dict(toward))
    rounds = iterations if target == "td" else 1
    report: dict[str, object] = {}
    for it in range(rounds):
        data = samples(histories, target, gamma, value)
        train = [s for s in data if s[2] % 5]
        held = [s for s in data if s[2] % 5 == 0]
        b_train, w_train = fit_weights(train, ridge, toward)
        b, w = fit_weights(data, ridge, toward)
        report = {
            "weights": {n: round(v, 2) for n, v in w.items()},
            "intercept": round(b, 2),
            "samples": len(data),
            "games": len(histories),
            "r2": round(r2(data, b, w), 3),
            "r2_held_out": round(r2(held, b_train, w_train), 3) if held else None,
            "mean_target": round(sum(y for _, y, _ in data) / len(data), 2),
            "target": target, "gamma": gamma, "iteration": it + 1, "ridge": ridge,
            "toward": "prior" if toward is None else "given",
        }
        print(f"iteration {it + 1}: {len(data)} samples, R² {report['r2']} "
              f"(held out {report['r2_held_out']})", file=sys.stderr)
        value = (lambda wt: lambda leave: leaves.value(leave, wt))(dict(w))
    return report


def match(games: int, seed: int) -> list[dict[str, Any]]:
    """Champion (as set up by the caller) against greedy on seeds ``seed`` … ``seed + games - 1``;
    the champion sits first on even seeds. Each game: seed, seat, both scores (champion's first),
    the champion's process time and turns."""
    import lexicon  # noqa: PLC0415 - only playing needs the lexicon file

    from game.scarabeo.ai_cli import play_game  # noqa: PLC0415

    lex = lexicon.load()
    rows: list[dict[str, Any]] = []
    for g in range(games):
        s = seed + g
        seat = 0 if s % 2 == 0 else 1
        levels = [ai.LEVELS["champion"], ai.GREEDY]
        res = play_game(levels if seat == 0 else levels[::-1], s, lex)
        mine, theirs = res["scores"][seat], res["scores"][1 - seat]
        rows.append({"seed": s, "seat": seat, "scores": [mine, theirs],
                     "cpu_s": res["cpu_s"][seat], "turns": res["seat_turns"][seat]})
        print(f"game {g + 1}/{games} seed {s}: {mine} - {theirs}", file=sys.stderr, flush=True)
    return rows


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Win rate (draws half) with its Wilson 95 % interval, mean margin ± standard error, ms a turn."""
    n = len(rows)
    wins = sum(1.0 if a > b else 0.5 if a == b else 0.0 for a, b in (r["scores"] for r in rows))
    margins = [a - b for a, b in (r["scores"] for r in rows)]
    mean = sum(margins) / n
    sd = (sum((m - mean) ** 2 for m in margins) / max(1, n - 1)) ** 0.5
    z = 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return {"games": n, "wins": wins, "win_rate": round(p, 4),
            "wilson95": [round(centre - half, 4), round(centre + half, 4)],
            "margin": round(mean, 1), "margin_se": round(sd / n ** 0.5, 1),
            "ms_per_turn": round(1000 * sum(r["cpu_s"] for r in rows)
                                 / max(1, sum(r["turns"] for r in rows)), 1)}


def compare(base: list[dict[str, Any]], other: list[dict[str, Any]]) -> dict[str, Any]:
    """The paired change of the margin, game by game on the seeds both files hold."""
    by_seed = {r["seed"]: r for r in base}
    diffs = [(r["scores"][0] - r["scores"][1])
             - (by_seed[r["seed"]]["scores"][0] - by_seed[r["seed"]]["scores"][1])
             for r in other if r["seed"] in by_seed]
    n = len(diffs)
    mean = sum(diffs) / n
    sd = (sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)) ** 0.5
    common = {r["seed"] for r in other} & set(by_seed)
    return {"base": summary([r for r in base if r["seed"] in common]),
            "other": summary([r for r in other if r["seed"] in common]),
            "paired_margin_change": round(mean, 1), "paired_se": round(sd / n ** 0.5, 1),
            "games_changed": sum(1 for d in diffs if d)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--level", default="champion")
    ap.add_argument("--save", help="write the games' histories (JSON) to this file")
    ap.add_argument("--weights", help="play with these leave weights: round0, round1 or a JSON "
                    "file (this script's output); default leaves.TUNED")
    ap.add_argument("--danger", type=float, default=None,
                    help="ai.DANGER_WEIGHT while playing (default: the module's)")
    ap.add_argument("--fit", nargs="+", metavar="FILE", help="fit saved histories, play no game")
    ap.add_argument("--match", action="store_true",
                    help="play the champion against greedy instead (no fit); --save the games")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="with --match: set a number of game.scarabeo.ai (e.g. SCARAB_EXPOSURE=16)")
    ap.add_argument("--leave-scale", type=float, default=1.0,
                    help="with --match: the champion's leave weight (1: as it is)")
    ap.add_argument("--compare", nargs=2, metavar=("BASE", "OTHER"),
                    help="two saved --match files: each one's figures and the paired change")
    ap.add_argument("--target", choices=("td", "next"), default="td")
    ap.add_argument("--gamma", type=float, default=0.8)
    ap.add_argument("--iterations", type=int, default=4)
    ap.add_argument("--ridge", type=float, default=5.0)
    ap.add_argument("--toward", choices=("prior", "tuned"), default="prior",
                    help="the ridge shrinks toward leaves.PRIOR (default) or leaves.TUNED (a "
                    "further round from today's weights; the TD target starts from them)")
    args = ap.parse_args()
    t0 = time.time()
    if args.compare:
        base, other = (json.loads(Path(name).read_text()) for name in args.compare)
        print(json.dumps(compare(base, other), indent=1))
        return 0
    if args.weights:
        chosen: Any = ROUNDS.get(args.weights) or json.loads(Path(args.weights).read_text())
        chosen = chosen.get("weights", chosen)
        leaves.WEIGHTS.clear()
        leaves.WEIGHTS.update(chosen)
    if args.match:
        for item in args.set:
            name, _, text = item.partition("=")
            if not isinstance(getattr(ai, name, None), (int, float)):
                ap.error(f"--set: {name} is not a number of game.scarabeo.ai")
            setattr(ai, name, type(getattr(ai, name))(float(text)))
        champ = ai.LEVELS["champion"]
        ai.LEVELS["champion"] = dataclasses.replace(
            champ, leave_weight=champ.leave_weight * args.leave_scale)
        rows = match(args.games, args.seed)
        if args.save:
            Path(args.save).write_text(json.dumps(rows))
        print(json.dumps({**summary(rows), "set": args.set, "leave_scale": args.leave_scale,
                          "seed": args.seed, "seconds": round(time.time() - t0, 1)}, indent=1))
        return 0
    if args.fit:
        histories = [h for name in args.fit for h in json.loads(Path(name).read_text())]
    else:
        if args.danger is not None:
            ai.DANGER_WEIGHT = args.danger
        histories = collect(args.games, args.seed, args.level)
        if args.save:
            Path(args.save).write_text(json.dumps(histories))
    toward = dict(leaves.TUNED) if args.toward == "tuned" and leaves.TUNED else None
    out = fit(histories, args.target, args.gamma, args.iterations, args.ridge, toward)
    out["seconds"] = round(time.time() - t0, 1)
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
