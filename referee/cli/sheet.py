"""``referee sheet``: write a printable map sheet of one side as a PDF."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from referee.rules.errors import RefereeError
from referee.vision.printable import PAPERS, sheet_pdf

NAME = "sheet"
HELP = "Write a printable map sheet (PDF, A4 or Letter) of one map side."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--side", required=True, type=str.upper, choices="ABCD", help="map side")
    parser.add_argument("--paper", default="a4", type=str.lower, choices=sorted(PAPERS), help="paper size")
    parser.add_argument("--copies", type=int, default=1, help="pages in the PDF (1 to 100)")
    parser.add_argument("-o", "--output", type=Path, required=True, help="PDF file to write")


def run(args: argparse.Namespace) -> int:
    try:
        data = sheet_pdf(args.side, args.paper, args.copies)
        args.output.write_bytes(data)
    except RefereeError as e:
        print(f"referee sheet: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"referee sheet: cannot write {args.output} ({e.strerror})", file=sys.stderr)
        return 2
    print(f"wrote {args.output} ({len(data) // 1024} KB)")
    return 0
