"""The page's side of issue 36: a game stopped on a proven cheat and a game whose keys are awaited
after the end, as the save records them (what Export writes), as the page says them (both
languages), and as the statistics count them (an unverified game is nobody's win)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from game.remote.session import Device
from web.platform import stats
from web.platform.i18n import Messages
from web.platform.remote import RemoteSession, keys_texts, public_state, remote_meta, stop_text
from web.platform.storage import MemoryStore, SaveStore
from tests.remote.protocol_helpers import Table, start, withheld_end

ROOT = Path(__file__).resolve().parents[2]


def _catalogue() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in ("remote.json", "shell.json"):
        out.update(json.loads((ROOT / "web/platform/messages" / name).read_text(encoding="utf-8")))
    return out


def _fork() -> tuple[Device, Device, list[str]]:
    """Three Thot devices; the seat to move signs two moves for one place; the watcher saw both."""
    devices = start("thot", 3, {"short": True})
    mover = next(d for d in devices if d.seat == devices[0].game.state.to_move())  # type: ignore[union-attr]
    m = mover._header("move", mover.seat)  # type: ignore[arg-type]
    texts = []
    for move in mover.show()["legal"][:2]:
        m["t"] = move
        texts.append(mover._signed(m))
    watcher = next(d for d in devices if d is not mover)
    watcher.open(texts[0])
    assert watcher.open(texts[1]).kind == "stopped"
    return mover, watcher, texts


def test_a_stopped_game_is_saved_with_its_evidence_and_offers_no_move() -> None:
    mover, watcher, texts = _fork()
    session = RemoteSession.create(SaveStore(MemoryStore()), watcher, "with friends")
    meta = remote_meta(session.save.state)
    assert meta is not None and meta["stopped"]["evidence"] == texts and meta["forks"][0]["messages"] == texts
    assert meta["your_turn"] is False and meta["waiting_for"] is None
    # nobody plays on: the views' input is off (as while another device's seat is to move)
    assert session.to_move() is None and session.computer_to_move() and not session.your_turn()
    # opened again from the browser's storage: still stopped
    again = RemoteSession.open(session.store, session.save.id)
    assert again.device.show()["stopped"] == watcher.show()["stopped"] and again.to_move() is None


@pytest.mark.parametrize("lang", ["it", "en"])
def test_the_page_says_the_stop_in_words(lang: str) -> None:
    mover, watcher, _ = _fork()
    t = Messages(_catalogue(), lang)
    name = mover.names()[mover.seat or 0]
    line = stop_text(t, watcher.show()["stopped"])
    assert name in line and "{" not in line
    if lang == "en":
        assert line.startswith(f"{name} signed two different messages for message ")
        assert line.endswith("The game is stopped, and nothing more of yours is revealed.")
    for kind in ("deck", "key", "share", "tile", "shares", "broken", "other", "unknown"):
        said = stop_text(t, {"kind": kind, "name": "Bruno", "n": 7})
        assert "{" not in said and said != f"remote.stopped.{kind}"
    assert stop_text(Messages(_catalogue(), "en"), {"kind": "deck", "name": "Bruno", "n": 7}) == (
        "Bruno's device dealt cards that are not the deck. The game is stopped, and nothing more of "
        "yours is revealed.")


def test_keys_awaited_are_said_recorded_and_counted_as_unverified() -> None:
    table = Table("scarabeo", 2)
    withholder, keys, name, other, shown = withheld_end(table)
    en = Messages(_catalogue(), "en")
    assert keys_texts(en, shown)[0] == f"{name} has not revealed their keys: the game cannot be verified."
    assert keys_texts(Messages(_catalogue(), "it"), shown)[0].startswith(f"{name} non ha rivelato le sue chiavi")
    state = public_state(other)
    assert state["meta"]["remote"]["keys_awaited"]["name"] == name
    # Statistics: every seat's game counted, unverified, nobody's win; nothing in the totals.
    data = stats.empty()
    summary = stats.remote_summary(shown)
    assert summary is not None and summary["unverified"] and summary["winners"] == []
    names = other.names()
    assert stats.record_game(data, "save-1", "scarabeo", names, summary, 10)
    assert not stats.record_game(data, "save-1", "scarabeo", names, summary, 11)  # once
    for n in names:
        g = data["players"][stats.player_key(n)]["games"]["scarabeo"]
        assert (g["played"], g["won"], g["lost"], g["drawn"], g["unverified"]) == (1, 0, 0, 0, 1)
        assert g["total"] == 0 and g["best"] is None and g["results"][-1]["result"] == "unverified"
        assert stats.mean(g) == 0.0
    # kept and read back (the lenient and the strict reader)
    again = stats.parse(stats.dumps(data), strict=True)
    assert again["unverified"] == data["unverified"]
    # The keys come: the same game is counted again, with its result, and no longer unverified.
    other.open(keys)
    verified = stats.remote_summary(other.show())
    assert verified is not None and not verified["unverified"]
    assert stats.record_game(again, "save-1", "scarabeo", names, verified, 12)
    assert again["unverified"] == [] and again["counted"].count("save-1") == 1
    result = other.show()["result"]
    for seat, n in enumerate(names):
        g = again["players"][stats.player_key(n)]["games"]["scarabeo"]
        assert (g["played"], g["unverified"]) == (1, 0)
        assert [r["result"] for r in g["results"]] != ["unverified"]
        assert g["won"] == (1 if seat in result["winners"] else 0)
        assert g["total"] == result["scores"][seat]
    assert not stats.record_game(again, "save-1", "scarabeo", names, verified, 13)


def test_a_stopped_game_counts_as_unverified_for_everyone() -> None:
    _, watcher, _ = _fork()
    summary = stats.remote_summary(watcher.show())
    assert summary is not None and summary["unverified"]
    data = stats.empty()
    stats.record_game(data, "s", "thot", watcher.names(), summary, 1)
    assert all(p["games"]["thot"]["won"] == 0 and p["games"]["thot"]["unverified"] == 1
               for p in data["players"].values())


def test_a_game_not_over_or_left_is_not_counted() -> None:
    devices = start("thot", 2, {"short": True})
    assert stats.remote_summary(devices[0].show()) is None
    mover = next(d for d in devices if d.seat == devices[0].game.state.to_move())  # type: ignore[union-attr]
    mover.leave()
    assert stats.remote_summary(mover.show()) is None


def test_statistics_from_before_read_as_before() -> None:
    old = {"version": 1, "players": {"ada": {"name": "Ada", "games": {"thot": {
        "played": 2, "won": 1, "lost": 1, "drawn": 0, "total": 30, "best": 20, "results": []}}}},
        "last_game": None, "counted": ["a", "b"]}
    data = stats.parse(json.dumps(old), strict=True)
    g = data["players"]["ada"]["games"]["thot"]
    assert g["unverified"] == 0 and stats.mean(g) == 15.0 and data["unverified"] == []


def test_the_stop_texts_are_in_the_catalogue() -> None:
    catalogue = _catalogue()
    for key in ("remote.status.stopped", "remote.status.keys", "remote.keys.awaited", "remote.keys.awaited.note",
                "remote.stopped.evidence", "remote.stopped.export", "remote.continue.stopped",
                "stats.result.unverified", "stats.letter.unverified"):
        assert {"it", "en"} <= set(catalogue[key]), key
