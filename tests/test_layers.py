"""Every import points down the layers, as ``tests/test_code_quality.py``
keeps the rules engine pure:

    rules (pure)  <-  vision, store  <-  table  <-  web  <-  cli

The table layer plays a table without Flask; the web package speaks HTTP and
reaches the database only through the table layer (its one wiring module,
``web/database.py``, opens a session per request); and no module imports
back up, so there is no import circle."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "referee"

#: The referee packages each layer may import (its own included).
ALLOWED = {
    "rules": {"rules"},
    "data": set(),
    "vision": {"rules", "vision"},
    "store": {"store"},
    "table": {"rules", "store", "table"},
    "web": {"rules", "vision", "table", "web"},
    "cli": {"rules", "vision", "store", "table", "web", "cli"},
}
#: Outside libraries a layer must never import.
FORBIDDEN = {
    "rules": {"flask", "flask_wtf", "werkzeug", "sqlalchemy", "cv2", "numpy", "PIL"},
    "store": {"flask", "flask_wtf", "werkzeug"},
    "table": {"flask", "flask_wtf", "werkzeug", "wtforms", "markupsafe", "cv2"},
    "web": {"sqlalchemy"},
}
#: The web modules that wire the app to the database: its sessions, and the migrations' commands.
WIRING = {"referee.web.database": {"store"}, "referee.web.migrations": {"store"}}
WIRING_LIBRARIES = {"referee.web.database": {"sqlalchemy"}}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_module(name: str) -> bool:
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def imports(path: Path) -> set[str]:
    """Every module ``path`` imports, at the top or inside a function."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path}: relative import"
            assert node.module is not None
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                found.add(sub if node.module.startswith("referee") and is_module(sub) else node.module)
    return found


MODULES = {
    module_name(path): imports(path)
    for path in sorted(PACKAGE.rglob("*.py"))
    if path.parent != PACKAGE  # referee/__init__.py and __main__.py wire the layers together
}


def layer(name: str) -> str:
    return name.split(".")[1]


@pytest.mark.parametrize("name", sorted(MODULES))
def test_imports_point_down_the_layers(name: str) -> None:
    own = layer(name)
    wiring = WIRING.get(name, set())
    upward = sorted(
        m for m in MODULES[name] if m.startswith("referee.") and layer(m) not in ALLOWED[own] | wiring
    )
    assert upward == [], f"{name} imports {upward}"
    libraries = {m.split(".")[0] for m in MODULES[name]}
    banned = sorted(libraries & (FORBIDDEN.get(own, set()) - WIRING_LIBRARIES.get(name, set())))
    assert banned == [], f"{name} imports {banned}"


def test_no_import_circle() -> None:
    graph = {name: {m for m in found if m in MODULES} for name, found in MODULES.items()}
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        if name in path:
            pytest.fail("import circle: " + " -> ".join([*path[path.index(name) :], name]))
        if name in done:
            return
        for nxt in sorted(graph[name]):
            visit(nxt, [*path, name])
        done.add(name)

    for name in sorted(graph):
        visit(name, [])


def database_calls(path: Path) -> list[str]:
    """Queries and session calls in a module: ``select(...)`` and its kin,
    and any method called on a session (``session.x()``, ``db.session.x()``,
    ``get_session().x()``)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id in {"select", "update", "delete", "insert", "text"}:
            found.append(f"{path.name}:{node.lineno}: {func.id}(...)")
        if isinstance(func, ast.Attribute):
            receiver = func.value
            if isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Name):
                receiver = receiver.func
            named = receiver.attr if isinstance(receiver, ast.Attribute) else getattr(receiver, "id", "")
            if named in {"session", "db", "get_session", "db_session"}:
                found.append(f"{path.name}:{node.lineno}: {named}.{func.attr}(...)")
    return found


def test_web_makes_no_database_calls() -> None:
    offenders = [call for path in sorted((PACKAGE / "web").rglob("*.py")) for call in database_calls(path)]
    assert offenders == []


def test_the_database_call_check_finds_them(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "rows = session.scalars(select(Seat))\nget_session().commit()\ndb.session.add(x)\nok = sessions()\n"
    )
    assert sorted(call.split(": ")[1] for call in database_calls(sample)) == [
        "get_session.commit(...)",
        "select(...)",
        "session.add(...)",
        "session.scalars(...)",
    ]


def test_the_table_layer_plays_a_season_without_flask() -> None:
    """Set up a table, reveal spring, save and score a sheet, all in a fresh
    interpreter: neither Flask nor the web package is ever imported."""
    script = """
import sys
from referee.rules import deck
from referee.store import session_factory
from referee.table import Table, hosting, scoring, sheets

session = session_factory("sqlite://")()
setup = deck.Setup(edition="base", seed="no-flask").check()
t = Table.of(hosting.set_up(session, setup, "A", ["Ann"]).table)
sheet = sheets.open_sheet(session, t, t.seat(1), 0)
blank = sheet.map_text
sheets.save(session, t, t.seat(1), 0, {"revision": sheet.revision, "map": blank, "coins": 2})
for _ in t.deal.seasons[0].turns:
    hosting.reveal(session, t.table, t.table.taps)
t = Table.of(t.table)
print(scoring.score(session, t, t.seat(1), 0).coins)
print(",".join(m for m in ("flask", "werkzeug", "flask_wtf", "referee.web") if m in sys.modules))
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["2", ""]
