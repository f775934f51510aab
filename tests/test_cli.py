"""The command line as a whole: the overview with no command, what each command
imports at start-up, and the constants it spells out to stay light."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from referee.cli import COMMANDS, deal, main, sheet

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("cv2", "numpy", "PIL", "flask", "sqlalchemy")


def modules_after(code: str) -> set[str]:
    """The heavy modules loaded once ``code`` has run in a fresh interpreter."""
    probe = f"{code}\nimport sys\nprint(' '.join(m for m in {HEAVY!r} if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    return set(done.stdout.split())


def test_no_command_prints_the_usage_and_every_command_with_an_example(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main([]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("usage: referee COMMAND")
    assert "the following arguments are required" not in err
    for module in COMMANDS:
        assert f"  {module.NAME}  " in err
        assert f"e.g. {module.EXAMPLE}" in err


def test_python_dash_m_with_no_command_shows_the_commands() -> None:
    done = subprocess.run([sys.executable, "-m", "referee"], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 2
    assert "referee score examples/maps/" in done.stderr and "referee cards" in done.stderr


def test_each_command_has_help_with_its_example(capsys: pytest.CaptureFixture[str]) -> None:
    for module in COMMANDS:
        with pytest.raises(SystemExit) as caught:
            main([module.NAME, "--help"])
        assert caught.value.code == 0
        out = capsys.readouterr().out
        assert out.startswith(f"usage: referee {module.NAME} ")
        assert f"example: {module.EXAMPLE}" in out


def test_importing_the_package_and_the_command_line_loads_nothing_heavy() -> None:
    assert modules_after("import referee") == set()
    assert modules_after("import referee.cli") == set()


def test_score_runs_without_the_photo_reader_or_the_web() -> None:
    code = (
        "import contextlib, io\n"
        "from referee.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    assert main(['score', 'examples/maps/wilderness-a.txt', '--side', 'A', '--all-cards']) == 0"
    )
    assert modules_after(code) == set()


def test_score_does_not_import_cv2_in_a_real_run() -> None:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "referee", "score"]
        + ["examples/maps/wilderness-a.txt", "--side", "A", "--all-cards"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 0
    imported = {line.split("|")[-1].strip() for line in done.stderr.splitlines() if "|" in line}
    assert "referee.rules.cards" in imported  # the probe sees the imports at all
    assert not {"cv2", "numpy", "PIL", "flask"} & imported


def test_create_app_stays_reachable_from_the_package() -> None:
    import referee

    assert callable(referee.create_app)
    assert modules_after("import referee; referee.create_app") == set()


def test_the_spelled_out_choices_match_the_engine_and_the_renderer() -> None:
    from referee.rules import data
    from referee.rules import deck as dealer
    from referee.vision.printable import PAPERS

    assert set(sheet.PAPERS) == set(PAPERS)
    assert deal.EDITIONS == dealer.EDITIONS
    assert deal.GAMES == data.GAMES
    assert deal.EDICT_MODES == dealer.EDICT_MODES
