"""Every move said in words, through the catalogue: the one place where an engine's result becomes
the sentence shown in the message line, written in the log and read by the live region.

The engines say what a move did in structured form (Scarabeo's ``TurnResult``: the play, its word,
square and score, the scarabs taken, the play a dispute decided and the words at issue; Thot's and
Scarabya's result dicts: the squares, what was taken or closed). Here that becomes
"Computer (expert) played DOPARVI at 14H for 78 points, taking the scarab at H1." /
"Computer (esperto) ha giocato DOPARVI in 14H per 78 punti, prendendo lo scarabeo in H1.". The
notation stays beside it (``Event.notation``) for the log's detail and the exports.

Person and plural come from the catalogue's forms (``Messages.form``): ``key.you`` when the subject
is the reader ("You played", "Hai giocato"), ``key.one``/``key.other`` by count. The one ladder of
computer levels lives here too (``LADDER``, ``RUNGS``): the engines keep their own level ids, the
names shown come from the catalogue's ``level.<rung>``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from web.platform.i18n import Messages, signed

if TYPE_CHECKING:
    from game.scarabeo import TurnResult

#: The one ladder of computer levels, weakest first: catalogue keys ``level.<rung>``.
LADDER = ("beginner", "intermediate", "expert", "champion", "grandmaster")
#: Each game's computer levels (the engines' ids, as seats store them) on the ladder. Thot's three
#: levels span it: its top level (depth to the end of the game) is its champion. Scarabeo's fifth, the
#: grandmaster, simulates its champion's best plays (``game.scarabeo.sim``).
RUNGS: Mapping[str, Mapping[int, str]] = {
    "scarabeo": {1: "beginner", 2: "intermediate", 3: "expert", 4: "champion", 5: "grandmaster"},
    "scarabya": {1: "beginner", 2: "intermediate", 3: "expert", 4: "champion"},
    "thot": {1: "beginner", 2: "intermediate", 3: "champion"},
}


@dataclass(frozen=True)
class Event:
    """One move in words (``text``) and in the engine's notation (``notation``), by seat ``seat``."""

    text: str
    notation: str
    seat: int | None = None


def level_name(t: Messages, game: str, level: int) -> str:
    """The ladder's name of a game's computer level ("expert", "esperto")."""
    rung = RUNGS.get(game, {}).get(level)
    return t(f"level.{rung}") if rung is not None else str(level)


def computer_name(t: Messages, game: str, level: int) -> str:
    """A computer seat's name with its level: "Computer (expert)", "Computer (esperto)"."""
    return t("computer.name", level=level_name(t, game, level))


def is_default_name(t: Messages, name: str, index: int) -> bool:
    """The name the new-game form gives a seat ("Player 2", "Giocatore 2", "Computer (expert)", in
    either language), or the bare number of a record that names no seat: a computer seat so named is
    shown by its level, in the page's language."""
    defaults = {text.replace("{n}", str(index + 1)) for text in t.catalogue.get("play.seat.default", {}).values()}
    # a computer's name given by the new-game form, in either language and at any level
    computers = {text.replace("{level}", level) for text in t.catalogue.get("computer.name", {}).values()
                 for rung in LADDER for level in t.catalogue.get(f"level.{rung}", {}).values()}
    return name in defaults or name in computers or name in (str(index + 1), "?")


def seat_names(t: Messages, game: str, seats: Sequence[Any]) -> list[str]:
    """The names to show: a computer seat left with its default name is "Computer (level)" in the
    language of the page (a game saved before computers had names, too)."""
    return [computer_name(t, game, int(s.level)) if s.computer and is_default_name(t, s.name, i) else str(s.name)
            for i, s in enumerate(seats)]


def you_seat(t: Messages, seats: Sequence[Any]) -> int | None:
    """The seat that is the reader: the one person at a table of computers whose name is the
    catalogue's "you" ("You", "Tu": the daily challenge's seat), said in the second person."""
    you = {text.casefold() for text in t.catalogue.get("daily.you", {}).values()}
    people = [i for i, s in enumerate(seats) if not s.computer]
    return people[0] if len(people) == 1 and str(seats[people[0]].name).casefold() in you else None


