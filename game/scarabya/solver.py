"""Hints and computer players for Scarabya (classic and Ruins).

Levels (classic):
  1 random     - any legal placement.
  2 greedy     - the most points now (ties broken at random).
  3 shaper     - points now, minus a penalty for every scarab it covers, plus a bonus for scarabs
                 whose neighbours become tiles, rocks or frame (areas closing in around them).
  4 lookahead  - Monte-Carlo over the mission cards still to come: the best few level-3 candidates
                 are each followed by the same sampled orders of the remaining tiles, whose next
                 few tiles are played out by a fast policy (points now minus a covering penalty);
                 the highest mean of points now plus play-out points wins.
Ruins uses the same four levels with its own evaluation (see ``ruins_value``).

Everything is deterministic for a given position: the random choices come from a ``Rng`` seeded
from the game's seed and move count. The look-ahead can run in slices (``Search.step``) so a
browser can yield to its event loop between them.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Iterator
from typing import Any

from game.core import Rng
from game.scarabya import rules
from game.scarabya.grid import SITE
from game.scarabya.moves import DISCARD, Move, Place
from game.scarabya.ruins import (
    BOARD,
    PIECES,
    RUINS_TILES,
    PiecePlace,
    RuinsState,
    tile_value,
    zone_mask,
)
from game.scarabya.sets import CENTRE, TILES
from game.scarabya.state import ScarabyaState, describe_areas
from game.scarabya.tokens import pay

AnyState = ScarabyaState | RuinsState
AnyMove = Move | PiecePlace

LEVELS = {1: "random", 2: "greedy", 3: "shaper", 4: "lookahead"}
TOP_LEVEL = 4
#: look-ahead breadth (candidates kept from level 3) and depth (sampled orders of the rest of the deck)
CANDIDATES = 6
SAMPLES = 8
#: play-outs place at most this many of the remaining tiles (0: all of them)
HORIZON = 4
#: Ruins play-outs are dearer (whole-board scans for every piece), so the Ruins look-ahead is narrower
RUINS_CANDIDATES = 4
RUINS_SAMPLES = 4
#: level 3: points lost per covered scarab, points gained per blocked side of an open scarab
COVER_PENALTY = 2.0
ENCLOSE_BONUS = 0.3
#: the fast policy used inside look-ahead play-outs only penalises covering
ROLLOUT_COVER_PENALTY = 3.0

_FULL = SITE.full
_PLACEMENTS = rules.PLACEMENTS
_neighbours = rules.neighbours


def rng_for(state: AnyState, salt: int = 0) -> Rng:
    return Rng((state.seed * 0x9E3779B1 + len(state.history()) * 0x85EBCA77 + salt) & ((1 << 64) - 1))


# --- classic evaluation ----------------------------------------------------------------------
def area_points(symbols: int, open_after: int, mask: int) -> int:
    """Nominal points the placement ``mask`` earns now (area size per visible scarab)."""
    pts = 0
    for a in rules.closed_areas(open_after, mask):
        pts += a.bit_count() * (a & symbols).bit_count()
    return pts


def shaper_value(symbols: int, rocks: int, covered: int, closed: int, mask: int) -> tuple[float, int]:
    """(level-3 value, nominal points now) of placing ``mask``."""
    open_after = _FULL & ~(rocks | covered | mask)
    areas = rules.closed_areas(open_after, mask)
    pts = 0
    for a in areas:
        pts += a.bit_count() * (a & symbols).bit_count()
        closed |= a
    value = pts - COVER_PENALTY * (mask & symbols).bit_count()
    live = open_after & ~closed & symbols
    if live:
        blocked = _FULL & ~open_after
        sides = 0
        while live:
            bit = live & -live
            live ^= bit
            near = _neighbours(bit)
            sides += (near & blocked).bit_count() + 4 - near.bit_count()
        value += ENCLOSE_BONUS * sides
    return value, pts


def _halo(mask: int) -> int:
    """Squares within 4 steps of ``mask``: any area of 1-4 squares that a tile closes lies inside."""
    h = mask
    for _ in range(4):
        h |= _neighbours(h)
    return h


#: tile -> (mask, halo) for every in-bounds placement, for the play-out policy
_FAST: dict[str, tuple[tuple[int, int], ...]] = {
    t: tuple((m, _halo(m)) for _, _, m in plist) for t, plist in _PLACEMENTS.items()
}
#: square -> the square and its edge neighbours
_AROUND: tuple[int, ...] = tuple((1 << sq) | _neighbours(1 << sq) for sq in range(SITE.size))
_NOT_FIRST = SITE.not_first_col
_NOT_LAST = SITE.not_last_col


def fast_points(open_after: int, live: int, halo: int) -> tuple[int, int]:
    """(points, scarabs scored) for a placement, searching only from the live scarabs near it.

    Every open area of 5+ squares stays unscored between placements, so a new area of 1-4 squares
    holding a scarab must touch the new tile and lie within its halo.
    """
    cand = live & halo & open_after
    pts = 0
    scored = 0
    while cand:
        comp = _AROUND[(cand & -cand).bit_length() - 1] & open_after
        while True:
            if comp.bit_count() > 4:
                break  # too big: every square reached lies in the same large area
            grown = (
                comp | ((comp << 1) & _NOT_FIRST) | ((comp >> 1) & _NOT_LAST) | (comp << 10) | (comp >> 10)
            ) & open_after
            if grown == comp:
                found = comp & live
                pts += comp.bit_count() * found.bit_count()
                scored |= found
                break
            comp = grown
        cand &= ~comp
    return pts, scored


def _fast_pick(tile: str, blocked: int, covered: int, live: int, rng: Rng) -> tuple[int, int, int]:
    """The play-out policy: most points now minus a covering penalty. Returns (mask, points, scored)."""
    need = _neighbours(covered) & ~covered if covered else CENTRE
    open_before = _FULL & ~blocked
    best = -1e9
    best_mask = best_pts = best_scored = ties = 0
    for m, halo in _FAST[tile]:
        if m & blocked or not m & need:
            continue
        if live & halo:
            pts, scored = fast_points(open_before & ~m, live, halo)
            v = pts - ROLLOUT_COVER_PENALTY * (m & live).bit_count()
        else:
            pts = scored = 0
            v = 0.0
        if v > best:
            best, best_mask, best_pts, best_scored, ties = v, m, pts, scored, 1
        elif v == best:
            ties += 1
            if rng.below(ties) == 0:
                best_mask, best_pts, best_scored = m, pts, scored
    return best_mask, best_pts, best_scored


def playout(tiles: list[str] | str, rocks: int, live: int, covered: int, rng: Rng) -> int:
    """Points the fast policy collects placing ``tiles`` in order on a site.

    ``live`` is the set of scarabs still visible and unscored.
    """
    total = 0
    for t in tiles:
        m, p, scored = _fast_pick(t, rocks | covered, covered, live, rng)
        covered |= m
        live &= ~(m | scored)
        total += p
    return total


def ranked_places(state: ScarabyaState, rng: Rng) -> list[tuple[float, int, int, tuple[int, int, int]]]:
    """Legal placements with their level-3 value, best first: (value, tiebreak, points, placement)."""
    seat = state.to_move()
    out = []
    for p in state.placements():
        v, pts = shaper_value(state.symbols, state.rocks, state.covered[seat], state.closed[seat], p[2])
        out.append((v, rng.below(1 << 30), pts, p))
    out.sort(reverse=True)
    return out


def live_cells(state: ScarabyaState, seat: int) -> int:
    """Scarabs on ``seat``'s site still visible and not yet scored."""
    return state.symbols & ~(state.covered[seat] | state.closed[seat])


