"""Pass-and-play sessions over real engines, saved through the envelope store."""

from __future__ import annotations

from itertools import count
from typing import Any

import pytest

from game.core import IllegalMove
from web.platform.session import Seat, Session, save_facts
from web.platform.storage import MemoryStore, SaveConflict, SaveStore
from web.platform import engines


def store() -> SaveStore:
    ticks, ids = count(1), count(1)
    return SaveStore(MemoryStore(), clock=lambda: next(ticks), new_id=lambda: f"s{next(ids)}",
                     validate_state=engines.validate_state)


def thot(s: SaveStore, seats: list[Seat] | None = None) -> Session:
    return Session.create(s, "thot", {"players": 2}, 7, seats or [Seat("Ada"), Seat("Bo")], "Thot test")


class TestSession:
    def test_every_move_is_autosaved_and_resumes_exactly(self) -> None:
        s = store()
        session = thot(s)
        for _ in range(4):
            session.play(session.state.move_text(session.state.legal_moves()[0]))
        again = Session.open(s, session.save.id)
        assert again.state.position() == session.state.position()
        assert again.seats == session.seats
        assert again.save.revision == 5

    def test_illegal_move_changes_nothing(self) -> None:
        s = store()
        session = thot(s)
        before = (session.state.position(), session.save.revision)
        legal = {session.state.move_text(m) for m in session.state.legal_moves()}
        bad = next(f"{c}{r}" for c in "ABCDEFGHIJ" for r in range(1, 11) if f"{c}{r}" not in legal)
        with pytest.raises(IllegalMove):
            session.play(bad)
        assert (session.state.position(), s.load(session.save.id).revision) == before

    def test_take_back_between_people_only(self) -> None:
        s = store()
        people = thot(s)
        assert not people.can_take_back()
        start = people.state.position()
        people.play(people.state.move_text(people.state.legal_moves()[0]))
        assert people.can_take_back()
        people.take_back()
        assert people.state.position() == start
        assert Session.open(s, people.save.id).state.position() == start

        versus = thot(s, [Seat("Ada"), Seat("CPU", computer=True)])
        versus.play(versus.state.move_text(versus.state.legal_moves()[0]))
        assert versus.computer_to_move() and not versus.can_take_back()

    def test_the_engine_names_the_last_mover(self) -> None:
        s = store()
        session = thot(s)
        session.play(session.state.move_text(session.state.legal_moves()[0]))
        pushes: list[int] = []
        real_push = session.state.push

        def counting_push(move: object) -> object:
            pushes.append(1)
            return real_push(move)

        session.state.push = counting_push  # type: ignore[method-assign]
        assert session.can_take_back() and len(pushes) == 1  # the default: popped and pushed again
        session.state.last_mover = lambda: 0  # type: ignore[method-assign]  # an engine that keeps it
        assert session.can_take_back() and len(pushes) == 1  # nothing pushed
        session.seats[0] = Seat("Ada", computer=True)
        assert not session.can_take_back()

    def test_stale_tab_cannot_overwrite(self) -> None:
        s = store()
        tab1 = thot(s)
        tab2 = Session.open(s, tab1.save.id)
        tab2.play(tab2.state.move_text(tab2.state.legal_moves()[0]))
        with pytest.raises(SaveConflict):
            tab1.play(tab1.state.move_text(tab1.state.legal_moves()[0]))

    def test_import_replays_the_record(self) -> None:
        s = store()
        session = thot(s)
        session.play(session.state.move_text(session.state.legal_moves()[0]))
        copy = s.import_text(s.export(session.save.id))
        assert Session.open(s, copy.id).state.position() == session.state.position()

    def test_table_meta_is_saved_and_kept_out_of_links(self) -> None:
        s = store()
        session = thot(s)
        calls: list[int] = []

        def before_save() -> None:  # a view brings its table up to date before each write
            calls.append(len(session.state.history()))
            session.meta["table"] = {"move": len(session.state.history())}

        session.before_save = before_save
        session.play(session.state.move_text(session.state.legal_moves()[0]))
        assert calls == [1]  # after the move, before the write
        again = Session.open(s, session.save.id)
        assert again.meta["table"] == {"move": 1}
        assert again.record().meta["table"] == {"move": 1}
        shared = again.record(shared=True)
        assert "table" not in shared.meta and shared.meta["game_id"] == again.game_id
        assert shared.moves == again.record().moves
        session.autosave()  # a write with no move (the view's periodic save)
        assert calls == [1, 1] and s.load(session.save.id).revision == 3


