"""A hall of followers: N phones follow one table while the host reveals a card every 2 s.

    python bench/followers_bench.py [--url http://host:port] [--followers 100 300 1000]
        [--reveals 8] [--every 2.0] [--mode events|poll] [--database-url URL]
        [--photos FOLDER [--readers 2]]

Without ``--url`` it starts the README's gunicorn recipe itself (as written,
on loopback and a free port, on a fresh instance folder; ``--database-url``
sets ``DATABASE_URL`` for it) and stops it at the end. For each N it sets up
a table through the home page's form, connects N followers (200 a second,
as a hall's phones arrive), and reveals ``--reveals`` cards, one every
``--every`` seconds, as the host page does (a form POST with the CSRF token).

A follower is what ``static/js/table.js`` does in a browser, over raw
sockets with asyncio (one thread for all of them, so the load generator
shares the machine's cores with the server):

- ``events``: an ``EventSource``: one ``GET /t/<code>/events`` kept open;
  a card is shown when its ``panel`` event (the panel's HTML) has arrived;
- ``poll``: the fallback: ``GET /api/t/<code>`` once a second with
  ``If-None-Match`` (304 while nothing changed), and on a change
  ``GET /t/<code>/panel``; a card is shown when that panel has arrived.

With ``--photos``, ``--readers`` phones (2 by default) meanwhile send the
photos of FOLDER (``*.jpg``, in name order, round and round) to the
table's photo form, one after another each, as the editor's "Photograph
my sheet" does, and wait for each answer: what a table's phones do at a
season's end, while other tables reveal. More phones than the table's
three seats send to the seats in turn: a hall's season end, whose photos
queue for each worker's reading thread (a photo that waited past
``REFEREE_PHOTO_WAIT`` is answered 503, to be sent again).

It prints, per N: the follower requests' p50/p95/p99 (a stream's time to its
headers; each poll and panel fetch), the reveal's answer time p50/p95, the
time from each tap until every follower shows the card (p50 and worst over
the reveals), each follower's delay p50/p95/p99, errors (refused or broken
connections, bad statuses, cards never shown), the load average, and the
server's CPU when it started the server.
"""

from __future__ import annotations

import argparse
import asyncio
import http.cookiejar
import itertools
import os
import re
import resource
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ("Ann", "Ben", "Cat")
"""The bench table's players; photos go to their seats in turn."""
RAMP_PER_SECOND = 200
POLL_SECONDS = 1.0


# --- the host, in a thread of its own (urllib, with the session cookie) ---------------------------------


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


