"""Watched games (issue 24): what of a private game in progress may be kept on a device that only
watches it — a *watch save* (``watch_json``: ``{"format": "scarab-watch", "public": …, "meta": …}``),
the engine's public record and the seats, never a seed or a rack — and which games are private at
all (``is_private``). Used by the storage (a watch file stays a watch), the session (a watch opens
as one) and the share links (``web.platform.share``); it imports nothing of theirs, so that none of
them needs another for it."""

from __future__ import annotations

from typing import Any, Callable

from game.core import GameRecord

WATCH_FORMAT = "scarab-watch"
WATCH_VERSION = 1
#: The games whose state is public (no rack): they travel whole.
PUBLIC_GAMES = ("thot", "scarabya")


def is_private(game: str) -> bool:
    """Do the game's players hold secrets (Scarabeo's racks)?"""
    return game not in PUBLIC_GAMES


def public_of(state: Any) -> dict[str, Any]:
    """The engine's public record of a game's state (full or a spectator's), as JSON
    (``game.core.view``: the one place that decides what each seat may know)."""
    from game.core.view import public_record

    return public_record(state)


def watch_json(public: dict[str, Any], meta: dict[str, Any]) -> dict[str, Any]:
    """A watch save's state: the public record and the meta of the watch (seats, game_id, summary)."""
    return {"format": WATCH_FORMAT, "version": WATCH_VERSION, "game": public.get("game"),
            "public": public, "meta": {**meta, "replay": True}}


def is_watch(state_json: Any) -> bool:
    return isinstance(state_json, dict) and state_json.get("format") == WATCH_FORMAT


def read_watch(state_json: Any) -> tuple[Any, dict[str, Any]]:
    """A watch save's (``PublicRecord``, meta); ``RecordError`` when it is not one."""
    from game.core import RecordError
    from game.scarabeo.public import PublicRecord

    if not is_watch(state_json):
        raise RecordError("not a watched game")
    version = state_json.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= WATCH_VERSION:
        raise RecordError(f"watched game version {str(version)[:20]} is not one this version reads")
    meta = state_json.get("meta")
    if not isinstance(meta, dict):
        raise RecordError("the watched game's meta is not an object")
    return PublicRecord.from_json(state_json.get("public")), {**meta, "replay": True}


def rebuild_watch(state_json: Any, word_list_of: Callable[[str], Any]) -> Any:
    """The spectator's state of a watch save, every move checked by the engine (``RecordError``)
    with the game's word list (``word_list_of(game)``: ``web.platform.engines.word_list``)."""
    from game.core.view import rebuild_public

    public, _meta = read_watch(state_json)
    return rebuild_public(public.to_json(), word_list_of(public.to_json()["game"]))


def watch_of_record(state: Any, record: GameRecord) -> dict[str, Any]:
    """A watch save's state for an unfinished private game received whole (an ``s1.`` link, an
    older watch save or file): its public record — the seed and the racks are not kept."""
    meta: dict[str, Any] = {k: record.meta[k] for k in ("seats", "game_id") if k in record.meta}
    return watch_json(public_of(state), meta)
