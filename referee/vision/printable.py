"""Printable map sheets: one page per sheet, A4 or Letter, as a PDF.

Big groups (up to 100 players) can play without the pad. The page is the
renderer's sheet in its ``printable`` style, scaled to fit the paper with a
margin, so the reader sees on a home-printed sheet exactly what it expects.
"""

from __future__ import annotations

import io
import time

from PIL import Image

from referee.rules.errors import RefereeError
from referee.vision.render import PAGE_H, PAGE_W, SheetWords, render_sheet

PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
"""Paper sizes in millimetres, portrait."""
DPI = 200
MARGIN_MM = 8.0
PRINTED_ON = time.gmtime(1_767_225_600)  # 2026-01-01T00:00:00Z
"""A fixed date in the PDF's metadata, so the same sheet is the same bytes
(one ETag for every download, and no test racing the clock)."""


class PrintableError(RefereeError):
    """A paper size or sheet count that cannot be printed."""


def sheet_pdf(side: str, paper: str = "a4", copies: int = 1, words: SheetWords | None = None) -> bytes:
    """A PDF of ``copies`` identical pages, each a printable sheet of ``side``,
    its words in English unless ``words`` gives another language's."""
    paper = paper.lower()
    if paper not in PAPERS:
        raise PrintableError(f"paper must be one of {', '.join(sorted(PAPERS))}, not {paper!r}")
    if not 1 <= copies <= 100:
        raise PrintableError("print between 1 and 100 sheets at a time")
    w_mm, h_mm = PAPERS[paper]
    px_per_mm = DPI / 25.4
    u = min((w_mm - 2 * MARGIN_MM) / PAGE_W, (h_mm - 2 * MARGIN_MM) / PAGE_H) * px_per_mm
    sheet = render_sheet(side, u, "printable", words)
    page = Image.new("RGB", (round(w_mm * px_per_mm), round(h_mm * px_per_mm)), "white")
    page.paste(sheet, ((page.width - sheet.width) // 2, (page.height - sheet.height) // 2))
    out = io.BytesIO()
    pages = [page] * copies
    pages[0].save(
        out,
        "PDF",
        resolution=DPI,
        save_all=True,
        append_images=pages[1:],
        title=(words or SheetWords()).document.format(letter=side.upper()),
        creationDate=PRINTED_ON,
        modDate=PRINTED_ON,
    )
    return out.getvalue()
