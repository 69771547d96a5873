"""One device's side of a remote game: invitation, joins, the start, moves, deal steps, the end.

Every message is ``{"m": content, "s": signature}`` (``game.remote.wire`` packs it; a link may
carry several in a row from one device, ``{"b": [message, …]}``). Its content names the game
(``g``, 16 random bytes), its kind (``k``), and — for every message of the chain — its index ``n``
and the SHA-256 of the previous message's content (``p``), and the seat that wrote it (``f``).

The chain is one total order for all seats: the invitation (0), the start (1), then each message
written by the seat whose turn it is — a move, a step of Scarabeo's deal, the keys at the end — so
order and integrity are checked before anything is applied, and no two seats ever write the same
index. (A Thot or Scarabya player may resign or leave while another is to move: see ``_crossed``.)
Joins are not in the chain, since several friends may answer at once: each names the invitation's
hash and goes to the inviter (in a group chat everyone sees it; the other devices note it), and the
start message carries them all, so every device learns every player from one message.

Randomness: the invitation commits to the inviter's random value (its hash); each join carries
the joiner's value in clear; the start reveals the inviter's value. The joint seed is the hash of
all of them, fixed only when the last is known: the inviter chose before seeing any other, each
joiner without knowing the inviter's. The seat order is drawn from the joint seed.

A device keeps the messages it accepted, its own secrets and, for a game whose own secret steps
cannot be replayed (Scarabeo's deal), that game's saved state; everything else is rebuilt from
the messages, so what it stores is what it was sent, plus what it alone may know.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from game.core import IllegalMove, NotationError
from game.remote import sign
from game.remote.games import (
    MAX_PLAYERS, MIN_PLAYERS, OptionsError, ProtocolError, RemoteGame, ScarabyaRemote, SeatRandom, Setup,
    ThotRemote,
)
from game.remote.scarabeo import ScarabeoRemote
from game.remote.wire import MAX_MESSAGE_CHARS, VERSION, WireError, b64, digest, pack, sha256, unb64, unpack
from game.scarabeo.words import WordList

def games() -> dict[str, type[RemoteGame]]:
    """Every game remote play knows (here, above each game's module: Scarabeo's builds on games.py)."""
    return {"scarabeo": ScarabeoRemote, "thot": ThotRemote, "scarabya": ScarabyaRemote}


DEVICE_FORMAT = "scarab-remote-device"
DEVICE_VERSION = 1
MAX_NAME_CHARS = 40
#: Messages one link may carry. A link carries every message some other seat may still lack
#: (``Device.catch_up``): after a take-back or a vote that can be a dozen small ones; the
#: characters (``wire.MAX_MESSAGE_CHARS``) are the real bound.
MAX_BATCH = 32
KINDS = ("invite", "start", "move", "deal", "resign", "leave", "join", "takeback", "answer", "full")
#: A take-back answer's ``t``.
ANSWERS = ("accept", "decline")
#: ``Device.take_back_refusal``'s keys, in words (the page says them from its catalogue).
TAKEBACK_REFUSALS = {
    "last": "only the last move can be taken back, by its player, before anyone plays again",
    "pending": "a take-back is already asked: it waits for the answers",
    "vote": "not while the table votes",
    "exchange": "an exchange cannot be taken back: its tiles are in the bag, mixed",
    "dispute": "a challenge, an accept or a vote is the table's decision: it cannot be taken back",
    "over": "the game is over",
}
_TURN_FIELDS = {"v", "k", "g", "n", "p", "f"}
#: Hints a seat may report having used in one game (a move's ``u``): far more than any game's moves.
MAX_HINTS = 9_999
#: A stop's kinds (``Device.stopped["kind"]``), from what the writer's device provably broke
#: (``deal.DealCheat.problem``'s key), each in words; the page says them from its catalogue
#: (``remote.stopped.<kind>``). Unknown keys are "other".
STOP_KINDS = {
    "step_proof": "deck", "setup_step": "deck", "reshuffle": "deck", "reshuffle_racks": "deck", "setup": "deck",
    "step_key": "key", "key_mismatch": "key",
    "share_proof": "share", "shares_wrong": "share",
    "tile_proof": "tile", "shown_wrong": "tile",
    "shares_owed": "shares",
    "cheated_card": "broken", "cheated_tile": "broken", "drawn_not_tile": "broken", "dealt_twice": "broken",
    "fork": "fork",
}
STOP_TEXTS = {
    "deck": "{name}'s device dealt cards that are not the deck",
    "key": "{name}'s device masked the deck with a key that is not its own",
    "share": "{name}'s device sent a false unmasking (a share whose proof fails)",
    "tile": "{name}'s device laid tiles it did not draw (its tile proof fails)",
    "shares": "{name}'s device withheld shares it owes, or sent shares it does not owe",
    "broken": "a card dealt to you is not a tile of the set: a setup or reshuffle step cheated",
    "fork": "{name} signed two different messages for message {n}: both are kept as evidence",
    "other": "{name}'s device broke the deal",
}
#: Fork evidence kept at most (each two signed messages): a bound on what a flood of forks can store.
MAX_FORKS = 4
#: ``RemoteGame.review_refusal``'s keys, in words (the page says them from its catalogue).
_REVIEW_REFUSALS = {
    "playing": "the game is not over, or keys are still to come",
    "unverified": "the deal did not verify, so the racks and draws cannot be rebuilt",
    "undealt": "the game ended before the bag was reshuffled after the last exchange",
}


class Refused(ValueError):
    """A message or command this device will not apply; ``str()`` is the one-line reason.

    ``malformed``: the input is not a message at all (the command line's exit 2); otherwise a
    message that is refused as it stands (exit 1). Either way the device is unchanged.
    """

    def __init__(self, reason: str, malformed: bool = False, key: str = "reason", **params: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.malformed = malformed
        #: A stable key for the page's catalogue (``remote.refused.<key>``) and its parameters;
        #: "reason": none fits, the English reason is the detail.
        self.key = key
        self.params = params if key != "reason" else {"detail": reason}
        #: A message that proves its writer cheated (a failed proof, a fork): what stops the game
        #: (``Device.stopped`` without its evidence, which the device adds). None: an ordinary refusal.
        self.stop: dict[str, Any] | None = None


@dataclass
class Event:
    """What opening a message did: words for the player, and any link this device must send."""

    text: str
    kind: str
    send: str | None = None
    changed: bool = True
    #: Every link to send, in order, when ``send`` is not enough alone (``Device.catch_up``).
    links: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"event": self.kind, "text": self.text, "send": self.send, "changed": self.changed,
                "links": list(self.links) if self.links else ([self.send] if self.send else [])}


@dataclass
class Hello:
    """A player as their invitation or join introduced them."""

    name: str
    key: bytes
    value: bytes  # the inviter's commitment, or a joiner's random value
    game: dict[str, Any] = field(default_factory=dict)


def check_name(name: Any) -> str:
    """A player's name with its spaces tidied; ``Refused`` unless 1-40 printable characters."""
    if not isinstance(name, str):
        raise Refused("a name is text", malformed=True)
    tidy = " ".join(name.split())
    if not tidy or len(tidy) > MAX_NAME_CHARS or not tidy.isprintable():
        raise Refused(f"a name is 1-{MAX_NAME_CHARS} printable characters", malformed=True)
    return tidy


def _commit(value: bytes) -> bytes:
    return sha256(b"scarab-remote/commit", value)


def _altered(what: str = "") -> Refused:
    return Refused("this link was altered" + (f" ({what})" if what else ""), key="altered")


def _envelopes(text: str) -> list[dict[str, Any]]:
    """The messages a link carries, in order (a single message, or a batch)."""
    try:
        data = unpack(text)
    except WireError as err:
        raise Refused(err.message, malformed=err.malformed) from None
    if isinstance(data, dict) and set(data) == {"b"}:
        batch = data["b"]
        if not isinstance(batch, list) or not 1 <= len(batch) <= MAX_BATCH:
            raise _altered("its list of messages is not readable")
        return batch
    return [data]


def _envelope(data: Any) -> tuple[dict[str, Any], bytes, bytes]:
    """``(content, signature, hash)`` of one message, its shape checked; ``Refused`` otherwise."""
    if not isinstance(data, dict) or set(data) != {"m", "s"} or not isinstance(data["m"], dict):
        raise _altered("it is not a message")
    m = data["m"]
    if m.get("v") != VERSION or m.get("k") not in KINDS or not isinstance(m.get("g"), str):
        raise _altered("its header is not readable")
    try:
        sig = unb64(data["s"], sign.SIGNATURE_BYTES)
        unb64(m["g"], 16)
    except ValueError:
        raise _altered("its signature or game id is malformed") from None
    return m, sig, digest(m)


def _single(text: str) -> tuple[dict[str, Any], bytes, bytes]:
    envelopes = _envelopes(text)
    if len(envelopes) != 1:
        raise Refused("this link holds several messages where one is expected")
    return _envelope(envelopes[0])


def game_of(text: str) -> str | None:
    """The game an invitation is for (None when ``text`` is not a readable invitation): a device
    needs to know it before it is made (Scarabeo needs its word list)."""
    try:
        m = _single(text)[0]
    except Refused:
        return None
    game = m.get("game")
    return game if m.get("k") == "invite" and isinstance(game, str) else None


def _int(m: Mapping[str, Any], key: str, low: int, high: int) -> int:
    value = m.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise _altered(f"its field {key} is not a number from {low} to {high}")
    return value


def _copy_stop(stop: Mapping[str, Any]) -> dict[str, Any]:
    return {**stop, "problem": dict(stop["problem"]), "evidence": list(stop["evidence"])}


def _copy_fork(fork: Mapping[str, Any]) -> dict[str, Any]:
    return {**fork, "messages": list(fork["messages"])}


def _damaged(what: str) -> Refused:
    return Refused(f"the remote game's state is damaged ({what})", malformed=True)


def _stored_stop(data: Any) -> dict[str, Any] | None:
    """A stop as ``to_json`` stored it (None: the game never stopped; a store from before stops)."""
    if data is None:
        return None
    if not isinstance(data, dict) or not (data.get("seat") is None or isinstance(data.get("seat"), int)) \
            or not (data.get("name") is None or isinstance(data.get("name"), str)) \
            or data.get("kind") not in STOP_TEXTS or not isinstance(data.get("problem"), dict) \
            or not isinstance(data["problem"].get("key"), str) or not isinstance(data.get("n"), int) \
            or not isinstance(data.get("text"), str) or not isinstance(data.get("evidence"), list) \
            or len(data["evidence"]) > 2 or not all(isinstance(t, str) for t in data["evidence"]) \
            or not isinstance(data.get("detail", ""), str):
        raise _damaged("its stop")
    return _copy_stop(data)


def _stored_forks(data: Any) -> list[dict[str, Any]]:
    if data is None:
        return []
    if not isinstance(data, list) or len(data) > MAX_FORKS or not all(
            isinstance(f, dict) and isinstance(f.get("n"), int) and isinstance(f.get("seat"), int)
            and isinstance(f.get("name"), str) and isinstance(f.get("messages"), list)
            and len(f["messages"]) == 2 and all(isinstance(t, str) for t in f["messages"]) for f in data):
        raise _damaged("its evidence")
    return [_copy_fork(f) for f in data]


def _hello(data: Any, first: bool, game: type[RemoteGame]) -> Hello:
    if not isinstance(data, dict):
        raise _altered("a player is not described")
    try:
        name = check_name(data.get("name"))
        if name != data.get("name"):
            raise ValueError
        key = unb64(data.get("key"), sign.PUBLIC_BYTES)
        value = unb64(data.get("c" if first else "r"), 32)
        sign.check_public(key)
    except (ValueError, Refused):
        raise _altered("a player's name, key or value is malformed") from None
    extra = {k: v for k, v in data.items() if k not in ("name", "key", "c", "r")}
    try:
        game.check_hello(extra)
    except ProtocolError as err:
        raise _altered(str(err)) from None
    return Hello(name, key, value, extra)


class Device:
    """One device's state: its secrets and the messages it accepted; the game is derived from them."""

    def __init__(self, secret: dict[str, Any], invitation: str, words: WordList | None = None,
                 rng: SeatRandom | None = None) -> None:
        self.secret = secret
        self.words = words
        self.rng = rng
        inv, sig, h = _single(invitation)
        if inv["k"] != "invite" or inv.get("n") != 0:
            raise Refused("this is not an invitation", key="not_invitation")
        known = games()
        game = inv.get("game")
        if not isinstance(game, str) or game not in known:
            raise _altered(f"it is for an unknown game {game!r}")
        self.kind: type[RemoteGame] = known[game]
        players = _int(inv, "N", MIN_PLAYERS, MAX_PLAYERS)
        options = inv.get("o")
        if not isinstance(options, dict):
            raise _altered("its options are not readable")
        try:
            self.options = self.kind.check_options(options, players)
        except OptionsError as err:
            raise Refused(f"this invitation cannot be played: {err}", key=f"options.{err.key}",
                          detail=str(err)) from None
        if self.options != options:
            raise _altered("its options are not as Scarab writes them")
        # Hints in a game between devices (issue 42): allowed only when the invitation, signed by
        # the inviter, says ``"hints": true``; absent (every invitation before) means no hints.
        if "hints" in inv and inv["hints"] is not True:
            raise _altered("its hints field is not as Scarab writes it")
        self.hints_allowed: bool = inv.get("hints") is True
        inviter = _hello(inv.get("h"), True, self.kind)
        if not sign.verify(inviter.key, h, sig):
            raise _altered("its signature does not match")
        self.game_name: str = game
        self.game_id: str = inv["g"]
        self.players = players
        #: Players in the order they came: the inviter, then each joiner as the start lists them.
        self.hellos: list[Hello] = [inviter]
        self.chain: list[str] = [invitation]
        self.hashes: list[bytes] = [h]
        #: For each message of the chain, its writer (player index) and its own index ``n`` (a
        #: crossed resignation's differs from its place): what each player is known to have.
        self.marks: list[tuple[int, int]] = [(0, 0)]
        #: The links to send now, in order (``catch_up`` when this device last wrote): one, unless
        #: what the others may lack does not fit one link. Not stored: ``catch_up`` makes it again.
        self.outbox: list[str] = []
        self.joins: list[str] = []  # inviter: joins received; others: joins seen
        self.own_join: str | None = None
        #: This device's answer came after the table was full: the inviter said so (``full_notice``).
        self.shut_out = False
        self.sent: str | None = invitation if secret.get("inviter") else None  # the last link sent
        self.me: int | None = 0 if secret.get("inviter") else None  # player index
        self.seat_of: list[int] = []
        self.game: RemoteGame | None = None
        self.ended: dict[str, Any] | None = None  # a resignation or a leave
        self.seed: bytes | None = None  # the joint seed, once the start has revealed it
        self.local: dict[str, Any] | None = None  # the game's saved state, while replaying
        self.replaying = False
        self.writing = False
        #: A take-back asked and not yet answered by everyone: the seat that asked, its move, the
        #: seats that answer (in this order) and those that accepted (rebuilt by replay).
        self.request: dict[str, Any] | None = None
        #: The game stopped on a proven cheat (docs/remote.md "Threat model (messages)"): who, what
        #: (``STOP_KINDS``), the line in English and the signed messages that prove it. This device
        #: then writes nothing more for the game: nothing more of its own is revealed.
        self.stopped: dict[str, Any] | None = None
        #: Two different messages signed by one seat for one index (each entry: its index, the
        #: writer's seat and name, both messages as signed), at most ``MAX_FORKS``.
        self.forks: list[dict[str, Any]] = []
        #: Hints each seat's device reported in its latest move (``u``), by seat; rebuilt by replay.
        self.hints_reported: list[int] = [0] * players
        #: Hints this device's player used (stored with the device): the next move reports them.
        self.own_hints = 0
        if secret.get("inviter"):
            self.last_text = f"you invited {players - 1} to {game}"
        elif "key" in secret:
            self.last_text = f"you accepted {inviter.name}'s invitation"
        else:
            self.last_text = f"{inviter.name} invites to {game} for {players}"

    # --- making a device -------------------------------------------------------------------
    @classmethod
    def invite(cls, game: str, name: str, players: int = 2, options: Mapping[str, Any] | None = None,
               words: WordList | None = None, rng: SeatRandom | None = None,
               hints: bool = False) -> tuple["Device", str]:
        """A new game on the inviter's device, and the invitation to send. ``words``: Scarabeo's
        word list; ``rng``: the randomness of a seat's deal, for reproducible tests only;
        ``hints``: whether the players may use hints (the invitation says so, signed; no by default)."""
        known = games()
        if game not in known:
            raise Refused(f"unknown game {game!r} (games: {', '.join(sorted(known))})", malformed=True)
        if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise Refused(f"remote play is for {MIN_PLAYERS}-{MAX_PLAYERS} players, not {players}", malformed=True)
        kind = known[game]
        try:
            opts = kind.check_options(dict(options or {}), players)
        except OptionsError as err:
            raise Refused(str(err), malformed=True, key=f"options.{err.key}", detail=str(err)) from None
        name = check_name(name)
        key = sign.new_secret()
        value = secrets.token_bytes(32)
        game_secret = kind.new_secret()
        secret = {"inviter": True, "key": b64(key), "value": b64(value), "game": game_secret}
        m = {"v": VERSION, "k": "invite", "g": b64(secrets.token_bytes(16)), "n": 0, "game": game,
             "N": players, "o": opts,
             "h": {"name": name, "key": b64(sign.public(key)), "c": b64(_commit(value)),
                   **kind.hello(game_secret)}}
        if hints is True:
            m["hints"] = True
        text = pack({"m": m, "s": b64(sign.sign(key, digest(m)))})
        return cls(secret, text, words, rng), text

    @classmethod
    def join(cls, invitation: str, name: str, words: WordList | None = None,
             rng: SeatRandom | None = None) -> tuple["Device", str]:
        """A joiner's device from the invitation, and the answer to send to the inviter."""
        name = check_name(name)
        probe = cls({"inviter": False}, invitation, words)
        key = sign.new_secret()
        value = secrets.token_bytes(32)
        game_secret = probe.kind.new_secret()
        secret = {"inviter": False, "key": b64(key), "value": b64(value), "game": game_secret}
        device = cls(secret, probe.chain[0], words, rng)
        m = {"v": VERSION, "k": "join", "g": device.game_id, "i": b64(device.hashes[0]),
             "h": {"name": name, "key": b64(sign.public(key)), "r": b64(value),
                   **device.kind.hello(game_secret)}}
        device.own_join = device.sent = pack({"m": m, "s": b64(sign.sign(key, digest(m)))})
        return device, device.own_join

    # --- storage ---------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        data = {"format": DEVICE_FORMAT, "version": DEVICE_VERSION, "secret": self.secret,
                "join": self.own_join, "joins": list(self.joins), "chain": list(self.chain),
                "sent": self.sent, "local": self.game.save() if self.game is not None else None}
        # Only when there is one: a device that saw no cheat stores exactly what it stored before.
        if self.stopped is not None:
            data["stopped"] = _copy_stop(self.stopped)
        if self.forks:
            data["forks"] = [_copy_fork(f) for f in self.forks]
        if self.shut_out:
            data["shut_out"] = True
        if self.own_hints:
            data["hints_used"] = self.own_hints
        return data

    @classmethod
    def from_json(cls, data: Any, words: WordList | None = None, rng: SeatRandom | None = None) -> "Device":
        """A device from what it stored: every message is checked and applied again (a game's own
        saved state, if it has one, stands for its secret steps), so a damaged store is refused
        like a bad link (``Refused``)."""
        if not isinstance(data, dict) or data.get("format") != DEVICE_FORMAT:
            raise Refused("this is not a remote game's state", malformed=True)
        if data.get("version") != DEVICE_VERSION:
            raise Refused(f"remote state version {data.get('version')!r} is not one this version reads",
                          malformed=True)
        secret, chain, joins, own, sent, local = (
            data.get(k) for k in ("secret", "chain", "joins", "join", "sent", "local"))
        if not isinstance(secret, dict) or not isinstance(chain, list) or not chain \
                or not isinstance(joins, list) or not all(isinstance(t, str) for t in (*chain, *joins)) \
                or not all(x is None or isinstance(x, str) for x in (own, sent)) \
                or not (local is None or isinstance(local, dict)):
            raise Refused("the remote game's state is damaged", malformed=True)
        device = cls(secret, chain[0], words, rng)
        device.own_join = own
        device.sent = sent
        device.local = local
        device.shut_out = data.get("shut_out") is True
        used = data.get("hints_used", 0)
        if not isinstance(used, int) or isinstance(used, bool) or not 0 <= used <= MAX_HINTS \
                or (used and not device.hints_allowed):
            raise Refused("the remote game's state is damaged (hints)", malformed=True)
        device.own_hints = used
        if device.me is not None:
            for text in joins:
                device._open_join(text, auto_start=False)
            if len(chain) > 1 and len(device.joins) != device.players - 1:
                raise Refused("the remote game's state is damaged (joins)", malformed=True)
        else:
            device.joins = list(joins)
        device.replaying = True
        try:
            for text in chain[1:]:
                m, sig, h = _single(text)
                device._open_chain(m, sig, h, text)
        finally:
            device.replaying = False
        device.local = None
        if device.game is not None:
            device.game.replayed()
        if device.seat is not None:  # never fewer than this device's own moves reported
            device.own_hints = max(device.own_hints, device.hints_reported[device.seat])
        # Read after the replay, which must not meet a stop (a store from before stops had none).
        device.stopped = _stored_stop(data.get("stopped"))
        device.forks = _stored_forks(data.get("forks"))
        return device

    # --- who is who ------------------------------------------------------------------------
    @property
    def started(self) -> bool:
        return self.game is not None

    @property
    def seat(self) -> int | None:
        return None if self.me is None or not self.seat_of else self.seat_of[self.me]

    def name_of_seat(self, seat: int) -> str:
        return self.hellos[self.seat_of.index(seat)].name

    def names(self) -> list[str]:
        """Names by seat (by arrival before the start)."""
        if not self.seat_of:
            return [h.name for h in self.hellos]
        return [self.name_of_seat(s) for s in range(self.players)]

    def over(self) -> bool:
        """No move is left: the game ended, or a player resigned or left."""
        return self.game is not None and self.game.over()

    def finished(self) -> bool:
        """Over, and no message is expected any more (Scarabeo: every key is in)."""
        return self.over() and self.next_sender() is None

    def next_sender(self) -> int | None:
        """The player (index) whose message comes next in the chain, None if none is due."""
        if self.game is None:
            return 0 if len(self.joins) == self.players - 1 or self.me != 0 else None
        seat = self._due_seat()
        return None if seat is None else self.seat_of.index(seat)

    def _due_seat(self) -> int | None:
        """The seat whose message comes next: the next answer while a take-back is asked."""
        assert self.game is not None
        if self.request is not None and not self.game.over():
            return int(next(s for s in self.request["order"] if s not in self.request["accepted"]))
        return self.game.next_sender()

    # --- opening messages ------------------------------------------------------------------
    def open(self, text: str) -> Event:
        """Check ``text`` and apply it; ``Refused`` (device unchanged) if it cannot be."""
        envelopes = _envelopes(text)
        parsed = [_envelope(e) for e in envelopes]
        for m, _, _ in parsed:
            if m["g"] != self.game_id:
                raise Refused("this link is not from this game", key="other")
        if parsed[0][0]["k"] != "join" and all(self._known(m, h) for m, _, h in parsed):
            raise Refused("already played", key="played")  # nothing to apply: nothing to undo
        if self.stopped is not None:
            raise self.stopped_refusal()
        saved = self.to_json()
        try:
            if parsed[0][0]["k"] == "join":
                if len(parsed) != 1:
                    raise _altered("a join travels alone")
                return self._open_join(pack(envelopes[0]))
            if parsed[0][0]["k"] == "full":
                if len(parsed) != 1:
                    raise _altered("a notice travels alone")
                return self._open_full(*parsed[0])
            events: list[Event] = []
            applied: list[str] = []
            for envelope, (m, sig, h) in zip(envelopes, parsed):
                if self._known(m, h):
                    continue  # a link with messages this device already has, then new ones
                text = pack(envelope)
                try:
                    events.append(self._open_chain(m, sig, h, text))
                except Refused as err:
                    if err.stop is None:
                        raise
                    return self._stop(err.stop, events, saved, applied)
                applied.append(text)
                found = self.game.broken() if self.game is not None and not self.over() else None
                if found is not None:  # the message stands (the others applied it too); the deal does not
                    return self._stop(self._stopping(None, found, int(m["n"])), events, None, applied)
            if not events:
                raise Refused("already played", key="played")
            sent = self._auto()
            event = events[-1] if len(events) == 1 else Event(
                "; ".join(e.text for e in events), events[-1].kind)
            event.send = sent
            event.links = list(self.outbox) if sent is not None else []
            return event
        except BaseException:
            self._restore(saved)  # a refusal half-way leaves the device as it was
            raise

    def _stopping(self, player: int | None, found: Mapping[str, Any], n: int, detail: str = "") -> dict[str, Any]:
        """The stop record for a cheat by ``player`` (None: not known, a deal found broken here);
        ``detail`` the check that failed, in the deal's own words (what the evidence proves)."""
        # No writer known: this device's own card read wrong, which only a setup or reshuffle step
        # (whose, the keys at the end would tell) can have caused.
        kind = "broken" if player is None else STOP_KINDS.get(str(found.get("key")), "other")
        name = None if player is None else self.hellos[player].name
        line = STOP_TEXTS[kind].format(name=name, n=n)
        return {"seat": None if player is None else self.seat_of[player], "name": name, "kind": kind,
                "problem": dict(found), "n": n, "evidence": [], "detail": detail,
                "text": f"{line}: the game is stopped, and nothing more of yours is revealed"}

    def _stop(self, stop: dict[str, Any], events: list[Event], saved: dict[str, Any] | None,
              applied: list[str]) -> Event:
        """Stop the game: the device as it was before the message that proves the cheat (``saved``,
        then the messages of the same link that came before it; None: as it is now), and the
        stop recorded with its evidence. A changed device, so the stop is saved like a message."""
        if saved is not None:
            self._restore(saved)
            try:
                for text in applied:
                    m, sig, h = _single(text)
                    self._open_chain(m, sig, h, text)
            except Refused:  # they applied a moment ago: only a stop behind them
                self._restore(saved)
        self.stopped = stop
        if stop["kind"] == "fork" and stop["seat"] is not None and len(self.forks) < MAX_FORKS \
                and all(f["messages"] != stop["evidence"] for f in self.forks):
            self.forks.append({"n": stop["n"], "seat": stop["seat"], "name": stop["name"],
                               "messages": list(stop["evidence"])})
        self.last_text = stop["text"]
        return Event("; ".join([*(e.text for e in events), stop["text"]]), "stopped")

    def stopped_refusal(self) -> Refused:
        """What every act refuses with once the game stopped (``Refused`` key ``stopped``)."""
        stop = self.stopped
        assert stop is not None
        return Refused(f"the game is stopped: {stop['text']}", key="stopped", name=stop["name"] or "",
                       kind=stop["kind"], n=str(stop["n"]))

    def _known(self, m: Mapping[str, Any], h: bytes) -> bool:
        """Whether this message is already in this device's chain."""
        n = m.get("n")
        # A crossed resignation is kept after the move it crossed, past its own index.
        return isinstance(n, int) and 0 <= n < len(self.hashes) and h in self.hashes[n:]

    def _restore(self, saved: dict[str, Any]) -> None:
        self.__dict__.update(Device.from_json(saved, self.words, self.rng).__dict__)

    def full_notice(self, join: str) -> str:
        """The inviter's answer to a join that came after the table was full (issue 42: its writer
        used to wait for ever): a signed notice, outside the chain, naming that join, for the
        inviter to send its writer. ``Refused`` unless this device invited and ``join`` is a join
        of this game that it refused as late."""
        if self.me != 0:
            raise Refused("only the inviter says that the table is full", key="reason")
        m, sig, h = _single(join)
        if m["k"] != "join" or m["g"] != self.game_id or m.get("i") != b64(self.hashes[0]):
            raise Refused("this link is not from this game", key="other")
        hello = _hello(m.get("h"), False, self.kind)
        if not sign.verify(hello.key, h, sig):
            raise _altered("its signature does not match")
        if join in self.joins or not (self.started or len(self.joins) >= self.players - 1):
            raise Refused("this join is not one the full table refused", key="reason")
        notice = {"v": VERSION, "k": "full", "g": self.game_id, "i": b64(self.hashes[0]), "j": b64(h),
                  "N": self.players}
        return self._signed(notice)

    def _open_full(self, m: Mapping[str, Any], sig: bytes, h: bytes) -> Event:
        """The inviter's notice that the table was full when this device's answer came."""
        if set(m) != {"v", "k", "g", "i", "j", "N"} or m.get("i") != b64(self.hashes[0]):
            raise Refused("this link is not from this game", key="other")
        if not sign.verify(self.hellos[0].key, h, sig):
            raise _altered("its signature does not match")
        own = None if self.own_join is None else _single(self.own_join)[2]
        if own is None or m["j"] != b64(own):
            raise Refused("this notice is for another player's answer", key="reason")
        if self.started:
            raise Refused("already played", key="played")
        already = self.shut_out
        self.shut_out = True
        event = Event(f"{self.hellos[0].name}'s game already has its {self.players} players: "
                      "this device is not in it", "full")
        event.changed = not already
        return event

    def _open_join(self, text: str, auto_start: bool = True) -> Event:
        m, sig, h = _single(text)
        if m["g"] != self.game_id or m.get("i") != b64(self.hashes[0]) or set(m) != {"v", "k", "g", "i", "h"}:
            raise Refused("this link is not from this game", key="other")
        hello = _hello(m.get("h"), False, self.kind)
        if not sign.verify(hello.key, h, sig):
            raise _altered("its signature does not match")
        if self.me != 0:
            if text == self.own_join or text in self.joins:
                raise Refused("already played", key="played")
            self.joins.append(text)
            return Event(f"{hello.name} accepted {self.hellos[0].name}'s invitation; "
                         f"the game starts with {self.hellos[0].name}'s next link", "join")
        known = [_single(t)[0]["h"]["key"] for t in self.joins]
        if b64(hello.key) in known:
            raise Refused("already played", key="played")
        if self.started or len(self.joins) >= self.players - 1:
            raise Refused(f"this game already has its {self.players} players", key="full", n=str(self.players))
        if hello.key == self.hellos[0].key:
            raise _altered("it uses the inviter's key")
        self.joins.append(text)
        waiting = self.players - 1 - len(self.joins)
        if waiting or not auto_start:
            return Event(f"{hello.name} joined; waiting for {waiting} more", "join")
        m = {"v": VERSION, "k": "start", "g": self.game_id, "n": 1, "p": b64(self.hashes[0]),
             "j": [unpack(t) for t in self.joins], "r": self.secret["value"]}
        texts = [self._emit(m)]
        event = Event(f"{hello.name} joined; the game starts: send this link to everyone", "start")
        event.send = self._send(texts + self._auto_texts())
        return event

    def _signed(self, m: dict[str, Any]) -> str:
        key = unb64(self.secret["key"], sign.SECRET_BYTES)
        return pack({"m": m, "s": b64(sign.sign(key, digest(m)))})

    def _sender_name(self, player: int | None) -> str:
        if player is None:
            return "nobody"
        return self.hellos[player].name if player < len(self.hellos) else "the inviter"

    def _open_chain(self, m: dict[str, Any], sig: bytes, h: bytes, text: str) -> Event:
        if m["k"] == "invite":
            if h == self.hashes[0]:
                raise Refused("already played", key="played")
            raise Refused("this link is not from this game", key="other")
        if m["k"] == "join":
            raise _altered("a join is not part of the game's chain")
        n = _int(m, "n", 1, 1_000_000)
        sender = self._claimed_sender(m)
        if sender is not None and not sign.verify(self.hellos[sender].key, h, sig):
            raise _altered("its signature does not match")
        length = len(self.chain)
        if n < length and h in self.hashes[n:]:
            raise Refused("already played", key="played")
        if n < length and sender is not None and sender != self.me and not (self.replaying or self.writing):
            self._check_fork(n, sender, text)
        if n < length and m["k"] in ("resign", "leave") and not self.over() \
                and m.get("p") == b64(self.hashes[n - 1]) and self.game is not None and self.game.END_ANY_TIME:
            return self._crossed(m, h, text)
        if self.game is not None and (self.finished() or (self.over() and m["k"] != "deal")):
            raise Refused(f"the game is over ({self.last_text})", key="over")
        if n > length:
            # The seat due writes the missing message (or passes it on), and its "send my last
            # link again" carries every message this device is not known to have: say so.
            name = self._sender_name(self.next_sender())
            raise Refused(f"open {name}'s previous link first (message {length} of this game is missing: "
                          f"{name}'s last link, sent again, carries it)", key="order", name=name, n=str(length))
        if n == length - 1 and m["k"] == "move" and self.request is not None and not self.request["accepted"] \
                and self.request["n"] == n and m.get("p") == b64(self.hashes[n - 1]):
            return self._crossed_request(m, sig, h, text)
        if n < length:
            raise Refused(f"this link conflicts with message {n}, already played", key="conflict", n=str(n))
        if m.get("p") != b64(self.hashes[-1]):
            raise _altered("it does not follow the previous message")
        if m["k"] == "start":
            event = self._start(m)
        elif sender is None:
            # Only a start can reach a device that has not started; anything later is out of order.
            name = self.hellos[0].name
            raise Refused(f"open {name}'s previous link first (message 1 of this game is missing: "
                          f"{name}'s last link, sent again, carries it)", key="order", name=name, n="1")
        else:
            try:
                event = self._turn(m, sender)
            except Refused as err:
                if err.stop is not None:
                    err.stop["evidence"] = [text]
                raise
        self.chain.append(text)
        self.hashes.append(h)
        self.marks.append((0 if sender is None else sender, n))
        self.last_text = event.text
        return event

    def _check_fork(self, n: int, sender: int, text: str) -> None:
        """Refuse, as a proven cheat, a second message for index ``n`` signed by the player who
        signed the one this device has: no honest device writes two (the chain is one order, each
        index written once by the seat that is due). Messages of different seats that crossed in
        the post (a resignation and a move, a take-back request and the move it missed) are not
        this, and are handled by ``_crossed`` and ``_crossed_request``. A fork of this device's own
        key is no cheat of another's (a copy of this device wrote it): refused as a conflict."""
        stored = _single(self.chain[n])[0]
        if stored.get("n") != n or self._claimed_sender(stored) != sender:
            return
        name = self.hellos[sender].name
        refused = Refused(f"{name} signed two different messages for message {n}", key="fork", name=name,
                          n=str(n))
        refused.stop = self._stopping(sender, {"key": "fork", "n": n}, n)
        refused.stop["evidence"] = [self.chain[n], text]
        raise refused

    def _claimed_sender(self, m: Mapping[str, Any]) -> int | None:
        """The player whose key must have signed ``m`` (None: not known on this device yet)."""
        if m["k"] == "start":
            return 0
        if not self.seat_of:
            return None
        seat = _int(m, "f", 0, self.players - 1)
        return self.seat_of.index(seat)

    def _start(self, m: Mapping[str, Any]) -> Event:
        if set(m) != {"v", "k", "g", "n", "p", "j", "r"} or not isinstance(m["j"], list) \
                or len(m["j"]) != self.players - 1:
            raise _altered("the start does not list every player")
        try:
            value = unb64(m["r"], 32)
        except ValueError:
            raise _altered("the inviter's value is malformed") from None
        if _commit(value) != self.hellos[0].value:
            raise Refused("the inviter's random value is not the one committed to in the invitation",
                          key="commitment")
        hellos = [self.hellos[0]]
        joins: list[str] = []
        for envelope in m["j"]:
            text = pack(envelope)
            jm, jsig, jh = _single(text)
            if jm["k"] != "join" or jm["g"] != self.game_id or jm.get("i") != b64(self.hashes[0]):
                raise _altered("a player's join is not for this game")
            hello = _hello(jm.get("h"), False, self.kind)
            if not sign.verify(hello.key, jh, jsig):
                raise _altered("a player's join is not signed by them")
            if any(hello.key == other.key for other in hellos):
                raise _altered("a player is listed twice")
            hellos.append(hello)
            joins.append(text)
        own = self.secret.get("key")
        own_key = sign.public(unb64(own, sign.SECRET_BYTES)) if isinstance(own, str) else None
        mine = [i for i, hello in enumerate(hellos) if hello.key == own_key]
        if self.me is None and not mine:
            raise Refused("this game started without you: your answer did not reach the inviter in time",
                          key="without_you")
        seed = sha256(b"scarab-remote/seed", unb64(self.game_id, 16), value, *(h.value for h in hellos[1:]))
        order = sorted(range(self.players), key=lambda i: sha256(b"scarab-remote/seat", seed, bytes([i])))
        seat_of = [order.index(i) for i in range(self.players)]
        me = mine[0] if mine else self.me
        setup = Setup(self.options, self.players, seed, unb64(self.game_id, 16),
                      [hellos[order[s]].name for s in range(self.players)],
                      [hellos[order[s]].game for s in range(self.players)],
                      None if me is None else seat_of[me], self.secret.get("game", {}),
                      self.local, self.words, self.rng)
        try:
            game = self.kind.variant(self.options)(setup)
        except (ProtocolError, ValueError) as err:
            raise Refused(f"the game cannot start: {err}") from None
        self.hellos, self.seat_of, self.me, self.game, self.seed = hellos, seat_of, me, game, seed
        if self.me != 0:
            self.joins = joins
        return Event(f"the game starts: {', '.join(self.names())}", "start")

    def _turn(self, m: Mapping[str, Any], sender: int) -> Event:
        assert self.game is not None
        game = self.game
        seat = self.seat_of[sender]
        name = self.hellos[sender].name
        kind = m["k"]
        if set(m) - _TURN_FIELDS - ({"t", "x", "u"} if kind == "move" else {"t", "x"}) \
                or not isinstance(m.get("x", {}), dict):
            raise _altered(f"the {kind} message has unexpected fields")
        extra = m.get("x", {})
        if kind == "takeback":
            return self._asked(m, seat, name, extra)
        due = self._due_seat()
        if self.request is not None and (kind == "move" or (kind in ("resign", "leave") and not game.END_ANY_TIME)):
            waited = self._sender_name(self.next_sender())
            asker = self.name_of_seat(self.request["seat"])
            raise Refused(f"{asker} asked to take back a move: {waited} answers first",
                          key="takeback_waits", name=asker, due=waited)
        # This device's own messages were checked before they were written (their deal steps
        # already moved the deal on); stored messages were checked when they came.
        trusted = self.replaying or self.writing
        if due != seat and not trusted and not (kind in ("resign", "leave") and game.END_ANY_TIME):
            waited = self._sender_name(self.next_sender())
            if self.request is not None and kind != "answer":
                asker = self.name_of_seat(self.request["seat"])
                raise Refused(f"{asker} asked to take back a move: {waited} answers first",
                              key="takeback_waits", name=asker, due=waited)
            raise Refused(f"this is {name}'s message, but {waited} is to play", key="turn", name=name,
                          due=waited)
        try:
            if kind in ("resign", "leave"):
                if "t" in m:
                    raise _altered(f"the {kind} message has unexpected fields")
                return self._end(kind, seat, name, extra)
            if kind == "deal":
                if "t" in m:
                    raise _altered("a deal message carries no move")
                return Event(game.apply_deal(seat, extra), "deal")
            if kind == "answer":
                return self._answered(m, seat, name, extra)
            if not isinstance(m.get("t"), str) or len(m["t"]) > 200:
                raise _altered("the move is not readable")
            used = self._hints_of(m, seat, name)
            try:
                done = game.apply(seat, m["t"], extra)
            except (IllegalMove, NotationError) as err:
                raise Refused(f"{name}'s move {m['t']} is not legal here: {err}", key="illegal", name=name,
                              move=m["t"], detail=str(err)) from None
            if used is not None:
                self.hints_reported[seat] = used
        except ProtocolError as err:
            refused = Refused(f"{name}'s message is refused: {err}", key=err.key, name=name, detail=str(err))
            if err.key == "cheat" and not trusted:
                # The writer's signature verified and its message was the one due: it proves the cheat.
                refused.stop = self._stopping(sender, err.found or {"key": "reason", "detail": str(err)},
                                              int(m["n"]), str(err))
            raise refused from None
        text = f"{name} played {done['move']}"
        if game.over():
            text += "; the game is over"
        return Event(text, "move")

    # --- hints (docs/remote.md "Hints") -------------------------------------------------------
    def _hints_of(self, m: Mapping[str, Any], seat: int, name: str) -> int | None:
        """The hints a move reports its writer's seat used so far (``u``), checked: none when the
        invitation allows no hints; when it allows them, every move carries the count, never fewer
        than the seat's previous move reported. None: nothing to record."""
        if not self.hints_allowed:
            if "u" in m:
                raise Refused(f"{name}'s message is refused: this game allows no hints (its invitation says so)",
                              key="hints_refused", name=name)
            return None
        used = m.get("u")
        if not isinstance(used, int) or isinstance(used, bool) or not 0 <= used <= MAX_HINTS:
            raise Refused(f"{name}'s message is refused: a move of this game says how many hints its player "
                          "used, and this one does not", key="hints_count", name=name)
        if used < self.hints_reported[seat]:
            raise Refused(f"{name}'s message is refused: it reports {used} hints used, fewer than the "
                          f"{self.hints_reported[seat]} reported before", key="hints_fewer", name=name,
                          n=str(used), before=str(self.hints_reported[seat]))
        return int(used)

    def use_hint(self) -> int:
        """This device's player takes a hint (the page's Hint, ``remote hint``): refused in words when
        the invitation allows none, or when it is not this seat's turn; counted here, and reported
        to the others with this seat's next move. The hints used so far."""
        if not self.hints_allowed:
            raise Refused("hints are not allowed in this game: its invitation says so", key="hints_off")
        seat = self._my_seat()
        assert self.game is not None
        if self.request is not None or self.game.next_sender() != seat:
            due = self._sender_name(self.next_sender())
            raise Refused(f"it is {due}'s turn, not yours: a hint is for your own turn", key="not_your_turn",
                          name=due)
        if self.own_hints >= MAX_HINTS:
            raise Refused(f"no more than {MAX_HINTS} hints in one game", key="reason")
        self.own_hints += 1
        return self.own_hints

    def hints_used(self) -> list[int] | None:
        """By seat, the hints each player used as its device reported them with its latest move (this
        device's own seat: its own count, reported or not yet); None when the game allows no hints
        or has not started."""
        if not self.hints_allowed or self.game is None:
            return None
        used = list(self.hints_reported)
        if self.seat is not None:
            used[self.seat] = max(used[self.seat], self.own_hints)
        return used

    # --- take-back requests (docs/remote.md "Take-back requests") --------------------------------
    def take_back_refusal(self, seat: int | None = None) -> str | None:
        """Why ``seat`` (default: this device's) may not ask to take back its last move now: a key
        of ``TAKEBACK_REFUSALS``; None when it may. Only the chain's last message, a move of its
        own; never at the end, nor while a take-back is asked."""
        seat = self.seat if seat is None else seat
        if self.game is None or seat is None:
            return "last"
        if self.over():
            return "over"
        if self.request is not None:
            return "pending"
        last = _single(self.chain[-1])[0]
        if last["k"] != "move" or last.get("f") != seat:
            return "last"
        return self.game.take_back_refusal(seat)

    def _last_move_text(self) -> str:
        return str(_single(self.chain[-1])[0].get("t", ""))

    def _asked(self, m: Mapping[str, Any], seat: int, name: str, extra: Mapping[str, Any]) -> Event:
        assert self.game is not None
        if extra or not isinstance(m.get("t"), str):
            raise _altered("a take-back request names the move, and nothing more")
        why = self.take_back_refusal(seat)
        if why is not None:
            raise Refused(f"{name} cannot take back a move now: {TAKEBACK_REFUSALS[why]}",
                          key=f"takeback_{why}", name=name)
        if m["t"] != self._last_move_text():
            raise _altered("the take-back names another move than the last")
        order = [(seat + k) % self.players for k in range(1, self.players)]
        self.request = {"seat": seat, "move": m["t"], "order": order, "accepted": [], "n": len(self.chain)}
        waiting = self.name_of_seat(order[0])
        return Event(f"{name} asks to take back their move {m['t']}; {waiting} answers", "takeback")

    def _answered(self, m: Mapping[str, Any], seat: int, name: str, extra: Mapping[str, Any]) -> Event:
        assert self.game is not None
        request = self.request
        if request is None:  # the turn check let it through: nothing is asked
            raise Refused(f"{name} answers a take-back nobody asked", key="takeback_none", name=name)
        answer = m.get("t")
        if answer not in ANSWERS:
            raise _altered("a take-back answer is accept or decline")
        asker = self.name_of_seat(request["seat"])
        if answer == "decline":
            if extra:
                raise _altered("a declined take-back carries nothing more")
            self.request = None
            return Event(f"{name} declined: {asker}'s move {request['move']} stands", "takeback_declined")
        request["accepted"].append(seat)
        if len(request["accepted"]) < len(request["order"]):
            if extra:
                raise _altered("only the last acceptance of a take-back carries more")
            waiting = self.name_of_seat(self._due_seat() or 0)
            return Event(f"{name} accepted {asker}'s take-back; {waiting} answers", "takeback")
        self.game.take_back(request["seat"], seat, extra)
        self.request = None
        return Event(f"{asker}'s move {request['move']} is taken back; {asker} plays again",
                     "takeback_accepted")

    def _crossed_request(self, m: dict[str, Any], sig: bytes, h: bytes, text: str) -> Event:
        """A move written before the take-back request reached its writer (they crossed in the
        post): the move stands, and the request, which nobody answered, is withdrawn here (its
        writer's device drops it; the others refused it as a conflict)."""
        assert self.request is not None
        asker = self.name_of_seat(self.request["seat"])
        data = self.to_json()
        data["chain"] = data["chain"][:-1]
        self.__dict__.update(Device.from_json(data, self.words, self.rng).__dict__)
        event = self._open_chain(m, sig, h, text)
        event.text = f"{event.text} before {asker}'s take-back request: the move stands, the request is withdrawn"
        event.kind = "takeback_withdrawn"
        return event

    def ask_take_back(self) -> str:
        """Ask the others to take back this device's last move; the link for the others."""
        seat = self._my_seat()
        why = self.take_back_refusal(seat)
        if why is not None:
            raise Refused(f"you cannot take back a move now: {TAKEBACK_REFUSALS[why]}",
                          key=f"takeback_{why}", name=self.name_of_seat(seat))

        def write() -> str:
            m = self._header("takeback", seat)
            m["t"] = self._last_move_text()
            return self._emit(m)

        return self._act(write)

    def answer_take_back(self, accept: bool) -> str:
        """Accept or decline the take-back asked; the link for the others."""
        seat = self._my_seat()
        assert self.game is not None
        if self.request is None:
            raise Refused("nobody asks to take back a move", key="takeback_none", name="")
        if self._due_seat() != seat:
            due = self._sender_name(self.next_sender())
            raise Refused(f"{due} answers first", key="not_your_turn", name=due)
        request = self.request

        def write() -> str:
            assert self.game is not None
            m = self._header("answer", seat)
            m["t"] = "accept" if accept else "decline"
            if accept and len(request["accepted"]) == len(request["order"]) - 1:
                extra = self.game.take_back_extra(request["seat"], self.secret.get("game", {}))
                if extra:
                    m["x"] = extra
            return self._emit(m)

        try:
            return self._act(write)
        except ProtocolError as err:
            raise Refused(str(err), key=err.key, detail=str(err)) from None

    def _end(self, kind: str, seat: int, name: str, extra: Mapping[str, Any]) -> Event:
        assert self.game is not None
        self.request = None
        self.game.end(seat, extra)
        self.ended = {"reason": "resigned" if kind == "resign" else "left", "seat": seat, "name": name}
        verb = "resigned" if kind == "resign" else "left the game"
        return Event(f"{name} {verb}; the game is over", kind)

    def _crossed(self, m: dict[str, Any], h: bytes, text: str) -> Event:
        """A resignation or a leave written before a move this device already has: the two
        crossed in the post. It ends the game here too (it is the sender's last word), stored
        at the end of the chain with the index it was written at. Only where nothing follows an
        end (Thot, Scarabya): Scarabeo's end is followed by every seat's keys, in order."""
        sender = self._claimed_sender(m)
        assert sender is not None and self.game is not None
        if set(m) != _TURN_FIELDS:
            raise _altered(f"the {m['k']} message has unexpected fields")
        event = self._end(m["k"], self.seat_of[sender], self.hellos[sender].name, {})
        self.chain.append(text)
        self.hashes.append(h)
        self.marks.append((sender, int(m["n"])))
        self.last_text = event.text
        return event

    # --- this device's own messages ---------------------------------------------------------
    def _my_seat(self) -> int:
        if self.stopped is not None:
            raise self.stopped_refusal()
        if self.game is None or self.seat is None:
            raise Refused("the game has not started yet: wait for the start link", key="not_started")
        if self.over():
            raise Refused(f"the game is over ({self.last_text})", key="over")
        return self.seat

    def _emit(self, m: dict[str, Any]) -> str:
        text = self._signed(m)
        m2, sig, h = _single(text)
        self.writing = True
        try:
            self._open_chain(m2, sig, h, text)
        finally:
            self.writing = False
        return text

    def _header(self, kind: str, seat: int) -> dict[str, Any]:
        return {"v": VERSION, "k": kind, "g": self.game_id, "n": len(self.chain),
                "p": b64(self.hashes[-1]), "f": seat}

    def _auto_texts(self) -> list[str]:
        """The messages this device writes on its own now (its steps of a deal), in order."""
        texts: list[str] = []
        while self.stopped is None and self.game is not None and self.seat is not None and len(texts) < MAX_BATCH:
            extra = self.game.auto(self.secret.get("game", {}))
            if extra is None:
                break
            m = self._header("deal", self.seat)
            m["x"] = extra
            texts.append(self._emit(m))
        return texts

    def _auto(self) -> str | None:
        texts = self._auto_texts()
        return self._send(texts) if texts else None

    def _send(self, texts: list[str]) -> str:
        """The link for messages just written (the others open them in order), with every earlier
        message some other seat may lack (``catch_up``): a link sent late, or not at all, is never
        a gap the next one cannot cross. Several links only when that does not fit one; the last
        is returned, ``outbox`` has them all."""
        links = self.catch_up() if self.started and self.me is not None else [self._batch(texts)]
        self.outbox = links
        self.sent = links[-1]
        return links[-1]

    @staticmethod
    def _batch(texts: list[str]) -> str:
        return texts[0] if len(texts) == 1 else pack({"b": [unpack(t) for t in texts]})

    def acknowledged(self) -> list[int]:
        """For each player (by arrival), how many of the chain's first messages it is known to
        have: a message's ``p`` names its predecessor, so its writer had every message before it
        (a join names the invitation). A lower bound: a player may have more."""
        have = [1] * self.players
        for i, (writer, n) in enumerate(self.marks):
            # a crossed resignation (stored after the move it crossed) proves only what preceded it
            have[writer] = max(have[writer], i + 1 if n == i else n)
        if self.me is not None:
            have[self.me] = len(self.chain)
        return have

    def catch_up(self) -> list[str]:
        """The links that carry, in order, every message of the chain some other seat may lack
        (``acknowledged``): normally one, its messages as a batch (each still its writer's, so a
        device skips those it has and applies the rest). When that is more than a link holds, the
        longest tail that fits and still holds every message of this device's own that someone
        lacks (the others' are in their own writers' links); when even those do not fit, several
        links, to be sent in order. Empty before this device is in a started game."""
        if not self.started or self.me is None:
            return [self.sent] if self.sent is not None else []
        have = self.acknowledged()
        low = max(1, min(h for p, h in enumerate(have) if p != self.me))
        end = len(self.chain)
        if low >= end:  # everyone has everything: the last link stands as it was
            return [self.sent] if self.sent is not None else []
        own = next((i for i in range(low, end) if self.marks[i][0] == self.me), end - 1)
        for first in range(low, own + 1):
            texts = self.chain[first:]
            if len(texts) > MAX_BATCH or sum(len(t) for t in texts) > 2 * MAX_MESSAGE_CHARS:
                continue  # far too long: not worth packing
            try:
                return [self._batch(texts)]
            except WireError:
                continue
        links: list[str] = []
        texts = []
        for text in self.chain[own:]:
            try:
                candidate = self._batch(texts + [text]) if len(texts) < MAX_BATCH else None
            except WireError:
                candidate = None
            if candidate is None:
                links.append(self._batch(texts))
                texts = []
            texts.append(text)
        links.append(self._batch(texts))
        return links

    def _act(self, write: Any) -> str:
        saved = self.to_json()
        try:
            texts = [write()]
            return self._send(texts + self._auto_texts())
        except BaseException:
            self._restore(saved)
            raise

    def play(self, move: str) -> str:
        """Play ``move`` (the engine's notation) for this device's seat; the link for the others."""
        seat = self._my_seat()
        assert self.game is not None
        if self.request is not None:
            asker = self.name_of_seat(self.request["seat"])
            due = self._sender_name(self.next_sender())
            raise Refused(f"{asker} asked to take back a move: {due} answers first",
                          key="takeback_waits", name=asker, due=due)
        if self.game.next_sender() != seat:
            due = self._sender_name(self.next_sender())
            raise Refused(f"it is {due}'s turn, not yours", key="not_your_turn", name=due)

        def write() -> str:
            assert self.game is not None
            try:
                text, extra = self.game.outgoing(move, self.secret.get("game", {}))
            except (IllegalMove, NotationError, ProtocolError) as err:
                raise Refused(str(err), key="own_move", detail=str(err)) from None
            m = self._header("move", seat)
            m["t"] = text
            if extra:
                m["x"] = extra
            if self.hints_allowed:  # the hints this seat used so far, for every device to see
                m["u"] = self.own_hints
            return self._emit(m)

        return self._act(write)

    def _quit(self, kind: str) -> str:
        seat = self._my_seat()
        assert self.game is not None
        if not self.game.END_ANY_TIME and (self.game.next_sender() != seat or self.request is not None):
            raise Refused(f"wait for your turn to {kind} in {self.game_name}: every seat's keys "
                          "follow it in turn order", key=f"{kind}_turn")

        def write() -> str:
            assert self.game is not None
            m = self._header(kind, seat)
            extra = self.game.end_extra(self.secret.get("game", {}))
            if extra:
                m["x"] = extra
            return self._emit(m)

        return self._act(write)

    def resign(self) -> str:
        return self._quit("resign")

    def leave(self) -> str:
        return self._quit("leave")

    def early(self) -> str:
        """Live play: what this device sends at once outside the chain (``RemoteGame.early``): ""
        when nothing, or once the game stopped."""
        if self.stopped is not None or self.game is None or not self.started:
            return ""
        return self.game.early()

    def read_early(self, seat: int, part: str) -> bool:
        """Another device's ``early`` part, its writer's seat given by the channel's greeting: checked
        by the game (a false one: ``Refused``, nothing changed); whether anything changed here."""
        if self.stopped is not None or self.game is None or not self.started:
            return False
        if not isinstance(seat, int) or not 0 <= seat < self.players or seat == self.seat:
            raise Refused("an early part from no other seat of this game", malformed=True)
        if not isinstance(part, str) or len(part) > MAX_MESSAGE_CHARS:
            raise Refused("an early part that is not text of a link's length", malformed=True)
        try:
            return self.game.read_early(seat, part)
        except ProtocolError as err:
            raise Refused(f"an early part is refused: {err}", key="protocol", name="", detail=str(err)) from None

    def resend(self, start: int | None = None) -> str:
        """This device's last link again, for a friend who missed it or got only a later one:
        every message some other seat may lack (``catch_up``; when nobody lacks any, the last link
        sent, the same text). Opening it gets any other device of the game going: it skips what it
        has. When it takes several links, the first (``resend_all`` gives them all, in order). With
        ``start``, the game's messages from that index on, whoever wrote them, in one link (as many
        as fit): each is signed by its writer, so any device can pass on what another missed."""
        if start is None:
            return self.resend_all()[0]
        if not 1 <= start < len(self.chain):
            raise Refused(f"this device has messages 1 to {len(self.chain) - 1}, not {start}", malformed=True)
        envelopes = [unpack(t) for t in self.chain[start:start + MAX_BATCH]]
        while len(envelopes) > 1:
            try:
                return pack({"b": envelopes})
            except WireError:
                envelopes.pop()
        return self.chain[start]

    def resend_all(self) -> list[str]:
        """Every link ``resend`` stands for, in the order to send them (normally one)."""
        links = self.catch_up()
        if not links:
            raise Refused("this device has sent nothing yet", key="nothing_sent")
        self.outbox = links
        return links

    # --- what the player sees ---------------------------------------------------------------
    def show(self) -> dict[str, Any]:
        waiting = self.next_sender()
        out: dict[str, Any] = {
            "game": self.game_name,
            "game_id": self.game_id,
            "seat": self.seat,
            "names": self.names(),
            "players": self.players,
            "options": self.options,
            # whether the invitation allows hints, and (once started) each seat's count as its
            # device reports it (this device's own: its own count); None when not allowed
            "hints": self.hints_allowed,
            "hints_used": self.hints_used(),
            "phase": "over" if self.over() else "play" if self.started else "joining",
            "to_move": None if self.game is None or self.over() else self.game.next_sender(),
            "your_turn": waiting is not None and waiting == self.me and self.started,
            "waiting_for": None if waiting is None or waiting == self.me else self._sender_name(waiting),
            "messages": len(self.chain),
            "last": self.last_text,
            "over": self.over(),
            "scores": None,
            "position": None,
            "rack": None,
            "verified": None,
            "failures": [],
            "problems": [],
            "result": None,
            "takeback": None,
            "can_take_back": False,
            # this device's answer came when the table was full (the inviter's notice): not in it
            "shut_out": self.shut_out,
        }
        if self.game is not None:
            out.update(self.game.view(self.secret.get("game", {})))
            if self.finished():
                out["verified"], out["failures"] = self.game.verified()
                out["problems"] = self.game.problems()
            if self.over():
                out["result"] = self.result()
            request = self.request
            if request is not None and not self.over():
                out["takeback"] = {"seat": request["seat"], "name": self.name_of_seat(request["seat"]),
                                   "move": request["move"], "accepted": list(request["accepted"]),
                                   "answers": list(request["order"]),
                                   "waiting_for": self._sender_name(self.next_sender()),
                                   "your_answer": self.seat is not None and self._due_seat() == self.seat}
            out["can_take_back"] = self.seat is not None and self.take_back_refusal() is None
        # Keys still due after the end (Scarabeo): the result stands as played, unverified until
        # they come; a device cannot know that they never will.
        due = self.next_sender() if self.over() and self.stopped is None else None
        out["keys_awaited"] = None if due is None else {"seat": self.seat_of[due], "name": self._sender_name(due)}
        out["stopped"] = None if self.stopped is None else _copy_stop(self.stopped)
        out["forks"] = [_copy_fork(f) for f in self.forks]
        if self.stopped is not None:  # this device writes nothing more for the game
            out.update({"your_turn": False, "waiting_for": None, "can_take_back": False, "legal": [],
                        "takeback": None})
        return out

    def result(self) -> dict[str, Any] | None:
        if self.game is None or not self.over():
            return None
        if self.ended is not None:
            scores = self.game.scores()
            others = [s for s in range(self.players) if s != self.ended["seat"]]
            winners: list[int] = []
            if self.ended["reason"] == "resigned":
                best = max(scores[s] for s in others)
                winners = [s for s in others if scores[s] == best]
            return {"reason": self.ended["reason"], "by": self.ended["seat"], "scores": scores,
                    "winners": winners}
        outcome = self.game.state.outcome()
        assert outcome is not None
        return outcome.to_json()

    def record_notes(self) -> dict[str, Any]:
        """What the game's record says besides its moves: ``keys_awaited`` (a seat's keys due after
        the end: the result unverified until they come), ``stopped`` and ``forks`` (the evidence);
        only those that apply."""
        shown = self.show()
        notes = {key: shown[key] for key in ("keys_awaited", "stopped") if shown[key] is not None}
        if shown["forks"]:
            notes["forks"] = shown["forks"]
        return notes

    def export(self, full: bool = False) -> dict[str, Any]:
        """The game as a record, the same on every device (Thot and Scarabya: a game record;
        Scarabeo: its public record, which holds no rack before the end). ``full``: the record the
        move-by-move review replays, once the game allows it (Scarabeo: rebuilt from the verified
        deal, every rack and draw); refused with the reason's key otherwise."""
        if self.game is None:
            raise Refused("the game has not started yet")
        meta: dict[str, Any] = {"names": self.names(), "remote": {"game_id": self.game_id}}
        if self.ended is not None:
            meta["end"] = dict(self.ended)
        # Recorded with the result: whose keys it waits for, a stop and its evidence (signed
        # messages, public like every link), so an export carries what the others may check.
        for key, value in self.record_notes().items():
            meta["remote"][key] = value
        try:
            if not full:
                return self.game.export(meta)
            why = self.game.review_refusal()
            if why is not None:
                raise Refused(f"no full record yet: {_REVIEW_REFUSALS[why]}", key=f"review.{why}")
            return self.game.review_record(meta)
        except ProtocolError as err:
            raise Refused(str(err)) from None
