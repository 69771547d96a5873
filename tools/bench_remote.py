"""The mental-poker deal's cost in this Python (issue 27: setup ≤ 3 s and a move ≤ 300 ms *in the
page*, where Pyodide runs about 1.7x slower than CPython), and the size of its message parts.

    .venv/bin/python tools/bench_remote.py [--players 2,4] [--repeat 3]

Prints, per player count, the median of ``--repeat`` runs of: one scalar multiplication (and one
with the fixed generator), one device's whole setup (its own step plus checking everyone else's),
one draw of 7 tiles (a seat's shares made, then checked by another device), 7 tiles shown (proof
made, checked), the end's verification on one device; and, from a whole simulated game with an
exchange, the largest deal payload of one message in characters. The load average is printed
beside: figures from a loaded machine spread widely, compare only figures from one run. A
measurement, not a test.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Callable, TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.remote.deal import Deal  # noqa: E402
from game.remote.ristretto import BASE, base_mul, random_scalar  # noqa: E402


T = TypeVar("T")


def _timed(action: Callable[[], T], repeat: int = 1) -> tuple[T, float]:
    """The action's result and its mean time in seconds."""
    start = time.perf_counter()
    for _ in range(repeat):
        result = action()
    return result, (time.perf_counter() - start) / repeat


class _Game:
    """Devices that pass every message to every other device; records each message's size."""

    def __init__(self, players: int, game_id: bytes) -> None:
        self.deals = [Deal.new(game_id, players, s) for s in range(players)]
        self.largest = 0
        self.device0 = 0.0     # seconds device 0 spent making and checking parts

    def message(self, writer: int, parts: list[tuple[str, str]]) -> None:
        self.largest = max(self.largest, sum(len(p) + 8 for _, p in parts))
        for deal in self.deals:
            if deal.seat == writer:
                continue
            start = time.perf_counter()
            for kind, part in parts:
                if kind == "setup":
                    deal.apply_setup(writer, part)
                elif kind == "shares":
                    deal.apply_shares(writer, part)
                elif kind == "start":
                    deal.apply_start_reveal(writer, part)
                elif kind == "tiles":
                    deal.verify_tiles(writer, part)
                elif kind == "reshuffle":
                    deal.apply_reshuffle(writer, part)
            if deal.seat == 0:
                self.device0 += time.perf_counter() - start

    def write(self, seat: int, play: int = 0, exchange: bool = False, setup: bool = False) -> None:
        deal = self.deals[seat]
        start = time.perf_counter()
        parts: list[tuple[str, str]] = []
        if setup:
            parts.append(("setup", deal.setup_step()))
        if deal.reshuffle_due() is not None:
            parts.append(("reshuffle", deal.reshuffle_step()))
        if deal.ready:
            parts.append(("shares", deal.shares_for()))
        if not setup and seat < len(self.deals) - 1 and deal.ready and seat not in deal.start_values:
            parts.append(("start", deal.start_reveal()))
        cards = [t.card for t in deal.own_tiles()]
        if play and cards:
            parts.append(("tiles", deal.prove_tiles(cards[:play])))
        if seat == 0:
            self.device0 += time.perf_counter() - start
        self.message(seat, parts)
        if play and cards:
            for d in self.deals:
                d.assign(seat, min(play, len(cards), d.bag_count()))
        elif exchange:
            for d in self.deals:
                d.return_cards(seat, cards)

    def setup(self) -> None:
        for s in range(len(self.deals)):
            self.write(s, setup=True)


def run(players: int) -> dict[str, float]:
    k = random_scalar()
    base_mul(k)                # builds the generator's table once, as a page does at start
    out = {"scalar multiplication (ms)": _timed(lambda: BASE * k, 20)[1] * 1000,
           "fixed-base multiplication (ms)": _timed(lambda: base_mul(k), 20)[1] * 1000}
    game = _Game(players, b"bench-%d" % players)
    game.setup()
    out["setup, device 0: own step + checking the others (s)"] = game.device0
    for s in range(players):
        game.write(s)          # the racks' remaining shares and the start values
    for d in game.deals:
        d.assign(0, 7)
    drawer, peeler = game.deals[0], game.deals[1]
    part, made = _timed(peeler.shares_for)
    out["draw of 7 tiles: one seat's shares made (ms)"] = made * 1000
    out["draw of 7 tiles: those shares checked (ms)"] = _timed(lambda: drawer.apply_shares(1, part))[1] * 1000
    for other in game.deals[2:]:
        other.apply_shares(1, part)
    for s in range(2, players):
        game.write(s)
    cards = [t.card for t in peeler.own_tiles()[:7]]
    part, made = _timed(lambda: peeler.prove_tiles(cards))
    out["7 tiles shown: proof made (ms)"] = made * 1000
    out["7 tiles shown: proof checked (ms)"] = _timed(lambda: drawer.verify_tiles(1, part))[1] * 1000
    for other in game.deals[2:]:
        other.verify_tiles(1, part)
    # The rest of a game: each seat plays 3 tiles a turn; seat 1 exchanges once.
    turn = 0
    while game.deals[0].bag_count() > 0 or turn < 4 * players:
        seat = turn % players
        exchange = turn == players + 1
        game.write(seat, exchange=exchange, play=0 if exchange else 3)
        turn += 1
    reveals = {d.seat: d.reveal_keys() for d in game.deals}
    verdict, seconds = _timed(lambda: game.deals[0].verify(reveals))
    out["end: verification on one device (s)"] = seconds
    out["largest deal payload of one message (characters)"] = float(game.largest)
    # The exchange is of a random rack, so usually not a legal one: that is the only failure.
    out["verified but for the exchange (1 = yes)"] = float(
        all(f.startswith("seat 1 exchanged") for f in verdict.failures))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="2,4")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for players in (int(p) for p in args.players.split(",")):
        runs = [run(players) for _ in range(args.repeat)]
        print(f"{players} players (median of {args.repeat}):")
        for key in runs[0]:
            value = statistics.median(r[key] for r in runs)
            print(f"  {key}: {value:.0f}" if value >= 100 else f"  {key}: {value:.3g}")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
