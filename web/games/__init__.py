"""Everything one game draws, one package per game (its play view, rules page, tutorial steps, still
board). A game's views receive the page as a typed context (``web.ui.context``) and never import a page
or another game."""
