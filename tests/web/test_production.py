"""A real server: the README's gunicorn recipe, started as written on a fresh
instance folder, serves a page, sets up a table and reveals a card, and a
follower's event stream (on whichever worker it meets) is sent the card;
several workers starting at once agree on one schema and one secret key."""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from referee.store.db import create_schema, make_engine
from referee.web.app import EmptySecretKey, _instance_secret
from tests.web.conftest import Browserless, EventStream, csrf_token, live_table, setup_form
from tests.web_photo.conftest import multipart

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")

# --- starting several processes at the same moment ---------------------------------------------------

RACE = """
import sys, time
from pathlib import Path
go = Path(sys.argv[1])
while not go.exists():
    time.sleep(0.002)
{body}
"""


def race(tmp_path: Path, body: str, count: int = 4) -> list[str]:
    """Run ``body`` in ``count`` fresh interpreters released together; their outputs."""
    go = tmp_path / "go"
    script = RACE.format(body=body)
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(go)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(count)
    ]
    time.sleep(1.5)  # let every interpreter import what it needs and wait
    go.touch()
    outputs = []
    for proc in procs:
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
        outputs.append(out.strip())
    return outputs


def test_workers_starting_at_once_create_the_schema_once(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'referee.sqlite'}"
    body = (
        "from referee.store.db import create_schema, make_engine\n"
        f"create_schema(make_engine({url!r}))\nprint('ok')"
    )
    for n in range(3):
        (tmp_path / f"run{n}").mkdir()
        assert race(tmp_path / f"run{n}", body, count=4) == ["ok"] * 4
        if n < 2:
            (tmp_path / "referee.sqlite").unlink()
            for extra in tmp_path.glob("referee.sqlite-*"):
                extra.unlink()
    engine = make_engine(url)
    create_schema(engine)  # and again, on a schema that is there
    engine.dispose()


def test_workers_starting_at_once_share_one_whole_key(tmp_path: Path) -> None:
    for n in range(3):
        folder = tmp_path / f"instance{n}"
        folder.mkdir()
        body = f"from referee.web.app import _instance_secret\nprint(_instance_secret(Path({str(folder)!r})))"
        keys = race(folder, body, count=4)
        assert len(set(keys)) == 1 and len(keys[0]) == 64, keys
        key_file = folder / "secret_key"
        assert key_file.read_text() == keys[0]
        assert key_file.stat().st_mode & 0o777 == 0o600
        assert sorted(p.name for p in folder.iterdir()) == ["go", "secret_key"]  # no temporary file left


def test_an_empty_key_file_is_never_used(tmp_path: Path) -> None:
    (tmp_path / "secret_key").write_text("\n")
    with pytest.raises(EmptySecretKey, match="is empty: delete it and a new key is made, or set SECRET_KEY"):
        _instance_secret(tmp_path)


# --- the README's recipe ------------------------------------------------------------------------------


