"""Scarab game engines: pure Python, standard library only, no I/O, no browser imports."""

__version__ = "0.1.0"
