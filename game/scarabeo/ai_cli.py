"""``python -m game scarabeo best|selfplay|bench|positions`` — the computer player's commands.

JSON on stdout; exit 0 ok, 2 malformed input (message in the JSON ``error`` field and on
stderr).

- ``best POSITION [--top N] [--level L]`` → ``[{"move": "9C CONTARE", "score": 58, …}, …]``,
  best first (by score at ``--level max``, by the level's choice otherwise).
- ``selfplay --games N --levels A,B --seed S`` → win rates, mean scores, bonus rates.
- ``bench [--positions FILE] [--repeat R]`` → full-generation figures per rack class.
- ``positions [--count N] [--seed S]`` → the seeded bench positions, one a line (not JSON).
- ``endgame-bench [--count N] [--seed S] [--tiles T] [--time S]`` → the solver on seeded endgames,
  timed against the champion's look-ahead in the same run, with the load average.
- ``endgame POSITION [--time S]`` → the solved line and its final spread (``endgame.py``): bag
  empty, the exact endgame; 1 or 2 tiles in the bag, the pre-endgame's candidates over every draw.
- ``endgame-review [--count N] [--seed S] [--tiles T] [--top K] [--work W]`` → the analysis's
  loss of the champion's best K moves on seeded endgames, exact against the champion's one-reply
  figure: how often they differ, with the load average.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from typing import Any, Sequence

from game.core import NotationError, cliargs
from game.scarabeo import ai, ai_bench, endgame
from game.scarabeo.game import ScarabeoState
from game.scarabeo.moves import Play, move_text
from game.scarabeo.tiles import HIDDEN

OK, MALFORMED = 0, 2
#: The shipped file is 6 KB; reading stops here (``--positions /dev/zero`` must not fill memory).
MAX_POSITIONS_BYTES = 10_000_000
#: Stated maxima of the counts: a champion game takes some seconds, a position about one.
MAX_TOP, MAX_GAMES, MAX_REPEAT, MAX_POSITIONS = 1000, 10_000, 100, 10_000
#: The endgame's default budget and its stated maximum (seconds of wall-clock search).
ENDGAME_TIME, MAX_ENDGAME_TIME = 10.0, 86_400.0
#: The most work a move the simulating level may be given on the command line.
MAX_BUDGET = 100_000.0
POSITIONS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench_positions.txt")


class _Usage(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:
        raise _Usage(f"{self.prog}: {message}")


def _emit(data: Any) -> None:
    print(json.dumps(data, ensure_ascii=False))


def _fail(message: str) -> int:
    _emit({"error": message})
    print(message, file=sys.stderr)
    return MALFORMED


def _lexicon() -> Any:
    from game.scarabeo.lexicon_file import load_lexicon  # noqa: PLC0415 - only the commands that need it

    return load_lexicon(otherwise="")


def cmd_best(args: argparse.Namespace) -> int:
    try:
        level = ai.level_of(args.level)
    except ValueError as err:
        return _fail(str(err))
    try:
        state = ScarabeoState.from_position(args.position)
    except NotationError as err:
        return _fail(f"position: {err}")
    if HIDDEN in state.racks[state.turn]:
        # A seat's masked position (game.scarabeo.public) whose own draw is not yet revealed.
        return _fail("position: the rack to move holds hidden tiles (_): best needs the whole rack")
    try:
        # After the position: a malformed one is refused without the lexicon's load time.
        state.word_list = _lexicon()
    except RuntimeError as err:
        return _fail(str(err))
    if state.is_over():
        _emit([])
        return OK
    choices = ai.best_moves(state, args.top, level)
    out = []
    for c in choices:
        item = ai.describe(state, c)
        out.append({"move": item["move"], "score": c.score, "equity": round(c.equity, 2),
                    "words": item["words"], "leave": c.leave})
    _emit(out)
    return OK


def cmd_endgame(args: argparse.Namespace) -> int:
    try:
        state = ScarabeoState.from_position(args.position)
    except NotationError as err:
        return _fail(f"position: {err}")
    try:
        endgame.check_position(state)  # before the lexicon's load time
    except endgame.EndgameError as err:
        return _fail(f"position: {err}")
    try:
        lex = _lexicon()
    except RuntimeError as err:
        return _fail(str(err))
    state.word_list = lex
    gen = ai.generator_for(lex)
    t0 = time.perf_counter()
    deadline: float = t0 + args.time

    def out_of_time() -> bool:
        return time.perf_counter() >= deadline

    if state.bag:
        pre = endgame.pre_solve(state, gen, should_stop=out_of_time)
        best = pre.candidates[0] if pre.candidates else None
        _emit({
            "kind": "pre-endgame",
            "move": move_text(best.move) if best else None,
            "value": round(best.value, 2) if best else None,
            "line": [{"move": move_text(best.move), "player": 0, "score": best.score}] if best else [],
            "candidates": [{"move": move_text(c.move), "score": c.score, "value": round(c.value, 2),
                            "wins": round(c.wins, 3), "solved": c.solved} for c in pre.candidates],
            "bag": pre.bag,
            "draws": pre.draws,
            "draw_weight": pre.weight,
            "complete": pre.complete,
            "depth": pre.depth,
            "nodes": pre.nodes,
            "seconds": round(time.perf_counter() - t0, 2),
            "error": None,
        })
        return OK
    sol = endgame.solve(state, gen, should_stop=out_of_time)
    seconds = time.perf_counter() - t0
    # The line played on the engine's own state: its moves are legal and, when it reaches the
    # end of the game, the engine's final scores say what the line is worth.
    final: list[int] | None = None
    for step in sol.line:
        state.push(step.move)
    if state.is_over():
        me = (state.turn - len(sol.line)) % 2
        final = [state.scores[me], state.scores[1 - me]]
    _emit({
        "kind": "endgame",
        "move": move_text(sol.move) if sol.move is not None else None,
        "value": sol.value,
        "line": [s.to_json() for s in sol.line],
        "final_scores": final,
        "complete": sol.complete,
        "depth": sol.depth,
        "nodes": sol.nodes,
        "seconds": round(seconds, 2),
        "error": None,
    })
    return OK


def cmd_endgame_bench(args: argparse.Namespace) -> int:
    """Genuine endgames of seeded greedy games (both racks of at most ``--tiles``): the solver
    under ``--time`` against the champion's one-reply look-ahead, timed in the same run."""
    try:
        lex = _lexicon()
    except RuntimeError as err:
        return _fail(str(err))
    gen = ai.generator_for(lex)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    positions = endgame.sample_endgames(gen, args.count, args.seed, args.tiles, deals=1)
    rows: list[dict[str, Any]] = []
    for text in positions:
        state = ScarabeoState.from_position(text, word_list=lex)
        t0 = time.process_time()
        deadline: float = time.perf_counter() + args.time
        sol = endgame.solve(state, gen, should_stop=lambda: time.perf_counter() >= deadline)
        solver_s = time.process_time() - t0
        t0 = time.process_time()
        champion = ai.choose(state, "champion")
        champion_s = time.process_time() - t0
        rows.append({"position": text, "racks": text.split(" ")[1], "complete": sol.complete,
                     "depth": sol.depth, "nodes": sol.nodes, "solver_s": round(solver_s, 3),
                     "champion_s": round(champion_s, 3),
                     "time_ratio": round(solver_s / max(champion_s, 1e-6), 1),
                     "same_move": sol.move == champion, "value": sol.value})
    _emit({"positions": len(rows), "seed": args.seed, "tiles": args.tiles, "time": args.time,
           "solved": sum(r["complete"] for r in rows),
           "nodes_per_s": round(sum(r["nodes"] for r in rows) / max(1e-6, sum(r["solver_s"] for r in rows)), 1),
           "load_average": load, "rows": rows, "error": None})
    return OK


