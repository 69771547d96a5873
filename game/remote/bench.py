"""``python -m game remote bench``: how long the setup and one move's message take, and how long the
messages of whole games are (in characters, against the link cap), for each game.

Times are CPU seconds of this process (steady when other jobs share the machine); the page runs the
same code in Pyodide, roughly 1.7-3.6 times slower (docs/platform.md).
"""

from __future__ import annotations

import platform
import random
import time
from typing import Any

from game.remote.session import Device
from game.remote.wire import MAX_MESSAGE_CHARS

NAMES = ("Anna", "Bruno", "Carla", "Dario")


def setup(game: str, players: int, options: dict[str, Any] | None = None) -> tuple[list[Device], list[str]]:
    """Devices of a started game (seat order) and the setup's messages: invitation, joins, start."""
    inviter, invitation = Device.invite(game, NAMES[0], players, options or {})
    joiners: list[Device] = []
    sent = [invitation]
    for name in NAMES[1:players]:
        device, answer = Device.join(invitation, name)
        joiners.append(device)
        sent.append(answer)
        event = inviter.open(answer)
    assert event.send is not None
    sent.append(event.send)
    for device in joiners:
        device.open(event.send)
    devices = [inviter, *joiners]
    devices.sort(key=lambda d: d.seat if d.seat is not None else -1)
    return devices, sent


def random_move(device: Device, rng: random.Random) -> str:
    legal = device.show()["legal"]
    return str(rng.choice(legal))


def play_out(devices: list[Device], rng: random.Random) -> list[str]:
    """Play random legal moves to the end, every message opened by every other device."""
    sent: list[str] = []
    first = devices[0]
    assert first.game is not None
    while not first.over():
        seat = first.game.state.to_move()
        mover = devices[seat]
        text = mover.play(random_move(mover, rng))
        sent.append(text)
        for device in devices:
            if device is not mover:
                device.open(text)
    return sent


def _game(game: str, players: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    cpu = time.process_time()
    devices, setup_sent = setup(game, players)
    setup_cpu = time.process_time() - cpu
    mover = devices[0]
    move = random_move(mover, rng)
    cpu = time.process_time()
    text = mover.play(move)
    move_cpu = time.process_time() - cpu
    cpu = time.process_time()
    devices[1].open(text)
    open_cpu = time.process_time() - cpu
    for device in devices[2:]:
        device.open(text)
    sent = play_out(devices, rng)
    every = setup_sent + [text] + sent
    return {
        "setup_cpu_seconds": round(setup_cpu, 4),
        "move_message_cpu_seconds": round(move_cpu, 4),
        "open_message_cpu_seconds": round(open_cpu, 4),
        "messages": len(every),
        "invitation_chars": len(setup_sent[0]),
        "start_chars": len(setup_sent[-1]),
        "longest_chars": max(len(t) for t in every),
        "mean_move_chars": round(sum(len(t) for t in sent) / max(len(sent), 1)),
    }


def bench(games: int = 1, seed: int = 1) -> dict[str, Any]:
    out: dict[str, Any] = {
        "machine": f"{platform.python_implementation()} {platform.python_version()} on {platform.machine()}",
        "max_message_chars": MAX_MESSAGE_CHARS,
    }
    for game in ("thot", "scarabya"):
        for players in (2, 4):
            runs = [_game(game, players, seed + i) for i in range(games)]
            out[f"{game}_{players}p"] = {
                key: max(r[key] for r in runs) for key in runs[0]
            }
    return out
