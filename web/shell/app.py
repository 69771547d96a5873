"""The app shell in the page: routes, the chooser with its Continue list, settings, about.

Python takes over the page that ``index.html`` painted: the same chooser, now with saved games,
and every route below it. The games' views plug in through ``web.shell.games`` (registered in
``web.ui.registry``, where the pages find them).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, Callable

from pyscript import document, window

from web.platform import router
from web.platform import engines
from web.platform import events
from web.platform.i18n import LANGUAGES, Messages, signed
from web.ui.dom import Scope, append, by_id, clear, download, h, modal
from web.ui import vdom
from web.ui.mount import Mount
from web.platform.storage import (
    EMBED_PREFIX,
    MAX_IMPORT_BYTES,
    PREFIX,
    DamagedSave,
    InvalidSave,
    Save,
    SaveConflict,
    SaveGone,
    SaveStore,
    SaveUnreadable,
    StorageError,
    StorageFull,
    too_big,
)
from web.platform.storage_browser import open_storage
from web.shell import games
from web.ui import registry, sounds

# Every game's views, for the pages (a game not registered says on its card that it is not yet
# playable: no fake board).
games.register_all()

GAME_NAMES = {g: f"game.{g}.name" for g in router.GAMES}


class App:
    def __init__(self) -> None:
        boot = window.scarabBoot
        data = json.loads(by_id("boot-data").textContent or "{}")
        self.catalogue: dict[str, dict[str, str]] = data.get("messages", {})
        #: Inside another site's frame (embed.html): one game, no site chrome, saves kept apart.
        self.embed = document.body.getAttribute("data-embed") == "1"
        self.embed_game = self.embed_game_from_query() if self.embed else None
        kv, self.ephemeral = open_storage()
        self.store = SaveStore(kv, validate_state=engines.validate_state,
                               prefix=EMBED_PREFIX if self.embed else PREFIX)
        self.settings = self.store.settings()
        self.t = Messages(self.catalogue, str(boot.lang))
        self.root = by_id("app")
        self.scope = Scope()
        self.shell_scope = Scope()
        self.unmount: Callable[[], None] | None = None
        self.route = router.parse(str(window.location.hash))
        self.route_hash = str(window.location.hash)
        self._toast_timer: Any = None
        #: The chooser's view tree while it is shown (its dialogs open over it).
        self.home: Mount | None = None
        self._toast_hide: Any = None

    def embed_game_from_query(self) -> str | None:
        """The game named by ``?game=`` (Thot when none is named); None for a name that is no game."""
        from urllib.parse import parse_qs

        game = parse_qs(str(window.location.search)[1:]).get("game", ["thot"])[0]
        return game if game in router.GAMES else None

    def ephemeral_note(self, session: Any = None) -> Any:
        """Where the browser refuses storage (a blog's frame on another site, a private window that
        forbids it), the game is played in memory: say so, and offer the full site, carrying the game."""
        if not self.ephemeral:
            return None
        base = str(window.location.href).split("#")[0].split("?")[0]
        href = base.rsplit("/", 1)[0] + "/index.html"
        if session is not None and not getattr(session, "watch", False):
            from web.platform.share import ShareError, link_for

            try:
                # the same person's game, moved from this frame to the full site of this browser
                href += f"#/open?d={link_for(session.state, session.record(shared=True), session.game_id, move=True)}"
            except ShareError:
                pass
        return h("p", {"class": "ephemeral-note", "id": "ephemeral-note", "role": "note"},
                 self.t("storage.ephemeral"), " ",
                 h("a", {"href": href, "target": "_blank", "rel": "noopener", "id": "ephemeral-open",
                         "text": self.t("storage.ephemeral.open")}))

    # --- lifecycle -------------------------------------------------------------------
    def start(self) -> None:
        self.shell_scope.on(window, "hashchange", lambda _e: self.on_hashchange())
        self.shell_scope.on(window, "storage", self.on_storage)
        self.render()
        window.scarabBoot.ready()
        from web.ui import wordcheck

        wordcheck.install_button(self)
        # The lexicon (~640 KB) loads in the background once the page is interactive.
        window.setTimeout(self.shell_proxy(lambda: wordcheck.lexicon()), 500)

    def on_hashchange(self) -> None:
        hash_ = str(window.location.hash)
        if router.is_route(hash_):
            self.render()
            return
        # An in-page anchor (the skip link's #app): go to it, and keep the page and its route.
        target = document.getElementById(hash_[1:])
        if target:
            target.focus()
        window.history.replaceState(None, "", self.route_hash or "#/")

    def on_storage(self, event: Any) -> None:
        # Another tab saved: refresh what we show; game views check revisions before writing.
        key = event.key
        if not isinstance(key, str) or key.startswith("scarab:"):  # a JS null key means "cleared"
            if self.route.name == "home":
                self.render()

    def navigate(self, hash_: str) -> None:
        window.location.hash = hash_

    def render(self) -> None:
        if self.unmount is not None:
            self.unmount()
            self.unmount = None
        self.scope.close()
        self.scope = Scope()
        self.route_hash = str(window.location.hash)
        self.route = router.parse(self.route_hash)
        if self.embed and self.embed_game is None:
            clear(self.root)
            from urllib.parse import parse_qs

            asked = parse_qs(str(window.location.search)[1:]).get("game", [""])[0][:40]
            self.notice(self.t("embed.unknown", game=asked), self.t("embed.unknown.body", games=", ".join(router.GAMES)),
                        {"role": "alert", "class": "embed-unknown"}, back=False)
            return
        if self.embed and self.route.name == "home":
            # An embedded frame shows its one game: the latest one played here, or a new one.
            latest = next((s for s in self.store.list() if isinstance(s, Save) and s.game == self.embed_game), None)
            target = (router.href(latest.game, "play", latest.id) if latest is not None
                      else router.href(str(self.embed_game), "new"))
            window.location.replace(target)
            return
        clear(self.root)
        self.mark_nav()
        self.mark_bar()
        try:
            view = {
                "home": self.view_home,
                "settings": self.view_settings,
                "about": self.view_about,
                "open": self.view_open,
                "remote": self.view_remote,
                "live": self.view_live,
                "stats": self.view_stats,
                "game": self.view_game,
                "daily": self.view_daily,
            }.get(self.route.name, self.view_not_found)
            view()
        except Exception as err:  # a broken view must not take the shell down
            window.console.error(f"view {self.route.path} failed: {err!r}")
            append(self.root, h("p", {"class": "error", "role": "alert", "text": self.t("error.generic", error=err)}))
        window.scrollTo(0, 0)

    def mark_nav(self) -> None:
        current = {"home": "#/", "settings": "#/settings", "about": "#/about", "stats": "#/stats"}.get(self.route.name)
        links = document.querySelectorAll(".topbar nav a")
        for i in range(links.length):
            link = links.item(i)
            if link.getAttribute("href") == current:
                link.setAttribute("aria-current", "page")
            else:
                link.removeAttribute("aria-current")

    def mark_bar(self) -> None:
        """In a game, the phone's one-row app bar names the game next to the menu button."""
        title = by_id("bar-title")
        if title:
            game = self.route.game if self.route.name == "game" else None
            title.textContent = self.t(GAME_NAMES[game]) if game in GAME_NAMES else ""

    # --- messages --------------------------------------------------------------------
    #: How long a notice stays: a confirmation ("Settings saved.") is read at a glance and must not
    #: sit over the page's lower controls; a problem is given time to be read.
    TOAST_MS = 3500
    TOAST_ERROR_MS = 8000

    def toast(self, text: str, error: bool = False) -> None:
        node = by_id("toast")
        node.textContent = text
        node.className = "toast error" if error else "toast"
        node.hidden = False
        if self._toast_timer is not None:
            window.clearTimeout(self._toast_timer)
        if self._toast_hide is None:  # one proxy for the app's life, not one per notice
            self._toast_hide = self.shell_proxy(self.hide_toast)
            # a tap or a click on the notice puts it away at once; it goes by itself in any case
            node.addEventListener("click", self._toast_hide)
        self._toast_timer = window.setTimeout(self._toast_hide, self.TOAST_ERROR_MS if error else self.TOAST_MS)

    def hide_toast(self, _event: Any = None) -> None:
        by_id("toast").hidden = True
        self._toast_timer = None

    def shell_proxy(self, fn: Callable[[], object]) -> Any:
        from pyscript.ffi import create_proxy

        return create_proxy(fn)

    def storage_error(self, err: StorageError, context: str = "move", session: Any = None) -> None:
        """Tell the player what was not stored. ``context`` says what was being written (move, new,
        rename, settings, stats, import). With the game's ``session``, a game that another tab
        changed, deleted or rewrote in a newer format can be kept as a new game: nothing is lost."""
        if isinstance(err, StorageFull):
            self.toast(self.t(f"save.quota.{context}" if context != "move" else "save.quota"), error=True)
        elif isinstance(err, (SaveConflict, SaveGone, SaveUnreadable)):
            kind = "conflict" if isinstance(err, SaveConflict) else "gone" if isinstance(err, SaveGone) else "unreadable"
            if session is None:
                self.toast(self.t(f"save.{kind}"), error=True)
            else:
                asyncio.ensure_future(self.rescue(session, kind))
        else:
            self.toast(str(err), error=True)

    async def rescue(self, session: Any, kind: str) -> None:
        """The stored game is no longer the one on screen: keep this one as a new game, or leave it."""
        if getattr(session, "rescuing", False):
            return
        session.rescuing = True
        try:
            choice = await modal(self.t("save.rescue.title"), h("p", {"text": self.t(f"save.{kind}")}),
                                 [("leave", self.t("save.rescue.leave"), ""),
                                  ("keep", self.t("save.rescue.keep"), "primary")], self.scope)
        finally:
            session.rescuing = False
        if choice == "keep":
            try:
                save = self.store.save_as_new(session.save, session.record().to_json())
            except StorageError as err:
                self.storage_error(err, "new")
                return
            self.toast(self.t("save.rescue.kept", title=save.title))
            self.navigate(router.href(save.game, "play", save.id))
        elif choice == "leave":
            self.render()  # shows what storage holds now (or that the game is gone)

    # --- chooser ---------------------------------------------------------------------
    def view_home(self) -> None:
        # a game nobody played is not one to continue (one whose tab was closed before the first
        # move goes once it is old enough not to be open in another tab)
        from web.platform.session import UNPLAYED_KEEP_MS, drop_unplayed

        drop_unplayed(self.store, before=int(window.Date.now()) - UNPLAYED_KEEP_MS)
        self.home = Mount(self.root, self.home_tree, self.scope)

    def home_tree(self) -> list[vdom.VNode | None]:
        t, vh = self.t, vdom.h
        cards = []
        for game in router.GAMES:
            head = [vh("h2", {"text": t(GAME_NAMES[game])}), vh("p", {"text": t(f"game.{game}.blurb")})]
            if registry.has(game):
                body = [vh("div", {"class": "row"},
                           vh("a", {"class": "button primary", "href": router.href(game, "new"), "text": t("game.new")}),
                           vh("a", {"class": "button", "href": router.href(game, "rules"), "text": t("rules.link")}))]
            else:
                body = [vh("p", {"class": "note", "text": t("game.unavailable")}),
                        vh("a", {"class": "button", "href": router.href(game, "new"), "aria-disabled": "true",
                                 "text": t("game.new")})]
            cards.append(vh("article", {"class": "card", "data-game": game}, head, body, key=game))
        return [vh("section", {"class": "chooser", "aria-labelledby": "chooser-title"},
                   vh("h1", {"id": "chooser-title", "text": t("app.title")}),
                   vh("p", {"class": "tagline", "text": t("app.tagline")}),
                   vh("div", {"class": "cards"}, cards)),
                self.daily_section(),
                self.continue_list()]

    def daily_section(self) -> vdom.VNode | None:
        """Today's challenge (web/pages/daily.py); whatever fails there, the chooser still works."""
        if self.embed:
            return None
        try:
            from web.pages import daily

            return daily.chooser_section(self)
        except Exception as err:
            window.console.warn(f"daily section: {err!r}")
            return None

    def view_daily(self) -> None:
        from web.pages import daily

        daily.view(self)

    def continue_list(self) -> vdom.VNode:
        t, vh = self.t, vdom.h
        head = vh("div", {"class": "section-head"},
                  vh("h2", {"id": "continue-title", "text": t("continue.title")}),
                  vh("button", {"type": "button", "id": "import-button", "text": t("continue.import"),
                                "on_click": lambda _e: by_id("import-file").click()}),
                  vh("input", {"type": "file", "accept": ".json,application/json", "id": "import-file",
                               "class": "visually-hidden", "hidden": True,
                               "on_change": lambda _e: self.import_file(by_id("import-file"))}))
        from web.platform.session import is_unplayed
        from web.platform import daily_store

        saves = [s for s in self.store.list() if not (isinstance(s, Save) and is_unplayed(s.state))]
        attempts = daily_store.load_attempts(self.store.kv)  # a daily attempt is listed with its result
        items = [self.save_item(save, attempts) for save in saves] or [
            vh("li", {"class": "muted", "text": t("continue.empty")})]
        return vh("section", {"class": "continue"}, head,
                  vh("ul", {"class": "saves", "aria-labelledby": "continue-title"}, items))

    def save_item(self, save: Save | DamagedSave, attempts: dict[str, Any] | None = None) -> vdom.VNode:
        t, vh = self.t, vdom.h
        if isinstance(save, DamagedSave):
            return vh("li", {"class": "save damaged", "data-save": save.id},
                      vh("span", {"class": "title", "text": t("continue.damaged")}),
                      vh("span", {"class": "meta", "text": t("continue.damaged.detail", reason=save.reason)}),
                      vh("span", {"class": "actions"},
                         vh("button", {"type": "button", "text": t("continue.export"),
                                       "aria-label": f"{t('continue.export')}: {save.id}",
                                       "on_click": lambda _e: self.export_save(save.id)}),
                         vh("button", {"type": "button", "class": "danger", "text": t("continue.delete"),
                                       "aria-label": f"{t('continue.delete')}: {save.id}",
                                       "on_click": lambda _e: self.delete_save(save.id, save.id)})),
                      key=save.id)
        when = self.when(save.updated)
        game_name = t(GAME_NAMES[save.game])
        from web.platform.remote import remote_meta
        from web.platform.session import listing

        page = "remote" if remote_meta(save.state) is not None else "play"  # a game played by links
        # which game is which: who plays (a title the site made says only the date), or a daily's result
        shown = listing(t, save.game, save.title, save.state, save.id, attempts)
        facts = (vh("span", {"class": "facts"}, vh("span", {"class": "save-progress", "text": shown.line}))
                 if shown.daily else self.save_facts(save))
        return vh("li", {"class": "save daily-save" if shown.daily else "save", "data-save": save.id},
                  vh("a", {"class": "title", "href": router.href(save.game, page, save.id), "text": shown.heading}),
                  vh("span", {"class": "meta", "text": f"{t('continue.daily') if shown.daily else game_name}"
                                                       f" · {t('continue.updated', when=when)}"}),
                  facts,
                  vh("span", {"class": "actions"},
                     vh("button", {"type": "button", "text": t("continue.rename"),
                                   "aria-label": f"{t('continue.rename')}: {save.title}",
                                   "on_click": lambda _e: self.rename_save(save)}),
                     self.export_button(save),
                     vh("button", {"type": "button", "class": "danger", "text": t("continue.delete"),
                                   "aria-label": f"{t('continue.delete')}: {save.title}",
                                   "on_click": lambda _e: self.delete_save(save.id, save.title)})),
                  key=save.id)

    def export_button(self, save: Save) -> vdom.VNode:
        """Export: a watched game as a watch file; any other game as the owner's own backup, said so
        (it holds every rack of a private game: for others there is Share)."""
        from web.platform.watch import is_watch

        watch = is_watch(save.state)
        label = self.t("continue.export" if watch else "continue.export.backup")
        return vdom.h("button", {"type": "button", "text": label, "aria-label": f"{label}: {save.title}",
                                 "title": None if watch else self.t("continue.export.backup.help"),
                                 "on_click": lambda _e: self.export_save(save.id)})

    def when(self, stamp: int | None, date_only: bool = False) -> str:
        """A time (now when None) in the interface's language and locale: "1 dic 2026, 10:32" /
        "1 Dec 2026, 10:32" (a bare "en" would be the US "12/1/2026"); ``date_only``: "1 dic 2026"."""
        from pyscript.ffi import to_js

        date = window.Date.new() if stamp is None else window.Date.new(stamp)
        if date_only:
            return str(date.toLocaleDateString(self.t.locale, to_js({"dateStyle": "medium"})))
        return str(date.toLocaleString(self.t.locale, to_js({"dateStyle": "medium", "timeStyle": "short"})))

    def save_facts(self, save: Save) -> vdom.VNode | None:
        """Which game is which: the players with their scores (the seat to move marked), the moves
        played and whose turn — read from the record and its autosaved summary, never by replaying."""
        from web.platform.session import save_facts

        t, vh = self.t, vdom.h
        facts = save_facts(save.state)
        if facts is None:
            return None
        names = events.seat_names(t, save.game, facts.seats)  # a computer by its level
        players = vh("span", {"class": "save-players", "aria-label": t("continue.players")},
                     [vh("span", {"class": "save-seat to-move" if i == facts.to_move else "save-seat",
                                  "text": names[i] + (f" {signed(facts.scores[i], plus=False)}"
                                                      if facts.scores is not None else "")})
                      for i in range(len(facts.seats))])
        parts = [t.plural("continue.moves", facts.moves) if facts.moves else t("continue.moves.none")]
        from web.platform.remote import remote_meta

        remote = remote_meta(save.state)
        if remote is not None and not facts.over:  # by links: this device's turn, or whose link it awaits
            parts.append(t("remote.continue.stopped") if remote.get("stopped") else
                         t("remote.continue.yours") if remote.get("your_turn") else
                         t("remote.continue.waiting", name=str(remote.get("waiting_for") or "…")))
        elif facts.over:
            parts.append(t("continue.finished"))
        elif facts.to_move is not None:
            parts.append(t.form("continue.turn", you=events.you_seat(t, facts.seats) == facts.to_move,
                                name=names[facts.to_move]))
        return vh("span", {"class": "facts"}, players,
                  vh("span", {"class": "save-progress", "text": " · ".join(parts)}))

    async def rename_save(self, save: Save) -> None:
        field = vdom.h("input", {"type": "text", "id": "rename-field", "value": save.title, "maxlength": "80",
                                 "aria-label": self.t("continue.rename.prompt")})
        assert self.home is not None  # the Continue list's buttons are the chooser's
        choice, title = await self.home.ask(self.t("continue.rename.prompt"), None,
                                            [("cancel", self.t("dialog.cancel"), ""),
                                             ("ok", self.t("dialog.ok"), "primary")], field)
        if choice == "ok":
            try:
                self.store.rename(save.id, title)
            except StorageError as err:
                self.storage_error(err, "rename")
            self.render()

    async def delete_save(self, save_id: str, title: str) -> None:
        assert self.home is not None
        choice, _ = await self.home.ask(self.t("continue.delete"),
                                        vdom.h("p", {"text": self.t("continue.delete.confirm", title=title)}),
                                        [("cancel", self.t("dialog.cancel"), ""),
                                         ("delete", self.t("continue.delete"), "danger")])
        if choice == "delete":
            self.store.delete(save_id)
            self.render()

    def export_save(self, save_id: str) -> None:
        try:
            download(f"scarab-{save_id}.json", self.store.export(save_id))
        except StorageError as err:
            self.storage_error(err)

    async def import_file(self, input_node: Any) -> None:
        files = input_node.files
        if not files or files.length == 0:
            return
        file = files.item(0)
        input_node.value = ""
        if file.size > MAX_IMPORT_BYTES:
            self.toast(self.t("continue.import.failed", reason=too_big(int(file.size))), error=True)
            return
        try:
            text = str(await file.text())
            await self.scarabeo_ready('"scarabeo"' in text)
            save = self.store.import_text(text)
        except InvalidSave as err:
            self.toast(self.t("continue.import.failed", reason=err), error=True)
            return
        except StorageError as err:
            self.storage_error(err, "import")
            return
        except Exception as err:  # whatever the file holds, the page says why and goes on
            self.toast(self.t("continue.import.failed", reason=f"{type(err).__name__}: {str(err)[:200]}"), error=True)
            return
        self.render()
        self.toast(self.t("continue.imported", title=save.title))

    # --- settings & about ------------------------------------------------------------
    def view_settings(self) -> None:
        # A view tree (web.ui.vdom), drawn by patch.js: issue 38's first page off the imperative builder.
        state: dict[str, Any] = {}
        Mount(self.root, lambda: self.settings_tree(state), self.scope)

    def settings_tree(self, state: dict[str, Any]) -> vdom.VNode:
        t, vh = self.t, vdom.h
        lang_field = vh("fieldset", {}, vh("legend", {"text": t("settings.language")}),
                        [vh("label", {"class": "choice"},
                            vh("input", {"type": "radio", "name": "language", "value": lang,
                                         "checked": self.t.lang == lang,
                                         "on_change": lambda e: self.set_setting("language", str(e.value))}),
                            t(f"lang.{lang}")) for lang in LANGUAGES])
        current_theme = str(document.documentElement.dataset.theme)
        theme_field = vh("fieldset", {}, vh("legend", {"text": t("settings.theme")}),
                         [vh("label", {"class": "choice"},
                             vh("input", {"type": "radio", "name": "theme", "value": theme,
                                          "checked": current_theme == theme,
                                          "on_change": lambda e: self.set_setting("theme", str(e.value))}),
                             t(f"settings.theme.{theme}")) for theme in ("light", "dark")])
        sound_field = vh("fieldset", {}, vh("legend", {"text": t("settings.sounds")}),
                         vh("label", {"class": "choice"},
                            vh("input", {"type": "checkbox", "name": "sounds", "id": "sounds",
                                         "checked": sounds.enabled(self.settings),
                                         "on_change": lambda e: self.set_setting("sounds", bool(e.checked))}),
                            t("settings.sounds.on")),
                         vh("p", {"class": "muted", "text": t("settings.sounds.help")}))
        learn = vh("fieldset", {}, vh("legend", {"text": t("settings.learn")}),
                   [vh("p", {"class": "row"}, vh("strong", {"text": t(GAME_NAMES[game])}),
                       vh("a", {"class": "button", "href": router.href(game, "rules"), "text": t("rules.link")}),
                       vh("a", {"class": "button", "href": router.href(game, "tutorial"),
                                "text": t("tutorial.replay")}) if registry.has(game) else None)
                    for game in router.GAMES])
        from web.pages import together

        return vh("section", {"class": "settings"}, vh("h1", {"text": t("settings.title")}),
                  lang_field, theme_field, sound_field, together.settings_field(self, state), learn)

    def set_setting(self, name: str, value: Any) -> None:
        self.settings = {**self.store.settings(), name: value}
        try:
            self.store.save_settings(self.settings)
            stored = True
        except StorageError as err:
            self.storage_error(err, "settings")
            stored = False
        if name == "language":
            self.t = Messages(self.catalogue, str(value))
            window.scarabBoot.lang = value
            document.documentElement.lang = value
            document.title = self.t("app.title")
            self.retranslate_shell()
            self.render()
        elif name == "theme":
            document.documentElement.dataset.theme = value
        elif name == "sounds" and not value:
            sounds.SOUNDS.off()  # off means no AudioContext at all
        if stored:  # never "saved" when storage refused it: the setting lasts only this visit
            self.toast(self.t("settings.saved.ephemeral" if self.ephemeral else "settings.saved"))

    def retranslate_shell(self) -> None:
        button = by_id("wordcheck-open")
        if button:
            button.textContent = self.t("wordcheck.open")
        nodes = document.querySelectorAll("body > header [data-i18n], body > .skip")
        for i in range(nodes.length):
            node = nodes.item(i)
            node.textContent = self.t(str(node.getAttribute("data-i18n")))
        nav = document.querySelector(".topbar nav")
        if nav:
            nav.setAttribute("aria-label", self.t("nav.main"))
        menu = by_id("menu-button")
        if menu:
            menu.setAttribute("aria-label", self.t("nav.menu"))

    def view_about(self) -> None:
        Mount(self.root, self.about_tree, self.scope)

    def about_tree(self) -> vdom.VNode:
        t, vh = self.t, vdom.h
        from game import __version__

        return vh("section", {"class": "about"},
                  vh("h1", {"text": t("about.title")}),
                  vh("p", {"text": t("about.body")}),
                  vh("h2", {"text": t("about.licences")}),
                  vh("ul", {"class": "credits"},
                     [vh("li", {"text": t(f"about.credit.{k}")})
                      for k in ("app", "pyodide", "pyscript", "python", "dictionary", "rules")]),
                  vh("p", {"class": "muted", "text": t("about.version", version=__version__)}))

    # --- games -----------------------------------------------------------------------
    def mark_tutorial_seen(self, game: str) -> None:
        seen = list(self.store.settings().get("tutorials_seen", []))
        if game not in seen:
            self.settings = {**self.store.settings(), "tutorials_seen": seen + [game]}
            try:
                self.store.save_settings(self.settings)
            except StorageError as err:
                self.storage_error(err, "settings")

    def view_rules(self, game: str) -> None:
        """How to play: the game's rules page (``web/games/<game>/rules.py``)."""
        views = registry.get(game)
        if views is None or views.rules is None:
            self.view_not_found()
            return
        links = h("div", {"class": "row"},
                  h("a", {"class": "button primary", "href": router.href(game, "new"), "text": self.t("game.new")}),
                  h("a", {"class": "button", "href": router.href(game, "tutorial"), "text": self.t("tutorial.start")})
                  if views.tutorial is not None else None)
        append(self.root, h("article", {"class": "rules-page", "id": f"rules-{game}"},
                            h("h1", {"text": self.t("rules.title", game=self.t(GAME_NAMES[game]))}),
                            views.rules(self), links))

    def view_game(self) -> None:
        game = self.route.game or ""
        if self.route.page == "rules":
            self.view_rules(game)
            return
        views = registry.get(game)
        if views is None:
            name = self.t(GAME_NAMES[game])
            self.notice(self.t("game.unavailable.title", game=name), self.t("game.unavailable.body"),
                        {"class": "unavailable"})
            return
        if self.route.page == "remote":
            from web.pages import remote

            self.unmount = remote.mount(self, self.root, self.route, views.ui)
            return
        if self.route.page == "live":
            from web.pages import together

            self.unmount = together.mount(self, self.root, self.route, views.ui)
            return
        from web.pages.play import mount_game

        from web.pages import daily

        if daily.mount_if_daily(self, self.root, self.route, views.ui):
            return  # a daily puzzle's attempt: the same page, in puzzle mode
        self.unmount = mount_game(self, self.root, self.route, views.ui)

    def view_stats(self) -> None:
        from web.pages import statistics

        statistics.view(self)

    async def scarabeo_ready(self, needed: bool) -> None:
        """Scarabeo's moves are checked against the lexicon: wait for it before a Scarabeo game from
        outside (a link, a file) is replayed; without it the game is refused with the reason."""
        if not needed:
            return
        from web.ui import wordcheck

        try:
            await wordcheck.lexicon()
        except Exception as err:
            window.console.warn(f"lexicon: {err!r}")

    def view_open(self) -> None:
        """A shared game link: continue it (a public or finished game, or one moved here), watch it
        (a private game in progress), open the daily puzzle it names, or say why not."""
        opening = Mount(self.root, lambda: vdom.h("p", {"class": "thinking", "role": "status", "id": "open-status",
                                                         "text": self.t("share.opening")}), self.scope)
        asyncio.ensure_future(self.open_link(self.route.query.get("d", ""), opening))

    async def open_link(self, payload: str, opening: Mount) -> None:
        from web.platform.share import AnalysisRefused, DailyLink, ShareError, decode, receive

        hash_ = self.route_hash
        try:
            game = decode(payload).game
        except Exception:
            game = None  # receive says why below
        await self.scarabeo_ready(game == "scarabeo")
        if self.route_hash != hash_:
            return  # the person went elsewhere meanwhile
        opening.close()
        clear(self.root)
        try:
            save, what = receive(self.store, payload, self.t("share.received.title"))
        except DailyLink as link:
            window.location.replace(link.href)
            return
        except Exception as err:  # a link is outside data: any failure is a refusal with its reason
            if isinstance(err, AnalysisRefused):
                reason = self.t("review.analysis.refused", reason=err.reason)
            elif isinstance(err, (ShareError, StorageError)):
                reason = str(err)
            else:
                window.console.warn(f"link refused: {err!r}")
                reason = f"the link cannot be opened ({type(err).__name__}: {str(err)[:200]})"
            self.notice(self.t("share.refused"), reason, {"role": "alert", "class": "link-refused", "id": "link-refused"})
            return
        self.toast(self.t(f"share.received.{what}"))
        window.location.replace(router.href(save.game, "play", save.id))

    def view_remote(self) -> None:
        """A remote-play link (``#/remote?m=…``): the game it belongs to applies it."""
        from web.pages import remote

        self.unmount = remote.mount_link(self, self.root, self.route)

    def view_live(self) -> None:
        """A live-play pairing code (``#/live?o=…``, ``#/live?a=…``): web/pages/together.py."""
        from web.pages import together

        self.unmount = together.mount_code(self, self.root, self.route)

    def view_not_found(self) -> None:
        self.notice(self.t("notfound.title"), self.t("notfound.body", route=self.route.path))

    def notice(self, title: str, body: str, attrs: dict[str, str] | None = None, back: bool = True) -> None:
        """A page that only says something (not found, not playable, a link refused), as a view tree."""
        vh = vdom.h
        Mount(self.root, lambda: vh("section", attrs, vh("h1", {"text": title}), vh("p", {"text": body}),
                                    vh("a", {"class": "button", "href": "#/", "text": self.t("nav.back")})
                                    if back else None), self.scope)


def start() -> None:
    if bool(window.scarabBoot.framed):  # boot.js said why on the page; nothing may run under a foreign frame
        document.getElementById("boot").hidden = True
        return
    try:
        App().start()
    except Exception as err:
        window.scarabBoot.fail(repr(err))
        raise
