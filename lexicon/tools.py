"""Word tools over the lexicon automaton: anagrams of a rack, words matching a pattern, and the
best-scoring plays of a rack on an empty Scarabeo board.

Pure Python on the standard library, no I/O: the browser can run them on the lexicon it has
loaded, and ``python -m lexicon anagram|pattern|best`` prints them as JSON. Every search walks
the automaton's flat edge array (``Lexicon.edge_array``, layout in ``automaton.py``) instead of
its words, so an answer costs what the part of the automaton it touches costs, not 4.6 M words.

- ``anagrams(lex, rack)``: every word of 2+ letters that the rack's tiles spell, a scarab (``?``,
  at most two) standing for any letter; letter tiles are used before scarabs, so each word is
  found once and the letters it needs scarabs for are known.
- ``pattern(lex, text)``: ``?`` one letter, ``*`` any run of letters (none too), other letters
  themselves (``C?SA``, ``*ARE``, ``??????``); optionally a length. The search prunes with a memo of
  (node, pattern position[, letters left]) that can still reach a match, so a pattern with few
  matches costs little, and stops at ``limit`` words in alphabetical order.
- ``best_plays(lex, rack)``: the Scarabeo move generator (``game.scarabeo.movegen``) on an empty
  board, scored by the engine's own rules; the board is symmetric about its diagonal, so each play
  is shown across only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .automaton import ALPHABET, Lexicon, normalise

__all__ = ["Anagram", "BestPlay", "ToolError", "MAX_RACK", "MAX_SCARABS", "MAX_PATTERN", "SCARAB",
           "anagrams", "below_masks", "best_plays", "parse_pattern", "parse_rack", "pattern"]

SCARAB = "?"
ANY_RUN = "*"
MAX_RACK = 8
MAX_SCARABS = 2
#: The board is 17 squares wide: no word is longer.
MAX_WORD = 17
#: A pattern longer than any word plus its stars would match nothing new.
MAX_PATTERN = 40
DEFAULT_LIMIT = 200

_LETTER_MASK = 0x1F
_LAST_FLAG = 0x20
_CHILD_SHIFT = 6
_INDEX = {ch: i for i, ch in enumerate(ALPHABET)}


class ToolError(ValueError):
    """A rack or pattern the tools cannot read; the message says what is wrong."""


@dataclass(frozen=True)
class Anagram:
    word: str
    #: The letters scarabs stand for, in the word's order ("" when the rack's letters suffice).
    scarabs: str

    @property
    def uses(self) -> int:
        return len(self.word)

    def to_json(self) -> dict[str, Any]:
        return {"word": self.word, "scarabs": self.scarabs}


@dataclass(frozen=True)
class BestPlay:
    #: The engine's notation (``8H CASA``: row then column across; a lowercase letter is a scarab).
    move: str
    word: str
    score: int
    tiles: int

    def to_json(self) -> dict[str, Any]:
        return {"move": self.move, "word": self.word, "score": self.score, "tiles": self.tiles}


# -- input --------------------------------------------------------------------------------------

def parse_rack(text: str) -> tuple[list[int], int]:
    """``CASA??`` → (count of each letter by alphabet index, number of scarabs); accents dropped,
    spaces ignored. Raises ``ToolError`` for another character, more than 8 tiles or 2 scarabs."""
    rack = normalise(text).replace(" ", "")
    if not rack:
        raise ToolError("the rack is empty: give 1 to 8 tiles, letters or ? for a scarab")
    if len(rack) > MAX_RACK:
        raise ToolError(f"a rack holds at most {MAX_RACK} tiles, {rack!r} has {len(rack)}")
    counts = [0] * len(ALPHABET)
    scarabs = 0
    for ch in rack:
        if ch == SCARAB:
            scarabs += 1
        elif ch in _INDEX:
            counts[_INDEX[ch]] += 1
        else:
            raise ToolError(f"{ch!r} is not a tile: the letters are {ALPHABET}, ? is a scarab")
    if scarabs > MAX_SCARABS:
        raise ToolError(f"the set has {MAX_SCARABS} scarabs, the rack {rack!r} has {scarabs}")
    return counts, scarabs


def parse_pattern(text: str) -> str:
    """The pattern upper-cased without accents or spaces: letters, ``?`` and ``*`` only."""
    pat = normalise(text).replace(" ", "")
    if not pat:
        raise ToolError("the pattern is empty: letters, ? for one letter, * for any letters")
    if len(pat) > MAX_PATTERN:
        raise ToolError(f"a pattern has at most {MAX_PATTERN} characters, this one {len(pat)}")
    for ch in pat:
        if ch not in _INDEX and ch not in (SCARAB, ANY_RUN):
            raise ToolError(f"{ch!r} cannot be in a pattern: letters of {ALPHABET}, ? and *")
    while ANY_RUN * 2 in pat:
        pat = pat.replace(ANY_RUN * 2, ANY_RUN)  # ** matches what * matches
    return pat


# -- anagrams -----------------------------------------------------------------------------------

def anagrams(lex: Lexicon, rack: str, min_length: int = 2) -> list[Anagram]:
    """Every word of ``min_length``+ letters the rack spells, longest first, then alphabetical."""
    counts, scarabs = parse_rack(rack)
    return [Anagram(w, s) for w, s in _spell(lex, counts, scarabs, min_length)]


def _spell(lex: Lexicon, counts: list[int], scarabs: int, min_length: int,
           ordered: bool = True) -> list[tuple[str, str]]:
    """(word, letters the scarabs stand for) of every word the tiles spell, longest first, then
    alphabetical. A letter comes from a letter tile while the rack has one, else from a scarab: a
    word is reached by one path of the automaton, so it is found once."""
    edges = lex.edge_array
    letters = ALPHABET
    found: list[tuple[str, str]] = []
    add = found.append
    buf = [""] * (MAX_RACK + 1)  # the word so far: buf[:depth]
    wild: list[int] = []  # positions in it that a scarab fills
    shortest = max(1, min_length)

    def walk(node: int, depth: int, free: int, left: int) -> None:
        # ``free`` scarabs and ``left`` tiles (scarabs included) still on the rack.
        i = node >> 1
        end = depth + 1
        deeper = left > 1
        while True:
            e = edges[i]
            letter = e & _LETTER_MASK
            if counts[letter]:
                child = e >> _CHILD_SHIFT
                buf[depth] = letters[letter]
                if child & 1 and end >= shortest:
                    add(("".join(buf[:end]), "".join([buf[k] for k in wild]) if wild else ""))
                if deeper and child > 1:
                    counts[letter] -= 1
                    walk(child, end, free, left - 1)
                    counts[letter] += 1
            elif free:
                child = e >> _CHILD_SHIFT
                buf[depth] = letters[letter]
                wild.append(depth)
                if child & 1 and end >= shortest:
                    add(("".join(buf[:end]), "".join([buf[k] for k in wild])))
                if deeper and child > 1:
                    walk(child, end, free - 1, left - 1)
                wild.pop()
            if e & _LAST_FLAG:
                return
            i += 1

    tiles = sum(counts) + scarabs
    if lex.root > 1 and tiles:
        walk(lex.root, 0, scarabs, tiles)
    if ordered:
        found.sort(key=lambda a: (-len(a[0]), a[0]))
    return found


# -- patterns -----------------------------------------------------------------------------------

def pattern(lex: Lexicon, text: str, length: int | None = None, limit: int = DEFAULT_LIMIT) -> tuple[list[str], bool]:
    """Words matching ``text`` (``?`` one letter, ``*`` any letters), of ``length`` letters if given,
    in alphabetical order: the first ``limit`` of them, and whether there are more."""
    pat = parse_pattern(text)
    if length is not None and not 1 <= length <= MAX_WORD:
        raise ToolError(f"a length is 1 to {MAX_WORD} letters, not {length}")
    if limit < 1:
        raise ToolError("the limit is at least 1")
    toks = [-2 if ch == ANY_RUN else -1 if ch == SCARAB else _INDEX[ch] for ch in pat]
    fixed = sum(1 for t in toks if t != -2)
    if fixed > MAX_WORD or (length is not None and (fixed > length or (ANY_RUN not in pat and fixed != length))):
        return [], False
    # Without a star the pattern fixes the length; with one and no length, any length is fine.
    want = length if length is not None else (fixed if ANY_RUN not in pat else -1)
    n = len(toks)
    edges = lex.edge_array
    # (node, position, letters left) → can it still end in a match: each state is searched once.
    memo: dict[int, bool] = {}
    # Letters the pattern still fixes from each position (its ? and letters), and which letters.
    need = [sum(1 for t in toks[p:] if t != -2) for p in range(n + 1)]
    need_mask = [0] * (n + 1)
    for p in range(n - 1, -1, -1):
        need_mask[p] = need_mask[p + 1] | (1 << toks[p] if toks[p] >= 0 else 0)
    # A star before a letter searches wide: there the letters below each node cut the search
    # (QQQ is below 707 of 57,828 nodes); a table computed once per lexicon.
    below = below_masks(lex) if any(t == -2 for t in toks) and need_mask[0] else None
    width = n + 1

    def alive(node: int, p: int, left: int) -> bool:
        """Can the words below ``node`` complete the pattern from ``p`` (``left`` letters to go,
        -1: any number)?"""
        key = ((node * width + p) << 5) | (left & 31)
        got = memo.get(key)
        if got is not None:
            return got
        ok = False
        if p == n:
            ok = node & 1 == 1 and left <= 0
        elif below is not None and need_mask[p] & ~below[node >> 1]:
            ok = False  # a letter the pattern still needs is nowhere below
        elif 0 <= left < need[p]:
            ok = False  # fewer letters to go than the pattern still fixes
        elif left == need[p] and toks[p] == -2:
            ok = alive(node, p + 1, left)  # the star can only match nothing
        elif left != 0:
            tok = toks[p]
            i = node >> 1
            if tok == -2 and alive(node, p + 1, left):
                ok = True
            elif i:
                nxt = left - 1 if left > 0 else -1
                while True:
                    e = edges[i]
                    letter = e & _LETTER_MASK
                    if tok == -2:
                        if alive(e >> _CHILD_SHIFT, p, nxt):
                            ok = True
                            break
                    elif tok == -1 or tok == letter:
                        if alive(e >> _CHILD_SHIFT, p + 1, nxt):
                            ok = True
                            break
                        if tok >= 0:
                            break
                    elif letter > tok:
                        break
                    if e & _LAST_FLAG:
                        break
                    i += 1
        elif p < n and toks[p] == -2:
            ok = alive(node, p + 1, left)
        memo[key] = ok
        return ok

    out: list[str] = []
    letters = ALPHABET
    word: list[str] = []

    def collect(node: int, positions: list[int], left: int) -> None:
        # ``positions``: where the pattern may stand after the letters of ``word`` (a star may
        # match nothing, so a set). The word ending here comes before its continuations.
        if word and node & 1 and left <= 0 and n in positions:
            out.append("".join(word))
            if len(out) > limit:
                return
        if left == 0:
            return
        i = node >> 1
        if i == 0:
            return
        nxt = left - 1 if left > 0 else -1
        while True:
            e = edges[i]
            letter = e & _LETTER_MASK
            child = e >> _CHILD_SHIFT
            after: list[int] = []
            for p in positions:
                if p == n:
                    continue
                tok = toks[p]
                q = p if tok == -2 else p + 1 if tok == -1 or tok == letter else -1
                if q >= 0 and q not in after and alive(child, q, nxt):
                    after.append(q)
            if after:
                word.append(letters[letter])
                collect(child, _closure(toks, after), nxt)
                word.pop()
                if len(out) > limit:
                    return
            if e & _LAST_FLAG:
                return
            i += 1

    start = _closure(toks, [0])
    if any(alive(lex.root, p, want) for p in start):
        collect(lex.root, start, want)
    more = len(out) > limit
    del out[limit:]
    return out, more


_BELOW: dict[int, tuple[Any, list[int]]] = {}


def below_masks(lex: Lexicon, cached: bool = True) -> list[int]:
    """Per node (by its first edge index): the bitset of the letters on the edges at or below it.
    Children precede their parents in the edge array, so one forward pass fills it. Kept for the
    last lexicon asked (the one the page or the command has); ``cached=False`` makes it again."""
    edges = lex.edge_array
    got = _BELOW.get(id(edges))
    if cached and got is not None and got[0] is edges:
        return got[1]
    n = len(edges)
    below = [0] * n
    shared: dict[int, int] = {}
    j = 1
    while j < n:
        k = j
        m = 0
        while True:
            e = edges[k]
            m |= (1 << (e & _LETTER_MASK)) | below[(e >> _CHILD_SHIFT) >> 1]
            if e & _LAST_FLAG:
                break
            k += 1
        below[j] = shared.setdefault(m, m)
        j = k + 1
    _BELOW.clear()
    _BELOW[id(edges)] = (edges, below)
    return below


def _closure(toks: list[int], positions: list[int]) -> list[int]:
    """The positions and, past each star, the ones after it (a star may match no letter)."""
    out: list[int] = []
    for p in positions:
        while True:
            if p not in out:
                out.append(p)
            if p < len(toks) and toks[p] == -2:
                p += 1
                continue
            break
    return sorted(out)


# -- best plays on an empty board ---------------------------------------------------------------

def best_plays(lex: Lexicon, rack: str, limit: int = 10) -> list[BestPlay]:
    """The ``limit`` best-scoring words of ``rack`` as the first play (across through the centre;
    the board is symmetric about its diagonal, so down plays score the same), each at its best
    square, best first, ties by word. Scores are the engine's (``game.scarabeo.scoring.play_score``).

    Every word the rack spells (``anagrams``) is a candidate; a bound from the premiums of the
    squares it can cover orders them, and the engine scores a word's placements only while its
    bound can still reach the list. ``tests/lexicon/test_tools.py`` checks the result against every
    play of the move generator (``game.scarabeo.movegen``)."""
    from game.scarabeo.board import CENTRE, LETTER_MULT, SIZE, WORD_MULT, new_board
    from game.scarabeo.moves import Play, move_text
    from game.scarabeo.scoring import NO_SCARAB_EXTRA, SCARABEO_BONUS, SCARABEO_WORDS, TILE_BONUS, play_score
    from game.scarabeo.tiles import VALUES

    if limit < 1:
        raise ToolError("the limit is at least 1")
    counts, scarabs = parse_rack(rack)
    words = _spell(lex, counts, scarabs, 2, ordered=False)
    board = new_board()
    row, col = divmod(CENTRE, SIZE)
    # Per length: the starts whose word covers the centre, and over them the largest word
    # multiplier and the largest sum of extra letter multipliers (a bound, not a score).
    starts: dict[int, list[int]] = {}
    bound_mult: dict[int, tuple[int, int]] = {}
    for length in range(2, MAX_RACK + 1):
        firsts = [row * SIZE + c for c in range(max(0, col - length + 1), min(col, SIZE - length) + 1)]
        starts[length] = firsts
        wm = max(_product(WORD_MULT[s + k] for k in range(length)) for s in firsts)
        lm = max(sum(LETTER_MULT[s + k] - 1 for k in range(length)) for s in firsts)
        bound_mult[length] = (wm, lm)
    value_of = bytes(VALUES.get(chr(b), 0) for b in range(256))
    # The tiles' values, best first (a scarab may stand for the dearest letter).
    tile_values = sorted([VALUES[ALPHABET[i]] for i, c in enumerate(counts) for _ in range(c)]
                         + [max(VALUES.values())] * scarabs, reverse=True)
    by_length: dict[int, list[tuple[str, str]]] = {}
    for word, wild in words:
        by_length.setdefault(len(word), []).append((word, wild))
    best: list[tuple[int, str, int, str]] = []  # (score, word, start, spelled)
    for length in sorted(by_length, reverse=True):
        wm, lm = bound_mult[length]
        # The whole length's bound first: a length that cannot reach the list is not looked at.
        group = 2 * wm * (sum(tile_values[:length]) + lm * tile_values[0]) + TILE_BONUS.get(length, 0) \
            + NO_SCARAB_EXTRA * 2 + (SCARABEO_BONUS if length == 8 else 0)
        if len(best) >= limit and group < best[-1][0]:
            continue
        candidates = []
        for word, wild in by_length[length]:
            # The no-scarab extra goes with each bonus (at most two) of a main word without scarabs.
            bonus = TILE_BONUS.get(length, 0) + (0 if wild else NO_SCARAB_EXTRA * 2)
            if word in SCARABEO_WORDS:
                bonus += SCARABEO_BONUS
            # First play: the words are doubled (scoring.py); a scarab is worth its letter.
            values = word.encode("ascii").translate(value_of)  # one C call: the letters' values
            candidates.append((2 * wm * (sum(values) + lm * max(values)) + bonus, word, wild))
        candidates.sort(key=lambda c: (-c[0], c[1]))
        best = _score_candidates(board, candidates, starts[length], best, limit, play_score)
    return [BestPlay(move_text(Play(start, True, spelled)), word, score, len(word))
            for score, word, start, spelled in best]


def _score_candidates(board: list[str], candidates: list[tuple[int, str, str]], starts: list[int],
                      best: list[tuple[int, str, int, str]], limit: int,
                      play_score: Any) -> list[tuple[int, str, int, str]]:
    """``best`` with the candidates (bound, word, scarab letters) of one length scored by the
    engine, in decreasing bound, while a bound can still reach the list."""
    for bound, word, wild in candidates:
        if len(best) >= limit and bound < best[-1][0]:
            break
        spelled = _spelled(word, wild)
        scored = []
        for s in starts:
            placements = [(s + k, ch) for k, ch in enumerate(spelled)]
            scored.append((play_score(board, placements, True, True), s))
        score, start = max(scored, key=lambda x: (x[0], -x[1]))
        best.append((score, word, start, spelled))
        best.sort(key=lambda b: (-b[0], b[1]))
        del best[limit:]
    return best


def _product(values: Any) -> int:
    out = 1
    for v in values:
        out *= v
    return int(out)


def _spelled(word: str, wild: str) -> str:
    """The word as a play writes it: the letters the scarabs stand for in lower case (the last
    occurrences: the search took letter tiles first)."""
    chars = list(word)
    for ch in wild:
        k = max(i for i, c in enumerate(chars) if c == ch)
        chars[k] = ch.lower()
    return "".join(chars)