class Search:
    """A move search that can run in slices: ``while not s.step(20): yield_to_browser()``.

    For levels 1-3 the first ``step`` finishes; level 4 does one play-out per unit of work.
    """

    def __init__(
        self,
        state: AnyState,
        level: int = TOP_LEVEL,
        candidates: int | None = None,
        samples: int | None = None,
        seed: int | None = None,
    ) -> None:
        if level not in LEVELS:
            raise ValueError(f"level must be one of {sorted(LEVELS)}, not {level!r}")
        if state.is_over():
            raise ValueError("the game is over: there is no move to find")
        self.state = state
        self.level = level
        ruins = isinstance(state, RuinsState)
        self.candidates = candidates or (RUINS_CANDIDATES if ruins else CANDIDATES)
        self.samples = samples or (RUINS_SAMPLES if ruins else SAMPLES)
        self.rng = rng_for(state) if seed is None else Rng(seed)
        self.done = False
        self.move: AnyMove | None = None
        self.expected: float | None = None  # level 4: mean points now + later
        self.work_done = 0
        self.work_total = 1
        self.sweeps = 0  # level 4: sampled deck orders every candidate has been played out on
        self._steps: Iterator[None] = self._run()

    def step(self, budget_ms: float = 20.0) -> bool:
        """Work for about ``budget_ms``; True once the move is found."""
        deadline = time.perf_counter() + budget_ms / 1000.0
        while not self.done:
            next(self._steps)
            if time.perf_counter() >= deadline:
                break
        return self.done

    def best_so_far(self) -> AnyMove | None:
        """The move the search prefers now (level 4: level 3's choice, then the best of the last
        complete sweep); None before the first step."""
        return self.move

    def run(self) -> AnyMove:
        """Search to the end (blocking) and return the move."""
        while not self.done:
            next(self._steps)
        assert self.move is not None
        return self.move

    @property
    def progress(self) -> float:
        return 1.0 if self.done else self.work_done / max(1, self.work_total)

    def _finish(self, move: AnyMove) -> Iterator[None]:
        self.move = move
        self.done = True
        self.work_done = self.work_total
        yield

    def _run(self) -> Iterator[None]:
        state = self.state
        if isinstance(state, RuinsState):
            yield from _ruins_search(self, state)
            return
        moves = state.legal_moves()
        if moves == [DISCARD]:
            yield from self._finish(DISCARD)
            return
        tile = state.tile()
        assert tile is not None
        if self.level == 1:
            yield from self._finish(self.rng.choice(moves))
            return
        if self.level == 2:
            seat = state.to_move()
            open_before = state.open_squares(seat)
            best = -1
            ties: list[tuple[int, int, int]] = []
            for p in state.placements():
                pts = area_points(state.symbols, open_before & ~p[2], p[2])
                if pts > best:
                    best, ties = pts, [p]
                elif pts == best:
                    ties.append(p)
            k, anchor, _ = self.rng.choice(ties)
            yield from self._finish(Place(tile, k, anchor))
            return
        ranked = ranked_places(state, self.rng)
        rest = state.remaining_tiles()
        if self.level == 3 or not rest or len(ranked) == 1:
            k, anchor, _ = ranked[0][3]
            yield from self._finish(Place(tile, k, anchor))
            return
        # level 4: common random numbers - every candidate meets the same deck orders.
        # Until the first sweep ends, the answer on hand is level 3's.
        self.move = Place(tile, ranked[0][3][0], ranked[0][3][1])
        yield
        cands = ranked[: self.candidates]
        orders = []
        for _ in range(self.samples):
            order = list(rest)
            self.rng.shuffle(order)
            orders.append(order[:HORIZON] if HORIZON else order)
        seeds = [self.rng.next64() for _ in orders]
        self.work_total = len(cands) * len(orders)
        seat = state.to_move()
        starts = []
        for _, _, pts, p in cands:
            covered = state.covered[seat] | p[2]
            live = live_cells(state, seat) & ~p[2]
            for a in rules.closed_areas(_FULL & ~(state.rocks | covered), p[2]):
                live &= ~a
            starts.append((pts, p, covered, live))
        totals = [0.0] * len(cands)
        # sweep all candidates once per sampled order, so stopping after any sweep is fair to all
        for sweep, (order, s) in enumerate(zip(orders, seeds), start=1):
            for i, (_, _, covered, live) in enumerate(starts):
                totals[i] += playout(order, state.rocks, live, covered, Rng(s))
                self.work_done += 1
                yield
            values = [pts + totals[i] / sweep for i, (pts, *_rest) in enumerate(starts)]
            best = max(range(len(values)), key=lambda i: (values[i], -i))
            self.expected = values[best]
            bp = starts[best][1]
            self.move = Place(tile, bp[0], bp[1])
            self.sweeps = sweep
        self.done = True
        self.work_done = self.work_total
        yield


