"""The Scarabeo game state: setup and draw for the start, turn flow, word-check modes, end, settlement.

``ScarabeoState.new(players, seed, …)`` starts a game; ``push(move)`` checks and applies a move and
returns a ``TurnResult`` (with the score ``Breakdown`` of a play); ``pop()`` takes it back;
``view()`` is everything the pass-and-play page draws from (every rack: the device is shared).
``game.scarabeo.public.seat_state(state, seat)`` is what one seat, or a spectator, may know: a
masked state whose hidden tiles are ``HIDDEN``; everything that leaves a device is built from it or
from the public record.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import product
from collections import Counter
from typing import Any, Callable, Iterable, Mapping, Sequence

from game.core import GameState, IllegalMove, NotationError, Outcome, Rng
from game.scarabeo.board import (
    LAYOUT, PREMIUMS, SIZE, SQUARES, board_rows, new_board, parse_square, square_name,
)
from game.scarabeo.hourglass import Hourglass
from game.scarabeo.moves import (
    Accept, Challenge, Exchange, Move, Pass, Play, Vote, move_text, parse_move,
)
from game.scarabeo.position import PositionData, format_position, parse_position
from game.scarabeo.rules import (
    apply_swaps, check_geometry, check_rack, exchange_refusal, invalid_words,
    invalid_words_error, resolve_play,
)
from game.scarabeo.scoring import Breakdown, Placement, score_play, word_run
from game.scarabeo.tiles import (
    COUNTS, HIDDEN, LETTERS, MAX_PLAYERS, MIN_PLAYERS, RACK_SIZE, SCARAB, VALUES, VOWELS, full_set,
    rack_value, sort_rack, tile_of,
)
from game.scarabeo.words import AnyWord, WordList

CHECK_MODES = ("dictionary", "challenge", "vote")
MAX_NAME_CHARS = 40


@dataclass(frozen=True)
class Pending:
    """A play waiting for a challenge (challenge mode) or a vote (vote mode)."""

    kind: str  # "challenge" | "vote"
    player: int
    move: Play
    breakdown: Breakdown
    unknown: tuple[str, ...]  # words the lexicon does not know, or (a vote) the words voted on
    before: Any  # snapshot of the state before the play, restored if the play is refused
    # Vote mode: the seat that contested a play whose words the lexicon knows (None: the vote is
    # forced by unknown words), and the player's hourglass turn as it was when they played, given
    # back if the play is voted down ("provided the sand-timer still allows it").
    contested_by: int | None = None
    clock: Mapping[str, Any] | None = None

    def to_json(self, names: Sequence[str]) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "player": self.player,
            "name": names[self.player],
            "move": move_text(self.move),
            "words": [w.word for w in self.breakdown.words],
            "score": self.breakdown.total,
            # Shown for a vote (the players must know what they vote on); a challenge is blind.
            "unknown_words": list(self.unknown) if self.kind == "vote" else None,
            "contested_by": self.contested_by,
        }


@dataclass(frozen=True)
class TurnResult:
    """What a move did: whose score changed and by how much, with the breakdown of a play."""

    move: Move
    player: int
    rack: str  # the player's rack before the move
    score: int
    total: int  # the player's total after the move, before any end-of-game rack adjustment
    breakdown: Breakdown | None = None
    pending: bool = False
    note: str = ""
    ended: bool = False
    #: A dispute's decision (challenge, accept, vote): the play it decided on, and the words at issue
    #: (the lexicon's refused words when a challenge is upheld, the words put to the vote), so that
    #: the event can be said in words without parsing ``note``.
    disputed: Play | None = None
    words: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "move": move_text(self.move),
            "player": self.player,
            "rack": self.rack,
            "score": self.score,
            "total": self.total,
            "breakdown": self.breakdown.to_json() if self.breakdown else None,
            "pending": self.pending,
            "note": self.note,
            "ended": self.ended,
            "disputed": move_text(self.disputed) if self.disputed is not None else None,
            "words": list(self.words),
        }


@dataclass
class _Snap:
    board: list[str]
    racks: list[list[str]]
    bag: list[str]
    scores: list[int]
    turn: int
    idle: int
    pending: Pending | None
    accepted: frozenset[str]
    rejected: frozenset[str]
    outcome: Outcome | None
    rng_state: int
    first_play: bool
    bag_step: int = 0


@dataclass
class _Entry:
    move: Move
    before: _Snap
    result: TurnResult


def settlement(scores: Sequence[int]) -> dict[str, Any]:
    """The rulebook's settlement: each player wins from every player below them the difference."""
    order = sorted(range(len(scores)), key=lambda s: (-scores[s], s))
    payments = []
    net = [0] * len(scores)
    for i, hi in enumerate(order):
        for lo in order[i + 1:]:
            amount = scores[hi] - scores[lo]
            payments.append({"winner": hi, "loser": lo, "amount": amount})
            net[hi] += amount
            net[lo] -= amount
    return {"order": order, "payments": payments, "net": net}


