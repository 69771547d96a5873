"""The 2026 audit's attacks, played: a cheating device that forges its deal step with blinded copies
of another seat's cards, or withholds its shares, is refused at once, and holds nothing that
unmasks a tile of another seat (issue 36). Through the ``Deal`` API, the protocol's devices and the
command line (the victim a ``python -m game remote`` directory, the cheat a device in this process
whose ``Deal.setup_step`` is replaced, as the audit did)."""

from __future__ import annotations

import base64
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from game.remote import shuffle
from game.remote.deal import Deal, DealCheat, DealError
from game.remote.ristretto import BASE, IDENTITY, Element, L, base_mul, random_scalar, scalar_inverse
from game.remote.scarabeo import ScarabeoRemote
from game.remote.session import Device, Refused
from game.remote.wire import unpack
from game.scarabeo.tiles import RACK_SIZE
from tests.remote.protocol_helpers import WORDS
from tests.remote.test_cli import remote, run, show
from tests.remote.test_deal import Table, _raw, _text

RHO = 0x5EED  # the cheat's blinding factor ρ


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def blinded_copies(deck: list[Element], victim: list[int], cheat: list[int]) -> list[Element]:
    """The audit's forgery of a step's output: the cheat's slots hold ρ·C for the victim's cards C,
    and the last card restores the deck's sum (the only thing the old proof checked)."""
    forged = list(deck)
    for mine, theirs in zip(cheat, victim):
        forged[mine] = deck[theirs] * RHO
    total = IDENTITY
    for card in deck:
        total = total + card
    for card in forged[:-1]:
        total = total - card
    forged[-1] = total
    return forged


def forged_setup_step(deal: Deal) -> str:
    """What the audit's modified device sent as the last seat's setup step: the deck it received,
    masked with its key and shuffled, then blinded copies of seat 0's rack (cards 0–7) put in its
    own rack (cards 8·seat …), and with it a real shuffle proof of the honest deck (the best it can
    attach: no proof of the forged one exists)."""
    k = random_scalar(deal.rng)
    key = base_mul(k)
    before = deal._deck_before()
    order = deal._permutation(len(before))
    honest = [before[i] * k for i in order]
    mine = list(range(RACK_SIZE * deal.seat, RACK_SIZE * (deal.seat + 1)))
    victim = list(range(RACK_SIZE)) if deal.seat else list(range(RACK_SIZE, 2 * RACK_SIZE))
    deck = blinded_copies(honest, victim, mine)
    start = bytes(32) if deal.seat < deal.players - 1 else bytes(range(32))
    deal.start_nonce = start
    proof = shuffle.prove(k, order, BASE, key, before, honest, deal._ctx("setup", deal.seat, start), deal.rng)
    deal.scalars = [k]
    deal._install_setup(deal.seat, key, start, deck)
    return _b64(key.encode() + start + b"".join(c.encode() for c in deck) + proof)


def unmasks_a_tile_of(cheat: Deal, victim: int, tiles: set[bytes]) -> bool:
    """Whether any element the cheat's device holds that the victim's mask reached (its setup deck
    and every deck after it, the cards, the shares received), with any of the cheat's own masks
    (and the blinding ρ) removed, is one of ``tiles``."""
    inverses = [scalar_inverse(w * f % L) for w in cheat.scalars for f in (1, RHO)]
    held = [e for deck in cheat.setup_decks[victim:] for e in deck]
    held += [e for card in cheat.cards for e in (card.value, card.bag, *(v for _, v in card.peels))]
    return any((e * inverse).encode() in tiles for e in held for inverse in inverses)


def victims_tiles(victim: Deal) -> set[bytes]:
    return {victim.tile_elements[t.number].encode() for t in victim.own_tiles()}