def choose(state: AnyState, level: int = TOP_LEVEL, seed: int | None = None) -> AnyMove:
    """The computer player's move at ``level`` (blocking)."""
    return Search(state, level, seed=seed).run()


def play(state: AnyState, level: int = TOP_LEVEL) -> dict[str, Any]:
    """Let the computer play the seat to move at ``level``; returns what ``push`` returns."""
    move = choose(state, level)
    if isinstance(state, RuinsState):
        assert isinstance(move, PiecePlace)
        return state.push(move)
    assert not isinstance(move, PiecePlace)
    return state.push(move)


def think(state: AnyState, level: int = TOP_LEVEL) -> Generator[None, None, str]:
    """The computer's move as a generator for a browser: it yields after every small unit of work
    (one play-out, well under a millisecond) and returns the move in notation."""
    search = Search(state, level)
    while not search.done:
        next(search._steps)
        yield
    assert search.move is not None
    return search.move.text()


def hint(state: AnyState, level: int = TOP_LEVEL, budget_ms: float | None = None) -> dict[str, Any]:
    """The best move now at ``level``, the points it scores now and a reason in words.

    With ``budget_ms`` the look-ahead stops when the budget is spent and answers with the best move
    of its last complete sweep (level 3's choice if it had not finished one).
    """
    search = Search(state, level)
    if budget_ms is None:
        move = search.run()
    else:
        search.step(budget_ms)
        move = search.move if search.move is not None else search.run()
    if isinstance(state, RuinsState):
        assert isinstance(move, PiecePlace)
        return ruins_explain(state, move, level)
    assert not isinstance(move, PiecePlace)
    seat = state.to_move()
    out: dict[str, Any] = {"move": move.text(), "level": level, "level_name": LEVELS[level]}
    if not isinstance(move, Place):
        out.update(points=0, reason=f"tile {state.tile()} fits nowhere on the site, so it is discarded")
        return out
    mask = TILES[move.tile].mask_at(SITE, move.orientation, move.anchor) or 0
    open_after = state.open_squares(seat) & ~mask
    areas = rules.closed_areas(open_after, mask)
    supply = list(state.supply)
    points = sum(
        sum(pay(supply, a.bit_count())) for a in areas for _ in range((a & state.symbols).bit_count())
    )
    covers = (mask & state.symbols).bit_count()
    parts = []
    said = describe_areas(areas, state.symbols)
    if said:
        parts.append(said)
    if covers:
        parts.append(f"covers {covers} scarab{'s' if covers > 1 else ''}")
    elif not said:
        parts.append("covers no scarab")
    if search.expected is not None:
        later = search.expected - points
        n = len(state.remaining_tiles())
        parts.append(f"sets up about {later:.1f} points over the {n} tiles still to come")
    reason = "; ".join(parts)
    out.update(points=points, reason=reason[0].upper() + reason[1:] if reason else reason)
    if search.expected is not None:
        out["expected"] = round(search.expected, 2)
    return out


