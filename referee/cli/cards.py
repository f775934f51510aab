"""``referee cards``: every scoring card with its set, edict family and rule.

``score --card NAME`` wants the printed name; this is where to find it. One
card per line, so ``referee cards | grep village`` finds the village cards.
"""

from __future__ import annotations

import argparse
import json

NAME = "cards"
HELP = "List the 32 scoring cards: printed name, set, edict family (card back) and rule."
EXAMPLE = "referee cards | grep forest"

SETS = {"base": "Cartographers", "heroes": "Heroes"}
"""The set each card comes in, as the web's setup form names it."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--json",
        action="store_true",
        help="one JSON object per card, one per line: name, set, family, rule, solo",
    )


def run(args: argparse.Namespace) -> int:
    from referee.rules.data import CARD_BACK_NAMES, scoring_card_infos

    infos = scoring_card_infos()
    if args.json:
        for info in infos:
            entry = {
                "name": info.name,
                "set": info.game,
                "family": CARD_BACK_NAMES[info.back],
                "rule": info.rule,
                "solo": info.solo,
            }
            print(json.dumps(entry, ensure_ascii=False))
        return 0
    name = max(len(info.name) for info in infos)
    game = max(len(s) for s in SETS.values())
    family = max(len(f) for f in CARD_BACK_NAMES.values())
    for info in infos:
        columns = (
            f"{info.name:<{name}}",
            f"{SETS[info.game]:<{game}}",
            f"{CARD_BACK_NAMES[info.back]:<{family}}",
        )
        print("  ".join((*columns, info.rule)))
    return 0
