"""The computer's turn (``ai.think`` in slices, then its tiles shown), the hints (the five best plays,
each can be laid on the board) and the live region's announcement of every move."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Generator

from pyscript import document

from game.scarabeo.board import parse_square
from web.games.scarabeo.context import ViewPart, local, scarabeo_ai
from web.platform import events
from web.platform.i18n import signed
from web.ui.slices import Pause, run_in_slices

if TYPE_CHECKING:
    from web.ui.context import PlayPage


class Computer(ViewPart):
    """A mixin of ``web.games.scarabeo.ScarabeoUI``: the methods this module's docstring describes (every one
    takes the game page, ``web.ui.context.PlayPage``)."""

    def computer(self, page: PlayPage, level: int) -> Generator[Pause, None, str]:
        """The engine's ``ai.think`` in slices (it also decides challenges and votes), then its
        tiles appear on the board one by one with the score (pauses asked of ``run_in_slices``, not spun)."""
        state = page.session.state
        assert scarabeo_ai is not None
        steps = scarabeo_ai.think(state, str(level))
        worst = 0.0
        while True:
            started = time.perf_counter()
            try:
                next(steps)
            except StopIteration as stop:
                move = stop.value
                break
            worst = max(worst, time.perf_counter() - started)
            yield None  # carry on (a pause would be seconds)
        # the longest uninterrupted piece of the engine's work, for the responsiveness test
        document.body.setAttribute("data-sc-step-ms", f"{worst * 1000:.1f}")
        text: str = state.move_text(move)
        yield from self._show_computer_tiles(page, text)
        return text

    async def _hint(self, page: PlayPage) -> None:
        """The best plays by score (the engine's ranking, run in slices; with the bag empty and two
        players, by the exact endgame when it is proved in time): the best is laid on the board as a
        tentative play (the player still presses Play), the others listed in words beside."""
        if scarabeo_ai is None or page.selection.get("hinting") or not self._can_place(page) \
                or not page.hint_taken():  # (a game between devices counts it, or refuses it in words)
            return
        state = page.session.state
        moves_before = len(state.history())
        page.selection = {"hinting": True}
        self._set_zoom(page, False)
        self.refresh(page)  # Hint disabled while it looks
        page.show_message(page.t("scarabeo.hint.thinking"))
        done, found = await run_in_slices(scarabeo_ai.think_hints(state, 5, state.word_list),
                                          lambda: not page.closed and len(state.history()) == moves_before)
        if not done:
            return
        hints: list[dict[str, Any]] = list(found)
        page.selection = {"hints": hints}
        if not hints:
            page.message = (page.t("scarabeo.hint.none"), False)
            page.redraw()
            page.say(page.message[0])
            return
        self._use_hint(page, 0)

    def _use_hint(self, page: PlayPage, k: int) -> None:
        """Lay hint ``k`` on the board as a tentative play (the player still presses Play); the message
        line says it in words."""
        hints = page.selection.get("hints") or []
        hint = hints[k]
        placed = {parse_square(sq): ch for sq, ch in hint["placements"]}
        swaps = [parse_square(sq) for sq in hint["swaps"]]
        page.selection = {"placed": placed, "order": list(placed), "swaps": swaps, "hints": hints, "hint": k}
        said = self._hint_words(page, page.session.state, hint)
        text = page.t("scarabeo.hint.laid", n=k + 1, count=len(hints), play=said)
        if hint.get("exact") is True and isinstance(hint.get("value"), int):
            # the endgame solver ordered the hints: say where this one leads (ai.think_hints)
            text += " " + page.t("scarabeo.hint.exact", spread=signed(int(hint["value"])))
        page.message = (text, False)
        local(page).cursor = min(placed) if placed else local(page).cursor
        page.redraw()
        page.say(page.message[0])

    def announce(self, page: PlayPage, move_text: str, result: Any) -> str:
        """The move in words (``web.platform.events``): word, square and score, the scarabs
        taken, a dispute with who asked and its outcome."""
        if result is None:
            return move_text
        return events.session_event(page.t, "scarabeo", page.session, result).text