class TestTakeBackAgainstTheComputer:
    """Your move and the computer's reply come back together (docs/web.md, "Take-back")."""

    def test_thot_move_and_reply_come_back_together(self) -> None:
        s = store()
        versus = thot(s, [Seat("Ada"), Seat("CPU", computer=True)])
        start = versus.state.position()
        versus.play(versus.state.move_text(versus.state.legal_moves()[0]))
        assert versus.computer_to_move() and not versus.can_take_back()  # the computer is thinking
        versus.play(versus.state.move_text(versus.state.legal_moves()[0]))  # its reply
        assert versus.take_back_count() == 2
        versus.take_back()
        assert versus.state.position() == start and not versus.state.history()
        assert Session.open(s, versus.save.id).state.position() == start  # saved once, both gone

    def test_the_computer_first_then_only_your_move_and_its_reply(self) -> None:
        versus = thot(store(), [Seat("CPU", computer=True), Seat("Ada")])
        legal = lambda: versus.state.move_text(versus.state.legal_moves()[0])  # noqa: E731
        versus.play(legal())  # the computer opens
        assert not versus.can_take_back()  # its opening move is not yours to take back
        after_opening = versus.state.position()
        versus.play(legal())  # Ada
        versus.play(legal())  # the reply
        assert versus.take_back_count() == 2
        versus.take_back()
        assert versus.state.position() == after_opening and not versus.can_take_back()

    def test_never_another_persons_move(self) -> None:
        session = Session.create(store(), "thot", {"players": 3}, 7,
                                 [Seat("Ada"), Seat("Bo"), Seat("CPU", computer=True)], "three")
        for _ in range(3):  # Ada, Bo, then the computer: Ada to move, Bo's move is the last person's
            session.play(session.state.move_text(session.state.legal_moves()[0]))
        assert session.state.to_move() == 0 and not session.can_take_back()

    def test_two_computers_in_a_row_come_back_with_your_move(self) -> None:
        session = Session.create(store(), "thot", {"players": 3}, 7,
                                 [Seat("Ada"), Seat("C1", computer=True), Seat("C2", computer=True)], "three")
        for _ in range(3):
            session.play(session.state.move_text(session.state.legal_moves()[0]))
        assert session.take_back_count() == 3
        session.take_back()
        assert not session.state.history()

    def test_scarabya_same_mission_cards_after_the_take_back(self) -> None:
        s = store()
        session = Session.create(s, "scarabya", {"players": 2}, 5, [Seat("Ada"), Seat("CPU", computer=True)], "sy")
        start = session.state.position()
        session.play(session.state.move_text(session.state.legal_moves()[0]))
        session.play(session.state.move_text(session.state.legal_moves()[0]))
        drawn = session.state.view()["tiles_drawn"]
        session.take_back()
        assert session.state.position() == start
        session.play(session.state.move_text(session.state.legal_moves()[-1]))
        session.play(session.state.move_text(session.state.legal_moves()[0]))
        assert session.state.view()["tiles_drawn"] == drawn  # the deck's order is the game's, unchanged

    def test_scarabeo_bag_order_unchanged_and_no_dispute_crossed(self) -> None:
        s = store()
        session = Session.create(s, "scarabeo", {"players": 2, "check_mode": "challenge"}, 3,
                                 [Seat("Ada"), Seat("CPU", computer=True)], "parole")
        bag = list(session.state.bag)
        session.play("-")
        session.play("-")
        assert session.take_back_count() == 2
        session.take_back()
        assert session.state.bag == bag and not session.state.history()
        from game.core import Rng
        from game.scarabeo.moves import move_text
        from game.scarabeo.randomplay import random_placement_play

        play = random_placement_play(session.state, Rng(1))
        assert play is not None
        session.play(move_text(play))  # pending: the computer may challenge it or let it stand
        session.play("!accept")
        session.play("-")
        assert session.state.to_move() == 0 and not session.can_take_back()  # across a dispute: never


