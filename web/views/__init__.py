"""One module per game: it draws the game from engine state and turns input into moves (``UI``)."""
