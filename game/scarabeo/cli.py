"""``python -m game scarabeo COMMAND …`` — JSON on stdout; exit 0 ok/legal, 1 illegal move,
2 malformed input (the message is in the JSON ``error`` field and on stderr).

Commands: ``new``, ``score POSITION MOVE``, ``replay FILE``, ``analyse RECORD``, ``randomplay``, ``bench --engine``; the computer
player's ``best``, ``selfplay``, ``bench``, ``positions`` and ``endgame`` are in ``game.scarabeo.ai_cli``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from typing import Any, Sequence

from game.core import IllegalMove, NotationError, cliargs
from game.core.record import MAX_RECORD_BYTES
from game.scarabeo.game import CHECK_MODES, ScarabeoState
from game.scarabeo.lexicon_file import load_lexicon
from game.scarabeo.words import AnyWord, WordList

OK, ILLEGAL, MALFORMED = 0, 1, 2
#: Stated maxima of the counts (a count past them is a typing slip, not a longer run): random
#: games take about a second each; the analysis lists at most this many alternatives a turn.
MAX_GAMES = 10_000
MAX_TOP = 20
MAX_BENCH_CALLS = 1_000_000


class _Usage(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # argparse would exit; we report in JSON instead
        raise _Usage(f"{self.prog}: {message}")


def _emit(data: dict[str, Any]) -> None:
    print(json.dumps(data, ensure_ascii=False))


def _fail(code: int, message: str, **extra: Any) -> int:
    _emit({"error": message, **extra})
    print(message, file=sys.stderr)
    return code


def _words(no_check: bool) -> WordList:
    return AnyWord() if no_check else load_lexicon()


def cmd_new(args: argparse.Namespace) -> int:
    names = args.names.split(",") if args.names else None
    try:
        state = ScarabeoState.new(args.players, args.seed, names=names, check_mode=args.check_mode,
                                  hourglass=args.hourglass)
    except ValueError as err:
        return _fail(MALFORMED, str(err))
    _emit({
        "position": state.position(),
        "to_move": state.to_move(),
        "names": state.names,
        "racks": ["".join(r) for r in state.racks],
        "start_draw": state.start_draw,
        "starter": state.starter,
        "options": state.options(),
        "seed": state.seed,
        "error": None,
    })
    return OK


def cmd_score(args: argparse.Namespace) -> int:
    empty = {"legal": False, "score": 0, "words": [], "bonus": 0}
    try:
        state = ScarabeoState.from_position(args.position, check_mode="dictionary")
    except NotationError as err:
        return _fail(MALFORMED, f"position: {err}", **empty, error_code="bad-position")
    try:
        move = state.parse_move(args.move)
    except NotationError as err:
        return _fail(MALFORMED, f"move: {err}", **empty, error_code="bad-move")
    try:
        state.word_list = _words(args.no_check)
    except RuntimeError as err:
        return _fail(MALFORMED, str(err), **empty, error_code="no-lexicon")
    try:
        result = state.push(move)
    except IllegalMove as err:
        _emit({**empty, "error": str(err), "error_code": err.code, "details": err.details})
        return ILLEGAL
    bd = result.breakdown
    _emit({
        "legal": True,
        "score": result.score,
        "words": [{"word": w.word, "score": w.score} for w in bd.words] if bd else [],
        "bonus": bd.bonus if bd else 0,
        "error": None,
        "error_code": None,
        "move": state.move_text(result.move),
        "first_play_doubled": bd.first_play_doubled if bd else False,
        "breakdown": bd.to_json() if bd else None,
        "position_after": state.position(),
    })
    return OK


def cmd_replay(args: argparse.Namespace) -> int:
    from game.scarabeo import record

    try:
        text = cliargs.read_record(args.file, MAX_RECORD_BYTES)
    except ValueError as err:
        return _fail(MALFORMED, str(err), turn=None)
    try:
        words = _words(args.no_check)
    except RuntimeError as err:
        return _fail(MALFORMED, str(err), turn=None)
    try:
        state = record.load(text, words)
    except record.ReplayError as err:
        code = MALFORMED if err.kind == "malformed" else ILLEGAL
        return _fail(code, str(err), turn=err.turn, kind=err.kind)
    turns = [
        {"turn": i + 1, "player": r.player, "name": state.names[r.player],
         "move": state.move_text(r.move), "score": r.score, "total": r.total, "note": r.note}
        for i, r in enumerate(state.results())
    ]
    out = state.outcome()
    order = sorted(range(state.num_players), key=lambda s: (-state.scores[s], s))
    _emit({
        "turns": turns,
        "standings": [{"player": s, "name": state.names[s], "score": state.scores[s]} for s in order],
        "over": out is not None,
        "outcome": out.to_json() if out else None,
        "error": None,
        "turn": None,
    })
    return OK


def cmd_analyse(args: argparse.Namespace) -> int:
    """Every turn against the champion's best: the ``scarab-analysis`` JSON (``analysis.py``)."""
    from game.core import GameRecord
    from game.scarabeo import analysis, record

    try:
        text = cliargs.read_record(args.record, MAX_RECORD_BYTES)
    except ValueError as err:
        return _fail(MALFORMED, str(err), error_code="bad-record")
    try:
        words = load_lexicon()
    except RuntimeError as err:
        return _fail(MALFORMED, str(err), error_code="no-lexicon")
    try:
        # Checked first as the replay command checks it (scores, totals, racks of a text record);
        # a JSON record is then analysed as it is, so its digest is the save's.
        state = record.load(text, words)
        rec = GameRecord.loads(text) if text.lstrip().startswith("{") else record.to_record(state)
    except record.ReplayError as err:
        code = MALFORMED if err.kind == "malformed" else ILLEGAL
        return _fail(code, str(err), turn=err.turn, kind=err.kind, error_code="bad-record")
    if args.viewer is not None and not 0 <= args.viewer < state.num_players:
        return _fail(MALFORMED, f"--viewer must be a seat 0-{state.num_players - 1}, not {args.viewer}",
                     error_code="usage")
    wall, cpu = time.perf_counter(), time.process_time()
    result = analysis.analyse(rec, words, viewer=args.viewer, top=args.top,
                              endgame_work=args.endgame_work)
    out = result.to_json()
    if args.bench:
        out["bench"] = cliargs.analysis_bench(len(result.moves), sum(m.analysed for m in result.moves),
                                              time.perf_counter() - wall, time.process_time() - cpu)
    _emit(out)
    return OK


