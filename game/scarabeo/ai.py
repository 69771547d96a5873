"""The computer opponent and the hints, built on the move generator.

Levels (``LEVELS``, weakest first; ``"max"`` is the champion):

- ``beginner``: sees only about half of the plays, and of those only short words (at most five
  letters, at most four tiles); picks at random among the better half of what it sees, shorter
  words first.
- ``casual``: sees three quarters of the plays, words up to seven letters; picks at random among
  its best few by score.
- ``expert``: every play; score plus half the leave value.
- ``champion``: every play; equity = score + leave value (``leaves.py``, tuned by self-play);
  with the bag empty it looks one reply ahead with the opponent's rack (which is then known):
  going out, and blocking the opponent's best answer. (Optional terms, off because they did not
  pay on fresh seeds: a charge for the 3P squares a play brings within the opponent's reach,
  ``DANGER_WEIGHT``; the scarab exposure, ``SCARAB_EXPOSURE``; a leave weight above 1,
  ``CHAMPION_LEAVE_WEIGHT``.)
- ``greedy`` (not a playing level, a yardstick): the highest score now.

``think(state, level)`` is a generator that yields every few milliseconds of work and returns the
chosen move (``StopIteration.value``): the browser runs it in slices. ``choose`` runs it to the
end. ``best_moves`` ranks plays for the command line and ``hints`` for a human player.
Randomness comes from ``Rng`` seeded by the game's seed and the move number, so a game replays.
"""

from __future__ import annotations

import heapq
import time
import zlib
from dataclasses import dataclass
from typing import Any, Generator, Sequence

from game.core import Rng
from game.scarabeo import endgame, leaves, sim
from game.scarabeo.board import SIZE, SQUARES, WORD_MULT, square_name
from game.scarabeo.game import ScarabeoState
from game.scarabeo.movegen import (
    GenPlay, MoveGenerator, other_moves, rack_after, tiles_placed, to_play,
)
from game.scarabeo.moves import Accept, Challenge, Exchange, Move, Pass, Play, Vote, move_text
from game.scarabeo.rules import resolve_play
from game.scarabeo.scoring import score_play
from game.scarabeo.tiles import COUNTS, HIDDEN, RACK_SIZE, SCARAB, rack_value, sort_rack, tile_of


@dataclass(frozen=True)
class Level:
    name: str
    max_word: int  # longest main word the level sees
    max_tiles: int  # most tiles it puts down
    vision: float  # share of the plays it sees
    leave_weight: float
    top_share: float  # 0: best by equity; else a random pick among this share of its best
    shorter_first: bool
    endgame: bool
    #: Monte-Carlo simulation of the leading candidates (``sim.py``) instead of the static choice.
    simulate: bool = False


#: The champion's leave weight. 1.15 (the tuned values, fitted with a discount of 0.8 a turn,
#: counting a little more) looked better on tuning seeds but not on fresh ones (docs/scarabeo-ai.md,
#: "Champion against greedy: the second pass"): 1.
CHAMPION_LEAVE_WEIGHT = 1.0

LEVELS: dict[str, Level] = {
    "beginner": Level("beginner", 5, 4, 0.5, 0.0, 0.5, True, False),
    "casual": Level("casual", 7, 8, 0.75, 0.0, 0.05, False, False),
    "expert": Level("expert", 17, 8, 1.0, 0.5, 0.0, False, False),
    "champion": Level("champion", 17, 8, 1.0, CHAMPION_LEAVE_WEIGHT, 0.0, False, True),
    "grandmaster": Level("grandmaster", 17, 8, 1.0, 1.0, 0.0, False, True, True),
}
GREEDY = Level("greedy", 17, 8, 1.0, 0.0, 0.0, False, False)
ALIASES = {"1": "beginner", "2": "casual", "3": "expert", "4": "champion", "5": "grandmaster",
           "max": "champion", "greedy": "greedy"}
