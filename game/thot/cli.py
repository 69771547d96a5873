"""`python -m game thot …` — the Game of Thot on the command line. JSON on stdout.

Exit codes: 0 ok, 1 illegal move, 2 malformed input (the message is on stderr and in the JSON).
A POSITION is the one-line notation of ``game.thot.notation``; it contains spaces, so pass it
quoted (unquoted words are joined back together).

    new [--players N] [--short] [--turnoff] [--teams] [--seed S]   a new position
    show POSITION                                                   the position's view
    play POSITION MOVE                                              the position after MOVE
    best POSITION [--level L] [--time SECONDS]                      the level's move
    hint POSITION [--time SECONDS]                                  top level's move + gain
    replay RECORD.json|-                                            replay a game record
    analyse RECORD.json|- [--viewer N] [--depth D] [--nodes N] [--time S] [--bench]
                                                                    each move against the top level
    selfplay [--games N] [--levels A,B] [--seed S] [--short] [--turnoff] [--jobs J] [--progress]
    bench [--games N] [--seed S] [--jobs J] [--no-match] [--openings K] [--progress]
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, NoReturn, Sequence

from game.core import GameRecord, IllegalMove, NotationError, RecordError, cliargs
from game.core.record import MAX_RECORD_BYTES
from game.thot.match import PLAYERS, bench, selfplay
from game.thot.search import LEVELS, TOP_LEVEL, best_move, hint
from game.thot.state import ThotState

OK, ILLEGAL, MALFORMED = 0, 1, 2
#: More worker processes than this is a typing slip, not a machine (each one is a fork).
MAX_JOBS = 256
#: Stated maxima of the other counts and durations: a game between two top levels takes seconds,
#: a search of the top level's node budget well under one; past these it is a typing slip.
MAX_GAMES = 10_000
MAX_OPENINGS = 1000
MAX_DEPTH = 64
MAX_NODES = 100_000_000
MAX_SECONDS = 3600


class _Malformed(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _Malformed(f"{self.prog}: {message}")


def _emit(data: Any) -> None:
    print(json.dumps(data, ensure_ascii=False))


def _fail(exit_code: int, kind: str, message: str, **extra: Any) -> int:
    print(f"thot: {message}", file=sys.stderr)
    _emit({"error": kind, "message": message, **extra})
    return exit_code


def _parser() -> _Parser:
    p = _Parser(prog="python -m game thot", description="Scarab — the Game of Thot")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    n = sub.add_parser("new", help="set up a new game")
    n.add_argument("--players", type=int, default=2)
    n.add_argument("--short", action="store_true")
    n.add_argument("--turnoff", action="store_true")
    n.add_argument("--teams", action="store_true")
    n.add_argument("--seed", type=cliargs.seed, default=0)
    s = sub.add_parser("show", help="describe a position")
    s.add_argument("position", nargs="+")
    pl = sub.add_parser("play", help="play a move")
    pl.add_argument("words", nargs="+", metavar="POSITION MOVE")
    b = sub.add_parser("best", help="the computer's move")
    b.add_argument("position", nargs="+")
    b.add_argument("--level", type=int, default=TOP_LEVEL, choices=sorted(LEVELS))
    b.add_argument("--time", type=cliargs.seconds(MAX_SECONDS), default=None,
                   help=f"safety cap in seconds (0-{MAX_SECONDS})")
    h = sub.add_parser("hint", help="the top level's move and its expected gain")
    h.add_argument("position", nargs="+")
    h.add_argument("--time", type=cliargs.seconds(MAX_SECONDS), default=None,
                   help=f"safety cap in seconds (0-{MAX_SECONDS})")
    r = sub.add_parser("replay", help="replay a JSON game record (a file, or - for stdin)")
    r.add_argument("record", help="a JSON record file, or - for stdin")
    an = sub.add_parser("analyse", help="each move of a record against the top level's search")
    an.add_argument("record", help="a JSON record file, or - for stdin")
    an.add_argument("--viewer", type=int, default=None,
                    help="the seat (0-based) whose own moves may be analysed while the game is on")
    cliargs.add_count(an, "--depth", 1, MAX_DEPTH, None, "deepest iteration (default: the top level's 64)")
    cliargs.add_count(an, "--nodes", 1, MAX_NODES, None, "nodes per position (default 20 000: analysis.NODES)")
    an.add_argument("--time", type=cliargs.seconds(MAX_SECONDS), default=None,
                    help=f"cap per search in seconds, 0-{MAX_SECONDS} (not reproducible)")
    an.add_argument("--bench", action="store_true", help="add the time it took")
    sp = sub.add_parser("selfplay", help="a seeded two-player match")
    cliargs.add_count(sp, "--games", 1, MAX_GAMES, 20)
    sp.add_argument("--levels", default=f"{TOP_LEVEL},greedy", help=f"two of {', '.join(PLAYERS)}")
    sp.add_argument("--seed", type=cliargs.seed, default=0)
    sp.add_argument("--short", action="store_true")
    sp.add_argument("--turnoff", action="store_true")
    cliargs.add_count(sp, "--jobs", 1, MAX_JOBS, 1, "worker processes")
    sp.add_argument("--progress", action="store_true", help="a JSON line per finished game on stderr")
    be = sub.add_parser("bench", help="opening-move timing and the 200-game matches")
    cliargs.add_count(be, "--games", 1, MAX_GAMES, 200)
    be.add_argument("--seed", type=cliargs.seed, default=0)
    cliargs.add_count(be, "--jobs", 1, MAX_JOBS, 2, "worker processes")
    be.add_argument("--no-match", action="store_true")
    be.add_argument("--progress", action="store_true", help="a JSON line per finished game on stderr")
    cliargs.add_count(be, "--openings", 1, MAX_OPENINGS, 5, "boards timed per level and size")
    return p


def _position(words: Sequence[str]) -> ThotState:
    return ThotState.from_position(" ".join(words))


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    # A board may start with a minus sign (-3+2…): positionals are not read as options.
    args_in = cliargs.protect_positionals(parser, list(sys.argv[1:] if argv is None else argv))
    try:
        args = parser.parse_args(args_in)
    except _Malformed as err:
        return _fail(MALFORMED, "usage", str(err))
    except SystemExit as err:  # --help
        return int(err.code or 0)
    try:
        return _run(args)
    except NotationError as err:
        return _fail(MALFORMED, "notation", str(err))
    except RecordError as err:
        return _fail(MALFORMED, "record", str(err), turn=err.turn)
    except IllegalMove as err:
        return _fail(ILLEGAL, "illegal", str(err), code=err.code)
    except ValueError as err:
        return _fail(MALFORMED, "input", str(err))
    except Exception as err:  # noqa: BLE001 - the last net: a line on stderr, never a traceback
        return _fail(MALFORMED, "internal", cliargs.internal_error(err))


def _run(args: argparse.Namespace) -> int:
    COMMANDS[args.command](args)
    return OK


def _new(args: argparse.Namespace) -> None:
    _emit(ThotState.new(players=args.players, short=args.short, turnoff=args.turnoff,
                        teams=args.teams, seed=args.seed).view())


def _show(args: argparse.Namespace) -> None:
    _emit(_position(args.position).view())


def _play(args: argparse.Namespace) -> None:
    if len(args.words) < 2:
        raise _usage("play needs a POSITION and a MOVE")
    state = _position(args.words[:-1])
    move = state.parse_move(args.words[-1])
    result = state.push(move)
    view = state.view()
    view["played"] = result
    _emit(view)


def _best(args: argparse.Namespace) -> None:
    state = _position(args.position)
    if state.is_over():
        raise IllegalMove("game-over", "the game is over: there is no move to find")
    res = best_move(state, args.level, args.time)
    out = res.to_json(state)
    out["level"] = args.level
    _emit(out)


def _hint(args: argparse.Namespace) -> None:
    state = _position(args.position)
    if state.is_over():
        raise IllegalMove("game-over", "the game is over: there is no move to suggest")
    _emit(hint(state, args.time))


def _replay(args: argparse.Namespace) -> None:
    text = cliargs.read_record(args.record, MAX_RECORD_BYTES)
    _emit(ThotState.replay(GameRecord.loads(text)).view())


def _selfplay(args: argparse.Namespace) -> None:
    levels = args.levels.split(",")
    if len(levels) != 2:
        raise _usage("--levels takes two players separated by a comma, e.g. 3,greedy")
    _emit(selfplay(args.games, levels[0], levels[1], seed=args.seed, jobs=args.jobs,
                   progress=_progress if args.progress else None, short=args.short,
                   turnoff=args.turnoff))


def _bench(args: argparse.Namespace) -> None:
    _emit(bench(games=args.games, seed=args.seed, jobs=args.jobs, match=not args.no_match,
                openings=args.openings, progress=_progress if args.progress else None))


def _analyse(args: argparse.Namespace) -> dict[str, Any]:
    import time  # noqa: PLC0415 - only the bench figures read the clock

    from game.thot import analysis

    text = cliargs.read_record(args.record, MAX_RECORD_BYTES)
    rec = GameRecord.loads(text)
    wall, cpu = time.perf_counter(), time.process_time()
    result = analysis.analyse(rec, viewer=args.viewer, depth=args.depth, nodes=args.nodes,
                              time_budget=args.time)
    out = result.to_json()
    if args.bench:
        out["bench"] = cliargs.analysis_bench(len(result.moves), sum(m.analysed for m in result.moves),
                                              time.perf_counter() - wall, time.process_time() - cpu)
    return out


#: Every command, as --help lists them (a test compares the two).
COMMANDS = {"new": _new, "show": _show, "play": _play, "best": _best, "hint": _hint,
            "replay": _replay, "analyse": lambda args: _emit(_analyse(args)),
            "selfplay": _selfplay, "bench": _bench}


def _progress(result: dict[str, Any]) -> None:
    print(json.dumps(result), file=sys.stderr, flush=True)


def _usage(message: str) -> ValueError:
    return ValueError(message)
