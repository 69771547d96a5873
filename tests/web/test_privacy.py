"""What leaves a device reveals no rack and no puzzle answer (issue 24), for links and files.

A three-person Scarabeo game (seed 777, four moves, issue 24's case) is shared to be watched: the
link holds the engine's public record and the seats, nothing from which a rack, the seed or a draw
follows; an edited watch link or file cannot become a game; a move link — the players' explicit
choice — is the one kind that carries the seed; a finished game's link carries everything.
"""

from __future__ import annotations

import base64
import json
import zlib
from typing import Any

import pytest

from game.core import GameRecord
from game.scarabeo import ai
from game.scarabeo.public import public_record
from tests.scarabeo.test_cli import real_lexicon
from tests.web.test_snapshot import views  # noqa: F401 - the game views with a stand-in pyscript
from web.platform import engines, share
from web.platform.session import Seat, Session
from web.platform.share import PREFIX, ShareError, decode, is_watch, link_for, receive
from web.platform.storage import InvalidSave, MemoryStore, SaveStore

SEATS = [Seat("Anna"), Seat("Bruno"), Seat("Carla")]


@pytest.fixture(scope="module")
def lex() -> Any:
    from game.scarabeo import lexicon_file

    real_lexicon()
    lexicon = lexicon_file.load_lexicon()
    engines.FACTORY_KWARGS["scarabeo"] = {"word_list": lexicon}
    yield lexicon
    engines.FACTORY_KWARGS.pop("scarabeo", None)


def store() -> SaveStore:
    return SaveStore(MemoryStore(), validate_state=engines.validate_state)


@pytest.fixture
def game(lex: Any) -> Session:
    session = Session.create(store(), "scarabeo", {"players": 3}, 777, SEATS, "a tre")
    for _ in range(4):
        session.play_move(ai.choose(session.state, "greedy"))
    assert not session.state.is_over()
    return session


def unpack(link: str) -> dict[str, Any]:
    body = link.split("d=", 1)[-1][len(PREFIX):]
    return json.loads(zlib.decompress(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))))


def repack(payload: dict[str, Any]) -> str:
    """A link edited by hand, its check recomputed (the check is no secret)."""
    payload = {k: v for k, v in payload.items() if k != "check"}
    payload["check"] = share._check(payload)
    return PREFIX + base64.urlsafe_b64encode(zlib.compress(share._canonical(payload))).decode().rstrip("=")


def watch_link(game: Session) -> str:
    return link_for(game.state, game.record(shared=True), game.game_id)


