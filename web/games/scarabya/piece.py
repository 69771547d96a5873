"""The piece held: orientation arithmetic, the square the pointer holds it by, its small pictures (the
mission card, the Ruins pieces to pick from), redrawn as the ghost turns."""

from __future__ import annotations

from typing import Any, Callable

from game.scarabya.ruins import PIECES
from game.scarabya.sets import TILES
from game.scarabya.shapes import orient
from web.ui.dom import append, h

from .context import Card, Cells, Page


# --- orientation arithmetic (orientation k: mirror left-right if k >= 4, then k mod 4 quarter-turns) ---
def rotated(k: int, clockwise: bool = True) -> int:
    return (k & 4) | ((k + (1 if clockwise else 3)) % 4)


def flipped(k: int) -> int:
    """Mirror the shape as it lies now: M R^r M^m = R^-r M^(m+1)."""
    return (4 - (k & 4)) | ((4 - (k & 3)) % 4)


def handle_of(cells: Cells) -> tuple[int, int]:
    """The cell nearest the shape's middle: the square the pointer holds the ghost by."""
    mx = sum(x for x, _ in cells) / len(cells)
    my = sum(y for _, y in cells) / len(cells)
    return min(cells, key=lambda c: ((c[0] - mx) ** 2 + (c[1] - my) ** 2, c[1], c[0]))


def piece_cells(piece: str, k: int, ruins: bool) -> Cells:
    """The squares of ``piece`` (a classic tile, or a Ruins piece) in orientation ``k``."""
    shape = PIECES[piece] if ruins else TILES[piece]
    return tuple(orient(shape.cells, k))


def shape_drawing(cells: Cells, css: str, label: str) -> Any:
    """A small picture of a piece (decorative grid of filled squares)."""
    w = max(x for x, _ in cells) + 1
    hgt = max(y for _, y in cells) + 1
    filled = set(cells)
    pic = h("div", {"class": f"sy-shape {css}", "role": "img", "aria-label": label,
                    "style": f"--w: {w}; --h: {hgt}"})
    for y in range(hgt):
        for x in range(w):
            append(pic, h("span", {"class": "on" if (x, y) in filled else "off"}))
    return pic


def refresh_card(card: Card | None, k: int, ruins: bool) -> None:
    """Redraw the held piece's picture in the ghost's orientation."""
    if card is None:
        return
    card.box.replaceChildren(shape_drawing(piece_cells(card.piece, k, ruins), card.css, card.label))


def mission_card(page: Page, v: dict[str, Any], placing: bool) -> tuple[Any, Card | None]:
    """Classic: the round's mission card (its tile, drawn as the ghost lies when the person places it),
    and the card picture to turn with the ghost (None when nobody places)."""
    t = page.t
    tile = v["tile"]
    if not tile:
        return None, None
    card_pic = h("div", {"class": "sy-card-pic"})
    card = Card(card_pic, tile, "sy-card-shape", t("scarabya.card.shape", tile=tile))
    mission = h("section", {"class": "panel sy-mission", "aria-labelledby": "sy-mission-title"},
                h("span", {"class": f"sy-card-letter t-{tile}", "role": "img",
                           "aria-label": t("scarabya.card.tile", tile=tile)},
                  h("span", {"aria-hidden": "true", "text": tile})),
                card_pic,
                h("div", {"class": "sy-mission-text"},
                  h("h2", {"id": "sy-mission-title",
                           "text": t("scarabya.mission", round=v["round"], rounds=v["rounds"])}),
                  h("p", {"class": "muted", "text": t("scarabya.cards.left", n=v["cards_left"])})))
    refresh_card(card, page.selection.get("k", 0) if placing else 0, ruins=False)
    return mission, (card if placing else None)


def ruins_hand(page: Page, seat: int, hand: list[str], playable: list[str], piece: str | None,
               pick: Callable[[str], None]) -> tuple[Any, Card | None]:
    """Ruins: the person's unused pieces as small pictures (the one held turns with the ghost)."""
    t = page.t
    pieces = h("div", {"class": "sy-pieces", "role": "group", "aria-label": t("scarabya.ruins.hand")})
    card = None
    for name in hand:
        usable = name in playable
        pic = h("span", {"class": "sy-piece-pic"},
                shape_drawing(piece_cells(name, page.selection.get("k", 0) if name == piece else 0, True),
                              f"seat-{seat}", name))
        if name == piece:  # turns with the ghost
            card = Card(pic, name, f"seat-{seat}", t("scarabya.card.shape", tile=name))
        append(pieces, h("button", {"type": "button", "class": "sy-piece", "id": f"sy-piece-{name}",
                                    "aria-pressed": "true" if name == piece else "false",
                                    "aria-label": t("scarabya.ruins.piece" if usable else "scarabya.ruins.piece.nofit",
                                                    piece=name),
                                    "title": None if usable else t("scarabya.ruins.piece.nofit", piece=name),
                                    "disabled": not usable,
                                    "on_click": lambda _e, n=name: pick(n)},
                          pic, scope=page.view_scope))
    return pieces, card