#: The wall-clock cap of the simulating level in ``think`` (the page): its own budget is counted
#: in work, so that a game replays; this only cuts a move on a slow or loaded device.
SIM_SECONDS = 2.6
#: Exchanging is worth the average leave of a fresh rack, about nothing, minus a small cost.
EXCHANGE_EQUITY = -2.0
#: A pass keeps the rack but gives away a turn's tempo (and two passes each end the game).
PASS_COST = 20.0
#: The leave's weight when the bag holds fewer tiles than a rack (none when it is empty).
NEAR_END_LEAVE = sim.NEAR_END_LEAVE
#: The exact endgame's budget for the hints (bag empty, two players), in ``sim``'s work units:
#: the grandmaster's a move, about 3 s in the page.
HINT_ENDGAME_WORK = float(sim.BUDGET)
#: How many plays the end-game look-ahead answers.
ENDGAME_CANDIDATES = 6
#: Board danger (champion, bag not empty): points charged per 3P square a play brings within
#: the opponent's reach (``_threat``); applied to the best few plays by equity. Off: measured
#: no better than without over 900 games (docs/scarabeo-ai.md); the leave tuning's second round
#: was played with 12.
DANGER_WEIGHT = 0.0
DANGER_CANDIDATES = 8
#: Scarab exposure (champion, bag not empty): a scarab on the board can be taken by whoever holds
#: its letter (the flying scarab), so a play is charged this many points × the chance that the
#: opponents hold the letter of each scarab it puts down, and credited the same for each scarab
#: it takes off the board (``held_chances``, ``scarab_exposure``): part of every play's equity.
#: Off: 16 (with the leave weight at 1.15) did not beat the champion without it on 400 fresh
#: seeds (docs/scarabeo-ai.md).
SCARAB_EXPOSURE = 0.0

_GENERATORS: dict[int, MoveGenerator] = {}


def level_of(name: str | Level) -> Level:
    """A level by name (``beginner``, ``casual``, ``expert``, ``champion``, ``grandmaster``,
    ``max``, ``greedy``, or 1-5); ValueError naming the choices otherwise."""
    if isinstance(name, Level):
        return name
    key = ALIASES.get(str(name).lower(), str(name).lower())
    if key == "greedy":
        return GREEDY
    if key not in LEVELS:
        raise ValueError(f"unknown level {name!r}: choose {', '.join(LEVELS)}, max or greedy (or 1-5)")
    return LEVELS[key]


def generator_for(lexicon: Any) -> MoveGenerator:
    """One generator per lexicon object, so the cross-check cache lasts the whole game."""
    if not hasattr(lexicon, "edge_array"):
        raise ValueError("the computer player needs the lexicon automaton (lexicon.Lexicon) as "
                         f"its word list, not {type(lexicon).__name__}")
    gen = _GENERATORS.get(id(lexicon))
    if gen is None or gen.lexicon is not lexicon:
        gen = _GENERATORS[id(lexicon)] = MoveGenerator(lexicon)
    return gen


@dataclass(frozen=True)
class Choice:
    """A candidate turn with what the level thinks of it."""

    move: Move
    score: int
    equity: float
    leave: str

    def to_json(self) -> dict[str, Any]:
        return {"move": move_text(self.move), "score": self.score,
                "equity": round(self.equity, 2), "leave": self.leave}


def _rng(state: ScarabeoState, salt: int = 0) -> Rng:
    return Rng((state.seed * 1_000_003 + len(state.history()) * 7919 + salt) & (2**64 - 1))


def _sees(seed: int, p: GenPlay, vision: float) -> bool:
    if vision >= 1.0:
        return True
    h = zlib.crc32(f"{seed}|{p[1]}|{int(p[2])}|{p[3]}|{p[4]}".encode())
    return h < vision * 0xFFFFFFFF


def _visible(state: ScarabeoState, plays: list[GenPlay], level: Level,
             ) -> Generator[None, None, list[GenPlay]]:
    if level.vision >= 1.0 and level.max_word >= 17 and level.max_tiles >= RACK_SIZE:
        return plays
    board = state.board
    seed = _rng(state, 1).next64()
    out: list[GenPlay] = []
    for i in range(0, len(plays), SLICE):
        out.extend(p for p in plays[i:i + SLICE]
                   if len(p[3]) <= level.max_word and tiles_placed(board, p) <= level.max_tiles
                   and _sees(seed, p, level.vision))
        yield
    return out


def unseen_tiles(state: ScarabeoState, player: int) -> list[str]:
    """The tiles ``player`` cannot see (bag and other racks), inferred from the set."""
    left = dict(COUNTS)
    for c in state.board:
        if c:
            left[tile_of(c)] -= 1
    for t in state.racks[player]:
        if t != HIDDEN:
            left[t] -= 1
    return [t for t, n in left.items() for _ in range(n)]


