"""Remote play in the page: one device's side of a game played by links (issue 27), kept like any save.

The protocol is ``game.remote`` (invitation, joins, the hash chain, Scarabeo's deal); this module only
stores a device and carries its messages. Pure Python (no DOM), so it is tested in CPython.

Where things live on this device:

- the save (``scarab:save:<id>``, ``web.platform.storage``): what the Continue list, an export and
  the review read — the game's public record (Thot, Scarabya: a game record; Scarabeo: its public
  record, no rack), the seats' names, the autosave summary and ``meta.remote`` (the game's id, this
  device's seat, whose message is due);
- the device (``scarab:remote:<id>``): ``Device.to_json()``, its secret keys included. It is never put
  in a save, a link, an export or a resume snapshot: only this browser's storage holds it.

The transport is the seam for issue 28: a ``Transport`` turns a message into what the players pass on
and back. ``LinkTransport`` makes links (``#/remote?m=<payload>``); a WebRTC data channel can carry
the same payloads instead, the session and the store unchanged.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Protocol, Sequence

from game.core import GameState
from game.core.safejson import JSONRefused, loads
from game.remote.session import Device, Event, Refused, game_of
from game.remote.wire import MAX_MESSAGE_CHARS, WireError, payload_of, unpack
from web.platform.i18n import Messages
from web.platform.session import Seat, summary_of
from web.platform.storage import InvalidSave, Save, SaveStore

#: A device's state: its messages (each at most a link) and its keys (Scarabeo: ~45 kB for two).
MAX_DEVICE_CHARS = 4_000_000
ROUTE = "#/remote?m="
#: "open Bruno's previous link first" (and, since the protocol names it, "(message 4 … is missing)")
_ORDER = re.compile(r"open (.+)'s previous link first\b(?: \(message (\d+) of this game is missing)?")


class Transport(Protocol):
    """How a message leaves this device and how one that came in is read back."""

    def outgoing(self, payload: str) -> str:
        """What the player passes on (a link), or what a channel sends."""

    def incoming(self, text: str) -> str:
        """The message's payload in what arrived (a whole link, a pasted text)."""


@dataclass(frozen=True)
class LinkTransport:
    """Messages as links to this site: ``<site>#/remote?m=<payload>`` (a chat app keeps them whole)."""

    site: str  # the site's address up to its last "/", e.g. "https://example.org/scarab/"

    def outgoing(self, payload: str) -> str:
        return f"{self.site}{ROUTE}{payload}"

    def incoming(self, text: str) -> str:
        try:
            return payload_of(text)
        except WireError as err:
            raise Refused(err.message, malformed=True) from None


def device_key(store: SaveStore, save_id: str) -> str:
    """Beside the saves, under the same site prefix (the embedded frame's stay apart)."""
    return store.prefix[: -len("save:")] + "remote:" + save_id


def game_id_of(text: str) -> str | None:
    """The remote game a message belongs to (None: not a readable message)."""
    try:
        data = unpack(text)
    except WireError:
        return None
    if isinstance(data, dict) and isinstance(data.get("b"), list) and data["b"]:
        data = data["b"][0]
    content = data.get("m") if isinstance(data, dict) else None
    game_id = content.get("g") if isinstance(content, dict) else None
    return game_id if isinstance(game_id, str) else None


def refusal(reason: str) -> tuple[str, dict[str, str]]:
    """A protocol refusal as a catalogue key and its parameters (the reason itself as the detail)."""
    if reason.startswith("already played"):
        return "remote.refused.played", {}
    order = _ORDER.match(reason)
    if order is not None:
        if order.group(2) is None:  # a reason without the index: said without it
            return "remote.refused.order.any", {"name": order.group(1)}
        return "remote.refused.order", {"name": order.group(1), "n": order.group(2)}
    if reason.startswith("this link is not from this game"):
        return "remote.refused.other", {}
    if reason.startswith("this link was altered") or "altered or cut short" in reason:
        return "remote.refused.altered", {}
    if reason.startswith("the game is over"):
        return "remote.refused.over", {}
    if reason.startswith("this is not a Scarab remote-play link") or reason.startswith("there is no message"):
        return "remote.refused.not_link", {}
    if reason.startswith("this link was made by a"):
        return "remote.refused.version", {}
    if "characters, more than the" in reason:
        return "remote.refused.long", {}
    return "remote.refused.reason", {"detail": reason}


