"""A game being played in the page: the engine state, who sits where, and its save.

Pure Python (no DOM), so pass-and-play rules of the interface — who is a person, when a take-back is
allowed, what is autosaved — are tested in CPython. Views call ``play``/``take_back`` and redraw.
"""

from __future__ import annotations

import secrets
from dataclasses import asdict, dataclass
from typing import Any, Callable, Iterator, Mapping, TypeGuard

from game.core import GameRecord, GameState, RecordError
from web.platform import engines
from web.platform.storage import Save, SaveStore, StorageError, StorageFull

MAX_NAME = 24
#: Record meta of a game the new-game form started and nobody has played yet (``Session.unplayed``).
UNPLAYED = "unplayed"
#: An unplayed game left this long (its tab closed before the first move) is deleted.
UNPLAYED_KEEP_MS = 6 * 3600 * 1000


def drop_unplayed(store: SaveStore, keep: str | None = None, before: int | None = None) -> int:
    """Delete the games nobody played (but ``keep``; with ``before``, only those last written
    before it): a new game started leaves the last unplayed one behind for good, and one whose tab
    was closed goes after ``UNPLAYED_KEEP_MS``. Returns how many went."""
    gone = 0
    for save in store.list():
        if (isinstance(save, Save) and save.id != keep and is_unplayed(save.state)
                and (before is None or save.updated < before)):
            store.delete(save.id)
            gone += 1
    return gone


def is_unplayed(state_json: Any) -> bool:
    """A stored record of a game nobody played (never listed under Continue)."""
    if not isinstance(state_json, Mapping):
        return False
    meta, moves = state_json.get("meta"), state_json.get("moves")
    return isinstance(meta, Mapping) and meta.get(UNPLAYED) is True and moves == []
#: Record meta of a game a person resigned against the computer: ``{"seat": s, "moves": n}`` (the
#: seat that resigned, after ``n`` moves). The engines know no resignation: the game ends here, its
#: record kept as it was, and the save, the Continue list, the review and the statistics read it.
RESIGNED = "resigned"
#: Record meta that belongs to this device's table, not to the game: saved with it, never put in a
#: shared link (Scarabeo's ``table``: the hourglass's running turn and the tiles laid but not played).
LOCAL_META = ("table", "summary", "analysis", "unplayed")  # analysis: the review's cache (web/pages/review.py)
#: Caps on a save's summary (outside data: an imported file may hold anything).
MAX_SUMMARY_MOVES = 100_000
MAX_SUMMARY_SCORE = 1_000_000


@dataclass(frozen=True)
class SaveFacts:
    """What the Continue list says about a save, read from its record without replaying it: the seats,
    the moves played, and (from the summary written at every autosave) the scores and whose turn."""

    seats: list[Seat]
    moves: int
    scores: list[int] | None = None
    to_move: int | None = None
    over: bool = False


def summary_of(state: GameState[Any]) -> dict[str, Any]:
    """The small summary kept in the record's meta (``summary``) at every autosave: replaying every
    save to list them costs too much (20 Scarabeo saves of ~44 moves: 150 ms in CPython, several
    times that in Pyodide, and Scarabeo's replay wants the lexicon)."""
    over = state.is_over()
    return {"moves": len(state.history()), "scores": [int(x) for x in state.view()["scores"]],
            "to_move": None if over else state.to_move(), "over": over}


def _int_in(value: object, low: int, high: int) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def save_facts(state_json: Any) -> SaveFacts | None:
    """The facts of a stored record (``Save.state``), or None when it is not readable as one. The
    summary is outside data: one that does not fit the seats is left out, never trusted."""
    if not isinstance(state_json, Mapping):
        return None
    meta, moves = state_json.get("meta"), state_json.get("moves")
    public = state_json.get("public")
    if state_json.get("format") == "scarab-watch" and isinstance(public, Mapping):
        moves = public.get("moves")  # a watched game (web.platform.watch.watch_json): its public record's moves
    if not isinstance(meta, Mapping) or not isinstance(moves, list):
        return None
    raw = meta.get("seats")
    players = len(raw) if isinstance(raw, list) and raw else None
    if players is None:
        options = state_json.get("options")
        players = options.get("players") if isinstance(options, Mapping) else None
        if not _int_in(players, 1, 8):
            return None
    try:
        seats = seats_from_meta(meta, players)
    except RecordError:
        return None
    facts = SaveFacts(seats, len(moves))
    summary = meta.get("summary")
    if not isinstance(summary, Mapping):
        return facts
    scores, to_move, over = summary.get("scores"), summary.get("to_move"), summary.get("over")
    if (summary.get("moves") != len(moves) or not isinstance(scores, list) or len(scores) != len(seats)
            or not all(_int_in(x, -MAX_SUMMARY_SCORE, MAX_SUMMARY_SCORE) for x in scores)
            or not isinstance(over, bool)
            or not (to_move is None if over else _int_in(to_move, 0, len(seats) - 1))):
        return facts  # stale (another version wrote the moves) or not ours: the seats and moves alone
    return SaveFacts(seats, len(moves), [int(x) for x in scores], to_move, over)