class Host:
    """Sets up a table through the form and reveals its cards, as the host's page does."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), NoRedirect()
        )

    def request(self, path: str, form: dict[str, str] | None = None, accept: str = "text/html") -> Any:
        body = urllib.parse.urlencode(form).encode() if form is not None else None
        req = urllib.request.Request(self.base + path, data=body, headers={"Accept": accept})
        try:
            with self.opener.open(req, timeout=60) as response:
                return response.status, response.read().decode(), dict(response.headers)
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(), dict(error.headers)

    @staticmethod
    def csrf(html: str) -> str:
        found = re.search(r'name="csrf_token"(?: type="hidden")? value="([^"]+)"', html)
        assert found, "no CSRF token on the page"
        return found.group(1)

    def set_up(self) -> tuple[str, str]:
        """A base game for a hall of players: (code, host token)."""
        _, page, _ = self.request("/")
        form = {"edition": "base", "map_side": "A", "players": "\n".join(PLAYERS), "edicts": "random"}
        form.update(seed=f"bench-{time.time_ns()}", csrf_token=self.csrf(page))
        status, _, headers = self.request("/", form)
        assert status == 303, f"setting up a table answered {status}"
        found = re.search(r"/t/([A-Z0-9]+)/host/([^/?#]+)$", headers["Location"])
        assert found
        code, token = found.groups()
        _, host_page, _ = self.request(f"/t/{code}/host/{token}")
        self.token = token
        self.form_token = self.csrf(host_page)
        return code, token

    def read_photo(self, code: str, seat: int, photo: bytes) -> tuple[int, float]:
        """Send ``photo`` to seat ``seat``'s spring sheet as the editor's photo
        form does (the host may read any seat's): (status, seconds to the answer)."""
        boundary = f"bench-{time.time_ns()}"
        token = f'--{boundary}\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n'
        file = f'--{boundary}\r\nContent-Disposition: form-data; name="photo"; filename="sheet.jpg"\r\n'
        head = f"{token}{self.form_token}\r\n{file}Content-Type: image/jpeg\r\n\r\n"
        body = head.encode() + photo + f"\r\n--{boundary}--\r\n".encode()
        req = urllib.request.Request(
            f"{self.base}/t/{code}/sheets/{seat}/spring/photo",
            data=body,
            headers={
                "Content-Type": f"multipart/form-data; boundary={boundary}",
                "Accept": "application/json",
            },
        )
        started = time.monotonic()
        try:
            with self.opener.open(req, timeout=300) as response:
                response.read()
                status = response.status
        except urllib.error.HTTPError as error:
            status = error.code
        return status, time.monotonic() - started

    def reveal(self, code: str, taps: int) -> tuple[int, float]:
        """The tap that makes ``taps + 1``: (status, seconds to the answer)."""
        form = {"csrf_token": self.form_token, "host": self.token, "taps": str(taps)}
        started = time.monotonic()
        status, _, _ = self.request(f"/t/{code}/reveal", form, accept="application/json")
        return status, time.monotonic() - started


# --- the followers: raw HTTP/1.1 over asyncio ------------------------------------------------------------


@dataclass
class Run:
    """What the followers of one run saw."""

    requests: list[float] = field(default_factory=list)
    """Seconds each follower request took (a stream's, to its headers)."""
    shown: dict[int, list[float]] = field(default_factory=dict)
    """For each taps, the monotonic times at which followers had the card."""
    errors: list[str] = field(default_factory=list)
    connected: int = 0


async def read_head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
    return status, headers


async def read_body(reader: asyncio.StreamReader, headers: dict[str, str]) -> bytes:
    if headers.get("transfer-encoding") == "chunked":
        parts = []
        while True:
            size = int((await reader.readline()).split(b";")[0], 16)
            parts.append(await reader.readexactly(size + 2))
            if size == 0:
                return b"".join(parts)
    return await reader.readexactly(int(headers.get("content-length", "0")))


def request_bytes(host: str, path: str, extra: str = "") -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUser-Agent: followers-bench\r\n{extra}\r\n".encode()


async def stream_follower(
    host: str, port: int, code: str, run: Run, stop: asyncio.Event, deadline: float
) -> None:
    """An EventSource on the table: a card is shown when its panel event arrives."""
    started = time.monotonic()
    try:
        reader, writer = await asyncio.open_connection(host, port, limit=1 << 20)
    except OSError as error:
        run.errors.append(f"connect: {error}")
        return
    try:
        writer.write(request_bytes(host, f"/t/{code}/events?taps=0", "Accept: text/event-stream\r\n"))
        status, headers = await read_head(reader)
        run.requests.append(time.monotonic() - started)
        if status != 200:
            run.errors.append(f"stream status {status}")
            return
        run.connected += 1
        # Each event is one chunk, so a chunk's size line never splits one: find
        # the panel events' ids in what arrives, keeping a tail cut by a read.
        buffer = b""
        while not stop.is_set():
            data = await asyncio.wait_for(reader.read(1 << 16), max(0.1, deadline - time.monotonic()))
            if not data:
                run.errors.append("stream ended early")
                return
            now = time.monotonic()
            buffer += data
            start = 0
            while (at := buffer.find(b"event: panel\nid: ", start)) >= 0:
                end = buffer.find(b"\n", at + 17)
                if end < 0:
                    break
                run.shown.setdefault(int(buffer[at + 17 : end]), []).append(now)
                start = end
            buffer = buffer[max(start, len(buffer) - 64) :]
    except TimeoutError:
        if not stop.is_set():
            run.errors.append("stream silent past the end")
    except (OSError, asyncio.IncompleteReadError, ValueError) as error:
        if not stop.is_set():
            run.errors.append(f"stream: {type(error).__name__}")
    finally:
        writer.close()


async def poll_follower(host: str, port: int, code: str, run: Run, stop: asyncio.Event) -> None:
    """The fallback: poll the state once a second (a kept-alive connection, as
    a browser keeps one); fetch the panel when it changed. A broken connection
    counts as an error, and the next poll opens a new one, as a browser does."""
    connection: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
    etag, seen, first = "", 0, True
    while not stop.is_set():
        started = time.monotonic()
        try:
            if connection is None:
                connection = await asyncio.open_connection(host, port, limit=1 << 20)
                if first:
                    run.connected += 1
                    first = False
            reader, writer = connection
            writer.write(request_bytes(host, f"/api/t/{code}", f"If-None-Match: {etag}\r\n" if etag else ""))
            status, headers = await asyncio.wait_for(read_head(reader), 30)
            body = await read_body(reader, headers)
            run.requests.append(time.monotonic() - started)
            if status == 200:
                etag = headers.get("etag", "")
                found = re.search(rb'"taps":\s*(\d+)', body)
                taps = int(found.group(1)) if found else seen
                if taps != seen:
                    fetched = time.monotonic()
                    writer.write(request_bytes(host, f"/t/{code}/panel"))
                    status, headers = await asyncio.wait_for(read_head(reader), 30)
                    await read_body(reader, headers)
                    run.requests.append(time.monotonic() - fetched)
                    if status == 200:
                        seen = taps
                        run.shown.setdefault(taps, []).append(time.monotonic())
                    else:
                        run.errors.append(f"panel status {status}")
            elif status != 304:
                run.errors.append(f"poll status {status}")
            if headers.get("connection", "").lower() == "close":
                writer.close()
                connection = None
        except (OSError, TimeoutError, asyncio.IncompleteReadError, ValueError) as error:
            if stop.is_set():
                break
            run.errors.append(f"poll: {type(error).__name__}")
            if connection is not None:
                connection[1].close()
            connection = None
        await asyncio.sleep(max(0.0, POLL_SECONDS - (time.monotonic() - started)))
    if connection is not None:
        connection[1].close()


# --- one run ----------------------------------------------------------------------------------------------


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds == seconds else "n/a"


def send_photos(
    host: Host, code: str, seat: int, photos: list[Path], stop: threading.Event
) -> list[tuple[int, float]]:
    """One player sending ``photos`` round and round until ``stop``: each answer's (status, seconds)."""
    answers = []
    for n in itertools.count():
        if stop.is_set():
            return answers
        answers.append(host.read_photo(code, seat, photos[n % len(photos)].read_bytes()))
    return answers


async def run_once(
    base: str,
    followers: int,
    reveals: int,
    every: float,
    mode: str,
    master: int | None,
    photos: list[Path] | None = None,
    readers: int = 2,
) -> dict[str, Any]:
    parts = urllib.parse.urlsplit(base)
    host_name, port = parts.hostname or "127.0.0.1", parts.port or 80
    host = Host(base)
    code, _ = await asyncio.to_thread(host.set_up)
    run, stop = Run(), asyncio.Event()
    deadline = time.monotonic() + followers / RAMP_PER_SECOND + 10 + reveals * every + 30
    tasks = []
    for n in range(followers):
        if mode == "events":
            tasks.append(asyncio.create_task(stream_follower(host_name, port, code, run, stop, deadline)))
        else:
            tasks.append(asyncio.create_task(poll_follower(host_name, port, code, run, stop)))
        if n % 20 == 19:
            await asyncio.sleep(20 / RAMP_PER_SECOND)
    ramp_end = time.monotonic() + 15
    while run.connected + len(run.errors) < followers and time.monotonic() < ramp_end:
        await asyncio.sleep(0.1)
    await asyncio.sleep(1.0)
    load_before = os.getloadavg()[0]

    no_more_photos = threading.Event()
    # a thread for each phone: in asyncio's default pool, which holds a few
    # threads only, phones sending until the end would leave none for the taps
    phones = ThreadPoolExecutor(max_workers=readers, thread_name_prefix="phone")
    loop = asyncio.get_running_loop()
    senders = [
        # the table's seats, taken in turn: more phones than seats send alike
        loop.run_in_executor(phones, send_photos, host, code, 1 + n % len(PLAYERS), photos, no_more_photos)
        for n in range(readers)
        if photos
    ]
    if senders:
        await asyncio.sleep(2.0)  # the first photos are being read
    taps_at: dict[int, float] = {}
    reveal_times: list[float] = []
    for taps in range(reveals):
        tapped = time.monotonic()
        status, took = await asyncio.to_thread(host.reveal, code, taps)
        taps_at[taps + 1] = tapped
        reveal_times.append(took)
        if status != 200:
            run.errors.append(f"reveal status {status}")
        await asyncio.sleep(max(0.0, every - (time.monotonic() - tapped)))
    await asyncio.sleep(1.0)  # the last card's stragglers
    no_more_photos.set()
    photo_answers = [a for answers in await asyncio.gather(*senders) for a in answers]
    phones.shutdown()
    memory = rss_megabytes(master) if master else None
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)

    all_shown, delays = [], []
    for taps, at in taps_at.items():
        times = run.shown.get(taps, [])
        missing = followers - len(times)
        if missing:
            run.errors.append(f"{missing} followers never showed card {taps}")
        if times:
            delays.extend(t - at for t in times)
            all_shown.append(max(times) - at if not missing else float("inf"))
    return {
        "followers": followers,
        "mode": mode,
        "connected": run.connected,
        "requests": run.requests,
        "reveal_times": reveal_times,
        "all_shown": all_shown,
        "delays": delays,
        "errors": run.errors,
        "load": (load_before, os.getloadavg()[0]),
        "memory": memory,
        "photos": photo_answers if photos else None,
    }


