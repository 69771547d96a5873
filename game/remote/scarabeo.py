"""Scarabeo in remote play: the engine's masked state on every device, the racks dealt by the
mental-poker ``Deal`` (``game.remote.deal``), each message carrying its part of the deal.

Every device holds its own seat's masked state (``game.scarabeo.public``): the board, the scores,
every rack's size, its own rack, ``_`` for whatever it cannot see, no seed. The deal decides the
tiles; the engine decides the rules. Message by message (docs/remote.md "Scarabeo"):

1. **Setup** (no move; sent by each device on its own as soon as it is due, seats in order): seat
   k's ``su`` masks and shuffles the deck. The last seat adds its shares (``sh``) for every other
   seat's rack; then seats 0…n−2 each send their start value (``sr``) with their shares. Once the
   last value is in, the engine draws who starts from the deal's start seed (``ScarabeoState.new``'s
   draw, shown to all) and the game begins with every rack read by its owner only.
2. **A turn**: ``t`` the move as the table sees it (an exchange by its count, ``-3``); ``tp`` the
   proof that the tiles it shows (laid, or put back on a flying scarab's square) are tiles this
   seat drew; ``rc`` the cards an exchange returns; ``rs`` the reshuffle, when the previous
   message was an exchange by another seat; ``sh`` the writer's shares for every card drawn since.
   Every other seat writes before a seat's next turn, so its drawn tiles are readable by then.
3. **The end** (no move; the seat that ended the game first, then in turn order): every seat
   reveals its keys (``k``); when all are in, every device verifies the whole deal (``Deal.verify``),
   learns the racks left, and settles the end-of-game adjustments.

The dictionary decides words, or a challenge does (challenge mode): the seat after a play writes
``!challenge N`` (its own seat), ``!accept`` or its move; a withdrawn play's tiles are cards of its
player's rack again (``Deal.take_back``) and its draw goes back to the bag, reshuffled by the
challenger in the same message (``rt``). In the vote mode a play the lexicon refuses (or one the
next seat contests, ``!challenge N``) goes to the vote: every voter writes its own vote as a
message (``!vote`` with its own seat's Y or N, ``-`` for every other seat), in the order of
``voters``; the last vote decides on every device, and a play voted down is withdrawn exactly as an
upheld challenge, its draw reshuffled by the last voter (never the player). The hourglass is off
in correspondence play (rules.md).

At the end, once the deal is verified, ``full_record`` rebuilds the ordinary game record (every
rack and draw, the bag's orders as dealt) for the move-by-move review.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from game.core import GameRecord, IllegalMove
from game.remote.deal import TILES, Deal, DealCheat, DealError, problem
from game.remote.games import OptionsError, ProtocolError, RemoteGame, Setup
from game.remote.wire import MAX_MESSAGE_CHARS
from game.scarabeo.game import ScarabeoState, tiles_shown
from game.scarabeo.moves import Accept, Challenge, Exchange, Move, Pass, Play, Vote, move_text
from game.scarabeo.public import public_move, public_record
from game.scarabeo.record import to_record
from game.scarabeo.tiles import HIDDEN

#: The keys a message may carry, by what it is.
MOVE_PARTS = {"rs", "sh", "tp", "rc", "rt"}
DEAL_PARTS = {"su", "sr", "sh", "k"}


def _pending_cards(saved: Any) -> tuple[int, list[int], list[int]] | None:
    """A saved ``pending_cards`` back (a damaged one raises ``ProtocolError``)."""
    if saved is None:
        return None
    if (isinstance(saved, list) and len(saved) == 3 and isinstance(saved[0], int)
            and all(isinstance(ids, list) and all(isinstance(i, int) for i in ids) for ids in saved[1:])):
        return saved[0], list(saved[1]), list(saved[2])
    raise ProtocolError("the saved deal is damaged: its pending play")


def _part(extra: Mapping[str, Any], key: str) -> str:
    value = extra.get(key)
    if not isinstance(value, str) or len(value) > MAX_MESSAGE_CHARS:
        raise ProtocolError(f"the message's part {key!r} is missing or malformed")
    return value


def _shares(extra: Mapping[str, Any]) -> str:
    """The writer's shares ("" when the message has none: the deal then checks that it owes none)."""
    return _part(extra, "sh") if "sh" in extra else ""


def _refused(err: DealError) -> ProtocolError:
    """A deal part refused: a cheat proven by the part itself (key ``cheat``: the game stops), or
    a part that is merely malformed or out of turn (``protocol``: the device waits for a good one)."""
    if isinstance(err, DealCheat):
        return ProtocolError(str(err), key="cheat", found=err.problem)
    return ProtocolError(str(err))


