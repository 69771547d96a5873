"""``python -m game remote bench``: how long the setup and one move's message take, and how long the
links of whole games are (in characters, against the link cap), for each game.

Times are CPU seconds of this process for every device together (steady when other jobs share the
machine; one device's share is about 1/players of it); the page runs the same code in Pyodide,
roughly 1.7-3.6 times slower (docs/platform.md). Scarabeo plays random legal moves with every word
accepted (``AnyWord``), so that games have plays, exchanges and scarab swaps without the lexicon.
"""

from __future__ import annotations

import platform
import random
import time
from typing import Any, Sequence

from game.core import Rng
from game.remote.games import SeatRandom
from game.remote.session import Device
from game.remote.wire import MAX_MESSAGE_CHARS
from game.scarabeo import randomplay
from game.scarabeo.game import ScarabeoState
from game.scarabeo.moves import move_text
from game.scarabeo.words import AnyWord, WordList

NAMES = ("Anna", "Bruno", "Carla", "Dario")


class Table:
    """Devices in a group chat: every link one sends is opened by all the others, in order, and
    whatever a device sends back on its own (a start, a deal step, its keys) goes round too."""

    def __init__(self, game: str, players: int, options: dict[str, Any] | None = None,
                 words: WordList | None = None, rng: SeatRandom | None = None, hints: bool = False) -> None:
        self.links: list[str] = []
        #: The longest one device took to open one link (and write what it sends back on its own).
        self.slowest_open = 0.0
        self.slowest_play = 0.0
        inviter, invitation = Device.invite(game, NAMES[0], players, options or {}, words, rng, hints)
        self.devices = [inviter]
        self.links.append(invitation)
        answers = []
        for name in NAMES[1:players]:
            device, answer = Device.join(invitation, name, words, rng)
            self.devices.append(device)
            answers.append(answer)
        self.links += answers
        sent = None
        for answer in answers:
            sent = inviter.open(answer).send
        assert sent is not None
        self.deliver(inviter, sent)
        self.devices.sort(key=lambda d: d.seat if d.seat is not None else -1)

    def deliver(self, sender: Device, text: str) -> None:
        queue = [(sender, text)]
        while queue:
            sender, text = queue.pop(0)
            self.links.append(text)
            for device in self.devices:
                if device is not sender:
                    cpu = time.process_time()
                    event = device.open(text)
                    self.slowest_open = max(self.slowest_open, time.process_time() - cpu)
                    if event.send is not None:
                        queue.append((device, event.send))

    def mover(self) -> Device:
        game = self.devices[0].game
        seat = None if game is None else game.next_sender()
        assert seat is not None
        return self.devices[seat]

    def move(self, rng: random.Random) -> tuple[Device, str]:
        """A random legal move for the seat to play, in its notation."""
        mover = self.mover()
        game = mover.game
        assert game is not None
        if mover.game_name == "scarabeo":
            state = game.state
            assert isinstance(state, ScarabeoState)
            return mover, move_text(randomplay.random_move(state, Rng(rng.getrandbits(64))))
        return mover, str(rng.choice(mover.show()["legal"]))

    def play(self, rng: random.Random) -> str:
        mover, text = self.move(rng)
        cpu = time.process_time()
        link = mover.play(text)
        self.slowest_play = max(self.slowest_play, time.process_time() - cpu)
        self.deliver(mover, link)
        return link


def _game(game: str, players: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    words = AnyWord() if game == "scarabeo" else None
    cpu = time.process_time()
    table = Table(game, players, words=words)
    setup_cpu = time.process_time() - cpu
    setup_links = len(table.links)
    mover, move = table.move(rng)
    cpu = time.process_time()
    link = mover.play(move)
    move_cpu = time.process_time() - cpu
    other = next(d for d in table.devices if d is not mover)
    cpu = time.process_time()
    other.open(link)
    open_cpu = time.process_time() - cpu
    for device in table.devices:
        if device is not mover and device is not other:
            device.open(link)
    table.links.append(link)
    table.slowest_open = table.slowest_play = 0.0  # the setup's are in setup_cpu_seconds
    while not table.devices[0].finished():
        table.play(rng)
    moves = table.links[setup_links:]
    verified = {d.show()["verified"] for d in table.devices}
    return {
        "setup_cpu_seconds": round(setup_cpu, 3),
        "move_message_cpu_seconds": round(move_cpu, 4),
        "open_message_cpu_seconds": round(open_cpu, 4),
        "slowest_play_cpu_seconds": round(table.slowest_play, 4),
        "slowest_open_cpu_seconds": round(table.slowest_open, 4),
        "links": len(table.links),
        "setup_links": setup_links,
        "invitation_chars": len(table.links[0]),
        "longest_setup_chars": max(len(t) for t in table.links[:setup_links]),
        "longest_chars": max(len(t) for t in table.links),
        "mean_move_chars": round(sum(len(t) for t in moves) / max(len(moves), 1)),
        "verified": verified == {True},
    }


GAMES = ("thot", "scarabya", "scarabeo")
PLAYERS = (2, 4)


def bench(games: int = 1, seed: int = 1, only_games: Sequence[str] = GAMES,
          only_players: Sequence[int] = PLAYERS) -> dict[str, Any]:
    """Each game with 2 and 4 players (or ``only_games`` with ``only_players``: a quick look)."""
    out: dict[str, Any] = {
        "machine": f"{platform.python_implementation()} {platform.python_version()} on {platform.machine()}",
        "max_message_chars": MAX_MESSAGE_CHARS,
    }
    for game in only_games:
        for players in only_players:
            runs = [_game(game, players, seed + i) for i in range(games)]
            out[f"{game}_{players}p"] = {key: max(r[key] for r in runs) if key != "verified"
                                         else all(r[key] for r in runs) for key in runs[0]}
    return out