def report(result: dict[str, Any], cpu: float | None, seconds: float) -> None:
    req, delays = result["requests"], result["delays"]
    shown = [s for s in result["all_shown"] if s != float("inf")]
    errors = result["errors"]
    print(f"\n{result['followers']} followers ({result['mode']}), {result['connected']} connected")
    print(
        f"  follower requests: {len(req)}, p50 {ms(percentile(req, 50))}, p95 {ms(percentile(req, 95))},"
        f" p99 {ms(percentile(req, 99))}"
    )
    rt = result["reveal_times"]
    print(f"  reveal answered: p50 {ms(percentile(rt, 50))}, p95 {ms(percentile(rt, 95))}, max {ms(max(rt))}")
    print(
        f"  every follower shows the card: p50 {ms(percentile(shown, 50))}, worst {ms(max(shown, default=0))}"
        f" (over {len(result['all_shown'])} reveals; {len(shown)} reached everyone)"
    )
    print(
        f"  each follower's delay: p50 {ms(percentile(delays, 50))}, p95 {ms(percentile(delays, 95))},"
        f" p99 {ms(percentile(delays, 99))}"
    )
    summary = {}
    for error in errors:
        summary[error] = summary.get(error, 0) + 1
    print(f"  errors: {len(errors)}" + "".join(f"\n    {n} x {e}" for e, n in summary.items()))
    load = result["load"]
    line = f"  load average (1 min) before/after: {load[0]:.2f} / {load[1]:.2f}"
    if cpu is not None:
        line += f"; server CPU {cpu:.1f} s over {seconds:.0f} s ({cpu / seconds:.2f} cores)"
    if result["memory"] is not None:
        line += f", {result['memory']:.0f} MB resident with the streams open"
    print(line)
    if result["photos"] is not None:
        answers = result["photos"]
        statuses: dict[int, int] = {}
        for status, _ in answers:
            statuses[status] = statuses.get(status, 0) + 1
        took = [t for _, t in answers]
        print(
            f"  photos answered meanwhile: {len(answers)} ("
            + ", ".join(f"{n} x {status}" for status, n in sorted(statuses.items()))
            + f"), p50 {ms(percentile(took, 50))}, max {ms(max(took, default=0))}"
        )


