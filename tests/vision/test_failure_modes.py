"""The reader's fixed failure modes (issue 18), each on a generated image: a false
candidate that set off the fallback scans, the alignment search locking onto a
look-alike, and codes tilted 40-55 degrees away from the camera."""

from __future__ import annotations

import dataclasses
import math

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from companion.vision import qr
from companion.vision.stickers import ErrorLevel, qr_matrix

PAYLOAD = "http://192.168.1.20:5000/c/guild_chief_administrator/1"  # version 4, 33 modules
Bits = NDArray[np.bool_]


def render(bits: Bits, module: int = 8, quiet: int = 4) -> NDArray[np.uint8]:
    """A clean code image: black modules on white, with a quiet zone."""
    image = np.full((bits.shape[0] + 2 * quiet,) * 2, 255, np.uint8)
    image[quiet:-quiet, quiet:-quiet] = np.where(bits, 0, 255)
    return np.asarray(np.kron(image, np.ones((module, module), np.uint8)), np.uint8)


def on_table(*codes: tuple[NDArray[np.uint8], int, int]) -> NDArray[np.uint8]:
    """A 1280x720 grey table with each code image pasted at (x, y), slightly blurred."""
    table = np.full((720, 1280), 150, np.uint8)
    for image, x, y in codes:
        table[y : y + image.shape[0], x : x + image.shape[1]] = image
    return np.asarray(cv2.GaussianBlur(table, (3, 3), 0.8), np.uint8)


def read(image: NDArray[np.uint8], **changes: object) -> list[str]:
    options = dataclasses.replace(qr.DEFAULT, **changes)  # type: ignore[arg-type]
    return [c.payload for c in qr.decode(image, options=options).codes]


def matrix(payload: str = PAYLOAD, level: ErrorLevel = "M") -> Bits:
    return np.array(qr_matrix(payload, level), bool)


# -- a false candidate ---------------------------------------------------------------------


def fake_code(size: int = 33, seed: int = 5) -> Bits:
    """Finder patterns, separators and timing patterns of a real code around random
    modules: a candidate whose timing shows clearly but that holds no code."""
    real = matrix()
    fake = np.random.default_rng(seed).random((size, size)) < 0.5
    fake[6, :] = real[6, :]
    fake[:, 6] = real[:, 6]
    for y, x in ((0, 0), (0, size - 8), (size - 8, 0)):
        fake[y : y + 8, x : x + 8] = real[y : y + 8, x : x + 8]
    return fake


def test_a_false_candidate_is_not_counted_as_a_failed_code(monkeypatch):
    fake = fake_code()
    assert not qr._format_readable(fake)  # what the cheap check looks at
    image = on_table((render(matrix()), 100, 150), (render(fake), 700, 150))
    scans: list[tuple[int, int]] = []
    scan = qr._scan

    def counted(gray, *args):
        scans.append(gray.shape)
        return scan(gray, *args)

    monkeypatch.setattr(qr, "_scan", counted)
    assert read(image) == [PAYLOAD]
    # Before the format check the fake failed to decode, and the photo was scanned
    # again at a third and a ninth of its size for nothing.
    assert scans == [(720, 1280)]


def test_the_format_check_passes_every_real_code_and_few_random_grids():
    for level in ("L", "M", "Q", "H"):
        assert qr._format_readable(matrix(level=level))
        assert qr._format_readable(matrix("x", level))
    rng = np.random.default_rng(0)
    passed = sum(qr._format_readable(rng.random((29, 29)) < 0.5) for _ in range(1000))
    assert passed < 60  # about 3 in 100


# -- the alignment search locking onto a look-alike ---------------------------------------


def alignment_decoy(bits: Bits, shift: int = 3) -> Bits:
    """The code with its alignment pattern smudged light and a perfect copy drawn
    `shift` modules down and right, over data modules (error correction restores them)."""
    out = bits.copy()
    size = bits.shape[0]
    c = size - 7  # the alignment pattern's centre module
    pattern = bits[c - 2 : c + 3, c - 2 : c + 3].copy()
    out[c - 2 : c + 3, c - 2 : c + 3] = False
    d = c + shift
    out[d - 2 : d + 3, d - 2 : d + 3] = pattern
    return out


def test_a_decoy_alignment_pattern_does_not_stop_the_read():
    code = alignment_decoy(matrix())
    assert qr._read_modules(code) == PAYLOAD  # still a readable code
    image = on_table((render(code), 400, 150))
    # The alignment search finds the decoy and bends the grid: that alone reads nothing.
    assert read(image, base_retry=False) == []
    # The finders' own grid, tried when the corrected one fails, reads it.
    assert read(image) == [PAYLOAD]


# -- steep tilts ----------------------------------------------------------------------------


def tilted(
    code: NDArray[np.uint8], degrees: float, width: float, spin: float = 10.0
) -> NDArray[np.uint8]:
    """The code image turned `degrees` about the vertical axis, seen by a pinhole camera
    (focal length 900 px) in the middle of a 1280x720 photo, `width` px across face on."""
    half = width / 2
    corners = np.array([[-half, -half, 0], [half, -half, 0], [half, half, 0], [-half, half, 0]])
    t, s = math.radians(degrees), math.radians(spin)
    spin_z = np.array([[math.cos(s), -math.sin(s), 0], [math.sin(s), math.cos(s), 0], [0, 0, 1]])
    turn_y = np.array([[math.cos(t), 0, math.sin(t)], [0, 1, 0], [-math.sin(t), 0, math.cos(t)]])
    seen = corners @ spin_z.T @ turn_y.T + np.array([0, 0, 900.0])
    pixels = seen[:, :2] * 900.0 / seen[:, 2:] + np.array([640, 360])
    side = code.shape[0]
    square = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)
    homography = cv2.getPerspectiveTransform(square, pixels.astype(np.float32))
    photo = cv2.warpPerspective(
        code, homography, (1280, 720), flags=cv2.INTER_AREA, borderValue=150
    )
    return np.asarray(cv2.GaussianBlur(photo, (3, 3), 0.8), np.uint8)


@pytest.mark.parametrize("degrees", [40, 45, 50, 55])
@pytest.mark.parametrize("width", [150, 200, 260])
def test_a_code_tilted_away_reads(degrees, width):
    assert read(tilted(render(matrix()), degrees, width)) == [PAYLOAD]


def test_a_steep_tilt_needs_the_perspective_from_the_finders_sizes():
    photo = tilted(render(matrix()), 45, 260)
    assert read(photo, perspective=False) == []
    assert read(photo) == [PAYLOAD]
