"""Scarabeo's views: ``ui`` (``UI``, the play view the shell registers, put together from one module
per concern: see ``ui``), ``rules`` (the "How to play" page), ``tutorial`` (the guided first game) and
``still`` (its still board for the review and today's challenge). Importing the package draws nothing:
the tutorial is data that tests read in CPython."""
