"""Scarabeo's bag without a dealer: mental poker with commutative masks in ristretto255.

Every tile i of ``tiles.full_set()`` (130) is a distinct public element Mᵢ, derived from the game id
and i (so two E tiles never look alike). Each seat s holds a secret scalar per *epoch*, wₛ; a card
is a tile multiplied by every seat's scalar, μ·Mᵢ with μ = Πₛ wₛ. Multiplication commutes, so the
masks come off one at a time in any order, and without the last one nobody sees the tile.

Message flow (one message at a time, in turn order; every method below is called on *every*
device in the same order, the writer included, so that all states agree):

1. **Setup** (seats 0, 1, …, n−1 in order): ``setup_step()`` masks every card of the deck it
   received with the seat's key k and shuffles it (``secrets``); it carries the public key K = k·G,
   a start value (a commitment for seats before the last; the last seat's value itself) and a
   verifiable shuffle (``game.remote.shuffle``): a proof that its deck is the deck it received,
   permuted, every card multiplied by the k of K, bound to the game id, seat and start value. Every
   other device checks it in ``apply_setup(seat, part)`` before anything of it is kept, so before
   it gives any share of a card it dealt: a replaced, duplicated or blinded card (the 2026 audit's
   copies ρ·k·C of another seat's cards) is a :class:`DealCheat` at once. A key equal to another
   seat's key, or refused by the device (one seen in another game, passed as ``refused_keys``),
   is one too. When the last step is in, the racks are dealt at once: seat 0 gets cards 0–7 of
   the final deck, seat 1 cards 8–15, and so on (nobody chooses).
2. **Unmasking**: a card drawn by seat d needs every *other* seat's share. Any message a seat
   writes carries ``shares_for()``: for every card it has not yet unmasked for its drawer, the card
   with its own mask removed (w⁻¹·C), with one batched Chaum–Pedersen proof (log_G Wₛ = log_share C)
   per epoch. ``apply_shares(seat, part)`` verifies before anything changes (a wrong share is
   a :class:`DealCheat`), and the part must hold exactly the shares ``owed(seat)`` lists (every
   device computes the same list): withheld or unowed shares are a cheat too. When the last share
   of one of this device's cards arrives it removes its own mask and reads the tile;
   ``own_tiles()`` lists them. Nobody else can.
3. **Drawing**: after a move, every device calls ``assign(seat, count)``: the next cards of the
   deck go to that seat (deterministic positions, so nobody chooses their card).
4. **Laying tiles**: ``prove_tiles(cards)`` proves which tile each card is (its residual R = w·Mₜ,
   log_G W = log_Mₜ R); ``verify_tiles(seat, part)`` checks it on the others and returns the tiles
   (a tile the seat did not draw cannot be proven). ``cards_for(tiles)`` picks this seat's cards.
5. **Exchange**: ``return_cards(seat, cards)`` (the exchanged tiles stay hidden). The *next*
   seat to write (never the exchanger) sends ``reshuffle_step()``: a fresh scalar r on the undrawn
   deck and the returned cards, all shuffled; its epoch key becomes W′ = r·W; the bag values of
   the cards still held in racks are lifted by r too, so that a later exchange returns them
   masked like the rest. Its proofs: a verifiable shuffle of the bag with base W and key W′ (the
   new deck is the bag and the returned cards, permuted, each multiplied by r), and one batched
   proof that each rack card was lifted by the same r. ``apply_reshuffle(seat, part)`` checks them
   on the others. Then the exchanger is dealt as many cards as it returned (automatically).
6. **Who starts**: seats 0…n−2 send ``start_reveal()`` with their first message after the setup;
   ``start_seed()`` is then a 64-bit seed nobody chose alone (commit, then reveal), for the
   engine's own draw for the start (``game.scarabeo.game`` draws with ``Rng(seed)``).
7. **End**: every seat sends ``reveal_keys()``; ``verify(reveals)`` checks every setup and
   reshuffle step, every card, share and proven tile, that the deal is exactly the tile set and
   that each exchange was legal, and returns a :class:`Verdict` (``verified`` or the failures, and
   the racks left at the end, which are then public and proven).

Parts are base64url text (no padding) of concatenated fixed-size fields (32-byte elements and
scalars, 64-byte proofs, shuffle proofs of ``shuffle.proof_bytes(n)``, big-endian counters);
anything malformed raises :class:`DealError` with a one-line reason and leaves the state
unchanged; a part that proves its writer cheated raises :class:`DealCheat` (the game stops). ``to_json()`` / ``Deal.from_json()`` save a
device's state, *including its secret keys*: it never leaves the device.

Methods that produce a part (``setup_step``, ``shares_for``, ``prove_tiles``,
``reshuffle_step``) apply it to this device's own state too; the writer does not apply its own
part again.

API (summary)::

    Deal.new(game_id: bytes, players: int, seat: int, rng=None, refused_keys=()) -> Deal
    deal.setup_due() -> int | None            deal.setup_step() -> str
    deal.apply_setup(seat, part)              deal.ready -> bool
    deal.start_reveal() -> str                deal.apply_start_reveal(seat, part)
    deal.start_seed() -> int | None
    deal.assign(seat, count) -> list[int]     deal.bag_count() -> int
    deal.due() -> list[int]                   deal.shares_for(cards=None) -> str
    deal.owed(seat) -> list[int]
    deal.apply_shares(seat, part) -> list[int]
    deal.own_tiles() -> list[OwnTile]         deal.waiting() -> list[int]
    deal.cards_for(tiles) -> list[int]        deal.prove_tiles(cards) -> str
    deal.verify_tiles(seat, part) -> list[str]
    deal.return_cards(seat, cards)            deal.reshuffle_due() -> int | None
    deal.reshuffle_step() -> str              deal.apply_reshuffle(seat, part)
    deal.reveal_keys() -> str                 deal.verify(reveals: Mapping[int, str]) -> Verdict
    deal.public_keys() -> list[bytes]         deal.broken -> str | None (deal.broken_problem)
    deal.to_json() -> dict                    Deal.from_json(data, rng=None) -> Deal
"""

from __future__ import annotations

import base64
import functools
import hashlib
import re
import secrets
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, NamedTuple, Sequence

from game.scarabeo.tiles import MAX_PLAYERS, MIN_PLAYERS, RACK_SIZE, SCARAB, VOWELS, full_set

from . import dleq, shuffle
from .ristretto import (
    BASE, IDENTITY, Element, EncodingError, L, RandomSource, base_mul, multi_mul, random_scalar, scalar_decode,
    scalar_encode, scalar_inverse,
)

VERSION = 1
TILES: tuple[str, ...] = tuple(full_set())
_ELEMENT = 32
_PROOF = dleq.PROOF_BYTES
_B64 = re.compile(r"[A-Za-z0-9_-]*")


class DealError(ValueError):
    """A part or a saved state that cannot be used; ``str()`` is one line saying why."""


class DealCheat(DealError):
    """A part that proves its writer's device broke the deal: a shuffle, share, tile or key proof
    that fails, or shares other than the ones it owes. Unlike a malformed or out-of-turn part
    (a link damaged on its way, opened twice), this cannot happen to an honest device: the game
    stops on every device that sees it (``seat`` the writer, ``problem`` the failure as data)."""

    def __init__(self, message: str, seat: int, found: dict[str, Any]) -> None:
        super().__init__(message)
        self.seat = seat
        self.problem = found


class OwnTile(NamedTuple):
    card: int
    number: int     # the tile's place in ``tiles.full_set()``
    tile: str