def cmd_endgame_review(args: argparse.Namespace) -> int:
    """The analysis's loss of each move in genuine endgames, exact against the champion's: the
    first turn of ``--count`` seeded greedy games with the bag empty and both racks of at most
    ``--tiles``; the moves judged are the champion's best ``--top`` as the analysis lists them
    with no exact endgame (its one-reply look); their exact values are the solver's, as the
    analysis computes them (the root searched, then each move on its own, all within ``--work``
    units of ``sim.counted_work``). How often the champion's loss is not the exact one, in the
    same run, with the load average before and after."""
    from game.core.analysis import rounded, run  # noqa: PLC0415 - only this command needs them
    from game.scarabeo import analysis, sim  # noqa: PLC0415

    try:
        lex = _lexicon()
    except RuntimeError as err:
        return _fail(str(err))
    gen = ai.generator_for(lex)
    load = [os.getloadavg()[0] if hasattr(os, "getloadavg") else None]
    started = time.perf_counter()
    positions = endgame.sample_endgames(gen, args.count, args.seed, args.tiles, deals=1)
    rows: list[dict[str, Any]] = []
    for text in positions:
        state = ScarabeoState.from_position(text, word_list=lex)
        champion = run(analysis.turn_steps(state, ai.choose(state, "champion"), lex, args.top, 0))
        t0 = time.process_time()
        solver = endgame.EndgameSolver(state, gen)
        search = solver.search
        search.should_stop = lambda: sim.counted_work(search) >= args.work
        sol = run(solver.run())
        listed = [(state.parse_move(a.move), int(a.detail["score"])) for a in champion.best]
        values = run(solver.values(listed)) if sol.complete else []
        seconds = time.process_time() - t0
        moves = []
        for k, a in enumerate(champion.best):
            loss = rounded(champion.best[0].value - a.value)
            v = values[k] if values else None
            exact_loss = None if v is None or not v.complete else rounded(sol.value - v.value)
            moves.append({"move": a.move, "champion_loss": loss, "exact_loss": exact_loss,
                          "champion_class": analysis.THRESHOLDS.classify(loss),
                          "exact_class": (None if exact_loss is None
                                          else analysis.THRESHOLDS.classify(exact_loss))})
        rows.append({"position": text, "racks": text.split(" ")[1], "proved": sol.complete,
                     "exact_best": move_text(sol.line[0].move) if sol.complete and sol.line else None,
                     "work": round(sim.counted_work(search), 1), "solver_s": round(seconds, 3),
                     "moves": moves})
    judged = [m for r in rows for m in r["moves"] if m["exact_loss"] is not None]
    differs = [m for m in judged if abs(m["exact_loss"] - m["champion_loss"]) > 0.5]
    load.append(os.getloadavg()[0] if hasattr(os, "getloadavg") else None)
    _emit({"positions": len(rows), "seed": args.seed, "tiles": args.tiles, "top": args.top,
           "work": args.work, "proved": sum(r["proved"] for r in rows),
           "moves_judged": len(judged), "loss_differs": len(differs),
           "class_differs": sum(m["exact_class"] != m["champion_class"] for m in judged),
           "champion_best_not_best": sum(m["champion_loss"] == 0 and m["exact_loss"] > 0
                                         for m in judged),
           "mean_abs_difference": (round(statistics.fmean(abs(m["exact_loss"] - m["champion_loss"])
                                                          for m in judged), 2) if judged else None),
           "solver_s": round(sum(r["solver_s"] for r in rows), 2),
           "seconds": round(time.perf_counter() - started, 1),
           "load_average": load, "rows": rows, "error": None})
    return OK