class TestWatchLink:
    def test_it_carries_the_public_record_and_the_seats_only(self, game: Session) -> None:
        payload = unpack(watch_link(game))
        assert payload["kind"] == "watch"
        assert set(payload) == {"kind", "game", "public", "meta", "game_id", "moves", "check"}
        assert payload["meta"] == {"seats": [{"name": s.name, "computer": False, "level": 2} for s in SEATS]}
        assert payload["public"] == public_record(game.state).to_json()
        text = json.dumps(payload)
        assert '"seed"' not in text and '"racks"' not in text and "bag" not in text

    def test_no_rack_can_be_computed_from_it(self, game: Session) -> None:
        """Decoded and rebuilt by the engine, as a receiver would: every rack tile is hidden, and
        the link is the same for another deal that shows the table the same moves (here: the same
        game, its racks and bag changed behind the table's back)."""
        shared = decode(watch_link(game))
        assert shared.record is None and shared.kind == "watch"
        watched = share.rebuild_watch(share.watch_json(shared.public, shared.meta or {}))
        assert watched.board == game.state.board
        assert list(watched.view()["scores"]) == list(game.state.view()["scores"])
        assert all(set(rack) <= {"_"} for rack in watched.racks) and set(watched.bag) <= {"_"}
        assert [len(r) for r in watched.racks] == [len(r) for r in game.state.racks]
        other = game.state  # the fixture's own game: changed here only
        other.racks[0], other.racks[1] = other.racks[1], other.racks[0]
        other.bag.reverse()
        assert public_record(other).to_json() == shared.public

    def test_it_opens_as_a_watch_with_no_rack_and_no_seed(self, game: Session) -> None:
        watcher = store()
        save, what = receive(watcher, watch_link(game), "watched")
        assert what == "new" and is_watch(save.state)
        assert "seed" not in json.dumps(save.state)
        session = Session.open(watcher, save.id)
        assert session.watch and session.replay_only
        assert session.state.board == game.state.board
        assert all(set(rack) <= {"_"} for rack in session.state.racks)
        with pytest.raises(ValueError):
            session.play("-")
        with pytest.raises(ValueError):
            session.record()
        session.autosave()  # e.g. after the review's visit: still a watch, still no seed
        assert is_watch(watcher.load(save.id).state)

    def test_a_later_link_moves_the_watch_on(self, game: Session) -> None:
        watcher = store()
        first = watch_link(game)
        save, _ = receive(watcher, first, "watched")
        game.play_move(ai.choose(game.state, "greedy"))
        game.play_move(ai.choose(game.state, "greedy"))
        later = watch_link(game)
        moved, what = receive(watcher, later, "x")
        assert (moved.id, what) == (save.id, "next")
        assert Session.open(watcher, save.id).state.board == game.state.board
        assert receive(watcher, later, "x")[1] == "same"
        with pytest.raises(ShareError, match="older"):
            receive(watcher, first, "x")

    @pytest.mark.parametrize("edit", [
        lambda p: p.update(kind="move"),
        lambda p: p.update(kind="game"),
        lambda p: p["meta"].update(revealed=True),
        lambda p: p.update(game="thot"),
        lambda p: p["public"]["moves"][0].update(score=500),
        lambda p: p["public"]["options"].update(position="x"),
        lambda p: p["public"].update(seed=1),
    ])
    def test_an_edited_watch_link_cannot_become_a_game(self, game: Session, edit: Any) -> None:
        payload = unpack(watch_link(game))
        edit(payload)
        watcher = store()
        with pytest.raises(ShareError):
            receive(watcher, repack(payload), "t")
        assert watcher.list() == []

    def test_the_sender_opening_their_own_watch_link_keeps_their_game(self, game: Session) -> None:
        save, what = receive(game.store, watch_link(game), "t")
        assert (save.id, what) == (game.save.id, "same")
        assert not is_watch(save.state)


class TestOlderLinks:
    def test_an_s1_link_of_an_unfinished_game_opens_as_a_watch_even_revealed(self, game: Session) -> None:
        """Issue 24: an ``s1.`` link with ``meta.revealed`` set and its check recomputed."""
        record = game.record(shared=True).to_json()
        record["meta"]["revealed"] = True
        payload = {"record": record, "game_id": game.game_id, "moves": len(record["moves"]),
                   "check": share._check(record)}
        link = "s1." + base64.urlsafe_b64encode(zlib.compress(share._canonical(payload))).decode().rstrip("=")
        watcher = store()
        save, _ = receive(watcher, link, "t")
        assert is_watch(save.state) and "seed" not in json.dumps(save.state)
        assert Session.open(watcher, save.id).replay_only

    def test_a_watch_kept_whole_by_an_older_version_drops_its_seed_when_opened(self, game: Session) -> None:
        device = store()
        record = game.record(shared=True)
        record.meta.update(replay=True, game_id="old")
        save = device.create("scarabeo", "old watch", record.to_json())
        session = Session.open(device, save.id)
        assert session.watch and is_watch(device.load(save.id).state)
        assert "seed" not in json.dumps(device.load(save.id).state)


class TestMoveLink:
    def test_only_the_move_link_carries_the_seed_and_continues(self, game: Session) -> None:
        link = link_for(game.state, game.record(shared=True), game.game_id, move=True)
        payload = unpack(link)
        assert payload["kind"] == "move" and payload["record"]["seed"] == 777
        other = store()
        save, what = receive(other, link, "moved")
        assert what == "new" and not is_watch(save.state)
        moved = Session.open(other, save.id)
        assert not moved.replay_only and moved.state.racks == game.state.racks

    def test_a_public_game_is_never_moved_this_way(self) -> None:
        rec = GameRecord("thot", {"players": 2}, 42, ["C7"], {})
        payload = unpack(share.encode(rec, "g"))
        payload["kind"] = "move"
        with pytest.raises(ShareError, match="altered"):
            decode(repack(payload))


class TestFinishedGame:
    def test_a_finished_game_link_carries_everything(self, lex: Any) -> None:
        session = Session.create(store(), "scarabeo", {"players": 2}, 5, SEATS[:2], "done")
        while not session.state.is_over():
            session.play("-")
        payload = unpack(link_for(session.state, session.record(shared=True), session.game_id))
        assert payload["kind"] == "game" and payload["record"]["seed"] == 5
        save, _ = receive(store(), PREFIX + repack(payload)[len(PREFIX):], "t")
        assert not is_watch(save.state)


