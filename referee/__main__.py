"""``python -m referee``: the command line."""

from referee.cli import main

raise SystemExit(main())