def _site_made(catalogue: Mapping[str, Mapping[str, str]], title: str, game: str) -> bool:
    """A title the site gave ("Scarabeo on 2 Dec 2026", "Received game", in either language), which
    says nothing of which game it is; a title the player wrote is theirs."""
    if title in catalogue.get("share.received.title", {}).values():
        return True
    for lang, template in catalogue.get("play.title.default", {}).items():
        name = catalogue.get(f"game.{game}.name", {}).get(lang, "")
        head, found, tail = template.replace("{game}", name).partition("{date}")
        if name and found and title.startswith(head) and title.endswith(tail) and len(title) > len(head) + len(tail):
            return True
    return False


@dataclass(frozen=True)
class Listing:
    """A save as the Continue list names it, before and after Python starts (``web/shell/boot.js``
    draws it from the resume snapshot): its ``heading`` (who plays, unless the player named it) and
    one ``line`` (the scores, the moves, whose turn; a daily: its result). ``daily``: an attempt at a
    daily challenge, listed as such and never as a game to continue."""

    heading: str
    line: str
    daily: bool = False


def listing(t: Any, game: str, title: str, state_json: Any, save_id: str | None = None,
            attempts: Mapping[str, Any] | None = None) -> Listing:
    from web.platform import daily_store as ds
    from web.platform.events import join, seat_names, you_seat
    from web.platform.i18n import shown_title, signed

    facts = save_facts(state_json)
    meta = state_json.get("meta") if isinstance(state_json, Mapping) else None
    d = ds.daily_meta(meta)
    if d is not None:
        heading = t("daily.save.title", game=t(f"game.{game}.name"), number=d["number"])
        moves = facts.moves if facts is not None else 0
        if not ds.puzzle_over(d, moves, facts is not None and facts.over):
            return Listing(heading, t("continue.daily.todo"), True)
        entry = ds.counted(attempts, d["date"], d["game"]) if attempts is not None else None
        if entry is not None and entry["save"] == save_id:
            return Listing(heading, t("continue.daily.done", percent=entry["percent"]), True)
        return Listing(heading, t("continue.daily.finished"), True)
    shown = shown_title(t.catalogue, title, game, t.lang)
    if facts is None:
        return Listing(shown, "")
    names = seat_names(t, game, facts.seats)
    heading = shown
    if _site_made(t.catalogue, title, game):
        heading = (t("continue.solo", name=names[0]) if len(names) == 1
                   else t("continue.vs", a=names[0], b=names[1]) if len(names) == 2 else join(t, names))
    seats = [f"{name} {signed(facts.scores[i], plus=False)}" if facts.scores is not None else name
             for i, name in enumerate(names)]
    parts = [" · ".join(seats),
             t.plural("continue.moves", facts.moves) if facts.moves else t("continue.moves.none")]
    if facts.over:
        parts.append(t("continue.finished"))
    elif facts.to_move is not None:
        parts.append(t.form("continue.turn", you=you_seat(t, facts.seats) == facts.to_move, name=names[facts.to_move]))
    return Listing(heading, " · ".join(parts))


#: What a rematch keeps of a game's record options: the choices of the new-game form, never what
#: the deal drew (Scarabeo's bags, Scarabya's layout, deck and zones) nor a starting position.
REMATCH_OPTIONS = {
    "scarabeo": ("players", "names", "check_mode", "hourglass", "contest", "mix"),
    "thot": ("players", "short", "turnoff", "teams"),
    "scarabya": ("variant", "players"),
}