#: A verification failure as data: ``{"key": kind, **params}`` (seats as numbers, tiles as
#: letters), so a page can say it in its own words; the English line is ``Verdict.failures``.
#: Keys: ``unset``; ``keys_missing``, ``keys_unreadable``, ``key_mismatch`` (seat, epoch);
#: ``setup_step`` (seat, n, total); ``setup``; ``reshuffle`` (seat, round, n, total);
#: ``reshuffle_racks`` (seat, round, cards); ``drawn_not_tile`` (seat, card); ``shown_wrong``
#: (seat, card, shown, tile); ``shares_wrong`` (seat, cards); ``bag_not_tile`` (card);
#: ``dealt_twice`` (tiles); ``missing`` (tiles); ``exchange`` (seat, tiles); ``cheated_card``
#: (card); ``cheated_tile`` (tile); from the game, ``rack_end`` (seat, detail) and ``reason`` (detail).
#: Found at once, as a part comes (``DealCheat.problem``): ``step_proof`` (seat, step: "setup" or
#: "reshuffle"; a shuffle that is not the deck it received, permuted and masked), ``step_key``
#: (seat, step; a key that is another's or was used before), ``share_proof`` (seat), ``tile_proof``
#: (seat), ``shares_owed`` (seat, missing, extra: card numbers; shares withheld or not owed).
FAILURE_KEYS = ("unset", "keys_missing", "keys_unreadable", "key_mismatch", "setup_step", "setup", "reshuffle",
                "reshuffle_racks", "drawn_not_tile", "shown_wrong", "shares_wrong", "bag_not_tile", "dealt_twice",
                "missing", "exchange", "cheated_card", "cheated_tile", "rack_end", "reason",
                "step_proof", "step_key", "share_proof", "tile_proof", "shares_owed")


def problem(key: str, **params: Any) -> dict[str, Any]:
    assert key in FAILURE_KEYS, key
    return {"key": key, **params}


@dataclass
class Verdict:
    """The end of the deal: ``verified`` and, if not, exactly what failed (``failures`` in
    English, one line each; ``problems`` the same as data, :data:`FAILURE_KEYS`)."""

    verified: bool
    failures: list[str]
    racks: dict[int, list[str]] = field(default_factory=dict)
    bag: list[str] = field(default_factory=list)
    exchanges: list[tuple[int, list[str]]] = field(default_factory=list)
    #: Every card's tile number, unmasked (cards that are no tile are missing).
    tiles: dict[int, int] = field(default_factory=dict)
    problems: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class _Card:
    id: int
    epoch: int
    value: Element                      # as it left the deck; the shares start from it
    bag: Element                        # what goes back to the bag if returned (lifted by reshuffles)
    owner: int | None = None
    peels: list[tuple[int, Element]] = field(default_factory=list)
    tile: int | None = None             # read by its owner, on the owner's device only
    shown: int | None = None            # proven to everyone
    returned: bool = False


@dataclass
class _Reshuffle:
    seat: int
    epoch: int                          # the epoch it creates
    exchanger: int
    returned: list[int]                 # the returned cards' ids
    inputs: list[Element]               # the undrawn deck, then the returned cards
    outputs: list[int]                  # the new deck's card ids
    held: list[tuple[int, Element, Element]]  # (card, bag value before, after)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: object, what: str) -> bytes:
    if not isinstance(text, str) or not _B64.fullmatch(text) or len(text) % 4 == 1:
        raise DealError(f"{what}: not base64url text")
    data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    if _b64(data) != text:
        raise DealError(f"{what}: not canonical base64url")
    return data


class _Reader:
    """Strict sequential parsing of a part's bytes."""

    def __init__(self, data: bytes, what: str) -> None:
        self.data, self.pos, self.what = data, 0, what

    def take(self, n: int) -> bytes:
        if self.pos + n > len(self.data):
            raise DealError(f"{self.what}: cut short ({len(self.data)} bytes)")
        out = self.data[self.pos:self.pos + n]
        self.pos += n
        return out

    def u16(self) -> int:
        return int.from_bytes(self.take(2), "big")

    def element(self) -> Element:
        try:
            return Element.decode(self.take(_ELEMENT))
        except EncodingError:
            raise DealError(f"{self.what}: not a valid group element at byte {self.pos - 32}") from None

    def elements(self, n: int) -> list[Element]:
        return [self.element() for _ in range(n)]

    def scalar(self) -> int:
        try:
            return scalar_decode(self.take(32))
        except EncodingError:
            raise DealError(f"{self.what}: not a canonical scalar at byte {self.pos - 32}") from None

    def end(self) -> None:
        if self.pos != len(self.data):
            raise DealError(f"{self.what}: {len(self.data) - self.pos} bytes too many")


def _shares_part(part: str) -> tuple[_Reader, list[int], list[Element]]:
    """A shares part's cards and elements, its reader left at the proofs."""
    reader = _Reader(_unb64(part, "shares"), "shares")
    count = reader.u16()
    ids = [reader.u16() for _ in range(count)]
    outs = reader.elements(count)
    if count == 0 or len(set(ids)) != count:
        raise DealError("shares: empty or a card twice")
    return reader, ids, outs


def tile_element(game_id: bytes, index: int) -> Element:
    """Mᵢ: the public element of tile ``index`` in this game (distinct for every tile)."""
    digest = hashlib.sha512(dleq.context(b"scarab/remote/tile/v1", game_id, index)).digest()
    return Element.derive(digest)


@functools.lru_cache(maxsize=4)
def _tiles_of(game_id: bytes) -> tuple[tuple[Element, ...], dict[bytes, int]]:
    """The tile elements of a game and the tile of each encoding (a device's deal, its saved copy
    and the other devices of a test derive them once)."""
    elements = tuple(tile_element(game_id, i) for i in range(len(TILES)))
    return elements, {e.encode(): i for i, e in enumerate(elements)}


def _seat_word(seat: int) -> str:
    return f"seat {seat}"