def cmd_bench(args: argparse.Namespace) -> int:
    from game.scarabeo.bench import run_bench, run_pyodide_bench

    out = run_bench(args.n)
    if args.pyodide:
        wasm = run_pyodide_bench(args.n)
        out["pyodide_node"] = wasm
        if "games_digest" in wasm:
            out["same_games_in_pyodide"] = wasm["games_digest"] == out["games_digest"]
    _emit(out)
    return OK


def cmd_selfplay(args: argparse.Namespace) -> int:
    from game.scarabeo.bench import run_selfplay

    if not 2 <= args.players <= 4 or args.games < 1:
        return _fail(MALFORMED, "selfplay needs 2-4 players and at least one game")
    _emit(run_selfplay(args.games, args.players, args.seed))
    return OK


def _endgame_work(text: str) -> float:
    """argparse ``type=`` for ``analyse --endgame-work``: a finite number of work units from 0."""
    from game.scarabeo.analysis import MAX_ENDGAME_WORK

    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0 <= value <= MAX_ENDGAME_WORK):
        raise argparse.ArgumentTypeError(f"work units from 0 to {MAX_ENDGAME_WORK:g} are needed, "
                                         f"not {text[:40]!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m game scarabeo", description="Scarabeo engine")
    sub = p.add_subparsers(dest="command", parser_class=_Parser)
    n = sub.add_parser("new", help="a new game's starting position")
    n.add_argument("--players", type=int, default=2)
    n.add_argument("--seed", type=cliargs.seed, default=0)
    n.add_argument("--names", help="comma-separated player names")
    n.add_argument("--check-mode", choices=CHECK_MODES, default="dictionary")
    n.add_argument("--hourglass", action="store_true")
    s = sub.add_parser("score", help="check and score MOVE in POSITION")
    s.add_argument("position")
    s.add_argument("move")
    s.add_argument("--no-check", action="store_true", help="accept every word (no lexicon)")
    r = sub.add_parser("replay", help="replay a text or JSON record, checking every score")
    r.add_argument("file", help="a JSON or text record file, or - for stdin")
    r.add_argument("--no-check", action="store_true", help="accept every word (no lexicon)")
    an = sub.add_parser("analyse", help="each turn of a record against the champion's best plays")
    an.add_argument("record", help="a JSON or text record file, or - for stdin")
    an.add_argument("--viewer", type=int, default=None,
                    help="the seat (0-based) whose own turns may be analysed while the game is on")
    cliargs.add_count(an, "--top", 1, MAX_TOP, 5, "alternatives listed per turn")
    from game.scarabeo.analysis import ENDGAME_WORK, MAX_ENDGAME_WORK

    an.add_argument("--endgame-work", type=_endgame_work, default=ENDGAME_WORK,
                    help=f"the exact endgame's work units a turn, bag empty and two players "
                    f"(0-{MAX_ENDGAME_WORK:,.0f}, about 15-80 ms of CPython each; default "
                    f"{ENDGAME_WORK:g}; 0: the champion's one-reply look only)")
    an.add_argument("--bench", action="store_true", help="add the time it took")
    b = sub.add_parser("bench", help="with --engine: time the engine's hot paths")
    b.add_argument("--engine", action="store_true", help="the engine's hot paths (default: move generation)")
    cliargs.add_count(b, "--n", 1, MAX_BENCH_CALLS, 2000, "calls per micro figure")
    b.add_argument("--pyodide", action="store_true",
                   help="also run it in Pyodide under Node (node_modules/pyodide)")
    sp = sub.add_parser("randomplay", help="random legal games to the end, checking invariants")
    cliargs.add_count(sp, "--games", 1, MAX_GAMES, 20)
    cliargs.add_count(sp, "--players", 2, 4, 2)
    sp.add_argument("--seed", type=cliargs.seed, default=0)
    # The computer player's commands are read by ai_cli (``main`` sends them there before this
    # parser): listed here so that --help names every command.
    for name, text in AI_HELP.items():
        sub.add_parser(name, help=text, add_help=False)
    return p