# --- the server, when the bench starts it ------------------------------------------------------------------


def recipe() -> list[str]:
    """The README's gunicorn line, as words."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(r"^SECRET_KEY=\S+ gunicorn .*$", readme, re.M)
    if not found:
        sys.exit("the README gives no gunicorn recipe")
    return shlex.split(found.group(0))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(database_url: str | None, folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    words = recipe()
    env_words = [w for w in words if re.match(r"^[A-Z_]+=", w)]
    command = words[len(env_words) :]
    port = free_port()
    command[command.index("-b") + 1] = f"127.0.0.1:{port}"
    gunicorn = Path(sys.executable).with_name("gunicorn")
    command[0] = str(gunicorn) if gunicorn.exists() else "gunicorn"
    env = {**os.environ, **dict(w.split("=", 1) for w in env_words), "REFEREE_INSTANCE": str(folder)}
    env.pop("DATABASE_URL", None)
    if database_url:
        env["DATABASE_URL"] = database_url
    log = open(folder / "gunicorn.log", "wb")  # noqa: SIM115  (kept open for the server's life)
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                time.sleep(1.0)  # both workers up
                print("server:", " ".join(shlex.quote(w) for w in env_words + command), f"({folder})")
                return proc, f"http://127.0.0.1:{port}"
        except OSError:
            if proc.poll() is not None:
                sys.exit(f"gunicorn stopped; see {folder / 'gunicorn.log'}")
            time.sleep(0.2)
    proc.kill()
    sys.exit("gunicorn did not open its port")


def server_processes(master: int) -> list[tuple[Path, list[str]]]:
    """Each of the server's processes (master and workers): its /proc folder and stat fields."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(stat.parent.name) == master or int(fields[1]) == master:
            found.append((stat.parent, fields))
    return found