def winner_line(t: Messages, game: str, seats: Sequence[Any], winner: int) -> str:
    """Who won, as a person would say it: "You win" / "Hai vinto" to the reader (never "You wins"),
    "The computer (expert) wins" / "Ha vinto il computer (esperto)" (a computer named by its level
    takes the article in Italian: never "Vince Computer (esperto)"), else "Anna wins" / "Ha vinto Anna"."""
    seat = seats[winner]
    if you_seat(t, seats) == winner:
        return t("play.winner.you")
    if seat.computer and is_default_name(t, seat.name, winner):
        return t("play.winner.computer", level=level_name(t, game, int(seat.level)))
    return t("play.winner", name=seat_names(t, game, seats)[winner])


def join(t: Messages, items: Sequence[str]) -> str:
    """ "A", "A and B", "A, B and C" / "A e B" """
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return t("events.list", items=", ".join(items[:-1]), last=items[-1])


def points(t: Messages, n: int) -> str:
    """ "1 point", "78 points", "−3 points" (the minus sign, U+2212) """
    return t.form("events.points", n=n)


# --- Scarabeo -----------------------------------------------------------------------------------
def _word(play: Any) -> str:
    # a scarab on the board stands for a letter (lower case in the notation): said as that letter
    return str(play.word).upper()


def _square(play: Any) -> str:
    from game.scarabeo.moves import coord_text

    return coord_text(play.start, play.across)


def _swaps(t: Messages, move: Any) -> str:
    from game.scarabeo.board import square_name

    swaps = [square_name(s) for s in getattr(move, "swaps", ())]
    return t.form("events.scarabeo.swaps", n=len(swaps), squares=join(t, swaps)) if swaps else ""


def scarabeo_event(t: Messages, result: "TurnResult", names: Sequence[str], you: int | None = None,
                   pending_kind: str | None = None) -> Event:
    """A Scarabeo move's result in words. ``pending_kind`` is the state's pending play after the
    move ("challenge", "vote" or None), for a play that waits for the table."""
    from game.scarabeo.moves import Accept, Challenge, Exchange, Pass, Play, Vote, move_text

    move = result.move
    player = result.player
    name = names[player]
    me = player == you
    if isinstance(move, Play):
        text = t.form("events.scarabeo.play", you=me, name=name, word=_word(move),
                      square=_square(move), points=points(t, result.score), swaps=_swaps(t, move))
        if result.pending and pending_kind == "vote":
            text += " " + t("events.scarabeo.pending.vote")
        elif result.pending:
            text += " " + t("events.scarabeo.pending.challenge")
    elif isinstance(move, Pass) and result.note == "time-out":
        text = t.form("events.scarabeo.timeout", you=me, name=name)
    elif isinstance(move, Pass):
        text = t.form("events.scarabeo.pass", you=me, name=name, swaps=_swaps(t, move))
    elif isinstance(move, Exchange):
        text = t.form("events.scarabeo.exchange", you=me, n=len(move.tiles), name=name, swaps=_swaps(t, move))
    elif isinstance(move, Challenge):
        challenger = names[move.seat]
        word = _word(result.disputed) if result.disputed is not None else ""
        by_me = move.seat == you
        if result.pending:  # vote mode: the play is contested and its words go to the vote
            text = t.form("events.scarabeo.contested", you=by_me, name=challenger, word=word,
                          words=join(t, list(result.words)))
        elif result.score < 0:
            text = t.form("events.scarabeo.upheld", you=by_me, name=challenger, word=word,
                          refused=t.form("events.scarabeo.refused", n=len(result.words),
                                         words=join(t, list(result.words))))
        else:
            text = t.form("events.scarabeo.failed", you=by_me, name=challenger, word=word)
    elif isinstance(move, Vote):
        yes, no = move.votes.count("Y"), move.votes.count("N")
        word = _word(result.disputed) if result.disputed is not None else ""
        tally = t("events.scarabeo.tally", yes=yes, no=no)
        if result.score < 0:
            text = t.form("events.scarabeo.vote.rejected", you=me, n=len(result.words), name=name, word=word,
                          words=join(t, list(result.words)), tally=tally)
        else:
            text = t.form("events.scarabeo.vote.accepted", n=len(result.words), word=word,
                          words=join(t, list(result.words)), tally=tally)
    elif isinstance(move, Accept):
        word = _word(result.disputed) if result.disputed is not None else ""
        text = t("events.scarabeo.accepted", word=word)
    else:  # pragma: no cover - the engine's Move union is closed
        text = move_text(move)
    return Event(text, move_text(move), player if not isinstance(move, (Challenge,)) else move.seat)