def play_game(levels: Sequence[ai.Level], seed: int, lexicon: Any,
              budget: float | None = None) -> dict[str, Any]:
    """One seeded 2-player game; ``levels[i]`` sits in seat i (``budget``: the simulating
    level's work budget a move, None for the page's)."""
    state = ScarabeoState.new(len(levels), seed, word_list=lexicon)
    plays = [0] * len(levels)
    bonus_plays = [0] * len(levels)
    bingos = [0] * len(levels)
    think_s = [0.0] * len(levels)
    cpu_s = [0.0] * len(levels)
    cpu_max = [0.0] * len(levels)
    seat_turns = [0] * len(levels)
    while not state.is_over():
        seat = state.turn
        t0 = time.perf_counter()
        c0 = time.process_time()
        move = ai.choose(state, levels[seat], budget=budget)
        think_s[seat] += time.perf_counter() - t0
        spent = time.process_time() - c0
        cpu_s[seat] += spent
        cpu_max[seat] = max(cpu_max[seat], spent)
        seat_turns[seat] += 1
        result = state.push(move)
        if isinstance(move, Play) and result.breakdown is not None:
            plays[seat] += 1
            if result.breakdown.bonuses:
                bonus_plays[seat] += 1
            if result.breakdown.tiles_placed >= 6:
                bingos[seat] += 1
    out = state.outcome()
    assert out is not None
    return {"scores": list(out.scores), "winners": list(out.winners), "plays": plays,
            "bonus_plays": bonus_plays, "six_plus": bingos, "think_s": think_s,
            "cpu_s": cpu_s, "cpu_max_s": cpu_max, "seat_turns": seat_turns,
            "turns": len(state.history())}


