"""``python -m game remote …`` — play a friend on another device, the moves travelling as links.

Exit codes: 0 done; 1 refused (the one-line reason on stderr, the directory unchanged): a message
or move refused as it stands, and for ``open`` and ``join`` anything refused (not a message at
all, a directory with no game or a damaged one, a name that is not one); 2 the arguments themselves
(a usage error: a missing argument, an unknown command) and, for the other commands, malformed input
(a damaged directory, bad ``--options``). ``open`` of a message that proves its writer cheated (a
failed proof of the deal, two messages signed for one place) exits 1 too, its JSON saying so
(``"event": "stopped"``): the message is not applied, but the stop and its evidence are saved, and
the device writes nothing more for the game (docs/remote.md "Threat model (messages)").
A MESSAGE is a whole link (anything up to ``#`` is ignored) or its payload ``r1.…``; ``-`` reads it
from standard input. DIR holds this device's state only (its secret keys too): one file, mode 0600,
replaced atomically, so a refusal or a crash never leaves half a write.

    new GAME --name NAME --dir DIR [--players N] [--options JSON] [--hints]
                                                                    prints the invitation (--hints: the
                                                                    players may use hints; none by default)
    join MESSAGE --name NAME --dir DIR                              prints the answer for the inviter
    open MESSAGE --dir DIR                                          applies it; JSON: what happened,
                                                                    and "send": a link to pass on, if any
    play MOVE --dir DIR                                             prints the move's message
    show --dir DIR                                                  JSON: game, seat, to_move, scores,
                                                                    over, position, rack, verified …
    hint --dir DIR                                                  JSON: a hint for this device's turn and
                                                                    the hints its player used; refused when
                                                                    the invitation allows none
    resign --dir DIR | leave --dir DIR                              prints the message for the others
    takeback --dir DIR                                              asks the others to take back this
                                                                    device's last move: prints the message
    answer accept|decline --dir DIR                                 answers the take-back asked: prints
                                                                    the message
    resend --dir DIR [--from N]                                     prints this device's last link again,
                                                                    with every message another seat may
                                                                    lack (one link a line; several only
                                                                    when that does not fit one, to send
                                                                    in order), or the game's messages
                                                                    from N on
    export --dir DIR [--full]                                       the game record (JSON); --full: the one
                                                                    the review replays (Scarabeo: every
                                                                    rack and draw, once verified)
    bench [--games N] [--game GAME] [--players N]                   timings and message lengths
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, NoReturn, Sequence

from game.core import cliargs, safejson
from game.remote.session import Device, Refused, game_of
from game.scarabeo.words import WordList
from game.remote.wire import MAX_MESSAGE_CHARS

OK, REFUSED, MALFORMED = 0, 1, 2
#: The commands that take a message: they apply it (0) or refuse it with a reason (1), whatever
#: the reason; only a usage error exits 2 (the contract: ``open MESSAGE`` is 0 or 1).
MESSAGE_COMMANDS = ("open", "join")
STATE_FILE = "remote.json"
#: A device's state is its messages (each at most a link) plus a few keys.
MAX_STATE_BYTES = 4_000_000
MAX_OPTIONS_CHARS = 2_000


class _Malformed(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _Malformed(f"{self.prog}: {message}")


def _parser() -> _Parser:
    p = _Parser(prog="python -m game remote", description="Scarab — play on separate devices by links")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    n = sub.add_parser("new", help="invite: prints the invitation")
    n.add_argument("game")
    n.add_argument("--name", required=True)
    n.add_argument("--dir", required=True)
    n.add_argument("--players", type=int, default=2)
    n.add_argument("--options", default="{}", help="the game's options as a JSON object")
    n.add_argument("--hints", action="store_true",
                   help="the players may use hints (every device sees how many each used); none by default")
    j = sub.add_parser("join", help="accept an invitation: prints the answer")
    j.add_argument("message")
    j.add_argument("--name", required=True)
    j.add_argument("--dir", required=True)
    o = sub.add_parser("open", help="apply a message")
    o.add_argument("message")
    o.add_argument("--dir", required=True)
    pl = sub.add_parser("play", help="play a move: prints the message")
    pl.add_argument("move")
    pl.add_argument("--dir", required=True)
    for name, text in (("show", "this device's view as JSON"), ("resign", "resign the game"),
                       ("leave", "leave the game")):
        sub.add_parser(name, help=text).add_argument("--dir", required=True)
    hi = sub.add_parser("hint", help="a hint for this device's turn, where the invitation allows hints (JSON)")
    hi.add_argument("--dir", required=True)
    tb = sub.add_parser("takeback", help="ask to take back this device's last move: prints the message")
    tb.add_argument("--dir", required=True)
    an = sub.add_parser("answer", help="accept or decline the take-back asked: prints the message")
    an.add_argument("answer", choices=("accept", "decline"))
    an.add_argument("--dir", required=True)
    ex = sub.add_parser("export", help="the game record")
    ex.add_argument("--dir", required=True)
    ex.add_argument("--full", action="store_true",
                    help="the record the review replays (Scarabeo: every rack and draw, once the deal is verified)")
    rs = sub.add_parser("resend", help="this device's last link again, or the game's messages from N on")
    rs.add_argument("--dir", required=True)
    rs.add_argument("--from", dest="start", type=int, default=None, metavar="N")
    b = sub.add_parser("bench", help="setup and message timings, message lengths")
    cliargs.add_count(b, "--games", 1, 100, 1, "whole games of each kind played")
    b.add_argument("--seed", type=cliargs.seed, default=1)
    b.add_argument("--game", action="append", choices=("thot", "scarabya", "scarabeo"), dest="only_games",
                   help="only this game (again for more); every game if none")
    b.add_argument("--players", action="append", type=int, choices=(2, 3, 4), dest="only_players",
                   help="only games with this many players (again for more); 2 and 4 if none")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args_in = cliargs.protect_positionals(parser, list(sys.argv[1:] if argv is None else argv))
    try:
        args = parser.parse_args(args_in)
    except _Malformed as err:
        return _fail(MALFORMED, "usage", str(err))
    except SystemExit as err:  # --help
        return int(err.code or 0)
    bad_input = REFUSED if args.command in MESSAGE_COMMANDS else MALFORMED
    try:
        return _run(args)
    except Refused as err:
        return _fail(bad_input if err.malformed else REFUSED, "malformed" if err.malformed else "refused",
                     err.reason)
    except _Malformed as err:
        return _fail(bad_input, "input", str(err))
    except Exception as err:  # noqa: BLE001 - the last net: a line on stderr, never a traceback
        return _fail(bad_input, "internal", cliargs.internal_error(err))


def _fail(code: int, kind: str, message: str) -> int:
    message = " ".join(message.split())
    print(f"remote: {message}", file=sys.stderr)
    print(json.dumps({"error": kind, "message": message}, ensure_ascii=False))
    return code


def _run(args: argparse.Namespace) -> int:
    cmd = args.command
    if cmd == "bench":
        from game.remote.bench import bench  # noqa: PLC0415 - only the bench needs it

        from game.remote.bench import GAMES, PLAYERS  # noqa: PLC0415

        print(json.dumps(bench(args.games, args.seed, args.only_games or GAMES, args.only_players or PLAYERS)))
        return OK
    if cmd == "new":
        _fresh_dir(args.dir)
        device, text = Device.invite(args.game, args.name, args.players, _options(args.options),
                                     _words(args.game), hints=args.hints)
        _save(args.dir, device)
        print(text)
    elif cmd == "join":
        _check_fresh(args.dir)
        message = _message(args.message)
        device, text = Device.join(message, args.name, _words(game_of(message)))
        _fresh_dir(args.dir)  # made only once the invitation is accepted: a refusal leaves no trace
        _save(args.dir, device)
        print(text)
    elif cmd == "open":
        device = _load(args.dir)
        event = device.open(_message(args.message))
        if event.changed:
            _save(args.dir, device)
        out = event.to_json()
        out["show"] = device.show()
        print(json.dumps(out, ensure_ascii=False))
        if event.kind == "stopped":  # not applied, as a refusal; but the stop itself is saved
            print(f"remote: {event.text}", file=sys.stderr)
            return REFUSED
    elif cmd == "play":
        device = _load(args.dir)
        text = device.play(args.move)
        _save(args.dir, device)
        print(_links(device, text))
    elif cmd in ("resign", "leave"):
        device = _load(args.dir)
        text = device.resign() if cmd == "resign" else device.leave()
        _save(args.dir, device)
        print(_links(device, text))
    elif cmd == "hint":
        device = _load(args.dir)
        used = device.use_hint()  # refused, the directory unchanged, where the invitation allows none
        _save(args.dir, device)  # counted once asked: the next move reports it to every device
        print(json.dumps({"hints_used": used, "hint": _suggestion(device)}, ensure_ascii=False))
    elif cmd in ("takeback", "answer"):
        device = _load(args.dir)
        text = device.ask_take_back() if cmd == "takeback" else device.answer_take_back(args.answer == "accept")
        _save(args.dir, device)
        print(_links(device, text))
    elif cmd == "resend":
        device = _load(args.dir)
        print(device.resend(args.start) if args.start is not None else "\n".join(device.resend_all()))
    elif cmd == "show":
        print(json.dumps(_load(args.dir).show(), ensure_ascii=False))
    elif cmd == "export":
        print(json.dumps(_load(args.dir).export(args.full), ensure_ascii=False, separators=(",", ":")))
    return OK


def _suggestion(device: Device) -> Any:
    """The hint for this device's seat, on the state it may see, as the game's own ``hint`` gives it
    (Thot: the top level's move and its gain; Scarabya: the best move, its points and why; Scarabeo:
    the five best plays by score on this seat's rack); None when the engine finds none."""
    game = device.game
    assert game is not None
    state: Any = game.seat_state(device.secret.get("game", {}))
    try:
        if device.game_name == "thot":
            from game.thot.search import hint  # noqa: PLC0415 - only a hint needs the search

            return hint(state, 1.0)
        if device.game_name == "scarabya":
            from game.scarabya import solver  # noqa: PLC0415

            return solver.hint(state, budget_ms=500.0)
        from game.scarabeo import ai  # noqa: PLC0415

        return ai.hints(state, 5, device.words) or None
    except (ValueError, AssertionError):  # no move the engine can suggest here (a decision awaited …)
        return None


def _links(device: Device, text: str) -> str:
    """The link a command wrote, or, when what the others may lack does not fit one link, every
    link to send, one a line, in order (docs/remote.md "Resynchronising")."""
    return "\n".join(device.outbox) if device.outbox and device.outbox[-1] == text else text


def _words(game: str | None) -> WordList | None:
    """Scarabeo's word list (the real lexicon); the other games need none."""
    if game != "scarabeo":
        return None
    try:
        import lexicon  # noqa: PLC0415 - only Scarabeo needs it, and only the command line reads files

        words: WordList = lexicon.load()
    except Exception as err:  # noqa: BLE001 - ImportError, the lexicon not built yet …
        raise _Malformed(f"the lexicon is not available ({err}); build it with 'python -m lexicon build'") from None
    return words


def _options(text: str) -> dict[str, Any]:
    if len(text) > MAX_OPTIONS_CHARS:
        raise _Malformed(f"--options is longer than {MAX_OPTIONS_CHARS} characters")
    try:
        value = safejson.loads(text, max_bytes=MAX_OPTIONS_CHARS)
    except safejson.JSONRefused as err:
        raise _Malformed(f"--options is not JSON: {err}") from None
    if not isinstance(value, dict):
        raise _Malformed("--options must be a JSON object, like {\"short\": true}")
    return value


def _message(text: str) -> str:
    if text == "-":
        try:
            text = cliargs.read_text("-", MAX_MESSAGE_CHARS * 2, "message")
        except ValueError as err:
            raise _Malformed(str(err)) from None
    if len(text) > MAX_MESSAGE_CHARS * 2:
        raise _Malformed(f"the message is longer than any link ({len(text):,} characters)")
    return text


# --- the device's directory ---------------------------------------------------------------------

def _path(directory: str) -> str:
    return os.path.join(directory, STATE_FILE)


def _check_fresh(directory: str) -> None:
    """Refuse a directory that already holds a game."""
    if os.path.lexists(_path(directory)):
        raise _Malformed(f"{directory} already holds a remote game; use another directory")


def _fresh_dir(directory: str) -> None:
    """Make DIR for a new game (mode 0700); a directory that already holds a game is refused."""
    _check_fresh(directory)
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
    except OSError as err:
        raise _Malformed(f"cannot create the directory {directory}: {err.strerror or err}") from None
    if not os.path.isdir(directory):
        raise _Malformed(f"{directory} is not a directory")


def _load(directory: str) -> Device:
    path = _path(directory)
    if not os.path.lexists(path):
        raise _Malformed(f"no remote game in {directory}" if os.path.isdir(directory)
                         else f"{directory} is not a directory with a remote game")
    if os.path.islink(path):
        raise _Malformed(f"{path} is a symbolic link: a device's state is its own file")
    try:
        raw = cliargs.read_bytes(path, MAX_STATE_BYTES, "remote game state")
        data = safejson.loads(raw, max_bytes=MAX_STATE_BYTES)
    except safejson.JSONRefused as err:
        raise _Malformed(f"{path} is damaged: {err}") from None
    except ValueError as err:
        raise _Malformed(str(err)) from None
    chain = data.get("chain") if isinstance(data, dict) else None
    first = chain[0] if isinstance(chain, list) and chain and isinstance(chain[0], str) else ""
    try:
        return Device.from_json(data, _words(game_of(first)))
    except Refused as err:
        raise _Malformed(f"{path}: {err.reason}") from None


def _save(directory: str, device: Device) -> None:
    """Write the state to a temporary file (0600) and move it over the old one: atomic."""
    data = json.dumps(device.to_json(), separators=(",", ":")).encode("ascii")
    tmp = os.path.join(directory, f".{STATE_FILE}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, _path(directory))
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
