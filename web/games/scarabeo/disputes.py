"""Challenges and votes: the dispute panel (challenge, contest, ballot), what the pass-and-play
cover shows while a play waits for the table's decision, the computer's challenge at once
(``computer_interjects``), the computer waiting for the people (``dispute_waits``) and the
hourglass lying on its side meanwhile."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyscript import document

from web.platform import events
from web.ui.dom import append, h
from game.scarabeo import table as table_rules
from web.games.scarabeo.context import ViewPart, scarabeo_ai

if TYPE_CHECKING:
    from web.ui.context import PlayPage


class Disputes(ViewPart):
    """A mixin of ``web.games.scarabeo.ScarabeoUI``: the methods this module's docstring describes (every one
    takes the game page, ``web.ui.context.PlayPage``)."""

    def computer_interjects(self, page: PlayPage) -> str | None:
        """``play.py`` hook, asked after every move: a computer seat whose lexicon refuses a word of
        the pending play challenges it at once, whether or not it is next (the first one in turn order
        after the player: ``game.scarabeo.table.computer_challenger``)."""
        session = page.session
        if session is None or session.replay_only or scarabeo_ai is None:
            return None
        seat = table_rules.computer_challenger(session.state, session.seats)
        return None if seat is None else f"!challenge {seat + 1}"

    def dispute_waits(self, page: PlayPage) -> bool:
        """(Part of ``play.py``'s hook ``computer_waits``) The computer to move holds back while the people decide on a pending play.
        It decides at once when no person other than the player who made the play sits at the table."""
        session = page.session
        if session is None or session.replay_only or not session.computer_to_move():
            return False
        return table_rules.computer_waits(session.state, session.seats)

    def cover(self, page: PlayPage) -> tuple[Any, bool]:
        """``play.py`` hook: what the pass-and-play cover shows besides "Pass the device to NAME".
        While a play is pending and people other than the next player may challenge it, the cover
        holds the decision — the play, its words and score, a challenge button for each person but
        its maker, Accept — and the next player may show their tiles only once it is taken; the
        hourglass lies on its side meanwhile; above it the message line, what happened since the
        person's last turn in its own words (a challenge upheld, the computer's play after it), or
        the outcome would never be on that person's screen. Otherwise the message line alone (a
        dispute's outcome, "Time is up"). A vote with two or more people at the table is cast on the cover as well
        (``scarabeo_table.vote_on_cover``): nobody's rack is in view while the table decides."""
        session = page.session
        state = session.state
        if not session.replay_only and table_rules.dispute_on_cover(state, session.seats):
            if state.timer is not None and state.timer.active:
                state.timer.pause()  # stood up again when the next player sees the board
            # the message line first: what happened since this person's last turn (the panel names
            # only the play pending)
            return h("div", {"class": "sc-cover"}, page.message_box() if page.message else None,
                     self._dispute_box(page, state.view(), on_cover=True)), False
        if not session.replay_only and table_rules.vote_on_cover(state, session.seats):
            # the table votes with every rack covered; the player may show their tiles once it is decided
            return h("div", {"class": "sc-cover"}, page.message_box(),
                     self._dispute_box(page, state.view(), on_cover=True)), False
        return (page.message_box() if page.message else None), True

    def _sync_clock(self, page: PlayPage, waiting: bool) -> None:
        """The hourglass lies on its side while the table decides (a vote, the challenge window)."""
        state = page.session.state
        timer = state.timer
        if timer is None or not timer.active or state.is_over():
            return
        hold = waiting or (state.pending is not None and state.pending.kind == "vote")
        if hold:
            timer.pause()
        else:
            timer.resume()

    def _dispute_box(self, page: PlayPage, view: dict[str, Any], waiting: bool = False, on_cover: bool = False) -> Any:
        t = page.t
        sc = page.view_scope
        seats = page.session.seats
        p = view["pending"]
        n = view["players"]
        said = events.seat_names(t, "scarabeo", seats)  # the computer by its level, never "Player 2"
        you = events.you_seat(t, seats)  # the reader's own forms: "You abstain", never "You abstains"
        if p["kind"] == "challenge":
            # the play and its words are public; no rack is named (the panel is shown to the table).
            # In vote mode the same panel contests the play: a word chosen goes to the table's vote.
            contest = table_rules.contest_words(page.session.state)
            mode = "contest" if view["check_mode"] == "vote" else "challenge"
            box = h("section", {"class": "panel sc-dispute" + ("" if on_cover else " sc-strip"), "id": "sc-challenge",
                                "aria-labelledby": "sc-dispute-title",
                                "data-mode": mode},
                    h("h2", {"id": "sc-dispute-title", "text": t(f"scarabeo.{mode}.title")}),
                    h("p", {"text": t.plural("scarabeo.challenge.body", p["score"], name=said[p["player"]], move=p["move"],
                                             words=", ".join(p["words"]))}))
            if waiting:
                append(box, h("p", {"class": "sc-waiting", "id": "sc-challenge-waiting",
                                    "text": t("scarabeo.challenge.waiting", name=seats[view["to_move"]].name)}))
            if len(contest) > 1:
                choice = h("fieldset", {"class": "sc-ballot", "id": "sc-contest-words"},
                           h("legend", {"text": t("scarabeo.contest.word")}))
                for i, word in enumerate(contest):
                    radio = h("input", {"type": "radio", "name": "sc-contest-word", "id": f"sc-contest-{word}",
                                        "value": word, "checked": i == 0})
                    append(choice, h("label", {"class": "choice", "for": f"sc-contest-{word}"}, radio, word))
                append(box, choice)

            def challenge_text(seat: int) -> str:
                if mode == "challenge":
                    return f"!challenge {seat + 1}"
                word = contest[0] if contest else ""
                for w in contest[1:]:
                    node = document.getElementById(f"sc-contest-{w}")
                    if node and node.checked:
                        word = w
                return f"!challenge {seat + 1} {word}".rstrip()

            row = h("div", {"class": "row"})
            for s in table_rules.challengers(page.session.state, seats):
                append(row, h("button", {"type": "button", "id": f"sc-challenge-{s + 1}", "class": "danger",
                                         "text": t.form(f"scarabeo.{mode}.by", you=s == you, name=seats[s].name),
                                         "on_click": lambda _e, s=s: self._commit(page, challenge_text(s))},
                              scope=sc))
            append(row, h("button", {"type": "button", "id": "sc-accept", "text": t("scarabeo.challenge.accept"),
                                     "data-autofocus": on_cover,  # Enter on the cover does not challenge
                                     "on_click": lambda _e: self._commit(page, "!accept")}, scope=sc))
            help_key = (f"scarabeo.{mode}.help.cover" if on_cover else f"scarabeo.{mode}.help.waiting"
                        if waiting else f"scarabeo.{mode}.help")
            append(box, row, h("p", {"class": "muted", "text": t(help_key, name=seats[view["to_move"]].name)}))
            return box
        # a vote: one Y/N per seat (with four players the player concerned abstains)
        box = h("section", {"class": "panel sc-dispute" + ("" if on_cover else " sc-strip"), "id": "sc-vote",
                            "aria-labelledby": "sc-dispute-title"},
                h("h2", {"id": "sc-dispute-title", "text": t("scarabeo.vote.title")}),
                h("p", {"text": t.form("scarabeo.vote.body", you=p["player"] == you, name=said[p["player"]],
                                       move=p["move"], words=", ".join(p["unknown_words"] or p["words"]))
                        if p.get("contested_by") is None else
                        t("scarabeo.vote.body.contested", name=said[p["player"]], move=p["move"],
                          challenger=seats[p["contested_by"]].name, words=", ".join(p["unknown_words"]))}))
        computer_vote = table_rules.computer_vote(page.session.state)
        fields: list[tuple[int, Any]] = []
        for s in range(n):
            if n == 4 and s == p["player"]:
                append(box, h("p", {"class": "muted", "text": t.form("scarabeo.vote.abstains", you=s == you,
                                                                      name=seats[s].name)}))
                continue
            if not getattr(seats[s], "here", True):
                continue  # remote play: that seat votes on its own device, by its own link
            computer = seats[s].computer
            yes = h("input", {"type": "radio", "name": f"sc-vote-{s}", "id": f"sc-vote-{s}-Y", "value": "Y",
                              "checked": computer and computer_vote == "Y", "disabled": computer})
            no = h("input", {"type": "radio", "name": f"sc-vote-{s}", "id": f"sc-vote-{s}-N", "value": "N",
                             "checked": computer and computer_vote == "N", "disabled": computer})
            fields.append((s, yes))
            append(box, h("fieldset", {"class": "sc-ballot"},
                          h("legend", {"text": seats[s].name + (" — " + t("scarabeo.vote.computer") if computer else "")}),
                          h("label", {"class": "choice", "for": f"sc-vote-{s}-Y"}, yes, t("scarabeo.vote.yes")),
                          h("label", {"class": "choice", "for": f"sc-vote-{s}-N"}, no, t("scarabeo.vote.no"))))

        def submit(_e: Any) -> None:
            votes = ["-"] * n
            for s, yes in fields:
                no = document.getElementById(f"sc-vote-{s}-N")
                if yes.checked:
                    votes[s] = "Y"
                elif no and no.checked:
                    votes[s] = "N"
                else:
                    page.show_message(t.form("scarabeo.vote.missing", you=s == you, name=seats[s].name), error=True)
                    return
            self._commit(page, "!vote " + "".join(votes))

        if fields:
            append(box, h("button", {"type": "button", "class": "primary", "id": "sc-vote-go",
                                     "text": t("scarabeo.vote.submit"), "on_click": submit}, scope=sc))
        return box