def think(state: ScarabeoState, level: str | Level = "champion", lexicon: Any = None,
          seconds: float | None = SIM_SECONDS, budget: float | None = None,
          ) -> Generator[None, None, Move]:
    """The computer's turn, in slices: ``yield`` every few ms of work; returns the move.

    ``lexicon`` defaults to the state's word list (it must be a ``lexicon.Lexicon``).
    ``seconds``: the simulating level's wall-clock cap (None: its work budget alone, which
    replays exactly; ``choose`` passes None); ``budget``: that work budget (None: ``sim.BUDGET``,
    the page's)."""
    lv = level_of(level)
    lex = lexicon if lexicon is not None else state.word_list
    dispute = _dispute_move(state, lex)
    if dispute is not None:
        return dispute
    if lv.simulate:
        found = yield from simulate(state, lex, budget, seconds)
        return found.move
    ranked: list[Choice] = []
    yield from rank_plays(state, lv, lex, ranked, top=1)
    if not ranked:
        return Pass()
    if lv.top_share > 0 and len(ranked) > 1:
        return _pick(state, lv, ranked)
    return ranked[0].move


def simulate(state: ScarabeoState, lexicon: Any = None, budget: float | None = None,
             seconds: float | None = None) -> Generator[None, None, sim.Analysis]:
    """The simulating level's analysis of the turn (``sim.analyse`` from the champion's
    ranking), in slices: the move, how it was found (``kind``) and the candidates' values."""
    lex = lexicon if lexicon is not None else state.word_list
    started = time.perf_counter()
    ranked: list[Choice] = []
    yield from rank_plays(state, LEVELS["champion"], lex, ranked, sim.CANDIDATES)
    if seconds is not None:  # the cap counts the ranking too
        seconds = max(0.0, seconds - (time.perf_counter() - started))
    found: sim.Analysis = yield from sim.analyse(state, generator_for(lex), ranked, budget, seconds)
    return found


def choose(state: ScarabeoState, level: str | Level = "champion", lexicon: Any = None,
           budget: float | None = None) -> Move:
    """``think`` run to the end (blocking; the simulating level on its work budget alone, so
    that a seeded game replays)."""
    gen = think(state, level, lexicon, seconds=None, budget=budget)
    while True:
        try:
            next(gen)
        except StopIteration as stop:
            move: Move = stop.value
            return move


def best_moves(state: ScarabeoState, top: int = 10, level: str | Level = "champion",
               lexicon: Any = None) -> list[Choice]:
    """The ``top`` best turns for the player to move, best first (blocking).

    At ``champion`` (``max``) they are ordered by score; at other levels by the level's own
    preference (equity, then score)."""
    lv = level_of(level)
    lex = lexicon if lexicon is not None else state.word_list
    ranked: list[Choice] = []
    by_score = lv.name == "champion"
    for _ in rank_plays(state, lv, lex, ranked, top=max(1, top), by_score=by_score):
        pass
    if by_score:
        ranked.sort(key=lambda c: (-c.score, -c.equity, move_text(c.move)))
    return ranked[:top]


def hints(state: ScarabeoState, top: int = 5, lexicon: Any = None) -> list[dict[str, Any]]:
    """The best plays by score for a human, each with its words and the tiles to place
    tentatively on the board: ``[{"move", "score", "words", "placements": [[square, tile]…],
    "swaps": [square…]}]``."""
    gen = think_hints(state, top, lexicon)
    while True:
        try:
            next(gen)
        except StopIteration as stop:
            found: list[dict[str, Any]] = stop.value
            return found


def think_hints(state: ScarabeoState, top: int = 5, lexicon: Any = None,
                endgame_work: float = HINT_ENDGAME_WORK,
                ) -> Generator[None, None, list[dict[str, Any]]]:
    """``hints`` in slices for the browser (yields every few ms, returns the list).

    With the bag empty and two players the hints come from the exact endgame when it is proved
    within ``endgame_work`` work units (``sim.counted_work``; 0: never): the solver's best play
    and the best plays by score, ordered by the final spread each leads to under best play on
    both sides, each with ``"value"`` (that spread, the player's score minus the other's at the
    game's end) and ``"exact": True``. Not proved: the order by score, each with
    ``"exact": False``. Hints are plays: when passing is the best, the solver's value of the
    pass is not among them."""
    lex = lexicon if lexicon is not None else state.word_list
    ranked: list[Choice] = []
    yield from rank_plays(state, LEVELS["champion"], lex, ranked, top=max(1, top), by_score=True)
    ranked.sort(key=lambda c: (-c.score, -c.equity, move_text(c.move)))
    plays = [c for c in ranked if isinstance(c.move, Play)][:top]
    if not state.bag and state.num_players == 2 and plays and endgame_work > 0:
        exact = yield from _exact_hints(state, lex, plays, top, endgame_work)
        if exact is not None:
            return exact
        return [{**describe(state, c), "exact": False} for c in plays]
    return [describe(state, c) for c in plays]