#: Commands of the computer player (issue 5), whose contract lives in ai_cli.
AI_COMMANDS = ("best", "selfplay", "positions", "endgame", "endgame-bench", "endgame-review")
AI_HELP = {"best": "the computer's best plays of a position (ai_cli)",
           "selfplay": "seeded games between two computer levels (ai_cli)",
           "positions": "make the seeded move-generation bench positions (ai_cli)",
           "endgame": "solve a two-player endgame or pre-endgame: the line and its final spread (ai_cli)",
           "endgame-bench": "the endgame solver on seeded endgames, timed against the champion (ai_cli)",
           "endgame-review": "the analysis's exact endgame loss against the champion's (ai_cli)"}
ENGINE_BENCH_FLAGS = ("--engine", "--n", "--pyodide")


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and (args_list[0] in AI_COMMANDS or (
            args_list[0] == "bench" and not any(a.split("=")[0] in ENGINE_BENCH_FLAGS for a in args_list[1:]))):
        from game.scarabeo import ai_cli

        return ai_cli.main(args_list)
    try:
        return _main(args_list)
    except Exception as err:  # noqa: BLE001 - the last net: a line on stderr, never a traceback
        return _fail(MALFORMED, cliargs.internal_error(err), error_code="internal")


def _main(args_list: list[str]) -> int:
    parser = build_parser()
    if not args_list or args_list[0] in ("-h", "--help"):
        parser.print_help(sys.stderr)
        return OK if args_list else MALFORMED
    try:
        # A move in the engine's notation may start with "-" (the exchange -AEIOUAEI): only the
        # command's own options are read as options.
        args = parser.parse_args(cliargs.protect_positionals(parser, args_list))
    except _Usage as err:
        return _fail(MALFORMED, str(err))
    except SystemExit as exc:  # --help of a sub-command
        return int(exc.code or 0)
    if args.command not in COMMANDS:
        return _fail(MALFORMED, f"a command is needed: {', '.join(cliargs.commands(parser))}")
    return COMMANDS[args.command](args)


#: This module's commands; ``AI_COMMANDS`` and ``bench`` without ``--engine`` go to ai_cli.
COMMANDS = {"new": cmd_new, "score": cmd_score, "replay": cmd_replay, "analyse": cmd_analyse,
            "randomplay": cmd_selfplay, "bench": cmd_bench}


if __name__ == "__main__":
    sys.exit(main())
