"""pyproject.toml declares every third-party package the code imports, so a
fresh ``pip install -e .`` (or ``'.[test]'``) runs it: the package's imports
against ``dependencies``, the tests', benchmarks' and tools' against
``dependencies`` plus the ``test`` extra, and the ``train`` extra's (torch,
for ``tools/train_cells.py`` and its tests alone), installed or not. Imports inside functions count too
(the command line imports its machinery lazily)."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from collections.abc import Iterable
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
OWN = {"referee", "tests"}


def normalise(name: str) -> str:
    """A distribution name as PEP 503 compares them: 'Flask_WTF' is 'flask-wtf'."""
    return re.sub(r"[-_.]+", "-", name).lower()


def declared(requirements: Iterable[str]) -> set[str]:
    """The distribution names in requirement strings like 'psycopg[binary]>=3.1'."""
    names = set()
    for requirement in requirements:
        match = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement)
        assert match, requirement
        names.add(normalise(match.group()))
    return names


RUNTIME = declared(PYPROJECT["project"]["dependencies"])
#: Runtime dependencies the code runs as a program instead of importing, and
#: how the README's recipe for a real server names each: gunicorn serves the
#: app, with gevent's workers (``-k gevent``) holding the pages' event streams.
PROGRAMS = {"gunicorn": r"^\S+=\S+ gunicorn ", "gevent": r"^\S+=\S+ gunicorn .*-k gevent "}
TEST = declared(PYPROJECT["project"]["optional-dependencies"]["test"])
TRAIN = declared(PYPROJECT["project"]["optional-dependencies"]["train"])
#: The train extra's distributions by the module each is imported as: only
#: training the square classifier needs them, so a machine may lack them.
TRAIN_MODULES = {"torch": "torch"}


def third_party_imports(folder: Path) -> dict[str, str]:
    """Each top-level module imported under ``folder`` that is neither the
    standard library nor this project's own, with one file that imports it."""
    found: dict[str, str] = {}
    # scripts importing their neighbours, and tests importing the tools and benchmarks they test
    local = {p.stem for d in (folder, ROOT / "tools", ROOT / "bench") for p in d.glob("*.py")}
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules = [node.module]
            else:
                continue
            for module in modules:
                top = module.partition(".")[0]
                if top in sys.stdlib_module_names or top in OWN or top in local or top == "__future__":
                    continue
                found.setdefault(top, str(path.relative_to(ROOT)))
    return found


def undeclared(folder: str, allowed: set[str]) -> list[str]:
    """Sentences for each import under ``folder`` whose distribution is not in ``allowed``."""
    providers = packages_distributions()
    problems = []
    for module, where in third_party_imports(ROOT / folder).items():
        if TRAIN_MODULES.get(module) in allowed & TRAIN:
            continue  # declared in the train extra, installed or not
        distributions = {normalise(d) for d in providers.get(module, [])}
        if not distributions:
            problems.append(f"{where} imports {module}, which no installed distribution provides")
        elif not distributions & allowed:
            problems.append(f"{where} imports {module} from {', '.join(sorted(distributions))}, not declared")
    return problems


def test_the_package_declares_what_it_imports() -> None:
    assert undeclared("referee", RUNTIME) == []


@pytest.mark.parametrize("folder", ["tests", "bench", "tools"])
def test_tests_benchmarks_and_tools_need_only_the_test_and_train_extras(folder: str) -> None:
    assert undeclared(folder, RUNTIME | TEST | TRAIN) == []


def test_the_train_extra_is_allowed_only_where_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "mod.py").write_text("def late():\n    import torch\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert undeclared("pkg", RUNTIME | TEST | TRAIN) == []
    assert undeclared("pkg", RUNTIME) != []


def test_every_runtime_dependency_is_imported() -> None:
    providers = packages_distributions()
    imported = {
        normalise(d) for module in third_party_imports(ROOT / "referee") for d in providers.get(module, [])
    }
    assert RUNTIME - imported - set(PROGRAMS) == set()


@pytest.mark.parametrize("program", sorted(PROGRAMS))
def test_each_program_is_declared_and_its_recipe_is_in_the_readme(program: str) -> None:
    assert program in RUNTIME
    assert re.search(PROGRAMS[program], (ROOT / "README.md").read_text(encoding="utf-8"), re.M)


def test_the_checker_sees_an_undeclared_import(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "mod.py").write_text("import json\n\ndef late():\n    import wtforms\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert third_party_imports(tmp_path / "pkg") == {"wtforms": "pkg/mod.py"}
    assert undeclared("pkg", {"flask"}) == ["pkg/mod.py imports wtforms from wtforms, not declared"]
    assert undeclared("pkg", {"wtforms"}) == []


def test_python_version_matches_the_readme() -> None:
    assert PYPROJECT["project"]["requires-python"] == ">=3.11"
    assert "Python 3.11 or newer" in (ROOT / "README.md").read_text(encoding="utf-8")
    assert sys.version_info >= (3, 11)