def refusal_of(err: Refused) -> tuple[str, dict[str, str]]:
    """A protocol refusal as a catalogue key — the engine's stable ``Refused.key`` — and its parameters."""
    if err.key != "reason":
        return "remote.refused." + err.key, dict(err.params)
    return refusal(err.reason)


@dataclass(frozen=True)
class RemoteSeat(Seat):
    """A seat of a game by links: ``here`` is this device's (the others act on their own devices:
    a challenge, say, is offered for this seat only)."""

    here: bool = True


@dataclass
class Outcome:
    """What opening a message or playing did, for the page to say and offer."""

    event: Event
    moves: list[tuple[int, str, Any]] = field(default_factory=list)  # (seat, move text, engine result)
    send: str | None = None  # the payload this device must pass on now, if any
    #: Every payload to pass on, in order, when ``send`` is not all (``Device.catch_up``).
    links: list[str] = field(default_factory=list)


class RemoteSession:
    """A remote game as the page and the game's view see it: the ``web.platform.session.Session``
    interface (state, seats, save, meta, autosave …) over a ``Device``; only this device's seat may act."""

    replay_only = False
    watch = False  # a game this device plays, never a watched one (``Session.watch``)

    @property
    def reviewable(self) -> bool:
        """The review replays a game record: Thot's and Scarabya's, and Scarabeo's full record once
        the deal is verified (rebuilt from it by ``game.remote``)."""
        return self.review_refusal is None

    @property
    def review_refusal(self) -> str | None:
        """Why not (a stable key: ``playing``, ``unverified``, ``undealt``), None: it can be reviewed."""
        game = self.device.game
        return "playing" if game is None else game.review_refusal()

    def __init__(self, device: Device, save: Save, store: SaveStore) -> None:
        self.device = device
        self.save = save
        self.store = store
        self.meta: dict[str, Any] = {}
        self.before_save: Callable[[], None] | None = None
        self._state: tuple[int, GameState[Any]] | None = None

    # --- creating and loading ---------------------------------------------------------
    @classmethod
    def create(cls, store: SaveStore, device: Device, title: str) -> "RemoteSession":
        save = store.create(device.game_name, title, public_state(device))
        session = cls(device, save, store)
        try:
            session._write_device()
        except Exception:
            store.delete(save.id)  # no save whose keys were never stored
            raise
        return session

    @classmethod
    def open(cls, store: SaveStore, save_id: str, words: Any = None) -> "RemoteSession":
        save = store.load(save_id)
        raw = store.kv.get(device_key(store, save_id))
        if raw is None:
            raise InvalidSave("this remote game's keys are not on this device")
        try:
            data = loads(raw, max_bytes=MAX_DEVICE_CHARS)
        except JSONRefused as err:
            raise InvalidSave(f"this remote game's state is damaged: {err}") from None
        try:
            device = Device.from_json(data, words)
        except Refused as err:
            raise InvalidSave(err.reason) from None
        return cls(device, save, store)

    # --- what the views read ----------------------------------------------------------
    @property
    def game(self) -> str:
        return self.device.game_name

    @property
    def game_id(self) -> str:
        return self.device.game_id

    @property
    def started(self) -> bool:
        return self.device.game is not None and self.state_or_none() is not None

    def state_or_none(self) -> GameState[Any] | None:
        game = self.device.game
        if game is None:
            return None
        key = len(self.device.chain)
        if self._state is not None and self._state[0] == key:
            return self._state[1]  # Scarabya's seat 0 state is rebuilt from the moves: once per message
        try:
            state = game.seat_state(self.device.secret.get("game", {}))
        except ValueError:  # Scarabeo's tiles are still being dealt
            return None
        self._state = (key, state)
        return state

    @property
    def state(self) -> GameState[Any]:
        state = self.state_or_none()
        if state is None:
            raise ValueError("the game has not started yet")
        return state

    @property
    def seat_here(self) -> int | None:
        """This device's seat: only it may act, and only its rack is shown."""
        return self.device.seat

    @property
    def seats(self) -> list[Seat]:
        here = self.seat_here
        return [RemoteSeat(name, here=s == here) for s, name in enumerate(self.device.names())]

    def seat_to_move(self) -> Seat | None:
        seat = self.to_move()
        return None if seat is None else self.seats[seat]

    def to_move(self) -> int | None:
        state = self.state_or_none()
        if state is None or state.is_over() or self.device.stopped is not None or self.device.ended is not None:
            return None  # a stopped game, or one a player resigned or left, offers nobody a move
        if getattr(self.device.game, "voters", lambda: [])():  # Scarabeo's vote by links: one voter's link at a time
            return self.device.game.next_sender()  # type: ignore[union-attr]
        return state.to_move()

    def computer_to_move(self) -> bool:
        """True while another device's seat is to move: the views treat it like a turn nobody here
        plays (their input is off), and no computer is behind it. A stopped game too: nobody here
        plays on (``Device.stopped``), nor after a resignation or a leave (``Device.ended``)."""
        if self.device.stopped is not None or self.device.ended is not None:
            return True
        return self.to_move() is not None and self.to_move() != self.seat_here

    def humans(self) -> int:
        return 1

    def can_take_back(self) -> bool:
        """This device may ask the others to take back its own last move (docs/remote.md
        "Take-back requests"): they answer on their devices, nothing is undone here before."""
        try:
            return self.device.seat is not None and self.device.take_back_refusal() is None
        except Refused:
            return False

    def take_back_count(self) -> int:
        return 1 if self.can_take_back() else 0

    def take_back_request(self) -> dict[str, Any] | None:
        """The take-back asked and not yet answered by all (``Device.show``'s ``takeback``), or None."""
        request = self.device.show()["takeback"]
        return dict(request) if isinstance(request, dict) else None

    def ask_take_back(self) -> Outcome:
        """Ask to take back this device's last move; the payload goes to the others."""
        payload = self.device.ask_take_back()
        outcome = Outcome(Event(self.device.last_text, "takeback", payload), [], payload, self.outgoing())
        self.autosave()
        return outcome

    def answer_take_back(self, accept: bool) -> Outcome:
        """This device's answer to the take-back asked; the last acceptance rewinds the move here too."""
        payload = self.device.answer_take_back(accept)
        kind = "takeback" if self.device.request is not None else \
            "takeback_accepted" if accept else "takeback_declined"
        outcome = Outcome(Event(self.device.last_text, kind, payload), [], payload, self.outgoing())
        self.autosave()
        return outcome

    def waiting_for(self) -> str | None:
        name = self.device.show()["waiting_for"]
        return None if name is None else str(name)

    def your_turn(self) -> bool:
        return bool(self.device.show()["your_turn"])

    # --- this device's messages -------------------------------------------------------
    def play(self, move_text: str) -> Outcome:
        before, mover = self._moves_played(), self.to_move()
        payload = self.device.play(move_text)
        outcome = Outcome(Event(self.device.last_text, "move", payload), self._new_moves(before, mover), payload,
                          self.outgoing())
        self.autosave()
        return outcome

    def resign(self) -> str:
        payload = self.device.resign()
        self.autosave()
        return payload

    def leave(self) -> str:
        payload = self.device.leave()
        self.autosave()
        return payload

    def resend(self) -> str:
        return self.device.resend()

    def resend_all(self) -> list[str]:
        """This device's last link again: every message another device may lack, normally one link
        (``Device.resend_all``)."""
        return self.device.resend_all()

    def outgoing(self) -> list[str]:
        """The links this device shows now, in order: its last write's (``Device.outbox``), or
        the last link it sent."""
        device = self.device
        if device.outbox and device.outbox[-1] == device.sent:
            return list(device.outbox)
        return [device.sent] if device.sent is not None else []

    def early(self) -> tuple[int, str] | None:
        """Live play: this device's seat and what it sends at once outside the chain (Scarabeo: the
        shares of tiles just drawn, so the drawer's rack fills before this device moves)."""
        part = self.device.early()
        seat = self.device.seat
        return (seat, part) if part and seat is not None else None

    def read_early(self, seat: int, part: str) -> bool:
        """Another device's early part (``Refused``: nothing changed, nothing saved); whether this
        device's view changed (then saved)."""
        changed = self.device.read_early(seat, part)
        if changed:
            self.autosave()
        return changed

    def open_message(self, payload: str) -> Outcome:
        """Apply a message (``Refused``: nothing changed, nothing saved)."""
        before, mover, length = self._moves_played(), self.to_move(), len(self.device.chain)
        event = self.device.open(payload)
        # A link may carry several moves (every message this device lacked): each its writer's.
        seats = [int(m.get("f", 0)) for m in (unpack(t).get("m", {}) for t in self.device.chain[length:])
                 if m.get("k") == "move"]
        outcome = Outcome(event, self._new_moves(before, mover, seats), event.send, list(event.links))
        if event.changed:
            self.autosave()
        return outcome

    def _moves_played(self) -> int:
        state = self.state_or_none()
        return len(state.history()) if state is not None else 0

    def _new_moves(self, before: int, mover: int | None,
                   seats: list[int] | None = None) -> list[tuple[int, str, Any]]:
        """The moves a message added: (seat, move text, the engine's result where it keeps one)."""
        state = self.state_or_none()
        if state is None:
            return []
        history = state.history()
        results = state.results() if hasattr(state, "results") else None  # Scarabeo keeps its turns
        if results is None and len(history) > before:
            results = [None] * before + replayed(state, len(history) - before)
        out = []
        for i in range(before, len(history)):
            result = results[i] if results is not None and i < len(results) else None
            # Thot, Scarabya: the move messages' writers, in order, when they account for every
            # move (a link may carry several); else the seat that was to move played it
            by_message = seats[i - before] if seats is not None and len(seats) == len(history) - before else None
            seat = getattr(result, "player", None) if result is not None else None
            if seat is None and isinstance(result, dict):
                seat = result.get("seat")
            if seat is None:
                seat = by_message if by_message is not None else mover
            out.append((int(seat if seat is not None else 0), state.move_text(history[i]), result))
        return out

    # --- saving -----------------------------------------------------------------------
    def _write_device(self) -> None:
        text = json.dumps(self.device.to_json(), separators=(",", ":"))
        self.store.kv.set(device_key(self.store, self.save.id), text)

    def autosave(self) -> Save:
        """The device first (its keys), then the save the Continue list reads: a refusal of the
        storage leaves the previous pair (``StorageFull`` from either write)."""
        if self.before_save is not None:
            self.before_save()
        self._write_device()
        self.save = self.store.update(self.save, public_state(self.device))
        return self.save

    def record(self, shared: bool = False) -> Any:
        return self.device.export()


