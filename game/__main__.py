"""`python -m game <name> …` — dispatch to each engine's command line."""

from __future__ import annotations

import importlib
import sys

GAMES = {
    "scarabeo": "game.scarabeo.cli",
    "thot": "game.thot.cli",
    "scarabya": "game.scarabya.cli",
}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help") or args[0] not in GAMES:
        names = ", ".join(GAMES)
        print(f"usage: python -m game {{{names}}} COMMAND …", file=sys.stderr)
        return 0 if args and args[0] in ("-h", "--help") else 2
    module = importlib.import_module(GAMES[args[0]])
    return int(module.main(args[1:]))


if __name__ == "__main__":
    sys.exit(main())
