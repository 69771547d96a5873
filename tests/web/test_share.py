"""Game links: round trip, damage and tampering refused, size caps, correspondence order."""

from __future__ import annotations

import base64
import json
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.core import GameRecord
from web.platform.share import MAX_LINK_CHARS, PREFIX, ShareError, check_continuation, decode, encode

REC = GameRecord("thot", {"players": 2}, 42, ["C7", "C3", "F3"], {"seats": [{"name": "Ada"}, {"name": "Bo"}]})


class TestLinks:
    def test_round_trip(self) -> None:
        shared = decode(encode(REC, "g1"))
        assert shared.record.to_json() == REC.to_json()
        assert (shared.game_id, shared.moves) == ("g1", 3)

    @settings(max_examples=40, deadline=None)
    @given(st.lists(st.sampled_from(["C7", "A1", "J10", "C3>F3", "C7@E5:-8"]), max_size=60),
           st.text(min_size=1, max_size=30))
    def test_round_trip_any_record(self, moves: list[str], name: str) -> None:
        rec = GameRecord("thot", {"players": 2}, 1, moves, {"seats": [{"name": name}]})
        assert decode(encode(rec, "x")).record.to_json() == rec.to_json()

    def test_tampered_payload_refused(self) -> None:
        link = encode(REC, "g1")
        raw = json.loads(zlib.decompress(base64.urlsafe_b64decode(link[3:] + "==")))
        raw["record"]["moves"][0] = "D7"  # a forged move, re-packed without the check
        forged = PREFIX + base64.urlsafe_b64encode(zlib.compress(json.dumps(raw).encode())).decode()
        with pytest.raises(ShareError, match="altered"):
            decode(forged)

    @pytest.mark.parametrize("bad, reason", [
        ("s1.%%%%", "damaged"), ("s1.AAAA", "damaged"), ("s9.abc", "format"), ("", "format"),
        ("s1." + "A" * (MAX_LINK_CHARS + 1), "too long"),
    ])
    def test_bad_links(self, bad: str, reason: str) -> None:
        with pytest.raises(ShareError, match=reason):
            decode(bad)

    def test_zip_bomb_refused(self) -> None:
        bomb = PREFIX + base64.urlsafe_b64encode(zlib.compress(b"[" * 5_000_000, 9)).decode()
        with pytest.raises(ShareError):
            decode(bomb)


class TestCorrespondence:
    def with_moves(self, moves: list[str]) -> GameRecord:
        return GameRecord(REC.game, REC.options, REC.seed, moves, REC.meta)

    def test_next_move_accepted(self) -> None:
        assert check_continuation(self.with_moves(["C7", "C3"]), decode(encode(REC, "g"))) == "next"
        assert check_continuation(REC, decode(encode(REC, "g"))) == "same"

    @pytest.mark.parametrize("local, reason", [
        (["C7", "C3", "F3", "F9"], "older"),
        (["C7"], "skips 1"),
        (["C7", "C4"], "rewrites"),
    ])
    def test_out_of_order_refused(self, local: list[str], reason: str) -> None:
        with pytest.raises(ShareError, match=reason):
            check_continuation(self.with_moves(local), decode(encode(REC, "g")))

    def test_other_game_refused(self) -> None:
        other = GameRecord("thot", {"players": 2}, 43, ["C7", "C3"], {})
        with pytest.raises(ShareError, match="different game"):
            check_continuation(other, decode(encode(REC, "g")))


class TestReceive:
    def test_correspondence_between_two_devices(self) -> None:
        from web.platform.session import Seat, Session
        from web.platform.share import receive
        from web.platform.storage import MemoryStore, SaveStore

        alice, bob = SaveStore(MemoryStore()), SaveStore(MemoryStore())
        game = Session.create(alice, "thot", {"players": 2}, 9, [Seat("Alice"), Seat("Bob")], "by mail")
        game.play(game.state.move_text(game.state.legal_moves()[0]))
        link = encode(game.record(), game.game_id)
        bob_save, what = receive(bob, link, "from Alice")
        assert what == "new"
        bobs = Session.open(bob, bob_save.id)
        assert bobs.state.position() == game.state.position()
        bobs.play(bobs.state.move_text(bobs.state.legal_moves()[0]))
        reply = encode(bobs.record(), bobs.game_id)
        save, what = receive(alice, reply, "ignored")
        assert (save.id, what) == (game.save.id, "next")
        assert Session.open(alice, save.id).state.position() == bobs.state.position()
        # The same link again changes nothing; the older one is refused.
        assert receive(alice, reply, "x")[1] == "same"
        with pytest.raises(ShareError, match="older"):
            receive(alice, link, "x")

    def test_illegal_game_in_link_refused(self) -> None:
        from web.platform.share import receive
        from web.platform.storage import MemoryStore, SaveStore

        bad = GameRecord("thot", {"players": 2}, 9, ["Z99"], {})
        with pytest.raises(ShareError, match="does not replay"):
            receive(SaveStore(MemoryStore()), encode(bad, "g"), "t")


class TestPrivateRacks:
    def test_scarabeo_link_is_a_watch_and_revealed_changes_nothing(self) -> None:
        """Issue 24: ``meta.revealed`` set in a link (its check recomputed) no longer turns it into a
        game to continue; the watch kept holds no seed. Only a move link continues the game."""
        from web.platform.session import Seat, Session
        from web.platform.share import is_watch, link_for, receive
        from web.platform.storage import MemoryStore, SaveStore

        home = SaveStore(MemoryStore())
        game = Session.create(home, "scarabeo", {"players": 2}, 3, [Seat("Ada"), Seat("Bo")], "parole")
        game.play("-")
        hidden = receive(SaveStore(MemoryStore()), encode(game.record(), game.game_id), "t")[0]
        assert is_watch(hidden.state) and hidden.state["meta"]["replay"] is True
        assert "seed" not in json.dumps(hidden.state)
        record = game.record()
        record.meta["revealed"] = True
        other = SaveStore(MemoryStore())
        shown, _ = receive(other, encode(record, game.game_id), "t")
        assert is_watch(shown.state) and Session.open(other, shown.id).replay_only
        moved, _ = receive(SaveStore(MemoryStore()),
                           link_for(game.state, game.record(shared=True), game.game_id, move=True), "t")
        assert not is_watch(moved.state) and "replay" not in moved.state["meta"]