# --- Ruins -----------------------------------------------------------------------------------
def ruins_value(state: RuinsState, occupied: list[int], seat: int, rivals: bool) -> float:
    """How good the round's board is for ``seat``: zones won count fully, zones only it has entered
    count for their share of squares covered; with ``rivals``, the best rival's figure is taken off."""

    def worth(p: int) -> float:
        total = 0.0
        for tile_id, zone in state.revealed():
            zm = zone_mask(zone)
            mine = (occupied[p] & zm).bit_count()
            if not mine:
                continue
            others = any(occupied[q] & zm for q in range(len(occupied)) if q != p)
            if others:
                continue
            v = tile_value(tile_id)
            total += v if mine == 4 else 0.3 * v * mine / 4
        return total

    own = worth(seat)
    if not rivals:
        return own
    return own - max(worth(q) for q in range(len(occupied)) if q != seat)


def ruins_ranked(
    state: RuinsState, rivals: bool, rng: Rng
) -> list[tuple[float, int, tuple[str, int, int, int]]]:
    seat = state.to_move()
    out = []
    for p in state.placements():
        occ = list(state.occupied)
        occ[seat] |= p[3]
        # prefer smaller pieces on ties: big pieces are worth keeping for later turns
        out.append((ruins_value(state, occ, seat, rivals) - 0.01 * p[3].bit_count(), rng.below(1 << 30), p))
    out.sort(reverse=True)
    return out


