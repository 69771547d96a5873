"""Render the project's SVG icon to PNG files, with the standard library only.

The icon (``web/icon.svg``) is drawn with a small subset of SVG — ``rect`` (with ``rx``), ``circle``,
``ellipse``, ``polygon`` and round-capped ``line`` — which this module rasterises: every shape becomes
a polygon, filled scanline by scanline at 4×4 samples a pixel (painter's order, opaque fills), then
averaged into RGBA pixels and written as PNG with ``zlib``. An element outside the subset is an error,
so the picture can never silently differ from the SVG.
"""

from __future__ import annotations

import math
import re
import struct
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

SS = 4  # samples per pixel along each axis
Point = tuple[float, float]


def _color(text: str) -> tuple[int, int, int]:
    m = re.fullmatch(r"#([0-9a-fA-F]{6})", text.strip())
    if not m:
        raise ValueError(f"colour {text!r}: only #rrggbb is supported")
    v = int(m.group(1), 16)
    return v >> 16, (v >> 8) & 255, v & 255


def _ellipse(cx: float, cy: float, rx: float, ry: float, n: int = 96) -> list[Point]:
    return [(cx + rx * math.cos(2 * math.pi * i / n), cy + ry * math.sin(2 * math.pi * i / n)) for i in range(n)]


def _round_rect(x: float, y: float, w: float, h: float, r: float) -> list[Point]:
    r = min(r, w / 2, h / 2)
    if r <= 0:
        return [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
    pts: list[Point] = []
    for cx, cy, start in ((x + w - r, y + r, -90), (x + w - r, y + h - r, 0), (x + r, y + h - r, 90), (x + r, y + r, 180)):
        for i in range(17):
            a = math.radians(start + 90 * i / 16)
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return pts


def _capsule(x1: float, y1: float, x2: float, y2: float, width: float) -> list[Point]:
    r = width / 2
    angle = math.atan2(y2 - y1, x2 - x1)
    pts: list[Point] = []
    for cx, cy, start in ((x2, y2, angle - math.pi / 2), (x1, y1, angle + math.pi / 2)):
        for i in range(17):
            a = start + math.pi * i / 16
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return pts


def parse(svg_text: str) -> tuple[float, float, list[tuple[list[Point], tuple[int, int, int]]]]:
    root = ET.fromstring(svg_text)
    _, _, vw, vh = (float(v) for v in root.attrib["viewBox"].split())
    shapes = []
    for el in root:
        tag = el.tag.rsplit("}", 1)[-1]
        a = {k: v for k, v in el.attrib.items()}
        f = lambda k, d=None: float(a[k]) if k in a else (d if d is not None else float(a[k]))  # noqa: E731
        if tag == "rect":
            shapes.append((_round_rect(f("x", 0.0), f("y", 0.0), f("width"), f("height"), f("rx", 0.0)), _color(a["fill"])))
        elif tag == "circle":
            shapes.append((_ellipse(f("cx"), f("cy"), f("r"), f("r")), _color(a["fill"])))
        elif tag == "ellipse":
            shapes.append((_ellipse(f("cx"), f("cy"), f("rx"), f("ry")), _color(a["fill"])))
        elif tag == "polygon":
            nums = [float(v) for v in re.split(r"[\s,]+", a["points"].strip())]
            shapes.append((list(zip(nums[0::2], nums[1::2])), _color(a["fill"])))
        elif tag == "line":
            shapes.append((_capsule(f("x1"), f("y1"), f("x2"), f("y2"), f("stroke-width", 1.0)), _color(a["stroke"])))
        else:
            raise ValueError(f"<{tag}> is outside the SVG subset tools/icons.py renders")
    return vw, vh, shapes


def render(svg_text: str, size: int, padding: float = 0.0, background: tuple[int, int, int] | None = None) -> bytes:
    """PNG bytes of the icon at ``size``×``size``; ``padding`` (fraction) shrinks it for maskable icons."""
    vw, vh, shapes = parse(svg_text)
    n = size * SS
    scale = n * (1 - 2 * padding) / max(vw, vh)
    offset = n * padding
    palette: list[tuple[int, int, int, int]] = [(0, 0, 0, 0) if background is None else (*background, 255)]
    canvas = bytearray(n * n)  # palette index per sample
    for points, rgb in shapes:
        palette.append((*rgb, 255))
        index = len(palette) - 1
        pts = [(offset + x * scale, offset + y * scale) for x, y in points]
        ys = [p[1] for p in pts]
        edges = list(zip(pts, pts[1:] + pts[:1]))
        for row in range(max(0, int(min(ys))), min(n, int(math.ceil(max(ys))) + 1)):
            y = row + 0.5
            xs = sorted(x0 + (y - y0) * (x1 - x0) / (y1 - y0) for (x0, y0), (x1, y1) in edges
                        if (y0 <= y < y1) or (y1 <= y < y0))
            base = row * n
            for left, right in zip(xs[0::2], xs[1::2]):
                a, b = max(0, int(left + 0.5)), min(n, int(right + 0.5))
                if b > a:
                    canvas[base + a:base + b] = bytes([index]) * (b - a)
    raw = bytearray()
    block = SS * SS
    for py in range(size):
        raw.append(0)  # PNG filter: none
        rows = [canvas[(py * SS + k) * n:(py * SS + k + 1) * n] for k in range(SS)]
        for px in range(size):
            r = g = b = al = 0
            for sub in rows:
                for idx in sub[px * SS:(px + 1) * SS]:
                    c = palette[idx]
                    r += c[0] * c[3]
                    g += c[1] * c[3]
                    b += c[2] * c[3]
                    al += c[3]
            if al:
                raw += bytes((r // al, g // al, b // al, al // block))
            else:
                raw += b"\0\0\0\0"
    return _png(size, size, bytes(raw))


def _png(width: int, height: int, raw: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


#: The PNG files browsers ask for: name → (size, padding, opaque background for maskable icons).
ICONS = {
    "icon-192.png": (192, 0.0, None),
    "icon-512.png": (512, 0.0, None),
    "icon-maskable-512.png": (512, 0.1, (0x1F, 0x6F, 0x5C)),
    "apple-touch-icon.png": (180, 0.0, (0x1F, 0x6F, 0x5C)),
}


def write_icons(svg: Path, out: Path) -> list[Path]:
    text = svg.read_text(encoding="utf-8")
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, (size, padding, bg) in ICONS.items():
        path = out / name
        path.write_bytes(render(text, size, padding, bg))
        written.append(path)
    return written
