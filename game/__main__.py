"""`python -m game <name> …` — dispatch to each engine's command line."""

from __future__ import annotations

import importlib
import signal
import sys

#: Every engine's exit code for malformed input; an error no check foresaw gets it too, since
#: outside input is its likely cause.
MALFORMED = 2

GAMES = {
    "scarabeo": "game.scarabeo.cli",
    "thot": "game.thot.cli",
    "scarabya": "game.scarabya.cli",
    "daily": "game.daily.cli",  # not a game: the day's puzzles of all three
    "remote": "game.remote.cli",  # not a game: any of the three with friends on other devices
}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help") or args[0] not in GAMES:
        names = ", ".join(GAMES)
        print(f"usage: python -m game {{{names}}} COMMAND …", file=sys.stderr)
        return 0 if args and args[0] in ("-h", "--help") else MALFORMED
    try:
        module = importlib.import_module(GAMES[args[0]])
        return int(module.main(args[1:]))
    except Exception as err:  # noqa: BLE001 - each CLI has its own net; this one is the last
        text = " ".join(str(err).split())[:300]
        print(f"{args[0]}: internal error ({type(err).__name__}{': ' + text if text else ''})",
              file=sys.stderr)
        return MALFORMED


if __name__ == "__main__":
    if hasattr(signal, "SIGPIPE"):
        # Output piped into `head` that stops reading ends the process quietly, as it would `cat`,
        # instead of a BrokenPipeError at the next print.
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main())
