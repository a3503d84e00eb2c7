"""QR stickers on physical cards: make them, and read them back from photos.

- `payload`: sticker URLs `<host>/c/<card-id>/<copy>` built and parsed (pure).
- `stickers`: sticker SVG and PNG, one per physical copy (pure; the `qrcode` package).
- `qr`: `decode(photo)` finds and reads every code; the only module importing OpenCV
  and numpy, so importing this package does not load them. This package's `decode` is
  the entry point for uploads: the header's pixel count is checked first, and at most
  DECODE_SLOTS photos are decoded at once; a large photo is decoded reduced first.
- `synth` and `bench`: generated test photos, and the benchmark against zxing-cpp.
"""

from __future__ import annotations

import threading
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
    "DECODE_SLOTS",
    "DECODE_WAIT_SECONDS",
    "CardRef",
    "DecodeBusy",
    "DecodeResult",
    "ScannedCode",
    "build_payload",
    "decode",
    "identify",
    "known_copies",
    "parse_payload",
]


DECODE_SLOTS = 2  # photos decoded at once, whatever the number of requests
DECODE_WAIT_SECONDS = 5.0  # how long a photo waits for a slot before DecodeBusy
_slots = threading.BoundedSemaphore(DECODE_SLOTS)


class DecodeBusy(RuntimeError):
    """Every decoding slot stayed taken for DECODE_WAIT_SECONDS."""


def decode(
    image: bytes | NDArray[np.uint8] | Image.Image, known: Mapping[str, int] | None = None
) -> DecodeResult:
    """Every QR code in a photo (see `qr.decode`); loads OpenCV on first use.

    Encoded bytes over `qr.MAX_PIXELS` raise `qr.ImageTooLarge` before any slot is
    taken or any pixel decoded; raises DecodeBusy when no slot frees in time.
    """
    from companion.vision import qr

    if isinstance(image, bytes | bytearray | memoryview):
        qr.check_size(image)
    if not _slots.acquire(timeout=DECODE_WAIT_SECONDS):
        raise DecodeBusy(f"{DECODE_SLOTS} photos are being decoded")
    try:
        return qr.decode(image, known)
    finally:
        _slots.release()
