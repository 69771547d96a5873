"""Each game as remote play sees it: its options, its share of the joint randomness, and its moves.

A ``RemoteGame`` wraps one engine state that every device holds alike (only what every seat may see),
applies each seat's move from its message, and says whose message comes next. The session
(``game.remote.session``) does the rest: invitations, the hash chain, signatures, storage.

Randomness nobody controls (docs/remote.md "Shared randomness"):
- Thot: the board is the only random thing, and the physical game lays it face up. It is shuffled
  from the joint seed, fixed only once every device's contribution is in.
- Scarabya (classic): the layout is public from the start (the joint seed, or the inviter's choice
  as the rulebook lets the starting player pick it); the 12 mission cards are face down and revealed
  one per round, so a seed known to all would tell every future card. Each card is instead drawn
  when its round begins, from contributions made for that card only: every device commits at the
  start to a hash chain (``ONION_DEPTH`` values, each the hash of the next) and reveals one value
  per card. Seats 1… reveal card c's value with their move of round c-1; seat 0, who plays first
  in round c, reveals its own with that move: nobody knows card c before round c-1 is over, and
  nobody can choose it (every value was committed before any was revealed).
- Scarabya (Ruins): each round's 4 tiles and zones likewise, drawn when the round begins from every
  seat's value for it (``RuinsRemote``).
"""

from __future__ import annotations

import secrets
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from game.core import GameRecord, GameState
from game.remote.ristretto import RandomSource
from game.remote.wire import b64, sha256, unb64
from game.core import Rng
from game.scarabya.ruins import ROUNDS as RUINS_ROUNDS
from game.scarabya.ruins import TILES_PER_ROUND as RUINS_TILES_PER_ROUND
from game.scarabya.ruins import RuinsState
from game.scarabya.sets import TILE_NAMES, Layout
from game.scarabya.state import ROUNDS as SCARABYA_ROUNDS
from game.scarabya.state import ScarabyaState
from game.scarabeo.words import WordList
from game.thot.state import ThotState

MIN_PLAYERS, MAX_PLAYERS = 2, 4


#: A seat's source of randomness for its secret steps (given a seat, a ``randrange`` source).
SeatRandom = Callable[[int], RandomSource]


