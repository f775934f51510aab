"""Whether the reader names what spoiled a photo it asks to be taken again.

A reading with so many doubtful squares that another photo may read better
(``SheetReading.worth_retaking``) names what the player can change
(``vision.unsure``: something lying on the sheet, a dark photo, uneven
light, a blurred one). This reads each photo of a folder with truth (the
format of ``../shared/sheet_photos/README.md``) as ``bench/scan_bench.py``
does, and prints:

- photos read (their grid found and passed);
- readings that ask for another photo, and how many of them name a cause;
- the causes named, and where the truth records what was done to the photo
  (``tools/make_samples.py``'s ``hard``: ``occluder``, ``dim``,
  ``shadow`` or ``cast``, ``blur``), how many of them were done to it,
  cause by cause: a cause named that was not done sends the player to
  change what was not wrong;
- the same on the photos that do not ask for another (not shown to the
  player; says how plain each mark is on ordinary photos).

Usage::

    python bench/retake_causes.py /tmp/r31000 /tmp/r93000 --jobs 2
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # beside scan_bench, as a script or loaded by a test

# first, for it holds numpy to one core before numpy loads
from scan_bench import Row, columns, main_over_folders, read_all  # noqa: E402

# isort: split
from referee.vision.unsure import Cause  # noqa: E402

DONE = {
    Cause.COVERED: {"occluder"},
    Cause.DARK: {"dim"},
    Cause.UNEVEN: {"shadow", "cast"},
    Cause.BLURRED: {"blur"},
}
"""For each cause, the generator's effects (a truth's ``hard``) that make it."""


def bench(folder: Path, jobs: int = 1) -> dict[str, object]:
    """Each photo of ``folder`` read, and its causes named against its truth."""
    paths = sorted(folder.glob("*.jpg"))
    truths = [json.loads(p.with_suffix(".json").read_text()) for p in paths]
    named: dict[bool, Counter[str]] = {True: Counter(), False: Counter()}
    right: dict[bool, Counter[str]] = {True: Counter(), False: Counter()}
    read = asked = asked_named = 0
    judged = all("hard" in t for t in truths)
    by_photo: dict[str, list[str]] = {}
    for path, truth, (_seconds, reading, _side) in zip(
        paths, truths, read_all(paths, [str(t["side"]) for t in truths], jobs), strict=True
    ):
        if isinstance(reading, str):
            continue
        read += 1
        retake = reading.worth_retaking()
        found = reading.causes_seen()
        asked += retake
        asked_named += retake and bool(found)
        done = set(truth.get("hard") or ())
        for cause in found:
            named[retake][cause] += 1
            right[retake][cause] += bool(DONE[cause] & done)
        if retake:
            by_photo[path.name] = [str(c) for c in found]
    return {
        "folder": str(folder),
        "photos_read": read,
        "retakes": asked,
        "retakes_naming_a_cause": asked_named,
        "judged": judged,
        **{
            f"{'retakes' if retake else 'others'}_{cause}": [named[retake][cause], right[retake][cause]]
            for retake in (True, False)
            for cause in Cause
        },
        "causes_by_retake": by_photo,
    }


def show(results: list[dict[str, Any]]) -> str:
    """One column per folder: for each cause, named and (where the truth
    says) how many of those were done to the photo."""

    def told(key: str) -> Row:
        def cell(r: dict[str, Any]) -> str:
            n, ok = r[key]
            return f"{ok} of {n}" if r["judged"] else str(n)

        return key.replace("retakes_", "  asked, ").replace("others_", "  not asked, "), cell

    rows: list[Row] = [
        ("photos read", lambda r: str(r["photos_read"])),
        ("another photo asked", lambda r: str(r["retakes"])),
        ("  a cause named", lambda r: str(r["retakes_naming_a_cause"])),
    ]
    rows += [told(f"retakes_{cause}") for cause in Cause]
    rows += [told(f"others_{cause}") for cause in Cause]
    return "\n".join(columns(rows, results, label_width=24))


def main() -> None:
    main_over_folders(__doc__, bench, show)


if __name__ == "__main__":
    main()
