"""The guided first game of Scarab — the Game of Thot.

A short game (8×8) on seed 89 against the easy computer (level 1: it takes the best piece it can
reach at once). The seed was chosen with the engine so that every step is possible whatever the
person picks among the moves that pass, and so that the tempting move fails where the lesson is
"look ahead":

1. ``take``: the first move, along the row or the column: take the highest scarab in reach (+7).
   The computer must then move across, along the line through that square, and takes the +8 there.
2. ``across``: now the move goes along the other line. Choose a square whose crossing line holds only
   red scarabs, so that the computer's forced reply loses points (the rulebook's second trick:
   here only taking the −3 does it; greedily taking +3 would hand the computer +8).
3. ``ankh``: land on an ankh and put the red scarab back on the board: it no longer counts.

The checks read the engine's state and the move's result only; a step's move that does not do
what it asks is taken back by ``web.platform.tutorial.Progress``.
"""

from __future__ import annotations

from typing import Any, Callable

from game.thot.state import ThotState
from web.platform.session import Seat
from web.platform.tutorial import Step, Tutorial

SEED = 89
OPTIONS = {"players": 2, "short": True, "turnoff": False, "teams": False}


def gain(state: ThotState, move: Any) -> int:
    """Points the mover's total changes by with ``move`` (a scarab's value; minus a dropped one)."""
    seat = state.to_move()
    before = state.score[seat]
    state.push(move)
    after = state.score[seat]
    state.pop()
    return after - before


def best_gain(state: ThotState) -> int | None:
    """The most the player to move can add at once, or None when they cannot move."""
    if state.is_over():
        return None
    probe = state.copy()
    return max(gain(probe, m) for m in probe.legal_moves())


def position_before(state: ThotState) -> ThotState:
    before = state.copy()
    before.pop()
    return before


def took_the_most(state: ThotState, move_text: str, result: Any) -> bool:
    """Step 1: the move took the highest scarab the priest could reach."""
    taken = result.get("taken") if isinstance(result, dict) else None
    if not isinstance(taken, int):
        return False
    return taken == best_gain(position_before(state))


def reply_loses(state: ThotState, move_text: str, result: Any) -> bool:
    """Step 2: whatever the next player takes now, it costs them points."""
    reply = best_gain(state)
    return reply is not None and reply < 0


def gave_back_red(state: ThotState, move_text: str, result: Any) -> bool:
    """Step 3: landed on an ankh and put a red (negative) scarab back on the board."""
    if not isinstance(result, dict) or result.get("taken") != "ankh":
        return False
    dropped = result.get("dropped")
    return isinstance(dropped, int) and dropped < 0


def _moves_passing(check: Callable[[ThotState, str, Any], bool]) -> Callable[[ThotState], list[str]]:
    """The moves (in notation) that pass ``check``, to highlight as the step's suggestion."""

    def suggest(state: ThotState) -> list[str]:
        out = []
        for move in state.legal_moves():
            probe = state.copy()
            result = probe.push(move)
            if check(probe, probe.move_text(move), result):
                out.append(state.move_text(move))
        return out

    return suggest


STEPS = (
    Step("take", took_the_most, _moves_passing(took_the_most)),
    Step("across", reply_loses, _moves_passing(reply_loses)),
    Step("ankh", gave_back_red, _moves_passing(gave_back_red)),
)

#: The person is seat 1 and moves first; the computer ("Thot", the game's inventor) is the easy level.
#: Seat names are stored in the save as text, so they are the same in both languages.
TUTORIAL = Tutorial(
    game="thot",
    options=OPTIONS,
    seed=SEED,
    seats=(Seat("thot.tutorial.you"), Seat("Thot", computer=True, level=1)),
    steps=STEPS,
    outro="thot.tutorial.outro",
)
