"""The shared scarab-token supply: 18 tokens each of 1, 2, 3 and 4.

Each scored symbol is paid with one token of its value; when that value has run out, with smaller
tokens adding up exactly (fewest tokens first, then larger ones first); if no exact sum can be made
from what is left, the symbol earns nothing.
"""

from __future__ import annotations

TOKENS_PER_VALUE = 18

#: value -> the ways to make it from smaller tokens, in order of preference
SUBSTITUTES: dict[int, tuple[tuple[int, ...], ...]] = {
    1: (),
    2: ((1, 1),),
    3: ((2, 1), (1, 1, 1)),
    4: ((3, 1), (2, 2), (2, 1, 1), (1, 1, 1, 1)),
}


def fresh_supply() -> list[int]:
    return [TOKENS_PER_VALUE] * 4


def pay(supply: list[int], value: int) -> tuple[int, ...]:
    """Take the tokens for one symbol worth ``value`` from ``supply`` (mutated); () if it cannot pay."""
    if supply[value - 1] > 0:
        supply[value - 1] -= 1
        return (value,)
    for combo in SUBSTITUTES[value]:
        need = [0, 0, 0, 0]
        for v in combo:
            need[v - 1] += 1
        if all(supply[i] >= need[i] for i in range(4)):
            for i in range(4):
                supply[i] -= need[i]
            return combo
    return ()