class TestFiles:
    def test_the_owner_export_is_a_backup_and_a_watch_exports_as_a_watch(self, game: Session) -> None:
        backup = json.loads(game.store.export(game.save.id))
        assert backup["kind"] == "backup" and backup["state"]["seed"] == 777
        watcher = store()
        save, _ = receive(watcher, watch_link(game), "watched")
        exported = json.loads(watcher.export(save.id))
        assert exported["kind"] == "watch" and "seed" not in json.dumps(exported)
        again = store().import_text(json.dumps(exported))
        assert is_watch(again.state)

    def test_a_watch_file_with_replay_removed_or_kind_changed_stays_a_watch(self, game: Session) -> None:
        watcher = store()
        save, _ = receive(watcher, watch_link(game), "watched")
        exported = json.loads(watcher.export(save.id))
        exported["kind"] = "backup"
        exported["state"]["meta"].pop("replay")
        device = store()
        imported = device.import_text(json.dumps(exported))
        session = Session.open(device, imported.id)
        assert session.watch and session.replay_only
        assert all(set(rack) <= {"_"} for rack in session.state.racks)

    def test_a_watch_file_holding_a_whole_game_is_refused(self, game: Session) -> None:
        exported = json.loads(game.store.export(game.save.id))
        exported["kind"] = "watch"
        with pytest.raises(InvalidSave, match="altered"):
            store().import_text(json.dumps(exported))

    def test_an_older_watched_game_file_is_imported_as_a_watch(self, game: Session) -> None:
        """The issue's case: the file of a game opened to be watched, ``"replay": true`` kept: it
        comes in as its public record (with the flag removed it is the owner's backup)."""
        exported = json.loads(game.store.export(game.save.id))
        exported.pop("kind")
        exported["state"]["meta"]["replay"] = True
        imported = store().import_text(json.dumps(exported))
        assert is_watch(imported.state) and "seed" not in json.dumps(imported.state)


class TestResumeSnapshot:
    """The instant-resume snapshot (web/platform/snapshot.py), drawn by boot.js before Python starts, keeps no
    rack the screen would not show: a watched game's has none, a vote's is the cover."""

    def test_a_watched_game_keeps_no_rack(self, game: Session, views: dict[str, Any]) -> None:
        from tests.web.test_snapshot import Page
        from web.platform import snapshot

        ui = views["scarabeo"]
        watcher = store()
        save, _ = receive(watcher, watch_link(game), "watched")
        snap = snapshot.build(Page(Session.open(watcher, save.id), ui))
        assert snap is not None and "hand" not in snap and "cover" not in snap and "board" in snap
        assert "sc-tile" not in json.dumps(snap) and "sc-rack" not in json.dumps(snap)

    def test_a_vote_in_pass_and_play_is_the_cover(self, lex: Any, views: dict[str, Any]) -> None:
        from tests.web.test_snapshot import Page
        from web.platform import snapshot

        ui = views["scarabeo"]
        session = Session.create(store(), "scarabeo", {"players": 3, "check_mode": "vote"}, 7, SEATS, "vote")
        from itertools import permutations

        rack = [t for t in session.state.racks[session.state.to_move()] if t != "?"]
        word = next("".join(p) for p in permutations(rack, 3) if not lex.contains("".join(p)))
        session.play(f"9I {word}")  # across from the centre: a word the lexicon does not know
        assert session.state.pending is not None and session.state.pending.kind == "vote"
        snap = snapshot.build(Page(session, ui))
        assert snap is not None and set(snap) >= {"cover"} and "hand" not in snap and "board" not in snap



class TestWatchReview:
    def test_the_chart_of_a_watched_game_is_its_public_scores(self, game: Session) -> None:
        from web.platform import review_model
        from web.platform.watch import read_watch

        watcher = store()
        save, _ = receive(watcher, watch_link(game), "watched")
        public, _meta = read_watch(watcher.load(save.id).state)
        values = review_model.public_series(public.moves, 3)
        totals = [[0.0] * 3]
        for r in game.state.results():
            row = list(totals[-1])
            row[r.player] = float(r.total)
            totals.append(row)
        assert [list(col) for col in zip(*values)] == totals
        assert values[0][-1:] + values[1][-1:] + values[2][-1:] == [float(x) for x in game.state.view()["scores"]]
