"""Headers every answer carries, and trusting a reverse proxy when told to.

Every page says: do not guess content types, send no ``Referer`` to other
sites (a host page's address carries the host token; ``same-origin`` rather
than ``no-referrer``, because over HTTPS Flask-WTF refuses a form posted
without a ``Referer`` from this site), never show this site in a frame,
and run only scripts from this site (``Content-Security-Policy``). Styles
may be inline: the templates set CSS variables in ``style=`` attributes (a
swatch's ink, the brush grid's width) and scripts set one (``--dock``).
Photos come back to the page as ``data:`` images. The service worker and
the web app manifest come from this site too (``worker-src``,
``manifest-src``; ``referee/web/offline.py``).

Behind nginx or another reverse proxy, ``REFEREE_PROXY`` names how many
proxies stand in front; Werkzeug's ``ProxyFix`` then takes the scheme, host
and client address from their ``X-Forwarded-*`` headers, so cookies are
marked ``Secure`` and the join links say ``https://`` and the public host.
"""

from __future__ import annotations

from flask import Flask, Response
from werkzeug.middleware.proxy_fix import ProxyFix

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "worker-src 'self'",
        "manifest-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
}


def _add_headers(response: Response) -> Response:
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def init_app(app: Flask) -> None:
    """Send the headers on every answer; trust ``PROXY`` proxies' forwarded headers."""
    app.after_request(_add_headers)
    proxies = app.config.get("PROXY", 0)
    if proxies:
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies, x_port=proxies, x_prefix=proxies
        )