class ProtocolError(ValueError):
    """A message that is well formed but breaks the protocol (a wrong reveal, a missing value);
    ``key`` is stable (the page's catalogue: ``remote.refused.<key>``), "protocol" unless the
    breach has a key of its own."""

    def __init__(self, message: str, key: str = "protocol", found: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.key = key
        #: With key ``cheat``: what the writer's device provably broke (``deal.DealCheat.problem``).
        self.found = found


class OptionsError(ValueError):
    """Options the invitation cannot carry; ``str()`` says which and why, ``key`` is stable (the
    page's catalogue: ``remote.refused.options.<key>``)."""

    def __init__(self, message: str, key: str = "invalid") -> None:
        super().__init__(message)
        self.key = key


def engine_seed(seed: bytes) -> int:
    """The engines' integer seed from the 32-byte joint seed: 53 bits, so the page's JavaScript
    reads records exactly; unpredictable to every device all the same (nobody chose the bytes)."""
    return int.from_bytes(seed[:8], "big") >> 11


def _flags(options: Mapping[str, Any], names: tuple[str, ...]) -> dict[str, bool]:
    out = {}
    for name in names:
        value = options.get(name, False)
        if not isinstance(value, bool):
            raise OptionsError(f"option {name} must be true or false")
        out[name] = value
    return out


def _unknown(options: Mapping[str, Any], known: set[str]) -> None:
    extra = sorted(set(options) - known)
    if extra:
        raise OptionsError(f"unknown option {extra[0]!r} (known: {', '.join(sorted(known)) or 'none'})")


@dataclass(frozen=True)
class Setup:
    """What a game starts from on one device, once the start message is in."""

    options: Mapping[str, Any]
    players: int
    seed: bytes  # the joint seed
    game_id: bytes
    names: Sequence[str]  # by seat
    hellos: Sequence[Mapping[str, Any]]  # each seat's public setup data, by seat
    me: int | None  # this device's seat
    secret: Mapping[str, Any]  # this device's own secret for the game
    #: What the device saved of a game that cannot be rebuilt from its messages alone (its own
    #: secret shuffles): the messages are then replayed for the moves only.
    local: Mapping[str, Any] | None = None
    words: WordList | None = None
    #: The randomness of a seat's secret steps (Scarabeo's shuffles), for reproducible tests
    #: only; None: ``secrets``.
    rng: SeatRandom | None = None


class RemoteGame(ABC):
    """One game in remote play; every device runs the same instance on the same messages."""

    GAME: ClassVar[str]
    #: A seat may resign or leave while another is to move (its message may cross that move).
    END_ANY_TIME: ClassVar[bool] = True

    def __init__(self, setup: Setup) -> None:
        self.options = dict(setup.options)
        self.players = setup.players
        self.seed = setup.seed
        self.me = setup.me
        self.ended: int | None = None  # the seat that resigned or left

    # --- setup -------------------------------------------------------------------------
    @classmethod
    @abstractmethod
    def check_options(cls, options: Mapping[str, Any], players: int) -> dict[str, Any]:
        """The options as the invitation carries them; ``OptionsError`` if remote play cannot."""

    @classmethod
    def new_secret(cls) -> dict[str, Any]:
        """This device's own secret for the game (kept in its directory, never sent)."""
        return {}

    @classmethod
    def hello(cls, secret: Mapping[str, Any]) -> dict[str, Any]:
        """What a device publishes of its secret when it invites or joins (a commitment)."""
        return {}

    @classmethod
    def check_hello(cls, hello: Mapping[str, Any]) -> None:
        """Refuse (``ProtocolError``) another device's malformed public setup data."""

    # --- play --------------------------------------------------------------------------
    @classmethod
    def variant(cls, options: Mapping[str, Any]) -> type[RemoteGame]:
        """The class that plays these options (a game's variant may be a class of its own)."""
        return cls

    @property
    @abstractmethod
    def state(self) -> GameState[Any]: ...

    def over(self) -> bool:
        """No move is left to play (the game's end, a resignation or a leave)."""
        return self.ended is not None or self.state.is_over()

    def next_sender(self) -> int | None:
        """The seat whose message comes next in the chain (None: nothing more is expected)."""
        return None if self.over() else self.state.to_move()

    def auto(self, secret: Mapping[str, Any]) -> dict[str, Any] | None:
        """What this device must send now without a player's decision (a step of a deal), or None."""
        return None

    def apply_deal(self, seat: int, extra: Mapping[str, Any]) -> str:
        """Apply a message that carries no move (a deal's step); the words for the player."""
        raise ProtocolError("this game has no message without a move")

    def outgoing(self, text: str, secret: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
        """This device's move: its notation as the others see it and what the message carries besides."""
        state = self.state
        move = state.parse_move(text)
        state.check(move)
        return state.move_text(move), {}

    @abstractmethod
    def apply(self, seat: int, text: str, extra: Mapping[str, Any]) -> dict[str, Any]:
        """Apply ``seat``'s move; raise (state unchanged) if it is not legal or breaks the protocol."""

    # --- take-back requests (docs/remote.md "Take-back requests") ----------------------------
    def take_back_refusal(self, seat: int) -> str | None:
        """Why ``seat``'s last move (the chain's last message, its own) cannot be taken back: a
        stable key (the page's catalogue: ``remote.refused.takeback_<key>``); None when it can."""
        return None

    def take_back_extra(self, asker: int, secret: Mapping[str, Any]) -> dict[str, Any]:
        """What the last acceptance of ``asker``'s take-back carries besides (written on the
        accepting device, which does its own part of the rewind now)."""
        return {}

    @abstractmethod
    def take_back(self, asker: int, answerer: int, extra: Mapping[str, Any]) -> None:
        """Every seat accepted: ``asker``'s last move is undone, as if it had not been played
        (``answerer`` wrote the last acceptance, with ``extra``); raise (``ProtocolError``) if
        ``extra`` breaks the protocol."""

    def end_extra(self, secret: Mapping[str, Any]) -> dict[str, Any]:
        """What a resignation or a leave carries besides."""
        return {}

    def end(self, seat: int, extra: Mapping[str, Any]) -> None:
        """``seat`` resigned or left."""
        if extra:
            raise ProtocolError("a resignation or a leave carries nothing more here")
        self.ended = seat

    def save(self) -> dict[str, Any] | None:
        """This device's own state of the game when its messages cannot rebuild it (else None)."""
        return None

    def replayed(self) -> None:
        """The messages were replayed over a saved state (``Setup.local``): settle what depends on it."""

    def broken(self) -> dict[str, Any] | None:
        """What this device found broken in the game while it is played, as data (a Scarabeo card
        of its own that is no tile: ``deal.FAILURE_KEYS``), which stops the game here; None: nothing."""
        return None

    def early(self) -> str:
        """Live play: what this device may send at once, outside the chain, for another device to
        read its hidden things sooner (Scarabeo: shares of tiles just drawn); "" when nothing."""
        return ""

    def read_early(self, seat: int, part: str) -> bool:
        """``early`` from ``seat``'s device: checked and used; whether anything changed here
        (``ProtocolError``: refused, nothing changed)."""
        raise ProtocolError("this game sends nothing ahead of its messages")

    def verified(self) -> tuple[bool | None, list[str]]:
        """At the end: whether everything hidden during the game checked out, and what failed."""
        return (True, []) if self.over() and self.next_sender() is None else (None, [])

    def problems(self) -> list[dict[str, Any]]:
        """What failed, as data (``game.remote.deal.FAILURE_KEYS``), one per line of ``verified``."""
        return []

    def view(self, secret: Mapping[str, Any]) -> dict[str, Any]:
        """The fields of ``remote show`` that depend on the game, as this device's seat may see them."""
        state = self.state
        outcome = state.outcome()
        return {
            "position": state.position(),
            "scores": list(outcome.scores) if outcome else self.scores(),
            "rack": None,
            "legal": [state.move_text(m) for m in state.legal_moves()] if not self.over() else [],
        }

    @abstractmethod
    def scores(self) -> list[int]: ...

    def seat_state(self, secret: Mapping[str, Any]) -> GameState[Any]:
        """The engine state this device's seat plays on and a page draws (``view``'s position as a
        state): the shared state, unless the seat knows more now (Scarabya: seat 0's round card)."""
        return self.state

    def review_refusal(self) -> str | None:
        """Why the game cannot be reviewed move by move from ``export`` (a stable key: ``playing``
        while it goes on), None when it can."""
        return None if self.over() else "playing"

    def export(self, meta: Mapping[str, Any]) -> dict[str, Any]:
        """The finished game as a record for the review, the same on every device."""
        return GameRecord.of(self.state, **meta).to_json()

    def review_record(self, meta: Mapping[str, Any]) -> dict[str, Any]:
        """The game record the review replays (``review_refusal`` says when there is none)."""
        return self.export(meta)


class ThotRemote(RemoteGame):
    GAME = "thot"

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        self._state = ThotState.from_options({**setup.options, "players": setup.players},
                                             engine_seed(setup.seed))

    @classmethod
    def check_options(cls, options: Mapping[str, Any], players: int) -> dict[str, Any]:
        _unknown(options, {"short", "turnoff", "teams"})
        flags = _flags(options, ("short", "turnoff", "teams"))
        if flags["teams"] and players != 4:
            raise OptionsError("the team game needs 4 players", "teams")
        return flags

    @property
    def state(self) -> ThotState:
        return self._state

    def apply(self, seat: int, text: str, extra: Mapping[str, Any]) -> dict[str, Any]:
        if extra:
            raise ProtocolError("a Thot move carries nothing but the move")
        state = self._state
        move = state.parse_move(text)
        result = state.push(move)
        return {"move": state.move_text(move), "result": result}

    def scores(self) -> list[int]:
        return list(self._state.score)

    def take_back(self, asker: int, answerer: int, extra: Mapping[str, Any]) -> None:
        if extra:
            raise ProtocolError("a Thot take-back carries nothing more")
        self._state.pop()  # the engine's own take-back: board, captures and turn as they were


#: Cards 1…11 are drawn from revealed values (card 0 from the joint seed): one value per card.
ONION_DEPTH = SCARABYA_ROUNDS - 1


def _onion(value: bytes) -> bytes:
    return sha256(b"scarab-remote/scarabya-onion", value)


class ScarabyaRemote(RemoteGame):
    GAME = "scarabya"

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        players, seed = setup.players, setup.seed
        #: The last value each seat revealed of its hash chain (its commitment before the first).
        self.revealed: list[bytes] = [unb64(h["o"], 32) for h in setup.hellos]
        #: Values revealed for each card, by seat (card 0 has none).
        self.values: list[dict[int, bytes]] = [{} for _ in range(SCARABYA_ROUNDS)]
        layout = setup.options.get("layout")
        base = ScarabyaState.new(players, layout=layout, seed=engine_seed(seed))
        self.layout = base.layout.text()
        self.cards: list[str] = [self._draw([], [])]
        self._state = self._build(self.cards, [])
        #: What the last move changed, as it was before it (a take-back puts it back).
        self._undo: tuple[Any, ...] | None = None

    @classmethod
    def check_options(cls, options: Mapping[str, Any], players: int) -> dict[str, Any]:
        variant = options.get("variant", "classic")
        if variant == "ruins":
            _unknown(options, {"variant", "deck", "zones"})
            if "deck" in options or "zones" in options:
                raise OptionsError("the Ruins tiles and their zones cannot be chosen: they are drawn round by "
                                   "round, by every device together", "deck")
            return {"variant": "ruins"}
        if variant != "classic":
            raise OptionsError(f"unknown Scarabya variant {variant!r} (classic, ruins)")
        _unknown(options, {"variant", "layout", "deck"})
        if "deck" in options:
            raise OptionsError("the mission cards cannot be chosen: they are drawn in turn, by every device together",
                               "deck")
        out: dict[str, Any] = {}
        if "layout" in options:
            layout = options["layout"]
            if not isinstance(layout, str):
                raise OptionsError("layout must be text like 1.0-2.3-3.1-4.2")
            try:
                out["layout"] = Layout.parse(layout).text()
            except ValueError as err:
                raise OptionsError(f"layout: {err}") from None
        return out

    @classmethod
    def variant(cls, options: Mapping[str, Any]) -> type[RemoteGame]:
        return RuinsRemote if options.get("variant") == "ruins" else cls

    @classmethod
    def new_secret(cls) -> dict[str, Any]:
        return {"onion": b64(secrets.token_bytes(32))}

    @classmethod
    def hello(cls, secret: Mapping[str, Any]) -> dict[str, Any]:
        return {"o": b64(_onion(cls._value(secret, 1)))}

    @classmethod
    def check_hello(cls, hello: Mapping[str, Any]) -> None:
        try:
            unb64(hello.get("o"), 32)
        except ValueError:
            raise ProtocolError("a Scarabya player's commitment is missing or malformed") from None

    @staticmethod
    def _value(secret: Mapping[str, Any], card: int) -> bytes:
        """This device's value for ``card`` (1…11): the onion's seed hashed ``11 - card`` times."""
        value = unb64(secret["onion"], 32)
        for _ in range(ONION_DEPTH - card):
            value = _onion(value)
        return value

    def _draw(self, cards: list[str], values: list[bytes]) -> str:
        """The next card after ``cards``: a hash of the joint seed and every seat's value for it."""
        remaining = sorted(set(TILE_NAMES) - set(cards))
        h = sha256(b"scarab-remote/scarabya-card", self.seed, bytes([len(cards)]), *values)
        return remaining[int.from_bytes(h, "big") % len(remaining)]

    def _build(self, cards: list[str], moves: list[str]) -> ScarabyaState:
        """The state with the cards drawn so far; the rest stand in, sorted (never played: the
        engine reads a card only in its round, and the solver samples orders of the rest)."""
        rest = sorted(set(TILE_NAMES) - set(cards))
        state = ScarabyaState(self.players, Layout.parse(self.layout), "".join(cards) + "".join(rest),
                              engine_seed(self.seed))
        for text in moves:
            state.push(state.parse_move(text))
        return state

    @property
    def state(self) -> ScarabyaState:
        return self._state

    def _due(self, seat: int) -> int | None:
        """The card whose value ``seat`` reveals with its move now (None: none is due)."""
        rnd = len(self._state.history()) // self.players
        card = rnd if seat == 0 else rnd + 1
        return card if 1 <= card <= ONION_DEPTH else None

    def _card_ready(self) -> bool:
        """The card of the current round is drawn (else seat 0's next move reveals it)."""
        rnd = len(self._state.history()) // self.players
        return rnd < len(self.cards) or rnd >= SCARABYA_ROUNDS

    def outgoing(self, text: str, secret: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
        seat = self._state.to_move()
        card = self._due(seat)
        extra = {} if card is None else {"d": b64(self._value(secret, card))}
        state = self._state if self._card_ready() else self._with_card(extra)[0]
        move = state.parse_move(text)
        state.check(move)
        return state.move_text(move), extra

    def _with_card(self, extra: Mapping[str, Any]) -> tuple[ScarabyaState, list[str]]:
        """The state with the current round's card drawn from the values revealed for it (seat 0's
        in ``extra``); the engine state is not changed."""
        card = len(self.cards)
        values = dict(self.values[card])
        values[0] = unb64(extra["d"], 32)
        cards = [*self.cards, self._draw(self.cards, [values[s] for s in range(self.players)])]
        return self._build(cards, [m.text() for m in self._state.history()]), cards

    def apply(self, seat: int, text: str, extra: Mapping[str, Any]) -> dict[str, Any]:
        card = self._due(seat)
        if set(extra) != ({"d"} if card is not None else set()):
            raise ProtocolError("this Scarabya move does not carry the value due for the next mission card")
        value = None
        if card is not None:
            try:
                value = unb64(extra["d"], 32)
            except ValueError:
                raise ProtocolError("the value for the next mission card is malformed") from None
            if _onion(value) != self.revealed[seat]:
                raise ProtocolError("the value for the next mission card is not the one committed to")
        state, cards = (self._state, self.cards) if self._card_ready() else self._with_card(extra)
        undo = (self._state.copy(), list(self.cards), list(self.revealed), [dict(v) for v in self.values])
        if state is not self._state:
            state = state.copy()
        move = state.parse_move(text)
        result = state.push(move)  # raises before any change of ours when the move is illegal
        self._undo = undo
        self._state, self.cards = state, cards
        if card is not None and value is not None:
            self.revealed[seat] = value
            self.values[card][seat] = value
        return {"move": move.text(), "result": result}

    def scores(self) -> list[int]:
        return list(self._state.scores)

    def take_back(self, asker: int, answerer: int, extra: Mapping[str, Any]) -> None:
        """The state before the last move: its board, and the mission cards and values as they
        were (a value it revealed is revealed again, the same, when the move is played again: the
        card it draws is the same card)."""
        if extra:
            raise ProtocolError("a Scarabya take-back carries nothing more")
        if self._undo is None:
            raise ProtocolError("no move of this game can be taken back now", key="takeback_last")
        state, cards, revealed, values = self._undo
        self._state, self.cards, self.revealed, self.values = state, cards, revealed, values
        self._undo = None

    def seat_state(self, secret: Mapping[str, Any]) -> ScarabyaState:
        if not self._card_ready() and self.me == 0:
            # Seat 0 draws the round's card itself: it holds the last value, and it is its turn.
            return self._with_card({"d": b64(self._value(secret, len(self.cards)))})[0]
        return self._state

    def view(self, secret: Mapping[str, Any]) -> dict[str, Any]:
        out = super().view(secret)
        state = self._state
        known = self._card_ready()
        if not known and self.me == 0:
            state = self.seat_state(secret)
            known = True
            out["position"] = state.position()
            out["legal"] = [m.text() for m in state.legal_moves()]
        out["card"] = state.tile() if known else None
        out["cards_drawn"] = "".join(self.cards)
        if not known:
            out["legal"] = []
        return out


class RuinsRemote(ScarabyaRemote):
    """Scarabya's Ruins variant by links: 4 rounds on one board, each revealing 4 Ruins tiles on 4
    zones. A seed known to all would tell every round's tiles, so round r (1-3) is drawn when it
    begins, from the joint seed and every seat's r-th value of its hash chain (the same commitment
    as the classic game's, ``hello``): the seat that opens round r (seat r mod players) reveals its
    value with its first move of round r, every other seat with its first move of round r-1 (every
    seat places a piece in each round's first turn round: the board is empty then). Nobody knows
    round r's tiles before round r-1 is over; the seat that opens it learns them as its turn comes."""

    def __init__(self, setup: Setup) -> None:
        RemoteGame.__init__(self, setup)
        self.revealed = [unb64(h["o"], 32) for h in setup.hellos]
        self.values = [{} for _ in range(RUINS_ROUNDS)]
        #: Each round drawn so far: its 4 tiles (ids 0-15) and their 4 zones (1-9).
        self.rounds: list[tuple[list[int], list[int]]] = [self._draw_round([], [])]
        self._ruins = self._build_ruins(self.rounds, [])
        self._undo = None

    def _draw_round(self, rounds: list[tuple[list[int], list[int]]], values: list[bytes]) -> tuple[list[int], list[int]]:
        """The next round after ``rounds``: a hash of the joint seed and every seat's value for it."""
        drawn = {t for tiles, _ in rounds for t in tiles}
        h = sha256(b"scarab-remote/ruins-round", self.seed, bytes([len(rounds)]), *values)
        rng = Rng(int.from_bytes(h[:8], "big"))
        remaining = sorted(set(range(16)) - drawn)
        rng.shuffle(remaining)
        nine = list(range(1, 10))
        rng.shuffle(nine)
        return remaining[:RUINS_TILES_PER_ROUND], nine[:RUINS_TILES_PER_ROUND]

    def _build_ruins(self, rounds: list[tuple[list[int], list[int]]], moves: list[str]) -> RuinsState:
        """The state with the rounds drawn so far; later rounds stand in (tiles in order, zones
        1-4), never scored: a round is drawn before its first move."""
        deck = [t for tiles, _ in rounds for t in tiles]
        deck += sorted(set(range(16)) - set(deck))
        zones = [z for _, zs in rounds for z in zs]
        zones += [1, 2, 3, 4] * (RUINS_ROUNDS - len(rounds))
        state = RuinsState(self.players, tuple(deck), tuple(zones), engine_seed(self.seed))
        for text in moves:
            state.push(state.parse_move(text))
        return state

    @property
    def state(self) -> RuinsState:  # type: ignore[override]
        return self._ruins

    def _opener(self, rnd: int) -> int:
        return rnd % self.players

    def _moved_in_round(self, seat: int) -> bool:
        """Whether ``seat`` has placed a piece in the current round."""
        return any(s == seat for s, _, _ in self._ruins.pieces_on_board)

    def _values_due(self, seat: int) -> list[int]:
        """The rounds whose value ``seat`` reveals with its move now."""
        state = self._ruins
        rnd = state.round_index
        if rnd >= RUINS_ROUNDS or self._moved_in_round(seat):
            return []
        due = []
        if rnd >= 1 and seat == self._opener(rnd):
            due.append(rnd)
        if rnd + 1 < RUINS_ROUNDS and seat != self._opener(rnd + 1):
            due.append(rnd + 1)
        return due

    def _round_ready(self) -> bool:
        return self._ruins.round_index < len(self.rounds) or self._ruins.round_index >= RUINS_ROUNDS

    def _values_of(self, seat: int, extra: Mapping[str, Any]) -> dict[int, bytes]:
        due = self._values_due(seat)
        given = extra.get("r", {})
        if set(extra) - {"r"} or not isinstance(given, dict) or sorted(given) != [str(r) for r in due]:
            raise ProtocolError("this Ruins move does not carry the values due for the next rounds")
        out: dict[int, bytes] = {}
        last = self.revealed[seat]
        for rnd in due:
            try:
                value = unb64(given[str(rnd)], 32)
            except ValueError:
                raise ProtocolError("a value for a Ruins round is malformed") from None
            if _onion(value) != last:
                raise ProtocolError("a value for a Ruins round is not the one committed to")
            out[rnd] = last = value
        return out

    def _with_round(self, own: Mapping[int, bytes], seat: int) -> tuple[RuinsState, list[tuple[list[int], list[int]]]]:
        """The state with the current round drawn, ``seat``'s value for it in ``own``."""
        rnd = len(self.rounds)
        values = {**self.values[rnd], seat: own[rnd]}
        rounds = [*self.rounds, self._draw_round(self.rounds, [values[s] for s in range(self.players)])]
        return self._build_ruins(rounds, [m.text() for m in self._ruins.history()]), rounds

    def outgoing(self, text: str, secret: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
        seat = self._ruins.to_move()
        own = {rnd: self._value(secret, rnd) for rnd in self._values_due(seat)}
        extra = {"r": {str(rnd): b64(v) for rnd, v in own.items()}} if own else {}
        state = self._ruins if self._round_ready() else self._with_round(own, seat)[0]
        move = state.parse_move(text)
        state.check(move)
        return state.move_text(move), extra

    def apply(self, seat: int, text: str, extra: Mapping[str, Any]) -> dict[str, Any]:
        values = self._values_of(seat, extra)
        state, rounds = (self._ruins, self.rounds) if self._round_ready() else self._with_round(values, seat)
        undo = (self._ruins, list(self.rounds), list(self.revealed), [dict(v) for v in self.values])
        if state is self._ruins:
            state = state.copy()
        move = state.parse_move(text)
        result = state.push(move)  # raises before any change of ours when the move is illegal
        self._undo = undo
        self._ruins, self.rounds = state, rounds
        for rnd, value in values.items():
            self.revealed[seat] = value
            self.values[rnd][seat] = value
        return {"move": move.text(), "result": result}

    def scores(self) -> list[int]:
        return list(self._ruins.scores)

    def take_back(self, asker: int, answerer: int, extra: Mapping[str, Any]) -> None:
        if extra:
            raise ProtocolError("a Scarabya take-back carries nothing more")
        if self._undo is None:
            raise ProtocolError("no move of this game can be taken back now", key="takeback_last")
        self._ruins, self.rounds, self.revealed, self.values = self._undo
        self._undo = None

    def seat_state(self, secret: Mapping[str, Any]) -> RuinsState:  # type: ignore[override]
        if not self._round_ready() and self.me == self._opener(self._ruins.round_index):
            # The seat that opens the round draws its tiles itself: it holds the last value, and it is its turn.
            return self._with_round({len(self.rounds): self._value(secret, len(self.rounds))}, self.me)[0]
        return self._ruins

    def view(self, secret: Mapping[str, Any]) -> dict[str, Any]:
        out = RemoteGame.view(self, secret)
        known = self._round_ready()
        if not known and self.me == self._opener(self._ruins.round_index):
            state = self.seat_state(secret)
            known = True
            out["position"] = state.position()
            out["legal"] = [state.move_text(m) for m in state.legal_moves()]
        out["card"] = None
        out["rounds_drawn"] = len(self.rounds)
        #: This device cannot see the current round's tiles yet (its opener's link brings them).
        out["round_pending"] = not known
        if not known:
            out["legal"] = []
        return out
