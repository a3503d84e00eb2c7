"""QR stickers on physical cards: make them, and read them back from photos.

- `payload`: sticker URLs `<host>/c/<card-id>/<copy>` built and parsed (pure).
- `stickers`: sticker SVG and PNG, one per physical copy (pure; the `qrcode` package).
- `qr`: `decode(photo)` finds and reads every code; the only module importing OpenCV
  and numpy, so importing this package does not load them.
- `synth` and `bench`: generated test photos, and the benchmark against zxing-cpp.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from companion.vision.payload import (
    CardRef,
    DecodeResult,
    ScannedCode,
    build_payload,
    identify,
    known_copies,
    parse_payload,
)

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray
    from PIL import Image

__all__ = [
    "CardRef",
    "DecodeResult",
    "ScannedCode",
    "build_payload",
    "decode",
    "identify",
    "known_copies",
    "parse_payload",
]


def decode(
    image: bytes | NDArray[np.uint8] | Image.Image, known: Mapping[str, int] | None = None
) -> DecodeResult:
    """Every QR code in a photo (see `qr.decode`); loads OpenCV on first use."""
    from companion.vision import qr

    return qr.decode(image, known)