def replayed(state: GameState[Any], count: int) -> list[Any]:
    """The engine's results of the last ``count`` moves of ``state`` (Thot's and Scarabya's, which a
    state does not keep): a copy taken back that far and played again, so a move that came by link or
    channel is said in the same words as at the table ("Bruno moved the priest to B1 and took a +2
    scarab.", not "Bruno played B1."). ``state`` itself is left as it was."""
    copy = state.copy()  # type: ignore[attr-defined]
    moves = [copy.pop() for _ in range(count)]
    return [copy.push(move) for move in reversed(moves)]


def last_request(device: Device) -> tuple[int, str] | None:
    """The last take-back request of the chain: (the seat that asked, its move's text)."""
    for text in reversed(device.chain[1:]):
        m = unpack(text).get("m", {})
        if m.get("k") == "takeback":
            return int(m.get("f", 0)), str(m.get("t", ""))
        if m.get("k") == "move":
            return None
    return None


def public_state(device: Device) -> dict[str, Any]:
    """The save's state: the game's public record once it started (what an export and the review
    read), with the seats, the autosave summary and ``meta.remote``; before it starts, the players
    known so far and no move. Never a key: those stay in the device's own entry."""
    shown = device.show()
    names = shown["names"]
    remote = {"game_id": device.game_id, "seat": device.seat, "player": device.me,
              "waiting_for": shown["waiting_for"], "your_turn": shown["your_turn"],
              "phase": shown["phase"], "verified": shown["verified"],
              # recorded with the result: keys awaited (unverified), a stop and its evidence (export)
              **device.record_notes()}
    record: dict[str, Any]
    if device.game is not None and shown["position"] is not None:
        # Once the review can replay it (Scarabeo: the deal verified), the full record.
        record = dict(device.export(full=device.game.review_refusal() is None))
        state = device.game.state
        summary = summary_of(state)
    else:
        record = {"game": device.game_name, "options": {"players": device.players}, "moves": []}
        summary = None
    meta = dict(record.get("meta") or {})
    meta.update({"seats": [{"name": n} for n in names] if len(names) == device.players else [],
                 "remote": remote})
    if summary is not None:
        meta["summary"] = summary
    record["meta"] = meta
    return record


