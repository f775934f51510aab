"""Every kind of bad upload is refused with a sentence, never a traceback."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from referee.vision.errors import NoGridError, NotAnImageError, VisionError
from referee.vision.load import MAX_BYTES
from referee.vision.reader import read_sheet

SAMPLES = Path(__file__).parents[2] / "sample_sheets"


def _jpeg(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=85)
    return buf.getvalue()


def _bomb() -> bytes:
    buf = io.BytesIO()
    Image.new("1", (12000, 8000)).save(buf, "PNG")
    return buf.getvalue()


def _something_else() -> bytes:
    rng = np.random.default_rng(3)
    img = (rng.random((90, 120, 3)) * 255).astype(np.uint8)
    return _jpeg(Image.fromarray(img).resize((1200, 900), Image.Resampling.BICUBIC))


def _blank_page() -> bytes:
    rng = np.random.default_rng(4)
    page = np.full((1000, 800, 3), 235, np.float32) + rng.normal(0, 3, (1000, 800, 3))
    return _jpeg(Image.fromarray(np.clip(page, 0, 255).astype(np.uint8)))


def _truncated() -> bytes:
    data = (SAMPLES / "000.jpg").read_bytes()
    return data[: len(data) // 2]


CASES = [
    ("zero bytes", lambda: b"", NotAnImageError, "empty"),
    (
        "not an image",
        lambda: b"Cartographers is a map-drawing game.\n" * 50,
        NotAnImageError,
        "not a picture",
    ),
    ("truncated jpeg", _truncated, NotAnImageError, "incomplete"),
    ("over the size limit", lambda: b"\xff\xd8" + b"\0" * (MAX_BYTES + 1), NotAnImageError, "larger than"),
    ("decompression bomb", _bomb, NotAnImageError, "send a smaller photo"),
    ("heic", lambda: b"\0\0\0\x18ftypheic\0\0\0\0mif1heic" + b"\0" * 500, NotAnImageError, "JPEG"),
    ("photo of something else", _something_else, NoGridError, "no map grid found"),
    ("blank page", _blank_page, NoGridError, "no map grid found"),
]


@pytest.mark.parametrize(("name", "make", "error", "words"), CASES, ids=[c[0] for c in CASES])
def test_refused_with_a_sentence(name: str, make, error: type[VisionError], words: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(error) as info:
        read_sheet(make(), "A")
    message = str(info.value)
    assert words in message
    assert "\n" not in message and len(message) < 240


def test_unknown_side_is_refused() -> None:
    with pytest.raises(VisionError, match="no map side"):
        read_sheet((SAMPLES / "000.jpg").read_bytes(), "E")
