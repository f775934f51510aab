"""Card pictures drawn from the data as small inline SVG: shapes as squares,
the coin option marked, hero attack patterns. No card art is copied; the
colours come from CSS classes (``t-F`` forest, ``t-M`` monster, ...)."""

from __future__ import annotations

from collections.abc import Iterable

from markupsafe import Markup, escape

from referee.rules.geometry import Cell

UNIT = 24
"""Side of one square, in SVG user units (the page scales the picture)."""


def _frame(width: int, height: int, body: str, label: str, extra_class: str = "") -> Markup:
    return Markup(
        f'<svg class="shape {extra_class}" viewBox="-2 -2 {width * UNIT + 4} {height * UNIT + 4}" '
        f'style="--w: {width}; --h: {height}" role="img" aria-label="{escape(label)}">{body}</svg>'
    )


def _square(r: int, c: int, css: str) -> str:
    return f'<rect class="{css}" x="{c * UNIT}" y="{r * UNIT}" width="{UNIT}" height="{UNIT}"/>'


def shape(cells: Iterable[Cell], terrain: str | None, coin: bool = False, label: str = "shape") -> Markup:
    """A shape as squares, filled with the terrain's colour (or neutral when
    the player chooses the terrain); a gold coin in its top-right corner when
    drawing it gains a coin."""
    cells = tuple(cells)
    height = max(r for r, _ in cells) + 1
    width = max(c for _, c in cells) + 1
    css = f"sq t-{terrain}" if terrain else "sq t-any"
    body = "".join(_square(r, c, css) for r, c in cells)
    if coin:
        top = min(c for r, c in cells if r == 0)
        cx, cy = top * UNIT + UNIT / 2, UNIT / 2
        body += f'<circle class="coin" cx="{cx}" cy="{cy}" r="{UNIT * 0.3}"/>'
    return _frame(width, height, body, label)


def attack(offsets: Iterable[Cell], label: str = "attack pattern") -> Markup:
    """A hero's attack pattern: the hero space and the spaces it attacks, each
    crossed, on a faint grid of the pattern's extent."""
    offsets = tuple(offsets)
    rows = [r for r, _ in offsets] + [0]
    cols = [c for _, c in offsets] + [0]
    top, left = min(rows), min(cols)
    height, width = max(rows) - top + 1, max(cols) - left + 1
    body = "".join(_square(r, c, "sq grid") for r in range(height) for c in range(width))
    body += _square(-top, -left, "sq t-H")
    for r, c in offsets:
        y, x = (r - top) * UNIT, (c - left) * UNIT
        body += _square(r - top, c - left, "sq hit")
        body += (
            f'<path class="cross" d="M{x + 5} {y + 5}L{x + UNIT - 5} {y + UNIT - 5}'
            f'M{x + UNIT - 5} {y + 5}L{x + 5} {y + UNIT - 5}"/>'
        )
    return _frame(width, height, body, label, "attack")


def hit_key(label: str = "attacked space") -> Markup:
    """One attacked space as the attack pattern draws it, for the card's key."""
    body = _square(0, 0, "sq hit") + (
        f'<path class="cross" d="M5 5L{UNIT - 5} {UNIT - 5}M{UNIT - 5} 5L5 {UNIT - 5}"/>'
    )
    return _frame(1, 1, body, label, "attack key-hit")