def remote_meta(state: Mapping[str, Any]) -> dict[str, Any] | None:
    """``meta.remote`` of a save's state (a remote game's), else None."""
    meta = state.get("meta") if isinstance(state, Mapping) else None
    remote = meta.get("remote") if isinstance(meta, Mapping) else None
    return dict(remote) if isinstance(remote, Mapping) and isinstance(remote.get("game_id"), str) else None


#: Failure kinds whose subject is a seat that may be this device's own ("You showed …": ``.you``).
_FAILURE_YOU = frozenset({"setup_step", "reshuffle", "reshuffle_racks", "drawn_not_tile", "shown_wrong",
                          "shares_wrong", "exchange", "rack_end"})
#: Failure kinds said with a count (``.one``/``.other``), and the parameter it is counted from.
_FAILURE_COUNT = {"setup_step": "n", "reshuffle": "n", "reshuffle_racks": "cards", "shares_wrong": "cards",
                  "dealt_twice": "tiles", "missing": "tiles"}


def failure_texts(t: Messages, problems: Sequence[Mapping[str, Any]], names: Sequence[str],
                  seat_here: int | None) -> list[str]:
    """The end-of-game verification's failures (``show()``'s ``problems``: a kind and its data) in
    the catalogue's words (``remote.failure.<key>``): players by name, "you" for this device's own
    seat, counts in their plural form. A kind the catalogue does not know is said with its data."""
    out: list[str] = []
    for found in problems:
        key = str(found.get("key"))
        params: dict[str, Any] = {k: v for k, v in found.items() if k != "key"}
        if key not in _FAILURE_COUNT and not t.has(f"remote.failure.{key}") and not t.has(f"remote.failure.{key}.you"):
            key, params = "reason", {"detail": str(params.get("detail") or dict(found))}
        seat = params.pop("seat", None)
        you = False
        if isinstance(seat, int):
            you = seat == seat_here and key in _FAILURE_YOU
            params["name"] = names[seat] if 0 <= seat < len(names) else str(seat + 1)
        n: int | None = None
        counted = _FAILURE_COUNT.get(key)
        if counted == "n":
            n = int(params.pop("n", 0))
        elif counted == "cards":
            cards = list(params.get("cards") or [])
            n, params["cards"] = len(cards), ", ".join(str(c) for c in cards)
        elif counted == "tiles":
            n = len(str(params.get("tiles", "")))
        params.pop("n", None)
        out.append(t.form(f"remote.failure.{key}", you=you, n=n, **params))
    return out


