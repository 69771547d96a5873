"""Before the page opens and the new-game form: the lexicon loaded into the engine's factory
(``prepare``), the game's own options (check mode, hourglass) and importing a GCG-style text
record, replayed and checked by the engine."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Callable

from pyscript import document

from game.core import NotationError
from game.scarabeo import record as sc_record
from web.games.scarabeo.context import ViewPart, scarabeo_ai
from web.platform import router
from web.platform.storage import StorageError
from web.ui.dom import append, h

if TYPE_CHECKING:
    from web.ui.context import PlayPage


class Options(ViewPart):
    """A mixin of ``web.games.scarabeo.ScarabeoUI``: the methods this module's docstring describes (every one
    takes the game page, ``web.ui.context.PlayPage``)."""

    async def prepare(self, page: PlayPage) -> None:
        """The lexicon must be in the engine's factory before a game is created or replayed."""
        from web.platform import engines
        from web.ui import wordcheck

        note = h("p", {"class": "thinking", "role": "status", "id": "sc-loading", "text": page.t("scarabeo.loading")})
        append(page.root, note)
        try:
            await wordcheck.lexicon()
        except Exception as err:  # a missing lexicon: the game still opens, without word checks
            page.app.toast(page.t("wordcheck.unavailable", error=err), error=True)
        note.remove()
        lex = engines.FACTORY_KWARGS.get("scarabeo", {}).get("word_list")
        if scarabeo_ai is not None and lex is not None:
            scarabeo_ai.generator_for(lex)  # built once here, not in the middle of the computer's first turn

    def options_form(self, page: PlayPage) -> tuple[Any, Callable[[int], dict[str, Any]]]:
        t = page.t
        mode = h("select", {"id": "sc-mode", "name": "check_mode"})
        for m in ("dictionary", "challenge", "vote"):
            append(mode, h("option", {"value": m, "text": t(f"scarabeo.mode.{m}")}))
        glass = h("input", {"type": "checkbox", "id": "sc-hourglass", "name": "hourglass"})
        importer = h("input", {"type": "file", "id": "sc-import", "accept": ".txt,.gcg,.json,text/plain"})
        page.scope.on(importer, "change", lambda _e: asyncio.ensure_future(self._import(page, importer)))
        box = h("div", {"class": "sc-options"},
                h("fieldset", {}, h("legend", {"text": t("play.options")}),
                  h("div", {"class": "row"}, h("label", {"for": "sc-mode", "text": t("scarabeo.mode")}), mode),
                  h("p", {"class": "muted", "text": t("scarabeo.mode.help")}),
                  h("label", {"class": "choice", "for": "sc-hourglass"}, glass, t("scarabeo.hourglass")),
                  h("p", {"class": "muted", "text": t("scarabeo.hourglass.help")})),
                h("fieldset", {}, h("legend", {"text": t("scarabeo.import")}),
                  h("label", {"for": "sc-import", "class": "muted", "text": t("scarabeo.import.help")}), importer))

        def read(players: int) -> dict[str, Any]:
            check_mode = str(mode.value)
            if check_mode == "vote" and players < 3:
                raise ValueError(t("scarabeo.mode.vote.players"))
            names = []
            for i in range(players):
                node = document.getElementById(f"seat-{i}-name")
                name = " ".join(str(node.value if node else "").split())[:24]
                names.append(name or t("play.seat.default", n=i + 1))
            options = {"players": players, "names": names, "check_mode": check_mode, "hourglass": bool(glass.checked)}
            if check_mode == "vote":
                options["contest"] = True  # any word can be put to the vote (a record without it is an older game)
            return options

        return box, read

    async def _import(self, page: PlayPage, node: Any) -> None:
        """A GCG-style text record (or a JSON one): replayed and checked by the engine, then continued."""
        from web.platform import engines
        from web.platform.session import Seat, Session
        from web.platform.storage import StorageError

        files = node.files
        if files is None or files.length == 0:
            return
        text = str(await files.item(0).text())
        node.value = ""
        lex = engines.FACTORY_KWARGS.get("scarabeo", {}).get("word_list")
        try:
            if len(text) > 1_000_000:
                raise ValueError("record over 1 000 000 bytes")
            game = sc_record.load(text, lex)
            session = Session.create(page.app.store, "scarabeo", game.options(), game.seed,
                                     [Seat(n) for n in game.names],
                                     page.t("scarabeo.import.title", names=", ".join(game.names)))
            for move in game.history():
                session.state.push(move)
            session.autosave()
        except StorageError as err:
            page.app.storage_error(err, "import")
            return
        except (ValueError, NotationError) as err:
            page.app.toast(page.t("scarabeo.import.failed", reason=str(err)), error=True)
            return
        page.app.navigate(router.href("scarabeo", "play", session.save.id))