def cmd_selfplay(args: argparse.Namespace) -> int:
    names = [n.strip() for n in args.levels.split(",")]
    if len(names) != 2:
        return _fail(f"--levels needs two levels, e.g. champion,beginner (got {args.levels!r})")
    try:
        levels = [ai.level_of(n) for n in names]
    except ValueError as err:
        return _fail(str(err))
    try:
        lex = _lexicon()
    except RuntimeError as err:
        return _fail(str(err))
    labels = [f"A:{levels[0].name}", f"B:{levels[1].name}"]
    wins = [0.0, 0.0]
    draws = 0
    scores: list[list[int]] = [[], []]
    plays = [0, 0]
    bonus = [0, 0]
    six = [0, 0]
    think = [0.0, 0.0]
    cpu = [0.0, 0.0]
    cpu_max = [0.0, 0.0]
    turns_of = [0, 0]
    turns = 0
    t0 = time.perf_counter()
    for g in range(args.games):
        # Seats alternate with the seed's parity, so that runs split over seed ranges add up
        # to one run.
        order = [0, 1] if (args.seed + g) % 2 == 0 else [1, 0]
        res = play_game([levels[order[0]], levels[order[1]]], args.seed + g, lex, args.budget)
        turns += res["turns"]
        for seat, who in enumerate(order):
            scores[who].append(res["scores"][seat])
            plays[who] += res["plays"][seat]
            bonus[who] += res["bonus_plays"][seat]
            six[who] += res["six_plus"][seat]
            think[who] += res["think_s"][seat]
            cpu[who] += res["cpu_s"][seat]
            cpu_max[who] = max(cpu_max[who], res["cpu_max_s"][seat])
            turns_of[who] += res["seat_turns"][seat]
        if len(res["winners"]) > 1:
            draws += 1
            for who in order:
                wins[who] += 0.5
        else:
            wins[order[res["winners"][0]]] += 1
        if args.progress:
            print(f"game {g + 1}/{args.games}: {labels[order[0]]} {res['scores'][0]} - "
                  f"{labels[order[1]]} {res['scores'][1]}", file=sys.stderr, flush=True)
    n = args.games
    _emit({
        "games": n,
        "seed": args.seed,
        "levels": [lv.name for lv in levels],
        "win_rate": {labels[i]: round(wins[i] / n, 3) for i in range(2)},
        "wins": {labels[i]: wins[i] for i in range(2)},
        "draws": draws,
        "mean_score": {labels[i]: round(statistics.mean(scores[i]), 1) for i in range(2)},
        "bonus_rate": {labels[i]: round(bonus[i] / max(1, plays[i]), 3) for i in range(2)},
        "six_plus_tiles_per_game": {labels[i]: round(six[i] / n, 2) for i in range(2)},
        "think_ms_per_play": {labels[i]: round(1000 * think[i] / max(1, plays[i]), 1)
                              for i in range(2)},
        # Process time (the wall clock above counts the other jobs of a loaded machine too).
        "cpu_ms_per_turn": {labels[i]: round(1000 * cpu[i] / max(1, turns_of[i]), 1)
                            for i in range(2)},
        "cpu_ms_max": {labels[i]: round(1000 * cpu_max[i], 1) for i in range(2)},
        "mean_turns": round(turns / n, 1),
        "seconds": round(time.perf_counter() - t0, 1),
        "budget": args.budget,
        "error": None,
    })
    return OK


def cmd_bench(args: argparse.Namespace) -> int:
    try:
        text = cliargs.read_text(args.positions, MAX_POSITIONS_BYTES, "positions file")
    except ValueError as err:
        return _fail(str(err))
    try:
        lex = _lexicon()
    except RuntimeError as err:
        return _fail(str(err))
    from game.scarabeo.movegen import MoveGenerator  # noqa: PLC0415

    t0 = time.perf_counter()
    gen = MoveGenerator(lex)
    setup_ms = (time.perf_counter() - t0) * 1000
    try:
        result = ai_bench.run(gen, text, args.repeat)
    except NotationError as err:
        return _fail(f"{args.positions}: {err}")
    if not args.rows:
        del result["rows"]
    result["generator_setup_ms"] = round(setup_ms, 1)
    result["cpus"] = os.cpu_count()
    _emit(result)
    return OK


def cmd_positions(args: argparse.Namespace) -> int:
    try:
        lex = _lexicon()
    except RuntimeError as err:
        return _fail(str(err))
    for line in ai_bench.make_positions(lex, args.count, args.seed):
        print(line)
    return OK


