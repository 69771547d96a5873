"""The shell: the app around the pages (chooser, settings, about, routing to a page), and the one place
that knows every game: it registers each game's views (``web.shell.games``) for the pages below it."""