def rematch_of(game: str, options: Mapping[str, Any], seats: list["Seat"]) -> tuple[dict[str, Any], list["Seat"]]:
    """A rematch's options and seats: the same players and choices, the seats turned by one so that
    whoever moved second moves first (Thot's partners of four stay partners, sitting opposite)."""
    kept = {k: v for k, v in options.items() if k in REMATCH_OPTIONS.get(game, tuple(options))}
    turned = seats[1:] + seats[:1]
    names = kept.get("names")
    if isinstance(names, list) and len(names) == len(seats):
        kept["names"] = names[1:] + names[:1]
    return kept, turned


def rematch_start(game: str, options: Mapping[str, Any], seed: int, seats: list["Seat"],
                  seeds: Iterator[int]) -> tuple[dict[str, Any], list["Seat"], int]:
    """A rematch of the game (``options``, ``seed``, ``seats``): its options and seats
    (``rematch_of``) and a new deal from ``seeds`` in which the other side starts. Where the engine
    draws who starts (Scarabeo's draw of tiles) a deal is looked for among a few seeds; where seat 1
    always starts the turned seats do it at the first."""
    kept, turned = rematch_of(game, options, seats)
    factory = engines.factory(game)
    # the player after the last game's opener sits, turned by one, at the opener's place
    want = factory(options, seed).to_move() % len(seats)
    new_seed = next(seeds)
    for _ in range(64 if len(seats) > 1 else 0):
        if factory(kept, new_seed).to_move() == want:
            break
        new_seed = next(seeds)
    return kept, turned, new_seed


@dataclass(frozen=True)
class Seat:
    name: str
    computer: bool = False
    level: int = 2

    @classmethod
    def from_json(cls, data: Any) -> "Seat":
        if not isinstance(data, Mapping):
            raise ValueError("a seat must be an object")
        name = " ".join(str(data.get("name", "")).split())[:MAX_NAME]
        level = data.get("level", 2)
        if not isinstance(level, int) or isinstance(level, bool):
            raise ValueError("a seat's level must be an integer")
        return cls(name or "?", bool(data.get("computer", False)), level)


def seats_from_meta(meta: Mapping[str, Any], players: int) -> list[Seat]:
    """The seats a record's meta names (numbered people when it names none); ``RecordError`` if malformed."""
    raw = meta.get("seats")
    if raw is None or raw == []:
        return [Seat(f"{i + 1}") for i in range(players)]
    if not isinstance(raw, list):
        raise RecordError("the seats are not a list")
    try:
        seats = [Seat.from_json(s) for s in raw]
    except ValueError as err:
        raise RecordError(f"a seat is malformed: {err}") from None
    if len(seats) != players:
        raise RecordError(f"{len(seats)} seats for {players} players")
    return seats


