"""The pages every game shares: play (``GamePage``), review, today's challenge, statistics. A page finds a
game's views through ``web.ui.registry``, never by importing ``web.games``."""
