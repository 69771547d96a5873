"""Resume snapshots (web/platform/snapshot.py): what boot.js draws before Python starts.

Privacy first: a pass-and-play snapshot of Scarabeo holds no rack (only the cover's "Pass the device
to NAME"); hostile names stay text; a snapshot too big is not kept; a failing snapshot never fails the
save; snapshots are pruned and never outlive their game. The views' hooks run here in CPython with a
stand-in for the ``pyscript`` module (they draw data, never the DOM).
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any, Iterator

import pytest

from web.platform import snapshot
from web.platform.i18n import Messages, load_catalogue
from web.platform.session import Seat, Session
from web.platform.storage import MemoryStore, SaveStore, StorageFull

from tests.web.standin import stand_in_pyscript

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = "<img src=x onerror=alert(1)>"
CATALOGUE = load_catalogue(ROOT / "web" / "platform" / "messages")


@pytest.fixture(scope="module")
def views() -> Iterator[dict[str, Any]]:
    """The game views, imported with a stand-in ``pyscript`` (module-level imports only)."""
    import importlib

    with stand_in_pyscript(drop=("web.games", "web.ui.dom", "web.pages.play", "web.platform.router",
                                 "web.platform.tutorial")):
        yield {g: importlib.import_module(f"web.games.{g}.ui").UI for g in ("scarabeo", "thot", "scarabya")}


class Page:
    """What the snapshot builder reads of a game page."""

    def __init__(self, session: Session, ui: Any, lang: str = "en") -> None:
        self.session, self.ui, self.t = session, ui, Messages(CATALOGUE, lang)
        self.selection: dict[str, Any] = {}
        self.thinking = False
        self.revealed = None
        self.closed = False

    def halted(self) -> str | None:
        return None


def store(quota: int | None = None) -> SaveStore:
    ticks, ids = itertools.count(1000), itertools.count(1)
    return SaveStore(MemoryStore(quota), clock=lambda: next(ticks), new_id=lambda: f"g{next(ids)}")


def scarabeo(st: SaveStore, seats: list[Seat]) -> Session:
    return Session.create(st, "scarabeo", {"players": len(seats)}, 777, seats, "Scarabeo test")


def texts(node: Any) -> Iterator[str]:
    """Every text of a snapshot node tree."""
    if isinstance(node, list):
        if len(node) > 2 and isinstance(node[2], str):
            yield node[2]
        if len(node) > 3:
            for child in node[3]:
                yield from texts(child)


def classes(node: Any) -> Iterator[str]:
    if isinstance(node, list):
        if len(node) > 1 and node[1]:
            yield from str(node[1]).split()
        if len(node) > 3:
            for child in node[3]:
                yield from classes(child)


class TestPrivacy:
    def test_pass_and_play_scarabeo_shows_the_cover_and_no_rack(self, views: dict[str, Any]) -> None:
        st = store()
        session = scarabeo(st, [Seat("Anna"), Seat("Bruno")])
        snap = snapshot.build(Page(session, views["scarabeo"]))
        assert snap is not None
        name = session.seats[session.state.to_move()].name
        assert snap["cover"]["title"] == f"Pass the device to {name}"
        assert "board" not in snap and "hand" not in snap and "head" not in snap
        text = json.dumps(snap)
        assert "sc-tile" not in text and "sc-rack" not in text
        assert set(snap) == {"v", "game", "id", "title", "updated", "lang", "cls", "cover"}

    def test_one_person_against_the_computer_keeps_their_rack(self, views: dict[str, Any]) -> None:
        st = store()
        session = scarabeo(st, [Seat("Anna"), Seat("Hal", computer=True, level=1)])
        snap = snapshot.build(Page(session, views["scarabeo"]))
        assert snap is not None and "cover" not in snap
        assert "sc-tile" in set(classes(snap["hand"]))
        letters = [n[3][0][2] for n in snap["hand"][3][0][3]]  # hand > rack > tile > letter
        rack = session.state.racks[0]
        assert sorted(letters) == sorted("\u2605" if x == "?" else x for x in rack)
        assert "Anna" in snap["hand"][3][0][4]["aria-label"]

    def test_two_people_and_a_computer_to_move_show_no_rack(self, views: dict[str, Any]) -> None:
        st = store()
        seats = [Seat("Hal", computer=True, level=1), Seat("Anna"), Seat("Bruno")]
        session = next(s for s in (Session.create(st, "scarabeo", {"players": 3}, seed, seats, "t")
                                   for seed in range(50)) if s.seats[s.state.to_move()].computer)
        snap = snapshot.build(Page(session, views["scarabeo"]))
        assert snap is not None and "hand" not in snap and "cover" not in snap and "board" in snap
        assert "sc-tile" not in json.dumps(snap)

    def test_a_hook_that_offers_a_hand_in_pass_and_play_is_overruled(self) -> None:
        st = store()
        session = Session.create(st, "thot", {"players": 2}, 7, [Seat("Ada"), Seat("Bo", computer=True)], "t")

        class PrivateUI:
            GAME, PRIVATE = "thot", True

            def snapshot(self, page: Any) -> dict[str, Any]:
                return {"board": snapshot.el("div", "b"), "hand": snapshot.el("div", "secret", "RACK")}

        session.seats[:] = [Seat("Ada", computer=True), Seat("Bo", computer=True)]  # nobody to cover
        snap = snapshot.build(Page(session, PrivateUI()))
        assert snap is not None and "hand" not in snap and "RACK" not in json.dumps(snap)


class TestOutsideText:
    def test_hostile_names_are_text_in_the_data(self, views: dict[str, Any]) -> None:
        st = store()
        session = Session.create(st, "thot", {"players": 2}, 7, [Seat(HOSTILE[:24]), Seat("Bo")], HOSTILE)
        snap = snapshot.build(Page(session, views["thot"]))
        assert snap is not None
        names = list(texts(snap["head"]))
        assert any(HOSTILE[:24] in x for x in names)
        # classes come only from the views' own vocabulary, never from a name
        assert all(c.replace("-", "").replace("_", "").isalnum() for c in classes(snap["board"]))
        assert snap["board"][4]["--n"].isdigit()

    def test_el_refuses_tags_boot_js_does_not_draw(self) -> None:
        with pytest.raises(ValueError):
            snapshot.el("script", None, "alert(1)")
        with pytest.raises(ValueError):
            snapshot.el("a", None, "x")

    def test_boot_js_draws_text_only(self) -> None:
        source = (ROOT / "web" / "shell" / "boot.js").read_text(encoding="utf-8")
        start = source.index("// Instant resume")
        end = source.index("window.scarabBoot = {")
        part = source[start:end]
        for bad in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
            assert bad not in part
        assert "SNAP_MAX" in part and "JSON.parse" in part and "try {" in part


class TestStoring:
    def test_autosave_stores_the_snapshot_and_delete_removes_it(self, views: dict[str, Any]) -> None:
        st = store()
        session = Session.create(st, "thot", {"players": 2}, 7, [Seat("Ada"), Seat("Bo")], "Thot")
        page = Page(session, views["thot"])
        session.after_save = lambda: snapshot.store(st.kv, st.prefix, page)
        move = session.state.legal_moves()[0]
        session.play(session.state.move_text(move))
        raw = st.kv.get("scarab:snap:" + session.save.id)
        assert raw is not None
        snap = json.loads(raw)
        assert snap["v"] == 1 and snap["game"] == "thot" and snap["id"] == session.save.id
        assert snap["updated"] == session.save.updated
        assert any("Ada" in x or "Bo" in x for x in texts(snap["head"]))
        st.delete(session.save.id)
        assert st.kv.get("scarab:snap:" + session.save.id) is None

    def test_size_cap(self) -> None:
        big = {"v": 1, "head": snapshot.el("p", None, "x" * 300)}
        assert snapshot.encode(big) is not None
        huge = {"v": 1, "board": [snapshot.el("p", None, "x" * 300) for _ in range(500)]}
        assert snapshot.encode(huge) is None

    def test_a_snapshot_too_big_is_removed_not_kept_stale(self, monkeypatch: Any, views: dict[str, Any]) -> None:
        st = store()
        session = Session.create(st, "thot", {"players": 2}, 7, [Seat("Ada"), Seat("Bo")], "Thot")
        page = Page(session, views["thot"])
        assert snapshot.store(st.kv, st.prefix, page)
        monkeypatch.setattr(snapshot, "MAX_CHARS", 100)
        assert not snapshot.store(st.kv, st.prefix, page)
        assert st.kv.get("scarab:snap:" + session.save.id) is None

    def test_a_failing_snapshot_never_fails_the_save(self, monkeypatch: Any) -> None:
        st = store()
        session = Session.create(st, "thot", {"players": 2}, 7, [Seat("Ada"), Seat("Bo")], "Thot")

        class Broken:
            GAME, PRIVATE = "thot", False

            def snapshot(self, page: Any) -> dict[str, Any]:
                raise RuntimeError("the view failed")

        page = Page(session, Broken())
        session.after_save = lambda: snapshot.store(st.kv, st.prefix, page)
        before = session.save.revision
        session.play(session.state.move_text(session.state.legal_moves()[0]))
        assert session.save.revision == before + 1
        session.after_save = lambda: 1 / 0  # even a raising callback
        session.play(session.state.move_text(session.state.legal_moves()[0]))
        assert session.save.revision == before + 2

    def test_full_storage_drops_snapshots_before_refusing_a_save(self, views: dict[str, Any]) -> None:
        st = store()
        session = Session.create(st, "thot", {"players": 2}, 7, [Seat("Ada"), Seat("Bo")], "Thot")
        page = Page(session, views["thot"])
        session.after_save = lambda: snapshot.store(st.kv, st.prefix, page)
        session.play(session.state.move_text(session.state.legal_moves()[0]))
        assert st.kv.get("scarab:snap:" + session.save.id) is not None
        used = sum(len(k) + len(v) for k, v in st.kv.data.items())  # type: ignore[attr-defined]
        snap_len = len(st.kv.get("scarab:snap:" + session.save.id) or "")
        st.kv.quota = used - snap_len + 2000  # type: ignore[attr-defined]
        session.after_save = None
        session.play(session.state.move_text(session.state.legal_moves()[0]))  # room found by dropping it
        assert st.kv.get("scarab:snap:" + session.save.id) is None
        st.kv.quota = 10  # type: ignore[attr-defined]
        with pytest.raises(StorageFull):
            session.play(session.state.move_text(session.state.legal_moves()[0]))

    def test_prune_keeps_the_latest_and_none_of_a_gone_game(self, views: dict[str, Any]) -> None:
        st = store()
        sessions = []
        for i in range(snapshot.MAX_SNAPSHOTS + 3):
            session = Session.create(st, "thot", {"players": 2}, i, [Seat("Ada"), Seat("Bo")], f"T{i}")
            assert snapshot.store(st.kv, st.prefix, Page(session, views["thot"]))
            sessions.append(session)
        kept = sorted(k for k in st.kv.keys() if k.startswith("scarab:snap:"))
        assert len(kept) == snapshot.MAX_SNAPSHOTS
        assert "scarab:snap:" + sessions[-1].save.id in kept
        assert "scarab:snap:" + sessions[0].save.id not in kept
        st.kv.remove(st.prefix + sessions[-1].save.id)  # deleted by an older version, say
        snapshot.prune(st.kv, st.prefix)
        assert st.kv.get("scarab:snap:" + sessions[-1].save.id) is None

    def test_embedded_saves_get_their_own_prefix(self) -> None:
        assert snapshot.snap_prefix("scarab:save:") == "scarab:snap:"
        assert snapshot.snap_prefix("scarab:embed:save:") == "scarab:embed:snap:"


class TestViews:
    def test_scarabya_site_of_the_seat_to_move(self, views: dict[str, Any]) -> None:
        st = store()
        session = Session.create(st, "scarabya", {"players": 2}, 3, [Seat(HOSTILE[:24]), Seat("Bo")], "Sy")
        snap = snapshot.build(Page(session, views["scarabya"]))
        assert snap is not None and snap["cls"] == "scarabya-snap"
        squares = [c for c in classes(snap["board"]) if c == "sq"]
        assert len(squares) == 100  # the 10×10 site
        assert any(HOSTILE[:24] in x for x in texts(snap["board"]))  # as text: the site's name
        assert "sy-game" not in set(classes(snap["board"]))  # tests and the page look for the real one

    @pytest.mark.parametrize("game, options", [("thot", {"players": 2}), ("scarabya", {"players": 1}),
                                               ("scarabeo", {"players": 2})])
    def test_every_snapshot_fits_and_uses_only_drawable_nodes(self, views: dict[str, Any], game: str,
                                                               options: dict[str, Any]) -> None:
        st = store()
        seats = [Seat("Ada")] + [Seat("Hal", computer=True)] * (options["players"] - 1)
        session = Session.create(st, game, options, 11, seats, "t")
        snap = snapshot.build(Page(session, views[game]))
        text = snapshot.encode(snap)  # type: ignore[arg-type]
        assert text is not None and len(text) < snapshot.MAX_CHARS // 4

        def walk(node: Any, depth: int = 0) -> int:
            assert node[0] in snapshot.TAGS and depth < 14
            assert set(node[4] if len(node) > 4 else {}) <= {*snapshot.ATTRS, "--n"}
            return 1 + sum(walk(c, depth + 1) for c in (node[3] if len(node) > 3 else []))

        assert sum(walk(snap[k]) for k in ("head", "board", "hand") if k in snap) < 4000
