"""Every legal play of a Scarabeo position, with its exact score: Appel–Jacobson over the DAWG.

Why a DAWG and not a GADDAG: the lexicon's minimal DAWG has 56 k nodes for 3.6 M forms (Italian
inflections share their endings); a GADDAG has to be built in the page from the word list and
is orders of magnitude larger. ``docs/scarabeo-ai.md`` gives the measurement.

The algorithm, per line (17 rows across, 17 columns down):

- cross-checks: for each empty square, the bitset of letters that make a valid perpendicular
  word, with the perpendicular word's partial score (letter sum with premiums, word multiplier).
  They are cached by the perpendicular fragments (``before``, ``after``) in the generator, so
  they carry over from turn to turn: a new play changes only a few fragments.
- anchors: empty squares next to a tile (the centre on an empty board). Each play is generated
  once, from the leftmost anchor it covers: its left part is either the tiles already before
  the anchor or rack tiles on the empty non-anchor squares before it, then it extends right
  through the DAWG, letters filtered by the cross-check bitset and the rack.
- scores are kept incrementally (premiums count every time, rules.md §1), then the first-play
  doubling and the bonuses of ``scoring.play_score`` are added.

Scarabs on the rack stand for any letter (a lowercase letter in the written word); flying-scarab
swaps are tried for every subset of the scarabs on the board whose letter is on the rack.

Scarabs are searched lazily: a letter comes from the rack's letter tiles first and from a scarab
only when those run out; each recorded play is then spelled out in every legal placement of the
scarabs (they score alike but for the bonuses' no-scarab extra). ``iter_plays`` yields between
anchors and between first letters of the left parts, so the browser can slice the work.

A play is reported as a ``GenPlay`` tuple ``(score, start, across, word, swaps)``, the word
written whole as ``push`` records it. A single tile that forms words both ways is written one way
(across, as ``play_from_placements`` does) unless the two notations score differently (a SCARABEO
bonus depends on the main word), in which case both are reported.
"""

from __future__ import annotations

from typing import Any, Iterator, Sequence

from game.scarabeo.board import CENTRE, LETTER_MULT, SIZE, SQUARES, WORD_MULT
from game.scarabeo.moves import Exchange, Move, Pass, Play
from game.scarabeo.rules import exchange_refusal
from game.scarabeo.scoring import (
    NO_SCARAB_EXTRA, SCARABEO_BONUS, SCARABEO_WORDS, TILE_BONUS, play_score, word_run,
)
from game.scarabeo.tiles import LETTERS, SCARAB, VALUES, sort_rack

#: (score, start square, across, written word, flying-scarab swaps)
GenPlay = tuple[int, int, bool, str, tuple[int, ...]]

NLETTERS = len(LETTERS)
#: Cross-check fragments kept between turns (a game uses a few thousand).
CROSS_CACHE_MAX = 100_000
ALL = (1 << NLETTERS) - 1
_LETTER_MASK = 0x1F
_LAST_FLAG = 0x20
_CHILD_SHIFT = 6
_INDEX = {ch: i for i, ch in enumerate(LETTERS)}
_VAL = [VALUES[ch] for ch in LETTERS]
_UPPER = list(LETTERS)
_LOWER = list(LETTERS.lower())
_BONUS = [TILE_BONUS.get(n, 0) for n in range(9)]
# Squares of each line: 17 rows (across) then 17 columns (down).
_LINES: list[tuple[bool, list[int]]] = (
    [(True, [r * SIZE + c for c in range(SIZE)]) for r in range(SIZE)]
    + [(False, [r * SIZE + c for r in range(SIZE)]) for c in range(SIZE)]
)