class ScarabeoRemote(RemoteGame):
    GAME = "scarabeo"
    #: A resignation or a leave carries the keys and the others answer with theirs, in order: it
    #: is written on one's turn, so that it never crosses a move in the post.
    END_ANY_TIME = False

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        if setup.words is None:
            raise ProtocolError("Scarabeo needs the word list to check plays")
        if setup.me is None:
            raise ProtocolError("a Scarabeo device must hold a seat")
        self.words = setup.words
        self.names = list(setup.names)
        self.mode: str = str(setup.options.get("check_mode", "dictionary"))
        self.me_seat: int = setup.me
        self.replaying = setup.local is not None
        rng = None if setup.rng is None else setup.rng(setup.me)
        #: Challenge mode: the play waiting for a challenge — its seat, the cards it showed and the
        #: cards it drew (what a withdrawal gives back).
        self.pending_cards: tuple[int, list[int], list[int]] | None = None
        #: The tiles the last play showed (the table learnt them); a withdrawal hides them again.
        self.pending_letters: list[str] = []
        #: Vote mode: the votes in so far on the play put to the vote, by seat (rebuilt by replay).
        self.votes: dict[int, str] = {}
        #: The last play or pass, for a take-back request: its seat, the cards it showed, the cards
        #: it drew, and ``pending_cards`` as it was before it (saved: a replay leaves the deal alone).
        self.last_cards: tuple[int, list[int], list[int], Any] | None = None
        #: What the last play or pass changed of what a replay rebuilds: ``pending_letters``, ``votes``.
        self.undo: tuple[list[str], dict[int, str]] | None = None
        #: The deal's reshuffles that followed a take-back request (the full record folds each into
        #: the bag before it: the play is not in the record, its draw never happened).
        self.folded: list[int] = []
        if setup.local is not None:
            try:
                self.deal = Deal.from_json(setup.local.get("deal"), rng)
            except DealError as err:
                raise ProtocolError(f"the saved deal is damaged: {err}") from None
            verdict = setup.local.get("verdict")
            self.verdict: dict[str, Any] | None = dict(verdict) if isinstance(verdict, Mapping) else None
            self.pending_cards = _pending_cards(setup.local.get("pending_cards"))
            last = setup.local.get("last_cards")
            if last is not None:
                if not isinstance(last, list) or len(last) != 4:
                    raise ProtocolError("the saved deal is damaged: its last play")
                played = _pending_cards(last[:3])
                assert played is not None
                self.last_cards = (*played, _pending_cards(last[3]))
            folded = setup.local.get("folded", [])
            if not isinstance(folded, list) or not all(isinstance(i, int) for i in folded):
                raise ProtocolError("the saved deal is damaged: its take-backs")
            self.folded = list(folded)
        else:
            self.deal = Deal.new(setup.game_id, setup.players, setup.me, rng)
            self.verdict = None
        self.engine: ScarabeoState | None = None
        self.table = ScarabeoState()  # replaced by the table's view when the game begins
        self.keys: dict[int, str] = {}
        self.end_start: int | None = None  # the seat whose message ended the game
        self.own_move: Move | None = None  # this device's move, as played (an exchange with its tiles)
        if self.replaying and self.deal.start_seed() is not None:
            self._begin()

    # --- options -----------------------------------------------------------------------
    @classmethod
    def check_options(cls, options: Mapping[str, Any], players: int) -> dict[str, Any]:
        extra = sorted(set(options) - {"check_mode", "hourglass", "contest"})
        if extra:
            raise OptionsError(f"unknown option {extra[0]!r} (known: check_mode, hourglass, contest)")
        mode = options.get("check_mode", "dictionary")
        # The new-game form's vote mode says ``contest`` (any play may be put to the vote): by links
        # the vote mode always is so (the engine's masked start), so it is accepted and not carried.
        if "contest" in options and (options["contest"] is not True or mode != "vote"):
            raise OptionsError("contest is the vote mode's (true) only")
        if mode == "vote" and players < 3:
            raise OptionsError("the vote mode needs 3 or 4 players (with 2 the dictionary decides)", "vote")
        if mode not in ("dictionary", "challenge", "vote"):
            raise OptionsError(f"unknown check_mode {mode!r} (dictionary, challenge, vote)")
        if options.get("hourglass", False) is not False:
            raise OptionsError("the hourglass is off in correspondence play (each device cannot time the others)",
                               "hourglass")
        return {} if mode == "dictionary" else {"check_mode": mode}

    # --- state -------------------------------------------------------------------------
    @property
    def state(self) -> ScarabeoState:
        if self.engine is None:
            raise ProtocolError("the tiles are still being dealt")
        return self.engine

    def _engine_options(self) -> dict[str, Any]:
        """The engine's options: a withdrawn play's draw goes back to a bag mixed again (``mix``)."""
        options: dict[str, Any] = {"players": self.players, "names": self.names, "check_mode": self.mode,
                                   "hourglass": False}
        if self.mode != "dictionary":
            options["mix"] = True
        if self.mode == "vote":
            options["contest"] = True  # any play may be put to the vote, as in a new local game
        return options

    def _begin(self) -> None:
        """The start seed is known: the engine's draw for who starts, and the masked start."""
        seed = self.deal.start_seed()
        assert seed is not None
        options = self._engine_options()
        drawn = ScarabeoState.new(self.players, seed, names=self.names, word_list=self.words)
        self.engine = ScarabeoState.new_masked(options, drawn.starter, drawn.start_draw, self.words)
        #: The game as the table sees it (every rack hidden): which tiles of this seat's rack the
        #: others know (a scarab it took back from the board) cannot be told from its own rack,
        #: where that scarab and one it drew look alike.
        self.table = ScarabeoState.new_masked(options, drawn.starter, drawn.start_draw, self.words)
        if not self.replaying:  # a replay reads its rack once, at the end (``replayed``)
            self._sync_rack()

    def _sync_rack(self) -> None:
        """This seat's rack shows the tiles the deal let it read, and those the table knows of it."""
        if self.engine is None:
            return
        rack = self.engine.racks[self.me_seat]
        tiles = [t.tile for t in self.deal.own_tiles()] + [t for t in self.table.racks[self.me_seat] if t != HIDDEN]
        if len(tiles) > len(rack):
            raise ProtocolError("the deal gives this seat more tiles than its rack holds")
        new = tiles + [HIDDEN] * (len(rack) - len(tiles))
        if sorted(new) != sorted(rack):
            self.engine.reveal(self.me_seat, "".join(new))

    def _public_rack(self, seat: int) -> list[str]:
        """``seat``'s rack as every other device sees it."""
        return list(self.table.racks[seat])

    def over(self) -> bool:
        return self.ended is not None or (self.engine is not None and self.engine.is_over())

    def _key_order(self) -> list[int]:
        start = self.end_start if self.end_start is not None else 0
        return [(start + k) % self.players for k in range(self.players)]

    def next_sender(self) -> int | None:
        deal = self.deal
        if self.over():
            if self.engine is None and not deal.ready:
                return None  # nothing was dealt: nothing to verify
            missing = [s for s in self._key_order() if s not in self.keys]
            return missing[0] if missing else None
        if not deal.ready:
            return deal.setup_due()
        if self.engine is None:
            missing = [s for s in range(self.players - 1) if s not in deal.start_values]
            return missing[0] if missing else None  # None: this device's own last value is going out
        voters = self.voters()
        if voters:
            return next(s for s in voters if s not in self.votes)
        return self.engine.to_move()

    def voters(self) -> list[int]:
        """Vote mode: the seats that vote on the play put to the vote, in the order their messages
        come (empty: no vote is pending). The engine's voters (with 4 players the player abstains),
        from the player on around the table: the last voter is never the player, so the one whose
        vote may withdraw the play can reshuffle its draw, as a challenger does."""
        state = self.engine
        pending = None if state is None else state.pending
        if state is None or pending is None or pending.kind != "vote":
            return []
        n = self.players
        seats = [s for s in range(n) if not (n == 4 and s == pending.player)]
        return sorted(seats, key=lambda s: (s - pending.player) % n)

    # --- messages without a move ---------------------------------------------------------
    def auto(self, secret: Mapping[str, Any]) -> dict[str, Any] | None:
        if self.next_sender() != self.me_seat:
            return None
        deal = self.deal
        if self.over():
            return {"k": deal.reveal_keys()}
        if not deal.ready:
            part = {"su": deal.setup_step()}
            if deal.ready:
                part["sh"] = deal.shares_for()
            return part
        if self.engine is None:
            return {"sr": deal.start_reveal(), "sh": deal.shares_for()}
        return None

    def apply_deal(self, seat: int, extra: Mapping[str, Any]) -> str:
        """A setup step (``su``), a start value (``sr``) or the keys at the end (``k``). This
        device's own step already moved its deal on when it was written (``auto``): only what
        follows from it is done here."""
        if set(extra) - DEAL_PARTS:
            raise ProtocolError("the message carries parts no deal step has")
        mine = seat == self.me_seat and not self.replaying
        deal = self.deal
        try:
            if "k" in extra:
                if set(extra) != {"k"} or not self.over():
                    raise ProtocolError("keys are revealed at the end, alone")
                self.keys[seat] = _part(extra, "k")
                if self.next_sender() is None and self.verdict is None:
                    self._verify()
                return f"{self.names[seat]} revealed their keys"
            if self.over():
                raise ProtocolError("the game is over: only keys are expected")
            if self.replaying:  # the saved deal stands for these steps; the words stay the same
                if "su" in extra:
                    return f"{self.names[seat]} masked and shuffled the bag"
                if self.engine is not None and seat == self.players - 2:  # the last start value
                    return f"the racks are dealt; {self.names[self.engine.starter]} starts"
                return f"{self.names[seat]} unmasked the others' tiles"
            if "su" in extra:
                if set(extra) - {"su", "sh"}:
                    raise ProtocolError("a setup step carries the masked deck (and shares) only")
                if not mine:
                    deal.apply_setup(seat, _part(extra, "su"))
                    if deal.ready:  # the last step: its writer owes its shares of every other rack
                        deal.apply_shares(seat, _shares(extra))
                    elif "sh" in extra:
                        raise ProtocolError("a setup step before the last carries no shares")
                self._sync_rack()
                return f"{self.names[seat]} masked and shuffled the bag"
            if "sr" in extra:
                if set(extra) - {"sr", "sh"} or self.engine is not None:
                    raise ProtocolError("a start value comes once, with shares only")
                if not mine:
                    deal.apply_start_reveal(seat, _part(extra, "sr"))
                    deal.apply_shares(seat, _shares(extra))
                if deal.start_seed() is not None:
                    self._begin()
                    assert self.engine is not None
                    return f"the racks are dealt; {self.names[self.engine.to_move()]} starts"
                return f"{self.names[seat]} unmasked the others' tiles"
        except DealError as err:
            raise _refused(err) from None
        raise ProtocolError("no deal step is due now: a move is")

    def _verify(self) -> None:
        deal = self.deal
        if not deal.ready:
            self.verdict = {"verified": True, "failures": [], "problems": [], "note": "no tile was dealt"}
            return
        reveals = {s: k for s, k in self.keys.items() if s != self.me_seat}
        try:
            verdict = deal.verify(reveals)
        except DealError as err:
            self.verdict = {"verified": False, "failures": [str(err)],
                            "problems": [problem("reason", detail=str(err))]}
            return
        racks = {str(seat): "".join(rack) for seat, rack in sorted(verdict.racks.items())
                 if 0 <= seat < self.players and seat != self.me_seat}
        failures = list(verdict.failures)
        problems = list(verdict.problems)
        try:
            self._sync_rack()  # the tiles of its last draw whose shares never came, read from the keys
        except ProtocolError as err:
            failures.append(str(err))
            problems.append(problem("reason", detail=str(err)))
        settles = self.engine is not None and self.engine.final_pending()
        for seat, text, detail in self._reveal_final(racks):
            failures.append(text)
            problems.append(problem("rack_end", seat=seat, detail=detail))
        own = verdict.racks.get(self.me_seat)
        if settles and own is not None and self.engine is not None and not failures:
            self._own_rack_as_the_others_see_it(own)
        self.verdict = {"verified": verdict.verified and not failures, "failures": failures, "problems": problems,
                        "racks": racks}
        if self.verdict["verified"]:
            # Every card's tile: the whole deal, public now, from which the full record is rebuilt.
            self.verdict["cards"] = "".join(TILES[verdict.tiles[c]] if c in verdict.tiles else HIDDEN
                                            for c in range(len(deal.cards)))

    def _own_rack_as_the_others_see_it(self, dealt: Sequence[str]) -> None:
        """At the end this seat's rack in the order every other device reveals it (its dealt tiles,
        then those the table knew: a flying scarab taken back), so every device ends on one state."""
        assert self.engine is not None
        rack = self.engine.racks[self.me_seat]
        ordered = list(dealt) + [t for t in self.table.racks[self.me_seat] if t != HIDDEN]
        if ordered != rack and sorted(ordered) == sorted(rack):
            self.engine.reveal(self.me_seat, "".join(ordered))

    def _reveal_final(self, racks: Mapping[str, str]) -> list[tuple[int, str, str]]:
        """The racks left, proven at the end, settle the end-of-game adjustments; what did not fit
        (the seat, the line in English, the engine's reason)."""
        engine = self.engine
        failures: list[tuple[int, str, str]] = []
        if engine is None or not engine.final_pending():
            return failures
        for key, rack in racks.items():
            seat = int(key)
            known = "".join(t for t in engine.racks[seat] if t != HIDDEN)  # taken from the board: public
            try:
                engine.reveal(seat, rack + known)
            except IllegalMove as err:
                failures.append((seat, f"{self.names[seat]}'s rack at the end: {err}", str(err)))
        return failures

    # --- moves -------------------------------------------------------------------------
    def _dispute(self, move: Move, seat: int) -> Challenge | Accept | Vote | None:
        """A challenge, an accept or a vote, if ``move`` is one this protocol carries (else None): a
        challenge (the vote mode: a contest) or an accept in the challenge and vote modes, by the
        seat to move, for itself; a vote in the vote mode, by a voter, for itself alone."""
        if isinstance(move, (Play, Pass, Exchange)):
            return None
        if isinstance(move, Vote):
            if self.mode != "vote":
                raise IllegalMove("no-dispute", "no vote by links outside the vote mode")
            if len(move.votes) != self.players or move.votes[seat] not in "YN" \
                    or any(v != "-" for s, v in enumerate(move.votes) if s != seat):
                raise ProtocolError("by links each voter votes for itself alone: Y or N at its own seat, "
                                    "- at every other", key="vote_seat")
            return move
        if self.mode == "dictionary" or not isinstance(move, (Challenge, Accept)):
            raise IllegalMove("no-dispute", "no challenge in the dictionary mode")
        if isinstance(move, Challenge) and move.seat != seat:
            raise IllegalMove("not-your-challenge", "by links each seat challenges for itself")
        return move

    def _decision(self, move: Challenge | Accept | Vote, seat: int) -> Challenge | Accept | Vote | None:
        """What ``move`` makes the engine do: a challenge or an accept as it is; a vote nothing
        until the last voter's, which is every vote in (the engine's one ``!vote``)."""
        if not isinstance(move, Vote):
            return move
        voters = self.voters()
        if not voters:
            raise ProtocolError("no play waits for a vote", key="vote_seat")
        if seat not in voters or seat in self.votes:
            raise ProtocolError(f"{self.names[seat]} does not vote now", key="vote_seat")
        votes = {**self.votes, seat: move.votes[seat]}
        if len(votes) < len(voters):
            return None
        return Vote("".join(votes.get(s, "-") for s in range(self.players)))

    def _withdrawn(self, state: ScarabeoState, move: Challenge | Accept | Vote) -> bool:
        """Whether ``move`` takes the pending play back (the dictionary refuses a word of it)."""
        board = list(state.board)
        state.push(move)
        taken = state.board != board
        state.pop()
        return taken

    def _take_back(self) -> None:
        """The pending play's cards: those it showed back on its player's rack, those it drew to
        the bag (reshuffled next, in the same message, by the seat that challenged)."""
        if self.pending_cards is None:
            raise ProtocolError("no play of this game waits for a challenge")
        seat, shown, drawn = self.pending_cards
        self.deal.take_back(seat, shown, drawn)

    def outgoing(self, text: str, secret: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
        state = self.state
        move = self._own_vote(text) or state.parse_move(text)
        dispute = self._dispute(move, self.me_seat)
        if dispute is not None:
            decision = self._decision(dispute, self.me_seat)
            if decision is not None:
                state.check(decision)
            return self._outgoing_dispute(dispute, decision)
        assert isinstance(move, (Play, Pass, Exchange))
        state.check(move)
        shown = tiles_shown(state.board, self._public_rack(self.me_seat), move)
        returned: list[int] = []
        deal = self.deal
        try:
            if isinstance(move, Exchange):  # the whole rack, never with a scarab: every tile a card
                returned = deal.cards_for(move.tiles)
            cards = deal.cards_for(shown) if shown else []
            extra: dict[str, Any] = {}
            if deal.reshuffle_due() is not None:
                extra["rs"] = deal.reshuffle_step()
            shares = deal.shares_for()
            if shares:
                extra["sh"] = shares
            if cards:
                extra["tp"] = deal.prove_tiles(cards)
        except DealError as err:
            raise _refused(err) from None
        if returned:
            extra["rc"] = returned
        self.own_move = move
        return move_text(public_move(move)), extra

    def _own_vote(self, text: str) -> Vote | None:
        """``!vote Y`` or ``!vote N``: this seat's vote, written at its own seat."""
        words = text.split()
        if len(words) != 2 or words[0] != "!vote" or words[1].upper() not in ("Y", "N"):
            return None
        return Vote("".join(words[1].upper() if s == self.me_seat else "-" for s in range(self.players)))

    def _outgoing_dispute(self, move: Challenge | Accept | Vote,
                          decision: Challenge | Accept | Vote | None) -> tuple[str, dict[str, Any]]:
        deal = self.deal
        extra: dict[str, Any] = {}
        try:
            if deal.reshuffle_due() is not None:
                extra["rs"] = deal.reshuffle_step()
            shares = deal.shares_for()
            if shares:
                extra["sh"] = shares
            if decision is not None and self._withdrawn(self.state, decision):
                self._take_back()
                if deal.reshuffle_due() is not None:
                    extra["rt"] = deal.reshuffle_step()
        except DealError as err:
            raise _refused(err) from None
        self.own_move = move
        return move_text(move), extra

    def apply(self, seat: int, text: str, extra: Mapping[str, Any]) -> dict[str, Any]:
        if set(extra) - MOVE_PARTS:
            raise ProtocolError("the move carries parts a move has not")
        state = self.state
        deal = self.deal
        mine = seat == self.me_seat and not self.replaying
        parsed = state.parse_move(text)
        try:
            dispute = self._dispute(parsed, seat)
            decision = None if dispute is None else self._decision(dispute, seat)
        except IllegalMove as err:
            raise ProtocolError(str(err)) from None
        move = parsed
        if mine:
            own = self.own_move
            assert own is not None and move_text(public_move(own)) == text
            move = own
        returned: list[int] = []
        if isinstance(move, Exchange):
            rc = extra.get("rc")
            if not isinstance(rc, list) or len(rc) != len(move.tiles) \
                    or not all(isinstance(i, int) and not isinstance(i, bool) for i in rc):
                raise ProtocolError("an exchange names the cards it returns, one per tile")
            returned = rc
        elif "rc" in extra:
            raise ProtocolError("only an exchange returns cards")
        try:
            if not mine and not self.replaying:
                if (deal.reshuffle_due() is not None) != ("rs" in extra):
                    raise ProtocolError("the bag's reshuffle after an exchange is missing or not due")
                if "rs" in extra:
                    deal.apply_reshuffle(seat, _part(extra, "rs"))
                deal.apply_shares(seat, _shares(extra))  # exactly what the writer owes, if anything
                shown = [] if not isinstance(move, (Play, Pass, Exchange)) \
                    else tiles_shown(state.board, self._public_rack(seat), move)
                if bool(shown) != ("tp" in extra):
                    raise ProtocolError("the tiles laid come without their proof" if shown
                                        else "a proof of tiles comes with no tile shown")
                if shown and Counter(deal.verify_tiles(seat, _part(extra, "tp"))) != Counter(shown):
                    raise ProtocolError("the tiles proven are not the tiles laid")
            bag = len(state.bag)
            board = list(state.board)
            pending = state.pending
            undo = (list(self.pending_letters), dict(self.votes))
            before_cards = self.pending_cards
            drawn_now: list[int] = []
            if isinstance(move, Play):
                self.pending_letters = tiles_shown(self.table.board, self.table.racks[seat], move)
            if dispute is None or decision is not None:
                result: dict[str, Any] | None = state.push(decision or move).to_json()
                self.table.push(public_move(decision or move))
                self.votes = {}
            else:  # a vote before the last: kept until every vote is in
                assert isinstance(move, Vote)
                self.votes[seat] = move.votes[seat]
                result = None
            if pending is not None and dispute is not None and state.board != board:
                # Withdrawn: its tiles are cards on the player's rack again, proven again when laid.
                self.table.forget(pending.player, self.pending_letters)
                if pending.player != self.me_seat:
                    state.forget(pending.player, self.pending_letters)
            if self.replaying:
                pass
            elif returned:
                deal.return_cards(seat, returned)
            elif dispute is not None and not mine:  # this device's own did all this when written
                withdrawn = state.board != board
                if withdrawn:
                    self._take_back()
                if (withdrawn and deal.reshuffle_due() is not None) != ("rt" in extra):
                    raise ProtocolError("the bag's reshuffle after a withdrawn play is missing or not due")
                if "rt" in extra:
                    deal.apply_reshuffle(seat, _part(extra, "rt"))
            elif bag > len(state.bag):
                drawn = drawn_now = deal.assign(seat, bag - len(state.bag))
                if state.pending is not None:
                    self.pending_cards = (seat, list(deal.last_shown) if "tp" in extra else [], drawn)
            elif state.pending is not None and dispute is None:  # a play that drew nothing (the bag is empty)
                self.pending_cards = (seat, list(deal.last_shown) if "tp" in extra else [], [])
            if "rt" in extra and dispute is None:
                raise ProtocolError("only a challenge that withdraws a play reshuffles its draw")
            if not self.replaying and state.pending is None:
                self.pending_cards = None
            if dispute is None and isinstance(move, (Play, Pass)):
                self.undo = undo
                if not self.replaying:
                    laid = list(deal.last_shown) if "tp" in extra else []
                    self.last_cards = (seat, laid, list(drawn_now), before_cards)
            else:
                self.undo = None
                if not self.replaying:
                    self.last_cards = None
        except DealError as err:
            raise _refused(err) from None
        if not self.replaying:
            self._sync_rack()
        if mine:
            self.own_move = None
        if state.is_over():
            self.end_start = seat
        return {"move": text, "result": result}

    # --- take-back requests ---------------------------------------------------------------
    def take_back_refusal(self, seat: int) -> str | None:
        """A play or a pass may be taken back (not an exchange: its tiles are in the bag, mixed;
        not a challenge, an accept or a vote: the table's decision), never during a vote."""
        state = self.engine
        if state is None or not state.history():
            return "last"
        if state.pending is not None and state.pending.kind == "vote":
            return "vote"
        last = state.history()[-1]
        if isinstance(last, Exchange):
            return "exchange"
        if not isinstance(last, (Play, Pass)):
            return "dispute"
        if state.last_mover() != seat or self.undo is None:
            return "last"
        if not self.replaying and (self.last_cards is None or self.last_cards[0] != seat
                                   or self.deal.pending_return is not None):
            return "last"
        return None

    def take_back_extra(self, asker: int, secret: Mapping[str, Any]) -> dict[str, Any]:
        """The last acceptance withdraws the play exactly as an upheld challenge does: its tiles
        are cards of the player's rack again, the cards it drew go back to the bag, and this seat
        (never the player) reshuffles the bag in the same message (``rt``)."""
        extra: dict[str, Any] = {}
        try:
            self._deal_take_back(asker)
            if self.deal.reshuffle_due() is not None:
                extra["rt"] = self.deal.reshuffle_step()
        except DealError as err:
            raise _refused(err) from None
        return extra

    def _deal_take_back(self, asker: int) -> None:
        if self.last_cards is None or self.last_cards[0] != asker:
            raise ProtocolError(f"{self.names[asker]} has no play to take back", key="takeback_last")
        seat, shown, drawn, _ = self.last_cards
        if shown or drawn:
            self.deal.take_back(seat, shown, drawn)

    def take_back(self, asker: int, answerer: int, extra: Mapping[str, Any]) -> None:
        if set(extra) - {"rt"}:
            raise ProtocolError("a take-back carries the bag's reshuffle only")
        why = self.take_back_refusal(asker)
        if why is not None:
            raise ProtocolError(f"{self.names[asker]}'s last move cannot be taken back ({why})",
                                key=f"takeback_{why}")
        state = self.state
        deal = self.deal
        if not self.replaying:
            assert self.last_cards is not None
            mine = answerer == self.me_seat
            try:
                if not mine:  # this device's own acceptance did its part when it was written
                    self._deal_take_back(asker)
                    if (deal.reshuffle_due() is not None) != ("rt" in extra):
                        raise ProtocolError("the bag's reshuffle after a taken-back play is missing or not due")
                    if "rt" in extra:
                        deal.apply_reshuffle(answerer, _part(extra, "rt"))
            except DealError as err:
                raise _refused(err) from None
            if self.last_cards[2]:
                self.folded.append(len(deal.reshuffles) - 1)
            self.pending_cards = self.last_cards[3]
            self.last_cards = None
        assert self.undo is not None
        state.pop()
        self.table.pop()
        self.pending_letters, self.votes = self.undo
        self.undo = None
        if not self.replaying:
            self._sync_rack()

    # --- the end -----------------------------------------------------------------------
    def end_extra(self, secret: Mapping[str, Any]) -> dict[str, Any]:
        return {"k": self.deal.reveal_keys()} if self.deal.ready else {}

    def end(self, seat: int, extra: Mapping[str, Any]) -> None:
        if set(extra) - {"k"}:
            raise ProtocolError("a resignation or a leave carries the keys only")
        self.ended = seat
        self.end_start = seat
        if "k" in extra:
            self.keys[seat] = _part(extra, "k")
        if self.next_sender() is None and self.verdict is None:
            self._verify()

    def save(self) -> dict[str, Any] | None:
        pending = None if self.pending_cards is None else list(self.pending_cards)
        last = None if self.last_cards is None else [
            self.last_cards[0], self.last_cards[1], self.last_cards[2],
            None if self.last_cards[3] is None else list(self.last_cards[3])]
        return {"deal": self.deal.to_json(), "verdict": self.verdict, "pending_cards": pending,
                "last_cards": last, "folded": list(self.folded)}

    def replayed(self) -> None:
        self.replaying = False
        self._sync_rack()
        if self.verdict is not None:
            self._reveal_final(self.verdict.get("racks", {}))

    def early(self) -> str:
        """Live play (issue 42): the shares of tiles another seat just drew whose last missing share
        is this seat's, sent over the channel at once, so that the drawer's rack fills before this
        seat moves; they come again with its next message, as the chain requires."""
        if self.engine is None or self.over() or self.replaying:
            return ""
        try:
            return self.deal.early_shares()
        except DealError:
            return ""

    def read_early(self, seat: int, part: str) -> bool:
        if self.engine is None or self.over():
            return False
        try:
            read = self.deal.read_early(seat, part)
        except DealError as err:
            raise ProtocolError(str(err)) from None
        if read:
            self._sync_rack()
        return bool(read)

    def broken(self) -> dict[str, Any] | None:
        deal = self.deal
        return None if deal.broken is None else dict(deal.broken_problem or problem("reason", detail=deal.broken))

    def verified(self) -> tuple[bool | None, list[str]]:
        if self.verdict is None:
            return None, []
        return bool(self.verdict["verified"]), list(self.verdict["failures"])

    def problems(self) -> list[dict[str, Any]]:
        if self.verdict is None:
            return []
        found = self.verdict.get("problems")
        if isinstance(found, list) and all(isinstance(p, Mapping) for p in found) \
                and len(found) == len(self.verdict["failures"]):
            return [dict(p) for p in found]
        # a verdict saved before failures were kept as data: each line as it was written
        return [problem("reason", detail=str(text)) for text in self.verdict["failures"]]

    def scores(self) -> list[int]:
        return list(self.engine.scores) if self.engine is not None else [0] * self.players

    def view(self, secret: Mapping[str, Any]) -> dict[str, Any]:
        if self.engine is None:
            return {"position": None, "scores": self.scores(), "rack": None, "legal": [],
                    "dealing": True}
        state = self.engine
        outcome = state.outcome()
        rack = "".join(t for t in state.racks[self.me_seat])
        return {
            "position": state.position(),
            "scores": list(outcome.scores) if outcome else list(state.scores),
            "rack": rack,
            "rack_sizes": [len(r) for r in state.racks],
            "bag": len(state.bag),
            "legal": [],
            "dealing": False,
            "final_pending": state.final_pending(),
        }

    def export(self, meta: Mapping[str, Any]) -> dict[str, Any]:
        """The public record (no rack before the end), the same on every device."""
        record = public_record(self.state).to_json()
        record["meta"] = dict(meta)
        return record

    def review_record(self, meta: Mapping[str, Any]) -> dict[str, Any]:
        """The full game record once the deal is verified (every rack, every draw): the review
        replays it like a local game's."""
        return self.full_record(meta).to_json()

    def review_refusal(self) -> str | None:
        """Why the game's full record cannot be rebuilt (None: it can). Stable keys: ``playing``
        (not over, or keys still to come), ``unverified`` (the deal did not verify), ``undealt``
        (no tile was dealt, or an exchange was never reshuffled)."""
        if not self.over() or self.next_sender() is not None or self.verdict is None:
            return "playing"
        if not self.verdict.get("verified") or not isinstance(self.verdict.get("cards"), str):
            return "unverified"
        if self.engine is None or self.deal.pending_return is not None:
            return "undealt"
        return None

    def _folded(self, bags: list[str]) -> list[str]:
        """The bag's orders as the record replays them: a reshuffle after a take-back request is
        no mixing of the engine's (the play is gone from the record), so the bag it made follows
        the tiles drawn before the play, in the bag of the time."""
        out = [bags[0]]
        for j, order in enumerate(bags[1:]):
            if j in self.folded:
                out[-1] = out[-1][:len(out[-1]) - len(order)] + order
            else:
                out.append(order)
        return out

    def full_record(self, meta: Mapping[str, Any]) -> GameRecord:
        """The ordinary game record of the finished game, rebuilt from the verified deal: the
        engine's draw for who starts from the deal's start seed, the bag as the deal ordered it
        (``bags``), the moves as the table saw them (an exchange by count is the whole rack, now
        known). Replayed here and checked against the game as played: the same board, scores and
        end."""
        why = self.review_refusal()
        if why is not None:
            raise ProtocolError(f"no full record: {why}")
        assert self.verdict is not None and self.engine is not None
        seed = self.deal.start_seed()
        assert seed is not None
        try:
            bags = self._folded(self.deal.draw_orders(self.verdict["cards"], self.engine.starter))
            state = ScarabeoState.from_options({**self._engine_options(), "bags": bags}, seed, self.words)
            for move in self.table.history():
                state.push(move)
        except (DealError, IllegalMove, ValueError) as err:
            raise ProtocolError(f"the deal does not replay as the game was played: {err}") from None
        played = self.engine
        if (state.board != played.board or state.scores != played.scores
                or state.starter != played.starter or state.is_over() != played.is_over()):
            raise ProtocolError("the deal does not replay as the game was played")
        record = to_record(state)
        record.meta.update(meta)
        return record
