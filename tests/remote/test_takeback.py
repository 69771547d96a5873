"""Take-back requests between devices (docs/remote.md "Take-back requests"): a seat asks to take
back its own last move before anyone plays again; every other seat answers in its own signed
message; accepted by all, every device rewinds the move alike (Scarabeo: the play withdrawn as an
upheld challenge withdraws it, its draw back in the bag, reshuffled by the last to accept); a
decline ends the request. Short games: a few moves, a take-back, then a resignation."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from game.remote.scarabeo import ScarabeoRemote
from game.remote.session import Device, Refused
from game.remote.wire import canonical
from game.scarabeo.moves import Play
from game.scarabeo.words import WordList
from tests.remote.protocol_helpers import WORDS, Table, state_of
from tests.remote.test_protocol_challenge import WORDS as HALF_THE_WORDS
from tests.remote.test_protocol_challenge import _refused_play
from tests.remote.test_protocol_scarabeo import check_full_record


def _facts(device: Device) -> tuple[Any, ...]:
    """What every device must agree on: the position as the table sees it, scores, who is due."""
    game = device.game
    assert game is not None
    shown = device.show()
    if isinstance(game, ScarabeoRemote):
        state = game.state
        position: Any = (tuple(state.board), len(state.bag), tuple(len(r) for r in state.racks),
                         len(state.history()))
    else:
        position = game.state.position()  # the shared state (a seat may know a card more)
    return (position, tuple(shown["scores"]), device.next_sender(), device.hashes[-1])


def _agree(table: Table) -> tuple[Any, ...]:
    facts = {_facts(d) for d in table.devices}
    assert len(facts) == 1, facts
    return facts.pop()


def _refused(device: Device, text: str, key: str) -> Refused:
    before = state_of(device)
    with pytest.raises(Refused) as caught:
        device.open(text)
    assert caught.value.key == key, (caught.value.key, caught.value.reason)
    assert caught.value.reason
    assert state_of(device) == before
    return caught.value


def _answerer(table: Table) -> Device:
    """The device whose answer is due (``Table.mover`` knows moves only)."""
    due = table.devices[0].next_sender()
    return next(d for d in table.devices if d.me == due)


def _answer_all(table: Table, accept: bool = True) -> list[str]:
    """Every seat due answers in turn; the links."""
    links = []
    while table.devices[0].request is not None:
        answerer = _answerer(table)
        link = answerer.answer_take_back(accept)
        table.deliver(answerer, link)
        links.append(link)
    return links


def _a_play(table: Table, rng: random.Random) -> Device:
    """The mover plays (a Scarabeo play that draws tiles, when there is one); the mover."""
    mover = table.mover()
    if mover.game_name == "scarabeo":
        for _ in range(50):
            _, text = table.move(rng)
            if isinstance(mover.game.state.parse_move(text), Play):  # type: ignore[union-attr]
                table.deliver(mover, mover.play(text))
                return mover
    table.play(rng)
    return mover


def _end_and_check(table: Table, words: WordList = WORDS) -> None:
    """The mover resigns; every device agrees and verifies (Scarabeo: the full record replays)."""
    mover = table.mover()
    table.deliver(mover, mover.resign())
    shown = [d.show() for d in table.devices]
    assert all(s["over"] and s["verified"] is True for s in shown), [s["failures"] for s in shown]
    assert len({json.dumps(d.export(), sort_keys=True) for d in table.devices}) == 1
    if table.devices[0].game_name == "scarabeo":
        check_full_record(table.devices, words)  # the same on every device, and it replays as played


CASES = [("thot", 2, {}), ("thot", 3, {"short": True}), ("scarabya", 2, {}), ("scarabya", 3, {}),
         ("scarabya", 2, {"variant": "ruins"}), ("scarabeo", 2, {}), ("scarabeo", 3, {})]
# (challenge mode: test_scarabeo_the_play_before_is_pending_again_and_a_challenge_withdraws_it)


@pytest.mark.parametrize(("game", "players", "options"), CASES)
def test_an_accepted_take_back_rewinds_every_device_alike(game: str, players: int,
                                                          options: dict[str, Any]) -> None:
    table = Table(game, players, options, seed=5)
    rng = random.Random(players)
    table.play(rng)
    before = _agree(table)
    mover = _a_play(table, rng)
    assert mover.show()["can_take_back"]
    assert not any(d.show()["can_take_back"] for d in table.devices if d is not mover)
    table.deliver(mover, mover.ask_take_back())
    asked = [d.show()["takeback"] for d in table.devices]
    assert all(a is not None and a["seat"] == mover.seat for a in asked)
    assert [d.show()["takeback"]["your_answer"] for d in table.devices].count(True) == 1
    links = _answer_all(table)
    assert len(links) == players - 1
    assert _agree(table) == (before[0], before[1], mover.me, table.devices[0].hashes[-1])
    assert before[3] != table.devices[0].hashes[-1]  # the chain records the request and answers
    assert all(d.request is None and "taken back" in d.last_text for d in table.devices)
    if game == "scarabeo":
        # The player's rack is as before its play: the tiles it laid, none it drew.
        game_of_mover = mover.game
        assert isinstance(game_of_mover, ScarabeoRemote)
        assert "_" not in mover.show()["rack"]
    # The game goes on: the same seat plays again, then the others, and it ends verified.
    table.play(rng)
    table.play(rng)
    _agree(table)
    _end_and_check(table)


@pytest.mark.parametrize(("game", "players"), [("thot", 2), ("scarabya", 3), ("scarabeo", 2), ("scarabeo", 3)])
def test_a_declined_take_back_leaves_the_move(game: str, players: int) -> None:
    table = Table(game, players, seed=6)
    rng = random.Random(7)
    mover = _a_play(table, rng)
    after = _agree(table)
    table.deliver(mover, mover.ask_take_back())
    answers: list[bool] = []
    while table.devices[0].request is not None:
        answerer = _answerer(table)
        accept = len(answers) < players - 2  # the last one declines
        link = answerer.answer_take_back(accept)
        table.deliver(answerer, link)
        answers.append(accept)
    assert answers[-1] is False
    facts = _agree(table)
    assert facts[:3] == after[:3]
    assert all("declined" in d.last_text for d in table.devices)
    # The request is over: nobody may ask again for that move; the next seat plays.
    assert mover.take_back_refusal() == "last"
    with pytest.raises(Refused):
        mover.ask_take_back()
    table.play(rng)
    _agree(table)  # (the accepted cases end and verify)


def test_a_move_while_a_take_back_is_asked_is_refused() -> None:
    table = Table("scarabeo", 2, seed=8)
    rng = random.Random(9)
    mover = _a_play(table, rng)
    other = next(d for d in table.devices if d is not mover)
    _, move = table.move(rng)
    ask = mover.ask_take_back()
    # The asker cannot play, nor ask twice.
    with pytest.raises(Refused) as caught:
        mover.play(move)
    assert caught.value.key == "takeback_waits"
    with pytest.raises(Refused) as caught:
        mover.ask_take_back()
    assert caught.value.key == "takeback_pending"
    # The other device refuses to play before it answers, and so does any device for a move
    # (its signed message made by hand) sent before the answer.
    waiting = Device.from_json(other.to_json(), other.words)
    waiting.open(ask)
    with pytest.raises(Refused) as caught:
        waiting.play(move)
    assert caught.value.key == "takeback_waits" and mover.names()[mover.seat] in caught.value.reason  # type: ignore[index]
    # A move written before the request arrived (they crossed): the move stands everywhere; the
    # writer refuses the late request, the asker's device withdraws it.
    early = other.play(move)
    _refused(other, ask, "conflict")
    event = mover.open(early)
    assert "withdrawn" in event.text and mover.request is None
    _agree(table)


def test_forged_replayed_and_out_of_turn_requests_and_answers_are_refused() -> None:
    table = Table("thot", 3, {"short": True}, seed=3)
    rng = random.Random(4)
    first = _a_play(table, rng)
    second = _a_play(table, rng)
    third = table.mover()
    # Only the last move's player may ask: the first's move is not the last any more.
    assert first.take_back_refusal() == "last"
    with pytest.raises(Refused) as caught:
        first.ask_take_back()
    assert caught.value.key == "takeback_last"
    forged = first._signed({**first._header("takeback", first.seat), "t": "x"})  # type: ignore[arg-type]
    _refused(third, forged, "takeback_last")
    # A request in another seat's name (signed by the first, claiming the second's seat).
    claimed = first._signed({**second._header("takeback", second.seat),  # type: ignore[arg-type]
                             "t": second._last_move_text()})
    _refused(third, claimed, "altered")
    ask = second.ask_take_back()
    table.deliver(second, ask)
    _refused(third, ask, "played")
    # The answer of a seat that is not due (the first answers after the third), and the asker's own.
    assert _answerer(table) is third
    early = first._signed({**first._header("answer", first.seat), "t": "accept"})  # type: ignore[arg-type]
    _refused(third, early, "turn")
    own = second._signed({**second._header("answer", second.seat), "t": "accept"})  # type: ignore[arg-type]
    _refused(first, own, "turn")
    with pytest.raises(Refused):
        first.answer_take_back(True)
    # An answer that is neither accept nor decline, and an altered one.
    odd = third._signed({**third._header("answer", third.seat), "t": "maybe"})  # type: ignore[arg-type]
    _refused(first, odd, "altered")
    accept = third.answer_take_back(True)
    table.deliver(third, accept)
    _refused(first, accept, "played")
    last = first.answer_take_back(True)
    table.deliver(first, last)
    _refused(third, last, "played")
    # An answer when nothing is asked any more.
    stray = third._signed({**third._header("answer", third.seat), "t": "decline"})  # type: ignore[arg-type]
    assert table.mover() is second
    _refused(first, stray, "turn")
    _agree(table)
    _end_and_check(table)


def test_a_device_stored_mid_request_resumes() -> None:
    table = Table("scarabeo", 3, seed=11)
    rng = random.Random(12)
    table.play(rng)
    before = _agree(table)
    mover = _a_play(table, rng)
    table.deliver(mover, mover.ask_take_back())
    answerer = _answerer(table)
    table.deliver(answerer, answerer.answer_take_back(True))
    # Every device stored and restored mid-request: the same device, the same request.
    restored = []
    for device in table.devices:
        again = Device.from_json(json.loads(json.dumps(device.to_json())), device.words)
        assert canonical(again.to_json()) == canonical(device.to_json())
        assert again.show()["takeback"] == device.show()["takeback"]
        restored.append(again)
    table.devices = restored
    _answer_all(table)
    assert _agree(table)[:2] == before[:2]
    # Stored again after the take-back: the rewind replays.
    table.devices = [Device.from_json(d.to_json(), d.words) for d in table.devices]
    _agree(table)
    table.play(rng)
    _end_and_check(table)


def test_scarabeo_refuses_an_exchange_and_a_decision() -> None:
    table = Table("scarabeo", 2, {"check_mode": "challenge"}, seed=13)
    rng = random.Random(14)
    _a_play(table, rng)
    decider = table.mover()
    table.deliver(decider, decider.play("!accept"))
    assert decider.take_back_refusal() == "dispute"
    with pytest.raises(Refused) as caught:
        decider.ask_take_back()
    assert caught.value.key == "takeback_dispute"


def test_the_command_line_asks_and_answers(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m game remote takeback`` and ``answer accept|decline`` (in this process: fast)."""
    from game.remote.cli import main  # noqa: PLC0415

    def ok(*args: str) -> str:
        code = main(list(args))
        out = capsys.readouterr()
        assert code == 0, out
        return out.out.strip()

    def show(directory: Any) -> dict[str, Any]:
        data = json.loads(ok("show", "--dir", str(directory)))
        assert isinstance(data, dict)
        return data

    anna, bruno = tmp_path / "anna", tmp_path / "bruno"
    invitation = ok("new", "thot", "--name", "Anna", "--dir", str(anna))
    answer = ok("join", invitation, "--name", "Bruno", "--dir", str(bruno))
    ok("open", json.loads(ok("open", answer, "--dir", str(anna)))["send"], "--dir", str(bruno))
    first, second = sorted((anna, bruno), key=lambda d: show(d)["seat"])
    start = show(first)["position"]
    ok("open", ok("play", show(first)["legal"][0], "--dir", str(first)), "--dir", str(second))
    # Bruno cannot ask for Anna's move: exit 1, the reason on stderr, the directory unchanged.
    before = (second / "remote.json").read_bytes()
    assert main(["takeback", "--dir", str(second)]) == 1
    assert "take back" in capsys.readouterr().err
    assert (second / "remote.json").read_bytes() == before
    opened = json.loads(ok("open", ok("takeback", "--dir", str(first)), "--dir", str(second)))
    assert opened["event"] == "takeback" and opened["show"]["takeback"]["your_answer"] is True
    ok("open", ok("answer", "accept", "--dir", str(second)), "--dir", str(first))
    assert show(first)["position"] == show(second)["position"] == start
    assert show(first)["your_turn"] is True


