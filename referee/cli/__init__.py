"""``referee COMMAND`` (or ``python -m referee COMMAND``): one module per command.

Each command module has ``NAME``, ``HELP``, ``EXAMPLE``, ``add_arguments(parser)``
and ``run(args) -> int``. A command module imports only argparse-level things
at the top and its machinery (the rules engine, the photo reader with numpy
and OpenCV, the PDF renderer) inside ``run``: the parser needs every command's
arguments, but ``score`` should not wait a third of a second for OpenCV.

Errors meant for a person exit with status 2 and one line on stderr. ``-`` in
place of a file name means standard input or standard output, so the commands
compose: ``referee scan photo.jpg --side A | referee score - --side A --all-cards``.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import NoReturn

from referee.cli import cards, deal, scan, score, sheet

COMMANDS: tuple[ModuleType, ...] = (score, cards, scan, deal, sheet)


class Parser(argparse.ArgumentParser):
    """argparse, but usage errors are one line, like every other error."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message}\n")


def overview() -> str:
    """Every command with its purpose and a one-line example."""
    width = max(len(module.NAME) for module in COMMANDS)
    lines = ["commands (referee COMMAND --help for its options):"]
    for module in COMMANDS:
        lines.append(f"  {module.NAME:<{width}}  {module.HELP}")
        lines.append(f"  {'':<{width}}  e.g. {module.EXAMPLE}")
    return "\n".join(lines)


def build_parser() -> tuple[Parser, dict[str, ModuleType]]:
    parser = Parser(
        prog="referee",
        usage="referee COMMAND [options]",
        description="Cartographers table companion: score maps, list the scoring cards, "
        "read sheet photos, deal games and print map sheets.",
        epilog=overview(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(
        dest="command", metavar="COMMAND", help=argparse.SUPPRESS, parser_class=Parser
    )
    by_name = {}
    for module in COMMANDS:
        command = sub.add_parser(
            module.NAME,
            prog=f"referee {module.NAME}",
            description=module.HELP,
            epilog=f"example: {module.EXAMPLE}",
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        module.add_arguments(command)
        by_name[module.NAME] = module
    return parser, by_name


def main(argv: Sequence[str] | None = None) -> int:
    parser, commands = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(commands[args.command].run(args))
    except BrokenPipeError:
        # The reader went away (``| head``): point stdout at devnull so the
        # flush at exit does not complain about the closed pipe.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
