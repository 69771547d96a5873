"""Scarabya in the page: each player's site, the round's mission card, a ghost tile that follows the
pointer (or the arrow keys) and shows whether it fits and what it would score, hints, the token
supply, the other players' sites, the end screen with solo best scores, and the Ruins variant.

Everything drawn comes from the engine (``view()``, ``placements()``, ``check``, ``push``/``pop``):
the ghost is legal exactly when its squares are one of the engine's legal placement masks, its score
is what ``push`` reports (undone at once with ``pop``), and a refusal is the engine's ``IllegalMove``.

One module per concern, sharing the typed page context of ``context``:

- ``context`` — the page type (``web.ui.context.PlayPage``), constants, the ``page.selection`` keys, and the
  small records one render passes around (``Placing``, ``Card``, ``Square``)
- ``board`` — a drawn board: squares from the engine's rows, the ghost's geometry and drawing
- ``piece`` — orientation arithmetic, the held piece's pictures (mission card, Ruins pieces)
- ``input`` — pointer, touch drag, keyboard and the control buttons; the engine's refusals in words
- ``panels`` — the panels around the board, the end screen, the solo best scores
- ``anim`` — what the latest move changed (closed areas, tokens, latest tiles) and scrolling into view
- ``ui`` — ``ScarabyaUI`` (``web.ui.context.GameUI``): the options form, the computer, announcements, the
  classic and Ruins renders assembled from the modules above, the resume snapshot

The package's ``rules`` (the "How to play" page) and ``tutorial`` (the guided first game) sit beside
them. Importing the package draws nothing: the tutorial is data that tests read in CPython.
"""
