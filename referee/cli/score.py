"""``referee score``: score map files against scoring cards."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from referee.rules.cards import ScoringCard, all_cards, card_named
from referee.rules.errors import MapError, RefereeError
from referee.rules.season import check_coins, coin_warning, monster_penalty, surrounded_mountains
from referee.rules.sheet import MapSheet

NAME = "score"
HELP = "Score map files (11 lines of 11 map codes) against scoring cards."
MAX_MAP_BYTES = 64 * 1024


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("maps", metavar="MAP_FILE", nargs="+", type=Path, help="map text files")
    parser.add_argument("--side", required=True, type=str.upper, choices="ABCD", help="map side")
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--card", action="append", metavar="NAME", help="a scoring card (repeatable)")
    which.add_argument("--all-cards", action="store_true", help="score all 32 cards")
    parser.add_argument("--coins", type=int, default=None, help="filled coin symbols on the track")
    parser.add_argument("--json", action="store_true", help="one JSON object per map, one per line")


def fail(message: str) -> int:
    print(f"referee score: {message}", file=sys.stderr)
    return 2


def read_map(path: Path, side: str) -> MapSheet:
    try:
        if path.stat().st_size > MAX_MAP_BYTES:
            raise MapError("this is far too large to be a map file (11 lines of 11 characters)")
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise MapError("no such file") from None
    except IsADirectoryError:
        raise MapError("this is a folder, not a map file") from None
    except UnicodeDecodeError:
        raise MapError("this is not a text file; a map is 11 lines of 11 map codes") from None
    except OSError as e:
        raise MapError(f"cannot be read ({e.strerror})") from None
    return MapSheet.parse(text, side)


def score_one(sheet: MapSheet, cards: list[ScoringCard], coins: int | None) -> dict[str, Any]:
    penalty, _ = monster_penalty(sheet)
    mountains = surrounded_mountains(sheet)
    result: dict[str, Any] = {
        "side": sheet.side.letter,
        "cards": {card.name: card.score(sheet).stars for card in cards},
        "monsters": penalty,
        "surrounded_mountains": len(mountains),
    }
    if coins is not None:
        result["coins"] = coins
        warning = coin_warning(sheet, coins)
        if warning:
            result["warning"] = warning
    return result


def run(args: argparse.Namespace) -> int:
    try:
        cards = list(all_cards()) if args.all_cards else [card_named(n) for n in args.card]
    except RefereeError as e:
        return fail(str(e))
    results = []
    for path in args.maps:
        try:
            sheet = read_map(path, args.side)
            coins = None if args.coins is None else check_coins(sheet, args.coins)
        except RefereeError as e:
            return fail(f"{path}: {e}")
        results.append((path, score_one(sheet, cards, coins)))
    for path, result in results:
        if args.json:
            print(json.dumps(result, ensure_ascii=False))
        else:
            print(render(path, result))
    return 0


def render(path: Path, result: dict[str, Any]) -> str:
    width = max(len(n) for n in result["cards"]) if result["cards"] else 10
    lines = [f"{path} (side {result['side']})"]
    lines += [f"  {name:<{width}}  {stars:>3}" for name, stars in result["cards"].items()]
    if "coins" in result:
        lines.append(f"  {'coins':<{width}}  {result['coins']:>3}")
    lines.append(f"  {'monsters':<{width}}  {result['monsters']:>3}")
    lines.append(f"  {'surrounded mountains':<{width}}  {result['surrounded_mountains']:>3}")
    if "warning" in result:
        lines.append(f"  warning: {result['warning']}")
    return "\n".join(lines)