class ScarabeoState(GameState[Move]):
    GAME = "scarabeo"

    def __init__(self) -> None:
        # Use ScarabeoState.new(...) or ScarabeoState.from_position(...).
        self.names: list[str] = []
        self.check_mode = "dictionary"
        self.hourglass = False
        self.word_list: WordList = AnyWord()
        self._seed = 0
        self.rng = Rng(0)
        self.board: list[str] = new_board()
        self.racks: list[list[str]] = []
        self.bag: list[str] = []
        self.scores: list[int] = []
        self.turn = 0
        self.idle = 0
        self.pending: Pending | None = None
        self.accepted: frozenset[str] = frozenset()
        # Vote mode: words voted down, refused for the rest of the game (rules.md §1).
        self.rejected: frozenset[str] = frozenset()
        # Vote mode: any play may be contested and put to the vote, lexicon words too. Records of
        # games from before this rule have no "contest" option and replay as they were played
        # (known words stood at once, a word voted down could be tried again).
        self.contest = False
        # A play taken back (challenge upheld, vote lost) returns its drawn tiles to the bag, which is
        # then mixed: restored in its old order, the player who drew them would know the next draws.
        # Records of games from before this rule have no "mix" option and replay as they were played.
        self.mix = False
        # A game dealt elsewhere (remote play's mental-poker deal, game.remote): the bag's order at
        # the start and after each mixing, each in draw order, instead of the seed's shuffles.
        self.bags: tuple[str, ...] = ()
        self.bag_step = 0  # how many of ``bags`` are used
        self._outcome: Outcome | None = None
        self.first_play = True  # no play has stood yet: the next one is doubled
        self.start_draw: list[list[dict[str, Any]]] = []
        self.starter = 0
        self._entries: list[_Entry] = []
        self.timer: Hourglass | None = None
        self.start_position: str | None = None  # set when the game started from a position
        # A seat's masked state (game.scarabeo.public): tiles it cannot see are HIDDEN, the bag is
        # all HIDDEN, and there is no seed (the state cannot predict a draw).
        self.masked = False

    # --- setup ---------------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        players: int = 2,
        seed: int = 0,
        names: Sequence[str] | None = None,
        check_mode: str = "dictionary",
        hourglass: bool = False,
        word_list: WordList | None = None,
        contest: bool = True,
        mix: bool = True,
        bags: Sequence[str] | None = None,
    ) -> "ScarabeoState":
        """A new game: the draw for who starts, then 8 tiles dealt to each player in turn order.

        ``word_list`` decides words (``lexicon.load()`` in the app); without one every word is
        accepted. ``contest`` (vote mode only): any play may be put to the vote; False replays the
        records made before that rule. ``bags``: the bag's order at the start and after each
        mixing, each in draw order (a game dealt by remote play's deal, replayed); the seed then
        decides only who starts.
        """
        s = cls()
        s._setup(players, names, check_mode, hourglass, word_list)
        if not isinstance(contest, bool):
            raise ValueError("contest must be true or false")
        s.contest = contest and check_mode == "vote"
        if not isinstance(mix, bool):
            raise ValueError("mix must be true or false")
        s.mix = mix and check_mode != "dictionary"
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError("seed must be an integer")
        s._seed = seed
        s.rng = Rng(seed)
        bag = full_set()
        s.start_draw, s.starter = _draw_for_start(s.rng, bag, players)
        if bags:
            s.bags = _check_bags(bags)
            bag = s._next_bag(bag)
        else:
            s.rng.shuffle(bag)
        s.racks = [[] for _ in range(players)]
        for k in range(players):
            seat = (s.starter + k) % players
            for _ in range(RACK_SIZE):
                s.racks[seat].append(bag.pop())
        s.bag = bag
        s.scores = [0] * players
        s.turn = s.starter
        return s

    def _setup(self, players: int, names: Sequence[str] | None, check_mode: str, hourglass: bool,
               word_list: WordList | None) -> None:
        if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"Scarabeo is for 2-4 players, not {players!r}")
        if check_mode not in CHECK_MODES:
            raise ValueError(f"check mode {check_mode!r} is not one of {', '.join(CHECK_MODES)}")
        if check_mode == "vote" and players < 3:
            raise ValueError("the vote mode needs 3 or 4 players (with 2 the dictionary decides)")
        if not isinstance(hourglass, bool):
            raise ValueError("hourglass must be true or false")
        if names is None:
            names = [f"Player {i + 1}" for i in range(players)]
        if isinstance(names, str) or not isinstance(names, (list, tuple)):
            raise ValueError("player names must be a list")
        names = [n.strip() if isinstance(n, str) else n for n in names]
        if len(names) != players or not all(isinstance(n, str) for n in names):
            raise ValueError(f"{players} player names are needed")
        for n in names:
            if not n.strip() or len(n) > MAX_NAME_CHARS or not n.isprintable():
                raise ValueError(f"player name {n!r} must be 1-{MAX_NAME_CHARS} printable characters")
        self.names = names
        self.check_mode = check_mode
        self.hourglass = hourglass
        self.word_list = word_list if word_list is not None else AnyWord()

    @classmethod
    def from_options(cls, options: dict[str, Any], seed: int,
                     word_list: WordList | None = None) -> "ScarabeoState":
        """Recreate a game's start from record options (players, names, check_mode, hourglass)."""
        known = {"players", "names", "check_mode", "hourglass", "position", "contest", "mix", "bags"}
        mix = options.get("mix", False)  # absent: a record from before the rule
        if not isinstance(mix, bool):
            raise ValueError("mix must be true or false")
        extra = set(options) - known
        if extra:
            raise ValueError(f"unknown option(s): {', '.join(sorted(extra))}")
        if "position" in options:
            # A game that started from a position (analysis, puzzles): the bag order comes from
            # the seed.
            text = options["position"]
            if not isinstance(text, str):
                raise ValueError("the position option must be text")
            if "bags" in options:
                raise ValueError("a game started from a position has no dealt bags")
            try:
                state = cls.from_position(text, word_list, options.get("check_mode", "dictionary"),
                                          seed, options.get("names"))
            except NotationError as err:
                raise ValueError(f"position: {err}") from None
            if options.get("players", state.num_players) != state.num_players:
                raise ValueError("the players option does not match the position's racks")
            contest = options.get("contest", False)
            if not isinstance(contest, bool):
                raise ValueError("contest must be true or false")
            state.contest = contest and state.check_mode == "vote"
            state.mix = mix and state.check_mode != "dictionary"
            return state
        return cls.new(
            players=options.get("players", 2),
            seed=seed,
            names=options.get("names"),
            check_mode=options.get("check_mode", "dictionary"),
            hourglass=options.get("hourglass", False),
            word_list=word_list,
            contest=options.get("contest", False),  # absent: a record from before the rule
            mix=mix,
            bags=options.get("bags"),
        )

    @classmethod
    def new_masked(cls, options: dict[str, Any], starter: int,
                   start_draw: list[list[dict[str, Any]]],
                   word_list: WordList | None = None) -> "ScarabeoState":
        """A game's start as the table sees it: every rack and the whole bag ``HIDDEN``, the
        player who starts as the draw decided. ``start_draw`` and ``starter`` are ignored for a
        game that started from a position (seat 0 moves first there)."""
        s = cls.from_options(options, 0, word_list)
        s.masked = True
        s.racks = [[HIDDEN] * len(r) for r in s.racks]
        s.bag = [HIDDEN] * len(s.bag)
        if s.start_position is None:
            if (not isinstance(starter, int) or isinstance(starter, bool)
                    or not 0 <= starter < s.num_players):
                raise ValueError(f"the starter must be a seat 0-{s.num_players - 1}")
            s.starter = s.turn = starter
            s.start_draw = start_draw
        return s

    @classmethod
    def from_position(
        cls,
        text: str,
        word_list: WordList | None = None,
        check_mode: str = "dictionary",
        seed: int = 0,
        names: Sequence[str] | None = None,
    ) -> "ScarabeoState":
        """A state from a one-line position; the player to move is seat 0, the bag is shuffled
        with ``seed``."""
        data = parse_position(text)
        s = cls()
        n = len(data.racks)
        s._setup(n, names, check_mode, False, word_list)
        s._seed = seed
        s.rng = Rng(seed)
        s.board = list(data.board)
        s.racks = [list(r) for r in data.racks]
        s.scores = list(data.scores)
        s.idle = data.idle
        s.bag = data.bag()
        s.rng.shuffle(s.bag)
        s.first_play = not any(s.board)
        s.masked = any(HIDDEN in r for r in s.racks)
        s.start_position = text
        s.contest = check_mode == "vote"
        if s.idle >= 2 * n or (not s.bag and any(s.board) and not all(s.racks)):
            # A finished game: the scores are taken as final.
            s._outcome = s._make_outcome("position", [0] * n)
        return s

    # --- protocol ------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return len(self.racks)

    @property
    def seed(self) -> int:
        return self._seed

    def to_move(self) -> int:
        if self.pending is not None and self.pending.kind == "vote":
            return self.pending.player
        return self.turn

    def is_over(self) -> bool:
        return self._outcome is not None

    def outcome(self) -> Outcome | None:
        return self._outcome

    def options(self) -> dict[str, Any]:
        options: dict[str, Any] = {
            "players": self.num_players,
            "names": list(self.names),
            "check_mode": self.check_mode,
            "hourglass": self.hourglass,
        }
        if self.start_position is not None:
            options["position"] = self.start_position
        if self.contest:
            options["contest"] = True
        if self.mix:
            options["mix"] = True
        if self.bags:
            options["bags"] = list(self.bags)
        return options

    def history(self) -> list[Move]:
        return [e.move for e in self._entries]

    def results(self) -> list[TurnResult]:
        return [e.result for e in self._entries]

    def parse_move(self, text: str) -> Move:
        return parse_move(text)

    def move_text(self, move: Move) -> str:
        return move_text(move)

    def position(self) -> str:
        n = self.num_players
        order = [(self.turn + k) % n for k in range(n)]
        return format_position(PositionData(
            tuple(self.board),
            tuple("".join(self.racks[s]) for s in order),
            tuple(self.scores[s] for s in order),
            self.idle,
        ))

    def legal_moves(self) -> list[Move]:
        """The legal moves that are not plays: passes (with any flying-scarab swaps), the
        exchange, and the dispute moves. Plays come from the move generator
        (``game.scarabeo.movegen``), or are built from placements with ``play_from_placements``.
        """
        if self._outcome is not None:
            return []
        p = self.pending
        if p is not None and p.kind == "vote":
            return [Vote(v) for v in self._vote_patterns(p.player)]
        moves: list[Move] = []
        if p is not None:
            moves.append(Accept())
            # In vote mode a play whose every word was already accepted by vote has nothing left to contest.
            if self.check_mode != "vote" or any(w.word not in self.accepted for w in p.breakdown.words):
                moves.extend(Challenge(s) for s in range(self.num_players) if s != p.player)
            if not self.bag and not self.racks[p.player]:
                return moves  # the pending play closes the game: only the dispute remains
        rack = self.racks[self.turn]
        swappable = [sq for sq in range(SQUARES) if self.board[sq].islower()
                     and self.board[sq].upper() in rack]
        for k in range(1 << len(swappable)):
            swaps = tuple(sq for i, sq in enumerate(swappable) if k >> i & 1)
            if self._swaps_ok(rack, swaps):
                moves.append(Pass(swaps))
        if HIDDEN in rack:
            if _masked_exchange_refusal(rack, HIDDEN * len(rack)) is None:
                moves.append(Exchange(HIDDEN * len(rack)))
        elif exchange_refusal(rack, "".join(rack)) is None:
            moves.append(Exchange(sort_rack(rack)))
        return moves

    def _swaps_ok(self, rack: list[str], swaps: tuple[int, ...]) -> bool:
        try:
            apply_swaps(self.board[:], rack[:], swaps)
        except IllegalMove:
            return False
        return True

    def _vote_patterns(self, player: int) -> list[str]:
        n = self.num_players
        voters = [s for s in range(n) if not (n == 4 and s == player)]
        out = []
        for combo in product("YN", repeat=len(voters)):
            votes = ["-"] * n
            for s, v in zip(voters, combo):
                votes[s] = v
            out.append("".join(votes))
        return out

    def check(self, move: Move) -> None:
        self._apply(move)
        self.pop()

    def preview(self, move: Move) -> TurnResult:
        """What ``move`` would score, without playing it (raises ``IllegalMove`` like push)."""
        result = self._apply(move)
        self.pop()
        return result

    # --- moves ---------------------------------------------------------------------------
    def push(self, move: Move) -> TurnResult:
        """Check and apply ``move``; return what it did. Runs the hourglass if one is attached.

        With the hourglass attached, a play, pass or exchange made after the turn's time has run
        out is the time-out pass (rulebook art. 18: the player "passes the turn"): ``-`` is what
        is stored and recorded, so a record replays exactly without knowing the clock, and the
        result's note is ``time-out``."""
        late = self._is_late(move)
        turn_clock = self.timer.saved() if self.timer is not None else None
        result = self._apply(Pass() if late else move)
        if late:
            result = replace(result, note="time-out")
            self._entries[-1].result = result
        p = self.pending
        if (turn_clock is not None and p is not None and p.kind == "challenge"
                and isinstance(result.move, Play) and self.contest):
            self.pending = replace(p, clock=turn_clock)
        if self.timer is not None:
            self._tick(result)
        return result

    def _is_late(self, move: Move) -> bool:
        # Only turn moves run against the sand: a dispute (challenge, accept, vote) is decided with
        # the hourglass on its side, and a vote pending refuses any turn move anyway.
        return (isinstance(move, (Play, Pass, Exchange)) and self.timer is not None
                and self._outcome is None and self.timer.expired()
                and not (self.pending is not None and self.pending.kind == "vote"))

    def _apply(self, move: Move) -> TurnResult:
        if self._outcome is not None:
            raise IllegalMove("game-over", "the game is over")
        before = self._snapshot()
        try:
            if isinstance(move, (Challenge, Accept, Vote)):
                result = self._push_dispute(move)
            elif isinstance(move, (Play, Pass, Exchange)):
                result = self._push_turn(move)
            else:
                raise IllegalMove("not-a-move", f"{move!r} is not a Scarabeo move")
        except BaseException:
            self._restore(before)
            raise
        self._entries.append(_Entry(result.move, before, result))
        return result

    def last_mover(self) -> int | None:
        """The seat that was to move before the last move, from the position kept for ``pop``
        (popping and pushing again would start the next turn of an attached hourglass over)."""
        if not self._entries:
            return None
        before = self._entries[-1].before
        return before.pending.player if before.pending is not None and before.pending.kind == "vote" else before.turn

    def pop(self) -> Move:
        if not self._entries:
            raise IndexError("no move to take back")
        entry = self._entries.pop()
        self._restore(entry.before)
        return entry.move

    def _push_turn(self, move: Play | Pass | Exchange) -> TurnResult:
        p = self.pending
        if p is not None and p.kind == "vote":
            raise IllegalMove("vote-pending", f"the players must first vote on {p.move.word} "
                              f"(!vote, one Y/N per seat)")
        if p is not None:
            if not self.bag and not self.racks[p.player]:
                # Standing, the play would close the game, and a move after the end cannot be the
                # table's decision: the game waits for it.
                raise IllegalMove("challenge-pending",
                                  f"{self.names[p.player]}'s play {p.move.word} closes the game: "
                                  f"it must first be accepted (!accept) or challenged (!challenge N)")
            # The next player moves: the pending play stands unchallenged.
            self.pending = None
        player = self.turn
        self._unmask(player, move)
        rack_before = sort_rack(self.racks[player])
        board = self.board[:]
        rack = self.racks[player][:]
        apply_swaps(board, rack, move.swaps)
        if isinstance(move, Pass):
            self.board, self.racks[player] = board, rack
            total = self.scores[player]
            self._end_turn(idle=True)
            return TurnResult(move, player, rack_before, 0, total,
                              note="pass", ended=self._outcome is not None)
        if isinstance(move, Exchange):
            tiles = move.tiles
            if _by_count(tiles) and HIDDEN not in rack:
                tiles = "".join(rack)  # by count with the rack known: the whole rack, as the rule says
            why = (exchange_refusal(rack, tiles) if HIDDEN not in rack
                   else _masked_exchange_refusal(rack, tiles))
            if why is not None:
                raise IllegalMove("exchange-not-allowed", why)
            self.board = board
            # A masked bag stays all hidden: a tile this seat saw go back may come out anywhere.
            self.bag.extend([HIDDEN] * len(rack) if self.masked else rack)
            self._mix_bag()
            self.racks[player] = [self.bag.pop() for _ in range(min(RACK_SIZE, len(self.bag)))]
            total = self.scores[player]
            self._end_turn(idle=True)
            exchanged = Exchange(sort_rack(tiles), move.swaps)
            return TurnResult(exchanged, player, rack_before, 0, total,
                              note="exchange", ended=self._outcome is not None)
        placements = resolve_play(board, move)
        direction = check_geometry(board, placements, move.across)
        check_rack(rack, placements)
        bd = score_play(board, placements, direction, first_play=self.first_play)
        unknown = tuple(invalid_words([w.word for w in bd.words], self.word_list, self.accepted))
        if unknown and self.check_mode == "dictionary":
            raise invalid_words_error(unknown)
        voted_down = list(dict.fromkeys(w.word for w in bd.words if w.word in self.rejected))
        if voted_down:
            raise IllegalMove("voted-down", f"voted down earlier in this game: "
                              f"{', '.join(voted_down)}", words=voted_down)
        canonical = Play(move.start, move.across, _canonical_word(board, move, placements),
                         move.swaps)
        before_play = self._snapshot()
        for sq, ch in placements:
            board[sq] = ch
            rack.remove(SCARAB if ch.islower() else ch)
        self.board, self.racks[player] = board, rack
        self.scores[player] += bd.total
        self.first_play = False
        pending = None
        if self.check_mode == "challenge":
            pending = Pending("challenge", player, canonical, bd, unknown, before_play)
        elif self.check_mode == "vote" and unknown:
            pending = Pending("vote", player, canonical, bd, unknown, before_play)
        elif self.contest:
            # Every word known: the play stands unless someone contests it before the next move
            # (the rulebook's "words not accepted" are the table's to judge, not the word list's).
            pending = Pending("challenge", player, canonical, bd, (), before_play)
        self._draw(player)
        self.pending = pending
        total = self.scores[player]
        self._end_turn(idle=False, closer=player if pending is None else None)
        return TurnResult(canonical, player, rack_before, bd.total, total, bd,
                          pending=pending is not None, note="play", ended=self._outcome is not None)

    def _push_dispute(self, move: Challenge | Accept | Vote) -> TurnResult:
        p = self.pending
        if isinstance(move, Vote):
            if p is None or p.kind != "vote":
                raise IllegalMove("no-vote-pending", "there is no play to vote on")
            self._check_votes(move.votes, p.player)
            yes, no = move.votes.count("Y"), move.votes.count("N")
            if yes > no:
                self.pending = None
                self.accepted = self.accepted | frozenset(p.unknown)
                total = self.scores[p.player]
                self._close_if_done(p.player)
                return TurnResult(move, p.player, sort_rack(self.racks[p.player]), 0,
                                  total, note=f"vote {yes}-{no}: "
                                  f"{', '.join(p.unknown)} accepted", ended=self._outcome is not None,
                                  disputed=p.move, words=p.unknown)
            # Rejected: the tiles come back and the same player may try again (rulebook art. 10).
            self._take_back(p)
            if self.contest:
                self.rejected = self.rejected | frozenset(p.unknown)
            return TurnResult(move, p.player, sort_rack(self.racks[p.player]), -p.breakdown.total,
                              self.scores[p.player],
                              note=f"vote {yes}-{no}: {', '.join(p.unknown)} rejected; try again",
                              disputed=p.move, words=p.unknown)
        if p is None or p.kind != "challenge":
            raise IllegalMove("no-play-pending", "there is no play waiting for a challenge")
        if isinstance(move, Accept):
            self.pending = None
            total = self.scores[p.player]
            self._close_if_done(p.player)
            return TurnResult(move, p.player, sort_rack(self.racks[p.player]), 0,
                              total, note="play stands",
                              ended=self._outcome is not None, disputed=p.move)
        if not 0 <= move.seat < self.num_players:
            raise IllegalMove("bad-seat", f"there is no seat {move.seat + 1}")
        if move.seat == p.player:
            raise IllegalMove("own-play", "a player cannot challenge their own play")
        if self.check_mode == "vote":
            return self._contest(move, p)
        if move.words:
            raise IllegalMove("bad-challenge", "in challenge mode the lexicon decides every word "
                              "of the play: name no word")
        bad = invalid_words([w.word for w in p.breakdown.words], self.word_list, self.accepted)
        if not bad:
            self.pending = None
            total = self.scores[p.player]
            self._close_if_done(p.player)
            return TurnResult(move, p.player, sort_rack(self.racks[p.player]), 0,
                              total, note="challenge failed: every word is valid",
                              ended=self._outcome is not None, disputed=p.move)
        # Upheld: the play is taken back and the turn scores 0.
        self._take_back(p)
        total = self.scores[p.player]
        self._end_turn(idle=True)
        return TurnResult(move, p.player, sort_rack(self.racks[p.player]), -p.breakdown.total,
                          total,
                          note=f"challenge upheld: not {'a word' if len(bad) == 1 else 'words'}: "
                          f"{', '.join(bad)}", ended=self._outcome is not None,
                          disputed=p.move, words=tuple(bad))

    def _take_back(self, p: Pending) -> None:
        """The position before the pending play; with ``mix`` the tiles it drew, back in the bag, are
        mixed with the rest (the seeded generator keeps the game replayable)."""
        self._restore(p.before)
        if self.mix:
            self._mix_bag()

    def _contest(self, move: Challenge, p: Pending) -> TurnResult:
        """Vote mode: ``move.seat`` contests the play; the words named (every word of the play
        not already accepted by vote when none is named) go to the vote, lexicon words or not."""
        formed = list(dict.fromkeys(w.word for w in p.breakdown.words))
        named = move.words or tuple(w for w in formed if w not in self.accepted)
        for word in named:
            if word not in formed:
                raise IllegalMove("bad-challenge", f"{word} is not a word of this play "
                                  f"({', '.join(formed)})")
            if word in self.accepted:
                raise IllegalMove("bad-challenge", f"{word} was accepted by vote earlier in this game")
        if not named:
            raise IllegalMove("bad-challenge", "every word of this play was accepted by vote "
                              "earlier in this game")
        self.pending = replace(p, kind="vote", unknown=tuple(named), contested_by=move.seat)
        return TurnResult(move, p.player, sort_rack(self.racks[p.player]), 0, self.scores[p.player],
                          pending=True, note=f"contested by {self.names[move.seat]}: "
                          f"vote on {', '.join(named)}", disputed=p.move, words=tuple(named))

    def _check_votes(self, votes: str, player: int) -> None:
        n = self.num_players
        if len(votes) != n:
            raise IllegalMove("bad-vote", f"{len(votes)} votes for {n} players: one per seat")
        for s, v in enumerate(votes):
            if n == 4 and s == player and v != "-":
                raise IllegalMove("bad-vote", f"with 4 players the player concerned "
                                  f"({self.names[s]}, seat {s + 1}) abstains: write -")
            if not (n == 4 and s == player) and v not in "YN":
                raise IllegalMove("bad-vote", f"seat {s + 1} ({self.names[s]}) must vote Y or N")

    def _mix_bag(self) -> None:
        """Mix the bag (an exchange, a play taken back): by the seed, or as the deal did."""
        if self.bags:
            if self.bag:  # an empty bag is not dealt again (nothing to mix, as the seed's shuffle)
                self.bag = self._next_bag(self.bag)
        else:
            self.rng.shuffle(self.bag)

    def _next_bag(self, bag: list[str]) -> list[str]:
        """The next of ``bags`` (draw order) as the bag (drawn from its end); it must hold the
        tiles ``bag`` holds."""
        if self.bag_step >= len(self.bags):
            raise IllegalMove("bags-used", f"the record's dealt bags are {len(self.bags)}, and this "
                              "mixes the bag once more")
        order = self.bags[self.bag_step]
        if Counter(order) != Counter(bag):
            raise IllegalMove("bags-mismatch", f"the record's dealt bag {self.bag_step + 1} does not "
                              "hold the tiles in the bag")
        self.bag_step += 1
        return list(reversed(order))

    # --- hourglass -----------------------------------------------------------------------
    def attach_clock(self, clock: Callable[[], float],
                     saved: Mapping[str, Any] | None = None) -> Hourglass:
        """Run the hourglass (option ``hourglass``) on ``clock`` from now: the player to move
        starts their 120 s, or goes on with the turn ``saved`` (``Hourglass.saved()``) when it is
        a valid one; otherwise (missing, damaged) the turn starts afresh. During a vote the
        hourglass lies on its side. ``push`` then passes the hourglass on, pauses it during a vote
        and resumes it after. ``pop`` does not rewind it."""
        if not self.hourglass:
            raise ValueError("this game is played without the hourglass")
        self.timer = Hourglass(clock)
        if self._outcome is None:
            try:
                if saved is None:
                    raise ValueError("no saved turn")
                self.timer.restore(saved)
            except ValueError:
                self.timer.start_turn()
            if self.pending is not None and self.pending.kind == "vote":
                self.timer.pause()
        return self.timer

    def timed_out(self) -> bool:
        """The player to move has run out of time and their turn is to be passed (``time_out``).
        Not while the table decides: a vote pending, or a closing play awaiting a challenge."""
        if self.timer is None or self._outcome is not None or not self.timer.expired():
            return False
        p = self.pending
        return p is None or (p.kind == "challenge" and bool(self.bag or self.racks[p.player]))

    def time_out(self) -> TurnResult | None:
        """If the player to move has run out of time, their turn is a pass: push it and
        return the result (note ``time-out``); otherwise None."""
        if not self.timed_out():
            return None
        return self.push(Pass())

    def _tick(self, result: TurnResult) -> None:
        timer = self.timer
        assert timer is not None
        if self._outcome is not None:
            timer.finish_turn()
        elif self.pending is not None and self.pending.kind == "vote":
            timer.pause()  # a dispute lays the hourglass on its side
        elif isinstance(result.move, Vote):
            voted = self._entries[-1].before.pending
            if voted is not None and voted.contested_by is not None:
                # A contested play had already passed the hourglass on: accepted, the next
                # player's turn goes on; voted down, the player gets their turn back as it was.
                if self.to_move() == result.player and voted.clock is not None:
                    try:
                        timer.restore(voted.clock)
                    except ValueError:
                        timer.start_turn()
                else:
                    timer.resume()
            elif self.to_move() == result.player:
                timer.resume()  # rejected: the same player goes on with the time left
            else:
                timer.next_turn()
        elif isinstance(result.move, (Play, Pass, Exchange)):
            timer.next_turn()
        # Challenge / accept: decided at once, the next player's turn is already running.

    # --- turn flow -----------------------------------------------------------------------
    def _draw(self, player: int) -> None:
        rack = self.racks[player]
        while len(rack) < RACK_SIZE and self.bag:
            rack.append(self.bag.pop())

    def _end_turn(self, idle: bool, closer: int | None = None) -> None:
        n = self.num_players
        self.idle = self.idle + 1 if idle else 0
        self.turn = (self.turn + 1) % n
        if closer is not None:
            self._close_if_done(closer)
        if self._outcome is None and self.idle >= 2 * n:
            self._finish("passes", self._end_adjustments(None))

    def _close_if_done(self, player: int) -> None:
        if self._outcome is None and not self.bag and not self.racks[player]:
            self._finish("closed", self._end_adjustments(player), closer=player)

    def _end_adjustments(self, closer: int | None) -> list[int] | None:
        """Each rack's value off its holder's score, their sum to the closer; None while a rack
        holds a hidden tile (a masked state: the racks are yet to be revealed)."""
        if any(HIDDEN in r for r in self.racks):
            return None
        values = [rack_value(r) for r in self.racks]
        adjust = [-v for v in values]
        if closer is not None:
            adjust[closer] = sum(values)
        return adjust

    def _finish(self, reason: str, adjust: list[int] | None, closer: int | None = None) -> None:
        if adjust is not None:
            self.scores = [s + a for s, a in zip(self.scores, adjust)]
        self._outcome = self._make_outcome(reason, adjust, closer)

    def _make_outcome(self, reason: str, adjust: list[int] | None,
                      closer: int | None = None) -> Outcome:
        detail: dict[str, Any] = {
            "adjustments": adjust,
            "final_racks": [sort_rack(r) for r in self.racks],  # the same on every device
            "closer": closer,
            "settlement": settlement(self.scores) if adjust is not None else None,
            "names": list(self.names),
        }
        if adjust is None:
            # The game is over but the racks left are hidden: the scores are those before the
            # end-of-game adjustments and nobody has won yet (``reveal`` settles it).
            detail["racks_pending"] = self.racks_pending()
            return Outcome(tuple(self.scores), (), reason, detail)
        best = max(self.scores)
        winners = tuple(s for s in range(self.num_players) if self.scores[s] == best)
        return Outcome(tuple(self.scores), winners, reason, detail)

    # --- hidden tiles (a seat's masked state) -----------------------------------------------
    def racks_pending(self) -> list[int]:
        """The seats whose rack still holds a hidden tile."""
        return [s for s, r in enumerate(self.racks) if HIDDEN in r]

    def final_pending(self) -> bool:
        """The game is over but its result waits for the hidden racks to be revealed."""
        return self._outcome is not None and self._outcome.detail.get("racks_pending") is not None

    def reveal(self, seat: int, rack: str) -> None:
        """Seat ``seat``'s rack is now known to be ``rack`` (``HIDDEN`` for tiles still unseen):
        a drawn tile seen by its owner, or every rack at the end of the game. The tiles already
        known must be among them and the set must hold every tile; raises ``IllegalMove``
        (``reveal-mismatch``, ``too-many-tiles``) otherwise. Once every rack is known, a game
        that ended with hidden racks gets its final adjustments and winners."""
        if not isinstance(seat, int) or not 0 <= seat < self.num_players:
            raise IllegalMove("bad-seat", f"there is no seat {seat!r}")
        current = self.racks[seat]
        if not isinstance(rack, str) or len(rack) != len(current):
            raise IllegalMove("reveal-mismatch", f"seat {seat + 1}'s rack holds {len(current)} "
                              f"tiles, not {len(rack) if isinstance(rack, str) else rack!r}")
        for ch in rack:
            if ch not in COUNTS and ch != HIDDEN:
                raise IllegalMove("bad-tile", f"{ch!r} is not a tile (letters, ? or _)")
        known = Counter(t for t in current if t != HIDDEN)
        given = Counter(t for t in rack if t != HIDDEN)
        missing = known - given
        if missing:
            raise IllegalMove("reveal-mismatch", f"seat {seat + 1}'s rack is known to hold "
                              f"{sort_rack(missing.elements())}, which {rack} lacks")
        self._check_set(list((given - known).elements()))
        self.racks[seat] = list(rack)
        out = self._outcome
        if out is not None and self.final_pending() and not self.racks_pending():
            self._finish(out.reason, self._end_adjustments(out.detail["closer"]),
                         out.detail["closer"])

    def forget(self, seat: int, tiles: Iterable[str]) -> None:
        """A masked state stops holding these tiles of ``seat``'s rack as known (``HIDDEN`` again):
        remote play's withdrawn play, whose tiles go back to the rack as cards to prove again."""
        rack = self.racks[seat]
        for tile in tiles:
            if tile not in rack:
                raise IllegalMove("reveal-mismatch", f"seat {seat + 1}'s rack is not known to hold {tile}")
            rack[rack.index(tile)] = HIDDEN

    def _check_set(self, new: Iterable[str]) -> None:
        """Tiles about to become known: refuse one the set has no more of (every copy is already
        on the board or known on a rack)."""
        new = list(new)
        if not new:
            return
        seen = Counter(tile_of(c) for c in self.board if c)
        seen.update(t for r in self.racks for t in r if t != HIDDEN)
        seen.update(t for t in self.bag if t != HIDDEN)
        seen.update(new)
        for tile in dict.fromkeys(new):
            if seen[tile] > COUNTS[tile]:
                what = "scarabs" if tile == SCARAB else f"{tile} tiles"
                raise IllegalMove("too-many-tiles", f"the set has {COUNTS[tile]} {what}, and this "
                                  f"would make {seen[tile]}", tile=tile)

    def _unmask(self, player: int, move: Play | Pass | Exchange) -> None:
        """A masked rack's hidden tiles become the ones this move shows (tiles laid, letters put
        back for a scarab): they are public once played. A tile the rack cannot supply is left to
        the rules, which refuse the move with their usual reason."""
        rack = self.racks[player]
        if HIDDEN not in rack:
            return
        shown = tiles_shown(self.board, rack, move)
        if isinstance(move, Exchange) and not _by_count(move.tiles):
            work = [t for t in rack if t != HIDDEN]
            for t in move.tiles:
                if t in work:
                    work.remove(t)
                else:
                    shown.append(t)
            shown = shown[:rack.count(HIDDEN)]
        if shown:
            self._check_set(shown)
            for t in shown:
                rack[rack.index(HIDDEN)] = t

    def push_time_out(self) -> TurnResult:
        """Replay a turn passed because its time ran out (a record's time-out, with no clock)."""
        result = replace(self._apply(Pass()), note="time-out")
        self._entries[-1].result = result
        return result

    # --- snapshots -----------------------------------------------------------------------
    def _snapshot(self) -> _Snap:
        return _Snap(self.board[:], [r[:] for r in self.racks], self.bag[:], self.scores[:],
                     self.turn, self.idle, self.pending, self.accepted, self.rejected, self._outcome,
                     self.rng.state, self.first_play, self.bag_step)

    def _restore(self, s: _Snap) -> None:
        self.board = s.board[:]
        self.racks = [r[:] for r in s.racks]
        self.bag = s.bag[:]
        self.scores = s.scores[:]
        self.turn, self.idle, self.pending = s.turn, s.idle, s.pending
        self.accepted, self.rejected, self._outcome = s.accepted, s.rejected, s.outcome
        self.rng.state = s.rng_state
        self.first_play = s.first_play
        self.bag_step = s.bag_step

    # --- helpers for the UI and the move generator ----------------------------------------
    def play_from_placements(
        self, placements: Sequence[tuple[int | str, str]], swaps: Sequence[int | str] = ()
    ) -> Play:
        """Build the Play for tiles dropped on squares (square index or name, tile character:
        uppercase letter, lowercase for a scarab standing for that letter). Raises IllegalMove
        for a shape the rules refuse (not-in-line, gap, first-not-centre, not-touching …)."""
        swap_sqs = tuple(parse_square(s) if isinstance(s, str) else s for s in swaps)
        pl: list[Placement] = []
        for sq, ch in placements:
            idx = parse_square(sq) if isinstance(sq, str) else sq
            if not isinstance(ch, str) or len(ch) != 1 or ch.upper() not in LETTERS:
                raise IllegalMove("bad-tile", f"{ch!r} is not a letter of the set")
            pl.append((idx, ch))
        board = self.board[:]
        rack = self.racks[self.turn][:]
        apply_swaps(board, rack, swap_sqs)
        direction = check_geometry(board, pl, None)
        for sq, ch in pl:
            board[sq] = ch
        run = word_run(board, pl[0][0], direction)
        if len(run) < 2:
            direction = not direction
            run = word_run(board, pl[0][0], direction)
        word = "".join(board[sq] for sq in run)
        return Play(run[0], direction, word, swap_sqs)

    def bag_counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for t in self.bag:
            out[t] = out.get(t, 0) + 1
        return out

    def view(self) -> dict[str, Any]:
        """Everything a renderer needs, JSON-able. ``board`` rows use ``.`` for empty squares."""
        n = self.num_players
        last = self._entries[-1].result.to_json() if self._entries else None
        voting = self.pending is not None and self.pending.kind == "vote"
        rack = self.racks[self.turn] if n and not voting and self._outcome is None else []
        return {
            "game": self.GAME,
            "size": SIZE,
            "board": board_rows(self.board),
            "premiums": list(LAYOUT),
            "premium_names": {"W": "3P", "D": "2P", "T": "3L", "L": "2L", "*": "centre"},
            "values": {k: v for k, v in VALUES.items() if k.isupper()},
            "names": list(self.names),
            "players": n,
            "racks": [sort_rack(r) for r in self.racks],
            "scores": list(self.scores),
            "to_move": self.to_move(),
            "turn": self.turn,
            "starter": self.starter,
            "start_draw": self.start_draw,
            "bag_count": len(self.bag),
            "unseen": self.unseen_counts(self.turn),
            "idle_turns": self.idle,
            "first_play": self.first_play,
            "check_mode": self.check_mode,
            # False when no word list was given: every word is then accepted.
            "word_check": not isinstance(self.word_list, AnyWord),
            "hourglass": self.hourglass,
            "clock": self.timer.to_json() if self.timer is not None else None,
            "pending": self.pending.to_json(self.names) if self.pending else None,
            "accepted_words": sorted(self.accepted),
            "rejected_words": sorted(self.rejected),
            "contest": self.contest,
            "exchange_allowed": (HIDDEN not in rack and exchange_refusal(rack, "".join(rack)) is None)
            if rack else False,
            "swappable": [square_name(sq) for sq in range(SQUARES)
                          if self.board[sq].islower() and self.board[sq].upper() in rack],
            "last": last,
            "history": [e.result.to_json() for e in self._entries],
            "over": self.is_over(),
            "outcome": self._outcome.to_json() if self._outcome else None,
            "position": self.position(),
        }

    def unseen_counts(self, seat: int | None) -> dict[str, int]:
        """Tiles seat ``seat`` (None: a spectator) cannot see, by tile: the set less the board and
        that seat's known tiles (in a full state: the bag and the other racks)."""
        left = Counter(COUNTS)
        left.subtract(tile_of(c) for c in self.board if c)
        if seat is not None:
            left.subtract(t for t in self.racks[seat] if t != HIDDEN)
        return {t: n for t, n in left.items() if n > 0}

    def tiles_everywhere(self) -> list[str]:
        """Every tile of the game (board, racks, bag): the set, for invariant checks."""
        return ([tile_of(c) for c in self.board if c] + [t for r in self.racks for t in r]
                + list(self.bag))


