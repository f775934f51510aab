"""``python -m referee COMMAND``: one module per command.

Each command module has ``NAME``, ``HELP``, ``add_arguments(parser)`` and
``run(args) -> int``. Errors meant for a person exit with status 2 and one
line on stderr.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from types import ModuleType

from referee.cli import deal, scan, score, sheet

COMMANDS: tuple[ModuleType, ...] = (score, sheet, deal, scan)


class Parser(argparse.ArgumentParser):
    """argparse, but usage errors are one line, like every other error."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: {message}\n")


def main(argv: Sequence[str] | None = None) -> int:
    parser = Parser(prog="referee", description="Cartographers table companion.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    runners = {}
    for module in COMMANDS:
        command = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.add_arguments(command)
        runners[module.NAME] = module.run
    args = parser.parse_args(argv)
    try:
        return int(runners[args.command](args))
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
