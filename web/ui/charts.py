"""Chart primitives of the site's SVG charts (statistics, review, today's challenge): a box of
``W`` x ``H`` units with a margin of ``PAD`` for the axes, series told apart by colour and by marker shape
(``MARKERS``). Colours come from the theme's CSS classes."""

from __future__ import annotations

from typing import Any

from web.platform.i18n import signed
from web.ui.vdom import VNode, svg

#: The chart's box, in SVG units, and the margin left for the axes' labels.
W, H, PAD = 560, 260, 36
MARKERS = ("circle", "square", "triangle", "diamond")


def marker(kind: str, x: float, y: float, css: str) -> VNode:
    if kind == "circle":
        return svg("circle", {"cx": f"{x:.1f}", "cy": f"{y:.1f}", "r": "4", "class": css})
    if kind == "square":
        return svg("rect", {"x": f"{x - 4:.1f}", "y": f"{y - 4:.1f}", "width": "8", "height": "8", "class": css})
    if kind == "triangle":
        return svg("polygon", {"points": f"{x:.1f},{y - 5:.1f} {x + 5:.1f},{y + 4:.1f} {x - 5:.1f},{y + 4:.1f}",
                               "class": css})
    return svg("polygon", {"points": f"{x:.1f},{y - 5:.1f} {x + 5:.1f},{y:.1f} {x:.1f},{y + 5:.1f} {x - 5:.1f},{y:.1f}",
                           "class": css})


def axes(top: int, bottom: int, label_y: str) -> list[VNode]:
    parts = [svg("line", {"x1": PAD, "y1": H - PAD, "x2": W - 8, "y2": H - PAD, "class": "axis"}),
             svg("line", {"x1": PAD, "y1": 8, "x2": PAD, "y2": H - PAD, "class": "axis"})]
    for value in sorted({bottom, 0, top} if bottom < 0 <= top else {bottom, top}):
        y = scale(value, bottom, top)
        parts.append(svg("text", {"x": PAD - 6, "y": f"{y + 4:.1f}", "class": "tick", "text-anchor": "end",
                                  "text": signed(value, plus=False)}))  # a negative tick with U+2212
        parts.append(svg("line", {"x1": PAD, "y1": f"{y:.1f}", "x2": W - 8, "y2": f"{y:.1f}", "class": "grid"}))
    parts.append(svg("text", {"x": 10, "y": 14, "class": "tick", "text": label_y}))
    return parts


def scale(value: float, low: float, high: float) -> float:
    span = (high - low) or 1
    return (H - PAD) - (value - low) / span * (H - PAD - 8)
