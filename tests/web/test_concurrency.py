"""Two taps at the same moment reveal exactly one card: eight simultaneous
reveal POSTs against a real threaded server, all claiming the same ``taps``."""

from __future__ import annotations

import json

from tests.web.conftest import Browserless, LiveServer, live_table, simultaneous_taps


def taps_of(http: Browserless, code: str) -> int:
    status, body, _ = http.request(f"/api/t/{code}", accept="application/json")
    assert status == 200
    return int(json.loads(body)["taps"])


def test_eight_simultaneous_reveals_reveal_one_card(live: LiveServer) -> None:
    http = Browserless(live.url)
    code, token = live_table(http)
    for seen in range(3):
        statuses = simultaneous_taps(http, code, token, "reveal", seen, 8)
        assert sorted(statuses) == [200] + [409] * 7
        assert taps_of(http, code) == seen + 1


def test_eight_simultaneous_undos_take_back_one_card(live: LiveServer) -> None:
    http = Browserless(live.url)
    code, token = live_table(http)
    simultaneous_taps(http, code, token, "reveal", 0, 1)
    simultaneous_taps(http, code, token, "reveal", 1, 1)
    statuses = simultaneous_taps(http, code, token, "undo", 2, 8)
    assert sorted(statuses) == [200] + [409] * 7
    assert taps_of(http, code) == 1
