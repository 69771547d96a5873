"""Where each game's engine lives, loaded lazily so start-up imports no engine."""

from __future__ import annotations

import importlib
from typing import Any, Callable, Mapping

from game.core import GameRecord, GameState, RecordError

#: game → (module, class); the class has ``from_options(options, seed)``.
ENGINES: dict[str, tuple[str, str]] = {
    "scarabeo": ("game.scarabeo.game", "ScarabeoState"),
    "thot": ("game.thot.state", "ThotState"),
    "scarabya": ("game.scarabya.state", "ScarabyaState"),
}

#: Extra keyword arguments for a game's factory (e.g. the lexicon for Scarabeo), set by the page.
FACTORY_KWARGS: dict[str, dict[str, Any]] = {}


def factory(game: str) -> Callable[[Mapping[str, Any], int], GameState[Any]]:
    if game not in ENGINES:
        raise ValueError(f"unknown game {game!r}")
    module, name = ENGINES[game]
    cls = getattr(importlib.import_module(module), name)
    kwargs = FACTORY_KWARGS.get(game, {})

    def new_state(options: Mapping[str, Any], seed: int) -> GameState[Any]:
        state: GameState[Any] = cls.from_options(dict(options), seed, **kwargs)
        return state

    return new_state


def replay_record(record: GameRecord) -> GameState[Any]:
    """The one path by which outside data (a save, a link, a file) becomes a game: whatever an engine
    raises while setting up or replaying becomes a ``RecordError`` with the reason, never a crash."""
    try:
        return record.replay(factory(record.game))
    except RecordError:
        raise
    except RecursionError:
        raise RecordError("the game record is nested too deeply") from None
    except MemoryError:
        raise RecordError("the game record is too large to replay") from None
    except Exception as err:
        reason = str(err) or type(err).__name__
        raise RecordError(f"the game does not replay: {reason[:300]}") from None


def replay(state_json: Mapping[str, Any]) -> GameState[Any]:
    """Rebuild a game from its saved record; raises ``RecordError`` (a ValueError) saying where it fails."""
    return replay_record(GameRecord.from_json(state_json))


def word_list(game: str) -> Any:
    """The word list this site gives the game's engine (Scarabeo's lexicon, once loaded), or None."""
    return FACTORY_KWARGS.get(game, {}).get("word_list")


def validate_state(game: str, state_json: dict[str, Any]) -> None:
    """For imports: the record must be for this game and replay to the end (a watched game's
    public record: every move checked by the engine, ``web.platform.watch.rebuild_watch``)."""
    from web.platform.watch import is_watch, rebuild_watch

    if is_watch(state_json):
        if game != "scarabeo" or state_json.get("game") != game:
            raise ValueError(f"a watched game of {str(state_json.get('game'))[:20]!r} is not one Scarab makes")
        rebuild_watch(state_json, word_list)
        return
    record = GameRecord.from_json(state_json)
    if record.game != game:
        raise ValueError(f"the record is for {record.game!r}, the save says {game!r}")
    replay_record(record)
