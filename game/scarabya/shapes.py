"""Polyomino shapes, their 8 orientations and every placement mask on a grid.

Orientation k (0-7), as rules.md fixes it: mirror left-right first if k >= 4, then turn clockwise
k mod 4 times. A placement is anchored at the top-left square of the placed shape's bounding box.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.scarabya.grid import Grid

Cells = tuple[tuple[int, int], ...]  # (x, y) with x to the right, y downwards, normalised to 0


def parse_drawing(drawing: str) -> Cells:
    """``"####/#..."`` -> cells; rows separated by ``/``, ``#`` filled."""
    cells = [(x, y) for y, row in enumerate(drawing.split("/")) for x, ch in enumerate(row) if ch == "#"]
    return normalise(cells)


def normalise(cells: list[tuple[int, int]] | Cells) -> Cells:
    mx = min(x for x, _ in cells)
    my = min(y for _, y in cells)
    return tuple(sorted((x - mx, y - my) for x, y in cells))


def orient(cells: Cells, k: int) -> Cells:
    """The shape in orientation ``k`` (mirror if k >= 4, then k mod 4 clockwise quarter-turns)."""
    pts = list(cells)
    if k >= 4:
        w = max(x for x, _ in pts) + 1
        pts = [(w - 1 - x, y) for x, y in pts]
    for _ in range(k % 4):
        h = max(y for _, y in pts) + 1
        pts = [(h - 1 - y, x) for x, y in pts]
    return normalise(pts)


@dataclass(frozen=True)
class Shape:
    """One named piece with its orientations and precomputed placements on one grid."""

    name: str
    cells: Cells
    #: orientation k -> the smallest orientation giving the same squares (canonical form)
    canonical: tuple[int, ...]
    #: canonical orientation -> list of (anchor square, mask) for every in-bounds placement
    placements: dict[int, tuple[tuple[int, int], ...]]

    @property
    def size(self) -> int:
        return len(self.cells)

    def orientations_json(self) -> list[dict[str, object]]:
        """Each distinct orientation with its cells ``[x, y]`` (x right, y down), for drawing ghosts."""
        return [
            {"k": k, "cells": [[x, y] for x, y in orient(self.cells, k)]} for k in sorted(self.placements)
        ]

    def mask_at(self, grid: Grid, k: int, anchor: int) -> int | None:
        """The squares covered with orientation ``k`` anchored at ``anchor``; None if off the grid."""
        col, row = anchor % grid.width, anchor // grid.width
        mask = 0
        for x, y in orient(self.cells, k):
            c, r = col + x, row + y
            if c >= grid.width or r >= grid.height:
                return None
            mask |= 1 << (r * grid.width + c)
        return mask


def build_shape(name: str, drawing: str, grid: Grid) -> Shape:
    cells = parse_drawing(drawing)
    forms = [orient(cells, k) for k in range(8)]
    canonical = tuple(forms.index(f) for f in forms)
    placements: dict[int, tuple[tuple[int, int], ...]] = {}
    for k in sorted(set(canonical)):
        form = forms[k]
        w = max(x for x, _ in form) + 1
        h = max(y for _, y in form) + 1
        found: list[tuple[int, int]] = []
        for row in range(grid.height - h + 1):
            for col in range(grid.width - w + 1):
                mask = 0
                for x, y in form:
                    mask |= 1 << ((row + y) * grid.width + col + x)
                anchor = row * grid.width + col
                found.append((anchor, mask))
        placements[k] = tuple(found)
    return Shape(name, cells, canonical, placements)
