"""Compressed answers: brotli or gzip, whichever the browser asks for.

Flask-Compress compresses each page, fragment, script and style sheet when
the request's ``Accept-Encoding`` allows it (brotli first, which phones
all take, then gzip) and leaves it alone otherwise; text shrinks to a
quarter or less. Only the types listed here are compressed, and never a
stream: a Server-Sent Events answer (``text/event-stream``) must reach the
phone event by event, and a compressor would hold events back until its
buffer fills. So the type is not listed and streamed answers are skipped
(``COMPRESS_STREAMS``).

A compressed answer's strong ETag gets the encoding appended (``"1-4:br"``),
as HTTP asks of a different representation. The browser sends that tag back
in ``If-None-Match``; a view that answers 304 itself compares it with the tag
it set (``"1-4"``), so the encoded tags are matched as their plain ones too,
and the cheap 304 stays cheap.
"""

from __future__ import annotations

import re

from flask import Flask, request
from flask_compress import Compress

#: What is worth compressing: text the pages are made of. Never ``text/event-stream``.
MIMETYPES = [
    "text/html",
    "text/css",
    "text/javascript",
    "application/javascript",
    "application/json",
    "image/svg+xml",
    "text/csv",
    "text/plain",
]

#: The encodings offered, the server's preference first.
ALGORITHMS = ["br", "gzip"]

_ENCODED_TAG = re.compile(r'"([^"]*):(?:{})"'.format("|".join(ALGORITHMS)))


def _match_encoded_etags() -> None:
    """Let ``If-None-Match: "1-4:br"`` match the view's ``"1-4"`` as well."""
    header = request.environ.get("HTTP_IF_NONE_MATCH", "")
    plain = _ENCODED_TAG.findall(header)
    if plain:
        request.environ["HTTP_IF_NONE_MATCH"] = ", ".join([header, *(f'"{tag}"' for tag in plain)])


def init_app(app: Flask) -> None:
    """Compress the listed types when the browser accepts brotli or gzip."""
    app.config.setdefault("COMPRESS_MIMETYPES", MIMETYPES)
    app.config.setdefault("COMPRESS_ALGORITHM", ALGORITHMS)
    app.config.setdefault("COMPRESS_STREAMS", False)
    app.before_request(_match_encoded_etags)
    Compress(app)
