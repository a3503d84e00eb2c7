"""Upload limits: pixel counts read from the header, decoder errors, the decoding slots."""

from __future__ import annotations

import io
import subprocess
import sys
import threading
from pathlib import Path

import cv2
import pytest
from PIL import Image

from companion import vision
from companion.vision import qr
from tests.vision.images import bomb_png, refuse_decoding, small_png


@pytest.fixture
def no_decoding(monkeypatch):
    """OpenCV's decoder, replaced by one that fails the test if it is ever called."""
    monkeypatch.setattr(cv2, "imdecode", refuse_decoding)


def test_the_header_gives_the_size_without_decoding(no_decoding):
    assert qr.check_size(small_png((64, 48))) == (64, 48)


def test_a_pixel_bomb_is_refused_from_its_header_alone(no_decoding):
    bomb = bomb_png(30_000)
    assert len(bomb) < 200_000  # 900 megapixels in a small file
    with pytest.raises(qr.ImageTooLarge):
        qr.decode(bomb)
    with pytest.raises(qr.ImageTooLarge):
        vision.decode(bomb)


@pytest.mark.parametrize("side", [6_400, 60_000, 200_000])
def test_every_size_over_the_limit_is_refused_as_too_large(no_decoding, side):
    with pytest.raises(qr.ImageTooLarge):
        qr.check_size(bomb_png(side, rows=1))  # Pillow's own bomb error included


def test_a_photo_at_the_limit_passes_the_header_check(no_decoding):
    assert qr.check_size(bomb_png(6_324, rows=1)) == (6_324, 6_324)  # 39.99 megapixels


def test_a_corrupt_png_raises_image_error():
    data = bytearray(small_png())
    start = data.index(b"IDAT") + 4
    data[start : start + 16] = b"\xff" * 16
    with pytest.raises(qr.ImageError):
        qr.decode(bytes(data))


def test_an_opencv_failure_is_an_image_error(monkeypatch):
    def fail(*args: object) -> None:
        raise cv2.error("imdecode failed")

    monkeypatch.setattr(cv2, "imdecode", fail)
    with pytest.raises(qr.ImageError):
        qr.decode(small_png())


def test_a_broken_lazily_loaded_pillow_image_is_an_image_error():
    data = small_png((640, 480))
    truncated = Image.open(io.BytesIO(data[: len(data) // 2]))
    with pytest.raises(qr.ImageError):
        qr.decode(truncated)


def test_a_photo_that_finds_every_slot_taken_raises_decode_busy(monkeypatch):
    monkeypatch.setattr(vision, "DECODE_WAIT_SECONDS", 0.01)
    held = [vision._slots.acquire(blocking=False) for _ in range(vision.DECODE_SLOTS)]
    try:
        assert all(held)
        with pytest.raises(vision.DecodeBusy):
            vision.decode(small_png())
    finally:
        for _ in held:
            vision._slots.release()
    assert vision.decode(small_png()).codes == ()  # the slots are free again


def test_no_more_than_the_slots_decode_at_once(monkeypatch):
    running = 0
    most = 0
    lock = threading.Lock()
    real_decode = qr.decode

    def counting(*args: object, **kwargs: object) -> object:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        try:
            threading.Event().wait(0.05)
            return real_decode(*args, **kwargs)  # type: ignore[arg-type]
        finally:
            with lock:
                running -= 1

    monkeypatch.setattr(qr, "decode", counting)
    threads = [threading.Thread(target=vision.decode, args=(small_png(),)) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert 1 <= most <= vision.DECODE_SLOTS


BOMB_MEMORY = """
import io
from pathlib import Path

from tests.vision.images import bomb_png
from tests.web.conftest import make_app


def kib(field):
    lines = Path("/proc/self/status").read_text().splitlines()
    return int(next(line for line in lines if line.startswith(field)).split()[1])


client = make_app().test_client()
bombs = [bomb_png(30_000), bomb_png(60_000, rows=1)]
client.post("/scan", data={"image": (io.BytesIO(bombs[0]), "warm.png")})  # loads the code
Path("/proc/self/clear_refs").write_text("5")  # the peak is the current size from here
before = kib("VmRSS")
for bomb in bombs:
    answer = client.post("/scan", data={"image": (io.BytesIO(bomb), "bomb.png")})
    assert answer.status_code == 422, answer.status_code
print(kib("VmHWM") - before)
"""


@pytest.mark.skipif(not Path("/proc/self/clear_refs").exists(), reason="needs Linux's /proc")
def test_pixel_bombs_posted_to_the_server_grow_its_memory_by_under_200_mb() -> None:
    """Issue 17, finding 2: a 151 KB PNG of 30000x30000 pixels took 4.5 GB. Measured in a
    process of its own: its peak resident size after the bombs less its size before."""
    root = Path(__file__).resolve().parent.parent.parent
    done = subprocess.run(
        [sys.executable, "-c", BOMB_MEMORY], cwd=root, capture_output=True, text=True, check=True
    )
    grown_kib = int(done.stdout.strip().splitlines()[-1])
    assert grown_kib < 200 * 1024
