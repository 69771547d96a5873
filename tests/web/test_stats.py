"""Statistics: recorded once per finished game, per player and game, with the games' own extras."""

from __future__ import annotations

import pytest

from game.core import GameRecord, Rng
from web.platform import engines, stats


def finished(game: str, options: dict, seed: int) -> GameRecord:
    """Play random legal moves to the end (a real finished game, replayable)."""
    state = engines.factory(game)(options, seed)
    rng = Rng(seed)
    while not state.is_over():
        state.push(rng.choice(list(state.legal_moves())))
    return GameRecord.of(state)


@pytest.fixture(scope="module")
def thot_game() -> GameRecord:
    return finished("thot", {"players": 2, "short": True}, 5)


class TestRecording:
    def test_thot_game_counts_once(self, thot_game: GameRecord) -> None:
        s = stats.empty()
        summary = stats.summarise(thot_game, engines.factory("thot"))
        assert stats.record_game(s, "save1", "thot", ["Ada", "Bo"], summary, 1)
        assert not stats.record_game(s, "save1", "thot", ["Ada", "Bo"], summary, 2)
        ada, bo = s["players"]["ada"]["games"]["thot"], s["players"]["bo"]["games"]["thot"]
        assert ada["played"] == bo["played"] == 1
        assert ada["won"] + bo["won"] + ada["drawn"] == 1 or ada["drawn"] == bo["drawn"] == 1
        assert [ada["best"], bo["best"]] == summary["scores"]
        assert s["last_game"]["timeline"][-1] == summary["scores"]
        assert len(s["last_game"]["timeline"]) == len(thot_game.moves) + 1

    def test_names_match_case_and_spaces(self, thot_game: GameRecord) -> None:
        s = stats.empty()
        summary = stats.summarise(thot_game, engines.factory("thot"))
        stats.record_game(s, "a", "thot", ["Ada", "Bo"], summary, 1)
        stats.record_game(s, "b", "thot", ["  ada ", "Bo"], summary, 2)
        assert s["players"]["ada"]["games"]["thot"]["played"] == 2

    def test_last_30_results_kept(self, thot_game: GameRecord) -> None:
        s = stats.empty()
        summary = stats.summarise(thot_game, engines.factory("thot"))
        for i in range(40):
            stats.record_game(s, f"s{i}", "thot", ["Ada", "Bo"], summary, i)
        g = s["players"]["ada"]["games"]["thot"]
        assert g["played"] == 40 and len(g["results"]) == 30 and g["results"][-1]["when"] == 39

    def test_unfinished_game_refused(self) -> None:
        with pytest.raises(ValueError, match="not over"):
            stats.summarise(GameRecord("thot", {"players": 2}, 1, []), engines.factory("thot"))

    def test_scarabya_solo_perfect_dig_flag(self) -> None:
        rec = finished("scarabya", {"players": 1}, 3)
        summary = stats.summarise(rec, engines.factory("scarabya"))
        s = stats.empty()
        stats.record_game(s, "x", "scarabya", ["Solo"], summary, 1)
        g = s["players"]["solo"]["games"]["scarabya"]
        assert g["played"] == 1 and g["perfect_digs"] == int(summary["perfect_dig"][0])


class TestStorage:
    def test_round_trip_and_corrupt(self, thot_game: GameRecord) -> None:
        s = stats.empty()
        stats.record_game(s, "a", "thot", ["Ada", "Bo"], stats.summarise(thot_game, engines.factory("thot")), 1)
        assert stats.load(stats.dumps(s)) == s
        assert stats.load("{broken") == stats.empty()
        assert stats.load('{"version": 99, "players": {}}') == stats.empty()

    def test_reset_and_import(self, thot_game: GameRecord) -> None:
        s = stats.empty()
        stats.record_game(s, "a", "thot", ["Ada", "Bo"], stats.summarise(thot_game, engines.factory("thot")), 1)
        exported = stats.dumps(s)
        assert stats.reset_player(s, "ADA") and "ada" not in s["players"]
        merged = stats.import_stats(s, exported)
        assert merged["players"]["ada"]["games"]["thot"]["played"] == 1
        with pytest.raises(ValueError):
            stats.import_stats(stats.empty(), "[1, 2]")
