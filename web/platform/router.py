"""Hash routes, so back/forward and links work on any static host: ``#/thot/new``, ``#/settings``."""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import parse_qsl, quote, unquote

GAMES = ("scarabeo", "thot", "scarabya")
GAME_PAGES = ("new", "play", "review", "rules", "tutorial")
#: Pages of one saved game: ``#/<game>/<page>/<save id>``.
SAVE_PAGES = ("play", "review")


@dataclass(frozen=True)
class Route:
    name: str  # home | settings | about | stats | open (a shared game link) | daily | game | not-found
    game: str | None = None
    page: str | None = None
    save_id: str | None = None
    query: dict[str, str] = field(default_factory=dict)
    path: str = "/"


def parse(hash_: str) -> Route:
    """Parse ``location.hash`` ('#/thot/play/abc?x=1', '', '#') into a route."""
    text = hash_[1:] if hash_.startswith("#") else hash_
    if text and not text.startswith("/"):
        return Route("home")  # an in-page anchor such as the skip link's #app, not a page
    path, _, qs = text.partition("?")
    query = dict(parse_qsl(qs, keep_blank_values=True))
    parts = [unquote(p) for p in path.split("/") if p]
    shown = "/" + "/".join(parts)
    if not parts:
        return Route("home", query=query, path=shown)
    if parts == ["settings"]:
        return Route("settings", query=query, path=shown)
    if parts == ["about"]:
        return Route("about", query=query, path=shown)
    if parts == ["stats"]:
        return Route("stats", query=query, path=shown)
    if parts == ["open"]:
        return Route("open", query=query, path=shown)
    if parts == ["remote"]:
        return Route("remote", query=query, path=shown)  # a remote-play link (web/pages/remote.py)
    if parts == ["live"]:
        return Route("live", query=query, path=shown)  # a live-play pairing code (web/pages/together.py)
    if len(parts) in (2, 3) and parts[0] in GAMES and parts[1] in ("remote", "live"):
        # the invitation form, or a remote (by links) or live (over a channel) game on this device
        return Route("game", parts[0], parts[1], parts[2] if len(parts) == 3 else None, query, shown)
    if len(parts) == 2 and parts[0] == "daily" and parts[1] in GAMES:
        return Route("daily", parts[1], query=query, path=shown)  # today's challenge (?date=YYYY-MM-DD)
    if parts[0] in GAMES and len(parts) >= 2 and parts[1] in GAME_PAGES:
        if parts[1] in SAVE_PAGES and len(parts) == 3:
            return Route("game", parts[0], parts[1], parts[2], query, shown)
        if parts[1] not in SAVE_PAGES and len(parts) == 2:
            return Route("game", parts[0], parts[1], None, query, shown)
    return Route("not-found", query=query, path=shown)


def is_route(hash_: str) -> bool:
    """Routes are ``#/…`` (or nothing); ``#app`` and the like are in-page anchors (the skip link)."""
    return hash_ in ("", "#") or hash_.startswith("#/")


def href(*parts: str) -> str:
    return "#/" + "/".join(quote(p, safe="") for p in parts)
