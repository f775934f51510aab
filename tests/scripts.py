"""The project's scripts (``tools/``, ``bench/``) loaded as modules, for the
tests that check what they compute: they are programs, not a package."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def load_script(relative: str) -> ModuleType:
    """The script at ``relative`` (to the checkout), run as a module, and
    known by its name to ``sys.modules``, so that a process pool can name
    its functions to the processes it starts."""
    path = ROOT / relative
    spec = importlib.util.spec_from_file_location(f"script_{path.parent.name}_{path.stem}", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