def _exact_hints(state: ScarabeoState, lexicon: Any, plays: list[Choice], top: int, work: float,
                 ) -> Generator[None, None, list[dict[str, Any]] | None]:
    """The hints of an endgame ordered by the solver (``think_hints``); None unless the best
    and every hint are proved within ``work``."""
    try:
        # With the bag empty the tiles a player cannot see are exactly the other rack, so
        # reading it is no peeking (as ``_endgame``); a seat's masked state has it hidden, and
        # the solver then takes the unseen tiles.
        solver = endgame.EndgameSolver(state, generator_for(lexicon))
    except endgame.EndgameError:
        return None
    floor = yield from solver.proof_floor()
    if floor * sim.MOVEGEN_WORK >= work:
        return None  # the budget cannot pay for a proof: the hints by score at once
    search = solver.search
    search.should_stop = lambda: sim.counted_work(search) >= work
    sol = yield from solver.run()
    if not sol.complete:
        return None
    moves = [(c.move, c.score) for c in plays]
    first = sol.line[0] if sol.line else None
    if first is not None and isinstance(first.move, Play) and all(first.move != m for m, _ in moves):
        moves.insert(0, (first.move, first.score))  # the solver's best, if not the best by score
    valued = yield from solver.values(moves)
    if not all(v.complete for v in valued):
        return None
    # Best first; equal spreads by score, then notation (a fixed order).
    valued.sort(key=lambda v: (-v.value, -v.score, move_text(v.move)))
    out = []
    for v in valued[:top]:
        m = v.move
        assert isinstance(m, Play)  # every move valued here is a play
        left = rack_after(state.board, state.racks[state.turn],
                          (v.score, m.start, m.across, m.word, tuple(m.swaps)))
        item = describe(state, Choice(m, v.score, float(v.value), sort_rack(left)))
        out.append({**item, "value": v.value, "exact": True})
    return out


def describe(state: ScarabeoState, c: Choice) -> dict[str, Any]:
    """A choice as the page shows it: words formed and tiles to place."""
    item: dict[str, Any] = {"move": move_text(c.move), "score": c.score, "words": [],
                            "placements": [], "swaps": [], "leave": c.leave}
    if isinstance(c.move, Play):
        board = state.board[:]
        for sq in c.move.swaps:
            board[sq] = board[sq].upper()
        placements = resolve_play(board, c.move)
        bd = score_play(board, placements, c.move.across, state.first_play)
        item["words"] = [w.word for w in bd.words]
        item["placements"] = [[square_name(sq), ch] for sq, ch in placements]
        item["swaps"] = [square_name(sq) for sq in c.move.swaps]
    return item


# --- ranking -------------------------------------------------------------------------------

def rank(state: ScarabeoState, level: str | Level, lexicon: Any, top: int,
         ) -> Generator[None, None, list[Choice]]:
    """The level's ranked choices, best first (at least ``top`` when there are that many), in
    slices: the candidates the simulating level starts from."""
    out: list[Choice] = []
    yield from rank_plays(state, level_of(level), lexicon, out, top)
    return out


