"""The engine stays pure, the code typed and lint-clean (run here so the one test
command checks everything CI checks)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_rules_engine_imports_no_flask_opencv_or_database() -> None:
    code = (
        "import sys, referee.rules.cards, referee.rules.season, referee.rules.game, referee.rules.sheet\n"
        "import importlib.util\n"
        "if importlib.util.find_spec('referee.rules.deck'): import referee.rules.deck\n"
        "bad = [m for m in ('flask', 'cv2', 'sqlalchemy', 'numpy', 'PIL') if m in sys.modules]\n"
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_nothing_reads_the_shared_folder() -> None:
    offenders = [
        str(p.relative_to(ROOT))
        for p in (ROOT / "referee").rglob("*")
        if p.suffix in {".py", ".html", ".js", ".json"} and "shared/" in p.read_text(errors="ignore")
    ]
    assert offenders == []


def _tool(name: str) -> list[str]:
    """The tool as this interpreter runs it, whether or not its script is on PATH."""
    if importlib.util.find_spec(name) is None:
        pytest.skip(f"{name} is not installed (pip install -e '.[test]')")
    return [sys.executable, "-m", name]


def test_ruff_lint() -> None:
    result = subprocess.run(
        [*_tool("ruff"), "check", "referee", "tests", "bench", "tools"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_on_every_layer() -> None:
    """pyproject.toml's [tool.mypy]: the whole package, strictly."""
    result = subprocess.run(_tool("mypy"), cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