class Session:
    def __init__(self, state: GameState[Any], seats: list[Seat], save: Save, store: SaveStore,
                 meta: dict[str, Any] | None = None) -> None:
        self.state = state
        self.seats = seats
        self.save = save
        self.store = store
        #: Record metadata kept across saves and links: ``game_id`` (the same game on every device),
        #: ``replay`` (opened from a link to watch, not to play).
        self.meta = dict(meta or {})
        #: Set by a view to bring its device-local meta (``LOCAL_META``) up to date before each write.
        self.before_save: Callable[[], None] | None = None
        #: Called after every successful write (the page stores its resume snapshot); never fails it.
        self.after_save: Callable[[], None] | None = None
        #: A watched private game (``web.platform.share``): ``state`` is the engine's spectator state rebuilt
        #: from the public record, with no rack; it is saved as that public record, never as a game.
        self.watch = False

    # --- starting and resuming ----------------------------------------------------
    @classmethod
    def create(cls, store: SaveStore, game: str, options: Mapping[str, Any], seed: int, seats: list[Seat],
               title: str, unplayed: bool = False) -> "Session":
        """A new game. ``unplayed``: one the new-game form started, marked ``UNPLAYED`` until its first
        move — never listed under Continue, and dropped once another is started (``drop_unplayed``)."""
        state = engines.factory(game)(options, seed)
        if len(seats) != state.num_players:
            raise ValueError(f"{len(seats)} seats for {state.num_players} players")
        meta: dict[str, Any] = {"game_id": secrets.token_hex(8)}
        if unplayed:
            meta[UNPLAYED] = True
        record = GameRecord.of(state, seats=[asdict(s) for s in seats], **meta, summary=summary_of(state))
        save = store.create(game, title, record.to_json())
        return cls(state, seats, save, store, meta)

    @classmethod
    def open(cls, store: SaveStore, save_id: str) -> "Session":
        from web.platform import watch

        save = store.load(save_id)
        if watch.is_watch(save.state):
            return cls._open_watch(store, save)
        record = GameRecord.from_json(save.state)
        if record.game != save.game:
            raise RecordError(f"the record is for {record.game!r}, the save says {save.game!r}")
        state = engines.replay_record(record)
        seats = seats_from_meta(record.meta, state.num_players)
        meta = {k: v for k, v in record.meta.items() if k != "seats"}
        meta.setdefault("game_id", save.id)
        if meta.get("replay") and watch.is_private(record.game) and not state.is_over():
            # a watched game kept whole by an older version (its seed predicts every rack): kept
            # from now on as its public record only, and opened as the watch it was
            kept = watch.watch_of_record(state, record)
            try:
                save = store.update(save, kept)
            except StorageError:  # kept as it was for now; shown as the watch it is all the same
                save = Save(save.id, save.game, save.title, save.created, save.updated, save.revision, kept)
            return cls._open_watch(store, save)
        return cls(state, seats, save, store, meta)

    @classmethod
    def _open_watch(cls, store: SaveStore, save: Save) -> "Session":
        from web.platform import watch

        state = watch.rebuild_watch(save.state, engines.word_list)
        _public, meta = watch.read_watch(save.state)
        seats = seats_from_meta(meta, state.num_players)
        meta = {k: v for k, v in meta.items() if k != "seats"}
        meta.setdefault("game_id", save.id)
        session = cls(state, seats, save, store, meta)
        session.watch = True
        return session

    # --- who plays ----------------------------------------------------------------
    @property
    def game(self) -> str:
        return self.save.game

    @property
    def unplayed(self) -> bool:
        """A game the new-game form started and nobody has played yet."""
        return bool(self.meta.get(UNPLAYED)) and not self.state.history()


    def seat_to_move(self) -> Seat | None:
        if self.over():
            return None
        return self.seats[self.state.to_move()]

    def computer_to_move(self) -> bool:
        """The computer's seat is to move; also True once a person resigned: nobody here plays on,
        so the views take no input (as ``RemoteSession`` does for a stopped game)."""
        if self.resigned is not None:
            return True
        seat = self.seat_to_move()
        return seat is not None and seat.computer

    # --- resigning ----------------------------------------------------------------
    @property
    def resigned(self) -> int | None:
        """The seat that resigned (``RESIGNED``), or None. The meta is outside data: a value that
        names no seat is not a resignation."""
        entry = self.meta.get(RESIGNED)
        seat = entry.get("seat") if isinstance(entry, Mapping) else None
        return seat if _int_in(seat, 0, len(self.seats) - 1) else None

    def over(self) -> bool:
        """No move is left to play: the engine's end, or a resignation."""
        return self.resigned is not None or self.state.is_over()

    def winners(self) -> list[int]:
        """Who won a game that is over: after a resignation every other seat (the computer)."""
        resigned = self.resigned
        if resigned is not None:
            return [s for s in range(len(self.seats)) if s != resigned]
        outcome = self.state.outcome() if self.state.is_over() else None
        return list(outcome.winners) if outcome is not None else []

    def resigner(self) -> int | None:
        """The seat that may resign now: the one person at a table of computers, in a game of their
        own (not a daily challenge, a guided game, a watched or a shared-to-watch one), not over."""
        if self.over() or self.replay_only or self.watch or "daily" in self.meta or "tutorial" in self.meta:
            return None
        people = [i for i, seat in enumerate(self.seats) if not seat.computer]
        return people[0] if len(people) == 1 and len(self.seats) > 1 else None

    def resign(self) -> None:
        """The one person resigns: the game ends as their loss (raises ValueError when they may not)."""
        seat = self.resigner()
        if seat is None:
            raise ValueError("nobody here may resign this game")
        self.meta[RESIGNED] = {"seat": seat, "moves": len(self.state.history())}
        self.autosave()

    def humans(self) -> int:
        return sum(1 for s in self.seats if not s.computer)

    # --- moves --------------------------------------------------------------------
    @property
    def game_id(self) -> str:
        return str(self.meta["game_id"])

    @property
    def replay_only(self) -> bool:
        return bool(self.meta.get("replay"))

    def play(self, move_text: str) -> Any:
        """Apply a move in notation (raises NotationError / IllegalMove untouched), then autosave."""
        if self.replay_only:
            raise ValueError("this game was shared to be watched, not played")
        move = self.state.parse_move(move_text)
        result = self.state.push(move)
        self.autosave()
        return result

    def play_move(self, move: Any) -> Any:
        result = self.state.push(move)
        self.autosave()
        return result

    def can_take_back(self) -> bool:
        return self.take_back_count() > 0

    def take_back_count(self) -> int:
        """How many moves a take-back undoes (0: it is not allowed). Pass-and-play courtesy: a person
        may take back their last move while the next player, also a person, has not moved yet (1).
        Against the computer: the person to move takes back their own last move together with the
        computer's replies since (2, or more with several computer seats in a row) — never another
        person's move, never across a dispute (Scarabeo's challenge or vote: its outcome told the
        table what the lexicon says), never after the game ends, never while the computer thinks.
        What the replies showed stays as it was: the engines' draws come from the seed, so the bag
        and the mission cards are in the same order again (docs/web.md, "Take-back")."""
        state = self.state
        if not state.history() or self.over() or self.computer_to_move():
            return 0
        seat = state.last_mover()
        if seat is None:
            return 0
        if not self.seats[seat].computer:
            return 1
        holder = state.to_move()
        for n, mover in enumerate(self._last_movers(len(self.seats) + 1), start=1):
            if mover is None:
                return 0
            if not self.seats[mover].computer:
                return n if mover == holder else 0
        return 0

    def _last_movers(self, limit: int) -> list[int | None]:
        """The seats that made the last ``limit`` moves, newest first (None for a dispute), without
        playing anything on the game itself: Scarabeo says who in its turn results (popping and
        pushing again would restart an attached hourglass); the others on a copy."""
        state: Any = self.state
        if self.game == "scarabeo":
            from game.scarabeo.moves import Accept, Challenge, Vote

            return [None if isinstance(r.move, (Accept, Challenge, Vote)) else r.player
                    for r in reversed(state.results()[-limit:])]
        copy = state.copy()
        movers: list[int | None] = []
        while len(movers) < limit and copy.history():
            movers.append(copy.last_mover())
            copy.pop()
        return movers

    def take_back(self) -> Any:
        """Undo ``take_back_count()`` moves and save once; returns the person's move taken back."""
        n = self.take_back_count()
        if not n:
            raise ValueError("nothing to take back")
        for _ in range(n):
            move = self.state.pop()
        self.autosave()
        return move

    # --- saving -------------------------------------------------------------------
    def record(self, shared: bool = False) -> GameRecord:
        """The game record with its meta; ``shared`` leaves out what stays on this device. A watch
        has none (no seed, no rack): ``RecordError``."""
        if self.watch:
            raise RecordError("a watched game has no record to continue: only its public moves")
        meta = {k: v for k, v in self.meta.items() if not (shared and k in LOCAL_META)}
        return GameRecord.of(self.state, **meta, seats=[asdict(s) for s in self.seats])

    def autosave(self) -> Save:
        """Write the game as the next revision; raises StorageFull / SaveConflict (the view tells the player)."""
        if self.state.history():
            self.meta.pop(UNPLAYED, None)  # played: a game like any other from now on
        if self.before_save is not None:
            self.before_save()
        self.meta["summary"] = summary_of(self.state)
        if self.resigned is not None:  # listed as finished, nobody to move
            self.meta["summary"].update(over=True, to_move=None)
        if self.watch:
            from web.platform.watch import public_of, watch_json

            meta = {k: v for k, v in self.meta.items() if k not in LOCAL_META or k == "summary"}
            state = watch_json(public_of(self.state), {**meta, "seats": [asdict(s) for s in self.seats]})
        else:
            state = self.record().to_json()
        try:
            self.save = self.store.update(self.save, state)
        except StorageFull:
            # resume snapshots are a convenience: free their room and try once more before refusing
            from web.platform.snapshot import drop_all

            drop_all(self.store.kv, self.store.prefix)
            self.save = self.store.update(self.save, state)
        if self.after_save is not None:
            try:
                self.after_save()
            except Exception:
                pass
        return self.save
