"""``python -m game remote …``: the contract another tool relies on (names, exit codes, JSON fields),
through subprocesses, each device in its own directory."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: The commands' environment: bytecode compiled once for all of them, in a directory of the test
#: run's own (PYTHONDONTWRITEBYTECODE would have every command compile every module again).
ENV = dict(os.environ)


@pytest.fixture(scope="module", autouse=True)
def _bytecode_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    ENV.pop("PYTHONDONTWRITEBYTECODE", None)
    ENV["PYTHONPYCACHEPREFIX"] = str(tmp_path_factory.mktemp("pycache"))


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "game", *args], cwd=ROOT, capture_output=True, text=True,
                          input=stdin, timeout=120, env=ENV)


def remote(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return run("remote", *args, stdin=stdin)


def ok(*args: str) -> str:
    done = remote(*args)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def show(directory: Path) -> dict[str, Any]:
    data = json.loads(ok("show", "--dir", str(directory)))
    assert isinstance(data, dict)
    return data


def snapshot(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in directory.iterdir()}


def test_a_two_player_game_by_the_command_line(tmp_path: Path) -> None:
    anna, bruno = tmp_path / "anna", tmp_path / "bruno"
    invitation = ok("new", "thot", "--name", "Anna", "--dir", str(anna), "--options", '{"short": true}')
    assert invitation.startswith("r1.") and "\n" not in invitation
    # The whole link works as well as its payload.
    answer = ok("join", f"https://scarab.example/#/remote/{invitation}", "--name", "Bruno", "--dir", str(bruno))
    assert answer.startswith("r1.")
    opened = json.loads(ok("open", answer, "--dir", str(anna)))
    assert opened["event"] == "start" and opened["send"].startswith("r1.")
    assert json.loads(ok("open", opened["send"], "--dir", str(bruno)))["event"] == "start"
    devices = {show(d)["seat"]: d for d in (anna, bruno)}
    view = show(devices[0])
    for key in ("game", "seat", "to_move", "scores", "over", "position", "rack", "verified"):
        assert key in view
    assert view["game"] == "thot" and view["to_move"] == 0 and view["over"] is False
    assert view["rack"] is None and view["verified"] is None and view["scores"] == [0, 0]
    # The position is the engine's notation: the engine's own command line reads it.
    best = run("thot", "best", view["position"], "--level", "1")
    assert best.returncode == 0, best.stderr
    move = json.loads(best.stdout)["move"]
    message = ok("play", move, "--dir", str(devices[0]))
    before = snapshot(devices[1])
    assert json.loads(ok("open", message, "--dir", str(devices[1])))["event"] == "move"
    assert show(devices[0])["position"] == show(devices[1])["position"]
    assert snapshot(devices[1]) != before
    # Refusals: exit 1, one line on stderr, the directory untouched.
    before = snapshot(devices[1])
    for text, reason in ((message, "already played"), (message[:-5], ""), (message[:40] + "A" + message[41:], "")):
        done = remote("open", text, "--dir", str(devices[1]))
        assert done.returncode == 1, (done.returncode, done.stderr)
        assert reason in done.stderr and done.stderr.count("\n") == 1
        assert snapshot(devices[1]) == before
    # Not a message at all is refused the same way: exit 1, its one-line reason, nothing changed.
    for text in ("hello", "garbage", "https://scarab.example/#/remote/", "r1.", "r1.!!!", "r9.abcd"):
        done = remote("open", text, "--dir", str(devices[1]))
        assert done.returncode == 1, (text, done.returncode, done.stderr)
        assert done.stderr.startswith("remote: ") and done.stderr.count("\n") == 1, done.stderr
        assert json.loads(done.stdout)["message"] == done.stderr[len("remote: "):].strip()
        assert snapshot(devices[1]) == before
    assert "not a Scarab remote-play link" in remote("open", "garbage", "--dir", str(devices[1])).stderr
    # Only a usage error (an argument missing) exits 2.
    assert remote("open", message).returncode == 2
    assert remote("open", "--dir", str(devices[1])).returncode == 2
    # Reading the message from standard input; resend gives the same link again.
    assert ok("resend", "--dir", str(devices[0])) == message
    done = remote("open", "-", "--dir", str(devices[1]), stdin=message + "\n")
    assert done.returncode == 1 and "already played" in done.stderr
    # Resign ends it on both devices; the record exports the same on both.
    resignation = ok("resign", "--dir", str(devices[1]))
    ok("open", resignation, "--dir", str(devices[0]))
    ends = [show(d) for d in (anna, bruno)]
    assert all(v["over"] and v["verified"] is True for v in ends)
    assert ends[0]["result"] == ends[1]["result"] and ends[0]["result"]["reason"] == "resigned"
    records = [json.loads(ok("export", "--dir", str(d))) for d in (anna, bruno)]
    assert records[0] == records[1] and records[0]["format"] == "scarab-record"
    # DIR holds this device's state only, readable by its owner only.
    for directory in (anna, bruno):
        files = list(directory.iterdir())
        assert [f.name for f in files] == ["remote.json"]
        assert stat.S_IMODE(files[0].stat().st_mode) == 0o600


def test_scarabya_move_with_a_leading_minus_and_the_best_command(tmp_path: Path) -> None:
    anna, bruno = tmp_path / "a", tmp_path / "b"
    invitation = ok("new", "scarabya", "--name", "Anna", "--dir", str(anna), "--players", "2")
    answer = ok("join", invitation, "--name", "Bruno", "--dir", str(bruno))
    start = json.loads(ok("open", answer, "--dir", str(anna)))["send"]
    ok("open", start, "--dir", str(bruno))
    first = anna if show(anna)["seat"] == 0 else bruno
    view = show(first)
    assert view["card"] and view["position"].startswith("classic 2 ")
    best = run("scarabya", "best", view["position"], "--level", "1")
    assert best.returncode == 0, best.stderr
    # "-" (discard) is a move, not an option: refused by the rules here, not by the parser.
    done = remote("play", "-", "--dir", str(first))
    assert done.returncode == 1 and "cannot be discarded" in done.stderr


def test_malformed_input_exits_2(tmp_path: Path) -> None:
    d = tmp_path / "d"
    cases = [
        ("new", "chess", "--name", "A", "--dir", str(d)),
        ("new", "thot", "--name", "A", "--dir", str(d), "--options", "[1]"),
        ("new", "thot", "--name", "A", "--dir", str(d), "--options", "{"),
        ("new", "thot", "--name", "", "--dir", str(d)),
        ("new", "thot", "--name", "A", "--dir", str(d), "--players", "9"),
        ("show", "--dir", str(tmp_path / "nowhere")),
        ("frobnicate",),
        ("join", "--name", "B", "--dir", str(tmp_path / "e")),
    ]
    for args in cases:
        done = remote(*args)
        assert done.returncode == 2, (args, done.returncode, done.stderr)
        assert "Traceback" not in done.stderr and done.stderr.strip()
    assert not (d / "remote.json").exists()
    # A directory that already holds a game is not overwritten.
    ok("new", "thot", "--name", "A", "--dir", str(d))
    before = snapshot(d)
    assert remote("new", "thot", "--name", "A", "--dir", str(d)).returncode == 2
    assert snapshot(d) == before
    # A damaged state file is refused with a reason, never a traceback.
    (d / "remote.json").write_text('{"format": "scarab-remote-device", "version": 1}')
    done = remote("show", "--dir", str(d))
    assert done.returncode == 2 and "damaged" in done.stderr
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "f"
        fifo.mkdir()
        os.mkfifo(fifo / "remote.json")
        done = remote("show", "--dir", str(fifo))
        assert done.returncode == 2 and "named pipe" in done.stderr


def test_open_and_join_refuse_whatever_they_cannot_apply_with_exit_1(tmp_path: Path) -> None:
    """The contract: ``open``/``join`` apply a message (0) or refuse it with one line (1), their
    directory unchanged; not a link, no game in DIR, a bad name are refusals like any other."""
    invitation = ok("new", "thot", "--name", "Anna", "--dir", str(tmp_path / "anna"))
    cases = [
        ("open", "r1.abc", "--dir", str(tmp_path / "nowhere")),
        ("open", invitation, "--dir", str(tmp_path / "nowhere")),
        ("join", "garbage", "--name", "B", "--dir", str(tmp_path / "e")),
        ("join", "r1.", "--name", "B", "--dir", str(tmp_path / "e")),
        ("join", invitation, "--name", "", "--dir", str(tmp_path / "e")),
        ("join", invitation, "--name", "B", "--dir", str(tmp_path / "anna")),  # DIR holds a game
    ]
    before = snapshot(tmp_path / "anna")
    for args in cases:
        done = remote(*args)
        assert done.returncode == 1, (args, done.returncode, done.stderr)
        assert done.stderr.startswith("remote: ") and done.stderr.count("\n") == 1, (args, done.stderr)
        assert "Traceback" not in done.stderr
    # A refused join makes no directory; nothing was written anywhere.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["anna"]
    assert snapshot(tmp_path / "anna") == before


def _forward(sent: str | None, dirs: dict[str, Path], sender: str) -> None:
    """Pass a link to the other device, and whatever it sends back on its own, until none."""
    while sent:
        receiver = next(name for name in dirs if name != sender)
        opened = json.loads(ok("open", sent, "--dir", str(dirs[receiver])))
        sent, sender = opened["send"], receiver


def test_scarabeo_by_the_command_line_to_a_verified_end(tmp_path: Path) -> None:
    dirs = {"anna": tmp_path / "anna", "bruno": tmp_path / "bruno"}
    invitation = ok("new", "scarabeo", "--name", "Anna", "--dir", str(dirs["anna"]))
    answer = ok("join", invitation, "--name", "Bruno", "--dir", str(dirs["bruno"]))
    opened = json.loads(ok("open", answer, "--dir", str(dirs["anna"])))
    _forward(opened["send"], dirs, "anna")  # the start, then each device's deal steps on its own
    views = {name: show(d) for name, d in dirs.items()}
    assert all(not v["dealing"] and v["verified"] is None and v["over"] is False for v in views.values())
    for name, view in views.items():
        other = views["bruno" if name == "anna" else "anna"]
        assert len(view["rack"]) == 8 and "_" not in view["rack"]
        assert view["position"].count("________") == 1  # the other rack, hidden
        assert view["rack"] not in other["position"].split()[1].split("/")[1:]
    mover = next(name for name, v in views.items() if v["your_turn"])
    best = run("scarabeo", "best", views[mover]["position"], "--top", "1")
    assert best.returncode == 0, best.stderr
    # Four passes in a row end the game; every key follows on its own, and both verify the deal.
    for _ in range(4):
        link = ok("play", "-", "--dir", str(dirs[mover]))
        _forward(link, dirs, mover)
        mover = "bruno" if mover == "anna" else "anna"
    ends = {name: show(d) for name, d in dirs.items()}
    assert all(v["over"] and v["verified"] is True and v["failures"] == [] for v in ends.values()), ends
    assert ends["anna"]["scores"] == ends["bruno"]["scores"]
    assert ends["anna"]["result"] == ends["bruno"]["result"]
    records = [json.loads(ok("export", "--dir", str(d))) for d in dirs.values()]
    assert records[0] == records[1] and records[0]["format"] == "scarab-public-record"
    full = [json.loads(ok("export", "--full", "--dir", str(d))) for d in dirs.values()]
    assert full[0] == full[1] and len(full[0]["moves"]) == 4 and full[0]["options"]["bags"]
    assert remote("play", "-", "--dir", str(dirs["anna"])).returncode == 1
