"""``referee scan``: read a photographed map sheet into the map."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from referee.rules.errors import RefereeError
from referee.vision.load import MAX_BYTES
from referee.vision.reader import read_sheet

NAME = "scan"
HELP = "Read a photo of a filled-in map sheet into 11 lines of map codes."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("photo", metavar="PHOTO", type=Path, help="photo of the map sheet (JPEG or PNG)")
    parser.add_argument("--side", required=True, type=str.upper, choices="ABCD", help="map side")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def fail(message: str) -> int:
    print(f"referee scan: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    path: Path = args.photo
    try:
        if path.is_dir():
            return fail(f"{path}: this is a folder, not a photo")
        if path.stat().st_size > MAX_BYTES:
            return fail(f"{path}: the file is larger than {MAX_BYTES // 2**20} MB: send a smaller photo")
        data = path.read_bytes()
    except FileNotFoundError:
        return fail(f"{path}: no such file")
    except OSError as e:
        return fail(f"{path}: cannot be read ({e.strerror})")
    try:
        reading = read_sheet(data, args.side)
    except RefereeError as e:
        return fail(str(e))
    if args.json:
        print(json.dumps(reading.to_json()))
        return 0
    doubtful = set(reading.doubtful())
    print(f"{path} (side {reading.side})")
    for r, row in enumerate(reading.grid):
        marks = "".join("?" if (r, c) in doubtful else " " for c in range(len(row)))
        print(f"  {row}   {marks}")
    print(f"coins: {'unknown' if reading.coins is None else reading.coins}")
    if doubtful:
        print(f"{len(doubtful)} doubtful squares marked ?: check them before you confirm")
    return 0