class Deal:
    """One device's view of the deal: public cards and proofs, and its own secret keys."""

    def __init__(self, game_id: bytes, players: int, seat: int, rng: RandomSource | None = None,
                 refused_keys: Iterable[bytes] = ()) -> None:
        if not isinstance(game_id, bytes) or not 1 <= len(game_id) <= 64:
            raise DealError("the game id must be 1 to 64 bytes")
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise DealError(f"a deal has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
        if not 0 <= seat < players:
            raise DealError(f"seat {seat} is not one of 0-{players - 1}")
        self.game_id, self.players, self.seat, self.rng = game_id, players, seat, rng
        self.refused: set[bytes] = set(refused_keys)
        self._tiles: list[Element] | None = None  # the tile elements, derived when first needed
        self.scalars: list[int] = []            # this seat's secret scalar per epoch
        self.keys: list[list[Element]] = []     # epoch -> seat -> public key
        self.setup_decks: list[list[Element]] = []
        self.start_fields: list[bytes] = []     # per seat: commitment (or the last seat's value)
        self.start_values: dict[int, bytes] = {}
        self.start_nonce = b""
        self.cards: list[_Card] = []
        self.deck: list[int] = []               # undrawn card ids, next to draw first
        self.reshuffles: list[_Reshuffle] = []
        self.exchanges: list[tuple[int, list[int]]] = []
        #: Which of ``exchanges`` are a withdrawn play's drawn cards going back (no new draw, no
        #: vowels-or-consonants rule).
        self.takebacks: set[int] = set()
        #: The cards the last tile proof showed (``prove_tiles``, ``verify_tiles``), in its order.
        self.last_shown: list[int] = []
        self.pending_return: tuple[int, list[int]] | None = None
        #: The first cheat this device found while playing (in English, and as data).
        self.broken: str | None = None
        self.broken_problem: dict[str, Any] | None = None

    @property
    def tile_elements(self) -> list[Element]:
        """Every tile's public element Mᵢ in this game (derived on first use: a page that only
        shows the game never needs them)."""
        if self._tiles is None:
            self._tiles = list(_tiles_of(self.game_id)[0])
        return self._tiles

    @tile_elements.setter
    def tile_elements(self, elements: list[Element]) -> None:
        self._tiles = elements

    @property
    def _tile_index(self) -> dict[bytes, int]:
        """The tile number of each tile element's encoding (read only)."""
        return _tiles_of(self.game_id)[1]

    @classmethod
    def new(cls, game_id: bytes, players: int, seat: int, rng: RandomSource | None = None,
            refused_keys: Iterable[bytes] = ()) -> Deal:
        """A fresh deal for ``seat``; ``rng`` only for reproducible tests (default: ``secrets``)."""
        return cls(game_id, players, seat, rng, refused_keys)

    # --- randomness -------------------------------------------------------------------------

    def _below(self, n: int) -> int:
        return secrets.randbelow(n) if self.rng is None else self.rng.randrange(0, n)

    def _permutation(self, n: int) -> list[int]:
        """A uniform permutation (Fisher–Yates): position j of the result is item perm[j]."""
        perm = list(range(n))
        for i in range(n - 1, 0, -1):
            j = self._below(i + 1)
            perm[i], perm[j] = perm[j], perm[i]
        return perm

    def _ctx(self, purpose: str, seat: int, *more: bytes | str | int) -> bytes:
        return dleq.context(b"scarab/remote/deal/v1", self.game_id, self.players, purpose, seat, *more)

    # --- setup ------------------------------------------------------------------------------

    @property
    def ready(self) -> bool:
        """Whether the setup is complete (the final deck exists)."""
        return len(self.setup_decks) == self.players

    def setup_due(self) -> int | None:
        return None if self.ready else len(self.setup_decks)

    def _deck_before(self) -> list[Element]:
        return self.setup_decks[-1] if self.setup_decks else self.tile_elements

    def setup_step(self) -> str:
        """This seat's setup part: key, proof, start value and the masked, shuffled deck."""
        if self.setup_due() != self.seat:
            raise DealError(f"it is not {_seat_word(self.seat)}'s setup step")
        k = random_scalar(self.rng)
        key = base_mul(k)
        while key.encode() in self.refused or any(key == other for other in self._setup_keys()):
            k = random_scalar(self.rng)
            key = base_mul(k)
        self.start_nonce = bytes(self._below(256) for _ in range(32))
        start = self.start_nonce if self.seat == self.players - 1 else self._commit(self.seat, self.start_nonce)
        before = self._deck_before()
        masked = [card * k for card in before]
        order = self._permutation(len(masked))
        deck = [masked[i] for i in order]
        proof = shuffle.prove(k, order, BASE, key, before, deck, self._ctx("setup", self.seat, start), self.rng)
        data = key.encode() + start + b"".join(card.encode() for card in deck) + proof
        self.scalars = [k]
        self._install_setup(self.seat, key, start, deck)
        return _b64(data)

    def _setup_keys(self) -> list[Element]:
        return self.keys[0] if self.keys else []

    def _commit(self, seat: int, nonce: bytes) -> bytes:
        return hashlib.sha512(self._ctx("start", seat, nonce)).digest()[:32]

    def apply_setup(self, seat: int, part: str) -> None:
        """Another seat's setup part: checked (key proof, distinct key, valid distinct cards)."""
        if seat == self.seat:
            raise DealError("a device does not apply its own setup step")
        if self.setup_due() != seat:
            raise DealError(f"the setup step of {_seat_word(seat)} is out of turn")
        reader = _Reader(_unb64(part, "setup"), "setup")
        key = reader.element()
        start = reader.take(32)
        deck = reader.elements(len(TILES))
        proof = reader.take(shuffle.proof_bytes(len(TILES)))
        reader.end()
        if key.is_identity() or key.encode() in self.refused or any(key == other for other in self._setup_keys()):
            raise DealCheat(f"{_seat_word(seat)}'s key is the identity, another seat's key or one used in another game",
                            seat, problem("step_key", seat=seat, step="setup"))
        if len({card.encode() for card in deck}) != len(deck):
            raise DealCheat(f"{_seat_word(seat)}'s deck has a card twice", seat,
                            problem("step_proof", seat=seat, step="setup"))
        if not shuffle.verify(BASE, key, self._deck_before(), deck, proof, self._ctx("setup", seat, start)):
            raise DealCheat(f"{_seat_word(seat)}'s setup step does not verify: not the deck it received,"
                            " shuffled and masked with its key", seat, problem("step_proof", seat=seat, step="setup"))
        self._install_setup(seat, key, start, deck)

    def _install_setup(self, seat: int, key: Element, start: bytes, deck: list[Element]) -> None:
        if not self.keys:
            self.keys = [[]]
        self.keys[0].append(key)
        self.start_fields.append(start)
        if seat == self.players - 1:
            self.start_values[seat] = start
        self.setup_decks.append(deck)
        if self.ready:
            self.cards = [_Card(i, 0, card, card) for i, card in enumerate(deck)]
            self.deck = list(range(len(deck)))
            for s in range(self.players):
                self.assign(s, RACK_SIZE)

    # --- who starts -------------------------------------------------------------------------

    def start_reveal(self) -> str:
        """This seat's start value (seats before the last; the last sent it with its setup)."""
        if not self.ready or self.seat == self.players - 1:
            raise DealError("no start value to reveal now")
        self.start_values[self.seat] = self.start_nonce
        return _b64(self.start_nonce)

    def apply_start_reveal(self, seat: int, part: str) -> None:
        if not self.ready or not 0 <= seat < self.players - 1 or seat == self.seat:
            raise DealError(f"no start value expected from {_seat_word(seat)}")
        reader = _Reader(_unb64(part, "start value"), "start value")
        nonce = reader.take(32)
        reader.end()
        if self._commit(seat, nonce) != self.start_fields[seat]:
            raise DealError(f"{_seat_word(seat)}'s start value is not the one it committed to")
        self.start_values[seat] = nonce

    def start_seed(self) -> int | None:
        """The seed of the draw for who starts, once every seat's value is known."""
        if len(self.start_values) < self.players:
            return None
        digest = hashlib.sha512(self._ctx("start-seed", 0, *[self.start_values[s] for s in range(self.players)]))
        return int.from_bytes(digest.digest()[:8], "big")

    # --- drawing and unmasking --------------------------------------------------------------

    def bag_count(self) -> int:
        return len(self.deck)

    def assign(self, seat: int, count: int) -> list[int]:
        """The next ``count`` cards of the deck go to ``seat`` (call it on every device)."""
        if not self.ready:
            raise DealError("the deal is not set up yet")
        if not 0 <= seat < self.players:
            raise DealError(f"seat {seat} is not one of 0-{self.players - 1}")
        if self.pending_return is not None:
            raise DealError("returned tiles wait for the reshuffle; nobody draws before it")
        if not 0 <= count <= len(self.deck):
            raise DealError(f"cannot draw {count} tiles from a bag of {len(self.deck)}")
        drawn, self.deck = self.deck[:count], self.deck[count:]
        for card in drawn:
            self.cards[card].owner = seat
        return drawn

    def _peeled_by(self, card: _Card) -> set[int]:
        return {seat for seat, _ in card.peels}

    def _current(self, card: _Card) -> Element:
        return card.peels[-1][1] if card.peels else card.value

    def _complete(self, card: _Card) -> bool:
        return len(card.peels) == self.players - 1

    def due(self) -> list[int]:
        """The cards waiting for this seat's share (drawn by others, not yet unmasked by it)."""
        return self.owed(self.seat)

    def owed(self, seat: int) -> list[int]:
        """The cards waiting for ``seat``'s share: what every message of that seat that carries
        shares must carry, exactly (every device computes the same list)."""
        return [c.id for c in self.cards
                if c.owner is not None and c.owner != seat and not c.returned
                and seat not in self._peeled_by(c)]

    def waiting(self) -> list[int]:
        """This seat's cards still waiting for others' shares."""
        return [c.id for c in self.cards
                if c.owner == self.seat and not c.returned and not self._complete(c)]

    def _groups(self, ids: Sequence[int]) -> list[list[int]]:
        by_epoch: dict[int, list[int]] = {}
        for i in sorted(ids, key=lambda i: (self.cards[i].epoch, i)):
            by_epoch.setdefault(self.cards[i].epoch, []).append(i)
        return [by_epoch[e] for e in sorted(by_epoch)]

    def shares_for(self, cards: Sequence[int] | None = None) -> str:
        """This seat's shares for ``cards`` (default: all due); "" when there are none."""
        part, order, outs = self._share_part(cards)
        for i in order:
            self.cards[i].peels.append((self.seat, outs[i]))
        return part

    def _share_part(self, cards: Sequence[int] | None) -> tuple[str, list[int], dict[int, Element]]:
        ids = self.due() if cards is None else list(cards)
        if not ids:
            return "", [], {}
        due = set(self.due())
        if len(set(ids)) != len(ids) or not set(ids) <= due:
            raise DealError("shares asked for cards that do not wait for this seat")
        inverses = [scalar_inverse(w) for w in self.scalars]
        outs = {i: self._current(self.cards[i]) * inverses[self.cards[i].epoch] for i in ids}
        order, proofs = self._prove_batches(ids, outs.__getitem__, "share")
        data = (len(order).to_bytes(2, "big") + b"".join(i.to_bytes(2, "big") for i in order)
                + b"".join(outs[i].encode() for i in order) + proofs)
        return _b64(data), order, outs

    def early_shares(self) -> str:
        """Live play: this seat's shares, ahead of its next message, for the cards whose last missing
        share is this seat's (their drawer reads them at once, instead of after this seat's move);
        "" when there are none. Nothing is recorded: the same shares go in the next message, as
        every message must carry what its writer owes (``apply_shares``)."""
        last = [i for i in self.due() if len(self.cards[i].peels) == self.players - 2]
        return self._share_part(last)[0] if last else ""

    def read_early(self, seat: int, part: str) -> list[int]:
        """Another seat's shares sent ahead of its message (``early_shares``), for this device's own
        cards: each proven as in ``apply_shares``, then used only to read the cards it completes.
        The deal's public state is unchanged (those shares come again, in the chain); returns the
        cards read. A part that does not check raises ``DealError`` and changes nothing."""
        if seat == self.seat or not 0 <= seat < self.players:
            raise DealError(f"no shares expected from seat {seat}")
        reader, ids, outs = _shares_part(part)
        for i in ids:
            if not 0 <= i < len(self.cards):
                raise DealError(f"shares: card {i} does not exist")
            card = self.cards[i]
            if card.owner != self.seat or card.returned or seat in self._peeled_by(card):
                raise DealError(f"shares: card {i} is not this seat's, waiting for {_seat_word(seat)}'s share")
        share_of = dict(zip(ids, outs))
        self._check_batches(reader, seat, ids, share_of.__getitem__, "share",
                            f"{_seat_word(seat)}'s shares do not verify: a wrong unmasking",
                            problem("share_proof", seat=seat))
        read: list[int] = []
        for i in ids:
            card = self.cards[i]
            if card.tile is None and len(card.peels) == self.players - 2:
                index = self._tile_index.get((share_of[i] * scalar_inverse(self.scalars[card.epoch])).encode())
                if index is not None:
                    card.tile = index
                    read.append(i)
        return read

    def apply_shares(self, seat: int, part: str, exact: bool = True) -> list[int]:
        """Another seat's shares, each proven; returns the cards they were for. ``exact``: the part
        must hold the shares ``seat`` owes (:meth:`owed`), no fewer and no others ("" when it owes
        none): a message that withholds one would leave a rack unreadable, and one for a card not
        owed would unmask what is not due."""
        if seat == self.seat or not 0 <= seat < self.players:
            raise DealError(f"no shares expected from seat {seat}")
        owed = self.owed(seat)
        if part == "":
            if exact and owed:
                raise DealCheat(f"{_seat_word(seat)} withholds its shares for cards {owed}", seat,
                                problem("shares_owed", seat=seat, missing=owed, extra=[]))
            return []
        reader, ids, outs = _shares_part(part)
        if exact and set(ids) != set(owed):
            missing = sorted(set(owed) - set(ids))
            extra = sorted(set(ids) - set(owed))
            raise DealCheat(f"{_seat_word(seat)}'s shares are not the ones it owes (missing {missing}, not owed {extra})",
                            seat, problem("shares_owed", seat=seat, missing=missing, extra=extra))
        for i in ids:
            if not 0 <= i < len(self.cards):
                raise DealError(f"shares: card {i} does not exist")
            card = self.cards[i]
            if card.owner is None or card.owner == seat or card.returned or seat in self._peeled_by(card):
                raise DealError(f"shares: card {i} does not wait for {_seat_word(seat)}'s share")
        share_of = dict(zip(ids, outs))
        self._check_batches(reader, seat, ids, share_of.__getitem__, "share",
                            f"{_seat_word(seat)}'s shares do not verify: a wrong unmasking",
                            problem("share_proof", seat=seat))
        for i in ids:
            self.cards[i].peels.append((seat, share_of[i]))
            card = self.cards[i]
            if card.owner == self.seat and self._complete(card):
                self._read(card)
        return ids

    def _prove_batches(self, ids: Sequence[int], base_of: Callable[[int], Element],
                       purpose: str) -> tuple[list[int], bytes]:
        """The cards in canonical order (by epoch, then number) and one proof per epoch that each
        card's current value is this seat's mask of that epoch times ``base_of(card)``."""
        groups = self._groups(ids)
        proofs = b""
        for group in groups:
            epoch = self.cards[group[0]].epoch
            proofs += dleq.prove_batch(self.scalars[epoch], [base_of(i) for i in group],
                                       [self._current(self.cards[i]) for i in group],
                                       self._ctx(purpose, self.seat, epoch, *group), self.rng)
        return [i for group in groups for i in group], proofs

    def _check_batches(self, reader: _Reader, seat: int, ids: list[int], base_of: Callable[[int], Element],
                       purpose: str, error: str, found: dict[str, Any]) -> None:
        """Read and check the proofs :meth:`_prove_batches` made on ``seat``'s device."""
        groups = self._groups(ids)
        if [i for group in groups for i in group] != ids:
            raise DealError(f"{purpose}s: cards not in canonical order")
        for group in groups:
            epoch = self.cards[group[0]].epoch
            proof = reader.take(_PROOF)
            if not dleq.verify_batch(self.keys[epoch][seat], [base_of(i) for i in group],
                                     [self._current(self.cards[i]) for i in group], proof,
                                     self._ctx(purpose, seat, epoch, *group)):
                raise DealCheat(error, seat, found)
        reader.end()

    def _read(self, card: _Card) -> None:
        plain = self._current(card) * scalar_inverse(self.scalars[card.epoch])
        index = self._tile_index.get(plain.encode())
        if index is None:
            self._break(f"card {card.id} does not unmask to a tile: a setup or reshuffle step cheated",
                        problem("cheated_card", card=card.id))
            return
        seen = {c.tile for c in self.cards if c.owner == self.seat and not c.returned and c is not card}
        seen |= {c.shown for c in self.cards if c.shown is not None}
        if index in seen:
            self._break(f"tile {index} ({TILES[index]}) was dealt twice: a setup or reshuffle step cheated",
                        problem("cheated_tile", tile=TILES[index]))
        card.tile = index

    def _break(self, text: str, found: dict[str, Any]) -> None:
        if self.broken is None:
            self.broken, self.broken_problem = text, found

    def own_tiles(self) -> list[OwnTile]:
        """This seat's rack as far as it can read it: cards held, read, not yet laid."""
        return [OwnTile(c.id, c.tile, TILES[c.tile]) for c in self.cards
                if c.owner == self.seat and c.tile is not None and c.shown is None and not c.returned]

    def cards_for(self, tiles: Iterable[str]) -> list[int]:
        """Cards of this seat's rack for the given tiles (``?`` a scarab), each card once."""
        free = self.own_tiles()
        chosen: list[int] = []
        for tile in tiles:
            match = next((t for t in free if t.tile == tile and t.card not in chosen), None)
            if match is None:
                raise DealError(f"no {tile} on this seat's rack")
            chosen.append(match.card)
        return chosen

    # --- laying tiles -----------------------------------------------------------------------

    def prove_tiles(self, cards: Sequence[int]) -> str:
        """Proof of the tiles on these cards of this seat (for a play, or any public showing)."""
        own = {t.card: t for t in self.own_tiles()}
        if not cards or len(set(cards)) != len(cards) or not set(cards) <= set(own):
            raise DealError("only tiles read from this seat's rack can be shown, each once")
        order, proofs = self._prove_batches(cards, lambda i: self.tile_elements[own[i].number], "tile")
        data = (bytes([len(order)]) + b"".join(i.to_bytes(2, "big") for i in order)
                + bytes(own[i].number for i in order) + proofs)
        for i in order:
            self.cards[i].shown = own[i].number
        self.last_shown = list(order)
        return _b64(data)

    def verify_tiles(self, seat: int, part: str) -> list[str]:
        """Another seat's shown tiles, proven; returns them in the part's order."""
        if seat == self.seat or not 0 <= seat < self.players:
            raise DealError(f"no tiles expected from seat {seat}")
        reader = _Reader(_unb64(part, "tiles"), "tiles")
        count = reader.take(1)[0]
        ids = [reader.u16() for _ in range(count)]
        indices = list(reader.take(count))
        if count == 0 or len(set(ids)) != count or len(set(indices)) != count:
            raise DealError("tiles: empty, or a card or tile twice")
        shown = {c.shown for c in self.cards if c.shown is not None}
        for i, t in zip(ids, indices):
            if not 0 <= i < len(self.cards) or not 0 <= t < len(TILES):
                raise DealError(f"tiles: card {i} or tile {t} does not exist")
            card = self.cards[i]
            if card.owner != seat or card.returned or card.shown is not None or not self._complete(card):
                raise DealError(f"tiles: card {i} is not on {_seat_word(seat)}'s rack")
            if t in shown:
                raise DealError(f"tiles: tile {t} ({TILES[t]}) was already played")
        tile_of = dict(zip(ids, indices))
        self._check_batches(reader, seat, ids, lambda i: self.tile_elements[tile_of[i]], "tile",
                            f"{_seat_word(seat)}'s tiles are not the tiles it drew", problem("tile_proof", seat=seat))
        mine = {c.tile for c in self.cards if c.owner == self.seat and c.tile is not None and not c.returned}
        self.last_shown = list(ids)
        for i, t in zip(ids, indices):
            self.cards[i].shown = t
            if t in mine:
                self._break(f"tile {t} ({TILES[t]}) was dealt twice: a setup or reshuffle step cheated",
                            problem("cheated_tile", tile=TILES[t]))
        return [TILES[t] for t in indices]

    # --- exchange ---------------------------------------------------------------------------

    def return_cards(self, seat: int, cards: Sequence[int]) -> None:
        """``seat`` puts these cards of its rack back into the bag (an exchange; tiles stay hidden)."""
        if self.pending_return is not None:
            raise DealError("a reshuffle is already due")
        if not cards or len(set(cards)) != len(cards):
            raise DealError("return: no cards, or a card twice")
        for i in cards:
            if not 0 <= i < len(self.cards):
                raise DealError(f"return: card {i} does not exist")
            card = self.cards[i]
            if card.owner != seat or card.returned or card.shown is not None or not self._complete(card):
                raise DealError(f"return: card {i} is not on {_seat_word(seat)}'s rack")
        for i in cards:
            self.cards[i].returned = True
        self.pending_return = (seat, list(cards))
        self.exchanges.append((seat, list(cards)))

    def take_back(self, seat: int, shown: Sequence[int], drawn: Sequence[int]) -> None:
        """A play withdrawn (a challenge upheld, a vote lost): the cards it showed are on
        ``seat``'s rack again (proven tiles of that seat; proven again when laid), and the cards it
        drew go back to the bag, to be reshuffled by another seat as after an exchange (the player
        may have read them: the bag must not keep an order it saw). No new card is drawn for them.
        Call it on every device."""
        if self.pending_return is not None:
            raise DealError("a reshuffle is already due")
        if len(set(shown)) != len(shown) or len(set(drawn)) != len(drawn) or set(shown) & set(drawn):
            raise DealError("take back: a card twice")
        for i in [*shown, *drawn]:
            if not 0 <= i < len(self.cards):
                raise DealError(f"take back: card {i} does not exist")
            card = self.cards[i]
            if card.owner != seat or card.returned or (card.shown is None) != (i in drawn):
                raise DealError(f"take back: card {i} is not {_seat_word(seat)}'s to take back")
        for i in shown:
            self.cards[i].shown = None
        if drawn:
            for i in drawn:
                self.cards[i].returned = True
            self.pending_return = (seat, list(drawn))
            self.takebacks.add(len(self.exchanges))
            self.exchanges.append((seat, list(drawn)))

    def _taking_back(self) -> bool:
        """The pending return is a withdrawn play's (no new cards after the reshuffle)."""
        return self.pending_return is not None and len(self.exchanges) - 1 in self.takebacks

    def reshuffle_due(self) -> int | None:
        """The exchanger whose returned cards wait for a reshuffle by another seat."""
        return None if self.pending_return is None else self.pending_return[0]

    def _held(self) -> list[_Card]:
        return [c for c in self.cards if c.owner is not None and not c.returned and c.shown is None]

    def reshuffle_step(self) -> str:
        """A fresh mask on the bag and the returned cards, shuffled (never by the exchanger)."""
        if self.pending_return is None or self.pending_return[0] == self.seat:
            raise DealError("no reshuffle is due from this seat")
        r = random_scalar(self.rng)
        w = self.scalars[-1] * r % L
        key = base_mul(w)
        epoch = len(self.keys)
        inputs = self._reshuffle_inputs()
        masked = [card * r for card in inputs]
        order = self._permutation(len(masked))
        deck = [masked[i] for i in order]
        held = [c.bag for c in self._held()]
        lifted = [card * r for card in held]
        before = self.keys[-1][self.seat]
        proof = shuffle.prove(r, order, before, key, inputs, deck, self._ctx("reshuffle", self.seat, epoch), self.rng)
        if held:  # the rack cards lifted by the same r: one batched proof, with base the old key
            proof += dleq.prove_batch(r, held, lifted, self._ctx("reshuffle-held", self.seat, epoch), self.rng,
                                      g=before)
        data = key.encode() + b"".join(e.encode() for e in deck + lifted) + proof
        self.scalars.append(w)
        self._install_reshuffle(self.seat, key, inputs, deck, lifted)
        return _b64(data)

    def _reshuffle_inputs(self) -> list[Element]:
        assert self.pending_return is not None
        return [self.cards[i].value for i in self.deck] + [self.cards[i].bag for i in self.pending_return[1]]

    def apply_reshuffle(self, seat: int, part: str) -> None:
        if self.pending_return is None or seat == self.pending_return[0] or seat == self.seat:
            raise DealError(f"no reshuffle expected from seat {seat}")
        epoch = len(self.keys)
        reader = _Reader(_unb64(part, "reshuffle"), "reshuffle")
        key = reader.element()
        inputs = self._reshuffle_inputs()
        held = [c.bag for c in self._held()]
        deck = reader.elements(len(inputs))
        lifted = reader.elements(len(held))
        proof = reader.take(shuffle.proof_bytes(len(inputs)))
        held_proof = reader.take(_PROOF) if held else b""
        reader.end()
        every_key = {k.encode() for keys in self.keys for k in keys}
        if key.is_identity() or key.encode() in every_key or key.encode() in self.refused:
            raise DealCheat(f"{_seat_word(seat)}'s reshuffle key was used before", seat,
                            problem("step_key", seat=seat, step="reshuffle"))
        before = self.keys[-1][seat]
        if len({c.encode() for c in deck}) != len(deck):
            raise DealCheat(f"{_seat_word(seat)}'s reshuffled deck has a card twice", seat,
                            problem("step_proof", seat=seat, step="reshuffle"))
        if not shuffle.verify(before, key, inputs, deck, proof, self._ctx("reshuffle", seat, epoch)) or (
                held and not dleq.verify_batch(key, held, lifted, held_proof,
                                               self._ctx("reshuffle-held", seat, epoch), g=before)):
            raise DealCheat(f"{_seat_word(seat)}'s reshuffle does not verify: not the bag it received,"
                            " shuffled and masked", seat, problem("step_proof", seat=seat, step="reshuffle"))
        self._install_reshuffle(seat, key, inputs, deck, lifted)
        self.scalars.append(self.scalars[-1])

    def _install_reshuffle(self, seat: int, key: Element, inputs: list[Element], deck: list[Element],
                           lifted: list[Element]) -> None:
        assert self.pending_return is not None
        exchanger, returned = self.pending_return
        epoch = len(self.keys)
        keys = list(self.keys[-1])
        keys[seat] = key
        self.keys.append(keys)
        held = self._held()
        first = len(self.cards)
        self.cards.extend(_Card(first + j, epoch, card, card) for j, card in enumerate(deck))
        self.reshuffles.append(_Reshuffle(seat, epoch, exchanger, returned, inputs,
                                          list(range(first, first + len(deck))),
                                          [(c.id, c.bag, new) for c, new in zip(held, lifted)]))
        for c, new in zip(held, lifted):
            c.bag = new
        self.deck = list(range(first, first + len(deck)))
        redraw = not self._taking_back()
        self.pending_return = None
        if redraw:
            self.assign(exchanger, len(returned))

    # --- the end ----------------------------------------------------------------------------

    def public_keys(self) -> list[bytes]:
        """Every public key of this deal (to refuse them in later games)."""
        return sorted({k.encode() for keys in self.keys for k in keys})

    def reveal_keys(self) -> str:
        """This seat's secret scalars, one per epoch: sent when the game is over."""
        return _b64(b"".join(scalar_encode(w) for w in self.scalars))

    def verify(self, reveals: Mapping[int, str]) -> Verdict:
        """Check the whole deal with every seat's revealed keys (this seat's own are known). This
        seat's cards it could not read yet (the game ended before every share of its last draw
        came) are read from the keys: its rack is whole at the end, as every other device sees it."""
        verdict = _Verifier(self, reveals).run()
        for card in self.cards:
            if card.owner == self.seat and card.tile is None and not card.returned and card.id in verdict.tiles:
                card.tile = verdict.tiles[card.id]
        return verdict

    def draw_orders(self, cards: str, starter: int) -> list[str]:
        """The bag's order at the start and after each reshuffle, in draw order, as this deal
        dealt it, given every card's tile (``cards``: a letter per card id, known once the keys
        are revealed and verified): what an ordinary game record replays (``ScarabeoState``'s
        ``bags``). The deal gave seat s cards 8s…8s+7; the engine deals 8 tiles to each seat from
        ``starter`` on, so the racks come first in that order, then the deck."""
        if self.pending_return is not None:
            raise DealError("the game ended before the bag was reshuffled after the last exchange")
        if not self.ready or len(cards) != len(self.cards) or not 0 <= starter < self.players:
            raise DealError("the tiles of the deal's cards are not all known")

        def letters(ids: Iterable[int]) -> str:
            return "".join(cards[i] for i in ids)

        seats = [(starter + k) % self.players for k in range(self.players)]
        first = [i for seat in seats for i in range(seat * RACK_SIZE, (seat + 1) * RACK_SIZE)]
        first += range(self.players * RACK_SIZE, len(TILES))
        return [letters(first)] + [letters(r.outputs) for r in self.reshuffles]

    # --- saving -----------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """This device's state, secret keys included (it must stay on this device)."""
        def enc(elements: Iterable[Element]) -> str:
            return _b64(b"".join(e.encode() for e in elements))
        return {
            "version": VERSION,
            "game_id": _b64(self.game_id),
            "players": self.players,
            "seat": self.seat,
            "scalars": _b64(b"".join(scalar_encode(w) for w in self.scalars)),
            "refused": sorted(_b64(k) for k in self.refused),
            "setup": [enc(deck) for deck in self.setup_decks],
            "keys": [enc(keys) for keys in self.keys],
            "start": {"fields": _b64(b"".join(self.start_fields)), "nonce": _b64(self.start_nonce),
                      "values": {str(s): _b64(v) for s, v in sorted(self.start_values.items())}},
            "reshuffles": [{"seat": r.seat, "returned": r.returned, "inputs": enc(r.inputs),
                            "deck": enc(self.cards[i].value for i in r.outputs),
                            "held": [c for c, _, _ in r.held], "before": enc(b for _, b, _ in r.held),
                            "after": enc(a for _, _, a in r.held)} for r in self.reshuffles],
            "cards": [{"owner": c.owner, "peels": [[s, v.encode().hex()] for s, v in c.peels],
                       "tile": c.tile, "shown": c.shown, "returned": c.returned} for c in self.cards],
            "exchanges": [[s, ids] for s, ids in self.exchanges],
            "takebacks": sorted(self.takebacks),
            "pending": None if self.pending_return is None else [self.pending_return[0], self.pending_return[1]],
            "deck": self.deck,
            "broken": self.broken,
            "broken_problem": self.broken_problem,
        }

    @classmethod
    def from_json(cls, data: object, rng: RandomSource | None = None) -> Deal:
        """A saved state back; anything inconsistent raises :class:`DealError`."""
        try:
            return _load(cls, data, rng)
        except DealError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as err:
            raise DealError(f"saved deal: malformed ({type(err).__name__})") from None


def _load(cls: type[Deal], data: object, rng: RandomSource | None) -> Deal:
    if not isinstance(data, dict) or data.get("version") != VERSION:
        raise DealError("saved deal: not a version-1 deal state")

    def elements(text: object, what: str) -> list[Element]:
        raw = _unb64(text, what)
        if len(raw) % _ELEMENT:
            raise DealError(f"saved deal: {what} has a partial element")
        reader = _Reader(raw, f"saved deal: {what}")
        return reader.elements(len(raw) // _ELEMENT)

    def integer(value: object) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise DealError("saved deal: a number is not an integer")
        return value

    deal = cls(_unb64(data["game_id"], "game id"), integer(data["players"]), integer(data["seat"]), rng,
               [_unb64(k, "refused key") for k in data["refused"]])
    raw = _unb64(data["scalars"], "scalars")
    reader = _Reader(raw, "saved deal: scalars")
    deal.scalars = [reader.scalar() for _ in range(len(raw) // 32)]
    reader.end()
    start = data["start"]
    fields = _unb64(start["fields"], "start")
    deal.start_fields = [fields[i:i + 32] for i in range(0, len(fields), 32)]
    deal.start_nonce = _unb64(start["nonce"], "start")
    deal.start_values = {int(s): _unb64(v, "start") for s, v in start["values"].items()}
    setup = [elements(d, "setup deck") for d in data["setup"]]
    if len(setup) > deal.players or any(len(d) != len(TILES) for d in setup):
        raise DealError("saved deal: wrong setup decks")
    deal.setup_decks = setup
    deal.keys = [elements(k, "keys") for k in data["keys"]]
    if (setup and (not deal.keys or len(deal.keys[0]) != len(setup))
            or any(len(k) != deal.players for k in deal.keys[1:])
            or len(deal.start_fields) != len(setup)):
        raise DealError("saved deal: the keys do not match the setup")
    if deal.ready:
        deal.cards = [_Card(i, 0, c, c) for i, c in enumerate(setup[-1])]
    cards = data["cards"]
    for r in data["reshuffles"]:
        inputs = elements(r["inputs"], "reshuffle")
        new_deck = elements(r["deck"], "reshuffle")
        before = elements(r["before"], "reshuffle")
        after = elements(r["after"], "reshuffle")
        held = [integer(i) for i in r["held"]]
        epoch = len(deal.reshuffles) + 1
        first = len(deal.cards)
        deal.cards.extend(_Card(first + j, epoch, c, c) for j, c in enumerate(new_deck))
        deal.reshuffles.append(_Reshuffle(integer(r["seat"]), epoch, 0, [integer(i) for i in r["returned"]],
                                          inputs, list(range(first, first + len(new_deck))),
                                          list(zip(held, before, after))))
    if len(cards) != len(deal.cards):
        raise DealError("saved deal: the card list does not match the decks")
    for card, saved in zip(deal.cards, cards):
        owner = saved["owner"]
        card.owner = None if owner is None else integer(owner)
        card.peels = [(integer(s), Element.decode(bytes.fromhex(v))) for s, v in saved["peels"]]
        card.tile = None if saved["tile"] is None else integer(saved["tile"])
        card.shown = None if saved["shown"] is None else integer(saved["shown"])
        card.returned = bool(saved["returned"])
        seats = [s for s, _ in card.peels]
        if ((card.owner is not None and not 0 <= card.owner < deal.players)
                or len(set(seats)) != len(seats) or card.owner in seats
                or not all(0 <= s < deal.players for s in seats)
                or any(t is not None and not 0 <= t < len(TILES) for t in (card.tile, card.shown))):
            raise DealError(f"saved deal: card {card.id} is inconsistent")
    for step in deal.reshuffles:
        for card_id, _, lifted in step.held:
            deal.cards[card_id].bag = lifted
    deal.exchanges = [(integer(s), [integer(i) for i in ids]) for s, ids in data["exchanges"]]
    deal.takebacks = {integer(i) for i in data.get("takebacks", [])}
    if any(not 0 <= i < len(deal.exchanges) for i in deal.takebacks):
        raise DealError("saved deal: a take-back that is no return")
    for step, (exchanger, _) in zip(deal.reshuffles, deal.exchanges):
        step.exchanger = exchanger
    pending = data["pending"]
    deal.pending_return = None if pending is None else (integer(pending[0]), [integer(i) for i in pending[1]])
    deal.deck = [integer(i) for i in data["deck"]]
    if any(not 0 <= i < len(deal.cards) or deal.cards[i].owner is not None for i in deal.deck):
        raise DealError("saved deal: the bag holds cards that are not in it")
    deal.broken = data["broken"] if isinstance(data["broken"], str) else None
    found = data.get("broken_problem")  # absent from a deal saved before it existed
    deal.broken_problem = None if deal.broken is None else (
        found if isinstance(found, dict) and found.get("key") in FAILURE_KEYS
        else problem("reason", detail=deal.broken))
    mine = deal.scalars
    if (len(mine) not in (0, len(deal.keys)) or (not mine and deal.seat < len(setup))
            or any(base_mul(w) != deal.keys[e][deal.seat] for e, w in enumerate(mine))):
        raise DealError("saved deal: the secret keys do not match the public keys")
    return deal


def _all_equal(groups: Sequence[tuple[int, Sequence[Element], Sequence[Element]]]) -> bool:
    """Whether k·xs[i] = ys[i] for every group (k, xs, ys) and every i, checked as one equation
    Σ k·(Σ zᵢ·xs[i]) = Σ Σ zᵢ·ys[i] with fresh random 128-bit weights zᵢ: a single wrong pair
    makes it fail but with probability 2^-127 (the weights are odd)."""
    scalars: list[int] = []
    points: list[Element] = []
    total = IDENTITY
    for k, xs, ys in groups:
        if not xs:
            continue
        weights = [secrets.randbits(128) | 1 for _ in xs]
        scalars.append(k)
        points.append(multi_mul(weights, list(xs), bits=128))
        total = total + multi_mul(weights, list(ys), bits=128)
    return multi_mul(scalars, points) == total


class _Verifier:
    """The end-of-game check; collects every failure rather than stopping at the first."""

    def __init__(self, deal: Deal, reveals: Mapping[int, str]) -> None:
        self.deal = deal
        self.reveals = reveals
        self.failures: list[str] = []
        self.problems: list[dict[str, Any]] = []
        self.unmask: list[int] = []         # per epoch, the inverse of every seat's masks together

    def fail(self, text: str, key: str, **params: Any) -> None:
        self.failures.append(text)
        self.problems.append(problem(key, **params))

    def run(self) -> Verdict:
        deal = self.deal
        if not deal.ready:
            return Verdict(False, ["the deal was never set up"], problems=[problem("unset")])
        scalars = self._scalars()
        if scalars is None:
            return Verdict(False, self.failures, problems=self.problems)
        self.unmask = []
        for epoch in range(len(deal.keys)):
            mu = 1
            for seat in range(deal.players):
                mu = mu * scalars[seat][epoch] % L
            self.unmask.append(scalar_inverse(mu))
        tiles = self._identify()
        self._setup(scalars, tiles)
        self._reshuffles(scalars, tiles)
        self._cards(scalars, tiles)
        racks: dict[int, list[str]] = {s: [] for s in range(deal.players)}
        for card in deal.cards:
            if card.owner is not None and not card.returned and card.shown is None and card.id in tiles:
                racks[card.owner].append(TILES[tiles[card.id]])
        bag = [TILES[tiles[i]] for i in deal.deck if i in tiles]
        exchanges = []
        for n, (seat, ids) in enumerate(deal.exchanges):
            if n in deal.takebacks:
                continue  # a withdrawn play's draw going back: no rule on which tiles
            letters = [TILES[tiles[i]] for i in ids if i in tiles]
            exchanges.append((seat, letters))
            vowels = sum(t in VOWELS for t in letters)
            if SCARAB in letters or vowels not in (0, len(letters)):
                self.fail(f"seat {seat} exchanged {''.join(letters)}: not all vowels or all consonants",
                          "exchange", seat=seat, tiles="".join(letters))
        broken = [deal.broken_problem or problem("reason", detail=deal.broken)] if deal.broken else []
        return Verdict(not self.failures and deal.broken is None,
                       self.failures + ([deal.broken] if deal.broken else []), racks, bag, exchanges,
                       tiles, self.problems + broken)

    def _unmasked(self, card: _Card) -> int | None:
        return self.deal._tile_index.get((card.value * self.unmask[card.epoch]).encode())

    def _identify(self) -> dict[int, int]:
        """Every card of every deck, unmasked: what each card is. The cards whose tile this device
        was told (shown and proven, or read from its own rack) are checked together, in one sum
        with random weights (:func:`_all_equal`); every other card, or all of them if the sum
        fails, is unmasked alone."""
        deal = self.deal
        tiles: dict[int, int] = {}
        elements = _tiles_of(deal.game_id)[0]  # the real ones, whatever the device was given
        told: dict[int, list[tuple[_Card, int]]] = {}
        for card in deal.cards:
            t = card.shown if card.shown is not None else card.tile
            if t is None:
                found = self._unmasked(card)
                if found is not None:
                    tiles[card.id] = found
            else:
                told.setdefault(card.epoch, []).append((card, t))
        groups = [(self.unmask[epoch], [c.value for c, _ in cards], [elements[t] for _, t in cards])
                  for epoch, cards in sorted(told.items())]
        if _all_equal(groups):
            tiles.update((card.id, t) for cards in told.values() for card, t in cards)
        else:
            for cards in told.values():
                for card, _ in cards:
                    found = self._unmasked(card)
                    if found is not None:
                        tiles[card.id] = found
        return tiles

    def _scalars(self) -> list[list[int]] | None:
        deal = self.deal
        out: list[list[int]] = []
        epochs = len(deal.keys)
        for seat in range(deal.players):
            if seat == deal.seat:
                out.append(list(deal.scalars))
                continue
            text = self.reveals.get(seat)
            if text is None:
                self.fail(f"seat {seat} did not reveal its keys", "keys_missing", seat=seat)
                continue
            try:
                raw = _unb64(text, f"seat {seat}'s keys")
                reader = _Reader(raw, f"seat {seat}'s keys")
                values = [reader.scalar() for _ in range(epochs)]
                reader.end()
            except DealError as err:
                self.fail(str(err), "keys_unreadable", seat=seat)
                continue
            for epoch, w in enumerate(values):
                if base_mul(w) != deal.keys[epoch][seat]:
                    self.fail(f"seat {seat}'s revealed key does not match its public key (epoch {epoch})",
                              "key_mismatch", seat=seat, epoch=epoch)
            out.append(values)
        return None if self.failures else out

    @staticmethod
    def _same_cards(got: list[Element], want: list[Element]) -> int:
        """How many cards of ``got`` are not in ``want`` (as multisets)."""
        pool = Counter(e.encode() for e in want)
        missing = 0
        for e in got:
            key = e.encode()
            if pool[key]:
                pool[key] -= 1
            else:
                missing += 1
        return missing

    def _setup(self, scalars: list[list[int]], tiles: dict[int, int]) -> None:
        """The setup is right if the first deck unmasks to the tile set exactly; only if it does
        not is every step checked, to say whose step was wrong."""
        deal = self.deal
        first = [tiles.get(i) for i in range(len(TILES))]
        if sorted(t for t in first if t is not None) == list(range(len(TILES))):
            return
        before = deal.tile_elements
        blamed = False
        for seat, deck in enumerate(deal.setup_decks):
            k = scalars[seat][0]
            bad = self._same_cards(deck, [card * k for card in before])
            if bad:
                blamed = True
                self.fail(f"seat {seat}'s setup step: {bad} of {len(deck)} cards are not the deck it received, masked",
                          "setup_step", seat=seat, n=bad, total=len(deck))
            before = deck
        if not blamed:
            self.fail("the setup does not unmask to the tile set", "setup")

    def _reshuffles(self, scalars: list[list[int]], tiles: dict[int, int]) -> None:
        """Each reshuffle must hold the tiles it received; otherwise its masking is checked card
        by card to say how many were changed."""
        deal = self.deal
        by_value = {card.value.encode(): tiles.get(card.id) for card in deal.cards}
        factors = [scalars[r.seat][r.epoch] * scalar_inverse(scalars[r.seat][r.epoch - 1]) % L
                   for r in deal.reshuffles]
        # The rack cards lifted by every reshuffle, checked together (one by one if that fails).
        lifted_right = _all_equal([(factor, [b for _, b, _ in r.held], [a for _, _, a in r.held])
                                   for factor, r in zip(factors, deal.reshuffles) if r.held])
        for n, (r, factor) in enumerate(zip(deal.reshuffles, factors), 1):
            received: list[int | None] = []
            for value in r.inputs:
                t = by_value.get(value.encode())
                if t is None:
                    t = deal._tile_index.get((value * self.unmask[r.epoch - 1]).encode())
                received.append(t)
            out = [tiles.get(i) for i in r.outputs]
            if None in received or Counter(received) != Counter(out):
                deck = [deal.cards[i].value for i in r.outputs]
                bad = self._same_cards(deck, [card * factor for card in r.inputs])
                self.fail(f"seat {r.seat}'s reshuffle {n}: {bad} of {len(deck)} cards are not the bag it received, masked",
                          "reshuffle", seat=r.seat, round=n, n=bad, total=len(deck))
            if lifted_right:
                continue
            lifted_bad = [card for card, before, after in r.held if before * factor != after]
            if lifted_bad:
                self.fail(f"seat {r.seat}'s reshuffle {n}: the rack cards {lifted_bad} were not masked again correctly",
                          "reshuffle_racks", seat=r.seat, round=n, cards=lifted_bad)

    def _cards(self, scalars: list[list[int]], tiles: dict[int, int]) -> None:
        """Drawn cards are tiles, shown tiles are what the cards hold, every share removed exactly
        its seat's mask (checked in batches with random weights, card by card only on failure),
        and the cards in play are the tile set exactly."""
        deal = self.deal
        drawn = [c for c in deal.cards if c.owner is not None and not c.returned]
        final = [deal.cards[i] for i in deal.deck]
        groups: dict[tuple[int, int], list[tuple[int, Element, Element]]] = {}
        for card in deal.cards:
            if card.owner is None:
                continue
            if card.id not in tiles:
                self.fail(f"card {card.id} (drawn by seat {card.owner}) is not a tile",
                          "drawn_not_tile", seat=card.owner, card=card.id)
            elif card.shown is not None and card.shown != tiles[card.id]:
                self.fail(f"seat {card.owner} showed {TILES[card.shown]} for card {card.id},"
                          f" which is {TILES[tiles[card.id]]}", "shown_wrong", seat=card.owner, card=card.id,
                          shown=TILES[card.shown], tile=TILES[tiles[card.id]])
            value = card.value
            for seat, share in card.peels:
                groups.setdefault((seat, card.epoch), []).append((card.id, share, value))
                value = share
        ordered = sorted(groups.items())
        if not _all_equal([(scalars[seat][epoch], [s for _, s, _ in items], [v for _, _, v in items])
                           for (seat, epoch), items in ordered]):
            for (seat, epoch), items in ordered:
                if not _all_equal([(scalars[seat][epoch], [s for _, s, _ in items], [v for _, _, v in items])]):
                    wrong = [i for i, s, v in items if s * scalars[seat][epoch] != v]
                    self.fail(f"seat {seat}'s shares for cards {wrong} are wrong", "shares_wrong",
                              seat=seat, cards=wrong)
        for card in final:
            if card.id not in tiles:
                self.fail(f"card {card.id} (in the bag) is not a tile", "bag_not_tile", card=card.id)
        in_play = Counter(tiles[c.id] for c in drawn + final if c.id in tiles)
        twice = sorted(t for t, n in in_play.items() if n > 1)
        if twice:
            self.fail(f"tiles dealt twice: {''.join(TILES[t] for t in twice)}", "dealt_twice",
                      tiles="".join(TILES[t] for t in twice))
        missing = [TILES[t] for t in range(len(TILES)) if t not in in_play]
        if missing:
            self.fail(f"tiles missing from the deal: {''.join(missing)}", "missing", tiles="".join(missing))
