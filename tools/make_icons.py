"""Draw the app's home-screen icons from ``static/favicon.svg``.

Why a script: the PNGs a phone puts on its home screen must be the favicon,
not a second drawing that drifts from it, and a PNG cannot be edited by
hand. Chromium renders the SVG (Debian's, through Playwright, as the browser
tests drive it), so no SVG library is needed. It writes, under
``static/icons/``:

- ``icon-192.png`` and ``icon-512.png``: the favicon itself, its rounded
  corners transparent (the manifest's ``any`` icons);
- ``icon-maskable-512.png``: full bleed, the favicon's dark ground filling
  the square and the tiles inside the central circle of 40 % radius that
  every launcher's mask keeps (the manifest's ``maskable`` icon);
- ``apple-touch-icon.png``: 180 px on the dark ground, for iPhones, which
  round the corners themselves.

The output is committed; run it again after changing the favicon::

    python tools/make_icons.py
"""

from __future__ import annotations

import argparse
import base64
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
GROUND = "#2c2a26"
"""The favicon's dark ground (its rounded square), also the app's theme colour."""
MASKABLE_SHARE = 0.72
"""The favicon's width in the maskable icon: its tiles span 24/32 of it, so
their corners stay 0.38 of the width from the centre, inside the safe circle (0.4)."""


def page(svg: str, size: int, share: float, ground: str | None) -> str:
    """An HTML page of ``size`` pixels showing the SVG at ``share`` of its width."""
    data = base64.b64encode(svg.encode()).decode()
    inner = round(size * share)
    background = ground or "transparent"
    return (
        "<!doctype html><html><body style='margin:0'>"
        f"<div style='width:{size}px;height:{size}px;background:{background};"
        "display:flex;align-items:center;justify-content:center'>"
        f"<img src='data:image/svg+xml;base64,{data}' width='{inner}' height='{inner}'>"
        "</div></body></html>"
    )


ICONS = {
    # file name: (size in pixels, share of the width the favicon takes, ground or transparent)
    "icon-192.png": (192, 1.0, None),
    "icon-512.png": (512, 1.0, None),
    "icon-maskable-512.png": (512, MASKABLE_SHARE, GROUND),
    "apple-touch-icon.png": (180, 1.0, GROUND),
}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--svg", type=Path, default=ROOT / "static" / "favicon.svg")
    parser.add_argument("--out", type=Path, default=ROOT / "static" / "icons")
    args = parser.parse_args(argv)
    svg = args.svg.read_text(encoding="utf-8")
    args.out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
        for name, (size, share, ground) in ICONS.items():
            tab = browser.new_page(viewport={"width": size, "height": size}, device_scale_factor=1)
            tab.set_content(page(svg, size, share, ground))
            tab.wait_for_function("document.images[0].complete")
            tab.screenshot(path=str(args.out / name), omit_background=ground is None)
            tab.close()
            print(f"{args.out / name}: {size}x{size}")
        browser.close()


if __name__ == "__main__":
    main()
