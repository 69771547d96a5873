"""What each Scarabeo seat may know (game.scarabeo.public): the seat view, the masked state a
device holds, and the public record a spectator rebuilds and checks."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from typing import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.core import IllegalMove, RecordError, Rng
from game.core import view as core_view
from game.scarabeo import ScarabeoState, SetWordList
from game.scarabeo.moves import Accept, Exchange, Pass, Play, move_text, parse_move
from game.scarabeo.public import (
    PublicRecord, loads, public_move, public_record, rebuild, seat_state, seat_view,
)
from game.scarabeo.randomplay import random_move
from game.scarabeo.record import to_text
from game.scarabeo.tiles import COUNTS, HIDDEN, SCARAB


class ThirdWords:
    """A word checker that refuses about a third of all words, so random plays in challenge and
    vote modes are challenged, upheld, voted down and accepted."""

    def contains(self, word: str) -> bool:
        return sum(map(ord, word)) % 3 != 0

    def abbreviation(self, word: str) -> str | None:
        return None


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


BIG_SEED = 123_456_789_012_345
MODES = [(2, "dictionary"), (3, "challenge"), (4, "challenge"), (3, "vote"), (4, "vote")]


def new_game(players: int, mode: str, seed: int, hourglass: bool = False) -> ScarabeoState:
    return ScarabeoState.new(players, seed=seed, check_mode=mode, hourglass=hourglass,
                             word_list=ThirdWords(), contest=True)


def self_play(state: ScarabeoState, rng: Rng, clock: FakeClock | None = None,
              limit: int = 400) -> Iterator[ScarabeoState]:
    """Random legal moves to the end, yielding the state after each: plays, exchanges, passes,
    challenges, accepts, votes, and (with a clock) turns that run out of time."""
    for _ in range(limit):
        if state.is_over():
            return
        p = state.pending
        if p is not None and (p.kind == "vote" or rng.below(2)):
            legal = state.legal_moves()
            state.push(legal[rng.below(len(legal))])
        else:
            try:
                move = random_move(state, rng)
                if clock is not None and rng.below(8) == 0:
                    clock.now += 500.0  # the sand runs out: the move is recorded as a time-out
                state.push(move)
            except IllegalMove:
                # A pending play that would close the game must be decided first.
                state.push(Accept() if p is not None and p.kind == "challenge" else Pass())
        yield state


def assert_public_match(masked: ScarabeoState, real: ScarabeoState) -> None:
    assert masked.board == real.board
    out = real.outcome()
    if masked.final_pending() and out is not None:
        # Over, the hidden racks not yet revealed: the scores before the end's adjustments.
        assert masked.scores == [s - a for s, a in zip(real.scores, out.detail["adjustments"])]
    else:
        assert masked.scores == real.scores
    assert [len(r) for r in masked.racks] == [len(r) for r in real.racks]
    assert len(masked.bag) == len(real.bag)
    assert masked.to_move() == real.to_move() and masked.turn == real.turn
    assert masked.idle == real.idle and masked.first_play == real.first_play
    assert (masked.pending is None) == (real.pending is None)
    if real.pending is not None and masked.pending is not None:
        assert masked.pending.to_json(masked.names) == real.pending.to_json(real.names)
    assert masked.accepted == real.accepted and masked.rejected == real.rejected
    assert masked.is_over() == real.is_over()


def perturbed(state: ScarabeoState, seat: int | None, rng: Rng) -> ScarabeoState:
    """A state with the same public history whose hidden tiles differ: the other racks and the
    bag dealt again from the same tiles, another seed and generator, and every past rack and
    exchanged tile of the other seats changed."""
    other = copy.deepcopy(state)
    other._seed = 10**15 + rng.below(10**15)
    other.rng = Rng(other._seed)
    others = [s for s in range(other.num_players) if s != seat]
    pool = [t for s in others for t in other.racks[s]] + other.bag
    rng.shuffle(pool)
    for s in others:
        k = len(other.racks[s])
        other.racks[s], pool = pool[:k], pool[k:]
    other.bag = pool
    letters = [t for t, n in COUNTS.items() for _ in range(n)]
    for entry in other._entries:
        result = entry.result
        if result.player == seat:
            continue
        rng.shuffle(letters)
        move = result.move
        if isinstance(move, Exchange):
            move = Exchange("".join(sorted(letters[:len(move.tiles)])), move.swaps)
        entry.result = replace(result, move=move, rack="".join(letters[:len(result.rack)]))
        entry.move = move
    return other


def dumps(value: object) -> str:
    return json.dumps(value, sort_keys=True)


# --- the seat view hides what it must --------------------------------------------------------
@settings(max_examples=12, deadline=None)
@given(st.sampled_from(MODES), st.integers(0, 2**40), st.integers(0, 2**30), st.integers(1, 60))
def test_a_seat_view_and_the_public_record_do_not_depend_on_hidden_tiles(
        mode: tuple[int, str], seed: int, play_seed: int, moves: int) -> None:
    players, check = mode
    seed += 10**14  # long enough that its digits cannot turn up by chance in a view
    state = new_game(players, check, seed)
    rng = Rng(play_seed)
    for _ in self_play(state, rng, limit=moves):
        pass
    if state.is_over():
        state.pop()  # at the end every rack is public: look at the last moment they were not
    record = dumps(public_record(state).to_json())
    assert str(seed) not in record and str(state.rng.state) not in record
    spectator = seat_view(state, None)
    for seat in [None, *range(players)]:
        view = seat_view(state, seat)
        text = dumps(view)
        assert str(seed) not in text and str(state.rng.state) not in text
        for s, rack in enumerate(view["racks"]):
            if s != seat:
                # Another rack shows only what the whole table saw go onto it.
                assert rack == spectator["racks"][s]
        assert view["rack"] == ("".join(sorted(state.racks[seat], key=lambda t: (t == SCARAB, t)))
                                if seat is not None else "")
        twin = perturbed(state, seat, rng)
        assert dumps(seat_view(twin, seat)) == text
        assert dumps(public_record(twin).to_json()) == record


def test_a_spectator_sees_no_rack_and_a_seat_only_its_own() -> None:
    state = new_game(3, "challenge", 777)
    for _ in self_play(state, Rng(1), limit=4):
        pass
    spectator = seat_view(state, None)
    assert spectator["rack"] == "" and all(set(r) <= {HIDDEN} for r in spectator["racks"])
    assert spectator["rack_sizes"] == [len(r) for r in state.racks]
    assert spectator["bag_count"] == len(state.bag)
    assert "seed" not in spectator
    for seat in range(3):
        view = seat_view(state, seat)
        assert sorted(view["rack"]) == sorted(state.racks[seat])
        for other in range(3):
            if other != seat:
                assert set(view["racks"][other]) <= {HIDDEN, SCARAB}
        masked = seat_state(state, seat)
        assert masked.seed == 0 and masked.masked
        assert all(t == HIDDEN for t in masked.bag)


def test_the_unseen_tiles_of_a_seat_are_the_set_less_the_board_and_its_rack() -> None:
    state = new_game(2, "dictionary", 5)
    for _ in self_play(state, Rng(2), limit=10):
        pass
    for seat in range(2):
        view = seat_view(state, seat)
        hidden = [t for s, r in enumerate(state.racks) if s != seat for t in r] + state.bag
        expected: dict[str, int] = {}
        for t in hidden:
            expected[t] = expected.get(t, 0) + 1
        assert view["unseen"] == expected


# --- the spectator's state from the public record ---------------------------------------------
@pytest.mark.parametrize("players,check", MODES)
@pytest.mark.parametrize("seed", [3, 11])
def test_the_spectator_state_rebuilt_after_every_move_matches_the_game(
        players: int, check: str, seed: int) -> None:
    clock = FakeClock() if seed == 11 else None
    state = new_game(players, check, seed, hourglass=clock is not None)
    if clock is not None:
        state.attach_clock(clock)
    words = ThirdWords()
    for real in self_play(state, Rng(seed * 7), clock):
        text = public_record(real).dumps()
        spectator = loads(text, words)
        assert_public_match(spectator, real)
        assert spectator.seed == 0
        assert all(t == HIDDEN for t in spectator.bag)
    assert state.is_over()
    out, got = state.outcome(), spectator.outcome()
    assert out is not None and got is not None
    assert got.scores == out.scores and got.winners == out.winners and got.reason == out.reason
    assert got.detail["adjustments"] == out.detail["adjustments"]
    assert got.detail["settlement"] == out.detail["settlement"]
    if clock is not None:
        assert any(r.note == "time-out" for r in state.results())
        assert [r.note == "time-out" for r in spectator.results()] == [
            r.note == "time-out" for r in state.results()]


def test_through_the_engine_dispatcher_too() -> None:
    state = new_game(2, "dictionary", 9)
    for _ in self_play(state, Rng(9), limit=12):
        pass
    data = core_view.public_record(state)
    assert data["format"] == "scarab-public-record" and data["game"] == "scarabeo"
    rebuilt = core_view.load_public(json.dumps(data), ThirdWords())
    assert isinstance(rebuilt, ScarabeoState) and rebuilt.board == state.board
    assert core_view.seat_view(state, 1) == seat_view(state, 1)


def test_an_exchange_is_public_by_count_only_and_round_trips() -> None:
    assert parse_move("-8") == Exchange(HIDDEN * 8)
    assert move_text(Exchange(HIDDEN * 8)) == "-8"
    assert move_text(parse_move("*I9 -8")) == "*I9 -8"
    assert public_move(Exchange("AEIOUAEI")) == Exchange(HIDDEN * 8)
    for bad in ("-9", "-0", "-12"):
        with pytest.raises(Exception, match="exchange by count"):
            parse_move(bad)


def test_a_known_rack_exchanges_by_count_as_the_whole_rack() -> None:
    state = ScarabeoState.from_position("17/17/17/17/17/17/17/17/17/17/17/17/17/17/17/17/17 "
                                        "AEIOUAEI/BCDFGLMN 0/0 0", seed=4)
    result = state.push(parse_move("-8"))
    assert result.move == Exchange("AAEEIIOU")


# --- a device's masked state: (a) to (d) of the design ------------------------------------------
@pytest.mark.parametrize("players,check", [(2, "dictionary"), (3, "challenge"), (4, "vote")])
def test_devices_holding_only_their_seat_follow_the_whole_game(players: int, check: str) -> None:
    """Each seat's device applies every move as the table saw it, reveals what it draws, and at
    the end waits for the racks before the result (the use game.scarabeo.public is built for)."""
    real = new_game(players, check, 21)
    devices = [seat_state(real, seat) for seat in range(players)]
    for seat, device in enumerate(devices):
        assert device.racks_pending() == [s for s in range(players) if s != seat]
    for state in self_play(real, Rng(5)):
        move = state.results()[-1].move
        timeout = state.results()[-1].note == "time-out"
        for seat, device in enumerate(devices):
            own = state.results()[-1].player == seat and isinstance(move, (Play, Exchange, Pass))
            shown = move if own else public_move(move)
            if timeout:
                device.push_time_out()
            else:
                device.push(shown)
            if not state.is_over():
                device.reveal(seat, "".join(state.racks[seat]))
            assert_public_match(device, state)
            assert sorted(device.racks[seat]) == sorted(state.racks[seat]) or state.is_over()
    out = real.outcome()
    assert out is not None
    for seat, device in enumerate(devices):
        if any(HIDDEN in r for s, r in enumerate(device.racks)):
            assert device.final_pending() and device.outcome() is not None
            pending = device.outcome()
            assert pending is not None and pending.winners == ()
            assert pending.detail["adjustments"] is None
            assert "(" not in to_text(device).split(">")[-1]  # no end-of-game line yet
            with pytest.raises(IllegalMove, match="over"):
                device.push(Pass())
        for s in range(players):
            device.reveal(s, "".join(real.racks[s]))
        settled = device.outcome()
        assert settled is not None and not device.final_pending()
        assert settled.scores == out.scores and settled.winners == out.winners
        assert settled.detail["adjustments"] == out.detail["adjustments"]


def test_reveal_refuses_a_rack_that_contradicts_what_is_known() -> None:
    state = new_game(2, "dictionary", 8)
    device = seat_state(state, None)
    with pytest.raises(IllegalMove, match="holds 8 tiles"):
        device.reveal(0, "ABC")
    device.reveal(0, "QQ______")
    with pytest.raises(IllegalMove, match="too-many|the set has 2 Q"):
        device.reveal(1, "Q_______")
    with pytest.raises(IllegalMove, match="known to hold QQ"):
        device.reveal(0, "AB______")


# --- forged public records ---------------------------------------------------------------------
def finished_record(players: int = 2, check: str = "dictionary", seed: int = 31) -> dict[str, object]:
    state = new_game(players, check, seed)
    for _ in self_play(state, Rng(seed)):
        pass
    assert state.is_over()
    return public_record(state).to_json()


def refused(data: object, words: object = None, match: str | None = None) -> str:
    with pytest.raises(RecordError, match=match) as info:
        rebuild(PublicRecord.from_json(data), words or ThirdWords())  # type: ignore[arg-type]
    return str(info.value)


def first_play(data: dict[str, object]) -> int:
    moves = data["moves"]
    assert isinstance(moves, list)
    return next(i for i, m in enumerate(moves) if m.get("words"))


def test_a_finished_record_rebuilds_with_its_final_racks() -> None:
    data = finished_record()
    state = rebuild(PublicRecord.from_json(data), ThirdWords())
    assert state.is_over() and not state.final_pending()
    assert not any(HIDDEN in r for r in state.racks)


def test_a_wrong_score_is_refused() -> None:
    data = finished_record()
    k = first_play(data)
    data["moves"][k]["score"] += 1  # type: ignore[index]
    assert "but the move scores" in refused(data)


def test_a_wrong_total_and_a_wrong_seat_are_refused() -> None:
    data = finished_record()
    data["moves"][0]["total"] += 3  # type: ignore[index]
    assert "total" in refused(data)
    data = finished_record()
    data["moves"][0]["seat"] = 1 - data["moves"][0]["seat"]  # type: ignore[index]
    refused(data, match="seat")


def test_a_word_the_lexicon_lacks_is_refused_in_dictionary_mode() -> None:
    data = finished_record()
    assert "not a word" in refused(data, SetWordList(["CASA"]))


def test_a_record_that_checks_words_needs_the_word_list() -> None:
    data = finished_record()
    with pytest.raises(RecordError, match="word list"):
        rebuild(PublicRecord.from_json(data), None)


def test_a_tile_on_an_occupied_square_is_refused() -> None:
    data = finished_record()
    k = first_play(data)
    moves = data["moves"]
    assert isinstance(moves, list)
    play = parse_move(moves[k]["move"])
    assert isinstance(play, Play)
    letters = "".join("Z" if ch != "Z" else "Q" for ch in play.word)
    moves.insert(k + 1, dict(moves[k + 1], move=move_text(replace(play, word=letters))))
    assert "already holds" in refused(data, match=f"turn {k + 2}")


def test_too_many_tiles_of_a_letter_are_refused() -> None:
    state = ScarabeoState.new(2, seed=3, word_list=None)
    data = public_record(state).to_json()
    data["word_check"] = False
    starter = state.starter
    data["moves"] = [{"seat": starter, "move": "9H QQQ", "score": 0, "total": 0}]
    assert "the set has 2 Q tiles" in refused(data)


def test_a_false_draw_for_who_starts_is_refused() -> None:
    data = finished_record()
    start = data["start"]
    assert isinstance(start, dict)
    start["starter"] = 1 - start["starter"]
    refused(data, match="start")


def test_wrong_final_racks_or_scores_are_refused() -> None:
    data = finished_record()
    final = data["final"]
    assert isinstance(final, dict)
    final["scores"] = [s + 1 for s in final["scores"]]
    refused(data, match="final scores")
    data = finished_record()
    final = data["final"]
    assert isinstance(final, dict)
    racks = final["racks"]
    loser = next(s for s, r in enumerate(racks) if r)
    racks[loser] = "QQ?" if len(racks[loser]) == 3 else "Z" * len(racks[loser])
    refused(data, match="final")


@pytest.mark.parametrize("edit,match", [
    (lambda d: d.update(seed=42), "unknown field"),
    (lambda d: d.update(version=99), "newer"),
    (lambda d: d.update(format="scarab-record"), "not a Scarab public record"),
    (lambda d: d["options"].update(names=["x" * 5000, "y"]), "name"),
    (lambda d: d["moves"][0].update(score=10**12), "within"),
    (lambda d: d["moves"][0].update(move="9F " + "A" * 500), "200 characters"),
    (lambda d: d.update(moves=[d["moves"][0]] * 2001), "at most 2000"),
    (lambda d: d["moves"][0].update(seat=True), "seat"),
    (lambda d: d.update(final={"racks": ["A"] * 9, "scores": [0] * 9}), "final.racks"),
])
def test_a_malformed_record_is_refused_with_a_reason(edit: object, match: str) -> None:
    data = finished_record()
    edit(data)  # type: ignore[operator]
    with pytest.raises(RecordError, match=match):
        rebuild(PublicRecord.from_json(data), ThirdWords())


def test_huge_or_deep_text_is_refused_before_parsing() -> None:
    with pytest.raises(RecordError, match="more than"):
        loads("{" + " " * 2_000_000 + "}", ThirdWords())
    with pytest.raises(RecordError, match="digits"):
        loads('{"format": "scarab-public-record", "version": ' + "9" * 60 + "}", ThirdWords())
    with pytest.raises(RecordError, match="nested"):
        loads("[" * 200 + "]" * 200, ThirdWords())


def test_a_game_started_from_a_position_keeps_its_racks_out_of_the_record() -> None:
    state = ScarabeoState.from_position(
        "17/17/17/17/17/17/17/17/17/17/17/17/17/17/17/17/17 CONTARE?/ABBAZIAL 0/0 0",
        word_list=ThirdWords(), seed=BIG_SEED)
    for _ in self_play(state, Rng(3), limit=20):
        pass
    data = public_record(state).to_json()
    text = dumps(data)
    assert "CONTARE" not in text.split('"moves"')[0] and "ABBAZIAL" not in text
    assert str(BIG_SEED) not in text
    assert data["options"]["position"].split()[1] == "________/________"
    spectator = rebuild(PublicRecord.from_json(data), ThirdWords())
    assert_public_match(spectator, state)


def test_best_refuses_a_rack_to_move_with_hidden_tiles_in_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    from game.scarabeo import cli

    position = "17/17/17/17/17/17/17/17/17/17/17/17/17/17/17/17/17 CONTARE_/________ 0/0 0"
    assert cli.main(["best", position]) != 0
    captured = capsys.readouterr()
    assert "hidden tiles" in captured.out + captured.err
    assert "Traceback" not in captured.out + captured.err


def test_the_computer_finds_the_same_endgame_plays_from_a_seat_view() -> None:
    """Bag empty, two players: the engine's endgame infers the other rack from the set, so a
    seat's masked state gives the same best plays as the full state."""
    from game.scarabeo import ai
    from game.scarabeo.lexicon_file import load_lexicon

    try:
        lexicon = load_lexicon()
    except RuntimeError as err:  # pragma: no cover - the lexicon is built by the set-up
        pytest.skip(str(err))
    state = ScarabeoState.new(2, seed=12)
    rng = Rng(12)
    while state.bag or state.is_over():
        assert not state.is_over()
        state.push(random_move(state, rng))
    masked = seat_state(state, state.turn)  # random words: rebuilt without a word list
    state.word_list = masked.word_list = lexicon
    assert HIDDEN in masked.racks[1 - state.turn]
    real = ai.best_moves(state, 5, "champion")
    seen = ai.best_moves(masked, 5, "champion")
    assert [(c.move, c.score, c.equity) for c in seen] == [(c.move, c.score, c.equity) for c in real]