def tiles_shown(board: Sequence[str], rack: Sequence[str], move: Play | Pass | Exchange) -> list[str]:
    """The tiles a play or a flying-scarab swap takes out of a rack whose unseen tiles are
    ``HIDDEN`` that the table did not already know were there (a tile known to be on the rack is
    used first): a swapped square gives its letter from the rack and its scarab back to it, a
    play's tiles come from the rack (a scarab placed as ``?``). Tiles the rack cannot supply even
    from its hidden ones are left out: the rules refuse that move with their usual reason."""
    work = list(rack)
    shown: list[str] = []

    def take(tile: str) -> None:
        if tile in work:
            work.remove(tile)
        elif HIDDEN in work:
            work.remove(HIDDEN)
            shown.append(tile)

    for sq in move.swaps:
        held = board[sq] if 0 <= sq < SQUARES else ""
        if held.islower():
            take(held.upper())
            work.append(SCARAB)
    if isinstance(move, Play):
        try:
            placements = resolve_play(board, move)
        except IllegalMove:
            placements = []
        for _, ch in placements:
            take(SCARAB if ch.islower() else ch)
    return shown


def _by_count(tiles: str) -> bool:
    """An exchange written by its count (``-8``): every tile hidden."""
    return bool(tiles) and set(tiles) == {HIDDEN}