def rank_plays(state: ScarabeoState, lv: Level, lexicon: Any, out: list[Choice], top: int,
          by_score: bool = False) -> Generator[None, None, None]:
    """Fill ``out`` with the level's best choices, best first (at least ``top`` when there
    are that many); with ``by_score``, the ``top`` highest-scoring plays (with their equity).

    Every step over the plays yields every ``SLICE`` items: with two scarabs there can be
    over 100 000 plays, and one blocking sort of them is a long task in the browser."""
    if state.is_over():
        return
    gen = generator_for(lexicon)
    player = state.turn
    rack = state.racks[player]
    plays: list[GenPlay] = []
    yield from gen.iter_plays(state.board, rack, plays, state.first_play,
                              max_tiles=lv.max_tiles, max_len=lv.max_word)
    plays = yield from _visible(state, plays, lv)
    bag = len(state.bag)
    weight = lv.leave_weight * (1.0 if bag >= RACK_SIZE else NEAR_END_LEAVE if bag > 0 else 0.0)
    want = max(top, 1) if lv.top_share == 0 else max(top, int(len(plays) * lv.top_share) + 1)
    plays = yield from _sort_by_score(plays)
    swappable = sum(1 for c in state.board if c.islower())
    danger = lv.endgame and DANGER_WEIGHT > 0 and bag > 0 and not state.first_play
    exposure = lv.endgame and SCARAB_EXPOSURE > 0 and bag > 0
    if by_score:
        choices = [_valued(state.board, rack, p, weight) for p in plays[:want]]
    else:
        chance = held_chances(state) if exposure else None
        choices = yield from _by_equity(state.board, rack, plays, weight,
                                        max(want, DANGER_CANDIDATES) if danger else want,
                                        swappable, chance, SCARAB_EXPOSURE)
        if danger:
            choices = _less_danger(state.board, choices, DANGER_WEIGHT)
    for m in other_moves(state.board, rack):
        leave_tiles = rack if isinstance(m, Pass) else []
        eq = (EXCHANGE_EQUITY if isinstance(m, Exchange)
              else weight * leaves.value(leave_tiles) - PASS_COST)
        if bag == 0 and isinstance(m, Exchange):
            continue
        choices.append(Choice(m, 0, eq, sort_rack(leave_tiles)))
    choices.sort(key=lambda c: (-c.equity, -c.score, move_text(c.move)))
    if lv.endgame and bag == 0 and state.num_players == 2 and plays:
        yield
        choices = yield from _endgame(state, gen, plays, choices)
    out.extend(choices)


#: Plays handled between two yields when ranking (a few ms in the browser).
SLICE = 2048


def _sort_by_score(plays: list[GenPlay]) -> Generator[None, None, list[GenPlay]]:
    """The plays by decreasing score, ties by square, direction, word and swaps: a bucket per
    score (filled in slices), each bucket sorted on its own (plain tuple order, no key)."""
    buckets: dict[int, list[GenPlay]] = {}
    for i in range(0, len(plays), SLICE):
        for p in plays[i:i + SLICE]:
            b = buckets.get(p[0])
            if b is None:
                buckets[p[0]] = [p]
            else:
                b.append(p)
        yield
    out: list[GenPlay] = []
    done = 0
    for score in sorted(buckets, reverse=True):
        b = buckets[score]
        b.sort()
        out.extend(b)
        done += len(b)
        if done >= SLICE:
            done = 0
            yield
    return out


def _valued(board: list[str], rack: list[str], p: GenPlay, weight: float) -> Choice:
    left = sort_rack(rack_after(board, rack, p))
    return Choice(to_play(p), p[0], p[0] + weight * leaves.value(left), left)


def _best_leave(rack: Sequence[str], extra_scarabs: int) -> float:
    """The most any leave can be worth: the best sub-rack, counting the scarabs that swaps
    could bring as extra tiles (an upper bound)."""
    tiles = list(rack) + [SCARAB] * extra_scarabs
    seen: dict[str, float] = {}
    for mask in range(1 << len(tiles)):
        key = sort_rack(t for i, t in enumerate(tiles) if mask >> i & 1)
        if key not in seen and len(key) < RACK_SIZE:
            seen[key] = leaves.value(key)
    return max(seen.values(), default=0.0)


