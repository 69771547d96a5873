"""The statistics store of this device: the record of finished games (``web.platform.stats``) kept
under ``stats.STATS_KEY`` of the app's key-value store, and the hook that counts a game that just
ended (``record_finished``, called by the game page)."""

from __future__ import annotations

from typing import Any

from pyscript import window

from web.platform import engines, stats
from web.platform.storage import StorageError


def load(app: Any) -> dict[str, Any]:
    return stats.load(app.store.kv.get(stats.STATS_KEY))


def save(app: Any, data: dict[str, Any]) -> bool:
    try:
        app.store.kv.set(stats.STATS_KEY, stats.dumps(data))
        return True
    except StorageError as err:
        app.storage_error(err, "stats")
        return False


def record_finished(app: Any, session: Any) -> None:
    """Count a game that just ended (once per save) for every seat's name."""
    resigned = getattr(session, "resigned", None)  # a resignation ends the game as that seat's loss
    if app.embed or session.replay_only or not (session.state.is_over() or resigned is not None):
        return
    data = load(app)
    if session.save.id in data["counted"]:
        return
    summary = stats.summarise(session.record(), engines.factory(session.game), resigned)
    stats.record_game(data, session.save.id, session.game, [s.name for s in session.seats], summary,
                      int(window.Date.now()))
    save(app, data)


def record_remote(app: Any, session: Any) -> None:
    """Count a game by links once it is over here (``stats.remote_summary``): as unverified while
    keys are awaited, its deal failed or it stopped on a cheat; again with its result once verified."""
    if app.embed:
        return
    summary = stats.remote_summary(session.device.show())
    if summary is None:
        return
    data = load(app)
    if stats.record_game(data, session.save.id, session.game, [s.name for s in session.seats], summary,
                         int(window.Date.now())):
        save(app, data)
