"""Errors shared by all engines. Each carries a machine-readable code and a human message."""

from __future__ import annotations


class IllegalMove(ValueError):
    """A well-formed move that the rules refuse in this position.

    ``code`` is a stable identifier (for tests, translations and the UI);
    ``str(err)`` is an English explanation naming the square, word or tile concerned.
    """

    def __init__(self, code: str, message: str, **details: object) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details


class NotationError(ValueError):
    """Text that does not parse as a move, a position or a record.

    ``column`` is the 0-based character offset where parsing failed, when known.
    """

    def __init__(self, message: str, text: str = "", column: int | None = None) -> None:
        where = f" (at character {column + 1} of {text!r})" if column is not None and text else ""
        super().__init__(message + where)
        self.message = message
        self.text = text
        self.column = column


class RecordError(ValueError):
    """A game record (JSON or text) that is malformed, of an unknown version, or does not replay."""

    def __init__(self, message: str, turn: int | None = None) -> None:
        super().__init__(message if turn is None else f"turn {turn}: {message}")
        self.message = message
        self.turn = turn