def test_scarabeo_the_play_before_is_pending_again_and_a_challenge_withdraws_it() -> None:
    """Challenge mode: Bruno's play let Anna's stand; taken back, Anna's play waits for his
    challenge again, and his challenge withdraws it (the dictionary refuses a word): two
    reshuffles, the take-back's folded in the full record, which replays; the deal verifies."""
    table = Table("scarabeo", 2, {"check_mode": "challenge"}, words=HALF_THE_WORDS, seed=3)
    rng = random.Random(3)
    first = _a_play(table, rng)
    game = first.game
    assert isinstance(game, ScarabeoRemote) and game.state.pending is not None
    assert _refused_play(game.state.pending)
    second = _a_play(table, rng)
    table.deliver(second, second.ask_take_back())
    _answer_all(table)
    assert _game_pending(second) and _agree(table)
    board = list(second.game.state.board)  # type: ignore[union-attr]
    table.deliver(second, second.play(f"!challenge {second.seat + 1}"))  # type: ignore[operator]
    assert second.game.state.board != board  # type: ignore[union-attr]  # upheld: the play withdrawn
    for device in table.devices:
        game = device.game
        assert isinstance(game, ScarabeoRemote)
        assert len(game.deal.reshuffles) == 2 and game.folded == [0]
    _agree(table)
    table.play(rng)
    _end_and_check(table, HALF_THE_WORDS)


def _game_pending(device: Device) -> bool:
    game = device.game
    assert isinstance(game, ScarabeoRemote)
    return game.state.pending is not None


def test_a_request_crossing_the_next_move_with_three_players() -> None:
    """Anna asks; Carla sees the request, Bruno does not and plays: the move wins on every device
    (Bruno refuses the late request, Anna's and Carla's devices withdraw it)."""
    table = Table("thot", 3, {"short": True}, seed=9)
    rng = random.Random(10)
    anna = _a_play(table, rng)
    bruno = table.mover()
    carla = next(d for d in table.devices if d is not anna and d is not bruno)
    ask = anna.ask_take_back()
    carla.open(ask)
    assert carla.request is not None
    move = bruno.play(str(rng.choice(bruno.show()["legal"])))
    for device in (anna, carla):
        event = device.open(move)
        assert event.kind == "takeback_withdrawn" and device.request is None
    _refused(bruno, ask, "conflict")
    _agree(table)
    assert anna.take_back_refusal() == "last" and bruno.take_back_refusal() is None