def _masked_exchange_refusal(rack: Sequence[str], tiles: str) -> str | None:
    """The exchange rule for a rack with hidden tiles, on what is known of it."""
    if len(rack) != RACK_SIZE:
        return f"an exchange needs a full rack of 8 tiles; the rack holds {len(rack)}"
    if SCARAB in rack:
        return "an exchange is not allowed with a scarab on the rack"
    known = [t for t in rack if t != HIDDEN]
    vowels = sum(t in VOWELS for t in known)
    if 0 < vowels < len(known):
        return f"an exchange needs 8 vowels or 8 consonants; the rack holds {sort_rack(known)}"
    if len(tiles) != RACK_SIZE or not _by_count(tiles):
        return f"an exchange returns the whole rack of {RACK_SIZE} tiles"
    return None


def _canonical_word(board: list[str], play: Play, placements: Sequence[Placement]) -> str:
    """The written word with every square spelled out (board tiles as they stand)."""
    placed = dict(placements)
    return "".join(placed.get(sq) or board[sq] for sq in play.squares())


def _check_bags(bags: Any) -> tuple[str, ...]:
    """A record's dealt bags: text of tiles, the first the whole set."""
    if isinstance(bags, str) or not isinstance(bags, (list, tuple)) or len(bags) > 1000 \
            or not all(isinstance(b, str) and len(b) <= len(full_set()) for b in bags):
        raise ValueError("bags must be a list of texts of tiles")
    if Counter(bags[0]) != Counter(full_set()):
        raise ValueError("the first of the dealt bags must hold the whole tile set")
    for b in bags:
        if not set(b) <= set(COUNTS):
            raise ValueError("a dealt bag holds something that is not a tile")
    return tuple(bags)


def _draw_for_start(rng: Rng, bag: list[str], players: int) -> tuple[list[list[dict[str, Any]]], int]:
    """Each player draws a tile; the alphabetically first letter starts; a scarab is drawn
    again; players tied on the best letter draw again. The tiles go back into the bag."""
    rounds: list[list[dict[str, Any]]] = []
    contenders = list(range(players))
    while True:
        drawn: list[str] = []
        row: list[dict[str, Any]] = []
        letters: dict[int, str] = {}
        for seat in contenders:
            tiles: list[str] = []
            while True:
                tile = bag.pop(rng.below(len(bag)))
                drawn.append(tile)
                tiles.append(tile)
                if tile != SCARAB:
                    break
            row.append({"seat": seat, "tiles": tiles, "letter": tiles[-1]})
            letters[seat] = tiles[-1]
        bag.extend(drawn)
        rounds.append(row)
        best = min(letters.values())
        contenders = [seat for seat, letter in letters.items() if letter == best]
        if len(contenders) == 1:
            return rounds, contenders[0]


__all__ = ["CHECK_MODES", "Pending", "ScarabeoState", "TurnResult", "settlement", "tiles_shown",
           "NotationError"]
