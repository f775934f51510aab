"""``referee sheet``: write a printable map sheet of one side as a PDF.

``-o -`` writes the PDF to standard output (``referee sheet --side A -o - | lp``).
The renderer (Pillow, numpy, OpenCV) is imported only when this command runs.
"""

from __future__ import annotations

import argparse
import sys

from referee.cli.streams import STDIO, write_bytes

NAME = "sheet"
HELP = "Write a printable map sheet (PDF, A4 or Letter) of one map side; -o - writes to standard output."
EXAMPLE = "referee sheet --side A --paper letter --copies 4 -o sheets.pdf"

PAPERS = ("a4", "letter")
"""The paper sizes ``referee.vision.printable`` knows (a test keeps the two
lists equal), named here so the parser does not import the renderer."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--side", required=True, type=str.upper, choices="ABCD", help="map side")
    parser.add_argument("--paper", default="a4", type=str.lower, choices=PAPERS, help="paper size")
    parser.add_argument("--copies", type=int, default=1, help="pages in the PDF (1 to 100)")
    parser.add_argument(
        "-o", "--output", required=True, metavar="FILE", help="PDF file to write; - writes standard output"
    )


def fail(message: str) -> int:
    print(f"referee sheet: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    from referee.rules.errors import RefereeError
    from referee.vision.printable import sheet_pdf

    to_stdout = args.output == STDIO
    if to_stdout and sys.stdout.isatty():
        return fail(
            "will not write a PDF to the terminal: redirect it (-o - > sheet.pdf) or pipe it (-o - | lp)"
        )
    try:
        data = sheet_pdf(args.side, args.paper, args.copies)
    except RefereeError as e:
        return fail(str(e))
    try:
        write_bytes(args.output, data)
    except OSError as e:
        return fail(f"cannot write {args.output} ({e.strerror})")
    if not to_stdout:
        print(f"wrote {args.output} ({len(data) // 1024} KB)")
    return 0