# --- Thot ---------------------------------------------------------------------------------------
def thot_event(t: Messages, result: Mapping[str, Any], names: Sequence[str], you: int | None = None) -> Event:
    """A Thot move in words: where the priest went, what it took, the scarab put back."""
    seat = int(result["seat"])
    me = seat == you
    via = t("events.thot.via", square=result["turn"]) if result.get("turn") else ""
    if result["taken"] == "ankh" and result.get("drop_at"):
        text = t.form("events.thot.ankh.drop", you=me, name=names[seat], to=result["to"], via=via,
                      value=signed(int(result["dropped"])), square=result["drop_at"])
    elif result["taken"] == "ankh":
        text = t.form("events.thot.ankh", you=me, name=names[seat], to=result["to"], via=via)
    else:
        text = t.form("events.thot.take", you=me, name=names[seat], to=result["to"], via=via,
                      value=signed(int(result["taken"])))
    return Event(text, str(result["move"]), seat)


# --- Scarabya -----------------------------------------------------------------------------------
def scarabya_event(t: Messages, result: Mapping[str, Any], names: Sequence[str], you: int | None = None) -> Event:
    """A Scarabya placement in words: the tile and square, the areas it closed and their points; in
    the Ruins the piece, and at a round's end the zones won."""
    seat = int(result["seat"])
    me = seat == you
    name = names[seat]
    if "piece" in result:  # the Ruins
        text = t.form("events.scarabya.piece", you=me, name=name, piece=result["piece"], square=result["square"])
        scored = result.get("scored") or []
        if scored:
            # the reader who won a zone is "you" there too ("zone 1 to you", "zona 1 a te")
            won = [t.form("events.scarabya.zone", you=e["seat"] == you, zone=e["zone"], name=names[e["seat"]],
                          points=points(t, e["points"]))
                   for e in scored if e["seat"] is not None]
            text += " " + t("events.scarabya.round", round=result["round"],
                            zones=join(t, won) if won else t("events.scarabya.round.none"))
    elif result.get("discarded"):
        text = t.form("events.scarabya.discard", you=me, name=name, tile=result["tile"])
    else:
        areas = result.get("areas") or []
        closed = (" " + t.form("events.scarabya.closed", you=me, n=len(areas),
                               points=points(t, int(result["points"]))) if areas else "")
        text = t.form("events.scarabya.place", you=me, name=name, tile=result["tile"],
                      square=result["square"], closed=closed)
    return Event(text, str(result["move"]), seat)


def is_outcome(result: Any) -> bool:
    """A move whose outcome its maker cannot know before it is played: a dispute's decision
    (challenge, vote, accept) or the hourglass passing the turn. Shown to its maker too."""
    from game.scarabeo import TurnResult
    from game.scarabeo.moves import Accept, Challenge, Vote

    return isinstance(result, TurnResult) and (isinstance(result.move, (Challenge, Vote, Accept))
                                               or result.note == "time-out")


def session_event(t: Messages, game: str, session: Any, result: Any) -> Event:
    """The move just played in a session (``web.platform.session.Session``), in words."""
    return describe(t, game, session.state, result, seat_names(t, game, session.seats), you_seat(t, session.seats))


def describe(t: Messages, game: str, state: Any, result: Any, names: Sequence[str],
             you: int | None = None) -> Event:
    """Any game's move result in words; "Game over." follows the move that ended the game."""
    event = move_event(t, game, state, result, names, you)
    if state.is_over():
        event = Event(event.text + " " + t("events.over"), event.notation, event.seat)
    return event


def move_event(t: Messages, game: str, state: Any, result: Any, names: Sequence[str],
               you: int | None = None) -> Event:
    """Any game's move result in words, the end not said (a link that carries several moves says
    each, then the end once)."""
    if game == "scarabeo":
        pending = getattr(state, "pending", None)
        event = scarabeo_event(t, result, names, you, pending.kind if pending is not None else None)
    elif game == "thot":
        event = thot_event(t, result, names, you)
    elif game == "scarabya":
        event = scarabya_event(t, result, names, you)
    else:
        raise ValueError(f"no words for the game {game!r}")
    return event
