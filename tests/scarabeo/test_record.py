"""Game records: GCG-style text and versioned JSON; importing replays and checks every score."""

from __future__ import annotations

import json

import pytest

from game.core import GameRecord, Rng
from game.core.record import MAX_RECORD_BYTES
from game.scarabeo import ScarabeoState, SetWordList, record
from game.scarabeo.randomplay import random_move
from game.scarabeo.record import ReplayError

from tests.scarabeo.helpers import position_with


def finished_game(seed: int = 3, players: int = 3) -> ScarabeoState:
    s = ScarabeoState.new(players, seed, names=["Anna Maria", "Bruno", "Carla"][:players])
    rng = Rng(seed)
    while not s.is_over():
        s.push(random_move(s, rng))
    return s


class TestText:
    def test_header_moves_and_end(self) -> None:
        s = finished_game()
        text = record.to_text(s)
        lines = text.splitlines()
        assert lines[0] == "#scarabeo-record 1"
        assert "#player1 p1 Anna Maria" in lines and "#seed 3" in lines
        moves = [ln for ln in lines if ln.startswith(">") and "(" not in ln]
        assert len(moves) == len(s.history())
        first = s.results()[0]
        assert moves[0] == (f">p{first.player + 1}: {first.rack} {s.move_text(first.move)} "
                            f"+{first.score} {first.total}")
        ends = [ln for ln in lines if ln.startswith(">") and "(" in ln]
        assert len(ends) == s.num_players

    def test_round_trip(self) -> None:
        s = finished_game()
        back = record.from_text(record.to_text(s))
        assert back.scores == s.scores and back.position() == s.position()
        assert back.names == s.names and record.to_text(back) == record.to_text(s)

    def _tamper(self, text: str, index: int, field: int, value: str) -> str:
        lines = text.splitlines()
        moves = [i for i, ln in enumerate(lines) if ln.startswith(">") and "(" not in ln]
        parts = lines[moves[index]].split(" ")
        parts[field] = value
        lines[moves[index]] = " ".join(parts)
        return "\n".join(lines) + "\n"

    def test_wrong_score_is_caught_with_its_turn(self) -> None:
        text = self._tamper(record.to_text(finished_game()), 4, -2, "+999")
        with pytest.raises(ReplayError) as info:
            record.from_text(text)
        assert info.value.turn == 5 and info.value.kind == "mismatch" and "+999" in str(info.value)

    def test_wrong_total_is_caught(self) -> None:
        text = self._tamper(record.to_text(finished_game()), 2, -1, "12345")
        with pytest.raises(ReplayError) as info:
            record.from_text(text)
        assert info.value.turn == 3 and "12345" in str(info.value)

    def test_wrong_rack_is_caught(self) -> None:
        text = self._tamper(record.to_text(finished_game()), 0, 1, "ZZ")
        with pytest.raises(ReplayError) as info:
            record.from_text(text)
        assert info.value.turn == 1 and "rack" in str(info.value)

    def test_illegal_move_is_caught(self) -> None:
        text = self._tamper(record.to_text(finished_game()), 1, 2, "2B")
        with pytest.raises(ReplayError) as info:
            record.from_text(text)
        assert info.value.turn == 2 and info.value.kind in ("illegal", "malformed")

    def test_malformed_lines(self) -> None:
        with pytest.raises(ReplayError, match="starts with"):
            record.from_text("hello\n")
        with pytest.raises(ReplayError, match="no '#seed'"):
            record.from_text("#scarabeo-record 1\n#options {}\n")
        with pytest.raises(ReplayError, match="line 3"):
            record.from_text("#scarabeo-record 1\n#seed 1\n>p1 nonsense\n")
        with pytest.raises(ReplayError, match="version"):
            record.from_text("#scarabeo-record 9\n")

    def test_wrong_end_adjustment(self) -> None:
        s = finished_game()
        text = record.to_text(s).rstrip("\n").rsplit("\n", 1)
        last = text[1].split(" ")
        last[-1] = "77777"
        with pytest.raises(ReplayError, match="ends with"):
            record.from_text(text[0] + "\n" + " ".join(last) + "\n")


class TestJson:
    def test_round_trip(self) -> None:
        s = finished_game(seed=9, players=2)
        data = json.loads(record.to_json(s))
        assert data["format"] == "scarab-record" and data["version"] == 1
        assert data["options"]["players"] == 2 and data["seed"] == 9
        assert len(data["meta"]["scores"]) == len(data["moves"])
        back = record.from_json(record.to_json(s))
        assert back.scores == s.scores and back.position() == s.position()

    def test_core_replay_agrees(self) -> None:
        s = finished_game(seed=4)
        rec = GameRecord.loads(record.to_json(s))
        back = rec.replay(lambda options, seed: ScarabeoState.from_options(dict(options), seed))
        assert back.position() == s.position()

    def test_tampered_score(self) -> None:
        s = finished_game(seed=9, players=2)
        data = json.loads(record.to_json(s))
        data["meta"]["scores"][3] += 1
        with pytest.raises(ReplayError) as info:
            record.from_json(json.dumps(data))
        assert info.value.turn == 4

    def test_bad_options(self) -> None:
        s = finished_game(seed=9, players=2)
        data = json.loads(record.to_json(s))
        data["options"]["players"] = 7
        with pytest.raises(ReplayError, match="2-4 players"):
            record.from_json(json.dumps(data))
        data["options"] = {"players": 2, "colour": "red"}
        with pytest.raises(ReplayError, match="unknown option"):
            record.from_json(json.dumps(data))

    def test_not_json(self) -> None:
        with pytest.raises(ReplayError, match="not valid JSON"):
            record.from_json("{oops")


class TestOversized:
    def test_oversized_text_and_json(self) -> None:
        big = "#scarabeo-record 1\n" + "#" * (MAX_RECORD_BYTES + 10)
        with pytest.raises(ReplayError, match="more than"):
            record.load(big)
        with pytest.raises(ReplayError, match="more than"):
            record.load("{" + " " * (MAX_RECORD_BYTES + 10) + "}")

    def test_too_many_moves(self) -> None:
        rec = GameRecord("scarabeo", {"players": 2}, 1, ["-"] * (record.MAX_MOVES + 1))
        with pytest.raises(ReplayError, match="at most"):
            record.replay_record(rec)

    def test_moves_after_the_end(self) -> None:
        s = finished_game(seed=2, players=2)
        rec = record.to_record(s)
        rec.moves.append("-")
        rec.meta = {}
        with pytest.raises(ReplayError, match="already over") as info:
            record.replay_record(rec)
        assert info.value.turn == len(rec.moves)


class TestFromPosition:
    def test_a_game_started_from_a_position_records_and_replays(self) -> None:
        words = SetWordList(["CONTARE", "SCONTARE", "BA"])
        s = ScarabeoState.from_position(position_with(["9F CONTARE"], ["SBOOOOOO", "AEIOUAEI"]),
                                        word_list=words, seed=5)
        s.push(s.parse_move("9E SCONTARE"))
        s.push(s.parse_move("-AEIOUAEI"))
        assert s.options()["position"].startswith("17/")
        for back in (record.from_text(record.to_text(s), words),
                     record.from_json(record.to_json(s), words)):
            assert back.position() == s.position() and back.scores == s.scores