def stop_text(t: Messages, stop: Mapping[str, Any]) -> str:
    """A stopped game's line in the catalogue's words (``remote.stopped.<kind>``)."""
    kind = str(stop.get("kind"))
    key = f"remote.stopped.{kind}" if t.has(f"remote.stopped.{kind}") else "remote.stopped.other"
    return str(t(key, name=str(stop.get("name") or ""), n=str(stop.get("n", ""))))


def keys_texts(t: Messages, shown: Mapping[str, Any]) -> list[str]:
    """A game over whose keys are awaited: who has not revealed them, and what that means."""
    awaited = shown.get("keys_awaited")
    if not isinstance(awaited, Mapping):
        return []
    return [str(t("remote.keys.awaited", name=str(awaited.get("name", "")))), str(t("remote.keys.awaited.note"))]


def find(store: SaveStore, game_id: str) -> Save | None:
    """This device's save of the remote game ``game_id`` (None: not on this device)."""
    for save in store.list():
        if isinstance(save, Save):
            remote = remote_meta(save.state)
            if remote is not None and remote["game_id"] == game_id:
                return save
    return None


def check_text(text: str) -> str:
    if len(text) > MAX_MESSAGE_CHARS * 2:
        raise Refused(f"this is longer than any link ({len(text):,} characters)", malformed=True)
    return text


def invitation_game(payload: str) -> str | None:
    return game_of(payload)