class TestSaveFacts:
    """The Continue list reads the players, scores, moves and whose turn without replaying."""

    def test_summary_at_every_autosave(self) -> None:
        s = store()
        session = thot(s)
        facts = save_facts(s.load(session.save.id).state)
        assert facts is not None and facts.moves == 0 and facts.scores == [0, 0] and facts.to_move == 0
        session.play(session.state.move_text(session.state.legal_moves()[0]))
        facts = save_facts(s.load(session.save.id).state)
        assert facts is not None
        assert [x.name for x in facts.seats] == ["Ada", "Bo"]
        assert (facts.moves, facts.scores, facts.to_move, facts.over) == (
            1, session.state.view()["scores"], 1, False)
        assert "summary" not in session.record(shared=True).meta  # never in a link

    def test_outside_data_is_checked(self) -> None:
        s = store()
        session = thot(s)
        session.play(session.state.move_text(session.state.legal_moves()[0]))
        good = s.load(session.save.id).state
        for bad in ({"moves": 1, "scores": [1], "to_move": 0, "over": False},  # not one per seat
                    {"moves": 5, "scores": [0, 0], "to_move": 0, "over": False},  # stale
                    {"moves": 1, "scores": ["9", 0], "to_move": 0, "over": False},
                    {"moves": 1, "scores": [10**12, 0], "to_move": 0, "over": False},
                    {"moves": 1, "scores": [0, 0], "to_move": 2, "over": False},
                    {"moves": 1, "scores": [0, 0], "to_move": True, "over": False},
                    "summary"):
            facts = save_facts({**good, "meta": {**good["meta"], "summary": bad}})
            assert facts is not None and facts.moves == 1 and facts.scores is None and facts.to_move is None
        no_seats = {**good, "meta": {}, "options": {"players": 2}}
        facts = save_facts(no_seats)
        assert facts is not None and [x.name for x in facts.seats] == ["1", "2"]
        for junk in (None, [], {"moves": "x", "meta": {}}, {**good, "meta": {"seats": "x"}}):
            assert save_facts(junk) is None


class TestUnplayedGames:
    """Issue 26: a game nobody played is not kept (never listed under Continue, gone when left)."""

    def test_an_unplayed_game_is_marked_until_its_first_move(self) -> None:
        from web.platform.session import is_unplayed

        s = store()
        session = Session.create(s, "thot", {"players": 2}, 7, [Seat("Ada"), Seat("Bo")], "t", unplayed=True)
        assert session.unplayed and is_unplayed(s.load(session.save.id).state)
        assert "unplayed" not in session.record(shared=True).meta  # never in a link
        session.play(session.state.move_text(session.state.legal_moves()[0]))
        assert not session.unplayed and not is_unplayed(s.load(session.save.id).state)
        session.take_back()  # played once: a game like any other, kept
        assert not session.unplayed and not is_unplayed(s.load(session.save.id).state)

    def test_unplayed_games_dropped_but_the_new_one_and_never_a_played_one(self) -> None:
        from web.platform.session import drop_unplayed

        s = store()  # its clock ticks once a write
        old = Session.create(s, "thot", {"players": 2}, 7, [Seat("Ada"), Seat("Bo")], "t", unplayed=True)
        kept = thot(s)  # a game made otherwise (a guided game, a daily, an import) is never dropped
        new = Session.create(s, "thot", {"players": 2}, 8, [Seat("Ada"), Seat("Bo")], "t", unplayed=True)
        assert drop_unplayed(s, keep=new.save.id, before=old.save.updated) == 0  # not old enough
        assert drop_unplayed(s, keep=new.save.id) == 1
        assert sorted(x.id for x in s.list()) == sorted([kept.save.id, new.save.id])


class TestRematch:
    def test_same_players_and_choices_the_other_side_starts(self) -> None:
        from web.platform.session import rematch_of

        seats = [Seat("You"), Seat("CPU", computer=True, level=3)]
        options, turned = rematch_of("scarabeo", {"players": 2, "names": ["You", "CPU"], "check_mode": "challenge",
                                                  "hourglass": False, "bags": [[1, 2]], "position": "x"}, seats)
        assert turned == [seats[1], seats[0]]
        assert options == {"players": 2, "names": ["CPU", "You"], "check_mode": "challenge", "hourglass": False}

    def test_a_new_deal_of_every_game(self) -> None:
        from web.platform.session import rematch_of

        for game, options in (("thot", {"players": 4, "short": True, "turnoff": False, "teams": True}),
                              ("scarabya", {"players": 1, "variant": "classic"})):
            seats = [Seat(f"P{i}") for i in range(options["players"])]
            state = engines.factory(game)(options, 3)
            kept, turned = rematch_of(game, state.options(), seats)
            fresh = engines.factory(game)(kept, 4)  # the engine takes the kept options as they are
            assert fresh.num_players == len(turned) == len(seats)
            assert turned == seats[1:] + seats[:1]
        assert "layout" not in rematch_of("scarabya", engines.factory("scarabya")({"players": 1}, 3).options(),
                                          [Seat("A")])[0]
        # Thot's teams of four: partners (0 and 2, 1 and 3) still sit opposite after the turn
        turned = rematch_of("thot", {"players": 4}, [Seat(n) for n in "ABCD"])[1]
        assert [s.name for s in turned] == ["B", "C", "D", "A"]