def cpu_seconds(master: int) -> float:
    """User and system CPU of the server's master and workers so far."""
    tick = os.sysconf("SC_CLK_TCK")
    return sum((int(fields[11]) + int(fields[12])) / tick for _, fields in server_processes(master))


def rss_megabytes(master: int) -> float:
    """Resident memory of the server's master and workers now."""
    total = 0
    for folder, _ in server_processes(master):
        for line in (folder / "status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="a running server; without it the README's recipe is started")
    parser.add_argument("--database-url", help="DATABASE_URL for the server the bench starts")
    parser.add_argument("--followers", type=int, nargs="+", default=[100, 300, 1000])
    parser.add_argument("--reveals", type=int, default=8)
    parser.add_argument("--every", type=float, default=2.0)
    parser.add_argument("--mode", choices=["events", "poll"], default="events")
    parser.add_argument("--photos", type=Path, help="a folder of sheet photos to send meanwhile")
    parser.add_argument(
        "--readers", type=int, default=2, help="phones sending photos at once, to the three seats in turn"
    )
    args = parser.parse_args()
    photos = sorted(args.photos.glob("*.jpg")) if args.photos else None
    if args.photos and not photos:
        sys.exit(f"{args.photos} holds no .jpg photo")
    if not 1 <= args.readers <= 500:
        sys.exit("--readers: from 1 to 500 phones")

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 65536)), hard))
    print(f"{os.cpu_count()} cores; load average {' / '.join(f'{x:.2f}' for x in os.getloadavg())}")
    proc, base = None, args.url
    with tempfile.TemporaryDirectory() as folder:
        if base is None:
            proc, base = start_server(args.database_url, Path(folder))
        try:
            for followers in args.followers:
                cpu_before, started = (cpu_seconds(proc.pid) if proc else 0.0), time.monotonic()
                master = proc.pid if proc else None
                result = asyncio.run(
                    run_once(
                        base, followers, args.reveals, args.every, args.mode, master, photos, args.readers
                    )
                )
                seconds = time.monotonic() - started
                cpu = cpu_seconds(proc.pid) - cpu_before if proc else None
                report(result, cpu, seconds)
        finally:
            if proc is not None:
                proc.send_signal(signal.SIGINT)  # a quick stop: the streams are gone already
                proc.wait(30)


if __name__ == "__main__":
    main()
