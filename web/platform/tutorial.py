"""Guided first games: a fixed seed and a few steps, each asking for a kind of move that the engine
then checks, with an explanation of what happened.

A game's tutorial lives in ``web/games/<game>/tutorial.py`` as ``TUTORIAL`` (a ``Tutorial``), which the
shell registers with the game's views (``web.ui.registry``). The
tutorial is an ordinary save whose record meta carries ``{"tutorial": {"step": n}}``, so it can be left
and resumed from the Continue list. Pure Python: the checks look at the engine's state and the move's
result, never at the screen.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from web.platform.session import Seat, Session

Check = Callable[[Any, str, Any], bool]  # (state after the move, move text, the engine's result) -> done?


@dataclass(frozen=True)
class Step:
    #: Catalogue keys: ``<game>.tutorial.<key>`` (what to do), ``….done`` (why it worked), ``….retry``.
    key: str
    check: Check
    #: Moves to highlight for this step, in the engine's notation (optional help for the view).
    suggest: Callable[[Any], list[str]] | None = None


@dataclass(frozen=True)
class Tutorial:
    game: str
    options: Mapping[str, Any]
    seed: int
    seats: tuple[Seat, ...]
    steps: tuple[Step, ...]
    #: Catalogue key of the closing words.
    outro: str = "tutorial.complete"
    extra: Mapping[str, Any] = field(default_factory=dict)


def start(store: Any, tutorial: Tutorial, title: str, translate: Callable[[str], str] = lambda key: key) -> Session:
    """A new tutorial game, saved like any other (so it can be resumed). A seat's name may be a catalogue
    key ("thot.tutorial.you"): it is written in the player's language when the game starts."""
    seats = [Seat(translate(s.name), s.computer, s.level) for s in tutorial.seats]
    session = Session.create(store, tutorial.game, dict(tutorial.options), tutorial.seed, seats, title)
    session.meta["tutorial"] = {"step": 0}
    session.autosave()
    return session


def find(store: Any, game: str) -> str | None:
    """The save id of an unfinished tutorial of this game, to resume it."""
    from web.platform.storage import Save

    for save in store.list():
        if isinstance(save, Save) and save.game == game:
            meta = save.state.get("meta")
            info = meta.get("tutorial") if isinstance(meta, dict) else None
            if isinstance(info, dict) and not info.get("done"):
                return save.id
    return None


class Progress:
    """Where a session stands in its tutorial; ``judge`` is called after each of the person's moves."""

    def __init__(self, session: Session, tutorial: Tutorial) -> None:
        self.session = session
        self.tutorial = tutorial

    @property
    def step(self) -> int:
        info = self.session.meta.get("tutorial")
        step = info.get("step", 0) if isinstance(info, dict) else 0
        return step if isinstance(step, int) and not isinstance(step, bool) and step >= 0 else 0

    @property
    def done(self) -> bool:
        return self.step >= len(self.tutorial.steps)

    def current(self) -> Step | None:
        return None if self.done else self.tutorial.steps[self.step]

    def judge(self, move_text: str, result: Any) -> tuple[bool, str]:
        """(accepted, catalogue key to show). A move that does not do what the step asks is taken back."""
        step = self.current()
        if step is None:
            return True, self.tutorial.outro
        if step.check(self.session.state, move_text, result):
            nxt = self.step + 1
            self.session.meta["tutorial"] = {"step": nxt, "done": nxt >= len(self.tutorial.steps)}
            self.session.autosave()
            return True, f"{self.tutorial.game}.tutorial.{step.key}.done"
        self.session.state.pop()
        self.session.autosave()
        return False, f"{self.tutorial.game}.tutorial.{step.key}.retry"