class TestListing:
    """What the Continue list says of a save, before and after Python starts."""

    def messages(self, lang: str = "en") -> Any:
        from web.platform.i18n import Messages, load_catalogue

        return Messages(load_catalogue(), lang)

    def test_a_title_the_site_made_gives_way_to_who_plays_and_the_scores(self) -> None:
        from web.platform.session import listing

        t = self.messages()
        s = store()
        a = Session.create(s, "thot", {"players": 2}, 7, [Seat("You"), Seat("Computer (expert)", True, 2)],
                           t("play.title.default", game=t("game.thot.name"), date="2 Dec 2026"))
        b = Session.create(s, "thot", {"players": 2}, 8, [Seat("Bruno"), Seat("Carla")],
                           t("play.title.default", game=t("game.thot.name"), date="2 Dec 2026"))
        for session in (a, b):
            session.play(session.state.move_text(session.state.legal_moves()[0]))
        one = listing(t, "thot", a.save.title, a.save.state)
        two = listing(t, "thot", b.save.title, b.save.state)
        assert one.heading == "You vs Computer (intermediate)" and two.heading == "Bruno vs Carla"
        assert one.line != two.line and "1 move" in two.line and "Carla to play" in two.line
        assert not one.daily
        # the player's own title is theirs
        assert listing(t, "thot", "Sunday game", b.save.state).heading == "Sunday game"
        it = self.messages("it")
        assert listing(it, "thot", b.save.title, b.save.state).heading == "Bruno contro Carla"

    def test_a_daily_attempt_is_listed_as_a_daily_with_its_result(self) -> None:
        from web.platform.session import listing

        t = self.messages()
        s = store()
        session = thot(s, [Seat("You"), Seat("Computer", True, 3)])
        session.meta["daily"] = {"game": "thot", "date": "2026-12-02", "number": 30, "start": 0, "me": 0,
                                 "best": 5, "plies": 2, "base": [0, 0], "top": [], "line": []}
        session.play(session.state.move_text(session.state.legal_moves()[0]))
        todo = listing(t, "thot", session.save.title, session.save.state, session.save.id)
        assert todo.daily and todo.heading == "Challenge #30 — Scarab — the Game of Thot" and todo.line == "in progress"
        session.play(session.state.move_text(session.state.legal_moves()[0]))
        attempts = {"entries": [{"date": "2026-12-02", "game": "thot", "save": session.save.id, "percent": 80}]}
        done = listing(t, "thot", session.save.title, session.save.state, session.save.id, attempts)
        assert done.line == "done: 80%" and "moves" not in done.line and "to play" not in done.line


class TestRematchStart:
    def test_the_other_side_starts_where_the_engine_draws_the_starter(self) -> None:
        from itertools import count as counter

        from web.platform.session import rematch_start

        seats = [Seat("Anna"), Seat("Hal", True, 1)]
        factory = engines.factory("scarabeo")
        for seed in range(6):
            options = {"players": 2, "names": ["Anna", "Hal"], "check_mode": "dictionary", "hourglass": False}
            opener = seats[factory(options, seed).to_move()]
            kept, turned, new_seed = rematch_start("scarabeo", options, seed, seats, counter(1000 + 7 * seed))
            assert turned[factory(kept, new_seed).to_move()] != opener
            assert kept["names"] == [s.name for s in turned]

    def test_thot_the_second_opens(self) -> None:
        from itertools import count as counter

        from web.platform.session import rematch_start

        seats = [Seat("You"), Seat("CPU", True, 1)]
        kept, turned, seed = rematch_start("thot", {"players": 2, "short": True, "turnoff": False, "teams": False},
                                           5, seats, counter(9))
        assert turned[engines.factory("thot")(kept, seed).to_move()] == seats[1] and seed == 9
