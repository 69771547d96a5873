"""Versioned JSON game records: setup (game, options, seed) plus the moves in notation.

A record replays exactly because every engine is deterministic given its options and seed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from game.core import safejson
from game.core.errors import IllegalMove, NotationError, RecordError
from game.core.protocol import GameState

RECORD_FORMAT = "scarab-record"
RECORD_VERSION = 1
#: Records larger than this are refused before parsing (a long Scarabeo game is ~10 KB).
MAX_RECORD_BYTES = 1_000_000


@dataclass
class GameRecord:
    game: str
    options: dict[str, Any]
    seed: int
    moves: list[str] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, state: GameState[Any], **meta: Any) -> "GameRecord":
        return cls(
            game=state.GAME,
            options=state.options(),
            seed=state.seed,
            moves=[state.move_text(m) for m in state.history()],
            meta=dict(meta),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": self.game,
            "options": self.options,
            "seed": self.seed,
            "moves": list(self.moves),
            "meta": self.meta,
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, data: Any) -> "GameRecord":
        if not isinstance(data, Mapping):
            raise RecordError("a record must be a JSON object")
        if data.get("format") != RECORD_FORMAT:
            raise RecordError(f"not a Scarab game record (format is {data.get('format')!r})")
        version = data.get("version")
        if not isinstance(version, int) or version < 1:
            raise RecordError(f"record version {version!r} is not a positive integer")
        if version > RECORD_VERSION:
            raise RecordError(
                f"record version {version} is newer than this program understands ({RECORD_VERSION})"
            )
        game, options, seed, moves = (data.get(k) for k in ("game", "options", "seed", "moves"))
        if not isinstance(game, str):
            raise RecordError("record has no game name")
        if not isinstance(options, Mapping):
            raise RecordError("record options must be an object")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise RecordError("record seed must be an integer")
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise RecordError("record moves must be a list of strings")
        meta = data.get("meta", {})
        if not isinstance(meta, Mapping):
            raise RecordError("record meta must be an object")
        return cls(game, dict(options), seed, list(moves), dict(meta))

    @classmethod
    def loads(cls, text: str | bytes) -> "GameRecord":
        if len(text) > MAX_RECORD_BYTES:
            raise RecordError(f"record is {len(text)} bytes, more than the {MAX_RECORD_BYTES} allowed")
        try:
            # Records come from files, links and stdin: nesting, huge numbers and NaN are refused
            # before they can exhaust the stack or the int conversion.
            data = safejson.loads(text, max_bytes=MAX_RECORD_BYTES)
        except safejson.JSONRefused as err:
            raise RecordError(f"record refused: {err}") from None
        return cls.from_json(data)

    def replay(
        self, new_state: Callable[[Mapping[str, Any], int], GameState[Any]]
    ) -> GameState[Any]:
        """Rebuild the game by replaying every move; the first bad one raises with its turn number.

        Every failure is a ``RecordError``: a record is outside data, so an engine error of any
        type on its options or moves (a field of the wrong type, a value out of range) must reach
        the caller as a refusal with a reason, never as a crash.
        """
        try:
            state = new_state(self.options, self.seed)
            game = state.GAME
        except RecordError:
            raise
        except ValueError as err:
            raise RecordError(f"cannot set up the game: {err}") from None
        except Exception as err:  # noqa: BLE001 - the safety net for any engine error
            raise RecordError(f"cannot set up the game: {_reason(err)}") from None
        if game != self.game:
            raise RecordError(f"record is for {self.game!r}, not {game!r}")
        for turn, text in enumerate(self.moves, start=1):
            try:
                state.push(state.parse_move(text))
            except RecordError as err:
                raise RecordError(f"{text!r}: {err.message}", turn=turn) from None
            except (IllegalMove, NotationError) as err:
                raise RecordError(f"{text!r}: {err}", turn=turn) from None
            except Exception as err:  # noqa: BLE001 - the safety net for any engine error
                raise RecordError(f"{text!r}: {_reason(err)}", turn=turn) from None
        return state


def _reason(err: BaseException) -> str:
    """An unexpected engine error as a one-line reason (its type says more than an empty text)."""
    text = " ".join(str(err).split())[:200]
    return f"the engine refused it ({type(err).__name__}{': ' + text if text else ''})"
