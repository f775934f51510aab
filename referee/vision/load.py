"""Stage 1: bytes to an upright RGB array, refusing what is not a usable photo.

The photo is turned the way the phone says (EXIF orientation) so that every
later stage and every pixel coordinate refers to the picture as the player
sees it. Large JPEGs are decoded at a reduced scale (the grid needs far fewer
pixels than a 12 MP camera gives), which is most of the reader's speed.
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageOps, UnidentifiedImageError

from referee.rules.i18n import _
from referee.vision.errors import NotAnImageError, TooLargeError

MAX_BYTES = 30 * 1024 * 1024
"""Largest upload read: a 12 MP phone JPEG is 3-8 MB."""
MAX_PIXELS = 64_000_000
"""Largest picture decoded, well under Pillow's decompression-bomb limit."""
WORK_SIDE = 1400
"""The working picture's longer side in pixels, at most."""

_HEIF_BRANDS = {b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1", b"avif"}
HEIC_ADVICE = _(
    "this is a HEIC photo, which cannot be read here: send it as JPEG instead "
    "(on an iPhone: Settings > Camera > Formats > Most Compatible, or share the photo as JPEG)"
)


@dataclass(frozen=True)
class Photo:
    """The working picture and how it relates to the photo as displayed."""

    rgb: NDArray[np.uint8]
    """Upright RGB, at most ``WORK_SIDE`` pixels on its longer side."""
    scale: float
    """Displayed-photo pixels per working pixel."""
    size: tuple[int, int]
    """The displayed photo's width and height."""


DEEP_GREY = frozenset({"I", "I;16", "I;16B", "I;16L", "I;16N", "F"})
"""Pillow's modes for grey pictures of more than 8 bits a pixel: a scanner's
16-bit PNG or TIFF opens in one of them."""


def _eight_bit(img: Image.Image) -> Image.Image:
    """``img`` with its grey levels on the 0 to 255 scale. Pillow converts a
    16-bit grey picture to RGB by clipping each level at 255, so a scan
    would come out a blank white page, and the player would be told that
    no grid was found rather than that the photo has no colour. Levels are
    taken as 16-bit when any exceeds 255 (a 16-bit file's own scale), and
    a floating-point picture whose levels stay within 1 as on that scale."""
    if img.mode not in DEEP_GREY:
        return img
    levels = np.asarray(img, np.float64)
    top = float(levels.max()) if levels.size else 0.0
    if img.mode.startswith("I;16") or top > 255:
        full = 65535.0
    elif img.mode == "F" and top <= 1:
        full = 1.0
    else:
        full = 255.0
    eight = np.clip(np.rint(levels * (255.0 / full)), 0, 255).astype(np.uint8)
    return Image.fromarray(eight, "L")


def load_photo(data: bytes) -> Photo:
    """Decode an uploaded photo, or raise ``NotAnImageError`` with a sentence."""
    if not data:
        raise NotAnImageError(_("the file is empty: choose a photo of your map sheet"))
    if len(data) > MAX_BYTES:
        raise TooLargeError(
            _("the file is larger than %(mb)d MB: send a smaller photo", mb=MAX_BYTES // 2**20)
        )
    if data[4:8] == b"ftyp" and data[8:12] in _HEIF_BRANDS:
        raise NotAnImageError(HEIC_ADVICE)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            img: Image.Image = Image.open(io.BytesIO(data))
            w, h = img.size
            if w * h > MAX_PIXELS:
                raise TooLargeError(
                    _(
                        "the picture is %(w)dx%(h)d pixels, more than %(mp)d megapixels: send a "
                        "smaller photo",
                        w=w,
                        h=h,
                        mp=MAX_PIXELS // 1_000_000,
                    )
                )
            orientation = img.getexif().get(0x0112, 1)
            turned = orientation in (5, 6, 7, 8)
            disp = (h, w) if turned else (w, h)
            if img.format == "JPEG":
                k = min(1.0, WORK_SIDE / max(w, h))
                img.draft("RGB", (int(w * k) + 1, int(h * k) + 1))
            img.load()
            img = ImageOps.exif_transpose(img)
            img = _eight_bit(img).convert("RGB")
    except NotAnImageError:
        raise  # our own refusal (too many pixels) is a ValueError too: keep its sentence
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise TooLargeError(
            _("the picture is far too large to be a photo (too many pixels): send a smaller photo")
        ) from None
    except UnidentifiedImageError:
        raise NotAnImageError(
            _(
                "this is not a picture the reader can open: send a JPEG or PNG photo",
            )
        ) from None
    except (OSError, SyntaxError, ValueError) as e:
        if "truncated" in str(e) or "broken" in str(e):
            raise NotAnImageError(
                _(
                    "the photo is incomplete (the file was cut short): send it again",
                )
            ) from None
        raise NotAnImageError(_("the photo cannot be decoded: send it again as JPEG or PNG")) from None
    if min(img.size) < 200:
        raise NotAnImageError(_("the picture is too small to read: send a photo of at least 1 megapixel"))
    long_side = max(img.size)
    if long_side > WORK_SIDE:
        k = WORK_SIDE / long_side
        img = img.resize(
            (round(img.width * k), round(img.height * k)), Image.Resampling.BILINEAR, reducing_gap=2.0
        )
    return Photo(np.asarray(img, np.uint8), disp[0] / img.width, disp)
