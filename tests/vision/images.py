"""Encoded test images built in memory: pixel bombs that are small on disk, plain PNGs."""

from __future__ import annotations

import io
import struct
import zlib

from PIL import Image


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def bomb_png(side: int, rows: int | None = None) -> bytes:
    """A 1-bit blank PNG `side` pixels square, small on disk; `rows` cuts its data short."""
    compressor = zlib.compressobj(9)
    row = b"\x00" * (1 + (side + 7) // 8)  # filter byte, then the row's packed bits
    data = b"".join(compressor.compress(row) for _ in range(side if rows is None else rows))
    header = struct.pack(">IIBBBBB", side, side, 1, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", data + compressor.flush())
        + _chunk(b"IEND", b"")
    )


def small_png(size: tuple[int, int] = (64, 48)) -> bytes:
    out = io.BytesIO()
    Image.new("L", size, 200).save(out, format="PNG")
    return out.getvalue()


def refuse_decoding(*args: object) -> None:
    """Stands in for `cv2.imdecode` where the pixels must never be decoded."""
    raise AssertionError("the pixels were decoded")