class TestTheDealApi:
    def test_a_forged_setup_step_with_blinded_copies_is_refused_and_gives_nothing_away(self) -> None:
        table = Table(2, seed=31)
        victim, cheat = table.deals
        table.send(0, [("setup", victim.setup_step())])
        part = forged_setup_step(cheat)
        with pytest.raises(DealCheat) as caught:
            victim.apply_setup(1, part)
        assert caught.value.problem == {"key": "step_proof", "seat": 1, "step": "setup"}
        assert not victim.ready and victim.shares_for() == ""  # nothing dealt: nothing to give
        # The forgery is a real attack: a victim without the shuffle check (the step installed as
        # the old sum proof let it through) reads its rack, then unmasks the copies for the cheat.
        gullible = Deal.from_json(victim.to_json())
        raw = _raw(part)
        deck = [Element.decode(raw[64 + 32 * i:96 + 32 * i]) for i in range(130)]
        gullible._install_setup(1, Element.decode(raw[:32]), raw[32:64], deck)
        gullible.apply_shares(1, cheat.shares_for())
        assert len(gullible.own_tiles()) == RACK_SIZE
        assert not unmasks_a_tile_of(cheat, 0, victims_tiles(gullible))
        cheat.apply_shares(0, gullible.shares_for())
        assert unmasks_a_tile_of(cheat, 0, victims_tiles(gullible))

    def test_a_forged_reshuffle_with_blinded_copies_is_refused(self) -> None:
        """After seat 0's exchange the cheat reshuffles: the exchanger's new cards are the first 8
        of its deck, and it puts blinded copies of them where its own next draws will be."""
        table = Table(2, seed=32)
        table.setup()
        table.turn(0, exchange=True)
        victim, cheat = table.deals
        r = random_scalar(cheat.rng)
        inputs = cheat._reshuffle_inputs()
        order = cheat._permutation(len(inputs))
        honest = [inputs[i] * r for i in order]
        forged = blinded_copies(honest, list(range(RACK_SIZE)), list(range(RACK_SIZE, 2 * RACK_SIZE)))
        before = cheat.keys[-1][1]
        key = before * r
        epoch = len(cheat.keys)
        held = [c.bag for c in cheat._held()]
        proof = shuffle.prove(r, order, before, key, inputs, honest, cheat._ctx("reshuffle", 1, epoch))
        from game.remote import dleq
        held_proof = dleq.prove_batch(r, held, [h * r for h in held], cheat._ctx("reshuffle-held", 1, epoch), g=before)
        part = _b64(key.encode() + b"".join(e.encode() for e in forged + [h * r for h in held]) + proof + held_proof)
        saved = json.dumps(victim.to_json())
        with pytest.raises(DealCheat) as caught:
            victim.apply_reshuffle(1, part)
        assert caught.value.problem == {"key": "step_proof", "seat": 1, "step": "reshuffle"}
        assert json.dumps(victim.to_json()) == saved
        # The honest deck with the same proofs is accepted: only the copies were refused.
        honest_part = _b64(key.encode() + b"".join(e.encode() for e in honest + [h * r for h in held]) + proof
                           + held_proof)
        victim.apply_reshuffle(1, honest_part)

    def test_withheld_partial_or_unowed_shares_are_refused(self) -> None:
        table = Table(2, seed=33)
        victim, cheat = table.deals
        table.send(0, [("setup", victim.setup_step())])
        table.send(1, [("setup", cheat.setup_step())])   # the last step: its writer owes seat 0's rack
        owed = cheat.owed(1)
        assert owed == victim.owed(1) == list(range(RACK_SIZE))
        saved = json.dumps(victim.to_json())
        with pytest.raises(DealCheat, match="withholds") as caught:
            victim.apply_shares(1, "")
        assert caught.value.problem == {"key": "shares_owed", "seat": 1, "missing": owed, "extra": []}
        partial = Deal.from_json(cheat.to_json()).shares_for(owed[:5])  # a copy: the real one owes all
        with pytest.raises(DealCheat, match="not the ones it owes"):
            victim.apply_shares(1, partial)
        assert json.dumps(victim.to_json()) == saved
        # Seat 0's own shares (for seat 1's cards) are not seat 1's to send.
        with pytest.raises(DealError):
            victim.apply_shares(0, "")
        # A share with a wrong element is a cheat too.
        good = cheat.shares_for()
        raw = bytearray(_raw(good))
        raw[2 + 2 * RACK_SIZE + 3] ^= 1
        with pytest.raises(DealError):
            victim.apply_shares(1, _text(bytes(raw)))
        victim.apply_shares(1, good)
        assert len(victim.own_tiles()) == RACK_SIZE and victim.owed(1) == []


class Forging:
    """``Deal.setup_step`` replaced in this process: the deal of seat ``seat`` forges its step
    (every seat's with ``everyone``: the victim is another process); ``forgers`` the deals that did."""

    def __init__(self) -> None:
        self.seat: int | None = None
        self.everyone = False
        self.forgers: list[Deal] = []


@pytest.fixture
def forging_setup(monkeypatch: pytest.MonkeyPatch) -> Iterator[Forging]:
    honest = Deal.setup_step
    forging = Forging()

    def step(self: Deal) -> str:
        if forging.everyone or self.seat == forging.seat:
            forging.forgers.append(self)
            return forged_setup_step(self)
        return honest(self)

    monkeypatch.setattr(Deal, "setup_step", step)
    yield forging


def _deal_of(device: Device) -> Deal:
    game = device.game
    assert isinstance(game, ScarabeoRemote)
    return game.deal