def _by_equity(board: list[str], rack: list[str], plays: list[GenPlay], weight: float,
               want: int, swappable: int = 0, chance: dict[str, float] | None = None,
               exposure: float = 0.0) -> Generator[None, None, list[Choice]]:
    """The ``want`` best plays by score + weight × leave, from plays sorted by score: stops as
    soon as no later play can enter the list (its score plus the largest leave is too low).

    With ``chance`` (``held_chances``): less ``exposure`` × (the chance that the opponents
    hold the letter of each scarab the play puts down − the same for each scarab it takes off
    the board), the scarab exposure; the bound then counts the largest credit too."""
    if weight == 0:
        out: list[Choice] = []
        for i in range(0, min(want, len(plays)), SLICE):
            out.extend(Choice(to_play(p), p[0], float(p[0]), "") for p in plays[i:min(i + SLICE, want)])
            yield
        return out
    bound = weight * _best_leave(rack, swappable) + 1e-9
    if chance is not None:
        bound += exposure * sum(chance.get(c.upper(), 0.0) for c in board
                                 if c.islower() and c.upper() in rack)
    cache: dict[str, float] = {}
    best: list[tuple[float, int, GenPlay, str]] = []
    floor = float("-inf")
    for idx, p in enumerate(plays):
        if len(best) >= want and p[0] + bound < floor:
            break
        if idx % SLICE == SLICE - 1:
            yield
        left = sort_rack(rack_after(board, rack, p))
        v = cache.get(left)
        if v is None:
            v = cache[left] = leaves.value(left)
        eq = p[0] + weight * v
        if chance is not None and (p[4] or not p[3].isupper()):
            eq -= exposure * scarab_exposure(board, p, chance)
        if len(best) < want or eq > floor:
            best.append((eq, idx, p, left))
            if len(best) > want * 2:
                best.sort(key=lambda x: (-x[0], x[1]))
                del best[want:]
            if len(best) >= want:
                floor = sorted((b[0] for b in best), reverse=True)[want - 1]
    best.sort(key=lambda x: (-x[0], x[1]))
    return [Choice(to_play(p), p[0], eq, left) for eq, _, p, left in best[:want]]


_W_SQUARES = tuple(sq for sq in range(SQUARES) if WORD_MULT[sq] == 3)


def _threat(board: Sequence[str], extra: frozenset[int] = frozenset()) -> float:
    """How open the empty 3P squares are: for each, (9 − the fewest tiles a word along its row
    or column needs to cover it and touch the tiles on the board) / 8, when that is at most 8.
    ``extra`` squares count as occupied (a candidate play's new tiles)."""
    total = 0.0
    for w in _W_SQUARES:
        if board[w] or w in extra:
            continue
        r0, c0 = divmod(w, SIZE)
        best = RACK_SIZE + 1
        for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            for d in range(RACK_SIZE):
                r, c = r0 + dr * d, c0 + dc * d
                if not (0 <= r < SIZE and 0 <= c < SIZE) or d + 1 >= best:
                    break
                s = r * SIZE + c
                if board[s] or s in extra:
                    best = min(best, d)  # the word reaches a tile: d new tiles
                    break
                # a perpendicular neighbour makes s an anchor: d + 1 new tiles
                for nr, nc in ((r + dc, c + dr), (r - dc, c - dr)):
                    if 0 <= nr < SIZE and 0 <= nc < SIZE:
                        n = nr * SIZE + nc
                        if board[n] or n in extra:
                            best = min(best, d + 1)
        if best <= RACK_SIZE:
            total += (RACK_SIZE + 1 - best) / RACK_SIZE
    return total


def _less_danger(board: list[str], choices: list[Choice], weight: float) -> list[Choice]:
    """The choices with ``weight`` × the 3P squares each play opens (``_threat`` after − before)
    taken off their equity, best first."""
    before = _threat(board)
    out: list[Choice] = []
    for c in choices:
        if isinstance(c.move, Play):
            new = frozenset(sq for sq in c.move.squares() if not board[sq])
            opened = _threat(board, new) - before
            c = Choice(c.move, c.score, c.equity - weight * opened, c.leave)
        out.append(c)
    out.sort(key=lambda c: (-c.equity, -c.score, move_text(c.move)))
    return out


def held_chances(state: ScarabeoState) -> dict[str, float]:
    """For each letter, the chance that the other racks hold at least one copy, from the player
    to move's view: those racks' tiles drawn at random from the tiles the player cannot see."""
    me = state.turn
    unseen = state.unseen_counts(me)
    total = sum(unseen.values())
    drawn = min(total, sum(len(r) for i, r in enumerate(state.racks) if i != me))
    out: dict[str, float] = {}
    for t, n in unseen.items():
        miss = 1.0
        for i in range(drawn):
            if total - n - i <= 0:
                miss = 0.0
                break
            miss *= (total - n - i) / (total - i)
        out[t] = 1.0 - miss
    return out


def scarab_exposure(board: Sequence[str], p: GenPlay, chance: dict[str, float]) -> float:
    """The scarab exposure a play adds: for each scarab it puts down, the chance that the
    opponents hold its letter (and could take it), less the same for each scarab it takes off."""
    delta = 0.0
    step = 1 if p[2] else SIZE
    for k, ch in enumerate(p[3]):
        if ch.islower() and not board[p[1] + k * step]:
            delta += chance.get(ch.upper(), 0.0)
    for sq in p[4]:
        delta -= chance.get(board[sq].upper(), 0.0)
    return delta


