"""``python -m game scarabya COMMAND …`` - JSON on stdout.

Exit codes: 0 ok, 1 illegal move, 2 malformed input (bad arguments, position, move text or record).
Positions contain spaces: quote them, or pass them as several words (they are joined back).
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

from game.core import GameRecord, IllegalMove, NotationError, RecordError, cliargs
from game.core.record import MAX_RECORD_BYTES
from game.scarabya import AnyState, PiecePlace, RuinsState, ScarabyaState, load, new, record, replay, solver
from game.scarabya.state import MAX_PLAYERS

OK, ILLEGAL, MALFORMED = 0, 1, 2
#: Pyodide 3.14 (WebAssembly) CPU time / CPython 3.11 CPU time for the top-level search, measured
#: on this code (docs/scarabya.md); the team's general rule of thumb is 1.7
PYODIDE_FACTOR = 3.6
#: Stated maximum of --games: a top-level game takes about a second; past this it is a slip.
MAX_GAMES = 100_000


def emit(data: Any) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=None, separators=(",", ":")))


def fail(code: int, kind: str, message: str, **extra: Any) -> int:
    emit({"error": message, "code": kind, **extra})
    print(f"scarabya: {message}", file=sys.stderr)
    return code


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # keep argparse's exit code 2, but as JSON too
        raise _ArgError(f"{self.prog}: {message}")


class _ArgError(Exception):
    pass


def _levels(text: str) -> list[int]:
    try:
        levels = [int(x) for x in text.split(",") if x]
    except ValueError:
        raise _ArgError(f"levels must be numbers like 1,2,3,4, not {text!r}") from None
    for lv in levels:
        if lv not in solver.LEVELS:
            raise _ArgError(f"level {lv} does not exist (levels are {sorted(solver.LEVELS)})")
    return levels


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m game scarabya", description="Scarabya engine, solver and bench")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    n = sub.add_parser("new", help="a new game's view (with its position)")
    n.add_argument("--players", type=int, default=None)
    n.add_argument("--layout", help="e.g. 1.0-2.3-3.1-4.2 (classic)")
    n.add_argument("--deck", help="classic: 12 tile letters, e.g. LIPNTUVWXYZF; ruins: 16 hex ids")
    n.add_argument("--zones", help="ruins: 16 digits 1-9, four distinct per round")
    n.add_argument("--seed", type=cliargs.seed, default=0)
    n.add_argument("--variant", choices=("classic", "ruins"), default="classic")

    s = sub.add_parser("show", help="the view of a position")
    s.add_argument("position", nargs="+")

    pl = sub.add_parser("play", help="play MOVE in POSITION")
    pl.add_argument("position", nargs="+", help="the position, then the move last")

    b = sub.add_parser("best", help="the best move with its points and reason")
    b.add_argument("position", nargs="+")
    b.add_argument("--level", type=int, default=solver.TOP_LEVEL)

    sp = sub.add_parser("selfplay", help="computer players play whole games; prints records")
    cliargs.add_count(sp, "--players", 1, MAX_PLAYERS, None, "default 1 classic, 2 ruins")
    sp.add_argument("--levels", default=None, help="level per seat, e.g. 4,2 (default: top level)")
    sp.add_argument("--level", type=int, default=None, help="one level for every seat")
    cliargs.add_count(sp, "--games", 1, MAX_GAMES, 1)
    sp.add_argument("--seed", type=cliargs.seed, default=0)
    sp.add_argument("--layout")
    sp.add_argument("--deck")
    sp.add_argument("--variant", choices=("classic", "ruins"), default="classic")

    be = sub.add_parser("bench", help="mean score per level over seeded games, time per decision")
    cliargs.add_count(be, "--games", 1, MAX_GAMES, None, "default 1000 classic solo, 100 ruins")
    be.add_argument("--levels", default=None, help="default 1,2,3,4")
    be.add_argument("--seed", type=cliargs.seed, default=0)
    be.add_argument("--variant", choices=("classic", "ruins"), default="classic")

    r = sub.add_parser("replay", help="replay a JSON record (a file, '-' for stdin, or the JSON itself)")
    r.add_argument("record", help="a JSON record file, '-' for stdin, or the JSON itself")

    an = sub.add_parser("analyse", help="each placement of a record against the top level's look-ahead")
    an.add_argument("record", help="a JSON record file, '-' for stdin, or the JSON itself")
    an.add_argument("--viewer", type=int, default=None,
                    help="the seat (0-based) whose own moves may be analysed while the game is on")
    an.add_argument("--bench", action="store_true", help="add the time it took")
    return p


def main(argv: Sequence[str]) -> int:
    try:
        return _main(argv)
    except Exception as err:  # noqa: BLE001 - the last net: a line on stderr, never a traceback
        return fail(MALFORMED, "internal", cliargs.internal_error(err))


def _main(argv: Sequence[str]) -> int:
    parser = build_parser()
    try:
        # Only the command's own options are read as options: a move or a record file name may
        # start with "-".
        args = parser.parse_args(cliargs.protect_positionals(parser, list(argv)))
    except _ArgError as err:
        return fail(MALFORMED, "usage", str(err))
    except SystemExit as exit_:  # --help
        return int(exit_.code or 0)
    try:
        return COMMANDS[args.command](args)
    except _ArgError as err:
        return fail(MALFORMED, "usage", str(err))
    except (NotationError, RecordError) as err:
        return fail(MALFORMED, "malformed", str(err))
    except IllegalMove as err:
        return fail(ILLEGAL, err.code, err.message, details=err.details)
    except ValueError as err:
        return fail(MALFORMED, "malformed", str(err))


# --- commands ----------------------------------------------------------------------------------
def cmd_new(args: argparse.Namespace) -> int:
    players = args.players if args.players is not None else (2 if args.variant == "ruins" else 1)
    state = new(players, args.layout, args.deck, args.seed, args.variant, args.zones)
    emit(state.view())
    return OK


def cmd_show(args: argparse.Namespace) -> int:
    emit(load(" ".join(args.position)).view())
    return OK


def cmd_play(args: argparse.Namespace) -> int:
    if len(args.position) < 2:
        raise _ArgError("play needs a POSITION and a MOVE")
    state = load(" ".join(args.position[:-1]))
    result = state.push_text(args.position[-1])
    emit({"played": result, **state.view()})
    return OK


def cmd_best(args: argparse.Namespace) -> int:
    if args.level not in solver.LEVELS:
        raise _ArgError(f"level {args.level} does not exist (levels are {sorted(solver.LEVELS)})")
    state = load(" ".join(args.position))
    if state.is_over():
        raise _ArgError("the game is over: there is no best move")
    started = time.perf_counter()
    out = solver.hint(state, args.level)
    out["ms"] = round((time.perf_counter() - started) * 1000, 1)
    out["seat"] = state.to_move()
    emit(out)
    return OK


def _seat_levels(args: argparse.Namespace, players: int) -> list[int]:
    if not 1 <= players <= MAX_PLAYERS:  # before a list of that many levels is built
        raise _ArgError(f"Scarabya is for 1-{MAX_PLAYERS} players, not {players}")
    if args.levels:
        levels = _levels(args.levels)
        if len(levels) == 1:
            levels = levels * players
        if len(levels) != players:
            raise _ArgError(f"--levels names {len(levels)} levels for {players} players")
        return levels
    level = args.level if args.level is not None else solver.TOP_LEVEL
    return _levels(str(level)) * players


def play_game(state: AnyState, levels: list[int]) -> AnyState:
    while not state.is_over():
        solver.play(state, levels[state.to_move()])
    return state


def cmd_selfplay(args: argparse.Namespace) -> int:
    players = args.players if args.players is not None else (2 if args.variant == "ruins" else 1)
    levels = _seat_levels(args, players)
    if args.games < 1:
        raise _ArgError("--games must be at least 1")
    games: list[dict[str, Any]] = []
    for i in range(args.games):
        seed = args.seed + i
        state = play_game(new(players, args.layout, args.deck, seed, args.variant), levels)
        rec = record(state, levels=levels)
        again = replay(rec.dumps())
        outcome = state.outcome()
        assert outcome is not None
        games.append(
            {
                "seed": seed,
                "scores": list(outcome.scores),
                "winners": list(outcome.winners),
                "detail": outcome.detail,
                "replay_matches": again.position() == state.position(),
                "position": state.position(),
                "record": rec.to_json(),
            }
        )
    emit(
        {
            "variant": args.variant,
            "players": players,
            "levels": levels,
            "games": games,
            "mean_scores": [
                round(statistics.fmean(g["scores"][p] for g in games), 2) for p in range(players)
            ],
        }
    )
    return OK


def _machine() -> str:
    return f"{platform.python_implementation()} {platform.python_version()} on {platform.machine()}"


def bench_classic(games: int, levels: list[int], seed: int) -> dict[str, Any]:
    rows: list[dict[str, Any]] = []
    hint_ms: list[float] = []
    for level in levels:
        scores = []
        perfect = 0
        decisions = 0
        spent = 0.0
        for g in range(games):
            state = ScarabyaState.new(1, seed=seed + g)
            while not state.is_over():
                t0 = time.process_time()
                move = solver.choose(state, level)
                dt = time.process_time() - t0
                spent += dt
                decisions += 1
                if level == solver.TOP_LEVEL:
                    hint_ms.append(dt * 1000)
                assert not isinstance(move, PiecePlace)
                state.push(move)
            scores.append(state.scores[0])
            perfect += state.perfect_dig(0)
        rows.append(
            {
                "level": level,
                "name": solver.LEVELS[level],
                "games": games,
                "mean": round(statistics.fmean(scores), 2),
                "stdev": round(statistics.pstdev(scores), 2),
                "min": min(scores),
                "max": max(scores),
                "perfect_digs": perfect,
                "decisions": decisions,
                "ms_per_decision": round(spent * 1000 / max(1, decisions), 3),
                "seconds": round(spent, 2),
            }
        )
    out: dict[str, Any] = {"variant": "classic", "mode": "solo", "seed": seed, "levels": rows}
    by = {r["level"]: r for r in rows}
    if 2 in by and solver.TOP_LEVEL in by:
        out["ratio_top_to_greedy"] = round(by[solver.TOP_LEVEL]["mean"] / by[2]["mean"], 3)
        out["target_ratio"] = 1.3
    if hint_ms:
        hint_ms.sort()
        out["top_level_decision_ms"] = {
            "mean": round(statistics.fmean(hint_ms), 2),
            "p95": round(hint_ms[int(0.95 * (len(hint_ms) - 1))], 2),
            "max": round(hint_ms[-1], 2),
            "pyodide_factor": PYODIDE_FACTOR,
            "browser_estimate_max": round(hint_ms[-1] * PYODIDE_FACTOR, 1),
            "browser_target": 200,
        }
    return out


def bench_ruins(games: int, levels: list[int], seed: int) -> dict[str, Any]:
    rows: list[dict[str, Any]] = []
    for level in levels:
        mine: list[int] = []
        theirs: list[int] = []
        wins = ties = decisions = 0
        spent = 0.0
        for g in range(games):
            seat = g % 2  # alternate who starts against the greedy level 2
            state = RuinsState.new(2, seed=seed + g)
            while not state.is_over():
                mine_to_move = state.to_move() == seat
                t0 = time.process_time()
                solver.play(state, level if mine_to_move else 2)
                if mine_to_move:
                    spent += time.process_time() - t0
                    decisions += 1
            mine.append(state.scores[seat])
            theirs.append(state.scores[1 - seat])
            wins += state.scores[seat] > state.scores[1 - seat]
            ties += state.scores[seat] == state.scores[1 - seat]
        rows.append(
            {
                "level": level,
                "name": solver.LEVELS[level],
                "games": games,
                "opponent": "level 2 (greedy)",
                "mean": round(statistics.fmean(mine), 2),
                "opponent_mean": round(statistics.fmean(theirs), 2),
                "wins": wins,
                "ties": ties,
                "decisions": decisions,
                "ms_per_decision": round(spent * 1000 / max(1, decisions), 3),
                "seconds": round(spent, 2),
            }
        )
    return {"variant": "ruins", "mode": "2 players vs level 2", "seed": seed, "levels": rows}


def cmd_bench(args: argparse.Namespace) -> int:
    levels = _levels(args.levels) if args.levels else sorted(solver.LEVELS)
    games = args.games if args.games is not None else (1000 if args.variant == "classic" else 100)
    if games < 1:
        raise _ArgError("--games must be at least 1")
    started = time.perf_counter()
    if args.variant == "classic":
        out = bench_classic(games, levels, args.seed)
    else:
        out = bench_ruins(games, levels, args.seed)
    out["machine"] = _machine()
    out["timing"] = "decision times are CPU time of this process (steady when other jobs share the cores)"
    out["seconds"] = round(time.perf_counter() - started, 1)
    emit(out)
    return OK


def cmd_replay(args: argparse.Namespace) -> int:
    text = args.record
    if text == "-" or not text.lstrip().startswith("{"):
        try:
            text = cliargs.read_record(text, MAX_RECORD_BYTES)
        except ValueError as err:
            raise _ArgError(str(err)) from None
    state = replay(text)
    emit({"moves": len(state.history()), **state.view()})
    return OK


def _record_text(arg: str) -> str:
    if arg == "-" or not arg.lstrip().startswith("{"):
        try:
            return cliargs.read_record(arg, MAX_RECORD_BYTES)
        except ValueError as err:
            raise _ArgError(str(err)) from None
    return arg


def cmd_analyse(args: argparse.Namespace) -> int:
    from game.scarabya import analysis  # noqa: PLC0415 - only this command needs it

    rec = GameRecord.loads(_record_text(args.record))
    wall, cpu = time.perf_counter(), time.process_time()
    result = analysis.analyse(rec, viewer=args.viewer)
    out = result.to_json()
    if args.bench:
        out["bench"] = cliargs.analysis_bench(len(result.moves), sum(m.analysed for m in result.moves),
                                              time.perf_counter() - wall, time.process_time() - cpu)
    emit(out)
    return OK


COMMANDS = {
    "new": cmd_new,
    "show": cmd_show,
    "play": cmd_play,
    "best": cmd_best,
    "selfplay": cmd_selfplay,
    "bench": cmd_bench,
    "replay": cmd_replay,
    "analyse": cmd_analyse,
}

__all__ = ["main", "GameRecord"]
