"""A phone's large photo is decoded reduced first (issue 17, "downscale before the
full-size pass"): a 30 MP JPEG whose code reads at a quarter of its size never has its
full-size pixels decoded; the full-size pass comes only while nothing reads, and only up
to qr.FULL_PASS_PIXELS (above that, half size)."""

from __future__ import annotations

import io
import math
from collections.abc import Iterator

import cv2
import numpy as np
import pytest
from PIL import Image

from companion import vision
from companion.vision import qr
from companion.vision.synth import make_scene

PAYLOAD = "http://192.168.1.20:5000/c/the_spice_must_flow/3"
LARGE = (7296, 4104)  # 29.9 megapixels, 16:9


def jpeg(image: Image.Image, quality: int = 90) -> bytes:
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=quality)
    return out.getvalue()


@pytest.fixture(scope="module")
def scene_30mp() -> tuple[bytes, tuple[tuple[float, float], ...]]:
    """A sticker photo (synth, mild distortions) enlarged to 30 MP, and its code's corners."""
    scene = make_scene(11, (1280, 720), kinds=(), payloads=(PAYLOAD,))
    by = LARGE[0] / 1280
    large = scene.image.convert("L").resize(LARGE, Image.Resampling.BICUBIC)
    corners = tuple(((x + 0.5) * by - 0.5, (y + 0.5) * by - 0.5) for x, y in scene.codes[0].corners)
    return jpeg(large), corners


def blank(size: tuple[int, int]) -> Image.Image:
    """A smooth grey gradient: a photo with no code and nothing code-like."""
    w, h = size
    row = np.linspace(90, 170, w, dtype=np.float32)
    return Image.fromarray(np.broadcast_to(row, (h, w)).astype(np.uint8), "L")


@pytest.fixture
def decodes(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The flags OpenCV's decoder is called with, in turn (the decoding itself is real)."""
    flags: list[int] = []
    real = cv2.imdecode

    def recording(buf: np.ndarray, flag: int) -> np.ndarray | None:
        flags.append(flag)
        return real(buf, flag)

    monkeypatch.setattr(cv2, "imdecode", recording)
    yield flags


def test_a_code_in_a_30_megapixel_photo_is_read_from_a_quarter_of_its_pixels(
    scene_30mp: tuple[bytes, tuple[tuple[float, float], ...]], decodes: list[int]
) -> None:
    data, corners = scene_30mp
    result = vision.decode(data)  # the uploads' entry: header check, decoding slots
    assert [c.payload for c in result.codes] == [PAYLOAD]
    assert (result.width, result.height) == LARGE  # corners in the photo's own pixels
    for got, want in zip(result.codes[0].corners, corners, strict=True):
        assert math.dist(got, want) < 16  # four full-size pixels per decoded one
    assert result.decoded == (4,)
    assert decodes == [cv2.IMREAD_REDUCED_GRAYSCALE_4]  # never the full-size pixels


def test_a_large_photo_without_a_code_ends_at_half_size_over_the_budget(
    decodes: list[int],
) -> None:
    assert LARGE[0] * LARGE[1] > qr.FULL_PASS_PIXELS
    result = qr.decode(jpeg(blank(LARGE)))
    assert result.codes == ()
    assert result.decoded == (4, 2)
    assert decodes == [cv2.IMREAD_REDUCED_GRAYSCALE_4, cv2.IMREAD_REDUCED_GRAYSCALE_2]


def test_a_photo_within_the_budget_still_gets_its_full_size_pass(decodes: list[int]) -> None:
    size = (4000, 3000)  # a 12 MP phone photo
    assert size[0] * size[1] <= qr.FULL_PASS_PIXELS
    result = qr.decode(jpeg(blank(size)))
    assert result.decoded == (2, 1)
    assert decodes == [cv2.IMREAD_REDUCED_GRAYSCALE_2, cv2.IMREAD_GRAYSCALE]


def test_a_small_code_in_a_12_megapixel_photo_is_read_in_the_full_size_pass() -> None:
    """What the full-size pass is for: a code too small to read at half size."""
    scene = make_scene(5, (1280, 720), kinds=(), payloads=(PAYLOAD,))
    by = 2.5 / scene.codes[0].module_px  # modules of 2.5 pixels: 1.25 at half size
    code = scene.image.convert("L").resize((round(1280 * by), round(720 * by)))
    photo = blank((4000, 3000))
    photo.paste(code, (1500, 1200))
    result = qr.decode(jpeg(photo, quality=95))
    assert [c.payload for c in result.codes] == [PAYLOAD]
    assert result.decoded == (2, 1)


def test_a_png_is_decoded_once_at_full_size(decodes: list[int]) -> None:
    """libjpeg alone decodes reduced without the full-size pixels: OpenCV decodes any
    other format whole, so it is decoded once and shrunk for each pass."""
    out = io.BytesIO()
    blank((4000, 3000)).save(out, format="PNG")
    result = qr.decode(out.getvalue())
    assert result.decoded == (1,)
    assert decodes == [cv2.IMREAD_GRAYSCALE]


def test_a_pillow_image_or_an_array_is_scanned_as_before() -> None:
    """Only uploads are decoded reduced: the benchmark's Pillow images keep their path."""
    scene = make_scene(11, (1920, 1080), kinds=(), payloads=(PAYLOAD,))
    assert qr.decode(scene.image).decoded == (1,)
    assert [c.payload for c in qr.decode(np.asarray(scene.image)).codes] == [PAYLOAD]


def test_a_photo_turned_by_its_exif_orientation_gives_its_upright_size(
    decodes: list[int],
) -> None:
    """OpenCV turns a photo upright by its EXIF orientation: the size the corners are
    given in is the upright one, as when every pixel was decoded."""
    exif = Image.Exif()
    exif[0x0112] = 6  # rotated 90 degrees: stored 6000 wide, shown 6000 high
    out = io.BytesIO()
    blank((6000, 3000)).save(out, format="JPEG", exif=exif.tobytes())
    result = qr.decode(out.getvalue())
    assert decodes[0] == cv2.IMREAD_REDUCED_GRAYSCALE_2
    assert (result.width, result.height) == (3000, 6000)


def test_a_phones_mpo_photo_is_decoded_reduced_as_a_jpeg(decodes: list[int]) -> None:
    """Many phones save their JPEGs with a multi-picture index, which Pillow calls MPO."""
    out = io.BytesIO()
    preview = blank((640, 360))  # a second picture: what makes the index
    blank(LARGE).save(out, format="MPO", save_all=True, append_images=[preview])
    assert Image.open(io.BytesIO(out.getvalue())).format == "MPO"
    assert qr.decode(out.getvalue()).decoded == (4, 2)
    assert decodes[0] == cv2.IMREAD_REDUCED_GRAYSCALE_4
