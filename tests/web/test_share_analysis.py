"""Share "include the analysis" (issue 19): a finished game's link may carry its review's complete
analysis, checked like the rest of the link (the check, the size cap, safejson), so the receiver's
review opens it without computing; without the option, or for anything else, no analysis travels."""

from __future__ import annotations

import base64
import json
import zlib
from typing import Any

import pytest

from game.core import GameRecord, Rng
from game.core.analysis import run
from game.thot import analysis as thot_analysis
from game.thot import match
from game.thot.state import ThotState
from web.platform import review_model, share
from web.platform.review_model import CACHE_KEY, Scope
from web.platform.session import Seat, Session
from web.platform.share import PREFIX, AnalysisTooLong, ShareError, decode, encode, receive, with_analysis
from web.platform.storage import MemoryStore, SaveStore

SEATS = [Seat("Ada"), Seat("Bot", computer=True, level=1)]


def finished_game(store: SaveStore) -> Session:
    """A short Thot game of greedy moves to its end, saved, its review's analysis in the save
    (a shallow engine: the link's checks do not depend on how deep the values are)."""
    session = Session.create(store, "thot", {"short": True}, 7, SEATS, "greedy")
    rng = Rng(7)
    while not session.state.is_over():
        session.play(session.state.move_text(match.choose(session.state, "greedy", rng)))
    analysis = run(thot_analysis.analyse_steps(session.record(), depth=1, nodes=200))
    review_model.remember(session.meta, analysis)
    session.autosave()
    return session


@pytest.fixture(scope="module")
def game() -> Session:
    return finished_game(SaveStore(MemoryStore()))


def repack(payload: dict[str, Any]) -> str:
    """A link made by hand from ``payload``, with a valid check over it (a game link)."""
    payload = {"kind": "game", **payload}
    payload["check"] = share._check(payload)
    return PREFIX + base64.urlsafe_b64encode(zlib.compress(share._canonical(payload))).decode().rstrip("=")


class TestEncodeDecode:
    def test_without_the_option_no_analysis_travels(self, game: Session) -> None:
        assert CACHE_KEY in game.meta  # the save has it…
        shared = decode(encode(game.record(shared=True), game.game_id))
        assert CACHE_KEY not in shared.record.meta  # …the link does not

    def test_with_it_the_same_analysis_travels(self, game: Session) -> None:
        record = with_analysis(game.record(shared=True), game.meta[CACHE_KEY], over=True)
        plain = encode(game.record(shared=True), game.game_id)
        link = encode(record, game.game_id)
        assert len(link) > len(plain)
        shared = decode(link)
        assert shared.record.meta[CACHE_KEY] == game.meta[CACHE_KEY]
        # the receiver's review finds it usable as it is: no computing
        assert review_model.cached(shared.record.meta, shared.record, Scope(True, None)) is not None

    def test_received_game_opens_with_its_analysis(self, game: Session) -> None:
        other = SaveStore(MemoryStore())
        link = encode(with_analysis(game.record(shared=True), game.meta[CACHE_KEY], over=True), game.game_id)
        save, what = receive(other, link, "from Ada")
        assert what == "new"
        opened = Session.open(other, save.id)
        found = review_model.cached(opened.meta, opened.record(), Scope(True, None))
        assert found is not None and len(found.moves) == len(game.record().moves)

    def test_only_a_finished_game(self, game: Session) -> None:
        with pytest.raises(ShareError, match="finished"):
            with_analysis(game.record(shared=True), game.meta[CACHE_KEY], over=False)

    def test_only_an_analysed_game(self, game: Session) -> None:
        with pytest.raises(ShareError, match="not been analysed"):
            with_analysis(game.record(shared=True), None, over=True)

    def test_only_a_complete_analysis(self, game: Session) -> None:
        # made during play for Ada's own moves: the computer's moves are not in it
        partial = run(thot_analysis.analyse_steps(game.record(), viewer=0, finished=False, depth=1, nodes=200))
        with pytest.raises(ShareError, match="not complete"):
            with_analysis(game.record(shared=True), partial.to_json(), over=True)

    def test_only_the_analysis_of_this_record(self, game: Session) -> None:
        record = game.record(shared=True)
        shorter = GameRecord(record.game, record.options, record.seed, record.moves[:-1], record.meta)
        with pytest.raises(ShareError, match="not of this game"):
            with_analysis(shorter, game.meta[CACHE_KEY], over=True)

    def test_too_long_with_the_analysis_is_refused_clearly(self, game: Session,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
        record = with_analysis(game.record(shared=True), game.meta[CACHE_KEY], over=True)
        plain = len(encode(game.record(shared=True), game.game_id))
        monkeypatch.setattr(share, "MAX_LINK_CHARS", plain + 50)
        encode(game.record(shared=True), game.game_id)  # the game alone still fits
        with pytest.raises(AnalysisTooLong, match="without the analysis") as err:
            encode(record, game.game_id)
        assert err.value.chars > plain + 50


class TestForgedLinks:
    """Links made by hand with a valid check: the analysis in them is checked as well."""

    def payload(self, game: Session, analysis: Any) -> dict[str, Any]:
        record = game.record(shared=True).to_json()
        record["meta"][CACHE_KEY] = analysis
        return {"record": record, "game_id": game.game_id, "moves": len(record["moves"])}

    def test_analysis_of_another_game_refused(self, game: Session) -> None:
        data = json.loads(json.dumps(game.meta[CACHE_KEY]))
        data["record"] = "sha256:" + "0" * 64
        with pytest.raises(ShareError, match="analysis is not of this game"):
            decode(repack(self.payload(game, data)))

    def test_malformed_analysis_refused(self, game: Session) -> None:
        with pytest.raises(ShareError, match="analysis cannot be opened"):
            decode(repack(self.payload(game, {"format": "scarab-analysis", "version": 1, "moves": "x"})))

    def test_deeply_nested_analysis_refused_by_safejson(self, game: Session) -> None:
        data = json.loads(json.dumps(game.meta[CACHE_KEY]))
        deep: Any = 0
        for _ in range(200):
            deep = [deep]
        data["engine"]["extra"] = deep
        with pytest.raises(ShareError, match="refused"):
            decode(repack(self.payload(game, data)))

    def test_analysis_of_a_game_in_progress_refused_on_receiving(self) -> None:
        store = SaveStore(MemoryStore())
        session = Session.create(store, "thot", {"short": True}, 7, SEATS, "open")
        for _ in range(4):
            session.play(session.state.move_text(session.state.legal_moves()[0]))
        # an analysis "finished" by force of a game that is not over
        forced = run(thot_analysis.analyse_steps(session.record(), finished=True, depth=1, nodes=200))
        record = session.record(shared=True).to_json()
        record["meta"][CACHE_KEY] = forced.to_json()
        link = repack({"record": record, "game_id": session.game_id, "moves": 4})
        with pytest.raises(ShareError, match="not over"):
            receive(SaveStore(MemoryStore()), link, "t")
