"""Paying one symbol from the shared supply."""

from __future__ import annotations

import pytest

from game.scarabya.tokens import TOKENS_PER_VALUE, fresh_supply, pay


class TestPay:
    def test_fresh_supply_is_18_of_each(self) -> None:
        assert fresh_supply() == [TOKENS_PER_VALUE] * 4 == [18, 18, 18, 18]

    @pytest.mark.parametrize("value", [1, 2, 3, 4])
    def test_exact_token_first(self, value: int) -> None:
        supply = fresh_supply()
        assert pay(supply, value) == (value,)
        assert supply[value - 1] == 17 and sum(supply) == 71

    @pytest.mark.parametrize(
        "supply,value,paid,left",
        [
            ([5, 5, 5, 0], 4, (3, 1), [4, 5, 4, 0]),
            ([5, 5, 0, 0], 4, (2, 2), [5, 3, 0, 0]),
            ([5, 1, 0, 0], 4, (2, 1, 1), [3, 0, 0, 0]),
            ([4, 0, 0, 0], 4, (1, 1, 1, 1), [0, 0, 0, 0]),
            ([1, 1, 0, 5], 3, (2, 1), [0, 0, 0, 5]),
            ([3, 0, 0, 5], 3, (1, 1, 1), [0, 0, 0, 5]),
            ([2, 0, 5, 5], 2, (1, 1), [0, 0, 5, 5]),
        ],
    )
    def test_smaller_tokens_adding_up_exactly(
        self, supply: list[int], value: int, paid: tuple[int, ...], left: list[int]
    ) -> None:
        assert pay(supply, value) == paid
        assert supply == left

    @pytest.mark.parametrize(
        "supply,value", [([0, 0, 0, 0], 1), ([1, 0, 0, 9], 2), ([0, 1, 0, 9], 3), ([1, 1, 0, 0], 4)]
    )
    def test_lost_when_no_exact_sum_is_left(self, supply: list[int], value: int) -> None:
        before = list(supply)
        assert pay(supply, value) == ()
        assert supply == before  # nothing is taken for a symbol that cannot be paid
