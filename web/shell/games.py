"""The games the site plays: the one place above ``web.games`` that names each of them, registering
its views in ``web.ui.registry`` for the pages (which never import a game)."""

from __future__ import annotations

from web.ui.registry import GameViews, register


def _scarabeo() -> GameViews:
    from web.games.scarabeo import rules, still, tutorial, ui

    return GameViews(ui.UI, rules.render, tutorial.TUTORIAL, still.still_grid, still.placements_of,
                     still.center_zoomed)


def _thot() -> GameViews:
    from web.games.thot import rules, tutorial, ui

    return GameViews(ui.UI, rules.render, tutorial.TUTORIAL)


def _scarabya() -> GameViews:
    from web.games.scarabya import rules, tutorial, ui

    return GameViews(ui.UI, rules.render, tutorial.TUTORIAL)


def register_all() -> None:
    register("scarabeo", _scarabeo)
    register("thot", _thot)
    register("scarabya", _scarabya)