def test_exchanges_and_an_end_by_passes_through_devices_and_the_public_record() -> None:
    state = ScarabeoState.from_position(
        "17/17/17/17/17/17/17/17/17/17/17/17/17/17/17/17/17 AEIOUAEI/BCDFGLMN 0/0 0", seed=BIG_SEED)
    devices = [seat_state(state, seat) for seat in range(2)]
    for text in ("-AAEEIIOU", "-BCDFGLMN", "-", "-"):
        result = state.push(parse_move(text))
        for seat, device in enumerate(devices):
            device.push(result.move if result.player == seat else public_move(result.move))
            if not state.is_over():
                device.reveal(seat, "".join(state.racks[seat]))
            assert_public_match(device, state)
    out = state.outcome()
    assert out is not None and out.reason == "passes"
    record = public_record(state).dumps()
    assert '"-8"' in record and "AAEEIIOU" not in record and "BCDFGLMN" not in record
    spectator = loads(record, None)
    settled = spectator.outcome()
    assert settled is not None and settled.scores == out.scores and settled.reason == "passes"
    for seat, device in enumerate(devices):
        assert device.final_pending() and device.racks_pending() == [1 - seat]
        device.reveal(1 - seat, "".join(state.racks[1 - seat]))
        final = device.outcome()
        assert final is not None and final.scores == out.scores and final.winners == out.winners


def test_an_exchange_by_count_is_refused_when_what_is_known_of_the_rack_forbids_it() -> None:
    device = seat_state(ScarabeoState.from_position(
        "17/17/17/17/17/17/17/17/17/17/17/17/17/17/17/17/17 AEIOUAEI/BCDFGLMN 0/0 0"), None)
    device.reveal(0, "AB______")
    with pytest.raises(IllegalMove, match="8 vowels or 8 consonants"):
        device.push(parse_move("-8"))
    device.reveal(0, "AB?_____")
    with pytest.raises(IllegalMove, match="scarab"):
        device.push(parse_move("-8"))
