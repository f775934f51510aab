"""``referee deal``: print a whole game's deal for a seed, so a table can check
the app's dealer by hand or play from a printed list."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from referee.rules.deck import EDITION_NAMES, Deal, Setup, deal
from referee.rules.errors import RefereeError

NAME = "deal"
HELP = "Print the scoring cards and every card revealed in a game dealt from a seed."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", required=True, metavar="TEXT", help="any word or phrase")
    parser.add_argument("--edition", required=True, choices=("base", "heroes"), help="which game")
    parser.add_argument("--json", action="store_true", help="one JSON object")


def run(args: argparse.Namespace) -> int:
    try:
        dealt = deal(Setup(edition=args.edition, seed=args.seed))
    except RefereeError as e:
        print(f"referee deal: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(dealt.to_json(), ensure_ascii=False))
    else:
        print(render(dealt))
    return 0


def _reveal(r: dict[str, Any]) -> str:
    if r["kind"] == "ruins":
        return f"{r['name']} (ruins: the next explore card must overlap ruins)"
    if r["kind"] in ("ambush", "hero"):
        return f"{r['name']} ({r['kind']})"
    return f"{r['name']} ({r['time']}{', on ruins' if r['ruins'] else ''})"


def render(dealt: Deal) -> str:
    """A readable listing: the edicts, then each season turn by turn."""
    data = dealt.to_json()
    lines = [
        f"{EDITION_NAMES[data['edition']]}, seed {data['seed']!r} (dealer version {data['version']})",
        "Edicts: " + ", ".join(f"{letter} {name}" for letter, name in data["edicts"].items()),
    ]
    for season in dealt.seasons:
        lines += [
            "",
            f"{season.name.capitalize()}: threshold {season.threshold}, edicts "
            f"{' and '.join(season.edicts)}; shuffled in: {', '.join(season.ambushes_added)}",
        ]
        for number, turn in enumerate(season.turns, 1):
            reveals = [
                {"name": r.name, "kind": r.kind, "time": r.time, "ruins": r.ruins} for r in turn.reveals
            ]
            lines.append(
                f"  {number:>2}. {' -> '.join(_reveal(r) for r in reveals)}  [time {turn.time_after}]"
            )
        lines.append(f"  {season.name.capitalize()} ends at time {season.time}.")
    return "\n".join(lines)
