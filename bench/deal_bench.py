"""Size and time of the whole deal the host page fetches once (``/api/t/<code>/deal``).

    python bench/deal_bench.py [--runs 20]

For a table of each edition, prints how many panels the deal holds, its
size as sent and gzipped (what a reverse proxy that compresses would send),
and the median and worst time the app takes to render it, through Flask's
test client on a temporary SQLite file.
"""

from __future__ import annotations

import argparse
import gzip
import re
import statistics
import tempfile
import time
from pathlib import Path

from referee.web.app import create_app

SETUPS = [("base", "A"), ("heroes", "C"), ("combined", "C")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {"TESTING": True, "SECRET_KEY": "bench", "DATABASE_URL": f"sqlite:///{Path(folder) / 'b.sqlite'}"}
        )
        client = app.test_client()
        for edition, side in SETUPS:
            page = client.get("/").text
            csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
            assert csrf, "no CSRF token on the setup page"
            form = {"edition": edition, "map_side": side, "players": "Ann\nBen\nCat", "edicts": "random"}
            made = client.post("/", data={**form, "seed": "bench", "csrf_token": csrf.group(1)})
            found = re.search(r"/t/(\w+)/host/([^/?#]+)$", made.headers["Location"])
            assert found, made.headers["Location"]
            url = f"/api/t/{found.group(1)}/deal?token={found.group(2)}"
            times = []
            for _ in range(args.runs):
                start = time.perf_counter()
                response = client.get(url)
                times.append(time.perf_counter() - start)
            assert response.status_code == 200, response.text
            panels = len(response.get_json()["panels"])
            size = len(response.data) / 1024
            zipped = len(gzip.compress(response.data)) / 1024
            print(
                f"{edition:9} {panels} panels, {size:.0f} KiB ({zipped:.1f} KiB gzipped), "
                f"median {statistics.median(times) * 1000:.0f} ms, worst {max(times) * 1000:.0f} ms"
            )


if __name__ == "__main__":
    main()
