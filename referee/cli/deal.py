"""``referee deal``: print a whole game's deal for a seed, so a table can check
the app's dealer by hand or play from a printed list.

It accepts every setup the web's setup form accepts and builds the same
``Setup`` from it (``referee.web.forms.SetupForm.validate``): the edition's own
cards for the base game and Heroes; for the two combined, the season and
explore cards, the hero cards and four ambush cards, drawn at random from the
seed (as the web's form does by default) or named. The same seed and setup
deal the same bytes here and on the web. The dealer is imported only
when this command runs.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any, TypedDict

if TYPE_CHECKING:
    from referee.rules.deck import Deal, Setup

NAME = "deal"
HELP = "Print the scoring cards and every card revealed in a game dealt from a seed."
EXAMPLE = "referee deal --seed amber-fox-417 --edition base"

# The dealer's own names for its choices (referee.rules.deck and .data; a test
# keeps them equal), spelled out here so the parser does not import the dealer.
EDITIONS = ("base", "heroes", "combined")
GAMES = ("base", "heroes")
EDICT_MODES = ("random", "first_game", "chosen")
AMBUSH_MODES = ("random", "chosen")


class SetDefaults(TypedDict):
    """The season cards, explore cards and heroes a setup gets when not chosen."""

    season_set: str
    explore_set: str
    heroes: bool | None


COMBINED_DEFAULTS: SetDefaults = {"season_set": "base", "explore_set": "base", "heroes": True}
"""What the web's setup form offers a combined game before the host changes it."""
NOT_COMBINED_DEFAULTS: SetDefaults = {"season_set": "", "explore_set": "", "heroes": None}
"""The same for the base game and Heroes, which have no such choices."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", required=True, metavar="TEXT", help="any word or phrase")
    parser.add_argument("--edition", required=True, type=str.lower, choices=EDITIONS, help="which game")
    combined = parser.add_argument_group("combining the two games (--edition combined)")
    combined.add_argument("--season-cards", type=str.lower, choices=GAMES, help="whose season cards (base)")
    combined.add_argument("--explore-cards", type=str.lower, choices=GAMES, help="whose explore cards (base)")
    combined.add_argument(
        "--heroes",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="hero cards in the explore deck (yes)",
    )
    combined.add_argument(
        "--ambushes",
        type=str.lower,
        choices=AMBUSH_MODES,
        help="four ambush cards at random from the seed (the default), or chosen with --ambush",
    )
    combined.add_argument(
        "--ambush",
        action="append",
        default=[],
        metavar="NAME",
        help="an ambush card, four times (implies --ambushes chosen)",
    )
    edicts = parser.add_argument_group("scoring cards")
    edicts.add_argument(
        "--edicts",
        type=lambda text: text.lower().replace("-", "_"),
        choices=EDICT_MODES,
        help="at random from the seed (the default), the Heroes first-game set, or chosen",
    )
    edicts.add_argument(
        "--chosen",
        nargs=4,
        metavar=("A", "B", "C", "D"),
        help="the scoring cards under edicts A to D (implies --edicts chosen)",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object")


def fail(message: str) -> int:
    print(f"referee deal: {message}", file=sys.stderr)
    return 2


def ambush_mode(args: argparse.Namespace) -> str:
    """'chosen' when --ambush names cards (or --ambushes says so), else 'random'."""
    return args.ambushes or ("chosen" if args.ambush else "random")


def setup_of(args: argparse.Namespace) -> Setup:
    """The ``Setup`` the web's form builds from the same choices (unchecked)."""
    from referee.rules.deck import Setup, ambushes_at_random

    combined = args.edition == "combined"
    defaults = COMBINED_DEFAULTS if combined else NOT_COMBINED_DEFAULTS
    edicts = args.edicts or ("chosen" if args.chosen else "random")
    ambushes = tuple(args.ambush)
    if combined and ambush_mode(args) == "random":
        ambushes = ambushes_at_random(args.seed)
    return Setup(
        edition=args.edition,
        seed=args.seed,
        season_set=args.season_cards or defaults["season_set"],
        explore_set=args.explore_cards or defaults["explore_set"],
        heroes=defaults["heroes"] if args.heroes is None else args.heroes,
        ambushes=ambushes,
        edicts=edicts,
        chosen=tuple(args.chosen) if edicts == "chosen" and args.chosen else None,
    )


def run(args: argparse.Namespace) -> int:
    from referee.rules import data
    from referee.rules.deck import deal
    from referee.rules.errors import RefereeError

    if args.ambushes and args.edition != "combined":
        return fail("--ambushes is for --edition combined; the other games use their own four ambush cards")
    if args.ambushes == "random" and args.ambush:
        return fail("--ambush names the ambush cards, but --ambushes is random")
    if args.edition == "combined" and ambush_mode(args) == "chosen" and len(args.ambush) != 4:
        names = ", ".join(a.name for a in data.ambush_cards())
        return fail(
            f"a combined game with chosen ambushes needs four --ambush NAME options, not {len(args.ambush)}: "
            f"choose any four of {names}"
        )
    if args.chosen and args.edicts not in (None, "chosen"):
        return fail(f"--chosen names the cards under the edicts, but --edicts is {args.edicts}")
    try:
        dealt = deal(setup_of(args))
    except RefereeError as e:
        return fail(str(e))
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
    from referee.rules.deck import EDITION_NAMES

    data = dealt.to_json()
    lines = [f"{EDITION_NAMES[data['edition']]}, seed {data['seed']!r} (dealer version {data['version']})"]
    if data["edition"] == "combined":
        options = data["options"]
        lines.append(
            f"Season cards: {options['season_set']}; explore cards: {options['explore_set']}; "
            f"hero cards: {'yes' if options['heroes'] else 'no'}; ambushes: {', '.join(options['ambushes'])}"
        )
    lines.append("Edicts: " + ", ".join(f"{letter} {name}" for letter, name in data["edicts"].items()))
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
