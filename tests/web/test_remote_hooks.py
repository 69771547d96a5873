"""What the page needs from ``game.remote`` (web/pages/remote.py): the state a seat draws on
(``RemoteGame.seat_state``) and the pause points of the group's work (``ristretto.PAUSE``)."""

from __future__ import annotations

from game.remote import ristretto
from game.remote.deal import Deal
from game.remote.session import Device


def test_the_group_work_pauses_between_pieces_and_computes_the_same() -> None:
    k = 0x1234567890ABCDEF
    plain = (ristretto.BASE * k).encode()
    calls: list[int] = []
    ristretto.PAUSE = lambda: calls.append(1)
    try:
        assert (ristretto.BASE * k).encode() == plain
        deals = [Deal.new(bytes(16), 2, seat) for seat in range(2)]
        before = len(calls)
        deals[1].apply_setup(0, deals[0].setup_step())
    finally:
        ristretto.PAUSE = None
    assert len(calls) - before >= 130  # at least one pause point per card masked
    assert deals[1].setup_due() == 1


def test_scarabya_seat_0_plays_on_the_round_card_it_draws_the_others_wait() -> None:
    anna, invitation = Device.invite("scarabya", "Anna", 2)
    bruno, answer = Device.join(invitation, "Bruno")
    start = anna.open(answer).send
    assert start is not None
    bruno.open(start)
    devices = {d.seat: d for d in (anna, bruno)}
    first, second = devices[0], devices[1]
    assert first.game is not None and second.game is not None
    for _ in range(2):  # two rounds: each begins with seat 0 drawing the card on its move
        state = first.game.seat_state(first.secret["game"])
        shown = first.show()
        assert state.position() == shown["position"] and state.tile() == shown["card"]
        assert second.game.seat_state(second.secret["game"]) is second.game.state  # nothing more to know
        link = first.play(state.move_text(state.legal_moves()[0]))
        second.open(link)
        assert second.show()["card"] == state.tile()  # the card, now drawn, is the same on both
        other = second.game.seat_state(second.secret["game"])
        link = second.play(other.move_text(other.legal_moves()[0]))
        first.open(link)