def _pick(state: ScarabeoState, lv: Level, ranked: list[Choice]) -> Move:
    plays = [c for c in ranked if isinstance(c.move, Play)]
    if not plays:
        return ranked[0].move
    rng = _rng(state, 2)
    if lv.shorter_first:
        # Shorter words first, then the score: a beginner reaches for the words it knows.
        plays.sort(key=lambda c: (len(c.move.word) if isinstance(c.move, Play) else 0, -c.score))
        pool = plays[:max(1, len(plays) // 2)]
    else:
        pool = plays
    return pool[rng.below(len(pool))].move


def _endgame(state: ScarabeoState, gen: MoveGenerator, plays: list[GenPlay],
             choices: list[Choice]) -> Generator[None, None, list[Choice]]:
    """Bag empty, two players: the opponent's rack is known. Value each of the best candidates
    (by score, plus going out) as my score − the opponent's best answer, where going out is
    worth twice the rack left on the other side (the closer gains it, the other loses it)."""
    me = state.turn
    rack = state.racks[me]
    # With the bag empty the tiles a player cannot see are exactly the other rack
    # (``unseen_tiles``), so reading it is no peeking.
    opp_rack = state.racks[1 - me]
    if HIDDEN in opp_rack:  # a seat's masked state (game.scarabeo.public): infer it the same way
        opp_rack = unseen_tiles(state, me)
    opp_value = rack_value(opp_rack)
    board = state.board

    def out_bonus(p: GenPlay) -> int:
        return 2 * opp_value if tiles_placed(board, p) == len(rack) else 0

    # Plays come sorted by score: the candidates are the best few by score plus going out.
    keyed: list[tuple[int, int, bool, str, tuple[int, ...]]] = []
    for i in range(0, len(plays), SLICE):
        keyed.extend((-(p[0] + out_bonus(p)), p[1], p[2], p[3], p[4]) for p in plays[i:i + SLICE])
        yield
    chosen = heapq.nsmallest(ENDGAME_CANDIDATES, range(len(plays)), key=keyed.__getitem__)
    cands = [plays[i] for i in chosen]
    valued: list[Choice] = []
    for p in cands:
        left = rack_after(board, rack, p)
        if not left:
            valued.append(Choice(to_play(p), p[0], float(p[0] + 2 * opp_value), ""))
            continue
        after = board[:]
        for sq in p[4]:
            after[sq] = after[sq].upper()
        play = to_play(p)
        for sq, ch in zip(play.squares(), p[3]):
            if not after[sq]:
                after[sq] = ch
        replies: list[GenPlay] = []
        yield from gen.iter_plays(after, opp_rack, replies, False, swaps=False)
        reply = 0
        left_bonus = 2 * rack_value(left)
        for i in range(0, len(replies), SLICE):
            for r in replies[i:i + SLICE]:
                gain = r[0] + (left_bonus if tiles_placed(after, r) == len(opp_rack) else 0)
                if gain > reply:
                    reply = gain
            yield
        valued.append(Choice(play, p[0], float(p[0] - reply - rack_value(left)), sort_rack(left)))
    rest = [c for c in choices if not any(c.move == v.move for v in valued)]
    valued.sort(key=lambda c: (-c.equity, -c.score, move_text(c.move)))
    return valued + rest


def _dispute_move(state: ScarabeoState, lexicon: Any) -> Move | None:
    """A pending play: challenge it if the lexicon refuses a word, else let it stand; a vote:
    each voter says yes if the lexicon knows every word."""
    p = state.pending
    if p is None:
        return None
    # A vote is on the words the game's list did not know; a challenge on every word formed.
    words = p.unknown if p.kind == "vote" else tuple(w.word for w in p.breakdown.words)
    ok = all(lexicon.contains(w) or lexicon.abbreviation(w) is not None
             for w in words) if lexicon is not None else True
    if p.kind == "vote":
        n = state.num_players
        votes = "".join("-" if n == 4 and s == p.player else ("Y" if ok else "N") for s in range(n))
        return Vote(votes)
    if p.player != state.turn and not ok:
        return Challenge(state.turn)
    if p.player == state.turn:
        return Accept()
    return None