def ruins_playout(state: RuinsState, first: PiecePlace, seat: int, rng: Rng) -> Generator[None, None, float]:
    """Play ``first`` then the rest of the round by a greedy policy for every seat (one of its two
    best moves at random); yields after every move, returns own gain minus the best rival's gain."""
    rnd = state.round_index
    sim = state.copy()
    sim.push(first)
    while not sim.is_over() and sim.round_index == rnd:
        yield
        opts = ruins_ranked(sim, False, rng)[:2]
        n, k, a, _ = rng.choice(opts)[2]
        sim.push(PiecePlace(n, k, a))
    gains = [sim.scores[q] - state.scores[q] for q in range(state.num_players)]
    return float(gains[seat] - max(g for q, g in enumerate(gains) if q != seat))


def _ruins_search(search: Search, state: RuinsState) -> Iterator[None]:
    """The Ruins levels inside ``Search``: level 4 sweeps play-outs over the rest of the round, every
    candidate once per sweep, yielding after every simulated move."""
    rng = search.rng
    if search.level == 1:
        yield from search._finish(rng.choice(state.legal_moves()))
        return
    ranked = ruins_ranked(state, search.level >= 3, rng)
    n, k, a, _ = ranked[0][2]
    if search.level <= 3 or len(ranked) == 1:
        yield from search._finish(PiecePlace(n, k, a))
        return
    search.move = PiecePlace(n, k, a)  # level 3's answer until the first sweep ends
    yield
    cands = [PiecePlace(p[0], p[1], p[2]) for _, _, p in ranked[: search.candidates]]
    seat = state.to_move()
    totals = [0.0] * len(cands)
    search.work_total = len(cands) * search.samples
    for sweep in range(1, search.samples + 1):
        for i, move in enumerate(cands):
            totals[i] += yield from ruins_playout(state, move, seat, rng)
            search.work_done += 1
        best = max(range(len(cands)), key=lambda i: (totals[i], -i))
        search.move = cands[best]
        search.expected = totals[best] / sweep
        search.sweeps = sweep
    search.done = True
    search.work_done = search.work_total
    yield


def ruins_choose(state: RuinsState, level: int, seed: int | None = None) -> PiecePlace:
    """The Ruins computer player's move at ``level`` (blocking)."""
    move = Search(state, level, seed=seed).run()
    assert isinstance(move, PiecePlace)
    return move


def ruins_explain(state: RuinsState, move: PiecePlace, level: int) -> dict[str, Any]:
    seat = state.to_move()
    mask = PIECES[move.piece].mask_at(BOARD, move.orientation, move.anchor) or 0
    occ = list(state.occupied)
    occ[seat] |= mask
    points = 0
    parts = []
    for tile_id, zone in state.revealed():
        zm = zone_mask(zone)
        if not mask & zm:
            continue
        symbols = RUINS_TILES[tile_id]
        others = [q for q in range(state.num_players) if q != seat and state.occupied[q] & zm]
        if others:
            parts.append(f"spoils zone {zone} ({symbols}) for seat {others[0] + 1}")
        elif occ[seat] & zm == zm:
            points += tile_value(tile_id)
            parts.append(
                f"completes zone {zone} ({symbols}, {tile_value(tile_id)} points at the round's end)"
            )
        else:
            parts.append(f"claims {(occ[seat] & zm).bit_count()} of 4 squares of zone {zone} ({symbols})")
    reason = "; ".join(parts) or "keeps clear of the Ruins zones"
    return {
        "move": move.text(),
        "points": points,
        "reason": reason[0].upper() + reason[1:],
        "level": level,
        "level_name": LEVELS[level],
    }


__all__ = ["LEVELS", "TOP_LEVEL", "Search", "choose", "hint", "play", "playout", "shaper_value", "think"]