class TestTheProtocol:
    def test_a_forged_setup_link_is_refused_and_the_victim_sends_nothing(self, forging_setup: Forging) -> None:
        inviter, invitation = Device.invite("scarabeo", "Anna", 2, {}, WORDS)
        joiner, answer = Device.join(invitation, "Bruno", WORDS)
        start = inviter.open(answer).send
        assert start is not None and inviter.seat is not None
        forging_setup.seat = 1 - inviter.seat       # the joiner's device cheats, whichever its seat
        queue = [(inviter, start)]
        said: list[str] = []
        while queue:
            sender, text = queue.pop(0)
            other = joiner if sender is inviter else inviter
            try:
                event = other.open(text)
            except Refused as err:
                said.append(f"refused {err.key}: {err.reason}")
                break
            said.append(event.text)
            if event.send:
                queue.append((other, event.send))
        assert len(forging_setup.forgers) == 1
        cheat = forging_setup.forgers[0]
        assert "dealt cards that are not the deck: the game is stopped" in said[-1], said
        stopped = inviter.show()["stopped"]
        assert stopped and stopped["problem"]["key"] == "step_proof", stopped
        with pytest.raises(Refused):
            inviter.play("-")
        victim_deal = _deal_of(inviter)
        assert not victim_deal.ready and victim_deal.shares_for() == ""
        assert not unmasks_a_tile_of(cheat, victim_deal.seat, {e.encode() for e in victim_deal.tile_elements})


class TestTheCommandLine:
    def test_the_audits_forged_setup_step_against_the_command_line(self, tmp_path: Path,
                                                                 forging_setup: Forging) -> None:
        anna = tmp_path / "anna"
        forging_setup.everyone = True
        invitation = _ok("new", "scarabeo", "--name", "Anna", "--dir", str(anna))
        bruno, answer = Device.join(invitation, "Bruno", _words())
        opened = json.loads(_ok("open", answer, "--dir", str(anna)))
        pending = [opened["send"]]
        refusals: list[str] = []
        while pending:
            text = pending.pop(0)
            event = bruno.open(text)
            if not event.send:
                break
            done = remote("open", event.send, "--dir", str(anna))
            if done.returncode != 0:
                refusals.append(done.stderr.strip())
                break
            sent = json.loads(done.stdout).get("send")
            if sent:
                pending.append(sent)
        assert forging_setup.forgers and refusals, "Bruno forged his setup step and Anna refused it"
        assert "dealt cards that are not the deck: the game is stopped" in refusals[0] and "\n" not in refusals[0]
        stopped = show(anna)["stopped"]
        assert stopped["problem"]["key"] == "step_proof" and stopped["evidence"], stopped
        assert "setup step does not verify" in stopped["detail"], stopped
        cheat = forging_setup.forgers[0]
        assert not unmasks_a_tile_of(cheat, 1 - cheat.seat, {e.encode() for e in cheat.tile_elements})

    def test_a_move_resigned_without_its_shares_is_refused_by_the_command_line(self, tmp_path: Path) -> None:
        anna = tmp_path / "anna"
        words = _words()
        invitation = _ok("new", "scarabeo", "--name", "Anna", "--dir", str(anna))
        bruno, answer = Device.join(invitation, "Bruno", words)
        pending = [json.loads(_ok("open", answer, "--dir", str(anna)))["send"]]
        while pending:
            event = bruno.open(pending.pop(0))
            if event.send:
                sent = json.loads(_ok("open", event.send, "--dir", str(anna))).get("send")
                if sent:
                    pending.append(sent)
        game = bruno.game
        assert isinstance(game, ScarabeoRemote) and game.engine is not None
        if game.next_sender() == bruno.seat:  # Bruno starts: he passes, and Anna plays
            _ok("open", bruno.play("-"), "--dir", str(anna))
        # Anna plays the engine's best word, as a person at the command line would, and draws.
        best = run("scarabeo", "best", show(anna)["position"], "--top", "1")
        assert best.returncode == 0, best.stderr
        bruno.open(_ok("play", json.loads(best.stdout)[0]["move"], "--dir", str(anna)))
        link = bruno.play("-")
        message = unpack(link)["m"]
        assert "sh" in message.get("x", {}), "Bruno's pass carries the shares he owes for Anna's draw"
        stripped = dict(message)
        stripped["x"] = {k: v for k, v in message["x"].items() if k != "sh"}
        if not stripped["x"]:
            del stripped["x"]
        forged = bruno._signed(stripped)
        done = remote("open", forged, "--dir", str(anna))
        assert done.returncode == 1, done.stdout
        assert "Bruno's device withheld shares it owes" in done.stderr and "the game is stopped" in done.stderr
        stopped = show(anna)["stopped"]
        assert stopped["problem"]["key"] == "shares_owed" and stopped["evidence"] == [forged], stopped
        # Signed by Bruno, the message proves the cheat: the game stays stopped, the real one too is refused.
        again = remote("open", link, "--dir", str(anna))
        assert again.returncode == 1 and "stopped" in again.stderr


def _words() -> Any:
    import lexicon
    return lexicon.load()


def _ok(*args: str) -> str:
    done = remote(*args)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()
