"""The games' views, as the pages find them: the shell registers each game (``web.shell.games``) and a
page asks here for the game's play view, rules page, tutorial and still board, so that no page imports
``web.games`` (the arrows point down: shell → pages → games → ui/platform).

A game's views are loaded on first use (``get``): the chooser lists the games without importing
any of them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from web.platform.tutorial import Tutorial
from web.ui.context import GameUI


@dataclass(frozen=True)
class GameViews:
    #: The game page's view (``web.ui.context.GameUI``).
    ui: GameUI
    #: The rules page's body: ``render(app) -> node``.
    rules: Callable[[Any], Any] | None = None
    #: The guided first game, if the game has one.
    tutorial: Tutorial | None = None
    #: A still board of the game's own drawing with ghost tiles, where the generic still board
    #: (``web.ui.still.still_board``) is not the game's board alone (Scarabeo):
    #: ``still_grid(app, ui, state, seats, ghost) -> node``, ``ghost_of(placements) -> ghost``.
    still_grid: Callable[[Any, Any, Any, list[Any], dict[int, str]], Any] | None = None
    ghost_of: Callable[[Any], dict[int, str]] | None = None
    #: Bring a phone's zoomed board inside ``figure`` to what it shows (``center(figure)``).
    center: Callable[[Any], None] | None = None


_LOADERS: dict[str, Callable[[], GameViews]] = {}
_LOADED: dict[str, GameViews] = {}


def register(game: str, loader: Callable[[], GameViews]) -> None:
    """Make ``game`` playable: ``loader()`` imports its views when a page first needs them."""
    _LOADERS[game] = loader
    _LOADED.pop(game, None)


def games() -> tuple[str, ...]:
    """The registered games, without loading their views."""
    return tuple(_LOADERS)


def has(game: str) -> bool:
    return game in _LOADERS


def get(game: str) -> GameViews | None:
    """The game's views (loaded once), or None for a game that is not registered."""
    if game not in _LOADED:
        loader = _LOADERS.get(game)
        if loader is None:
            return None
        _LOADED[game] = loader()
    return _LOADED[game]


def tutorial(game: str) -> Tutorial | None:
    views = get(game)
    return None if views is None else views.tutorial