def _budget(text: str) -> float:
    """argparse ``type=`` for ``--budget``: a finite number of work units, above 0."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0 < value <= MAX_BUDGET):
        raise argparse.ArgumentTypeError(f"a work budget above 0 and at most {MAX_BUDGET:g} is "
                                         f"needed, not {text[:40]!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m game scarabeo", description="Scarabeo computer player")
    sub = p.add_subparsers(dest="command", parser_class=_Parser)
    b = sub.add_parser("best", help="the best plays of a position")
    b.add_argument("position")
    cliargs.add_count(b, "--top", 1, MAX_TOP, 10, "plays listed")
    b.add_argument("--level", default="max")
    s = sub.add_parser("selfplay", help="seeded games between two levels")
    cliargs.add_count(s, "--games", 1, MAX_GAMES, 10)
    s.add_argument("--levels", default="champion,beginner")
    s.add_argument("--seed", type=cliargs.seed, default=1)
    s.add_argument("--progress", action="store_true", help="one line per game on stderr")
    s.add_argument("--budget", type=_budget, default=None,
                   help="the simulating level's work a move (units of about 60 ms of CPython; "
                   "default that of the page)")
    m = sub.add_parser("bench", help="move-generation timings over the fixed positions")
    m.add_argument("--positions", default=POSITIONS_FILE)
    cliargs.add_count(m, "--repeat", 1, MAX_REPEAT, 1, "runs over the positions")
    m.add_argument("--rows", action="store_true", help="include each position's timing")
    e = sub.add_parser("endgame", help="solve a two-player endgame (bag empty) or pre-endgame (1-2 in the bag)")
    e.add_argument("position")
    e.add_argument("--time", type=cliargs.seconds(MAX_ENDGAME_TIME), default=ENDGAME_TIME,
                   help=f"seconds of search at most (default {ENDGAME_TIME:g}); the best line so far "
                   "when cut, with complete false")
    eb = sub.add_parser("endgame-bench", help="the endgame solver on seeded endgames, against the champion")
    cliargs.add_count(eb, "--count", 1, 1000, 6, "endgames (one per seeded game)")
    eb.add_argument("--seed", type=cliargs.seed, default=1)
    cliargs.add_count(eb, "--tiles", 1, 8, 4, "most tiles on either rack")
    eb.add_argument("--time", type=cliargs.seconds(MAX_ENDGAME_TIME), default=ENDGAME_TIME,
                    help=f"seconds of search per endgame at most (default {ENDGAME_TIME:g})")
    er = sub.add_parser("endgame-review", help="the analysis's exact loss against the champion's "
                        "on seeded endgames")
    cliargs.add_count(er, "--count", 1, 1000, 30, "endgames (one per seeded game)")
    er.add_argument("--seed", type=cliargs.seed, default=1)
    cliargs.add_count(er, "--tiles", 1, 8, 4, "most tiles on either rack")
    cliargs.add_count(er, "--top", 1, 20, 5, "the champion's moves judged per endgame")
    cliargs.add_count(er, "--work", 1, 10_000, 30, "the exact endgame's work units a turn "
                      "(the analysis's: 30)")
    q = sub.add_parser("positions", help="make the seeded bench positions")
    cliargs.add_count(q, "--count", 1, MAX_POSITIONS, 54, "positions made")
    q.add_argument("--seed", type=cliargs.seed, default=1)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    try:
        return _main(args_list)
    except Exception as err:  # noqa: BLE001 - the last net: a line on stderr, never a traceback
        return _fail(cliargs.internal_error(err))


def _main(args_list: list[str]) -> int:
    parser = build_parser()
    if not args_list or args_list[0] in ("-h", "--help"):
        parser.print_help(sys.stderr)
        return OK if args_list else MALFORMED
    try:
        args = parser.parse_args(cliargs.protect_positionals(parser, args_list))
    except _Usage as err:
        return _fail(str(err))
    except SystemExit as exc:
        return int(exc.code or 0)
    handler = {"best": cmd_best, "selfplay": cmd_selfplay, "bench": cmd_bench,
               "positions": cmd_positions, "endgame": cmd_endgame,
               "endgame-bench": cmd_endgame_bench, "endgame-review": cmd_endgame_review}
    if args.command not in handler:
        return _fail("a command is needed: best, selfplay, bench, positions or endgame")
    return handler[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
