"""The record format, exercised through a tiny counting game that implements the protocol."""

from __future__ import annotations

import json
from typing import Any, Mapping

import pytest

from game.core import GameRecord, GameState, IllegalMove, NotationError, Outcome, RecordError
from game.core.record import MAX_RECORD_BYTES


class Nim(GameState[int]):
    """Take 1-3 from a pile; whoever takes the last wins. Enough to test the protocol."""

    GAME = "nim"

    def __init__(self, pile: int, seed: int = 0) -> None:
        self.pile = pile
        self._seed = seed
        self._moves: list[int] = []

    @property
    def num_players(self) -> int:
        return 2

    def to_move(self) -> int:
        return len(self._moves) % 2

    def legal_moves(self) -> list[int]:
        return [n for n in (1, 2, 3) if n <= self.pile]

    def check(self, move: int) -> None:
        if move not in self.legal_moves():
            raise IllegalMove("too-many", f"cannot take {move} from {self.pile}")

    def push(self, move: int) -> int:
        self.check(move)
        self.pile -= move
        self._moves.append(move)
        return move

    def pop(self) -> int:
        move = self._moves.pop()
        self.pile += move
        return move

    def is_over(self) -> bool:
        return self.pile == 0

    def outcome(self) -> Outcome | None:
        if not self.is_over():
            return None
        winner = (len(self._moves) - 1) % 2
        return Outcome((1 - winner, winner) if winner else (1, 0), (winner,), "last-take")

    def view(self) -> dict[str, Any]:
        return {"pile": self.pile, "to_move": self.to_move(), "scores": [0, 0]}

    def parse_move(self, text: str) -> int:
        if text not in ("1", "2", "3"):
            raise NotationError("a move is 1, 2 or 3", text, 0)
        return int(text)

    def move_text(self, move: int) -> str:
        return str(move)

    def position(self) -> str:
        return f"{self.pile} {self.to_move()}"

    @classmethod
    def from_position(cls, text: str) -> "Nim":
        return cls(int(text.split()[0]))

    def options(self) -> dict[str, Any]:
        return {"pile": self.pile + sum(self._moves)}

    @property
    def seed(self) -> int:
        return self._seed

    def history(self) -> list[int]:
        return list(self._moves)


def new_nim(options: Mapping[str, Any], seed: int) -> Nim:
    return Nim(int(options["pile"]), seed)


class TestGameRecord:
    def test_round_trip_replays(self) -> None:
        game = Nim(10, seed=5)
        for m in (3, 2, 1):
            game.push(m)
        text = GameRecord.of(game, title="t").dumps()
        again = GameRecord.loads(text).replay(new_nim)
        assert again.position() == game.position()
        assert again.history() == [3, 2, 1]

    def test_newer_version_refused(self) -> None:
        data = GameRecord("nim", {"pile": 3}, 0).to_json()
        data["version"] = 99
        with pytest.raises(RecordError, match="newer"):
            GameRecord.from_json(data)

    def test_bad_move_names_turn(self) -> None:
        rec = GameRecord("nim", {"pile": 4}, 0, ["3", "3"])
        with pytest.raises(RecordError) as err:
            rec.replay(new_nim)
        assert err.value.turn == 2

    def test_malformed_inputs(self) -> None:
        for bad in ("[", "[]", json.dumps({"format": "x"}),
                    json.dumps({"format": "scarab-record", "version": 1, "game": "nim",
                                "options": {}, "seed": "s", "moves": []})):
            with pytest.raises(RecordError):
                GameRecord.loads(bad)

    def test_oversized_refused(self) -> None:
        with pytest.raises(RecordError, match="bytes"):
            GameRecord.loads(" " * (MAX_RECORD_BYTES + 1))

    def test_wrong_game_refused(self) -> None:
        with pytest.raises(RecordError, match="nim"):
            GameRecord("thot", {"pile": 3}, 0).replay(new_nim)
