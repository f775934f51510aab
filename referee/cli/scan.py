"""``referee scan``: read a photographed map sheet into the map.

Three outputs: ``--json`` (the reading: grid, confidences, coins, corners),
``--map`` (exactly the 11 lines of a map file, which ``referee score -``
reads), and a table for a person with the doubtful squares marked. Without
``--json`` or ``--map`` the table goes to a terminal and the map to a pipe or
file, so ``referee scan photo.jpg --side A | referee score - ...`` works.
The photo reader (numpy and OpenCV) is imported only when this command runs.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from referee.cli.streams import describe, read_bytes

if TYPE_CHECKING:
    from referee.vision.reader import SheetReading

NAME = "scan"
HELP = "Read a photo of a filled-in map sheet (- for standard input) into 11 lines of map codes."
EXAMPLE = "referee scan sheet.jpg --side A --map | referee score - --side A --all-cards"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "photo", metavar="PHOTO", help="photo of the map sheet (JPEG or PNG); - reads standard input"
    )
    parser.add_argument("--side", required=True, type=str.upper, choices="ABCD", help="map side")
    parser.add_argument(
        "--corners",
        metavar="'X,Y X,Y X,Y X,Y'",
        help="the grid's four outer corners in the photo's pixels, in any order, for a photo in which "
        "no grid is found: the grid is fitted to the lines near them",
    )
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print one JSON object")
    output.add_argument(
        "--map",
        action="store_true",
        help="print only the 11 lines of a map file (the default when standard output is not a terminal)",
    )


def fail(message: str) -> int:
    print(f"referee scan: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    from referee.rules.errors import RefereeError
    from referee.vision.load import MAX_BYTES
    from referee.vision.reader import corners_from_text, read_sheet

    name: str = args.photo
    try:
        data = read_bytes(name, MAX_BYTES)
    except FileNotFoundError:
        return fail(f"{name}: no such file")
    except IsADirectoryError:
        return fail(f"{name}: this is a folder, not a photo")
    except OSError as e:
        return fail(f"{describe(name)}: cannot be read ({e.strerror})")
    if len(data) > MAX_BYTES:
        return fail(
            f"{describe(name)}: the file is larger than {MAX_BYTES // 2**20} MB: send a smaller photo"
        )
    try:
        corners = corners_from_text(args.corners) if args.corners is not None else None
    except ValueError:
        return fail(f"--corners {args.corners!r}: give the four corners as 'X,Y X,Y X,Y X,Y', in pixels")
    try:
        reading = read_sheet(data, args.side, corners=corners)
    except RefereeError as e:
        return fail(str(e))
    if args.json:
        print(json.dumps(reading.to_json()))
    elif args.map or not sys.stdout.isatty():
        print("\n".join(reading.grid))
        note = doubt_note(reading)
        if note:
            print(f"referee scan: {note}", file=sys.stderr)
    else:
        print(table(describe(name), reading))
    return 0


def doubt_note(reading: SheetReading) -> str | None:
    """One sentence naming the squares to check, or None when none are doubtful."""
    from referee.rules.geometry import where_all
    from referee.rules.i18n import ngettext

    doubtful = reading.doubtful()
    if not doubtful:
        return None
    note = str(
        ngettext(
            "check %(num)d doubtful square against the sheet: %(places)s",
            "check %(num)d doubtful squares against the sheet: %(places)s",
            len(doubtful),
            places=where_all(doubtful),
        )
    )
    return f"{note}; {retake_advice(reading)}" if reading.worth_retaking() else note


RETAKE = (
    "so many squares are unsure that another photo may read better:"
    " bright, even light, straight over the sheet, nothing lying on it"
)
"""Said under a reading that ``worth_retaking`` when the reader cannot tell
what spoiled the photo."""


def retake_advice(reading: SheetReading) -> str:
    """Under a reading that ``worth_retaking``: what spoiled the photo, as far
    as the reader can tell (``SheetReading.retake_causes``), else ``RETAKE``."""
    from referee.vision.unsure import ADVICE

    causes = reading.retake_causes()
    if not causes:
        return RETAKE
    return "so many squares are unsure that another photo may read better: " + "; ".join(
        str(ADVICE[cause]) for cause in causes
    )


UNSURE_COINS = "unknown (the coin track is not clear in the photo: count the coins on your sheet)"


def table(title: str, reading: SheetReading) -> str:
    """The map for a person: each doubtful square marked ``?`` beside its row,
    and the coins."""
    from referee.rules.i18n import ngettext

    doubtful = set(reading.doubtful())
    lines = [f"{title} (side {reading.side})"]
    for r, row in enumerate(reading.grid):
        marks = "".join("?" if (r, c) in doubtful else " " for c in range(len(row)))
        lines.append(f"  {row}   {marks}")
    lines.append(f"coins: {UNSURE_COINS if reading.coins is None else reading.coins}")
    if doubtful:
        lines.append(
            str(
                ngettext(
                    "%(num)d doubtful square marked ?: check them before you confirm",
                    "%(num)d doubtful squares marked ?: check them before you confirm",
                    len(doubtful),
                )
            )
        )
    if reading.worth_retaking():
        lines.append(retake_advice(reading))
    return "\n".join(lines)
