"""``referee score``: score map files against scoring cards.

The rules engine is imported inside ``run`` (see ``referee.cli``), and this
command never imports the photo reader: a test checks that ``cv2`` stays out.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from referee.cli.streams import STDIO, describe, read_bytes

if TYPE_CHECKING:
    from referee.rules.cards import ScoringCard
    from referee.rules.sheet import MapSheet

NAME = "score"
HELP = "Score map files (11 lines of 11 map codes; - for standard input) against scoring cards."
EXAMPLE = "referee score examples/maps/wilderness-a.txt --side A --card 'Sentinel Wood' --coins 3"
MAX_MAP_BYTES = 64 * 1024


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("maps", metavar="MAP_FILE", nargs="+", help="map text files; - reads standard input")
    parser.add_argument("--side", required=True, type=str.upper, choices="ABCD", help="map side")
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument(
        "--card",
        action="append",
        metavar="NAME",
        help="a scoring card as printed (repeatable; see referee cards)",
    )
    which.add_argument("--all-cards", action="store_true", help="score all 32 cards")
    parser.add_argument("--coins", type=int, default=None, help="filled coin symbols on the track")
    parser.add_argument("--json", action="store_true", help="one JSON object per map, one per line")


def fail(message: str) -> int:
    print(f"referee score: {message}", file=sys.stderr)
    return 2


def read_map(name: str, side: str) -> MapSheet:
    """The map in file ``name`` (``-``: standard input), or ``MapError``
    with a sentence saying what is wrong with it."""
    from referee.rules.errors import MapError
    from referee.rules.sheet import MapSheet

    too_large = MapError("this is far too large to be a map file (11 lines of 11 characters)")
    try:
        raw = read_bytes(name, MAX_MAP_BYTES)
        if len(raw) > MAX_MAP_BYTES:
            raise too_large
        text = raw.decode("utf-8")
    except FileNotFoundError:
        raise MapError("no such file") from None
    except IsADirectoryError:
        raise MapError("this is a folder, not a map file") from None
    except UnicodeDecodeError:
        raise MapError("this is not a text file; a map is 11 lines of 11 map codes") from None
    except OSError as e:
        raise MapError(f"cannot be read ({e.strerror})") from None
    if not text.strip():
        raise MapError("it is empty; a map is 11 lines of 11 map codes")
    return MapSheet.parse(text, side)


def score_one(sheet: MapSheet, cards: list[ScoringCard], coins: int | None) -> dict[str, Any]:
    """One map's result, as ``--json`` prints it."""
    from referee.rules.season import coin_warning, monster_penalty, surrounded_mountains

    penalty, _ = monster_penalty(sheet)
    result: dict[str, Any] = {
        "side": sheet.side.letter,
        "cards": {card.name: card.score(sheet).stars for card in cards},
        "monsters": penalty,
        "surrounded_mountains": len(surrounded_mountains(sheet)),
    }
    if coins is not None:
        result["coins"] = coins
        warning = coin_warning(sheet, coins)
        if warning:
            result["warning"] = str(warning)
    return result


def run(args: argparse.Namespace) -> int:
    from referee.rules.cards import all_cards, card_named
    from referee.rules.errors import RefereeError, UnknownCardError
    from referee.rules.season import check_coins

    if args.maps.count(STDIO) > 1:
        return fail("standard input (-) can be read only once; name it once")
    try:
        cards = list(all_cards()) if args.all_cards else [card_named(n) for n in args.card]
    except UnknownCardError as e:
        return fail(f"{e} referee cards lists them all.")
    results = []
    for name in args.maps:
        try:
            sheet = read_map(name, args.side)
            coins = None if args.coins is None else check_coins(sheet, args.coins)
        except RefereeError as e:
            return fail(f"{describe(name)}: {e}")
        results.append((name, score_one(sheet, cards, coins)))
    for name, result in results:
        if args.json:
            print(json.dumps(result, ensure_ascii=False))
        else:
            print(render(describe(name), result))
    return 0


def render(title: str, result: dict[str, Any]) -> str:
    """A readable table: one aligned row per card, then coins, monsters, the
    surrounded mountains (already counted in the coins), and the total with
    what it adds up."""
    from referee.rules.i18n import ngettext

    stars = sum(result["cards"].values())
    coins = result.get("coins")
    total = stars + (coins or 0) + result["monsters"]
    rows: list[tuple[str, int]] = list(result["cards"].items())
    if coins is not None:
        rows.append(("coins", coins))
    rows.append(("monsters", result["monsters"]))
    rows.append(("surrounded mountains", result["surrounded_mountains"]))
    rows.append(("total", total))
    label = max(len(name) for name, _ in rows)
    digits = max(len(str(value)) for _, value in rows)
    added = [
        f"{stars} from {ngettext('%(num)d card', '%(num)d cards', len(result['cards']))}",
        "coins not given" if coins is None else str(ngettext("%(num)d coin", "%(num)d coins", coins)),
        f"{result['monsters']} for monsters",
    ]
    lines = [f"{title} (side {result['side']})"]
    for name, value in rows:
        line = f"  {name:<{label}}  {value:>{digits}}"
        if name == "total":
            line += f"  ({', '.join(added)})"
        lines.append(line)
    if "warning" in result:
        lines.append(f"  warning: {result['warning']}")
    return "\n".join(lines)