def recipe() -> list[str]:
    """The README's one-line gunicorn command, as words."""
    found = re.search(r"^SECRET_KEY=\S+ gunicorn .*$", README, re.M)
    assert found, "the README gives no gunicorn recipe"
    return shlex.split(found.group(0))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(port: int, proc: subprocess.Popen[str], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"gunicorn stopped: {proc.communicate()[1]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.2)
    pytest.fail("gunicorn did not open its port")


def start_recipe(tmp_path: Path, *more: str) -> tuple[subprocess.Popen[str], int, Path]:
    """The README's recipe, exactly, but on loopback and a free port, with a
    fresh instance folder and the options ``more`` after its own; the server,
    its port and its instance folder."""
    words = recipe()
    env_words = [w for w in words if re.match(r"^[A-Z_]+=", w)]
    command = words[len(env_words) :]
    assert command[0] == "gunicorn" and "'referee:create_app()'" in README and "-w" in command
    assert command[command.index("-k") + 1] == "gevent"  # workers that hold a hall's event streams
    port = free_port()
    bind = command.index("-b")
    assert command[bind + 1] == "0.0.0.0:8000"
    command[bind + 1] = f"127.0.0.1:{port}"
    gunicorn = Path(sys.executable).with_name("gunicorn")
    command[0] = str(gunicorn) if gunicorn.exists() else "gunicorn"
    instance = tmp_path / "instance"
    env = {**os.environ, **dict(w.split("=", 1) for w in env_words), "REFEREE_INSTANCE": str(instance)}
    env["REFEREE_STREAM_SECONDS"] = "3"  # streams end soon, so the stop below need not wait for them
    env.pop("DATABASE_URL", None)
    # Run from this tree, so that gunicorn imports the referee under test (the current directory wins).
    proc = subprocess.Popen(
        [*command, *more], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    return proc, port, instance


@pytest.mark.slow
def test_the_readme_server_recipe_runs_a_table(tmp_path: Path) -> None:
    proc, port, instance = start_recipe(tmp_path)
    try:
        wait_for(port, proc)
        http = Browserless(f"http://127.0.0.1:{port}")
        status, page, _ = http.request("/")
        assert status == 200 and "Set up a table" in page
        for _attempt in range(3):  # each request may meet either worker
            status, _, headers = http.request("/", {**setup_form(), "csrf_token": csrf_token(page)})
            assert status == 303, status
            found = re.search(r"/t/([A-Z0-9]+)/host/([^/?#]+)$", headers["Location"])
            assert found
            code, token = found.groups()
            status, host, _ = http.request(f"/t/{code}/host/{token}")
            assert status == 200
            follower = EventStream(http.base, f"/t/{code}/events?taps=0")
            assert follower.status == 200
            form = {"csrf_token": csrf_token(host), "host": token, "taps": "0"}
            status, _, _ = http.request(f"/t/{code}/reveal", form)
            assert status == 303, status
            status, state, _ = http.request(f"/api/t/{code}", accept="application/json")
            assert status == 200 and '"taps":1' in state.replace(" ", "")
            pushed = follower.next_event()
            follower.close()
            assert pushed is not None and pushed[:2] == ("panel", "1") and 'data-taps="1"' in pushed[2]
        assert (instance / "referee.sqlite").exists()
        assert not (instance / "secret_key").exists()  # the recipe gives the key
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    assert "Traceback" not in err and "already exists" not in err, err


@pytest.mark.slow
def test_a_photo_being_read_holds_up_no_other_page(tmp_path: Path) -> None:
    """A photo read under the recipe (one worker, so that every page meets
    it) takes its worker's loop no longer: a reveal made while it is read
    reaches a follower's stream before the photo is answered, and a read
    longer than gunicorn's ``--timeout`` no longer gets the worker killed.
    The sample read here takes some seconds (it searches 17 placements)."""
    photo = (ROOT / "sample_sheets" / "008.jpg").read_bytes()
    side = json.loads((ROOT / "sample_sheets" / "008.json").read_text())["side"]
    proc, port, _ = start_recipe(tmp_path, "-w", "1", "--timeout", "3")
    try:
        wait_for(port, proc)
        http = Browserless(f"http://127.0.0.1:{port}")
        code, token = live_table(http, edition="heroes", map_side=side)
        _, host, _ = http.request(f"/t/{code}/host/{token}")  # the host may read any seat's sheet
        _, editor, _ = http.request(f"/t/{code}/sheets/1/spring")
        follower = EventStream(http.base, f"/t/{code}/events?taps=0")
        assert follower.status == 200
        answered: list[str] = []

        def sent(data: bytes) -> urllib.request.Request:
            """The editor's photo form with ``data``, answered in JSON."""
            body, content_type = multipart({"csrf_token": csrf_token(editor)}, data)
            headers = {"Content-Type": content_type, "Accept": "application/json"}
            return urllib.request.Request(f"{http.base}/t/{code}/sheets/1/spring/photo", body, headers)

        def read() -> tuple[int, str]:
            with http.opener.open(sent(photo), timeout=60) as response:
                answered.append("photo")
                return response.status, response.read().decode()

        with ThreadPoolExecutor(1) as pool:
            reading = pool.submit(read)
            time.sleep(0.3)  # the photo is sent and being read
            form = {"csrf_token": csrf_token(host), "host": token, "taps": "0"}
            assert http.request(f"/t/{code}/reveal", form)[0] == 303
            pushed = follower.next_event()
            answered.append("reveal")
            status, text = reading.result()
        follower.close()
        assert pushed is not None and pushed[:2] == ("panel", "1")
        assert status == 200 and len(json.loads(text)["grid"]) == 11
        assert answered == ["reveal", "photo"]
        # a file that is no photo: the reading thread's refusal is the player's sentence
        with pytest.raises(urllib.error.HTTPError) as refused:
            http.opener.open(sent(b"Cartographers is a game.\n" * 50), timeout=60)
        assert refused.value.code == 400 and "not a picture" in json.loads(refused.value.read())["error"]
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    assert "WORKER TIMEOUT" not in err and "Traceback" not in err, err