class MoveGenerator:
    """Generates plays against one lexicon; keep one per lexicon (it caches cross-checks).

    ``lexicon`` is a ``lexicon.Lexicon`` (anything with its flat ``edge_array``, ``root`` and
    ``contains``/``abbreviation``).
    """

    def __init__(self, lexicon: Any) -> None:
        self.lexicon = lexicon
        # The DAWG's flat edge array (see lexicon/automaton.py): letter | last << 5 | child << 6.
        self.edges = lexicon.edge_array
        self.root: int = lexicon.root
        edges = self.edges
        # Per node, indexed by its first edge index (children precede parents in the array,
        # so one forward pass sees every child before its parent), four letter bitsets:
        # - node_mask: the letters leaving the node;
        # - below_mask: letters on any edge at or below it (a left part whose node cannot reach
        #   a letter allowed on the anchor square is cut);
        # - second_mask: letters two edges down, and below2_mask: at least two edges down (an
        #   anchor followed by a tile needs that tile's letter right after the anchor's, which
        #   cuts most left parts early).
        # Equal bitsets share one int object: a few thousand distinct values for 56 k nodes.
        n = len(edges)
        masks = [0] * n
        below = [0] * n
        second = [0] * n
        below2 = [0] * n
        shared: dict[int, int] = {}
        j = 1
        while j < n:
            k = j
            m = s2 = b2 = 0
            while True:
                e = edges[k]
                c = (e >> _CHILD_SHIFT) >> 1
                m |= 1 << (e & _LETTER_MASK)
                s2 |= masks[c]
                b2 |= below[c]
                if e & _LAST_FLAG:
                    break
                k += 1
            masks[j] = shared.setdefault(m, m)
            second[j] = shared.setdefault(s2, s2)
            below2[j] = shared.setdefault(b2, b2)
            b = m | b2
            below[j] = shared.setdefault(b, b)
            j = k + 1
        self.node_mask = masks
        self.below_mask = below
        self.second_mask = second
        self.below2_mask = below2
        # (letters before, letters after) → (bitset of letters that complete a word).
        self.cross_cache: dict[tuple[str, str], int] = {}

    def cross_mask(self, before: str, after: str) -> int:
        """Letters L such that ``before + L + after`` is a word (uppercase fragments)."""
        key = (before, after)
        mask = self.cross_cache.get(key)
        if mask is not None:
            return mask
        mask = 0
        node = self.lexicon.walk(before)
        if node >= 0 and node >> 1:
            edges = self.edges
            i = node >> 1
            while True:
                e = edges[i]
                n2 = self.lexicon.walk(after, int(e >> _CHILD_SHIFT))
                if n2 >= 0 and n2 & 1:
                    mask |= 1 << (e & _LETTER_MASK)
                if e & _LAST_FLAG:
                    break
                i += 1
        if len(self.cross_cache) >= CROSS_CACHE_MAX:
            self.cross_cache.clear()  # a long session: start again rather than grow
        self.cross_cache[key] = mask
        return mask

    # -- cross-checks ------------------------------------------------------------------------
    def cross_checks(self, board: Sequence[str], across: bool) -> tuple[list[int], list[int], list[int]]:
        """For a play in direction ``across``: per square, the allowed-letter bitset, the
        perpendicular word's letter sum without the square (-1: no perpendicular word) and its
        word multiplier without the square."""
        step = SIZE if across else 1  # the perpendicular step
        cc = [ALL] * SQUARES
        xs = [-1] * SQUARES
        xm = [1] * SQUARES
        for sq in range(SQUARES):
            if board[sq]:
                cc[sq] = 0
                continue
            # Walk up (left) then down (right) over the perpendicular tiles.
            lo = sq
            while (lo // SIZE if across else lo % SIZE) > 0 and board[lo - step]:
                lo -= step
            hi = sq
            while (hi // SIZE if across else hi % SIZE) < SIZE - 1 and board[hi + step]:
                hi += step
            if lo == sq and hi == sq:
                continue
            total = 0
            mult = 1
            for s in range(lo, hi + 1, step):
                if s != sq:
                    total += VALUES[board[s]] * LETTER_MULT[s]
                    mult *= WORD_MULT[s]
            before = "".join(board[s] for s in range(lo, sq, step)).upper()
            after = "".join(board[s] for s in range(sq + step, hi + 1, step)).upper()
            cc[sq] = self.cross_mask(before, after)
            xs[sq] = total
            xm[sq] = mult
        return cc, xs, xm

    # -- generation --------------------------------------------------------------------------
    def plays(self, board: Sequence[str], rack: Sequence[str], first_play: bool | None = None,
              swaps: bool = True, max_tiles: int = 8, max_len: int = SIZE) -> list[GenPlay]:
        """Every legal play (see the module docstring), unsorted; ``max_tiles`` and ``max_len``
        keep only plays of at most that many tiles and main words of at most that length (a
        beginner's view, searched directly rather than filtered)."""
        out: list[GenPlay] = []
        for _ in self.iter_plays(board, rack, out, first_play, swaps, max_tiles, max_len):
            pass
        return out

    def iter_plays(self, board: Sequence[str], rack: Sequence[str], out: list[GenPlay],
                   first_play: bool | None = None, swaps: bool = True, max_tiles: int = 8,
                   max_len: int = SIZE) -> Iterator[None]:
        """Append every legal play to ``out``, yielding between anchors (a few ms of work each)
        so that a browser caller can share the thread."""
        board = list(board)
        if first_play is None:
            first_play = not any(board)
        checks = [self.cross_checks(board, True), self.cross_checks(board, False)]
        subsets: list[tuple[int, ...]] = [()]
        if swaps:
            swappable = [sq for sq in range(SQUARES) if board[sq].islower()]
            for sq in swappable:
                subsets = subsets + [s + (sq,) for s in subsets]
        for subset in subsets:
            b = board[:]
            r = list(rack)
            ok = True
            for sq in subset:
                letter = b[sq].upper()
                if letter not in r:
                    ok = False
                    break
                r.remove(letter)
                r.append(SCARAB)
                b[sq] = letter
            if not ok:
                continue
            subset = tuple(sorted(subset))
            for line_across, sqs in _LINES:
                cc, xs, xm = checks[0] if line_across else checks[1]
                yield from self._line(b, r, sqs, line_across, cc, xs, xm, first_play, subset, out,
                                      max_tiles, max_len)

    def _line(self, board: list[str], rack: list[str], sqs: list[int], across: bool,
              CC: list[int], XS: list[int], XM: list[int], first_play: bool,
              swaps: tuple[int, ...], out: list[GenPlay], max_tiles: int = 8,
              max_len: int = SIZE) -> Iterator[None]:
        n = SIZE
        tiles = [-1] * (n + 1)
        scar = [False] * (n + 1)
        cur = [""] * (n + 1)
        cc = [0] * (n + 1)
        xs = [-1] * (n + 1)
        xm = [1] * (n + 1)
        lm = [LETTER_MULT[s] for s in sqs] + [1]
        wm = [WORD_MULT[s] for s in sqs] + [1]
        empty_board = not any(board)
        anchors = []
        for i, s in enumerate(sqs):
            ch = board[s]
            if ch:
                tiles[i] = _INDEX[ch.upper()]
                scar[i] = ch.islower()
                cur[i] = ch
            else:
                cc[i] = CC[s]
                xs[i] = XS[s]
                xm[i] = XM[s]
                if empty_board:
                    if s == CENTRE:
                        anchors.append(i)
                elif (xs[i] >= 0 or (i > 0 and board[sqs[i - 1]])
                      or (i < n - 1 and board[sqs[i + 1]])):
                    anchors.append(i)
        if not anchors:
            return
        is_anchor = [False] * (n + 1)
        for a in anchors:
            is_anchor[a] = True
        have = [0] * NLETTERS
        scarabs = 0
        for t in rack:
            if t == SCARAB:
                scarabs += 1
            else:
                have[_INDEX[t]] += 1
        # Letters are taken from the rack's letter tiles first and from scarabs only when
        # those run out (``state[0]`` scarabs so used); every other
        # way of using the scarabs scores the same but for the bonuses' no-scarab extra, so
        # those variants are spelled out when a play is recorded, not searched separately.
        counts = have[:]
        state = [0]
        forced: list[str] = []
        nrack = len(rack)
        edges = self.edges
        node_mask = self.node_mask
        below = self.below_mask
        second = self.second_mask
        below2 = self.below2_mask
        val = _VAL
        upper = _UPPER
        bonus = _BONUS
        first_mult = 2 if first_play else 1
        start_sqs = sqs
        # A single tile written down that also forms an across word is the same play as the
        # across one, which the across pass reports.
        down_single_dupes = not across

        def record(start: int, end: int, msum: int, mwm: int, xtot: int, placed: int,
                   ms: bool) -> None:
            if prefix:
                # The left part's letters and premiums, added here rather than for every
                # left part tried.
                for m, letter in enumerate(prefix):
                    p = start + m
                    cur[p] = upper[letter]
                    msum += val[letter] * lm[p]
                    mwm *= wm[p]
            base = (msum * mwm + xtot) * first_mult
            word = "".join(cur[start:end])
            scarabeo = end - start == 8 and word.upper() in SCARABEO_WORDS
            if placed == 1 and down_single_dupes:
                i = next(k for k in range(start, end) if tiles[k] < 0)
                if xs[i] >= 0 and (scarabeo or len(word_run(board, sqs[i], True)) == 8):
                    # Only a SCARABEO bonus can make the two notations score differently.
                    for ch in ((cur[i], cur[i].lower()) if scarabs else (cur[i],)):
                        if ch.isupper() and not have[_INDEX[ch]] or ch.islower() and scarabs == 0:
                            continue
                        w = word[:i - start] + ch + word[i - start + 1:]
                        sc = _score(base, placed, ms or ch.islower(), scarabeo, bonus)
                        if play_score(board, [(sqs[i], ch)], True, first_play) != sc:
                            out.append((sc, start_sqs[start], across, w, swaps))
                    return
                if xs[i] >= 0:
                    return
            if not scarabs:
                out.append((_score(base, placed, ms, scarabeo, bonus), start_sqs[start], across,
                            word, swaps))
                return
            used = state[0]
            if used == 0:
                out.append((_score(base, placed, ms, scarabeo, bonus), start_sqs[start], across,
                            word, swaps))
            # The letters the search took from scarabs (``forced``) must be scarabs in every
            # variant; any other placed letter may be one too while scarabs remain.
            pos = [k - start for k in range(start, end) if tiles[k] < 0]
            sc_with = _score(base, placed, True, scarabeo, bonus)
            first_sq = start_sqs[start]
            if used < 2:
                f = forced[0] if used else ""
                for k1 in pos:
                    ch = word[k1]
                    if not used or ch == f:
                        out.append((sc_with, first_sq, across, word[:k1] + ch.lower() + word[k1 + 1:],
                                    swaps))
            if scarabs >= 2:
                npos = len(pos)
                if used == 2:
                    f1, f2 = forced
                for a1 in range(npos - 1):
                    k1 = pos[a1]
                    c1 = word[k1]
                    head = word[:k1] + c1.lower()
                    for a2 in range(a1 + 1, npos):
                        k2 = pos[a2]
                        c2 = word[k2]
                        if used == 1 and c1 != f and c2 != f:
                            continue
                        if used == 2 and not (c1 == f1 and c2 == f2 or c1 == f2 and c2 == f1):
                            continue
                        out.append((sc_with, first_sq, across,
                                    head + word[k1 + 1:k2] + c2.lower() + word[k2 + 1:], swaps))

        def extend(i: int, node: int, start: int, anchor: int, msum: int, mwm: int, xtot: int,
                   placed: int, ms: bool) -> None:
            # Existing tiles: follow them.
            while tiles[i] >= 0:
                letter = tiles[i]
                j = node >> 1
                if j == 0:
                    return
                while True:
                    e = edges[j]
                    el = e & _LETTER_MASK
                    if el == letter:
                        node = e >> _CHILD_SHIFT
                        break
                    if el > letter or e & _LAST_FLAG:
                        return
                    j += 1
                msum += val[letter] * lm[i]
                mwm *= wm[i]
                if scar[i]:
                    ms = True
                i += 1
            if i > anchor and node & 1 and placed and 2 <= i - start <= max_len:
                record(start, i, msum, mwm, xtot, placed, ms)
            if i >= n or placed >= nrack or placed >= max_tiles or i - start >= max_len:
                return
            j = node >> 1
            if j == 0:
                return
            allowed = node_mask[j] & cc[i]
            if not allowed:
                return
            spare = state[0] < scarabs
            nt = tiles[i + 1]  # a tile next: the child must have an edge for its letter
            lmi = lm[i]
            wmi = wm[i]
            xsi = xs[i]
            mwm2 = mwm * wmi
            while True:
                e = edges[j]
                letter = e & _LETTER_MASK
                child = e >> _CHILD_SHIFT
                if (allowed >> letter & 1 and (counts[letter] or spare)
                        and (nt < 0 or node_mask[child >> 1] >> nt & 1)):
                    sc = val[letter] * lmi
                    xadd = xtot if xsi < 0 else xtot + (xsi + sc) * xm[i] * wmi
                    cur[i] = upper[letter]
                    if counts[letter]:
                        counts[letter] -= 1
                        extend(i + 1, child, start, anchor, msum + sc, mwm2, xadd,
                               placed + 1, ms)
                        counts[letter] += 1
                    else:
                        state[0] += 1
                        forced.append(upper[letter])
                        extend(i + 1, child, start, anchor, msum + sc, mwm2, xadd,
                               placed + 1, ms)
                        forced.pop()
                        state[0] -= 1
                if e & _LAST_FLAG:
                    break
                j += 1
            cur[i] = ""

        prefix: list[int] = []

        def left(node: int, anchor: int, limit: int, t1: int) -> None:
            # The left part: rack tiles on the len(prefix) squares before the anchor (no cross
            # words there). It grows at its end, so each longer part starts one square further
            # left. ``t1``: the letter of a tile right after the anchor (-1: none).
            k = len(prefix)
            j = node >> 1
            if j and node_mask[j] & cc[anchor] and (t1 < 0 or second[j] >> t1 & 1):
                extend(anchor, node, anchor - k, anchor, 0, 1, 0, k, False)
            if k >= limit or j == 0:
                return
            cca = cc[anchor]
            spare = state[0] < scarabs
            if k + 1 == limit:
                # The child is the left part's last letter: its node must lead to a letter
                # allowed on the anchor (and then to t1), and the anchor is extended from here
                # (this level is the widest, so no call to left() for it).
                start = anchor - limit
                while True:
                    e = edges[j]
                    letter = e & _LETTER_MASK
                    c = e >> _CHILD_SHIFT >> 1
                    if ((counts[letter] or spare) and node_mask[c] & cca
                            and (t1 < 0 or second[c] >> t1 & 1)):
                        prefix.append(letter)
                        if counts[letter]:
                            counts[letter] -= 1
                            extend(anchor, e >> _CHILD_SHIFT, start, anchor, 0, 1, 0, limit, False)
                            counts[letter] += 1
                        else:
                            state[0] += 1
                            forced.append(upper[letter])
                            extend(anchor, e >> _CHILD_SHIFT, start, anchor, 0, 1, 0, limit, False)
                            forced.pop()
                            state[0] -= 1
                        prefix.pop()
                    if e & _LAST_FLAG:
                        return
                    j += 1
            while True:
                # grow(e, anchor, limit, k), inlined: this loop is the left parts' hot spot.
                e = edges[j]
                letter = e & _LETTER_MASK
                c = e >> _CHILD_SHIFT >> 1
                if ((counts[letter] or spare) and below[c] & cca
                        and (t1 < 0 or below2[c] >> t1 & 1)):
                    prefix.append(letter)
                    if counts[letter]:
                        counts[letter] -= 1
                        left(e >> _CHILD_SHIFT, anchor, limit, t1)
                        counts[letter] += 1
                    else:
                        state[0] += 1
                        forced.append(upper[letter])
                        left(e >> _CHILD_SHIFT, anchor, limit, t1)
                        forced.pop()
                        state[0] -= 1
                    prefix.pop()
                if e & _LAST_FLAG:
                    break
                j += 1

        def grow(e: int, anchor: int, limit: int, t1: int) -> None:
            # Start the left part with the letter of DAWG edge e.
            letter = e & _LETTER_MASK
            c = (e >> _CHILD_SHIFT) >> 1
            if ((counts[letter] or state[0] < scarabs) and below[c] & cc[anchor]
                    and (t1 < 0 or below2[c] >> t1 & 1)):
                prefix.append(letter)
                if counts[letter]:
                    counts[letter] -= 1
                    left(e >> _CHILD_SHIFT, anchor, limit, t1)
                    counts[letter] += 1
                else:
                    state[0] += 1
                    forced.append(upper[letter])
                    left(e >> _CHILD_SHIFT, anchor, limit, t1)
                    forced.pop()
                    state[0] -= 1
                prefix.pop()

        root = self.root
        for a in anchors:
            if a > 0 and tiles[a - 1] >= 0:
                j = a - 1
                while j > 0 and tiles[j - 1] >= 0:
                    j -= 1
                extend(j, root, j, a, 0, 1, 0, 0, False)
            else:
                limit = 0
                p = a - 1
                while p >= 0 and tiles[p] < 0 and not is_anchor[p]:
                    limit += 1
                    p -= 1
                limit = min(limit, len(rack) - 1, max_tiles - 1, max_len - 1)
                t1 = tiles[a + 1]  # a tile right after the anchor, or -1
                left(root, a, 0, t1)  # no tile before the anchor
                if limit > 0 and len(rack) > 1 and root >> 1:
                    # One slice per first letter of the left part: with scarabs an anchor's
                    # left parts can take a tenth of a second.
                    j = root >> 1
                    while True:
                        e = edges[j]
                        grow(e, a, limit, t1)
                        yield None
                        if e & _LAST_FLAG:
                            break
                        j += 1
            yield None


def _score(base: int, placed: int, has_scarab: bool, scarabeo: bool, bonus: list[int]) -> int:
    extra = 0 if has_scarab else NO_SCARAB_EXTRA
    total = base
    if placed >= 6:
        total += bonus[placed] + extra
    if scarabeo:
        total += SCARABEO_BONUS + extra
    return total


def to_play(p: GenPlay) -> Play:
    return Play(p[1], p[2], p[3], p[4])


def tiles_placed(board: Sequence[str], p: GenPlay) -> int:
    step = 1 if p[2] else SIZE
    return sum(1 for k in range(len(p[3])) if not board[p[1] + k * step])


def rack_after(board: Sequence[str], rack: Sequence[str], p: GenPlay) -> list[str]:
    """The rack left after a play (swaps first: a letter out, a scarab in; then the tiles)."""
    left = list(rack)
    for sq in p[4]:
        left.remove(board[sq].upper())
        left.append(SCARAB)
    step = 1 if p[2] else SIZE
    for k, ch in enumerate(p[3]):
        if not board[p[1] + k * step]:
            left.remove(SCARAB if ch.islower() else ch)
    return left


def other_moves(board: Sequence[str], rack: Sequence[str]) -> list[Move]:
    """The non-play turns worth considering: the pass and, where allowed, the exchange."""
    moves: list[Move] = [Pass()]
    if exchange_refusal(rack, "".join(rack)) is None:
        moves.append(Exchange(sort_rack(rack)))
    return moves
