"""How long opening a stored remote game takes, again and again (issue 25): the page rebuilds a
device from its stored JSON (``Device.from_json``: every signature checked, every element of the
deal decoded) each time a route shows it or a link is opened.

    .venv/bin/python tools/bench_reopen.py [--game scarabeo] [--players 2] [--moves 20] [--opens 5]

Plays ``--moves`` random moves (Scarabeo: every word accepted), stores every device, then opens the
stored devices ``--opens`` times: once with the memos of decoded elements and checked signatures
emptied before each open (what every open cost before them), once with them kept (this process
opened the game before). Prints the CPU seconds of each open of all the devices together, and the
load average beside. A measurement, not a test.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.remote import ristretto, sign  # noqa: E402
from game.remote.bench import Table  # noqa: E402
from game.remote.session import Device  # noqa: E402
from game.scarabeo.words import AnyWord  # noqa: E402


def _forget() -> None:
    # getattr: the same command measures a checkout from before the memos (nothing to empty there).
    getattr(ristretto, "_DECODED", {}).clear()
    getattr(sign, "_VERIFIED", {}).clear()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="scarabeo", choices=("scarabeo", "thot", "scarabya"))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--opens", type=int, default=5)
    args = parser.parse_args(argv)
    words = AnyWord() if args.game == "scarabeo" else None
    options = {"short": True} if args.game == "thot" else None
    table = Table(args.game, args.players, options, words, lambda seat: random.Random(10 + seat))
    rng = random.Random(1)
    for _ in range(args.moves):
        if table.devices[0].over():
            break
        table.play(rng)
    stored = [d.to_json() for d in table.devices]
    print(f"{args.game}, {args.players} players, {len(stored[0]['chain'])} messages in the chain; "
          f"load average {os.getloadavg()[0]:.1f}")
    for label, forget in (("memos emptied before each open", True), ("memos kept", False)):
        times = []
        for _ in range(args.opens):
            if forget:
                _forget()
            cpu = time.process_time()
            for data in stored:
                Device.from_json(data, words)
            times.append(time.process_time() - cpu)
        print(f"  {label}: {' '.join(f'{t:.3f}' for t in times)} CPU s per open of every device "
              f"(median {statistics.median(times):.3f})")
    print(f"  load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
